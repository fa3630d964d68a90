"""What every board view does: draw a position in a rectangle, offer tappable targets for the
decision at hand, and animate what was just played."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, Protocol, TypeVar

import pygame

import game.client.views.marks as marks
from game.client import theme
from game.client.anim import Tween
from game.client.particles import Particles
from game.client.redraw import Element
from game.client.widgets import Target

if TYPE_CHECKING:
    from game.client.app import App
    from game.client.coach import Coach, Silent
    from game.rules import State


S_co = TypeVar("S_co", bound="State", covariant=True)
"""The kind of position a view draws (a view for Mulino draws a ``MulinoState``)."""


class Seats(Protocol):
    """Who decides for the seats (a match control): a view offers choices only to a person
    here."""

    def here(self, seat: int) -> bool: ...


class Table(Protocol):
    """What a board view asks of the screen it is on: the match screen
    (:class:`~game.client.scenes.play.PlayScene`), or a picture's
    :class:`~game.client.scenes.picture.Preview`, which is only looked at (locked, a silent
    coach, nobody here)."""

    app: App

    @property
    def state(self) -> State: ...

    @property
    def locked(self) -> bool: ...

    @property
    def palette(self) -> theme.Palette: ...

    @property
    def coach(self) -> Coach | Silent: ...

    @property
    def control(self) -> Seats: ...

    @property
    def targets(self) -> list[Target]: ...

    def gentle_cue(self, rect: pygame.Rect | None = None) -> None: ...

    def can_roll(self) -> bool: ...

    def roll(self) -> None: ...

    def submit(self, action: int) -> None: ...


def floats(point: tuple[int, int]) -> tuple[float, float]:
    """A point of the screen as the animations take it."""
    return float(point[0]), float(point[1])


FOCUS_CORNER = 6
"""The corners of the keyboard focus's ring, as the screen draws it."""


@dataclass(frozen=True, slots=True)
class Step:
    """One action of a match: the state before it, the action, and the state after."""

    before: State
    action: int
    after: State


@dataclass(frozen=True, slots=True)
class Control:
    """A game-specific button for the side panel (Roll, Stop, Pass …)."""

    name: str
    label: Callable[[], str]
    action: Callable[[], None]
    enabled: Callable[[], bool] = lambda: True


