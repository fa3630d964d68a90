"""Saved matches in lists: the unfinished ones, to resume or delete, and the row every list of
matches draws — the finished ones too — in two lines of fixed sizes, so all rows read alike.

Deleting an unfinished match always asks first: nothing here drops a match silently.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import TYPE_CHECKING

import pygame

from game.client import theme
from game.client.navigator import Screen, make
from game.client.scene import Scene
from game.client.scenes.menu import Item, MenuScene, item
from game.client.scenes.seats import computer_label
from game.client.widgets import Target, button, button_drawing
from game.i18n import _, ngettext
from game.names import variant_title
from game.session.match import Match
from game.session.saves import Unfinished
from game.session.seats import Seat

if TYPE_CHECKING:
    from game.client.app import App

log = logging.getLogger(__name__)

ROW_HEIGHT = 3.4  # in layout units, as the menus' buttons
DELETE_WIDTH = 2.2  # the delete button beside a row, in row heights


@dataclass(frozen=True, slots=True)
class Row:
    """One saved match in a list: its two lines (read at each draw, so they follow the
    language), what a tap on it does, its name for tests and focus, and how to delete it
    (None: it cannot be deleted from here)."""

    lines: Callable[[], tuple[str, str]]
    open: Callable[[], None]
    name: str
    delete: Callable[[], None] | None = None


# -- what a row says ---------------------------------------------------------------------


def when_text(seconds: float) -> str:
    """A date and time as the player's language writes them."""
    return time.strftime(_("%Y-%m-%d %H:%M"), time.localtime(seconds))


def turns_text(match: Match) -> str:
    """How far a match is, in the turns people count (a Numeri roll and its move, a Mulino
    move and its removal, a whole Ausgeblockt turn: one each), as its replay numbers them."""
    return ngettext("{n} turn", "{n} turns", match.turns).format(n=match.turns)


def opponents_text(seats: Sequence[Seat]) -> str:
    """Who plays: "2 people", "vs computer, hard", or else every seat in order."""
    others = [seat for seat in seats if not seat.is_human]
    if not others:
        return _("{n} people").format(n=len(seats))
    if len(seats) == 2 and len(others) == 1 and others[0].level is not None:
        return _("vs {computer}").format(computer=computer_label(others[0].level))
    return " · ".join(_seat_text(seat) for seat in seats)


def _seat_text(seat: Seat) -> str:
    if seat.is_human:
        return _("a person")
    if seat.level is not None:
        return computer_label(seat.level)
    return _("a player on the LAN")


def unfinished_lines(entry: Unfinished) -> tuple[str, str]:
    """An unfinished match in two lines: the game and who plays; when it was last played and
    how far it is."""
    match = entry.match
    return (
        f"{variant_title(match.variant.name)} — {opponents_text(match.seats)}",
        f"{when_text(entry.saved_at)} · {turns_text(match)}",
    )


# -- drawing a row -----------------------------------------------------------------------


