"""The match screen's usual panel: beside the board in a wide window, under it in two columns
in a narrow one (the text keeps the size it has in a wide window of the same width).

It says the game, whose turn it is and what to do, the counts, the moves so far — or, in a
lesson, the lesson's words, large, in the history's room — and the newest notice on a band
at the foot of the board's side; its buttons are the mute key, the decision's (Roll, Stop,
Hint…) and the match's (undo, draw, resignation, the menu), or the question a resignation or
a draw offer asks.  It is the match screen's :class:`~game.client.match_panel.Panel`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from game.client import match_words, theme
from game.client.match_panel import COUNT_LINE, Arrangement, mute_button
from game.client.match_words import wrapped
from game.client.redraw import Element
from game.client.views.base import Control
from game.client.widgets import Target, button
from game.i18n import _
from game.names import variant_title

if TYPE_CHECKING:
    from game.client.scenes.play import PlayScene

PORTRAIT = 4 / 3
"""Below this aspect ratio the panel goes under the board."""
TEXT_ROOM = 9
"""Units of the panel kept at the top for the title, the status and the prompt."""
HISTORY_LINE = 1.05
"""Units per line of the history."""


class BesidePanel:
    """The panel beside (or under) the board."""

    def __init__(self, play: PlayScene) -> None:
        self.play = play
        self.confirming_resign = False
        """The panel asks "Really resign?"."""
        self.history: list[tuple[int, str]] = []
        """The moves it lists, taken at each change (:func:`match_words.history`)."""

    # -- layout ---------------------------------------------------------------------------

    def layout(self, size: tuple[int, int]) -> Arrangement:
        width, height = size
        self.portrait = width / height < PORTRAIT - 0.01
        if self.portrait:
            self.u = u = max(8, round(min(width / 36, height / 64)))
            panel_height = max(height * 2 // 5, 27 * u)
            self.rect = pygame.Rect(0, height - panel_height, width, panel_height)
            board = pygame.Rect(u, u // 2, width - 2 * u, height - panel_height - u)
            column = (width - 3 * u) // 2
            top, bottom = self.rect.y + u // 2, self.rect.bottom - 4 * u
            self.column_a = pygame.Rect(u, top, column, bottom - top)
            self.column_b = pygame.Rect(2 * u + column, top, column, bottom - top)
            self.tray = pygame.Rect(self.column_b.x, top, column, 6 * u)
        else:
            self.u = u = theme.unit(size)
            panel_width = max(width * 3 // 10, 16 * u)
            self.rect = pygame.Rect(width - panel_width, 0, panel_width, height)
            board = pygame.Rect(u, u, width - panel_width - 2 * u, height - 2 * u)
            inner = pygame.Rect(self.rect.x + u, u, panel_width - 2 * u, height - 2 * u)
            self.column_a = self.column_b = inner
            self.tray = pygame.Rect(inner.x, inner.y + TEXT_ROOM * u, inner.width, 6 * u)
        return Arrangement(u, board, self.tray)

    def fits(self) -> bool:
        return True  # the controls stack in the panel's column, however many there are

    def areas(self) -> list[pygame.Rect]:
        return [self.rect]

    # -- the buttons ----------------------------------------------------------------------

    def buttons(self) -> list[Target]:
        """The mute key, the decision's buttons under the tray (and the counts, beside the
        board), then the match's."""
        play, u = self.play, self.u
        row, gap = theme.row(u), u // 2
        column = self.column_b
        x, width = column.x, column.width
        y = self.tray.bottom + gap
        if not self.portrait:  # the counts come between the tray and the controls
            y += len(play.view.counts()) * round(COUNT_LINE * u) + gap
        size = theme.touch(2.9 * u)
        speaker = pygame.Rect(self._mute_left(), self.column_a.y - u // 2, size, size)
        buttons: list[Target] = [mute_button(play.app, speaker, size)]
        for control in play.actions.controls():
            buttons.append(
                button(pygame.Rect(x, y, width, row), control.label, control.action,
                       play.palette, control.enabled, control.name)
            )  # fmt: skip
            y += row + gap
        self.history_top = y + gap
        buttons += self._match_buttons()
        self.history = match_words.history(play)
        return buttons

    def _match_entries(self) -> list[Control]:
        """Undo, draw, resignation and the menu — or the question a resignation or a draw
        offer asks."""
        actions, control = self.play.actions, self.play.control
        if self.confirming_resign:
            return [
                Control("", lambda: _("Really resign?"), lambda: None, lambda: False),
                Control("confirm resign", lambda: _("Resign"), self._resign),
                Control("cancel resign", lambda: _("Cancel"), self._cancel_resign),
            ]
        if actions.draw_offer is not None:
            return [
                Control("accept draw", lambda: _("Accept draw"), actions.accept_draw),
                Control("decline draw", lambda: _("Decline"), actions.decline_draw),
            ]
        entries = []
        if control.offers_undo:
            entries.append(Control("undo", lambda: _("Undo"), actions.undo, actions.can_undo))
        if control.draws_by_agreement():
            entries.append(Control("offer draw", lambda: _("Offer draw"), actions.offer_draw,
                                   actions.can_offer_draw))  # fmt: skip
        return [
            *entries,
            Control("resign", lambda: _("Resign"), self._ask_resign, actions.can_resign),
            Control("menu", lambda: _("Menu"), actions.open_menu),
        ]

    def _match_buttons(self) -> list[Target]:
        """Undo, draw, resignation and the menu: two rows at the bottom of the panel beside
        the board, one row across the bottom under it."""
        u, palette = self.u, self.play.palette
        row, gap = theme.row(u), u // 2
        entries = self._match_entries()
        if self.portrait:
            left, width = u, self.rect.width - 2 * u
            cell = (width - (len(entries) - 1) * gap) // len(entries)
            y = self.rect.bottom - row - u // 2
            rects = [pygame.Rect(left + k * (cell + gap), y, cell, row)
                     for k in range(len(entries))]  # fmt: skip
            self.history_bottom = self.column_a.bottom
        else:
            column = self.column_b
            half = (column.width - gap) // 2
            bottom = column.bottom - row
            upper = bottom - row - gap
            # The last two side by side at the bottom; the others above (one alone: wide).
            rects = [pygame.Rect(column.x, upper, column.width, row)] if len(entries) == 3 else []
            if len(entries) == 4:
                rects = [pygame.Rect(column.x + k * (half + gap), upper, half, row) for k in (0, 1)]
            rects += [pygame.Rect(column.x + k * (half + gap), bottom, half, row) for k in (0, 1)]
            self.history_bottom = (upper if len(entries) > 2 else bottom) - gap
        return [
            button(rect, entry.label, entry.action, palette, entry.enabled, entry.name)
            for rect, entry in zip(rects, entries, strict=True)
        ]

    def _ask_resign(self) -> None:
        self.confirming_resign = True
        self.play.rebuild()

    def _cancel_resign(self) -> None:
        self.confirming_resign = False
        self.play.rebuild()

    def _resign(self) -> None:
        self.confirming_resign = False
        self.play.actions.resign(self.play.actions.own_seat())

    def _mute_left(self) -> int:
        """The left edge of the mute button, at the top right of the first column."""
        return self.column_a.right - theme.touch(2.9 * self.u)

    # -- what it shows --------------------------------------------------------------------

    @property
    def lesson(self) -> bool:
        """A lesson (a guided game) is played: its words — what the computer did, what to do
        now — stand large in the panel, in the history's room."""
        return getattr(self.play.control, "lesson", False)

    def elements(self) -> list[Element]:
        """The panel's words, counts, history (or lesson) and the newest notice."""
        play, u, column = self.play, self.u, self.column_a
        seat = play.actor(play.state)
        turn = None if seat is None or play.state.is_terminal() else play.view.seat_colour(seat)
        prompt = "" if self.lesson else play.prompt()
        counts = play.view.counts()
        counts_top = self._counts_top()
        counts_rect = pygame.Rect(column.x, counts_top, column.width,
                                  max(1, len(counts)) * round(COUNT_LINE * u) + u // 2)  # fmt: skip
        elements: list[Element] = [
            ("words", self._words_rect(),
             (turn, play.status(), prompt or play.banner, bool(prompt))),
            ("counts", counts_rect, tuple(counts)),
            ("history", self._history_rect(), tuple(self.history))
            if not self.lesson else ("lesson", *self.lesson_lines()),
            ("notice", *self.notice_band()),
        ]  # fmt: skip
        return elements

    def _counts_top(self) -> int:
        return self.tray.bottom + self.u // 2 if not self.portrait else (
            self.column_a.y + TEXT_ROOM * self.u)  # fmt: skip

    def _history_rect(self) -> pygame.Rect:
        """Where the history's lines are drawn, as wide as its widest line shown (they stand
        on the bottom of their room)."""
        return _round([rect for _, _, rect in self._history_placed()], self.column_a, self.u)

    def _words_rect(self) -> pygame.Rect:
        """Where the turn's disc, the status and the prompt are drawn: as much as their
        words take, not the column (at 4K a line of it is 40,000 pixels)."""
        u = self.u
        disc = pygame.Rect(self.column_a.x, self.column_a.y + round(3.2 * u), u, round(1.2 * u))
        return _round([disc] + [rect for _, rect in self._words_placed()], self.column_a, u)

    def lesson_lines(self) -> tuple[pygame.Rect, tuple[match_words.LessonLine, ...]]:
        """Where a lesson's words are drawn — the history's room: under the panel's controls
        beside the board, under the counts below it — and their lines: the notices, then
        the prompt, as large as their room allows."""
        u, column = self.u, self.column_a
        if self.portrait:
            top = self._counts_top() + len(self.play.view.counts()) * round(COUNT_LINE * u) + u // 2
            bottom = column.bottom
        else:
            top, bottom = self.history_top, self.history_bottom
        room = pygame.Rect(column.x, top, column.width, max(0, bottom - top))
        said = [(text, False) for text in self.play.control.notices()]
        prompt = self.play.prompt()
        paragraphs = said + ([(prompt, True)] if prompt else [])
        return room, match_words.lesson_lines(paragraphs, room.width, room.height, u)

    def notice_band(self) -> tuple[pygame.Rect, tuple[str, ...]]:
        """Where the newest notice is drawn and its lines: a band at the foot of the board's
        side (under the board in a portrait window), clear of the panel's buttons."""
        notices = () if self.lesson else self.play.control.notices()  # a lesson's: in the panel
        if not notices:
            return pygame.Rect(0, 0, 0, 0), ()
        u = self.u
        width, height = self.play.app.size
        right = width if self.portrait else self.column_a.x
        size = round(0.9 * u)
        lines = wrapped(notices[-1], size, True, right - 4 * u)[:3]
        line_height = theme.font(size, True).get_linesize()
        band = pygame.Rect(u, 0, right - 2 * u, len(lines) * line_height + u)
        band.bottom = self.rect.y - u // 2 if self.portrait else height - u // 2
        return band, lines

    # -- drawing --------------------------------------------------------------------------

    def draw(self, surface: pygame.Surface) -> None:
        """The panel's words and counts, the history (or the lesson), and the notices."""
        if not surface.get_clip().colliderect(self.rect):  # a part of a frame off the panel
            self._draw_notices(surface)
            return
        play, palette = self.play, self.play.palette
        u, column = self.u, self.column_a
        x, y = column.x, column.y
        beside_mute = self._mute_left() - u // 2 - x  # the title and status end before it
        title = theme.fitted(variant_title(play.match.variant.name), round(1.8 * u),
                             palette.accent, beside_mute, True)  # fmt: skip
        surface.blit(title, (x, y))
        y += round(3.2 * u)
        seat = play.actor(play.state)
        if seat is not None and not play.state.is_terminal():
            pygame.draw.circle(surface, play.view.seat_colour(seat),
                               (x + u // 2, y + round(0.6 * u)), round(0.45 * u))  # fmt: skip
            pygame.draw.circle(surface, palette.text, (x + u // 2, y + round(0.6 * u)),
                               round(0.45 * u), 1)  # fmt: skip
        for label, rect in self._words_placed():
            surface.blit(label, rect)
        y = self._counts_top()
        for seat, line in play.view.counts():
            if not line:  # room kept for a line that has nothing to say now
                y += round(COUNT_LINE * u)
                continue
            if seat >= 0:
                pygame.draw.circle(surface, play.view.seat_colour(seat),
                                   (x + u // 3, y + round(0.5 * u)), u // 3)  # fmt: skip
            surface.blit(theme.text(line, round(0.85 * u), palette.text), (x + u, y))
            y += round(COUNT_LINE * u)
        if self.lesson:
            self._draw_lesson(surface)
        else:
            self._draw_history(surface)
        self._draw_notices(surface)

    def _words_placed(self) -> list[tuple[pygame.Surface, pygame.Rect]]:
        """The status beside the turn's disc and the prompt (or the banner) under it, each
        line rendered and where it goes."""
        play, palette, u = self.play, self.play.palette, self.u
        x, y = self.column_a.x, self.column_a.y + round(3.2 * u)
        placed: list[tuple[pygame.Surface, pygame.Rect]] = []
        y = self._wrap(placed, play.status(), round(1.2 * u), palette.text,
                       x + round(1.4 * u), y, right=self._mute_left() - u // 2)  # fmt: skip
        prompt = "" if self.lesson else play.prompt()  # a lesson says it in its own room
        colour = palette.accent if prompt else palette.muted
        self._wrap(placed, prompt or play.banner, u, colour, x, y, right=self.column_a.right)
        return placed

    def _wrap(self, placed: list[tuple[pygame.Surface, pygame.Rect]], text: str, size: int,
              colour: theme.Colour, x: int, y: int, right: int) -> int:  # fmt: skip
        """Two lines at most of ``text`` in bold, wrapped before ``right``, added to
        ``placed``; returns the y below the room kept for them (so what follows does not
        jump)."""
        width = max(right - x, 4 * self.u)
        for line in wrapped(text, size, True, width)[:2]:
            label = theme.text(line, size, colour, True)
            placed.append((label, label.get_rect(topleft=(x, y))))
            y += round(size * 1.25)
        return y

    def _history_placed(self) -> list[tuple[int, str, pygame.Rect]]:
        """The history's lines shown — the newest at the bottom of its room — each its
        seat, its words and where its disc and words go."""
        u = self.u
        line_height = round(HISTORY_LINE * u)
        if self.portrait:  # under the board: the rest of the first column, under the counts
            counted = len(self.play.view.counts())
            top = self._counts_top() + counted * round(COUNT_LINE * u) + u // 2
            bottom = self.column_a.bottom
        else:  # beside the board: above the bottom buttons, below the controls
            top, bottom = self.history_top, self.history_bottom
        room = max(0, (bottom - top) // line_height)
        lines = self.history[-room:] if room else []
        y = bottom - len(lines) * line_height
        placed = []
        for seat, text in lines:
            words = self._history_label(text).get_rect(topleft=(self.column_a.x + u, y))
            placed.append((seat, text, words.union((self.column_a.x, y, u, u))))
            y += line_height
        return placed

    def _history_label(self, text: str) -> pygame.Surface:
        return theme.text(text, round(0.8 * self.u), self.play.palette.muted)

    def _draw_history(self, surface: pygame.Surface) -> None:
        u, view = self.u, self.play.view
        for seat, text, place in self._history_placed():
            if seat >= 0:
                pygame.draw.circle(surface, view.seat_colour(seat),
                                   (place.x + u // 3, place.y + u // 2), u // 4)  # fmt: skip
            surface.blit(self._history_label(text), (place.x + u, place.y))

    def _draw_lesson(self, surface: pygame.Surface) -> None:
        room, lines = self.lesson_lines()
        palette = self.play.palette
        y, previous = room.y, None
        for line, size, instruction in lines:
            if previous is not None and instruction != previous:
                y += self.u // 2  # a gap between what happened and what to do
            colour = palette.accent if instruction else palette.text
            surface.blit(theme.text(line, size, colour, True), (room.x, y))
            y += theme.font(size, True).get_linesize()
            previous = instruction

    def _draw_notices(self, surface: pygame.Surface) -> None:
        """The newest notice (the disk refused the save, a LAN player left) in words big
        enough to be read from a chair, on a band of the warning colour."""
        band, lines = self.notice_band()
        if not lines:
            return
        u, palette = self.u, self.play.palette
        size = round(0.9 * u)
        pygame.draw.rect(surface, palette.warning, band, border_radius=u // 3)
        y = band.y + u // 2
        for line in lines:
            surface.blit(theme.text(line, size, palette.background, True), (band.x + u, y))
            y += theme.font(size, True).get_linesize()


def _round(rects: list[pygame.Rect], column: pygame.Rect, u: int) -> pygame.Rect:
    """The box round ``rects`` and a little more (a glyph's antialiasing, a descender below
    its line); a point in the column's corner when there is nothing."""
    if not rects:
        return pygame.Rect(column.topleft, (1, 1))
    return rects[0].unionall(rects[1:]).inflate(u // 2, u)
