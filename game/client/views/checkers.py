"""The checkerboard: Dama, Mangia la dama and Lupo e pecore.

A move is made by tapping the piece, then its landing squares in turn; for a capture the
final square alone is enough when no other capture of that piece ends there.  Pieces glide
along their path, hop over what they capture, and the captured pieces fade away.
"""

from __future__ import annotations

import pygame

from game.client import theme
from game.client.anim import Tween, along
from game.client.sprites import sprite
from game.client.views.base import BoardView
from game.client.widgets import Target
from game.rules import State
from game.rules.checkerboard import SQUARES, coords, decode_path, squares_of
from game.rules.dama import DamaState
from game.rules.lupo import PLACE, LupoState

LIGHT, DARK = (233, 214, 176), (118, 84, 58)
FRAME = (70, 44, 28)


class CheckersView(BoardView):
    def __init__(self, play) -> None:
        super().__init__(play)
        self.path: list[int] = []  # squares tapped so far for the move being made
        self.motion: tuple[Tween, list[tuple[float, float]], str, int, list] | None = None

    # -- geometry -------------------------------------------------------------------------

    def layout(self, board: pygame.Rect, tray: pygame.Rect) -> None:
        side = min(board.width, board.height)
        self.cell = side // 9
        self.rect = pygame.Rect(0, 0, self.cell * 8, self.cell * 8)
        self.rect.center = board.center
        self.tray = tray
        self._background = self._draw_background()

    def square_rect(self, square: int) -> pygame.Rect:
        col, row = coords(square)
        return pygame.Rect(
            self.rect.x + col * self.cell, self.rect.y + (7 - row) * self.cell, self.cell, self.cell
        )

    def square_center(self, square: int) -> tuple[int, int]:
        return self.square_rect(square).center

    def _draw_background(self) -> pygame.Surface:
        border = self.cell // 3
        surface = pygame.Surface((self.rect.width + 2 * border, self.rect.height + 2 * border))
        surface.fill(FRAME)
        numbers = theme.font(max(8, self.cell // 6))
        for row in range(8):
            for col in range(8):
                colour = DARK if (row + col) % 2 == 0 else LIGHT
                cell = pygame.Rect(
                    border + col * self.cell, border + (7 - row) * self.cell, self.cell, self.cell
                )
                pygame.draw.rect(surface, colour, cell)
        for square in range(SQUARES):
            cell = self.square_rect(square).move(border - self.rect.x, border - self.rect.y)
            label = numbers.render(str(square + 1), True, (200, 170, 130))
            surface.blit(label, (cell.x + 3, cell.y + 2))
        return surface

    # -- drawing --------------------------------------------------------------------------

    def _pieces(self, state: State) -> dict[int, str]:
        if isinstance(state, LupoState):
            pieces = dict.fromkeys(squares_of(state.sheep), "sheep")
            if state.wolf >= 0:
                pieces[state.wolf] = "wolf"
            return pieces
        assert isinstance(state, DamaState)
        pieces = {}
        for side, colour in enumerate(("white", "black")):
            pieces |= dict.fromkeys(squares_of(state.men[side]), f"man_{colour}")
            pieces |= dict.fromkeys(squares_of(state.kings[side]), f"king_{colour}")
        return pieces

    def draw(self, surface: pygame.Surface) -> None:
        border = self.cell // 3
        surface.blit(self._background, (self.rect.x - border, self.rect.y - border))
        state = self.state
        pieces = self._pieces(state)
        size = round(self.cell * 0.9)
        hidden = self.motion[3] if self.motion else None
        for square, name in pieces.items():
            if square != hidden:
                surface.blit(
                    sprite(name, size),
                    sprite(name, size).get_rect(center=self.square_center(square)),
                )
        self._draw_marks(surface, state)
        if self.motion:
            tween, points, name, _, fading = self.motion
            alpha = round(255 * (1 - tween.t))
            for square, gone in fading:
                ghost = sprite(gone, size).copy()
                ghost.set_alpha(alpha)
                surface.blit(ghost, ghost.get_rect(center=self.square_center(square)))
            x, y = along(points, tween.eased(), hop=self.cell * 0.35 if fading else 0)
            piece = sprite(name, size)
            surface.blit(piece, piece.get_rect(center=(round(x), round(y))))

    def _draw_marks(self, surface: pygame.Surface, state: State) -> None:
        if self.play.locked or state.is_terminal() or state.is_chance():
            return
        ring = max(2, self.cell // 14)
        if self.path:
            pygame.draw.rect(surface, self.palette.focus, self.square_rect(self.path[-1]), ring)
        for square in self._hints():
            pygame.draw.circle(
                surface, self.palette.legal, self.square_center(square), self.cell // 7
            )
        if isinstance(state, DamaState) and state.huff:
            for square in squares_of(state.huff):
                pygame.draw.circle(
                    surface,
                    self.palette.warning,
                    self.square_center(square),
                    self.cell * 9 // 20,
                    ring,
                )

    def _hints(self) -> set[int]:
        """Where a tap can go next: landing squares of the move begun, else pieces to move."""
        state = self.state
        if isinstance(state, LupoState) and state.stage == PLACE:
            return set(state.legal_actions())
        moves = self._moves()
        if not self.path:
            return {path[0] for path, _ in moves}
        depth = len(self.path)
        return {path[depth] for path, _ in moves if path[:depth] == self.path}

    def _moves(self) -> list[tuple[list[int], int]]:
        return [(decode_path(a)[0], a) for a in self.state.legal_actions() if a >= SQUARES]

    # -- input ----------------------------------------------------------------------------

    def targets(self) -> list[Target]:
        return [
            Target(self.square_rect(s), lambda s=s: self.tap(s), name=f"square {s + 1}")
            for s in range(SQUARES)
        ]

    def tap(self, square: int) -> None:
        state = self.state
        if self.play.locked or state.to_move < 0:
            self.play.gentle_cue(self.square_rect(square))
            return
        if isinstance(state, LupoState) and state.stage == PLACE:
            self._play_or_cue(square, square in state.legal_actions())
            return
        if isinstance(state, DamaState) and state.huff >> square & 1 and not self.path:
            self.submit(square)  # huffing: the piece that failed to capture goes
            return
        moves = self._moves()
        starts = {path[0] for path, _ in moves}
        if not self.path or square in starts:
            if square in starts and self.path != [square]:
                self.path = [square]
            else:
                self.path = []
                if square not in starts:
                    self.play.gentle_cue(self.square_rect(square))
            return
        depth = len(self.path)
        going = [(path, a) for path, a in moves if path[:depth] == self.path]
        onward = [(path, a) for path, a in going if path[depth] == square]
        complete = [a for path, a in onward if len(path) == depth + 1]
        if complete and len(onward) == 1:
            self._play(complete[0])
        elif onward:
            self.path.append(square)
        else:
            ending = [a for path, a in going if path[-1] == square]
            if len(ending) == 1:
                self._play(ending[0])
            else:
                self.play.gentle_cue(self.square_rect(square))

    def _play_or_cue(self, action: int, legal: bool) -> None:
        if legal:
            self._play(action)
        else:
            self.play.gentle_cue(self.square_rect(action))

    def _play(self, action: int) -> None:
        self.path = []
        self.submit(action)

    def clear_selection(self) -> None:
        self.path = []

    # -- animation ------------------------------------------------------------------------

    def played(self, before: State, action: int, after: State) -> None:
        self.path = []
        if action < SQUARES or before.is_chance():
            return  # a placement, a lot or a huff: no motion
        path, capture = decode_path(action)
        pieces_before, pieces_after = self._pieces(before), self._pieces(after)
        points = [tuple(map(float, self.square_center(s))) for s in path]
        fading = [
            (s, name) for s, name in pieces_before.items() if s not in pieces_after and s != path[0]
        ]
        tween = Tween(0.18 * (len(path) - 1) + 0.1)
        self.tweens.append(tween)
        self.motion = (
            tween,
            points,
            pieces_after.get(path[-1], pieces_before[path[0]]),
            path[-1],
            fading,
        )
        self.play.app.sound.play("capture" if capture else "move")

    def update(self, dt: float) -> None:
        super().update(dt)
        if self.motion and self.motion[0].done:
            self.motion = None
