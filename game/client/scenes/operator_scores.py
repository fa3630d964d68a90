"""The kiosk operator's page of the high scores: a game's stored results, to take off one
that a visitor should not have typed (or all of the game's, or every game's).

Whatever removes asks first: the first press says what the second will do, and any other
press — another result, another game, a page, leaving — takes the question back.  So a slip
of the finger removes nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

import pygame

from game.client import theme
from game.client.scenes.highscores import first_with_scores, game_choices, value_text
from game.client.scenes.menu import MenuScene
from game.client.widgets import Target, button
from game.i18n import _
from game.names import variant_title
from game.session.highscores import Entry
from game.session.saves import plain

if TYPE_CHECKING:
    from game.client.app import App

log = logging.getLogger(__name__)

MOST_ROWS = 8
"""Results on a page at most (fewer where the window is short)."""


class OperatorScoresScene(MenuScene):
    """The games to pick at the top, the picked game's stored results below (best first, a
    page at a time), the removals of a whole game and of everything, paging and Back.

    A menu screen for its title and subtitle, laid out on its own: its rows are as wide as
    the screen allows, for a name, a score and a date to read in one line."""

    def __init__(self, app: App) -> None:
        self.variant = first_with_scores(app)
        self.page = 0
        self.per_page = MOST_ROWS
        self.entries: list[Entry] = []
        """The picked game's stored results, read anew at each layout."""
        self.armed: str | None = None
        """The target pressed once: its second press does what :attr:`question` says."""
        self.question = ""
        self.feedback = ""
        """What the last removal did, or why it did not."""
        super().__init__(app)

    def title(self) -> str:
        return _("High scores")

    def subtitle(self) -> str:
        if self.armed is not None:
            return self.question
        if self.feedback:
            return self.feedback
        if self.pages() > 1:
            return _("Page {page} of {pages}: press a result twice to remove it").format(
                page=self.page + 1, pages=self.pages()
            )
        return _("Press a result twice to remove it")

    def pages(self) -> int:
        return max(1, -(-len(self.entries) // self.per_page))

    # -- screen ---------------------------------------------------------------------------

    def layout(self, size: tuple[int, int]) -> None:
        self.u = u = theme.unit(size)
        width = min(size[0] - 4 * u, 70 * u)
        left = (size[0] - width) // 2
        games = pygame.Rect(left, 12 * u, width, 0)
        targets, games_bottom = game_choices(self, games, u, lambda: self.variant, self._choose)
        height = theme.row(u, 3.4)
        bottom_row = size[1] - round(1.2 * u) - height
        actions_row = bottom_row - height - u // 2
        top = games_bottom + u
        self.entries = self.app.highscores.entries(self.variant)
        targets += self._entry_targets(pygame.Rect(left, top, width, actions_row - u - top), u)
        targets += self._removals(pygame.Rect(left, actions_row, width, height), u)
        targets += self._paging(pygame.Rect(left, bottom_row, width, height), u)
        self.set_targets(targets)

    def _entry_targets(self, area: pygame.Rect, u: int) -> list[Target]:
        """As many results as fit in ``area`` (at most :data:`MOST_ROWS`), one a row."""
        pitch = max(round(3.4 * u), theme.TOUCH + u // 2)
        self.per_page = max(1, min(MOST_ROWS, (area.height + u // 2) // pitch))
        self.page = min(self.page, self.pages() - 1)
        row = pygame.Rect(area.x, area.y, area.width, pitch - u // 2)
        if not self.entries:
            return [button(row, lambda: _("No results yet"), lambda: None, self.palette,
                           lambda: False, "none")]  # fmt: skip
        first = self.page * self.per_page
        targets = []
        for place, entry in enumerate(self.entries[first : first + self.per_page], first + 1):
            name = f"entry {place}"
            targets.append(button(row.move(0, (place - first - 1) * pitch),
                                  partial(self._entry_label, place, entry),
                                  partial(self._press_entry, name, entry),
                                  self.palette, name=name))  # fmt: skip
        return targets

    def _removals(self, area: pygame.Rect, u: int) -> list[Target]:
        half = (area.width - u) // 2
        game = pygame.Rect(area.x, area.y, half, area.height)
        every = pygame.Rect(area.right - half, area.y, half, area.height)
        return [
            button(game, lambda: self._asking("remove game", _("Remove all of this game")),
                   self._press_game, self.palette, lambda: bool(self.entries), "remove game"),
            button(every, lambda: self._asking("reset scores", _("Reset the high scores")),
                   self._press_reset, self.palette, lambda: not self.app.highscores.empty(),
                   "reset scores"),
        ]  # fmt: skip

    def _paging(self, area: pygame.Rect, u: int) -> list[Target]:
        third = (area.width - 2 * u) // 3
        rects = [pygame.Rect(area.x + n * (third + u), area.y, third, area.height)
                 for n in range(3)]  # fmt: skip
        return [
            button(rects[0], lambda: _("Previous page"), lambda: self._turn(-1), self.palette,
                   lambda: self.page > 0, "previous page"),
            button(rects[1], lambda: _("Back"), self.app.pop, self.palette, name="back"),
            button(rects[2], lambda: _("Next page"), lambda: self._turn(1), self.palette,
                   lambda: self.page + 1 < self.pages(), "next page"),
        ]  # fmt: skip

    def _entry_label(self, place: int, entry: Entry) -> str:
        score = entry.score
        return self._asking(f"entry {place}", _("{place}. {name} · {value} · {day}").format(
            place=place, name=score.name, value=value_text(self.variant, score.value),
            day=score.day))  # fmt: skip

    def _asking(self, name: str, label: str) -> str:
        """What target ``name`` reads: the question while it asks one, else ``label``."""
        return self.question if self.armed == name else label

    # -- presses --------------------------------------------------------------------------

    def activate(self, target: Target) -> None:
        if target.name != self.armed:
            self.armed = None  # any other press takes the question back
        super().activate(target)

    def tap_elsewhere(self, pos: tuple[int, int]) -> None:
        self.armed = None

    def _choose(self, variant: str) -> None:
        self.variant, self.page, self.feedback = variant, 0, ""
        self.layout(self.app.size)

    def _turn(self, pages: int) -> None:
        self.page += pages
        self.layout(self.app.size)

    def _twice(self, name: str, question: str, action: Callable[[], None]) -> None:
        """The first press of target ``name`` asks ``question``; the second does ``action``."""
        if self.armed != name:
            self.armed, self.question = name, question
            return
        self.armed = None
        action()
        self.layout(self.app.size)

    def _press_entry(self, name: str, entry: Entry) -> None:
        question = _("Press again to remove {name}").format(name=entry.score.name)
        self._twice(name, question, lambda: self._remove(entry))

    def _press_game(self) -> None:
        game = variant_title(self.variant)
        question = _("Press again to remove all of {game}").format(game=game)
        self._twice("remove game", question, self._clear_game)

    def _press_reset(self) -> None:
        self._twice("reset scores", _("Press again to empty the high scores"), self._reset)

    # -- removals -------------------------------------------------------------------------

    def _remove(self, entry: Entry) -> None:
        score = entry.score
        if self._saved(lambda: self.app.highscores.remove(self.variant, entry)):
            log.info("kiosk: the operator removed a high score of %s: %r, %d on %s",
                     self.variant, score.name, score.value, score.day)  # fmt: skip
            self.feedback = _("{name} is removed from the high scores.").format(name=score.name)

    def _clear_game(self) -> None:
        if self._saved(lambda: self.app.highscores.clear(self.variant)):
            log.info("kiosk: the operator emptied the high scores of %s", self.variant)
            self.feedback = _("The high scores of {game} are empty.").format(
                game=variant_title(self.variant)
            )

    def _reset(self) -> None:
        if self._saved(self.app.highscores.reset):
            log.info("kiosk: the operator reset the high scores")
            self.feedback = _("The high scores are empty.")

    def _saved(self, change: Callable[[], None]) -> bool:
        """Make ``change`` to the boards; if the disk refuses, say why and give False."""
        try:
            change()
        except OSError as error:
            log.error("kiosk: a change to the high scores was not saved: %s", error)
            self.app.sound.play("nope")
            self.feedback = _("Not saved: {why}").format(why=plain(error))
            return False
        return True
