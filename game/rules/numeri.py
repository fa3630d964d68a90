"""Numeri, the race dice game for 2 to 4 players (RULES.md §2).

Each seat has pawns 1–5, off the track (space ``-1``) until they enter.  A turn is a chance
event (the die: outcomes 1–5, and 6 for the star) followed, when anything can move, by the
seat's choice: action ``p`` moves pawn ``p``; action ``10·a + b`` splits the roll, moving
pawn ``a`` and then pawn ``b``.  Who begins is the option ``first`` (``lot`` by default: a
chance event whose outcome is the first seat).
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from game.rules.boards import Track, default_track
from game.rules.core import (
    CHANCE,
    TERMINAL,
    DecodeError,
    Outcome,
    Reason,
    Result,
    State,
    check_int,
    check_list,
)
from game.rules.lots import lot_outcomes, lot_text, parse_lot, seat_chosen

if TYPE_CHECKING:
    from collections.abc import Sequence

    from game.rules.variants import Variant

STAR = 6
OFF = -1
PAWNS = (1, 2, 3, 4, 5)
OFF_TRACK_VALUE = -5
SPLITS = {3: ((1, 2),), 4: ((1, 3),), 5: ((1, 4), (2, 3))}
"""How each roll may be split once the barrier has been passed (each pair in either order)."""

# Stages
LOT = 0
ROLL = 1
CHOOSE = 2

_SIXTH = Fraction(1, 6)
_DIE = [(face, _SIXTH) for face in range(1, 7)]


class NumeriState(State):
    """A position of Numeri: where each pawn stands, whose turn it is and at which stage, the
    die just rolled, and whether the barrier has been passed (which opens splitting)."""

    __slots__ = ("_result", "die", "occupied", "pawns", "side", "stage", "track", "unlocked")

    NOTATION_HINT = "die d1…d5 or d*, lot first1…first4, move 3, split 1+2"

    track: Track
    pawns: tuple[tuple[int, ...], ...]
    occupied: int
    side: int
    stage: int
    die: int
    unlocked: bool
    _result: Result | None

    @classmethod
    def initial(cls, variant: Variant, track: Track | None = None) -> NumeriState:
        track = track or default_track()
        pawns = ((OFF,) * 5,) * variant.players
        first = seat_chosen(variant, "first")
        if first is None:
            return _make(variant, track, pawns, 0, 0, LOT, 0, False, None)
        return _make(variant, track, pawns, 0, first, ROLL, 0, False, None)

    # -- turn and result ------------------------------------------------------------------

    @property
    def to_move(self) -> int:
        if self._result is not None:
            return TERMINAL
        return self.side if self.stage == CHOOSE else CHANCE

    @property
    def roller(self) -> int | None:
        return self.side if self.stage == ROLL and self._result is None else None

    def result(self) -> Result | None:
        return self._result

    def chance_outcomes(self) -> list[tuple[int, Fraction]]:
        if self._result is not None or self.stage == CHOOSE:
            return []
        if self.stage == LOT:
            return lot_outcomes(self.players)
        return _DIE

    def scores(self) -> tuple[int, ...]:
        """Each seat's score as the pawns stand now."""
        return _scores(self.track, self.pawns)

    # -- legal actions --------------------------------------------------------------------

    def _destination(self, occupied: int, at: int) -> int | None:
        """The next free space beyond ``at`` (from space 0 for a pawn entering), if any."""
        free = ~occupied & ((1 << self.track.length) - 1) & ~((1 << (at + 1)) - 1)
        return (free & -free).bit_length() - 1 if free else None

    def _generate_legal(self) -> tuple[int, ...]:
        own = self.pawns[self.side]
        occupied = self.occupied
        if self.die == STAR:
            return tuple(p for p in PAWNS if self._destination(occupied, own[p - 1]) is not None)
        legal = []
        if self._destination(occupied, own[self.die - 1]) is not None:
            legal.append(self.die)
        if self.unlocked:
            for a, b in SPLITS.get(self.die, ()):
                for first, second in ((a, b), (b, a)):
                    at = own[first - 1]
                    dest = self._destination(occupied, at)
                    if dest is None:
                        continue
                    after = (occupied & ~(1 << at) if at != OFF else occupied) | 1 << dest
                    if self._destination(after, own[second - 1]) is not None:
                        legal.append(10 * first + second)
        return tuple(legal)

    # -- applying -------------------------------------------------------------------------

    def _successor(self, action: int) -> NumeriState:
        variant, track = self.variant, self.track
        if self.stage == LOT:
            return _make(variant, track, self.pawns, self.occupied, action, ROLL, 0, False, None)
        if self.stage == ROLL:
            rolled = _make(
                variant,
                track,
                self.pawns,
                self.occupied,
                self.side,
                CHOOSE,
                action,
                self.unlocked,
                None,
            )
            if rolled.legal_actions():
                return rolled
            return self._next_turn(self.pawns, self.occupied, self.unlocked, extra=False)
        pawns = [list(p) for p in self.pawns]
        own = pawns[self.side]
        occupied, unlocked = self.occupied, self.unlocked
        barrier = track.barrier(self.players)
        end = 0b111 << (track.length - 3)
        moved_to = []
        for pawn in divmod(action, 10) if action > 9 else (action,):
            at = own[pawn - 1]
            dest = self._destination(occupied, at)
            assert dest is not None
            if at != OFF:
                occupied &= ~(1 << at)
            occupied |= 1 << dest
            own[pawn - 1] = dest
            moved_to.append(dest)
            unlocked = unlocked or (at <= barrier < dest)
            if occupied & end == end:
                final = tuple(map(tuple, pawns))
                return _make(
                    variant,
                    track,
                    final,
                    occupied,
                    self.side,
                    ROLL,
                    0,
                    unlocked,
                    _final_result(_scores(track, final)),
                )
        mine = 0
        for at in own:
            if at != OFF:
                mine |= 1 << at
        extra = any(_chain_length(mine, at) >= 3 for at in moved_to)
        return self._next_turn(tuple(map(tuple, pawns)), occupied, unlocked, extra)

    def _next_turn(
        self, pawns: tuple[tuple[int, ...], ...], occupied: int, unlocked: bool, extra: bool
    ) -> NumeriState:
        side = self.side if extra else (self.side + 1) % self.players
        return _make(self.variant, self.track, pawns, occupied, side, ROLL, 0, unlocked, None)

    # -- notation -------------------------------------------------------------------------

    def _action_text(self, action: int) -> str:
        if self.stage == LOT:
            return lot_text("first", action)
        if self.stage == ROLL:
            return "d*" if action == STAR else f"d{action}"
        return f"{action // 10}+{action % 10}" if action > 9 else str(action)

    def _parse(self, text: str) -> int | None:
        word = text.lower()
        if self.stage == LOT:
            return parse_lot("first", word)
        if self.stage == ROLL:
            return {"d1": 1, "d2": 2, "d3": 3, "d4": 4, "d5": 5, "d*": STAR}.get(word)
        a, plus, b = word.partition("+")
        if not plus and a in "12345" and len(a) == 1:
            return int(a)
        if plus and len(a) == len(b) == 1 and a in "12345" and b in "12345":
            return 10 * int(a) + int(b)
        return None

    def _why_illegal(self, action: int, legal: Sequence[int]) -> str:
        die = "the star" if self.die == STAR else f"a {self.die}"
        if action > 9:
            if not self.unlocked:
                return "no pawn has passed the barrier yet, so a roll cannot be split"
            if sorted(divmod(action, 10)) not in [list(s) for s in SPLITS.get(self.die, ())]:
                return f"{die} cannot be split that way"
            return "both pawns must be able to move, in that order"
        if self.die != STAR and action != self.die:
            return f"the die shows {die}: it moves pawn {self.die}"
        return f"pawn {action} has no free space ahead"

    # -- encoding and display -------------------------------------------------------------

    def to_fields(self) -> list[Any]:
        result = self._result.to_fields() if self._result else None
        return [
            [list(p) for p in self.pawns],
            self.side,
            self.stage,
            self.die,
            self.unlocked,
            result,
        ]

    @classmethod
    def from_fields(cls, variant: Variant, fields: list[Any]) -> NumeriState:
        pawns, side, stage, die, unlocked, result = check_list(fields, 6, "numeri state")
        track = default_track()
        last = track.length - 1
        pawns = tuple(
            tuple(check_int(at, OFF, last, "pawn space") for at in check_list(p, 5, "pawns"))
            for p in check_list(pawns, variant.players, "pawns of each seat")
        )
        placed = [at for p in pawns for at in p if at != OFF]
        if len(placed) != len(set(placed)):
            raise DecodeError("two pawns on one space")
        if type(unlocked) is not bool:
            raise DecodeError("unlocked must be true or false")
        stage = check_int(stage, LOT, CHOOSE, "stage")
        die = check_int(die, 1 if stage == CHOOSE else 0, STAR if stage == CHOOSE else 0, "die")
        state = _make(
            variant,
            track,
            pawns,
            sum(1 << at for at in placed),
            check_int(side, 0, variant.players - 1, "side"),
            stage,
            die,
            unlocked,
            None if result is None else Result.from_fields(result),
        )
        if stage == CHOOSE and not state.legal_actions():
            raise DecodeError("a die is shown but no pawn can move")
        return state

    def _describe(self) -> tuple[str, str]:
        cells = []
        for space, value in enumerate(self.track.values):
            here = next(
                (
                    f"{seat + 1}:{p}"
                    for seat, own in enumerate(self.pawns)
                    for p, at in zip(PAWNS, own, strict=True)
                    if at == space
                ),
                "",
            )
            cells.append(f"{space:2}({value if value else '·'}){here}")
        lines = ["  ".join(cells[i : i + 6]) for i in range(0, len(cells), 6)]
        off = [
            f"seat {seat + 1}: "
            + " ".join(str(p) for p, at in zip(PAWNS, own, strict=True) if at == OFF)
            for seat, own in enumerate(self.pawns)
        ]
        face = "*" if self.die == STAR else str(self.die)
        status = f"seat {self.side + 1} " + (
            f"rolled {face}" if self.stage == CHOOSE else "to roll"
        )
        return "\n".join([*lines, "off the track — " + "; ".join(off)]), status


