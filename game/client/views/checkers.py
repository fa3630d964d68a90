"""The checkerboard: Dama, Mangia la dama and Lupo e pecore.

A move is made by tapping the piece, then its landing squares in turn; for a capture the
final square alone is enough when no other capture of that piece ends there.  Pieces glide
along their path, hop over what they capture, and the captured pieces fade away.  The pieces
that can move are ringed (around the piece, so a face stays visible); the last turn's path
stays tinted, and what it took stays as a ghost, until the next turn.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable
from functools import partial

import pygame

import game.client.views.marks as marks
from game.client import theme
from game.client.anim import Tween, along
from game.client.redraw import SQUARE_CORNER, Element, around
from game.client.sprites import sprite
from game.client.views.base import BoardView, Step, Table, floats
from game.client.views.marks import LIGHT_AND_DARK, ghost, tinted_square
from game.client.widgets import Target
from game.i18n import _, ngettext
from game.names import seat_names
from game.rules import State
from game.rules.checkerboard import SQUARES, coords, decode_path, squares_of
from game.rules.dama import DamaState
from game.rules.lupo import PLACE, LupoState

PIECE = 0.84
"""A piece's diameter in squares: the corners, where the numbers are, stay clear."""
LEG_BOXES = 4
"""The boxes a capture's line is drawn again in, a leg (see ``CheckersView._leg_boxes``)."""