class BoardView(Generic[S_co]):
    """Base of the per-game views.  ``play`` is the screen that owns the view (its
    :class:`Table`); a view is generic over the kind of position it draws (:meth:`of_game`
    says which)."""

    uses_tray = True
    """Whether the view draws in its tray (dice, hands, stones in hand): a layout gives
    the board the tray's room when it does not."""

    def __init__(self, play: Table) -> None:
        self.play = play
        self.rect = pygame.Rect(0, 0, 1, 1)
        self.tray = pygame.Rect(0, 0, 1, 1)
        self.tweens: list[Tween] = []
        self.particles = Particles(enabled=not play.app.settings.reduce_motion)
        """Sparks over the board (a capture, a mill, a row, a quad): not an animation that
        holds the game, so not in :attr:`animating`."""
        self.last_turn: tuple[Step, ...] = ()
        """The actions of the turn played last, chance outcomes included, oldest first: the
        view keeps them visible (highlighted squares, a fading ghost, the dice thrown) until
        the next turn is played."""

    @property
    def palette(self) -> theme.Palette:
        return self.play.palette

    @property
    def boards(self) -> theme.Boards:
        """The board theme's colours."""
        return self.play.app.boards

    def of_game(self, state: State) -> S_co | None:
        """``state`` if it is a position of this view's game, else None."""
        raise NotImplementedError

    @property
    def state(self) -> S_co:
        """The position to draw: after a resignation or an agreed draw, the board as it was
        left (always of the view's game: :func:`game.client.views.view_for` picks the view
        by the kind of the match's states)."""
        shown = self.play.state.last_position
        state = self.of_game(shown)
        if state is None:
            raise TypeError(f"{type(self).__name__} cannot draw {shown!r}")
        return state

    # -- hooks ----------------------------------------------------------------------------

    def layout(self, board: pygame.Rect, tray: pygame.Rect) -> None:
        """``board`` for the board itself, ``tray`` (in the side panel) for dice and hands."""
        self.rect, self.tray = board, tray

    def tap_size(self) -> int:
        """The smallest side of anything this view lets people tap, as laid out now (a
        layout tries its options against :data:`theme.TOUCH` with it)."""
        return min((min(target.rect.size) for target in self.targets()), default=1 << 16)

    def draw(self, surface: pygame.Surface) -> None:
        """The board and everything on it."""
        self.draw_board(surface)
        self.draw_pieces(surface)

    def draw_board(self, surface: pygame.Surface) -> None:
        """The board's art, the same in every position: the match screen keeps it drawn on
        its backdrop (drawn again when :meth:`board_look` changes)."""

    def board_look(self) -> tuple[object, ...]:
        """What :meth:`draw_board` depends on besides the palette and the board theme."""
        return (tuple(self.rect), tuple(self.tray), self.play.app.settings.show_coordinates)

    def draw_pieces(self, surface: pygame.Surface) -> None:
        """Everything over the board: the position, the last turn, the choices, the dice."""
        raise NotImplementedError

    def elements(self, version: Hashable) -> list[Element]:
        """The board's and the tray's parts and what each shows, for the match screen to draw
        again only those that changed.  By default the board and the tray are one part each,
        drawn again after each change of position and each tap or key (``version``); a view
        may name its squares one by one."""
        board, tray = self._board_and_tray()
        state = self.state
        return [("board", board, (state, self.last_turn, version)),
                ("tray", tray, (state, version))]  # fmt: skip

    def moving_areas(self) -> list[pygame.Rect]:
        """Where the animation under way draws (empty when none is): by default the board
        and the tray."""
        return list(self._board_and_tray()) if self.animating else []

    def _board_and_tray(self) -> tuple[pygame.Rect, pygame.Rect]:
        """The board and the tray, each with a margin (a hop, a die thrown up, an edge)."""
        margin, lift = min(self.rect.size) // 4, self.tray.height
        return self.rect.inflate(margin, margin), self.tray.inflate(lift, lift)

    def targets(self) -> list[Target]:
        """What can be tapped for the decision at hand."""
        return []

    def controls(self) -> list[Control]:
        return []

    def played(self, before: State, action: int, after: State) -> None:
        """Start the animation of ``action``; the view draws ``after`` from now on."""

    def clear_selection(self) -> None:
        """Forget a half-made choice (after undo, say)."""

    def show_last_turn(self, steps: tuple[Step, ...]) -> None:
        """Keep ``steps`` (the turn played last) visible until the next call."""
        self.last_turn = steps

    def highlighted(self) -> frozenset[str]:
        """The names of the targets (``point d2``, ``square 22``, ``cell 12``, ``space 7``)
        that the last turn touched, as drawn: for tests and for a screen reader's summary."""
        return frozenset()

    def prompt(self) -> str:
        """What the person to act must do now, in the player's language ("Place a piece (6
        left)", "Split: choose the second pawn"), or "" when nobody here has to act."""
        return ""

    def passed(self) -> bool:
        """True if the turn played last ended without a move because none was possible (a
        throw that allows no mark): the screen says so, whoever is to act next."""
        return False

    def seat_colour(self, seat: int) -> tuple[int, int, int]:
        """The colour that stands for ``seat`` in the panel (its pieces' colour)."""
        return self.palette.seats[seat % len(self.palette.seats)]

    def hint_areas(self, state: State, action: int) -> list[pygame.Rect]:
        """Where ``action`` is made on the board — the squares, points, pawns, cells or dice
        a person would tap — for a hint's marks; [] for an action of the panel's buttons."""
        return []

    def hint_path(self, state: State, action: int) -> list[tuple[int, int]]:
        """The way a piece goes in ``action`` (its first place, any it passes, its last),
        for a hint's line; [] for an action that moves nothing across the board."""
        return []

    def move_rings(self, state: State, action: int, u: int) -> list[pygame.Rect]:
        """The rings round the places ``action`` is made, as a hint or a review marks it."""
        return [area.inflate(u // 3, u // 3) for area in self.hint_areas(state, action)]

    def draw_move(
        self, surface: pygame.Surface, state: State, action: int, colour: theme.Colour, u: int
    ) -> None:
        """``action`` marked on the board: a ring round each place it is made and, for a
        move across the board, a line along it to a dot where it ends (each in its halo
        where ``colour`` alone would not stand out from the board)."""
        width = max(4, u // 3)
        rings = self.move_rings(state, action, u)
        for ring in rings:
            marks.frame(surface, self.marker(colour, ring), ring, width, width * 2)
        path = self.hint_path(state, action)
        if path:
            where = rings[0].unionall(rings[1:]) if rings else pygame.Rect(path[0], (1, 1))
            marks.path(surface, self.marker(colour, where), path, width, width * 2)

    # -- the markers' contrast with the board ---------------------------------------------

    def grounds(self, where: pygame.Rect) -> tuple[theme.Colour, ...]:
        """The colours of what a marker drawn at ``where`` lies on and beside — squares,
        points, cells, spaces, the panel under the tray — for :meth:`marker` to stand out
        from (by default the screen's background)."""
        return (self.palette.background,)

    def marker(self, colour: theme.Colour, where: pygame.Rect) -> theme.Marker:
        """How a marker of ``colour`` at ``where`` is drawn: with a halo where ``colour``
        alone would not keep 3:1 with the board under it."""
        return theme.marker(colour, self.grounds(where))

    def draw_focus_halo(self, surface: pygame.Surface) -> None:
        """The halo under the keyboard focus's ring when it is on the board.  The screen
        draws that ring over everything, in the palette's focus colour (as
        :meth:`Scene.draw_targets` does: ``focus.rect``, a twelfth of its height wide, corners
        of 6); where the board would swallow that colour, the view lays the ring's halo
        under it, round both of its sides."""
        focus = getattr(self.play, "focus", None)
        if focus is None or focus.draw is not None or focus not in self.play.targets:
            return
        rect, width = focus.rect, max(2, focus.rect.height // 12)
        marker = self.marker(self.palette.focus, rect)
        if marker.halo is not None:
            halo = marks.halo_width(width)
            marks.frame(surface, marker, rect.inflate(2 * halo, 2 * halo), width,
                        FOCUS_CORNER + halo)  # fmt: skip

    def counts(self) -> list[tuple[int, str]]:
        """Lines of counts for the side panel, each with the seat it is about (-1: nobody):
        pieces in hand and on the board, points, attempts left."""
        return []

    # -- shared ---------------------------------------------------------------------------

    def update(self, dt: float) -> None:
        for tween in self.tweens:
            tween.advance(dt)
        self.tweens = [t for t in self.tweens if not t.done]
        self.particles.update(dt)

    def sparks(self, at: tuple[float, float], colours: list[tuple[int, int, int]],
               strength: float = 1.0) -> None:  # fmt: skip
        """A burst at ``at`` sized to the board: ``strength`` 1 for a capture, more for a
        mill, a row or a quad."""
        side = min(self.rect.size)
        self.particles.burst(at, colours, round(28 * strength), side * 0.55 * strength,
                             max(2.0, side / 110), life=0.6 + 0.25 * strength)  # fmt: skip

    @property
    def animating(self) -> bool:
        return bool(self.tweens)

    def submit(self, action: int) -> None:
        """Play ``action`` for the seat to move."""
        self.play.submit(action)
