"""The Numeri track: 37 spaces winding across the board, the barrier, and the pawns.

Roll the die, then tap the pawn to move (or pick a split from the panel, or tap its two
pawns in order).  A pawn hops from space to space over the ones it passes.

Every space keeps its value readable: under a pawn it moves to a badge in the space's corner.
Only the barrier for this number of players is drawn (the others do not exist in this game);
red while closed, in the colour of legal moves once a pawn has passed it and rolls may be
split.  The last turn's moves stay marked — the path each pawn took, the space it left, the
space it reached — and the die shows the last roll, dimmed once it is played, until the next.
"""

from __future__ import annotations

from collections.abc import Hashable
from functools import partial

import pygame

import game.client.views.marks as marks
from game.ai.odds import extra_roll_moves, roll_odds
from game.client import theme
from game.client.anim import Tween, along
from game.client.redraw import Element, around
from game.client.sprites import sprite
from game.client.views.base import BoardView, Control, Step, Table, floats
from game.client.views.marks import DIM_ALPHA, ghost
from game.client.widgets import Target
from game.i18n import _, ngettext
from game.names import percent, seat_names
from game.rules import State
from game.rules.numeri import CHOOSE, OFF, PAWNS, ROLL, STAR, NumeriState

ROW = 10
DIE_SPRITES = {1: "die_1", 2: "die_2", 3: "die_3", 4: "die_4", 5: "die_5", STAR: "die_star"}
PAWN_ON_TRACK = 0.7
"""A pawn's size as a share of its space, leaving a corner for the space's value."""