def _chain_length(mine: int, at: int) -> int:
    """The length of the run of ``mine``'s spaces through space ``at``."""
    low = high = at
    while low > 0 and mine >> (low - 1) & 1:
        low -= 1
    while mine >> (high + 1) & 1:
        high += 1
    return high - low + 1


def pawn_score(track: Track, pawn: int, at: int) -> int:
    """What pawn number ``pawn`` standing on space ``at`` (or off the track) scores."""
    return pawn * (OFF_TRACK_VALUE if at == OFF else track.values[at])


def _scores(track: Track, pawns: tuple[tuple[int, ...], ...]) -> tuple[int, ...]:
    return tuple(
        sum(pawn_score(track, p, at) for p, at in zip(PAWNS, own, strict=True)) for own in pawns
    )


def _final_result(scores: tuple[int, ...]) -> Result:
    best = max(scores)
    outcomes = tuple(Outcome.WIN if s == best else Outcome.LOSS for s in scores)
    return Result(outcomes, Reason.END_SPACES, scores)


def _make(
    variant: Variant,
    track: Track,
    pawns: tuple[tuple[int, ...], ...],
    occupied: int,
    side: int,
    stage: int,
    die: int,
    unlocked: bool,
    result: Result | None,
) -> NumeriState:
    state = object.__new__(NumeriState)
    state.variant = variant
    state._legal = None
    state.track = track
    state.pawns = pawns
    state.occupied = occupied
    state.side = side
    state.stage = stage
    state.die = die
    state.unlocked = unlocked
    state._result = result
    return state
