"""The mill board: placing, sliding, flying and removing, for all three Mulino variants.

Tap an empty point to place; tap a piece then a point to move it.  After a mill the line
flashes and the removable pieces are ringed: tap one.  The pieces that can move are ringed
when none is chosen.  The last turn stays tinted, and what it removed stays as a ghost, until
the next turn; the letters and numbers of the move list run along the edges.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from functools import partial

import pygame

import game.client.views.marks as marks
from game.client import theme
from game.client.anim import Tween, lerp
from game.client.redraw import Element, around
from game.client.sprites import sprite
from game.client.views.base import BoardView, Control, Step, Table, floats
from game.client.views.marks import LIGHT_AND_DARK, ghost, tinted_disc
from game.client.widgets import Target
from game.i18n import _
from game.names import seat_names
from game.rules import Rule, State
from game.rules.mulino import (
    ADJACENT,
    MILLS,
    MOVE_BASE,
    PASS,
    POINTS,
    REMOVE,
    REMOVE_BASE,
    MulinoState,
    points_of,
)

MARGIN = 0.85
"""From the wood's edge to the outer points, in steps: room for a stone and a coordinate."""
STONE = 0.78
"""A stone's diameter, in steps between neighbouring grid lines."""
COLOURS = ("white", "black")


def _grid(point: int) -> tuple[int, int]:
    name = POINTS[point]
    return "abcdefg".index(name[0]), int(name[1]) - 1