class CheckersView(BoardView[DamaState | LupoState]):
    uses_tray = False  # no dice, nothing in hand

    def of_game(self, state: State) -> DamaState | LupoState | None:
        return state if isinstance(state, DamaState | LupoState) else None

    def __init__(self, play: Table) -> None:
        super().__init__(play)
        self.cell = 1
        self.path: list[int] = []  # squares tapped so far for the move being made
        self.motion: (
            tuple[Tween, list[tuple[float, float]], str, int, list[tuple[int, str]]] | None
        ) = None
        self.trails: tuple[tuple[int, ...], ...] = ()
        """The squares of each move of the last turn, in order (a placement: one square)."""
        self.jumps: tuple[tuple[int, ...], ...] = ()
        """The trails that captured: a line runs along them, over what they took."""
        self.ghosts: tuple[tuple[int, str], ...] = ()
        """The pieces the last turn captured or huffed: their squares and sprites."""
        self._background = pygame.Surface((1, 1))
        self._numbers: list[tuple[pygame.Surface, tuple[int, int]]] = []

    # -- geometry -------------------------------------------------------------------------

    def layout(self, board: pygame.Rect, tray: pygame.Rect) -> None:
        side = min(board.width, board.height)
        self.cell = max(1, side // 9)
        self.rect = pygame.Rect(0, 0, self.cell * 8, self.cell * 8)
        self.rect.center = board.center
        self.tray = tray
        self._background = self._draw_background()
        self._numbers = self._number_labels()

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
        boards = self.boards
        surface.fill(boards.dama_frame)
        for row in range(8):
            for col in range(8):
                colour = boards.dama_dark if (row + col) % 2 == 0 else boards.dama_light
                cell = pygame.Rect(
                    border + col * self.cell, border + (7 - row) * self.cell, self.cell, self.cell
                )
                pygame.draw.rect(surface, colour, cell)
        return surface

    def _number_labels(self) -> list[tuple[pygame.Surface, tuple[int, int]]]:
        """Square numbers 1–32, as the move list writes them (``22-18``), for each square's
        top-left corner, which a piece leaves clear: drawn over everything, outlined, so no
        piece, ring or tint makes them unreadable."""
        font = theme.font(max(9, self.cell * 2 // 11), bold=True)
        inset = max(1, self.cell // 30)
        boards = self.boards
        labels = []
        for square in range(SQUARES):
            text = str(square + 1)
            face = font.render(text, True, boards.dama_number)
            label = pygame.Surface((face.get_width() + 2, face.get_height() + 2), pygame.SRCALPHA)
            shadow = font.render(text, True, boards.dama_frame)
            for dx, dy in ((0, 1), (1, 0), (2, 1), (1, 2)):
                label.blit(shadow, (dx, dy))
            label.blit(face, (1, 1))
            corner = self.square_rect(square).topleft
            labels.append((label, (corner[0] + inset - 1, corner[1] - 1)))
        return labels

    # -- drawing --------------------------------------------------------------------------

    def _pieces(self, state: State) -> dict[int, str]:
        if isinstance(state, LupoState):
            pieces = dict.fromkeys(squares_of(state.sheep), "sheep")
            if state.wolf >= 0:
                pieces[state.wolf] = "wolf"
            return pieces
        if not isinstance(state, DamaState):
            return {}
        pieces = {}
        for side, colour in enumerate(("white", "black")):
            pieces |= dict.fromkeys(squares_of(state.men[side]), f"man_{colour}")
            pieces |= dict.fromkeys(squares_of(state.kings[side]), f"king_{colour}")
        return pieces

    def draw_board(self, surface: pygame.Surface) -> None:
        border = self.cell // 3
        surface.blit(self._background, (self.rect.x - border, self.rect.y - border))

    def draw_pieces(self, surface: pygame.Surface) -> None:
        state = self.state
        pieces = self._pieces(state)
        size = round(self.cell * PIECE)
        self._draw_last_turn(surface, size)
        hidden = self.motion[3] if self.motion else None
        clip = surface.get_clip()  # a part of a frame: only the pieces inside it
        for square, name in pieces.items():
            place = self.square_rect(square)  # a piece stays inside its square
            if square != hidden and clip.colliderect(place):
                piece = sprite(name, size)
                surface.blit(piece, piece.get_rect(center=place.center))
        self._draw_marks(surface, state)
        self.draw_focus_halo(surface)
        if self.motion:
            tween, points, name, _, fading = self.motion
            alpha = round(255 * (1 - tween.t)) // 8 * 8  # a few steps: made once, not per pass
            for square, gone in fading:
                fade = ghost(gone, size, alpha)
                surface.blit(fade, fade.get_rect(center=self.square_center(square)))
            x, y = along(points, tween.eased(), hop=self.cell * 0.35 if fading else 0)
            piece = sprite(name, size)
            surface.blit(piece, piece.get_rect(center=(round(x), round(y))))
        surface.blits(self._numbers, doreturn=False)

    def _draw_last_turn(self, surface: pygame.Surface, size: int) -> None:
        """Every square of the last turn's moves tinted, a line along each capture's jumps,
        and the ghost of each piece taken."""
        marker = self.marker(self.palette.last_move, self.rect)
        tint = tinted_square(marker.colour, self.cell, max(2, self.cell // 20), marker.halo)
        for square in self._last_squares():
            surface.blit(tint, self.square_rect(square))
        for jump in self.jumps:
            centres = [self.square_center(s) for s in jump]
            marks.path(surface, marker, centres, max(2, self.cell // 16))
        for square, name in self.ghosts:
            faint = ghost(name, size)
            surface.blit(faint, faint.get_rect(center=self.square_center(square)))

    def _marks(self, state: State) -> dict[int, tuple[str, ...]]:
        """What marks each square gets now: the end of the move begun (``end``), a piece to
        move or a square to land on (``ring``, ``dot``), a man that must be huffed."""
        if self.play.locked or state.is_terminal() or state.is_chance():
            return {}
        marks: dict[int, tuple[str, ...]] = {}
        if self.path:
            marks[self.path[-1]] = ("end",)
        pieces = self._pieces(state)
        for square in self._hints():
            marks[square] = (*marks.get(square, ()), "ring" if square in pieces else "dot")
        if isinstance(state, DamaState):
            for square in squares_of(state.huff):
                marks[square] = (*marks.get(square, ()), "huff")
        return marks

    def _draw_marks(self, surface: pygame.Surface, state: State) -> None:
        ring = max(2, self.cell // 14)
        around = round(self.cell * 0.46)  # just outside a piece: its face stays clear
        palette = self.palette
        colours = {"end": palette.focus, "dot": palette.legal, "ring": palette.legal,
                   "huff": palette.warning}  # fmt: skip
        for square, kinds in self._marks(state).items():
            centre = self.square_center(square)
            for mark in kinds:
                marker = self.marker(colours[mark], self.rect)
                if mark == "end":
                    marks.frame(surface, marker, self.square_rect(square), ring, SQUARE_CORNER)
                elif mark == "dot":
                    marks.dot(surface, marker, centre, self.cell // 7)
                else:
                    marks.ring_of(surface, marker, centre, around, ring)

    def grounds(self, where: pygame.Rect) -> tuple[theme.Colour, ...]:
        """Both colours of squares: a mark on one meets the other at its edge."""
        return self.boards.dama_light, self.boards.dama_dark

    def elements(self, version: Hashable) -> list[Element]:
        """Each square and what is on it (a piece, the last turn's tint or ghost, a mark),
        each capture's line, and the tray."""
        state = self.state
        pieces = self._pieces(state)
        hidden = self.motion[3] if self.motion else None
        last, ghosts, marks = self._last_squares(), dict(self.ghosts), self._marks(state)
        squares: list[Element] = [
            (f"square {s}", self.square_rect(s),
             (pieces.get(s) if s != hidden else None, s in last, ghosts.get(s), marks.get(s)))
            for s in range(SQUARES)
        ]  # fmt: skip
        width = self.cell // 8
        lines: list[Element] = [  # a box round a whole capture is most of the board
            (f"jump {a}-{b} {k}", box, jump)
            for jump in self.jumps
            for a, b in itertools.pairwise(jump)
            for k, box in enumerate(self._leg_boxes(a, b, width))
        ]
        return squares + lines  # nothing in the tray

    def _leg_boxes(self, a: int, b: int, reach: int) -> list[pygame.Rect]:
        """The boxes round a capture's leg from ``a`` to ``b``, a quarter of it each: its
        line runs diagonally, so four small boxes hold it in a third of the pixels of one
        (each box a part drawn again when the line comes or goes)."""
        (ax, ay), (bx, by) = self.square_center(a), self.square_center(b)
        points = [(ax + (bx - ax) * k / LEG_BOXES, ay + (by - ay) * k / LEG_BOXES)
                  for k in range(LEG_BOXES + 1)]  # fmt: skip
        return [around(pair, reach) for pair in itertools.pairwise(points)]

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

    # -- the last turn, the prompt and the counts -----------------------------------------

    def show_last_turn(self, steps: tuple[Step, ...]) -> None:
        super().show_last_turn(steps)
        trails: list[tuple[int, ...]] = []
        jumps: list[tuple[int, ...]] = []
        ghosts: list[tuple[int, str]] = []
        for step in steps:
            before, action = step.before, step.action
            if not isinstance(before, DamaState | LupoState) or before.is_chance():
                continue  # the lot for the wolf moves nothing
            if action not in before.legal_actions():
                continue  # a resignation or an agreed draw neither
            if action < SQUARES:
                if isinstance(before, LupoState):
                    trails.append((action,))  # the wolf placed
                else:
                    ghosts.append((action, self._pieces(before)[action]))  # huffed
            else:
                path, capture = decode_path(action)
                trails.append(tuple(path))
                if capture:
                    jumps.append(tuple(path))
                    ghosts += self._taken(before, step.after, path)
        self.trails, self.jumps, self.ghosts = tuple(trails), tuple(jumps), tuple(ghosts)

    def _taken(self, before: State, after: State, path: list[int]) -> list[tuple[int, str]]:
        """The pieces a move took: there before it, gone after it, and not the mover."""
        pieces_after = self._pieces(after)
        gone = self._pieces(before).items()
        return [(s, name) for s, name in gone if s not in pieces_after and s != path[0]]

    def _last_squares(self) -> set[int]:
        """The squares of the last turn's moves (every landing of a capture) and placement,
        and the squares of what it took."""
        trails = {square for trail in self.trails for square in trail}
        return trails | {square for square, _name in self.ghosts}

    def highlighted(self) -> frozenset[str]:
        return frozenset(f"square {s + 1}" for s in self._last_squares())

    def prompt(self) -> str:
        state = self.state
        if state.to_move < 0:
            return ""
        if isinstance(state, LupoState):
            if state.stage == PLACE:
                return _("Place the wolf")
            return _("Move a sheep") if state.sheep_turn else _("Move the wolf")
        if not isinstance(state, DamaState):
            return ""
        if len(self.path) > 1:
            return _("Continue the capture")
        if state.huff:
            opponent = seat_names(state)[1 - state.side]
            return _("You may huff: remove {side}'s piece that failed to capture, or move").format(
                side=opponent
            )
        captures = any(a >= SQUARES and a & 1 for a in state.legal_actions())
        if captures and not state.huffing:
            return _("You must capture")
        return _("Move a piece")

    def seat_colour(self, seat: int) -> tuple[int, int, int]:
        """White and Black; the sheep white and the wolf dark once the lot has chosen."""
        state = self.state
        if isinstance(state, LupoState):
            if state.wolf_seat is None:
                return super().seat_colour(seat)
            return LIGHT_AND_DARK[int(seat == state.wolf_seat)]
        return LIGHT_AND_DARK[seat % 2]

    def hint_areas(self, state: State, action: int) -> list[pygame.Rect]:
        if action < SQUARES:  # the wolf placed
            return [self.square_rect(action)]
        path, _capture = decode_path(action)
        return [self.square_rect(square) for square in path]

    def hint_path(self, state: State, action: int) -> list[tuple[int, int]]:
        if action < SQUARES:
            return []
        return [self.square_center(square) for square in decode_path(action)[0]]

    def counts(self) -> list[tuple[int, str]]:
        """Pieces left per side in Dama and Mangia; Lupo's never change, so it has none."""
        state = self.state
        if not isinstance(state, DamaState):
            return []
        names = seat_names(state)
        lines = []
        for side in (0, 1):
            kings = state.kings[side].bit_count()
            total = state.men[side].bit_count() + kings
            pieces = ngettext("{n} piece", "{n} pieces", total).format(n=total)
            if kings:
                crowned = ngettext("{n} king", "{n} kings", kings).format(n=kings)
                pieces = f"{pieces} ({crowned})"
            lines.append((side, _("{side}: {pieces}").format(side=names[side], pieces=pieces)))
        return lines

    # -- input ----------------------------------------------------------------------------

    def targets(self) -> list[Target]:
        return [
            Target(self.square_rect(s), partial(self.tap, s), name=f"square {s + 1}")
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
        points = [floats(self.square_center(s)) for s in path]
        tween = Tween(0.18 * (len(path) - 1) + 0.1)
        self.tweens.append(tween)
        self.motion = (
            tween,
            points,
            pieces_after.get(path[-1], pieces_before[path[0]]),
            path[-1],
            self._taken(before, after, path),
        )
        for square, name in self.motion[4]:  # each piece taken bursts where it stood
            ink = LIGHT_AND_DARK[0] if "white" in name or name == "sheep" else LIGHT_AND_DARK[1]
            self.sparks(floats(self.square_center(square)), [ink, self.palette.accent])
        self.play.app.sound.play("capture" if capture else "move")

    def moving_areas(self) -> list[pygame.Rect]:
        """Where the moving piece is now, and the squares of the pieces it takes, fading
        (where it was last frame, the match screen remembers)."""
        if not self.motion or self.motion[0].done:
            return []
        tween, points, _, _, fading = self.motion
        at = along(points, tween.eased(), hop=self.cell * 0.35 if fading else 0)
        return [around([at], self.cell // 2),
                *(self.square_rect(square) for square, _ in fading)]  # fmt: skip

    def update(self, dt: float) -> None:
        super().update(dt)
        if self.motion and self.motion[0].done:
            self.motion = None
