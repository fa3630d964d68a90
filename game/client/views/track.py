"""The Numeri track: 37 spaces winding across the board, the barriers, and the pawns.

Roll the die, then tap the pawn to move (or pick a split from the panel, or tap its two
pawns in order).  A pawn hops from space to space over the ones it passes.
"""

from __future__ import annotations

import pygame

from game.client import theme
from game.client.anim import Tween, along
from game.client.sprites import sprite
from game.client.views.base import BoardView, Control
from game.client.widgets import Target
from game.i18n import _
from game.rules import State
from game.rules.numeri import CHOOSE, OFF, PAWNS, ROLL, STAR, NumeriState

ROW = 10
START, PLAIN, END = (140, 30, 40), (236, 228, 206), (246, 210, 70)
DIE_SPRITES = {1: "die_1", 2: "die_2", 3: "die_3", 4: "die_4", 5: "die_5", STAR: "die_star"}


class TrackView(BoardView):
    def __init__(self, play) -> None:
        super().__init__(play)
        self.first: int | None = None  # the first pawn of a split being tapped
        self.motion: tuple[Tween, list[tuple[float, float]], int, int] | None = None
        self.tumble: Tween | None = None

    # -- geometry -------------------------------------------------------------------------

    def layout(self, board: pygame.Rect, tray: pygame.Rect) -> None:
        self.space = min(board.width // (ROW + 1), board.height * 2 // 11)
        rows = (self.state.track.length + ROW - 1) // ROW
        self.rect = pygame.Rect(0, 0, self.space * ROW, self.space * (2 * rows - 1))
        self.rect.center = board.center
        self.tray = tray
        self._background = self._draw_background()

    def space_center(self, space: int) -> tuple[int, int]:
        row, k = divmod(space, ROW)
        col = k if row % 2 == 0 else ROW - 1 - k
        return (
            self.rect.x + col * self.space + self.space // 2,
            self.rect.y + row * 2 * self.space + self.space // 2,
        )

    def space_rect(self, space: int) -> pygame.Rect:
        rect = pygame.Rect(0, 0, self.space * 9 // 10, self.space * 9 // 10)
        rect.center = self.space_center(space)
        return rect

    def home_rect(self, seat: int, pawn: int) -> pygame.Rect:
        """Where pawn ``pawn`` of ``seat`` waits before it enters."""
        size = min(self.tray.width // 7, self.tray.height // max(2, self.state.players))
        return pygame.Rect(
            self.tray.x + size + (pawn - 1) * size, self.tray.y + seat * size, size, size
        )

    def pawn_rect(self, seat: int, pawn: int) -> pygame.Rect:
        state = self.state
        assert isinstance(state, NumeriState)
        at = state.pawns[seat][pawn - 1]
        return self.home_rect(seat, pawn) if at == OFF else self.space_rect(at)

    def _draw_background(self) -> pygame.Surface:
        state = self.state
        assert isinstance(state, NumeriState)
        surface = pygame.Surface(self.rect.size, pygame.SRCALPHA)
        offset = pygame.Vector2(self.rect.topleft)
        values = state.track.values
        for space in range(1, len(values)):
            pygame.draw.line(
                surface,
                (120, 100, 70),
                pygame.Vector2(self.space_center(space - 1)) - offset,
                pygame.Vector2(self.space_center(space)) - offset,
                max(3, self.space // 8),
            )
        digits = theme.font(self.space // 3, bold=True)
        for space, value in enumerate(values):
            box = self.space_rect(space).move(-self.rect.x, -self.rect.y)
            colour = START if space == 0 else END if space >= len(values) - 3 else PLAIN
            pygame.draw.rect(surface, colour, box, border_radius=self.space // 6)
            pygame.draw.rect(surface, (90, 70, 50), box, 2, border_radius=self.space // 6)
            label = digits.render(
                str(value) if value else "·", True, (250, 240, 230) if space == 0 else (60, 50, 40)
            )
            surface.blit(label, label.get_rect(center=box.center))
        for players, after in state.track.barriers:
            a = pygame.Vector2(self.space_center(after)) - offset
            b = pygame.Vector2(self.space_center(after + 1)) - offset
            middle, normal = (a + b) / 2, (b - a).rotate(90).normalize() * self.space * 0.55
            active = players == state.players
            pygame.draw.line(
                surface,
                (200, 40, 40) if active else (150, 140, 130),
                middle - normal,
                middle + normal,
                max(4, self.space // 7) if active else 2,
            )
        return surface

    # -- drawing --------------------------------------------------------------------------

    def draw(self, surface: pygame.Surface) -> None:
        surface.blit(self._background, self.rect)
        state = self.state
        assert isinstance(state, NumeriState)
        size = self.space * 4 // 5
        moving = (self.motion[2], self.motion[3]) if self.motion else None
        for seat in range(state.players):
            for pawn in PAWNS:
                if (seat, pawn) == moving:
                    continue
                rect = self.pawn_rect(seat, pawn)
                self._pawn(surface, seat, pawn, rect.center, min(size, rect.width))
        if self.motion:
            tween, path, seat, pawn = self.motion
            x, y = along(path, tween.t, hop=self.space * 0.45)
            self._pawn(surface, seat, pawn, (round(x), round(y)), size)
        self._draw_marks(surface, state)
        self._draw_die(surface, state)

    def _pawn(
        self, surface: pygame.Surface, seat: int, pawn: int, centre: tuple[int, int], size: int
    ) -> None:
        token = sprite("pawn", size, self.palette.seats[seat])
        surface.blit(token, token.get_rect(center=centre))
        label = theme.text(str(pawn), max(8, size // 2), (20, 20, 20), True)
        surface.blit(label, label.get_rect(center=centre))

    def _draw_marks(self, surface: pygame.Surface, state: NumeriState) -> None:
        if self.play.locked or state.stage != CHOOSE or state.to_move < 0:
            return
        ring = max(2, self.space // 14)
        for pawn in self._movable(state):
            colour = self.palette.focus if pawn == self.first else self.palette.legal
            pygame.draw.rect(
                surface,
                colour,
                self.pawn_rect(state.side, pawn),
                ring,
                border_radius=self.space // 5,
            )

    def _movable(self, state: NumeriState) -> set[int]:
        pawns = set()
        for action in state.legal_actions():
            first, second = divmod(action, 10) if action > 9 else (action, None)
            if self.first is None:
                pawns.add(first)
            elif first == self.first and second is not None:
                pawns.add(second)
        return pawns

    def _draw_die(self, surface: pygame.Surface, state: NumeriState) -> None:
        size = min(self.tray.height // 2, self.tray.width // 5)
        face = state.die if state.stage == CHOOSE else self.play.last_die
        if self.tumble and not self.tumble.done:
            face = 1 + int(self.tumble.elapsed * 20) % 6
        if face:
            die = sprite(DIE_SPRITES[face], size)
            surface.blit(die, die.get_rect(bottomright=self.tray.bottomright))

    # -- input ----------------------------------------------------------------------------

    def rolls_dice(self, state: State) -> bool:
        return isinstance(state, NumeriState) and state.stage == ROLL

    def targets(self) -> list[Target]:
        state = self.state
        assert isinstance(state, NumeriState)
        return [
            Target(self.pawn_rect(state.side, p), lambda p=p: self.tap_pawn(p), name=f"pawn {p}")
            for p in PAWNS
        ]

    def controls(self) -> list[Control]:
        state = self.state
        controls = [Control("roll", lambda: _("Roll"), self.play.roll, self.play.can_roll)]
        if isinstance(state, NumeriState) and state.stage == CHOOSE:
            for action in state.legal_actions():
                if action > 9:
                    a, b = divmod(action, 10)
                    controls.append(
                        Control(
                            f"split {a}+{b}",
                            lambda a=a, b=b: _("{first} then {second}").format(first=a, second=b),
                            lambda action=action: self.submit(action),
                            lambda: not self.play.locked,
                        )
                    )
        return controls

    def tap_pawn(self, pawn: int) -> None:
        state = self.state
        if self.play.locked or not isinstance(state, NumeriState) or state.stage != CHOOSE:
            self.play.gentle_cue(self.pawn_rect(state.side, pawn))
            return
        legal = state.legal_actions()
        if self.first is not None and 10 * self.first + pawn in legal:
            self._play(10 * self.first + pawn)
        elif pawn in legal and self.first is None:
            self._play(pawn)
        elif any(a > 9 and a // 10 == pawn for a in legal) and self.first != pawn:
            self.first = pawn
        else:
            self.first = None
            self.play.gentle_cue(self.pawn_rect(state.side, pawn))

    def _play(self, action: int) -> None:
        self.first = None
        self.submit(action)

    def clear_selection(self) -> None:
        self.first = None

    # -- animation ------------------------------------------------------------------------

    def played(self, before: State, action: int, after: State) -> None:
        assert isinstance(before, NumeriState) and isinstance(after, NumeriState)
        if before.stage == ROLL:
            self.tumble = Tween(0.6)
            self.tweens.append(self.tumble)
            self.play.app.sound.play("roll")
            return
        if before.stage != CHOOSE:
            return
        seat = before.side
        pawn = action % 10
        start, end = before.pawns[seat][pawn - 1], after.pawns[seat][pawn - 1]
        if end == start:  # the second pawn of a split that ended the game
            pawn = action // 10
            start, end = before.pawns[seat][pawn - 1], after.pawns[seat][pawn - 1]
        origin = self.home_rect(seat, pawn).center if start == OFF else self.space_center(start)
        path = [tuple(map(float, origin))]
        path += [tuple(map(float, self.space_center(s))) for s in range(max(0, start + 1), end + 1)]
        tween = Tween(min(1.2, 0.12 * len(path)))
        self.motion = (tween, path, seat, pawn)
        self.tweens.append(tween)
        self.play.app.sound.play("move")

    def update(self, dt: float) -> None:
        super().update(dt)
        if self.motion and self.motion[0].done:
            self.motion = None
