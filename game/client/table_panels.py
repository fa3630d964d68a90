"""The panels of a touch table: people on two opposite sides, the board between them, and
each side's panel at its own edge, turned to face it (the far one upside down).

Seats sit round the table in turn: the first seat's side is the near edge (the bottom of
the picture), the second's the far edge, the third's the near edge again…  Both panels say
whose turn it is; the side whose seat acts reads what to do and gets the seat's colour along
its edge; each side has every button, so nobody reaches across the table, and the
decision's buttons live only on the side that acts.  The dice tray lies on the table beside
the board.  :class:`FacingPanels` is the face-to-face match screen's
:class:`~game.client.match_panel.Panel`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import pygame

from game.client import theme
from game.client.match_panel import COUNT_LINE, Arrangement, mute_button
from game.client.match_words import wrapped
from game.client.redraw import Element
from game.client.views.base import Control
from game.client.widgets import Target, button
from game.i18n import _

if TYPE_CHECKING:
    from game.client.scenes.play import PlayScene

NEAR, FAR = 0, 1
TEXT_SHARE = 0.36
"""Of a panel's width, the words' part (the counts and the buttons share the rest)."""
COUNTS_SHARE = 0.18
TEXT_UNITS = 7.6
"""Units of a panel's height its words need: two lines of status, two of what to do, one
notice."""
ONE_ROW = 1.3
"""The narrowest a button may be, in rows' heights, for a panel's buttons to stand in one
row (else two: a taller panel, a smaller board)."""
TRAY_SHARES = (0.26, 0.32, 0.38, 0.44, 0.5)
"""Of a wide table's width, the tray's (beside the board): the first under which the
board's and the tray's targets all keep :data:`theme.TOUCH`."""


SideWords = tuple[theme.Colour | None, bool, str, str, bool, str, tuple[tuple[int, str], ...]]
"""What a side's panel says: the colour of the seat to act (None: nobody), whether this
side acts, the status, the prompt, whether the prompt is an instruction, the newest
notice, and the counts."""


@dataclass(frozen=True, slots=True)
class Side:
    """One edge of the table: its panel's rectangle on the screen, and whether the panel
    is drawn upside down (it faces the far side)."""

    index: int
    rect: pygame.Rect
    turned: bool

    def place(self, local: pygame.Rect) -> pygame.Rect:
        """Where a rectangle of the panel as its reader sees it (origin at the panel's
        top left, upright) lands on the screen."""
        if not self.turned:
            return local.move(self.rect.topleft)
        return pygame.Rect(self.rect.right - local.right, self.rect.bottom - local.bottom,
                           local.width, local.height)  # fmt: skip


def side_of(seat: int) -> int:
    """The edge a seat plays from: round the table, near and far in turn."""
    return NEAR if seat % 2 == 0 else FAR


class FacingPanels:
    """A panel at each edge of the table, the far one turned."""

    def __init__(self, play: PlayScene) -> None:
        self.play = play
        self.resigning: int | None = None
        """The side asked "Really resign?" (None: no side)."""

    @property
    def rect(self) -> pygame.Rect:
        return self.sides[NEAR].rect

    def layout(self, size: tuple[int, int]) -> Arrangement:
        width, height = size
        self.u = u = theme.unit(size)
        self.row = row = theme.row(u)
        self.gap = gap = max(4, u // 2)
        self.button_rows = rows = self._button_rows(width)
        strip = max(rows * row + (rows + 1) * gap, round(TEXT_UNITS * u))
        self.sides = (
            Side(NEAR, pygame.Rect(0, height - strip, width, strip), turned=False),
            Side(FAR, pygame.Rect(0, 0, width, strip), turned=True),
        )
        board, tray = self._middle(pygame.Rect(0, strip, width, height - 2 * strip))
        self.text_width = round(width * TEXT_SHARE) - 2 * u
        """The width of a panel's words."""
        return Arrangement(u, board, tray)

    def fits(self) -> bool:
        return self._button_rows(self.play.app.size[0]) == self.button_rows

    def _button_rows(self, width: int) -> int:
        """Two rows of buttons where the panel's words make it that tall anyway (a large
        window: wide buttons, long labels on one line); else one row where the most a panel
        holds fit it, each at least :data:`ONE_ROW` rows wide (a small window keeps the
        height for the board); else two."""
        if 2 * self.row + 3 * self.gap <= round(TEXT_UNITS * self.u):
            return 2
        control = self.play.control
        most = len(self.play.actions.controls()) + 2 + control.offers_undo
        most += control.draws_by_agreement()
        room = self._buttons_room(width)
        each = (room - (most - 1) * self.gap) / most
        return 1 if each >= max(theme.TOUCH, ONE_ROW * self.row) else 2

    def _buttons_room(self, width: int) -> int:
        return width - round(width * (TEXT_SHARE + COUNTS_SHARE)) - self.u

    def _middle(self, middle: pygame.Rect) -> tuple[pygame.Rect, pygame.Rect]:
        """The board's and the tray's rectangles between the panels: the tray on the near
        player's left of a wide table (as wide as the board's and its own targets need to
        keep :data:`theme.TOUCH`), under the board on a narrow one; none when the game has
        nothing to put in it (the board is centred)."""
        u, view = self.u, self.play.view
        inner = middle.inflate(-2 * u, -u // 2)
        if not view.uses_tray:
            return inner, pygame.Rect(inner.x, inner.bottom, 1, 1)
        if inner.width < 1.3 * inner.height:
            tray = pygame.Rect(inner.x, 0, inner.width, max(6 * u, inner.height // 5))
            tray.bottom = inner.bottom
            return pygame.Rect(inner.x, inner.y, inner.width, tray.y - inner.y - u), tray
        best: tuple[int, pygame.Rect, pygame.Rect] | None = None
        for share in TRAY_SHARES:
            tray = pygame.Rect(inner.x, 0, round(inner.width * share),
                               min(inner.height, max(8 * u, inner.height // 2)))  # fmt: skip
            tray.centery = inner.centery
            board = pygame.Rect(tray.right + u, inner.y, inner.right - tray.right - u,
                                inner.height)  # fmt: skip
            view.layout(board, tray)
            size = view.tap_size()
            if best is None or size > best[0]:
                best = (size, board, tray)
            if size >= theme.TOUCH:
                break
        assert best is not None
        return best[1], best[2]

    def areas(self) -> list[pygame.Rect]:
        return [side.rect for side in self.sides]

    # -- the buttons ----------------------------------------------------------------------

    def buttons(self) -> list[Target]:
        """Each side's buttons: the mute key at the end of its words, the decision's and
        the match's buttons in one or two rows at its right."""
        buttons: list[Target] = []
        for side in self.sides:
            buttons += self._side_buttons(side, self._side_entries(side))
        return buttons

    def _side_entries(self, side: Side) -> list[Control]:
        """``side``'s buttons: the decision's (live only while one of its seats acts), then
        undo, a draw offer, resignation — of its own seat — and the menu; or the question
        its resignation asks, or the answer to the other side's draw offer."""
        actions, control = self.play.actions, self.play.control
        if self.resigning == side.index:
            return [
                Control("", lambda: _("Really resign?"), lambda: None, lambda: False),
                Control("confirm resign", lambda: _("Resign"), lambda: self._resign(side)),
                Control("cancel resign", lambda: _("Cancel"), self._cancel_resign),
            ]
        if actions.draw_offer is not None and side_of(actions.draw_offer) != side.index:
            return [
                Control("accept draw", lambda: _("Accept draw"), actions.accept_draw),
                Control("decline draw", lambda: _("Decline"), actions.decline_draw),
            ]
        entries = [self._when_acting(side, entry) for entry in actions.controls()]
        if control.offers_undo:
            entries.append(Control("undo", lambda: _("Undo"), actions.undo, actions.can_undo))
        if control.draws_by_agreement():

            def can_offer() -> bool:
                return actions.can_offer_draw() and actions.draw_offer is None

            offer = Control("offer draw", lambda: _("Offer draw"), actions.offer_draw, can_offer)
            entries.append(self._when_acting(side, offer))

        def can_resign() -> bool:
            return actions.can_resign() and self._side_seat(side) is not None

        resign = Control("resign", lambda: _("Resign"), lambda: self._ask_resign(side),
                         can_resign)  # fmt: skip
        menu = Control("menu", lambda: _("Menu"),
                       lambda: actions.open_menu(180 if side.turned else 0))  # fmt: skip
        return [*entries, resign, menu]

    def _when_acting(self, side: Side, control: Control) -> Control:
        """``control``, live only on the side whose seat acts (on the near side for a lot):
        nobody rolls or moves for the player across the table."""
        return replace(control, enabled=lambda: self._acting_side() in (side.index, None)
                       and control.enabled())  # fmt: skip

    def _side_seat(self, side: Side) -> int | None:
        """The seat a person on ``side`` plays: the one to act if it is theirs, else the
        first; None if nobody here plays from that side."""
        play = self.play
        seats = [seat for seat in range(len(play.match.seats))
                 if side_of(seat) == side.index and play.control.here(seat)]  # fmt: skip
        if not seats:
            return None
        acting = play.actor(play.state)
        return acting if acting in seats else seats[0]

    def _ask_resign(self, side: Side) -> None:
        self.resigning = side.index
        self.play.rebuild()

    def _cancel_resign(self) -> None:
        self.resigning = None
        self.play.rebuild()

    def _resign(self, side: Side) -> None:
        seat = self._side_seat(side)
        self.resigning = None
        self.play.actions.resign(seat)

    def _side_buttons(self, side: Side, entries: list[Control]) -> list[Target]:
        row, gap = self.row, self.gap
        width = side.rect.width
        left = round(width * (TEXT_SHARE + COUNTS_SHARE))
        room = self._buttons_room(width)
        columns = max(1, -(-len(entries) // self.button_rows))
        cell = max(theme.TOUCH, (room - (columns - 1) * gap) // columns)
        targets = []
        for n, entry in enumerate(entries):
            column, line = n % columns, n // columns
            local = pygame.Rect(left + column * (cell + gap), gap + line * (row + gap), cell, row)
            targets.append(self._turned(side, local, entry))
        mute = pygame.Rect(round(width * TEXT_SHARE) - row, gap, row, row)
        targets.append(self._mute(side, mute))
        return targets

    def _turned(self, side: Side, local: pygame.Rect, entry: Control) -> Target:
        """A button of ``side``'s panel: drawn as its reader sees it, turned with the panel."""
        pad = local.height // 2
        upright = button(pygame.Rect(pad, pad, *local.size), entry.label, entry.action,
                         self.play.palette, entry.enabled, entry.name)  # fmt: skip
        placed = side.place(local)
        return Target(placed, entry.action, entry.enabled,
                      _turned_drawing(upright, placed, side.turned),
                      _side_name(side, entry.name), entry.label)  # fmt: skip

    def _mute(self, side: Side, local: pygame.Rect) -> Target:
        pad = local.height // 2
        speaker = mute_button(self.play.app, pygame.Rect((pad, pad), local.size),
                              theme.touch(2.9 * self.u))  # fmt: skip
        placed = side.place(local)
        return Target(placed, speaker.action, draw=_turned_drawing(speaker, placed, side.turned),
                      name=_side_name(side, "mute"), label=speaker.label)  # fmt: skip

    # -- the panels ---------------------------------------------------------------------------

    def _acting_side(self) -> int | None:
        play = self.play
        seat = play.actor(play.state)
        if seat is None or play.state.is_terminal():
            return None
        return side_of(seat)

    def _side_words(self, side: Side) -> SideWords:
        """What ``side``'s panel says now: the turn's colour, the status, the prompt (to the
        side that acts), the newest notice and the counts."""
        play = self.play
        seat = play.actor(play.state)
        turn = None if seat is None or play.state.is_terminal() else play.view.seat_colour(seat)
        acting = self._acting_side() == side.index
        prompt = play.prompt() if acting or self._acting_side() is None else ""
        notices = play.control.notices()
        return (turn, acting, play.status(), prompt or play.banner, bool(prompt),
                notices[-1] if notices else "", tuple(play.view.counts()))  # fmt: skip

    def elements(self) -> list[Element]:
        return [(f"words {side.index}", side.rect, self._side_words(side)) for side in self.sides]

    def draw(self, surface: pygame.Surface) -> None:
        for side in self.sides:
            if not surface.get_clip().colliderect(side.rect):
                continue
            words = self._panel_picture(side.rect.size, self._side_words(side))
            if side.turned:
                words = pygame.transform.rotate(words, 180)
            surface.blit(words, side.rect)

    def _panel_picture(self, size: tuple[int, int], words: SideWords) -> pygame.Surface:
        """A panel's words and counts as its reader sees them, on the panel's colour."""
        turn, acting, status, prompt, instruction, notice, counts = words
        palette, u, gap = self.play.palette, self.u, self.gap
        picture = pygame.Surface(size)
        picture.fill(palette.panel)
        if acting and turn is not None:  # the seat's colour along the edge nearest the board
            pygame.draw.rect(picture, turn, (0, 0, size[0], max(3, u // 3)))
        x, y = u, gap + u // 3
        if turn is not None:
            centre = (x + u // 2, y + round(0.6 * u))
            pygame.draw.circle(picture, turn, centre, round(0.45 * u))
            pygame.draw.circle(picture, palette.text, centre, round(0.45 * u), 1)
        width = self.text_width - self.row - u
        y = _wrapped_lines(picture, status, round(1.2 * u), palette.text,
                           x + round(1.4 * u), y, width - round(1.4 * u), 2)  # fmt: skip
        colour = palette.accent if instruction else palette.muted
        y = _wrapped_lines(picture, prompt, u, colour, x, y, self.text_width, 2)
        if notice:
            _wrapped_lines(picture, notice, u, palette.warning, x, y, self.text_width, 1)
        x, y = round(size[0] * TEXT_SHARE), gap + u // 3
        for seat, line in counts:
            if line:
                if seat >= 0:
                    pygame.draw.circle(picture, self.play.view.seat_colour(seat),
                                       (x + u // 3, y + round(0.5 * u)), u // 3)  # fmt: skip
                room = round(size[0] * COUNTS_SHARE) - 2 * u
                picture.blit(theme.fitted(line, round(0.85 * u), palette.text, room), (x + u, y))
            y += round(COUNT_LINE * u)
        return picture


def _wrapped_lines(picture: pygame.Surface, text: str, size: int, colour: theme.Colour,
                   x: int, y: int, width: int, lines: int) -> int:  # fmt: skip
    for line in wrapped(text, size, True, max(1, width))[:lines]:
        picture.blit(theme.text(line, size, colour, True), (x, y))
        y += round(size * 1.25)
    return y


def _side_name(side: Side, name: str) -> str:
    """The near panel's buttons keep their names; the far one's say so."""
    return name if side.index == NEAR else f"far {name}"


def _turned_drawing(
    upright: Target, placed: pygame.Rect, turned: bool
) -> Callable[[pygame.Surface, bool, bool], None]:
    """A drawing of ``upright`` (drawn in a rectangle padded by half its height, for its
    focus ring) at ``placed`` on the screen, upside down when ``turned``; ``upright`` draws
    itself (a button)."""
    drawing = upright.draw
    if drawing is None:
        raise ValueError(f"{upright.name}: a target drawn by someone else cannot be turned")
    pad = upright.rect.x
    size = (upright.rect.width + 2 * pad, upright.rect.height + 2 * pad)

    def draw(surface: pygame.Surface, focused: bool, pressed: bool) -> None:
        picture = pygame.Surface(size, pygame.SRCALPHA)
        drawing(picture, focused, pressed)
        if turned:
            picture = pygame.transform.rotate(picture, 180)
        surface.blit(picture, (placed.x - pad, placed.y - pad))

    return draw
