"""The mill board: placing, sliding, flying and removing, for all three Mulino variants.

Tap an empty point to place; tap a piece then a point to move it.  After a mill the line
flashes and the removable pieces are ringed: tap one.  Pieces left in hand wait in the tray.
"""

from __future__ import annotations

import pygame

from game.client.anim import Tween, lerp
from game.client.sprites import sprite
from game.client.views.base import BoardView, Control
from game.client.widgets import Target
from game.i18n import _
from game.rules import State
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

BOARD = (214, 178, 122)
LINE = (70, 48, 30)


def _grid(point: int) -> tuple[int, int]:
    name = POINTS[point]
    return "abcdefg".index(name[0]), int(name[1]) - 1


class MillView(BoardView):
    def __init__(self, play) -> None:
        super().__init__(play)
        self.selected: int | None = None
        self.motion: tuple[Tween, int, tuple[float, float], tuple[float, float]] | None = None
        self.vanishing: tuple[Tween, int, str] | None = None
        self.flash: tuple[Tween, int] | None = None

    # -- geometry -------------------------------------------------------------------------

    def layout(self, board: pygame.Rect, tray: pygame.Rect) -> None:
        side = min(board.width, board.height)
        self.step = side // 7
        self.rect = pygame.Rect(0, 0, self.step * 7, self.step * 7)
        self.rect.center = board.center
        self.tray = tray
        self._background = self._draw_background()

    def point_center(self, point: int) -> tuple[int, int]:
        col, row = _grid(point)
        return (
            self.rect.x + self.step // 2 + col * self.step,
            self.rect.y + self.step // 2 + (6 - row) * self.step,
        )

    def point_rect(self, point: int) -> pygame.Rect:
        rect = pygame.Rect(0, 0, self.step * 4 // 5, self.step * 4 // 5)
        rect.center = self.point_center(point)
        return rect

    def _draw_background(self) -> pygame.Surface:
        surface = pygame.Surface(self.rect.size)
        surface.fill(BOARD)
        width = max(2, self.step // 14)
        offset = pygame.Vector2(self.rect.topleft)
        for a in range(24):
            for b in points_of(ADJACENT[a]):
                if a < b:
                    pygame.draw.line(
                        surface,
                        LINE,
                        pygame.Vector2(self.point_center(a)) - offset,
                        pygame.Vector2(self.point_center(b)) - offset,
                        width,
                    )
        for p in range(24):
            centre = pygame.Vector2(self.point_center(p)) - offset
            pygame.draw.circle(surface, LINE, centre, self.step // 9)
        return surface

    # -- drawing --------------------------------------------------------------------------

    def draw(self, surface: pygame.Surface) -> None:
        surface.blit(self._background, self.rect)
        state = self.state
        assert isinstance(state, MulinoState)
        size = round(self.step * 0.78)
        if self.flash and not self.flash[0].done:
            glow = 0.5 + 0.5 * abs(((self.flash[0].t * 3) % 2) - 1)
            mill = self.flash[1]
            ends = [self.point_center(p) for p in points_of(mill)]
            colour = tuple(round(c * glow) for c in self.palette.accent)
            pygame.draw.line(surface, colour, ends[0], ends[-1], max(4, self.step // 5))
        moving = self.motion[1] if self.motion else None
        for side, colour in enumerate(("white", "black")):
            for point in points_of(state.men[side]):
                if point != moving:
                    piece = sprite(f"stone_{colour}", size)
                    surface.blit(piece, piece.get_rect(center=self.point_center(point)))
        if self.vanishing:
            tween, point, name = self.vanishing
            shrink = max(2, round(size * (1 - tween.eased())))
            ghost = sprite(name, shrink)
            surface.blit(ghost, ghost.get_rect(center=self.point_center(point)))
        if self.motion:
            tween, point, start, end = self.motion
            colour = "white" if state.men[0] >> point & 1 else "black"
            piece = sprite(f"stone_{colour}", size)
            x, y = lerp(start, end, tween.eased())
            surface.blit(piece, piece.get_rect(center=(round(x), round(y))))
        self._draw_marks(surface, state)
        self._draw_hands(surface, state)

    def _draw_marks(self, surface: pygame.Surface, state: MulinoState) -> None:
        if self.play.locked or state.to_move < 0:
            return
        ring = max(2, self.step // 14)
        if state.stage == REMOVE:
            for action in state.legal_actions():
                pygame.draw.circle(
                    surface,
                    self.palette.warning,
                    self.point_center(action - REMOVE_BASE),
                    self.step * 2 // 5,
                    ring,
                )
            return
        if self.selected is not None:
            pygame.draw.circle(
                surface,
                self.palette.focus,
                self.point_center(self.selected),
                self.step * 2 // 5,
                ring,
            )
        for point in self._hints(state):
            pygame.draw.circle(
                surface, self.palette.legal, self.point_center(point), self.step // 8
            )

    def _hints(self, state: MulinoState) -> set[int]:
        legal = state.legal_actions()
        if self.selected is not None:
            return {
                (a - MOVE_BASE) % 24
                for a in legal
                if MOVE_BASE <= a < REMOVE_BASE and (a - MOVE_BASE) // 24 == self.selected
            }
        return {a for a in legal if a < MOVE_BASE}

    def _draw_hands(self, surface: pygame.Surface, state: MulinoState) -> None:
        size = min(self.tray.height // 2 - 4, self.tray.width // 10)
        if size < 6:
            return
        for side, colour in enumerate(("white", "black")):
            piece = sprite(f"stone_{colour}", size)
            for k in range(state.hand[side]):
                surface.blit(piece, (self.tray.x + k * size * 0.9, self.tray.y + side * (size + 4)))

    # -- input ----------------------------------------------------------------------------

    def targets(self) -> list[Target]:
        return [
            Target(self.point_rect(p), lambda p=p: self.tap(p), name=f"point {POINTS[p]}")
            for p in range(24)
        ]

    def controls(self) -> list[Control]:
        return [
            Control(
                "pass",
                lambda: _("Pass"),
                lambda: self.submit(PASS),
                lambda: PASS in self.state.legal_actions() and not self.play.locked,
            )
        ]

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

    def _choose(self, action: int, legal: list[int], point: int) -> None:
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
                tuple(map(float, self.point_center(a))),
                tuple(map(float, self.point_center(b))),
            )
            self.tweens.append(tween)
        elif REMOVE_BASE <= action < PASS:
            point = action - REMOVE_BASE
            colour = "white" if before.men[0] >> point & 1 else "black"
            tween = Tween(0.3)
            self.vanishing = (tween, point, f"stone_{colour}")
            self.tweens.append(tween)
            sound = "capture"
        if after.stage == REMOVE:
            own = after.men[after.side]
            mill = next(m for m in MILLS if own & m == m and _touches(action, m))
            tween = Tween(0.9)
            self.flash = (tween, mill)
            self.tweens.append(tween)
            sound = "mill"
        self.play.app.sound.play(sound)

    def update(self, dt: float) -> None:
        super().update(dt)
        if self.motion and self.motion[0].done:
            self.motion = None
        if self.vanishing and self.vanishing[0].done:
            self.vanishing = None


def _touches(action: int, mill: int) -> bool:
    point = action if action < MOVE_BASE else (action - MOVE_BASE) % 24
    return bool(mill >> point & 1)