class MillView(BoardView[MulinoState]):
    def of_game(self, state: State) -> MulinoState | None:
        return state if isinstance(state, MulinoState) else None

    def __init__(self, play: Table) -> None:
        super().__init__(play)
        self.step = 1
        self.margin = 1
        self.selected: int | None = None
        self.motion: tuple[Tween, int, tuple[float, float], tuple[float, float]] | None = None
        self.vanishing: tuple[Tween, int, str] | None = None
        self.flash: tuple[Tween, int] | None = None
        self.touched: tuple[int, ...] = ()
        self.order: tuple[int, ...] = ()
        """The points the last turn placed on, moved from or moved to."""
        self.ghosts: tuple[tuple[int, str], ...] = ()
        """The pieces the last turn removed: their points and sprites."""
        self._background: pygame.Surface | None = None
        self._labelled = False
        self._centres_key: tuple[int, int, int, int] | None = None
        self._centres_of: tuple[tuple[int, int], ...] = ()

    # -- geometry -------------------------------------------------------------------------

    def layout(self, board: pygame.Rect, tray: pygame.Rect) -> None:
        side = min(board.width, board.height)
        self.step = max(1, int(side / (6 + 2 * MARGIN)))
        self.margin = round(self.step * MARGIN)
        size = 6 * self.step + 2 * self.margin
        self.rect = pygame.Rect(0, 0, size, size)
        self.rect.center = board.center
        self.tray = tray
        self._background = None

    def point_center(self, point: int) -> tuple[int, int]:
        return self._centres()[point]

    def _centres(self) -> tuple[tuple[int, int], ...]:
        """Every point's centre on the screen, worked out again only when the board moves
        (a pass of a frame asks for each point's several times)."""
        key = (self.rect.x, self.rect.y, self.margin, self.step)
        if key != self._centres_key:
            x, y = self.rect.x + self.margin, self.rect.y + self.margin
            self._centres_of = tuple(
                (x + col * self.step, y + (6 - row) * self.step)
                for col, row in map(_grid, range(24))
            )
            self._centres_key = key
        return self._centres_of

    def point_rect(self, point: int) -> pygame.Rect:
        rect = pygame.Rect(0, 0, self.step * 4 // 5, self.step * 4 // 5)
        rect.center = self.point_center(point)
        return rect

    def _board_surface(self) -> pygame.Surface:
        """The wood and its lines, with the coordinates when the settings show them (drawn
        again only when the size or that setting changes)."""
        labelled = self.play.app.settings.show_coordinates
        if self._background is None or labelled != self._labelled:
            self._background = self._draw_background(labelled)
            self._labelled = labelled
        return self._background

    def _draw_background(self, labelled: bool) -> pygame.Surface:
        surface = pygame.Surface(self.rect.size)
        surface.fill(self.boards.mill_board)
        width = max(2, self.step // 14)
        offset = pygame.Vector2(self.rect.topleft)
        for a in range(24):
            for b in points_of(ADJACENT[a]):
                if a < b:
                    pygame.draw.line(
                        surface,
                        self.boards.mill_line,
                        pygame.Vector2(self.point_center(a)) - offset,
                        pygame.Vector2(self.point_center(b)) - offset,
                        width,
                    )
        for p in range(24):
            centre = pygame.Vector2(self.point_center(p)) - offset
            pygame.draw.circle(surface, self.boards.mill_line, centre, self.step // 9)
        if labelled:
            self._draw_coordinates(surface)
        return surface

    def _draw_coordinates(self, surface: pygame.Surface) -> None:
        """Letters a–g under the columns and numbers 1–7 left of the rows, as in ``d2``, in
        the band between the wood's edge and the outer stones."""
        font = theme.font(max(8, round(self.step * 0.3)), bold=True)
        band = (self.margin - self.step * STONE / 2) / 2
        for index in range(7):
            along = self.margin + index * self.step
            letter = font.render("abcdefg"[index], True, self.boards.mill_label)
            surface.blit(letter, letter.get_rect(center=(along, self.rect.height - band)))
            number = font.render(str(7 - index), True, self.boards.mill_label)
            surface.blit(number, number.get_rect(center=(band, along)))

    # -- drawing --------------------------------------------------------------------------

    def draw_board(self, surface: pygame.Surface) -> None:
        surface.blit(self._board_surface(), self.rect)

    def draw_pieces(self, surface: pygame.Surface) -> None:
        state = self.state
        if not isinstance(state, MulinoState):
            return
        size = round(self.step * STONE)
        if self.flash and not self.flash[0].done:
            glow = 0.5 + 0.5 * abs(((self.flash[0].t * 3) % 2) - 1)
            mill = self.flash[1]
            ends = [self.point_center(p) for p in points_of(mill)]
            lit = tuple(round(c * glow) for c in self.palette.accent)
            pygame.draw.line(surface, lit, ends[0], ends[-1], max(4, self.step // 5))
        self._draw_last_turn(surface, size)
        moving = self.motion[1] if self.motion else None
        clip, centres, half = surface.get_clip(), self._centres(), size // 2 + 1
        for side, colour in enumerate(COLOURS):
            piece = sprite(f"stone_{colour}", size)
            for point in points_of(state.men[side]):
                x, y = centres[point]
                if point != moving and clip.colliderect(x - half, y - half, 2 * half, 2 * half):
                    surface.blit(piece, piece.get_rect(center=(x, y)))
        if self.vanishing:
            tween, point, name = self.vanishing
            shrink = max(2, round(size * (1 - tween.eased())))
            fading = sprite(name, shrink)
            surface.blit(fading, fading.get_rect(center=self.point_center(point)))
        if self.motion:
            tween, point, start, end = self.motion
            colour = "white" if state.men[0] >> point & 1 else "black"
            piece = sprite(f"stone_{colour}", size)
            along = lerp(start, end, tween.eased())
            surface.blit(piece, piece.get_rect(center=(round(along[0]), round(along[1]))))
        self._draw_marks(surface, state)
        self._draw_order(surface)
        self.draw_focus_halo(surface)
        self._draw_hands(surface, state)

    def _draw_last_turn(self, surface: pygame.Surface, size: int) -> None:
        """A tinted disc on every point the last turn touched, under the stones, and the
        ghost of each stone it removed."""
        ring = max(2, self.step // 20)
        marker = self.marker(self.palette.last_move, self.rect)
        disc = tinted_disc(marker.colour, round(self.step * 0.47), ring, marker.halo)
        for point in self._last_points():
            surface.blit(disc, disc.get_rect(center=self.point_center(point)))
        for point, name in self.ghosts:
            faint = ghost(name, size)
            surface.blit(faint, faint.get_rect(center=self.point_center(point)))

    def _draw_order(self, surface: pygame.Surface) -> None:
        """Over a turn that touched more than two points, each numbered in its order, on a
        badge at the upper right of its ring (over the stones: the numbers must show)."""
        if len(self.order) <= 2:
            return
        marker = self.marker(self.palette.last_move, self.rect)
        radius = max(7, self.step // 6)
        for number, point in enumerate(self.order, 1):
            x, y = self.point_center(point)
            reach = self.step // 2 - radius - 3  # inside the point's own part of the screen
            centre = (x + reach, y - reach)
            pygame.draw.circle(surface, marker.halo or (0, 0, 0), centre, radius + 2)
            pygame.draw.circle(surface, marker.colour, centre, radius)
            label = theme.text(str(number), max(theme.SMALLEST, radius * 3 // 2), (0, 0, 0), True)
            surface.blit(label, label.get_rect(center=centre))

    def _marks(self, state: MulinoState) -> dict[int, tuple[str, ...]]:
        """What marks each point gets now: a stone that may be taken (``take``), the stone
        chosen, the stones that can move, the points a stone can go to (``dot``)."""
        if self.play.locked or state.to_move < 0:
            return {}
        if state.stage == REMOVE:
            return {action - REMOVE_BASE: ("take",) for action in state.legal_actions()}
        marks: dict[int, tuple[str, ...]] = {}
        if self.selected is not None:
            marks[self.selected] = ("chosen",)
        else:
            marks |= dict.fromkeys(self._movable(state), ("movable",))
        for point in self._hints(state):
            marks[point] = (*marks.get(point, ()), "dot")
        return marks

    def _draw_marks(self, surface: pygame.Surface, state: MulinoState) -> None:
        ring = max(2, self.step // 14)
        rings = {
            "take": (self.palette.warning, self.step * 2 // 5),
            "chosen": (self.palette.focus, self.step * 2 // 5),
            "movable": (self.palette.legal, self.step * 9 // 20),
        }
        for point, kinds in self._marks(state).items():
            centre = self.point_center(point)
            for mark in kinds:
                if mark == "dot":
                    legal = self.marker(self.palette.legal, self.rect)
                    marks.dot(surface, legal, centre, self.step // 8)
                else:
                    colour, radius = rings[mark]
                    marks.ring_of(surface, self.marker(colour, self.rect), centre, radius, ring)

    def grounds(self, where: pygame.Rect) -> tuple[theme.Colour, ...]:
        """The board (its lines are thin, and the marks at the points cover their dots)."""
        return (self.boards.mill_board,)

    def elements(self, version: Hashable) -> list[Element]:
        """Each point and what is on it (a stone, the last turn's tint or ghost, a mark),
        and the tray (the stones in hand)."""
        state = self.state
        if not isinstance(state, MulinoState):
            return super().elements(version)
        moving = self.motion[1] if self.motion else None
        last, ghosts, marks = self._last_points(), dict(self.ghosts), self._marks(state)
        points: list[Element] = []
        for point in range(24):
            stone = next((colour for side, colour in enumerate(COLOURS)
                          if state.men[side] >> point & 1 and point != moving), None)  # fmt: skip
            number = self.order.index(point) + 1 if len(self.order) > 2 and point in last else 0
            drawn = (stone, point in last, ghosts.get(point), marks.get(point), number)
            points.append((f"point {point}", around([self.point_center(point)], self.step // 2),
                           drawn))  # fmt: skip
        return [*points, ("tray", self.tray, (tuple(state.hand), version))]  # stones in hand

    def _hints(self, state: MulinoState) -> set[int]:
        """The empty points a tap can go to: where the chosen stone can go, else placements."""
        legal = state.legal_actions()
        if self.selected is not None:
            return {
                (a - MOVE_BASE) % 24
                for a in legal
                if MOVE_BASE <= a < REMOVE_BASE and (a - MOVE_BASE) // 24 == self.selected
            }
        return {a for a in legal if a < MOVE_BASE}

    @staticmethod
    def _movable(state: MulinoState) -> set[int]:
        """The stones of the side to act that have somewhere to go."""
        legal = state.legal_actions()
        return {(a - MOVE_BASE) // 24 for a in legal if MOVE_BASE <= a < REMOVE_BASE}

    def _draw_hands(self, surface: pygame.Surface, state: MulinoState) -> None:
        size = min(self.tray.height // 2 - 4, self.tray.width // 10)
        if size < 6 or not surface.get_clip().colliderect(self.tray):
            return
        for side, colour in enumerate(COLOURS):
            piece = sprite(f"stone_{colour}", size)
            for k in range(state.hand[side]):
                surface.blit(piece, (self.tray.x + k * size * 0.9, self.tray.y + side * (size + 4)))

    # -- the last turn, the prompt and the counts -----------------------------------------

    def show_last_turn(self, steps: tuple[Step, ...]) -> None:
        super().show_last_turn(steps)
        touched: list[int] = []
        ghosts: list[tuple[int, str]] = []
        order: list[int] = []
        for step in steps:
            before, action = step.before, step.action
            if not isinstance(before, MulinoState) or action not in before.legal_actions():
                continue  # a resignation or an agreed draw touches no point
            if action < MOVE_BASE:
                touched.append(action)
                order.append(action)
            elif action < REMOVE_BASE:
                touched += divmod(action - MOVE_BASE, 24)
                order += divmod(action - MOVE_BASE, 24)
            elif action < PASS:
                point = action - REMOVE_BASE
                colour = COLOURS[0] if before.men[0] >> point & 1 else COLOURS[1]
                ghosts.append((point, f"stone_{colour}"))
                order.append(point)
        self.touched, self.ghosts = tuple(dict.fromkeys(touched)), tuple(ghosts)
        self.order = tuple(dict.fromkeys(order))
        """The points the last turn touched, in the order it touched them (numbered on the
        board when it touched more than two: an extra move, a removal)."""

    def highlighted(self) -> frozenset[str]:
        """The points the last turn placed on, moved from and to, and removed from."""
        return frozenset(f"point {POINTS[p]}" for p in self._last_points())

    def _last_points(self) -> set[int]:
        return {*self.touched, *(point for point, _name in self.ghosts)}

    def prompt(self) -> str:
        state = self.state
        if not isinstance(state, MulinoState) or state.to_move < 0:
            return ""
        side = state.side
        if state.stage == REMOVE:
            opponent = seat_names(state)[1 - side]
            return _("Remove one of {side}'s pieces").format(side=opponent)
        if self.selected is not None:
            return _("Tap a point to move it to")
        legal = state.legal_actions()
        in_hand = state.hand[side]
        if PASS in legal:
            if in_hand:
                return _("Extra placement: place a piece or pass")
            return _("Extra move: move a piece or pass")
        if in_hand:
            if any(MOVE_BASE <= a < REMOVE_BASE for a in legal):
                return _("Place a piece ({n} left) or move one").format(n=in_hand)
            return _("Place a piece ({n} left)").format(n=in_hand)
        if state.men[side].bit_count() == state.variant.spec.flies_with:
            return _("Move a piece — you may fly")
        return _("Move a piece")

    def seat_colour(self, seat: int) -> tuple[int, int, int]:
        return LIGHT_AND_DARK[seat % 2]

    def hint_areas(self, state: State, action: int) -> list[pygame.Rect]:
        if action == PASS:
            return []
        if action >= REMOVE_BASE:
            return [self.point_rect(action - REMOVE_BASE)]
        if action >= MOVE_BASE:
            return [self.point_rect(point) for point in divmod(action - MOVE_BASE, len(POINTS))]
        return [self.point_rect(action)]

    def hint_path(self, state: State, action: int) -> list[tuple[int, int]]:
        if MOVE_BASE <= action < REMOVE_BASE:
            return [self.point_center(p) for p in divmod(action - MOVE_BASE, len(POINTS))]
        return []

    def counts(self) -> list[tuple[int, str]]:
        state = self.state
        if not isinstance(state, MulinoState):
            return []
        names = seat_names(state)
        return [
            (
                side,
                _("{side}: {hand} in hand, {board} on the board").format(
                    side=names[side], hand=state.hand[side], board=state.men[side].bit_count()
                ),
            )
            for side in (0, 1)
        ]

    # -- input ----------------------------------------------------------------------------

    def targets(self) -> list[Target]:
        return [
            Target(self.point_rect(p), partial(self.tap, p), name=f"point {POINTS[p]}")
            for p in range(24)
        ]

    def controls(self) -> list[Control]:
        """Passing is declining a ceylonese extra action: the other variants have none."""
        if not self.state.variant.has(Rule.EXTRA_ACTION_FOR_A_MILL_PLACED):
            return []
        return [Control("pass", self._pass_label, lambda: self.submit(PASS), self._can_pass)]

    def _can_pass(self) -> bool:
        return not self.play.locked and PASS in self.state.legal_actions()

    def _pass_label(self) -> str:
        state = self.state
        if isinstance(state, MulinoState) and state.to_move >= 0 and state.hand[state.side]:
            return _("Decline the extra placement")
        return _("Decline the extra move")

    def tap(self, point: int) -> None:
        state = self.state
        if self.play.locked or state.to_move < 0:
            self.play.gentle_cue(self.point_rect(point))
            return
        legal = state.legal_actions()
        if state.stage == REMOVE:
            self._choose(REMOVE_BASE + point, legal, point)
            return
        own = state.men[state.side] >> point & 1
        if own:
            can_move = any(MOVE_BASE + 24 * point <= a < MOVE_BASE + 24 * point + 24 for a in legal)
            self.selected = None if self.selected == point or not can_move else point
            if not can_move:
                self.play.gentle_cue(self.point_rect(point))
            return
        if self.selected is not None:
            self._choose(MOVE_BASE + 24 * self.selected + point, legal, point)
        else:
            self._choose(point, legal, point)

    def _choose(self, action: int, legal: Sequence[int], point: int) -> None:
        if action in legal:
            self.selected = None
            self.submit(action)
        else:
            self.play.gentle_cue(self.point_rect(point))

    def clear_selection(self) -> None:
        self.selected = None

    # -- animation ------------------------------------------------------------------------

    def played(self, before: State, action: int, after: State) -> None:
        assert isinstance(before, MulinoState) and isinstance(after, MulinoState)
        sound = "move"
        if MOVE_BASE <= action < REMOVE_BASE:
            a, b = divmod(action - MOVE_BASE, 24)
            tween = Tween(0.22)
            self.motion = (
                tween,
                b,
                floats(self.point_center(a)),
                floats(self.point_center(b)),
            )
            self.tweens.append(tween)
        elif REMOVE_BASE <= action < PASS:
            point = action - REMOVE_BASE
            colour = "white" if before.men[0] >> point & 1 else "black"
            tween = Tween(0.3)
            self.vanishing = (tween, point, f"stone_{colour}")
            self.tweens.append(tween)
            ink = LIGHT_AND_DARK[0] if colour == "white" else LIGHT_AND_DARK[1]
            self.sparks(floats(self.point_center(point)), [ink, self.palette.accent])
            sound = "capture"
        if after.stage == REMOVE:
            own = after.men[after.side]
            mill = next(m for m in MILLS if own & m == m and _touches(action, m))
            tween = Tween(0.9)
            self.flash = (tween, mill)
            self.tweens.append(tween)
            for point in points_of(mill):  # the mill lights up along its line
                self.sparks(floats(self.point_center(point)),
                            [self.palette.accent, (255, 244, 200)], strength=1.3)  # fmt: skip
            sound = "mill"
        self.play.app.sound.play(sound)

    def moving_areas(self) -> list[pygame.Rect]:
        """The stone moving, the stone vanishing, the mill's line while it flashes (the
        line alone: the stones on it are drawn again where it passes)."""
        stone = self.step * STONE / 2 + 2
        areas = []
        if self.motion and not self.motion[0].done:
            tween, _, start, end = self.motion
            areas.append(around([lerp(start, end, tween.eased())], stone))
        if self.vanishing and not self.vanishing[0].done:
            areas.append(around([self.point_center(self.vanishing[1])], stone))
        if self.flash and not self.flash[0].done:
            line = max(4, self.step // 5) / 2 + 2
            areas.append(around([self.point_center(p) for p in points_of(self.flash[1])], line))
        return areas

    def update(self, dt: float) -> None:
        super().update(dt)
        if self.motion and self.motion[0].done:
            self.motion = None
        if self.vanishing and self.vanishing[0].done:
            self.vanishing = None


def _touches(action: int, mill: int) -> bool:
    point = action if action < MOVE_BASE else (action - MOVE_BASE) % 24
    return bool(mill >> point & 1)