class TrackView(BoardView[NumeriState]):
    def of_game(self, state: State) -> NumeriState | None:
        return state if isinstance(state, NumeriState) else None

    def __init__(self, play: Table) -> None:
        super().__init__(play)
        self.first: int | None = None  # the first pawn of a split being tapped
        self.motion: tuple[Tween, list[tuple[float, float]], int, int] | None = None
        self.tumble: Tween | None = None
        self.moves: tuple[tuple[int, int, int, int], ...] = ()
        """(seat, pawn, from, to) of each pawn the last turn moved (from is OFF on entry)."""

    # -- geometry -------------------------------------------------------------------------

    def layout(self, board: pygame.Rect, tray: pygame.Rect) -> None:
        """The track in the board, the die in the tray; the pawns waiting to enter in the
        tray where a row a seat gives each place :data:`theme.TOUCH` or more, else under
        the track (a short or narrow tray: a 1024x600 panel, four players)."""
        rows = (self.state.track.length + ROW - 1) // ROW
        # Rows of spaces with a space's height between them, and half a space to spare.
        space = min(board.width // (ROW + 1), board.height * 2 // (4 * rows - 1))
        self.tray = tray
        players = max(2, self.state.players)
        # The die: big, but leaving a wide tray's room to the waiting pawns' rows.
        die = min(tray.height * 3 // 5, tray.width // 4, max(2 * theme.TOUCH, tray.width // 6))
        self.die_rect = pygame.Rect(0, 0, die, die)
        self.die_rect.bottomright = (tray.right - die // 6, tray.bottom - die // 10)
        home_width = self.die_rect.x - tray.x - die // 3
        self.home = max(6, min(tray.height // players, home_width * 10 // 75))
        """The size of a waiting pawn's place; each seat's row is its name and five places."""
        self.homes: pygame.Rect | None = None
        """Where the waiting pawns are when not in the tray: under the track."""
        self._home_rows: list[tuple[int, int]] = [(tray.x, tray.y + n * self.home)
                                                  for n in range(players)]  # fmt: skip
        home = theme.touch(0.6 * space)
        block, gap = round(7.5 * home), home // 2
        per_line = max(1, min(players, (board.width + gap) // (block + gap)))
        lines = -(-players // per_line)
        strip = lines * (home + home // 8) - home // 8
        under = min(space, (board.height - strip - gap) * 2 // (4 * rows - 1))
        # under the track if the tray's places are too small, and the spaces stay big enough
        if self.home < theme.TOUCH and (under == space or under >= theme.TOUCH):
            self.home = home
            pitch = home + home // 8
            space = under
            track = space * (2 * rows - 1)
            top = board.centery - (track + space // 2 + strip) // 2
            self.homes = pygame.Rect(board.x, top + track + space // 2, board.width, strip)
            self._home_rows = []
            for seat in range(players):
                line, col = divmod(seat, per_line)
                count = min(per_line, players - line * per_line)
                left = board.centerx - (count * block + (count - 1) * gap) // 2
                self._home_rows.append((left + col * (block + gap), self.homes.y + line * pitch))
        self.space = space
        self.rect = pygame.Rect(0, 0, space * ROW, space * (2 * rows - 1))
        self.rect.center = board.center
        if self.homes is not None:
            self.rect.top = self.homes.y - space // 2 - self.rect.height
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
        size = self.home
        x, y = self._home_rows[seat]
        return pygame.Rect(x + round(2.5 * size) + (pawn - 1) * size, y, size, size)

    def pawn_rect(self, seat: int, pawn: int) -> pygame.Rect:
        state = self.state
        assert isinstance(state, NumeriState)
        at = state.pawns[seat][pawn - 1]
        return self.home_rect(seat, pawn) if at == OFF else self.space_rect(at)

    def _tap_rect(self, seat: int, pawn: int) -> pygame.Rect:
        """Where a tap takes pawn ``pawn``: its place, on the track as wide as the space
        where that reaches :data:`theme.TOUCH` (a space's place is a tenth smaller)."""
        rect = self.pawn_rect(seat, pawn)
        on_track = self.state.pawns[seat][pawn - 1] != OFF
        if on_track and rect.width < theme.TOUCH and rect.width < self.space:
            side = min(self.space, theme.TOUCH)
            rect = rect.inflate(side - rect.width, side - rect.height)
        return rect

    def _draw_background(self) -> tuple[pygame.Surface, pygame.Surface]:
        """The links between the spaces, and the spaces over them: two layers, so that the
        last turn's path can colour the links it took."""
        state = self.state
        assert isinstance(state, NumeriState)
        links = pygame.Surface(self.rect.size, pygame.SRCALPHA)
        spaces = pygame.Surface(self.rect.size, pygame.SRCALPHA)
        offset = pygame.Vector2(self.rect.topleft)
        values = state.track.values
        for space in range(1, len(values)):
            pygame.draw.line(
                links,
                self.boards.track_path,
                pygame.Vector2(self.space_center(space - 1)) - offset,
                pygame.Vector2(self.space_center(space)) - offset,
                max(3, self.space // 8),
            )
        digits = theme.font(self.space // 3, bold=True)
        for space, value in enumerate(values):
            box = self.space_rect(space).move(-self.rect.x, -self.rect.y)
            pygame.draw.rect(
                spaces, self._space_colour(space, values), box, border_radius=self.space // 6
            )
            pygame.draw.rect(spaces, self.boards.track_edge, box, 2, border_radius=self.space // 6)
            label = digits.render(_value_text(value), True, self._digit_colour(space))
            spaces.blit(label, label.get_rect(center=box.center))
        return links, spaces

    def _space_colour(self, space: int, values: tuple[int, ...]) -> tuple[int, int, int]:
        boards = self.boards
        if space == 0:
            return boards.track_start
        return boards.track_end if space >= len(values) - 3 else boards.track_plain

    def _digit_colour(self, space: int) -> tuple[int, int, int]:
        return self.boards.track_start_digits if space == 0 else self.boards.track_digits

    # -- drawing --------------------------------------------------------------------------

    def draw_board(self, surface: pygame.Surface) -> None:
        links, spaces = self._background
        surface.blit(links, self.rect)
        surface.blit(spaces, self.rect)

    def draw_pieces(self, surface: pygame.Surface) -> None:
        self._draw_paths(surface)
        state = self.state
        if not isinstance(state, NumeriState):
            return
        self._draw_barrier(surface, state)
        self._draw_ends(surface)
        self._draw_homes(surface, state)
        size = round(self.space * PAWN_ON_TRACK)
        moving = (self.motion[2], self.motion[3]) if self.motion else None
        for seat in range(state.players):
            for pawn, at in zip(PAWNS, state.pawns[seat], strict=True):
                if (seat, pawn) == moving:
                    continue
                if at == OFF:
                    rect = self.home_rect(seat, pawn)
                    self._pawn(surface, seat, pawn, rect.center, rect.width * 9 // 10)
                else:
                    self._pawn_on_space(surface, seat, pawn, at, size)
        if self.motion:
            tween, path, seat, pawn = self.motion
            x, y = along(path, tween.t, hop=self.space * 0.45)
            self._pawn(surface, seat, pawn, (round(x), round(y)), size)
        self._draw_choices(surface, state)
        self._draw_die(surface, state)
        self.draw_focus_halo(surface)

    def _draw_barrier(self, surface: pygame.Surface, state: NumeriState) -> None:
        """The barrier for this number of players: red while closed, open once passed."""
        after = state.track.barrier(state.players)
        a, b = (
            pygame.Vector2(self.space_center(after)),
            pygame.Vector2(self.space_center(after + 1)),
        )
        middle, normal = (a + b) / 2, (b - a).rotate(90).normalize() * self.space * 0.55
        colour = self.palette.legal if state.unlocked else self.boards.track_barrier
        pygame.draw.line(surface, colour, middle - normal, middle + normal, max(4, self.space // 7))

    def _pawn_on_space(
        self, surface: pygame.Surface, seat: int, pawn: int, space: int, size: int
    ) -> None:
        """A pawn a little off centre, and the space's value in a badge in the corner."""
        box = self.space_rect(space)
        shift = (box.width - size) // 2 - box.width // 20
        self._pawn(surface, seat, pawn, (box.centerx + shift, box.centery + shift), size)
        value = self.state.track.values[space]
        text = theme.text(_value_text(value), max(9, self.space // 4), self._digit_colour(space),
                          True)  # fmt: skip
        badge = text.get_rect(topleft=(box.x + box.width // 14, box.y + box.height // 20))
        pygame.draw.rect(
            surface,
            self._space_colour(space, self.state.track.values),
            badge.inflate(box.width // 14, 0),
            border_radius=box.width // 10,
        )
        surface.blit(text, badge)

    def _pawn(
        self, surface: pygame.Surface, seat: int, pawn: int, centre: tuple[int, int], size: int
    ) -> None:
        token = sprite("pawn", size, self.seat_colour(seat))
        surface.blit(token, token.get_rect(center=centre))
        label = theme.text(str(pawn), max(8, size // 2), (20, 20, 20), True)
        surface.blit(label, label.get_rect(center=centre))

    def _draw_paths(self, surface: pygame.Surface) -> None:
        """The way each pawn of the last turn went, as if under the spaces: it colours the
        links between the spaces it passed (the spaces it crossed are laid again over it)."""
        width = max(4, self.space // 5)
        spaces = self._background[1]
        between = theme.marker(self.palette.last_move, (self.palette.background,))
        for _seat, _pawn, start, end in self.moves:
            if start != OFF:
                path = [self.space_center(s) for s in range(start, end + 1)]
                marks.path(surface, between, path, width)
                for space in range(start, end + 1):
                    box = self.space_rect(space)
                    surface.blit(spaces, box, box.move(-self.rect.x, -self.rect.y))

    def moving_areas(self) -> list[pygame.Rect]:
        """Where the pawn moving is now (where it was last frame, the match screen
        remembers), and the die while it tumbles."""
        areas = []
        if self.motion and not self.motion[0].done:
            tween, path = self.motion[0], self.motion[1]
            areas.append(around([along(path, tween.t, hop=self.space * 0.45)], self.space * 0.6))
        if self.tumble is not None and not self.tumble.done:
            die = self.die_rect
            areas.append(die.inflate(die.width // 2, die.height // 2))
        return areas

    def elements(self, version: Hashable) -> list[Element]:
        """Each space and what is on it (a pawn, the last turn's ring or frame, a choice),
        the last turn's ways, the barrier, and the tray (the waiting pawns, the die)."""
        state = self.state
        if not isinstance(state, NumeriState):
            return super().elements(version)
        moving = (self.motion[2], self.motion[3]) if self.motion else None
        on: dict[int, tuple[int, int]] = {}
        for seat in range(state.players):
            for pawn, at in zip(PAWNS, state.pawns[seat], strict=True):
                if at != OFF and (seat, pawn) != moving:
                    on[at] = (seat, pawn)
        left = {start for _, _, start, _ in self.moves if start != OFF}
        reached = {end for _, _, _, end in self.moves}
        chosen: dict[int, bool] = {}
        if not self.play.locked and state.stage == CHOOSE and state.to_move >= 0:
            for pawn in self._movable(state):
                at = state.pawns[state.side][pawn - 1]
                if at != OFF:
                    chosen[at] = pawn == self.first
        reach = self.space // 3
        spaces: list[Element] = [
            (f"space {s}", self.space_rect(s).inflate(reach, reach),
             (on.get(s), s in left, s in reached, chosen.get(s)))
            for s in range(state.track.length)
        ]  # fmt: skip
        ways = [self.space_center(s) for _, _, start, end in self.moves if start != OFF
                for s in range(start, end + 1)]  # fmt: skip
        if ways:
            spaces.append(("ways", around(ways, self.space // 2), self.moves))
        after = state.track.barrier(state.players)
        ends = [self.space_center(after), self.space_center(after + 1)]
        spaces.append(("barrier", around(ends, self.space * 0.6), state.unlocked))
        if self.homes is not None:  # the waiting pawns under the track
            spaces.append(("homes", self.homes.inflate(self.home // 2, self.home // 2),
                           (state, self.last_turn, version)))  # fmt: skip
        return spaces + super().elements(version)[1:]  # the tray as by default

    def _draw_ends(self, surface: pygame.Surface) -> None:
        """A thin ring round the space (or waiting place) each pawn of the last turn left, a
        thick frame round the space it reached."""
        colour = self.palette.last_move
        width = max(3, self.space // 10)
        for seat, pawn, start, end in self.moves:
            if start == OFF:
                home = self.home_rect(seat, pawn)
                marker = self.marker(colour, home)
                marks.ring_of(surface, marker, home.center, home.width * 2 // 5, 2)
            else:
                left = self.space_rect(start)
                marks.frame(surface, self.marker(colour, left), left, width // 2, self.space // 6)
            frame = self.space_rect(end).inflate(width * 2, width * 2)
            around = theme.marker(colour, (self.palette.background, self.boards.track_edge))
            marks.frame(surface, around, frame, width, self.space // 5)

    def _draw_homes(self, surface: pygame.Surface, state: NumeriState) -> None:
        """Each seat's row of waiting pawns, led by its name in its colour; the row of the
        seat to play is lit."""
        names = seat_names(state)
        size = self.home
        for seat in range(state.players):
            row = pygame.Rect(*self._home_rows[seat], round(7.5 * size), size)
            if seat == state.side and not state.is_terminal():
                pygame.draw.rect(surface, self.palette.button, row, border_radius=size // 4)
            pygame.draw.circle(
                surface, self.seat_colour(seat), (row.x + size // 3, row.centery), size // 5
            )
            label = theme.fitted(names[seat], theme.small(size * 2 / 5), self.palette.text,
                                 round(1.9 * size), True)  # fmt: skip
            surface.blit(label, label.get_rect(midleft=(row.x + size * 3 // 5, row.centery)))

    def _draw_choices(self, surface: pygame.Surface, state: NumeriState) -> None:
        if self.play.locked or state.stage != CHOOSE or state.to_move < 0:
            return
        ring = max(2, self.space // 14)
        for pawn in self._movable(state):
            colour = self.palette.focus if pawn == self.first else self.palette.legal
            rect = self.pawn_rect(state.side, pawn)
            marks.frame(surface, self.marker(colour, rect), rect, ring, self.space // 5)

    def grounds(self, where: pygame.Rect) -> tuple[theme.Colour, ...]:
        """The colour of the space a marker at ``where`` is on (no one colour stands out
        from the red start, the white spaces and the yellow ends alike); in the tray, where
        the pawns wait, the panel and the lit row of the seat to play."""
        state = self.state
        if not isinstance(state, NumeriState):
            return super().grounds(where)
        values = state.track.values
        under = [self._space_colour(space, values) for space in range(len(values))
                 if self.space_rect(space).colliderect(where)]  # fmt: skip
        return tuple(dict.fromkeys(under)) or (self.palette.panel, self.palette.button)

    def _movable(self, state: NumeriState) -> set[int]:
        pawns = set()
        for action in state.legal_actions():
            first, second = divmod(action, 10) if action > 9 else (action, None)
            if self.first is None:
                pawns.add(first)
            elif first == self.first and second is not None:
                pawns.add(second)
        return pawns

    def shown_die(self, state: NumeriState) -> tuple[int, int, bool]:
        """The face to show, who rolled it, and whether it is still to be played (else the
        last roll of the turn played last)."""
        if state.stage == CHOOSE:
            return state.die, state.side, True
        for step in reversed(self.last_turn):
            before = step.before
            if isinstance(before, NumeriState) and before.stage == ROLL and step.action > 0:
                return step.action, before.side, False
        return 0, -1, False

    def _draw_die(self, surface: pygame.Surface, state: NumeriState) -> None:
        face, roller, live = self.shown_die(state)
        if self.tumble is not None and not self.tumble.done:
            face, live = 1 + int(self.tumble.elapsed * 20) % 6, True
        if not face:
            return
        name, width = DIE_SPRITES[face], self.die_rect.width
        die = sprite(name, width) if live else ghost(name, width, DIM_ALPHA)
        surface.blit(die, self.die_rect)
        caption = _("Rolled by {name}").format(name=seat_names(state)[roller])
        beside_homes = self.tray.x
        if self.homes is None:
            beside_homes += round(7.5 * self.home) + self.home // 4
        room = pygame.Rect(beside_homes, self.tray.y, self.tray.right - beside_homes, 0)
        size = theme.small(self.die_rect.width / 5)
        font = theme.font(size, True)
        lines = [caption]
        if font.size(caption)[0] > room.width:  # in two lines where one would shrink
            wrapped = theme.wrap(caption, font, room.width)
            above = self.die_rect.y - self.tray.y - self.die_rect.height // 12
            if len(wrapped) == 2 and 2 * font.get_linesize() <= above:
                lines = wrapped
        bottom = self.die_rect.y - self.die_rect.height // 12
        for line in reversed(lines):
            words = theme.fitted(line, size, self.palette.text, room.width, True)
            place = words.get_rect(midbottom=(self.die_rect.centerx, bottom))
            place.right = min(place.right, self.tray.right)
            place.left = max(place.left, room.left)
            surface.blit(words, place)
            bottom -= font.get_linesize()
        pygame.draw.rect(
            surface,
            self.seat_colour(roller),
            self.die_rect.inflate(6, 6),
            max(2, self.die_rect.width // 18),
            border_radius=self.die_rect.width // 6,
        )

    # -- input ----------------------------------------------------------------------------

    def tap_size(self) -> int:
        return min(self.space, self.home)

    def targets(self) -> list[Target]:
        """The pawns of the seat to play; before them the spaces, named for the highlights
        (a tap on a space answers with the gentle cue: pawns are what moves)."""
        state = self.state
        assert isinstance(state, NumeriState)
        spaces = [
            Target(self.space_rect(s), lambda: None, lambda: False, name=f"space {s}")
            for s in range(state.track.length)
        ]
        pawns = [
            Target(self._tap_rect(state.side, p), partial(self.tap_pawn, p), name=f"pawn {p}")
            for p in PAWNS
        ]
        return spaces + pawns

    def controls(self) -> list[Control]:
        state = self.state
        controls = [
            Control(
                "roll", lambda: _("Roll"), lambda: self.play.roll(), lambda: self.play.can_roll()
            )
        ]
        if isinstance(state, NumeriState) and state.stage == CHOOSE:
            for action in state.legal_actions():
                if action > 9:
                    a, b = divmod(action, 10)
                    controls.append(
                        Control(
                            f"split {a}+{b}",
                            partial(_split_label, a, b),
                            partial(self.submit, action),
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

    # -- the last turn, the prompt and the counts -----------------------------------------

    def show_last_turn(self, steps: tuple[Step, ...]) -> None:
        super().show_last_turn(steps)
        moves = []
        for step in steps:
            before, after = step.before, step.after
            if not isinstance(before, NumeriState) or before.stage != CHOOSE or step.action < 0:
                continue
            if not isinstance(after, NumeriState):
                continue
            seat = before.side
            for pawn in divmod(step.action, 10) if step.action > 9 else (step.action,):
                start, end = before.pawns[seat][pawn - 1], after.pawns[seat][pawn - 1]
                if start != end:  # the second pawn of a split that ended the game stays
                    moves.append((seat, pawn, start, end))
        self.moves = tuple(moves)

    def highlighted(self) -> frozenset[str]:
        """The spaces the last turn's pawns left and reached."""
        names = set()
        for _seat, _pawn, start, end in self.moves:
            names.add(f"space {end}")
            if start != OFF:
                names.add(f"space {start}")
        return frozenset(names)

    def prompt(self) -> str:
        state = self.state
        if not isinstance(state, NumeriState) or self.play.state.is_terminal():
            return ""
        if state.stage == ROLL:
            return _("No move possible — turn passes") if self.passed() else _("Roll the die")
        if state.stage != CHOOSE:
            return ""
        if self.first is not None:
            return _("Split: choose the second pawn")
        if state.die == STAR:
            return _("Star: move any pawn")
        legal = state.legal_actions()
        if state.die not in legal:
            return _("Split the roll: tap the first pawn")
        if len(legal) > 1:
            return _("Move pawn {n}, or split: tap two pawns").format(n=state.die)
        return _("Move a pawn: tap pawn {n}").format(n=state.die)

    def passed(self) -> bool:
        """Whether the last roll could move nothing (the engine then passes the turn)."""
        if not self.last_turn:
            return False
        last = self.last_turn[-1]
        before, after = last.before, last.after
        return (
            isinstance(before, NumeriState)
            and isinstance(after, NumeriState)
            and before.stage == ROLL
            and after.stage == ROLL
        )

    def hint_areas(self, state: State, action: int) -> list[pygame.Rect]:
        if not isinstance(state, NumeriState) or action <= 0:
            return []
        pawns = divmod(action, 10) if action > 9 else (action,)  # a split moves two
        return [self.pawn_rect(state.side, pawn) for pawn in pawns]

    def counts(self) -> list[tuple[int, str]]:
        """Each seat's score as the pawns stand."""
        state = self.state
        if not isinstance(state, NumeriState):
            return []
        names = seat_names(state)
        lines = [
            (
                seat,
                ngettext("{name}: {n} point", "{name}: {n} points", score).format(
                    name=names[seat], n=score
                ),
            )
            for seat, score in enumerate(state.scores())
        ]
        if self.play.coach.shows_odds():
            lines.append((-1, self._odds_line(state)))
        return lines

    def _odds_line(self, state: NumeriState) -> str:
        """Before a person here rolls, the chance of an extra roll; once the die shows,
        the moves that earn one (blank at other moments)."""
        if self.play.locked or state.is_terminal() or not self.play.control.here(state.side):
            return ""
        if state.stage == ROLL:
            odds = roll_odds(state)
            if odds is None:
                return ""
            return _("Chance of an extra roll: {chance}").format(chance=percent(odds.extra))
        earning = extra_roll_moves(state)
        if not earning:
            return _("No move earns an extra roll")
        moves = ", ".join(state.action_to_str(action) for action in earning)
        return _("Extra roll with: {moves}").format(moves=moves)

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
        path = [floats(origin)]
        path += [floats(self.space_center(s)) for s in range(max(0, start + 1), end + 1)]
        tween = Tween(min(1.2, 0.12 * len(path)))
        self.motion = (tween, path, seat, pawn)
        self.tweens.append(tween)
        if after.stage == ROLL and after.side == seat and not after.is_terminal():
            # a new row of three: another roll, and sparks where the pawn lands
            colour = self.seat_colour(seat)
            self.sparks(path[-1], [colour, self.palette.accent], strength=1.4)
            self.play.app.sound.play("chain")
            return
        self.play.app.sound.play("move")

    def update(self, dt: float) -> None:
        super().update(dt)
        if self.motion and self.motion[0].done:
            self.motion = None


def _value_text(value: int) -> str:
    return str(value) if value else "·"


def _split_label(first: int, second: int) -> str:
    """A split's button: the two pawns in the order they move (in the player's language at
    each draw)."""
    return _("{first} then {second}").format(first=first, second=second)
