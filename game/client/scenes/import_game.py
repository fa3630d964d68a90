"""Bringing in a game from elsewhere — pasted, or a file from the import folder — to replay
it like a finished match (the reading is ``game.session.importing``); a file of several
games lists them to choose from."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import pygame

from game.client import theme
from game.client.navigator import Screen, make
from game.client.scenes.menu import Item, MenuScene, item
from game.client.scenes.saved import MatchListScene, Row, fitted
from game.i18n import _, ngettext
from game.names import variant_subtitle, variant_title
from game.session.importing import (
    GameInFile,
    decode_text,
    games_in,
    mills_that_fit,
    player_names,
)
from game.session.match import Match
from game.session.saves import plain
from game.session.seats import Seat

if TYPE_CHECKING:
    from game.client.app import App

log = logging.getLogger(__name__)


class Reading:
    """A text read into games on a thread of its own, off the frame loop (a file of a
    thousand games takes seconds): first which Mulino rules a move list fits, then — once
    one is known — its games.  ``done`` is set, and the app woken, when it is over."""

    def __init__(self, text: str, mill: str | None, wake: Callable[[], None]) -> None:
        self.fits: list[str] = []
        self.games: list[GameInFile] = []
        self.done = False
        self._thread = threading.Thread(
            target=self._read, args=(text, mill, wake), name="import", daemon=True
        )
        self._thread.start()

    def _read(self, text: str, mill: str | None, wake: Callable[[], None]) -> None:
        try:
            self.fits = mills_that_fit(text) if mill is None else [mill]
            if len(self.fits) <= 1:
                self.games = games_in(text, *self.fits)
        finally:
            self.done = True
            wake()


SUFFIXES = (".pdn", ".txt")
MOST_FILES = 6
"""Files listed at once: the newest."""
LARGEST = 1_000_000
"""Bytes of the largest file read: a game's record is a few kilobytes."""


def clipboard_text() -> str:
    """The text on the system clipboard ("" when there is none or it cannot be read)."""
    try:
        if not pygame.scrap.get_init():
            pygame.scrap.init()
        return pygame.scrap.get_text() or ""
    except pygame.error as error:
        log.info("clipboard unreadable: %s", error)
        return ""