def row_targets(rect: pygame.Rect, row: Row, palette: theme.Palette) -> list[Target]:
    """The targets of ``row`` in ``rect``: the row itself, and its delete button at the right
    end if it has one."""
    if row.delete is None:
        return [_match_row(rect, row, palette)]
    width = round(rect.height * DELETE_WIDTH)
    gap = max(2, rect.height // 8)
    body = pygame.Rect(rect.x, rect.y, rect.width - width - gap, rect.height)
    delete = pygame.Rect(body.right + gap, rect.y, width, rect.height)
    return [
        _match_row(body, row, palette),
        button(delete, lambda: _("Delete"), row.delete, palette, name=f"delete {row.name}"),
    ]


def _match_row(rect: pygame.Rect, row: Row, palette: theme.Palette) -> Target:
    """A button with the row's two lines, in sizes fixed by the row's height alone."""
    plain = button_drawing(rect, lambda: "", palette)  # the button's colour, focus ring, press
    first_size, second_size = round(rect.height * 0.36), round(rect.height * 0.29)
    margin = rect.height // 4
    width = rect.width - 2 * margin

    def draw(surface: pygame.Surface, focused: bool, pressed: bool) -> None:
        plain(surface, focused, pressed)
        first, second = row.lines()
        top = theme.text(
            fitted(first, first_size, True, width), first_size, palette.button_text, True
        )
        surface.blit(top, (rect.x + margin, rect.y + rect.height // 10))
        below = theme.text(fitted(second, second_size, False, width), second_size, palette.text)
        surface.blit(
            below, below.get_rect(bottomleft=(rect.x + margin, rect.bottom - rect.height // 10))
        )

    # The label: "3 min ago" changes with nothing else.
    return Target(rect, row.open, draw=draw, name=row.name, label=lambda: "\n".join(row.lines()))


@lru_cache(maxsize=512)
def fitted(text: str, size: int, bold: bool, width: int) -> str:
    """``text`` as it fits in ``width`` pixels at ``size``: whole, or cut short with "…"."""
    font = theme.font(size, bold)
    return text if font.size(text)[0] <= width else theme.cut(text, font, width)


# -- the lists ---------------------------------------------------------------------------


class MatchListScene(Scene):
    """Saved matches, a row each, newest first, a page at a time as the window allows;
    subclasses give the title and the rows."""

    widest = 44
    """The rows' width at most, in layout units."""

    def __init__(self, app: App, notice: str = "") -> None:
        super().__init__(app)
        self.notice = notice
        self.page = 0
        self.pages = 1
        self.count = 0  # rows in all pages

    def title(self) -> str:
        return ""

    def rows(self) -> list[Row]:
        return []

    def layout(self, size: tuple[int, int]) -> None:
        self.u = u = theme.unit(size)
        rows = self.rows()
        self.count = len(rows)
        height, gap = theme.row(u, ROW_HEIGHT), u // 2
        width = min(size[0] - 4 * u, self.widest * u)
        left, top = (size[0] - width) // 2, 12 * u
        bar = pygame.Rect(left, size[1] - u - height, width, height)
        per_page = max(1, (bar.top - gap - top) // (height + gap))
        self.pages = max(1, math.ceil(len(rows) / per_page))
        self.page = min(self.page, self.pages - 1)
        shown = rows[self.page * per_page : (self.page + 1) * per_page]
        targets: list[Target] = []
        for slot, row in enumerate(shown):
            rect = pygame.Rect(left, top + slot * (height + gap), width, height)
            targets += row_targets(rect, row, self.palette)
        self.set_targets([*targets, *self._bar(bar)])

    def _bar(self, bar: pygame.Rect) -> list[Target]:
        """Back in the middle; the pages' arrows at the ends when there are pages."""
        side = bar.width // 4
        back = bar.inflate(-2 * (side + bar.height // 4), 0)
        targets = [button(back, lambda: _("Back"), self.back, self.palette, name="back")]
        if self.pages > 1:
            targets += [
                button(
                    pygame.Rect(bar.x, bar.y, side, bar.height),
                    lambda: "<",
                    lambda: self._turn(-1),
                    self.palette,
                    lambda: self.page > 0,
                    "previous page",
                ),
                button(
                    pygame.Rect(bar.right - side, bar.y, side, bar.height),
                    lambda: ">",
                    lambda: self._turn(1),
                    self.palette,
                    lambda: self.page < self.pages - 1,
                    "next page",
                ),
            ]
        return targets

    def _turn(self, pages: int) -> None:
        self.page = max(0, min(self.pages - 1, self.page + pages))
        self.layout(self.app.size)

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(self.palette.background)
        u, middle = self.u, surface.get_width() // 2
        title = theme.text(self.title(), 4 * u, self.palette.accent, True)
        surface.blit(title, title.get_rect(midtop=(middle, 2 * u)))
        if self.notice:
            line = self.notice
        elif not self.count:
            line = _("No matches here")
        elif self.pages > 1:
            line = _("Page {n} of {total}").format(n=self.page + 1, total=self.pages)
        else:
            line = ""
        if line:
            text = theme.text(line, round(1.2 * u), self.palette.text)
            surface.blit(text, text.get_rect(midtop=(middle, 8 * u)))
        self.draw_targets(surface)


class UnfinishedScene(MatchListScene):
    """Every unfinished match: tap one to play on, or delete it (after a question)."""

    def __init__(self, app: App) -> None:
        shelf = app.saves.unfinished()
        super().__init__(app, shelf.problem or "")
        self.entries = list(shelf.matches)

    def title(self) -> str:
        return _("Unfinished matches")

    def rows(self) -> list[Row]:
        return [
            unfinished_row(
                self.app,
                entry,
                partial(unfinished_lines, entry),
                f"unfinished {index}",
                partial(self._deleted, entry),
            )
            for index, entry in enumerate(self.entries)
        ]

    def _deleted(self, entry: Unfinished, problem: str | None) -> None:
        if problem is None:
            self.entries.remove(entry)
        self.notice = problem or ""
        self.layout(self.app.size)

    def back(self) -> None:
        """To a fresh title screen, which counts what is left."""
        self.app.reset(make(Screen.TITLE, self.app))


def unfinished_row(
    app: App,
    entry: Unfinished,
    lines: Callable[[], tuple[str, str]],
    name: str,
    deleted: Callable[[str | None], None],
) -> Row:
    """A row that resumes ``entry`` and deletes it once the player has said yes; ``deleted``
    is told afterwards, with a message if the file could not be deleted."""

    def about() -> str:
        return " · ".join(unfinished_lines(entry))

    def delete() -> None:
        try:
            app.saves.discard(entry.match)
        except OSError as error:
            log.warning("could not delete a match: %s", error)
            deleted(_("The match could not be deleted: {error}").format(error=error))
            return
        deleted(None)

    return Row(
        lines,
        lambda: resume(app, entry.match),
        name,
        lambda: app.push(ConfirmScene(app, lambda: _("Delete this match?"), about, delete)),
    )


def resume(app: App, match: Match) -> None:
    """Play ``match`` on, over a fresh title screen (where leaving it comes back to)."""
    app.reset(make(Screen.TITLE, app))
    app.push(make(Screen.MATCH, app, match))


class ConfirmScene(MenuScene):
    """A question about something that cannot be undone, and what it is about: Yes does it,
    No or Escape does not."""

    def __init__(
        self,
        app: App,
        question: Callable[[], str],
        about: Callable[[], str],
        confirmed: Callable[[], None],
        *,
        undoable: bool = False,
        yes_first: bool = False,
    ) -> None:
        """``undoable``: no "It cannot be undone." (quitting can be); ``yes_first``: Yes where
        No was (a second question, so a double tap does not answer both)."""
        self.question = question
        self.about = about
        self.confirmed = confirmed
        self.undoable, self.yes_first = undoable, yes_first
        super().__init__(app)

    def title(self) -> str:
        return self.question()

    def subtitle(self) -> str:
        return self.about()

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        if self.undoable:
            return
        warning = theme.text(_("It cannot be undone."), round(1.1 * self.u), self.palette.warning)
        surface.blit(warning, warning.get_rect(midtop=(surface.get_width() // 2, 11 * self.u)))

    def items(self) -> list[Item]:
        no = item(lambda: _("No"), self.app.pop, "no")
        yes = item(lambda: _("Yes"), self._yes, "yes")
        return [yes, no] if self.yes_first else [no, yes]

    def _yes(self) -> None:
        self.app.pop()
        self.confirmed()
