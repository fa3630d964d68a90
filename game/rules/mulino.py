"""Mulino (nine men's morris) in its three variants: classic, misto and ceylonese.

The board is a 24-bit mask per player, bit ``i`` standing for the point ``POINTS[i]``; the
points run round the outer, middle and inner square in turn, each square starting at its
bottom-left corner, so that a square's midpoints are its odd bits and the midpoint lines
join bit ``i`` to ``i ± 8``.  Adjacency, mills and per-point move lists are tables built
once at import.

Actions: placing on point ``p`` is ``p``; moving from ``a`` to ``b`` is ``24 + 24·a + b``;
removing the piece on ``p`` is ``600 + p``; declining a ceylonese extra action is ``624``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from game.rules.bits import bit_table
from game.rules.core import (
    TERMINAL,
    DecodeError,
    Reason,
    Result,
    State,
    check_int,
    check_list,
)
from game.rules.draws import with_draw_rules
from game.rules.variants import Rule

if TYPE_CHECKING:
    from collections.abc import Sequence

    from game.rules.variants import Variant

POINTS = (
    "a1", "d1", "g1", "g4", "g7", "d7", "a7", "a4",
    "b2", "d2", "f2", "f4", "f6", "d6", "b6", "b4",
    "c3", "d3", "e3", "e4", "e5", "d5", "c5", "c4",
)  # fmt: skip
POINT_INDEX = {name: i for i, name in enumerate(POINTS)}
FULL = (1 << 24) - 1
MOVE_WHILE_PLACING, EXTRA_ACTION = Rule.MOVE_WHILE_PLACING, Rule.EXTRA_ACTION_FOR_A_MILL_PLACED
"""The rules of misto and ceylonese, named once (an enum's member costs a lookup)."""
PIECES = 9
FLIES_WITH = 3
"""A player down to this many pieces (none in hand) may fly to any free point."""
MOVE_BASE = 24
REMOVE_BASE = 600
PASS = 624

WHITE, BLACK = 0, 1
SIDE_NAMES = ("White", "Black")

# Stages of a turn.
NORMAL = 0  # place or move
REMOVE = 1  # remove an opponent piece after closing a mill
EXTRA = 2  # ceylonese: one more placement or move after a mill, or pass

QUIET_PLY_LIMIT = 100


def _adjacency() -> tuple[int, ...]:
    adj = [0] * 24
    for ring in range(3):
        for k in range(8):
            a, b = ring * 8 + k, ring * 8 + (k + 1) % 8
            adj[a] |= 1 << b
            adj[b] |= 1 << a
    for k in (1, 3, 5, 7):
        for ring in range(2):
            a, b = ring * 8 + k, (ring + 1) * 8 + k
            adj[a] |= 1 << b
            adj[b] |= 1 << a
    return tuple(adj)


def _mills() -> tuple[int, ...]:
    mills = []
    for ring in range(3):
        for k in (0, 2, 4, 6):
            points = (ring * 8 + k, ring * 8 + k + 1, ring * 8 + (k + 2) % 8)
            mills.append(sum(1 << p for p in points))
    for k in (1, 3, 5, 7):
        mills.append(sum(1 << (ring * 8 + k) for ring in range(3)))
    return tuple(mills)


ADJACENT = _adjacency()
MILLS = _mills()
MILLS_AT = tuple(tuple(m for m in MILLS if m >> p & 1) for p in range(24))


_LOW_POINTS = bit_table(12, 0)
_HIGH_POINTS = bit_table(12, 12)
_LOW_REMOVALS = bit_table(12, REMOVE_BASE)
_HIGH_REMOVALS = bit_table(12, REMOVE_BASE + 12)


def _subsets(mask: int) -> list[int]:
    subs, sub = [], mask
    while True:
        subs.append(sub)
        if sub == 0:
            return subs
        sub = (sub - 1) & mask


# _STEPS[a][m]: the moves from a to the points of m, for every subset m of a's neighbours.
_STEPS = tuple(
    {
        sub: tuple(MOVE_BASE + 24 * a + b for b in range(24) if sub >> b & 1)
        for sub in _subsets(ADJACENT[a])
    }
    for a in range(24)
)


_STEPS_FROM = tuple(zip(ADJACENT, _STEPS, strict=True))
_LOW_STEPS = tuple(tuple(_STEPS_FROM[p] for p in _LOW_POINTS[m]) for m in range(1 << 12))
_HIGH_STEPS = tuple(tuple(_STEPS_FROM[p] for p in _HIGH_POINTS[m]) for m in range(1 << 12))
"""For the pieces of either half of the board, each piece's neighbours and its moves to each
subset of them, looked up together."""
_MOVED = (0,) * MOVE_BASE + tuple(
    1 << (action - MOVE_BASE) // 24 | 1 << (action - MOVE_BASE) % 24
    for action in range(MOVE_BASE, REMOVE_BASE)
)
"""For each move, the two points whose bits it turns over (it leaves one for the other)."""
_MOVE_TO = (0,) * MOVE_BASE + tuple((a - MOVE_BASE) % 24 for a in range(MOVE_BASE, REMOVE_BASE))
"""For each move, the point it goes to."""


def points_of(mask: int) -> tuple[int, ...]:
    """The points of ``mask``, in index order."""
    return _LOW_POINTS[mask & 0xFFF] + _HIGH_POINTS[mask >> 12]


def pieces_in_mills(mask: int) -> int:
    """The pieces of ``mask`` that stand in a complete mill of ``mask``."""
    inside = 0
    for mill in MILLS:
        if mask & mill == mill:
            inside |= mill
    return inside


class MulinoState(State):
    """A position of Mulino: the pieces of each side, the pieces still in hand, who acts and
    at which stage of the turn, and what the draw rules need to remember."""

    __slots__ = ("_result", "hand", "history", "men", "quiet", "side", "stage")

    NOTATION_HINT = "place d2, move d2-d3, remove xa1, pass"

    men: tuple[int, int]
    hand: tuple[int, int]
    side: int
    stage: int
    quiet: int
    history: tuple[int, ...]
    _result: Result | None

    @classmethod
    def initial(cls, variant: Variant) -> MulinoState:
        return _make(variant, (0, 0), (PIECES, PIECES), WHITE, NORMAL, 0, (), None)

    @classmethod
    def setup(
        cls,
        variant: Variant,
        white: str,
        black: str,
        hand: tuple[int, int] = (0, 0),
        side: int = WHITE,
    ) -> MulinoState:
        """A position set up by hand, the pieces given by point names: ``"a1 d1 g1"``."""
        men = (_points_mask(white), _points_mask(black))
        repeats = hand == (0, 0) or variant.has(MOVE_WHILE_PLACING)
        history = [position_key(men, hand, side)] if repeats else []
        return cls.from_fields(variant, [list(men), list(hand), side, NORMAL, 0, history, None])

    # -- turn and result ------------------------------------------------------------------

    @property
    def to_move(self) -> int:
        if self._result is not None:
            return TERMINAL
        if self._legal is None:
            # Placements, removals and passes always exist: no action means no move.
            self._legal = self._generate_legal()
            if not self._legal:
                self._result = Result.win_for(1 - self.side, 2, Reason.NO_MOVES)
                return TERMINAL
        return self.side

    def is_terminal(self) -> bool:
        # to_move's work without its answer: asked before every action of a search or playout
        if self._result is None and self._legal is None:
            self._legal = self._generate_legal()
            if not self._legal:
                self._result = Result.win_for(1 - self.side, 2, Reason.NO_MOVES)
        return self._result is not None

    def result(self) -> Result | None:
        return self._result if self.to_move == TERMINAL else None

    def is_chance(self) -> bool:
        return False  # nothing in Mulino is left to chance: asked of every state a search sees

    # -- legal actions --------------------------------------------------------------------

    def _generate_legal(self) -> tuple[int, ...]:
        side = self.side
        white, black = self.men
        own, opp = (white, black) if side == WHITE else (black, white)
        empty = FULL ^ white ^ black
        stage = self.stage
        if stage == REMOVE:
            removable = (opp & ~pieces_in_mills(opp)) or opp
            return _LOW_REMOVALS[removable & 0xFFF] + _HIGH_REMOVALS[removable >> 12]
        if self.hand[side]:
            actions = list(_LOW_POINTS[empty & 0xFFF] + _HIGH_POINTS[empty >> 12])
            if self.variant.has(MOVE_WHILE_PLACING):
                actions += _steps(own, empty)
        elif own.bit_count() == FLIES_WITH:
            empties = points_of(empty)
            actions = [MOVE_BASE + 24 * a + b for a in points_of(own) for b in empties]
        elif stage == NORMAL:  # most of a game: _steps, inlined
            moves: list[int] = []
            for neighbours, to in _LOW_STEPS[own & 0xFFF]:
                moves += to[empty & neighbours]
            for neighbours, to in _HIGH_STEPS[own >> 12]:
                moves += to[empty & neighbours]
            return tuple(moves)
        else:
            actions = _steps(own, empty)
        if stage == EXTRA:
            actions.append(PASS)
        return tuple(actions)

    # -- applying -------------------------------------------------------------------------

    def _successor(self, action: int) -> MulinoState:
        if action >= REMOVE_BASE:
            return self._removal(action)
        side = self.side
        white, black = self.men
        hand = self.hand
        if action >= MOVE_BASE:
            if side == WHITE:
                white ^= _MOVED[action]
            else:
                black ^= _MOVED[action]
            to = _MOVE_TO[action]
            if hand == (0, 0):
                return self._moved((white, black), to)
        elif side == WHITE:
            white |= 1 << action
            hand = (hand[0] - 1, hand[1])
            to = action
        else:
            black |= 1 << action
            hand = (hand[0], hand[1] - 1)
            to = action
        men = (white, black)
        own = men[side]
        variant = self.variant
        first, second = MILLS_AT[to]  # every point lies on exactly two mills
        if own & first == first or own & second == second:
            if not variant.has(EXTRA_ACTION):
                return _make(variant, men, hand, side, REMOVE, 0, self.history, None)
            return self._extra_action(men, hand, irreversible=action < MOVE_BASE)
        return self._next_turn(men, hand, 1 - side, 0, irreversible=action < MOVE_BASE)

    def _moved(self, men: tuple[int, int], to: int) -> MulinoState:
        """A piece moved once every piece is placed (most of a game: the quickest way)."""
        side = self.side
        first, second = MILLS_AT[to]
        own = men[side]
        quiet = self.quiet + 1
        if own & first == first or own & second == second:
            return _make(self.variant, men, (0, 0), side, REMOVE, quiet, self.history, None)
        other = 1 - side
        key = men[0] | men[1] << 24 | other << 48  # position_key with empty hands
        history = self.history + (key,)  # noqa: RUF005 (quicker than unpacking)
        state = _new(MulinoState)  # _make, inlined
        state.variant = self.variant
        state._legal = None
        state.men = men
        state.hand = (0, 0)
        state.side = other
        state.stage = NORMAL
        state.quiet = quiet
        state.history = history
        state._result = None
        if quiet >= QUIET_PLY_LIMIT or history.count(key) >= 3:
            return with_draw_rules(state, quiet, QUIET_PLY_LIMIT)
        return state

    def _removal(self, action: int) -> MulinoState:
        """A piece removed after a mill, or a ceylonese extra action declined."""
        side, other = self.side, 1 - self.side
        hand = self.hand
        if action == PASS:
            return self._next_turn(self.men, hand, other, self.quiet + 1)
        men = list(self.men)
        men[other] &= ~(1 << (action - REMOVE_BASE))
        men_t = (men[0], men[1])
        if men[other].bit_count() + hand[other] < 3:
            won = Result.win_for(side, 2, Reason.PIECES)
            return _make(self.variant, men_t, hand, side, NORMAL, 0, (), won)
        if hand == (0, 0) and self.variant.has(EXTRA_ACTION):
            return _make(self.variant, men_t, hand, side, EXTRA, 0, (), None)
        return self._next_turn(men_t, hand, other, 0, irreversible=True)

    def _extra_action(
        self, men: tuple[int, int], hand: tuple[int, int], irreversible: bool
    ) -> MulinoState:
        """Ceylonese, a mill closed while placing: the same player places once more, or with
        an empty hand moves once more, or passes.

        While the other still has pieces to place, a piece going to and fro between two mills
        grants extra move after extra move; the repetition rule, counted over these positions,
        ends such a turn in a draw on the third occurrence."""
        side = self.side
        if hand[side] or hand == (0, 0):
            return _make(self.variant, men, hand, side, EXTRA, 0, (), None)
        key = position_key(men, hand, side)
        history = (key,) if irreversible else (*self.history, key)
        result = Result.draw(2, Reason.REPETITION) if history.count(key) >= 3 else None
        return _make(self.variant, men, hand, side, EXTRA, 0, history, result)

    def _next_turn(
        self,
        men: tuple[int, int],
        hand: tuple[int, int],
        side: int,
        quiet: int,
        irreversible: bool = False,
    ) -> MulinoState:
        """The start of ``side``'s turn, with the draw rules applied."""
        if hand[side] == 0 and hand[1 - side] and self.variant.has(EXTRA_ACTION):
            side = 1 - side  # whoever still has pieces keeps placing
        if hand != (0, 0) and not self.variant.has(MOVE_WHILE_PLACING):
            return _make(self.variant, men, hand, side, NORMAL, 0, (), None)
        key = position_key(men, hand, side)
        history = (key,) if irreversible else (*self.history, key)
        state = _make(self.variant, men, hand, side, NORMAL, quiet, history, None)
        return with_draw_rules(state, quiet, QUIET_PLY_LIMIT)

    # -- notation -------------------------------------------------------------------------

    def _action_text(self, action: int) -> str:
        if action < MOVE_BASE:
            return POINTS[action]
        if action < REMOVE_BASE:
            a, b = divmod(action - MOVE_BASE, 24)
            return f"{POINTS[a]}-{POINTS[b]}"
        if action < PASS:
            return "x" + POINTS[action - REMOVE_BASE]
        return "pass"

    def _parse(self, text: str) -> int | None:
        word = text.lower()
        if word == "pass":
            return PASS
        if word.startswith("x") and word[1:] in POINT_INDEX:
            return REMOVE_BASE + POINT_INDEX[word[1:]]
        if word in POINT_INDEX:
            return POINT_INDEX[word]
        a, dash, b = word.partition("-")
        if dash and a in POINT_INDEX and b in POINT_INDEX:
            return MOVE_BASE + 24 * POINT_INDEX[a] + POINT_INDEX[b]
        return None

    def _why_illegal(self, action: int, legal: Sequence[int]) -> str:
        if self.stage == REMOVE:
            return f"a mill was closed: remove an opponent piece first ({self._listing(legal)})"
        if action == PASS:
            return "only a ceylonese extra placement or move may be declined"
        if action < MOVE_BASE and not self.hand[self.side]:
            return "no pieces left in hand to place"
        if action < MOVE_BASE and (self.men[0] | self.men[1]) >> action & 1:
            return f"point {POINTS[action]} is taken"
        if MOVE_BASE <= action < REMOVE_BASE:
            a, b = divmod(action - MOVE_BASE, 24)
            if not self.men[self.side] >> a & 1:
                return f"no {SIDE_NAMES[self.side]} piece on {POINTS[a]}"
            if self.hand[self.side] and not self.variant.has(MOVE_WHILE_PLACING):
                return "pieces are still being placed"
            if not ADJACENT[a] >> b & 1 and self.men[self.side].bit_count() != FLIES_WITH:
                return f"{POINTS[b]} is not next to {POINTS[a]} (only {FLIES_WITH} pieces may fly)"
        return super()._why_illegal(action, legal)

    # -- encoding and display -------------------------------------------------------------

    def to_fields(self) -> list[Any]:
        ended = self.result()
        result = None if ended is None else ended.to_fields()
        return [
            list(self.men),
            list(self.hand),
            self.side,
            self.stage,
            self.quiet,
            list(self.history),
            result,
        ]

    @classmethod
    def from_fields(cls, variant: Variant, fields: list[Any]) -> MulinoState:
        men, hand, side, stage, quiet, history, result = check_list(fields, 7, "mulino state")
        men = tuple(check_int(m, 0, FULL, "pieces") for m in check_list(men, 2, "pieces"))
        hand = tuple(check_int(h, 0, PIECES, "hand") for h in check_list(hand, 2, "hand"))
        if men[0] & men[1]:
            raise DecodeError("two pieces on one point")
        if any(m.bit_count() + h > PIECES for m, h in zip(men, hand, strict=True)):
            raise DecodeError("more than nine pieces for one side")
        history = tuple(
            check_int(k, 0, (1 << 57) - 1, "history") for k in check_list(history, None, "history")
        )
        return _make(
            variant,
            men,
            hand,
            check_int(side, 0, 1, "side"),
            check_int(stage, 0, 2, "stage"),
            check_int(quiet, 0, QUIET_PLY_LIMIT, "quiet plies"),
            history,
            None if result is None else Result.from_fields(result),
        )

    def _describe(self) -> tuple[str, str]:
        def cell(name: str) -> str:
            p = POINT_INDEX[name]
            return "W" if self.men[0] >> p & 1 else "B" if self.men[1] >> p & 1 else "+"

        rows = [
            "7 {a7}-----{d7}-----{g7}",
            "6 | {b6}---{d6}---{f6} |",
            "5 | | {c5}-{d5}-{e5} | |",
            "4 {a4}-{b4}-{c4}   {e4}-{f4}-{g4}",
            "3 | | {c3}-{d3}-{e3} | |",
            "2 | {b2}---{d2}---{f2} |",
            "1 {a1}-----{d1}-----{g1}",
            "  a b c d e f g",
        ]
        cells = {name: cell(name) for name in POINTS}
        board = "\n".join(row.format(**cells) for row in rows)
        status = f"hand W{self.hand[0]} B{self.hand[1]}, {SIDE_NAMES[self.side]} to "
        status += ("play", "remove", "play again or pass")[self.stage]
        return board, status


def position_key(men: tuple[int, int], hand: tuple[int, int], side: int) -> int:
    """What makes two positions the same for the repetition rule."""
    return men[0] | men[1] << 24 | side << 48 | hand[0] << 49 | hand[1] << 53


def _points_mask(names: str) -> int:
    try:
        return sum(1 << POINT_INDEX[name] for name in names.split())
    except KeyError as error:
        raise DecodeError(f"no point {error} on the board") from None


def _steps(own: int, empty: int) -> list[int]:
    moves: list[int] = []
    for neighbours, to in _LOW_STEPS[own & 0xFFF] + _HIGH_STEPS[own >> 12]:
        moves += to[empty & neighbours]
    return moves


_new = object.__new__


def _make(
    variant: Variant,
    men: tuple[int, int],
    hand: tuple[int, int],
    side: int,
    stage: int,
    quiet: int,
    history: tuple[int, ...],
    result: Result | None,
) -> MulinoState:
    state = _new(MulinoState)
    state.variant = variant
    state._legal = None
    state.men = men
    state.hand = hand
    state.side = side
    state.stage = stage
    state.quiet = quiet
    state.history = history
    state._result = result
    return state