class ImportScene(MenuScene):
    """Paste a Dama game in PDN or a Mulino move list, or pick a file of the import folder;
    a game that cannot be read is refused with its line and the reason."""

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.folder = app.paths.data / "import"
        self.problem = ""
        self.reading: tuple[Reading, str] | None = None
        """The text being read, off the frame loop, and the text itself (asked again about
        with the Mulino rules it fits)."""

    def title(self) -> str:
        return _("Import a game")

    def subtitle(self) -> str:
        return _("PDN for Dama, a1–g7 move lists for Mulino")

    def items(self) -> list[Item]:
        entries = [item(lambda: _("Paste a game"), self._paste, "paste")]
        for path in self._files():
            entries.append(item(partial(_open_label, path), partial(self._open, path),
                                f"file {path.name}"))  # fmt: skip
        entries.append(item(lambda: _("Back"), self.app.pop, "back"))
        return entries

    def _files(self) -> list[Path]:
        try:
            found = [p for p in self.folder.iterdir() if p.suffix.lower() in SUFFIXES]
        except OSError:
            return []
        found.sort(key=lambda p: p.stat().st_mtime if p.exists() else 0, reverse=True)
        return found[:MOST_FILES]

    def _paste(self) -> None:
        if self.reading is not None:
            return  # one text at a time
        text = clipboard_text()
        if not text.strip():
            self._refused(_("The clipboard holds no text: copy a game first."))
            return
        self._read(text)

    def _open(self, path: Path) -> None:
        if self.reading is not None:
            return  # one text at a time
        try:
            if path.stat().st_size > LARGEST:
                self._refused(_("{name} is too large to be a game.").format(name=path.name))
                return
            text = decode_text(path.read_bytes())
        except ValueError:
            self._refused(_("{name} is not text.").format(name=path.name))
            return
        except OSError as error:
            why = plain(error)
            self._refused(_("{name} cannot be read: {error}").format(name=path.name, error=why))
            return
        self._read(text)

    def _read(self, text: str, mill: str | None = None) -> None:
        """Read ``text`` off the frame loop (:class:`Reading`); :meth:`update` shows what
        came of it."""
        self.problem = _("Reading…")
        self.reading = (Reading(text, mill, self.app.wakeup.notify), text)

    @property
    def waiting(self) -> bool:
        return self.reading is not None or super().waiting

    def update(self, dt: float) -> None:
        super().update(dt)
        if self.reading is not None and self.reading[0].done:
            (reading, text), self.reading = self.reading, None
            self._show(reading, text)

    def _show(self, reading: Reading, text: str) -> None:
        """What a reading found: a Mulino move list that more than one Mulino's rules fit is
        asked about first (then read again with the answer), a file of several games lists
        them, one game opens in the replay."""
        if len(reading.fits) > 1:
            self.problem = ""
            choose = WhichMillScene(self.app, reading.fits, lambda chosen: self._read(text, chosen))
            self.app.push(choose)
            return
        games = reading.games
        if not games:  # the reading itself failed (logged by the thread's excepthook)
            self._refused(_("This text could not be read."))
            return
        if len(games) > 1:
            self.problem = ""
            self.app.push(GamesScene(self.app, games))
            return
        (game,) = games
        if game.refused is not None:
            where = _("line {line}: ").format(line=game.refused.line) if game.refused.line else ""
            self._refused(_("This game cannot be read — {where}{reason}").format(
                where=where, reason=game.refused.reason))  # fmt: skip
            return
        self.problem = ""
        open_game(self.app, game)

    def _refused(self, problem: str) -> None:
        self.problem = problem
        self.gentle_cue()

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        u, width = self.u, surface.get_width()
        lines = (
            [self.problem]
            if self.problem
            else [_("Or put .pdn and .txt files in {folder}").format(folder=self.folder)]
        )
        y = round(10.8 * u)
        colour = self.palette.accent if self.problem else self.palette.muted
        for line in lines:
            size = round(1.05 * u)
            text = theme.text(fitted(line, size, False, width - 2 * u), size, colour)
            surface.blit(text, text.get_rect(midtop=(width // 2, y)))


def open_game(app: App, game: GameInFile) -> None:
    """The replay of a game read, its players named as its tags name them."""
    assert game.game is not None
    imported = game.game
    names = player_names(game.text, imported.record.variant.players)
    match = Match(imported.record, [Seat(name=name) for name in names], 0)
    app.push(make(Screen.REPLAY, app, match, imported.marks, imported.notices))


class GamesScene(MatchListScene):
    """The games of a file that holds several, a row each in the file's order: the event
    and players, then the result, round and date — or why the game cannot be read.  A tap
    opens a game in the replay; on one that cannot be read, the whole reason is shown."""

    widest = 80  # an event and two players' names in a line

    def __init__(self, app: App, games: list[GameInFile]) -> None:
        super().__init__(app)
        self.games = games
        self.problem = ""

    def title(self) -> str:
        return _("Which game?")

    def rows(self) -> list[Row]:
        return [
            Row(game.lines, partial(self._open, game), f"game {game.number}") for game in self.games
        ]

    def _open(self, game: GameInFile) -> None:
        if game.game is None:
            self.problem = _("Game {n}: {why}").format(n=game.number, why=game.refusal())
            self.gentle_cue()
            return
        self.problem = ""
        open_game(self.app, game)

    def summary(self) -> str:
        """How many games the file holds, how many of them cannot be read, the page."""
        count = len(self.games)
        parts = [ngettext("{n} game in this file", "{n} games in this file", count).format(
            n=count)]  # fmt: skip
        refused = sum(1 for game in self.games if game.game is None)
        if refused:
            parts.append(ngettext("{n} cannot be read", "{n} cannot be read", refused).format(
                n=refused))  # fmt: skip
        if self.pages > 1:
            parts.append(_("Page {n} of {total}").format(n=self.page + 1, total=self.pages))
        return " · ".join(parts)

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(self.palette.background)
        u, width = self.u, surface.get_width()
        title = theme.text(self.title(), 4 * u, self.palette.accent, True)
        surface.blit(title, title.get_rect(midtop=(width // 2, 2 * u)))
        size = round(1.05 * u)
        if self.problem:  # in two lines at most, above the rows
            lines = theme.wrap(self.problem, theme.font(size), width - 4 * u)
            colour = self.palette.accent
        else:
            lines, colour = [self.summary()], self.palette.text
        if len(lines) > 2:
            lines = [lines[0], fitted(" ".join(lines[1:]), size, False, width - 4 * u)]
        for n, line in enumerate(lines):
            shown = theme.fitted(line, size, colour, width - 4 * u)
            surface.blit(shown, shown.get_rect(midtop=(width // 2, round(7.4 * u) + n * 2 * size)))
        self.draw_targets(surface)


class WhichMillScene(MenuScene):
    """A Mulino move list that says not which Mulino it is, and whose moves more than one
    variant's rules allow: the player says which (each is named with what it is)."""

    def __init__(self, app: App, fits: list[str], chosen: Callable[[str], None]) -> None:
        self.fits, self.chosen = fits, chosen
        super().__init__(app)

    def title(self) -> str:
        return _("Which Mulino is it?")

    def subtitle(self) -> str:
        return _("These moves are legal in each of these games")

    def items(self) -> list[Item]:
        entries = [
            item(partial(_mill_label, name), partial(self._choose, name), name)
            for name in self.fits
        ]  # fmt: skip
        return [*entries, item(lambda: _("Back"), self.app.pop, "back")]

    def _choose(self, name: str) -> None:
        self.app.pop()
        self.chosen(name)


def _open_label(path: Path) -> str:
    return _("Open {name}").format(name=path.name)


def _mill_label(name: str) -> str:
    """A Mulino the moves fit, with what it is."""
    return f"{variant_title(name)} — {variant_subtitle(name)}"
