"""Lupo e pecore (wolf and sheep) on the checkerboard.

Four white sheep start on 29–32 and step diagonally forward; one black wolf, placed by its
side on any empty dark square, steps one square diagonally either way.  Nothing is captured.

Which seat plays the wolf is the option ``wolf`` (``lot`` by default: a chance event).
Actions: the wolf's placement on square ``s`` is ``s`` (0–31, notation ``@18``); a step is a
move number of :func:`checkerboard.path_code`; the lot's outcomes are the wolf's seat, 0 or 1.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from game.rules.checkerboard import (
    NEIGHBOURS,
    SQUARES,
    STEPS,
    WHITE,
    coords,
    decode_path,
    draw_board,
    parse_path,
    parse_square,
    path_code,
    path_text,
    squares_of,
)
from game.rules.core import (
    CHANCE,
    TERMINAL,
    DecodeError,
    Reason,
    Result,
    State,
    check_int,
    check_list,
)
from game.rules.lots import lot_outcomes, lot_text, parse_lot, seat_chosen

if TYPE_CHECKING:
    from game.rules.variants import Variant

START_SHEEP = 0xF << 28
NO_WOLF = -1

# Stages
LOT = 0  # who plays the wolf is drawn
PLACE = 1  # the wolf's side places it
PLAY = 2  # sheep and wolf step in turn


class LupoState(State):
    """A position of Lupo e pecore.

    ``wolf_seat`` is the seat playing the wolf (None until the lot is drawn); ``sheep_turn``
    says whether the sheep move next.
    """

    __slots__ = ("_result", "sheep", "sheep_turn", "stage", "wolf", "wolf_seat")

    NOTATION_HINT = "lot wolf1/wolf2, placing @18, steps 29-25"

    sheep: int
    wolf: int
    wolf_seat: int | None
    stage: int
    sheep_turn: bool
    _result: Result | None

    @classmethod
    def initial(cls, variant: Variant) -> LupoState:
        wolf = seat_chosen(variant, "wolf")
        if wolf is None:
            return _make(variant, START_SHEEP, NO_WOLF, None, LOT, False, None)
        return _make(variant, START_SHEEP, NO_WOLF, wolf, PLACE, False, None)

    @classmethod
    def from_pieces(
        cls, variant: Variant, sheep: int, wolf: int, wolf_seat: int, sheep_turn: bool
    ) -> LupoState:
        """A position set up by hand: ``sheep`` a square mask, ``wolf`` a square."""
        if sheep.bit_count() != 4 or sheep >> wolf & 1 or not 0 <= wolf < SQUARES:
            raise DecodeError("four sheep and a wolf on distinct squares are needed")
        return _make(variant, sheep, wolf, wolf_seat, PLAY, sheep_turn, None)

    @property
    def to_move(self) -> int:
        if self._result is not None:
            return TERMINAL
        if self.stage == LOT:
            return CHANCE
        assert self.wolf_seat is not None
        if self.stage == PLACE:
            return self.wolf_seat
        if self._legal is None:
            self._legal = self._generate_legal()
            if not self._legal:
                winner = self.wolf_seat if self.sheep_turn else 1 - self.wolf_seat
                self._result = Result.win_for(winner, 2, Reason.NO_MOVES)
                return TERMINAL
        return 1 - self.wolf_seat if self.sheep_turn else self.wolf_seat

    def result(self) -> Result | None:
        return self._result if self.to_move == TERMINAL else None

    def chance_outcomes(self) -> list[tuple[int, Fraction]]:
        return lot_outcomes(2) if self.stage == LOT else []

    def _generate_legal(self) -> tuple[int, ...]:
        if self.stage == PLACE:
            return tuple(s for s in range(SQUARES) if not self.sheep >> s & 1)
        occupied = self.sheep | 1 << self.wolf
        if self.sheep_turn:
            return tuple(
                path_code((s, t), False)
                for s in squares_of(self.sheep)
                for t in STEPS[WHITE][s]
                if not occupied >> t & 1
            )
        return tuple(
            path_code((self.wolf, t), False) for t in NEIGHBOURS[self.wolf] if not occupied >> t & 1
        )

    def _successor(self, action: int) -> LupoState:
        variant = self.variant
        if self.stage == LOT:
            return _make(variant, self.sheep, NO_WOLF, action, PLACE, False, None)
        if self.stage == PLACE:
            return _make(variant, self.sheep, action, self.wolf_seat, PLAY, True, None)
        (start, to), _ = decode_path(action)
        if self.sheep_turn:
            sheep, wolf = self.sheep ^ (1 << start | 1 << to), self.wolf
        else:
            sheep, wolf = self.sheep, to
        result = None
        if coords(wolf)[1] < min(coords(s)[1] for s in squares_of(sheep)):
            assert self.wolf_seat is not None
            result = Result.win_for(self.wolf_seat, 2, Reason.BREAKTHROUGH)
        return _make(variant, sheep, wolf, self.wolf_seat, PLAY, not self.sheep_turn, result)

    def _action_text(self, action: int) -> str:
        if self.stage == LOT:
            return lot_text("wolf", action)
        if self.stage == PLACE:
            return f"@{action + 1}"
        return path_text(action)

    def _parse(self, text: str) -> int | None:
        word = text.lower()
        if self.stage == LOT:
            return parse_lot("wolf", word)
        if self.stage == PLACE:
            return parse_square(word[1:]) if word.startswith("@") else None
        parsed = parse_path(word)
        if parsed is None or parsed[1] or len(parsed[0]) != 2:
            return None
        return path_code(parsed[0], False)

    def to_fields(self) -> list[Any]:
        ended = self.result()
        result = None if ended is None else ended.to_fields()
        return [self.sheep, self.wolf, self.wolf_seat, self.stage, self.sheep_turn, result]

    @classmethod
    def from_fields(cls, variant: Variant, fields: list[Any]) -> LupoState:
        sheep, wolf, wolf_seat, stage, sheep_turn, result = check_list(fields, 6, "lupo state")
        sheep = check_int(sheep, 0, (1 << SQUARES) - 1, "sheep")
        stage = check_int(stage, LOT, PLAY, "stage")
        if sheep.bit_count() != 4:
            raise DecodeError("there are four sheep")
        if stage != LOT:
            wolf_seat = check_int(wolf_seat, 0, 1, "wolf seat")
        elif wolf_seat is not None:
            raise DecodeError("the wolf's seat is drawn by lot")
        if stage == PLAY:
            wolf = check_int(wolf, 0, SQUARES - 1, "wolf")
            if sheep >> wolf & 1:
                raise DecodeError("wolf and sheep on one square")
        elif wolf != NO_WOLF:
            raise DecodeError("the wolf is not placed yet")
        if type(sheep_turn) is not bool:
            raise DecodeError("sheep_turn must be true or false")
        return _make(
            variant,
            sheep,
            wolf,
            wolf_seat,
            stage,
            sheep_turn,
            None if result is None else Result.from_fields(result),
        )

    def _describe(self) -> tuple[str, str]:
        letters = dict.fromkeys(squares_of(self.sheep), "s")
        if self.wolf != NO_WOLF:
            letters[self.wolf] = "W"
        if self.stage == LOT:
            status = "drawing lots for the wolf"
        elif self.stage == PLACE and self.wolf_seat is not None:
            status = f"seat {self.wolf_seat + 1} (wolf) places the wolf"
        else:
            status = ("sheep" if self.sheep_turn else "wolf") + " to move"
        return draw_board(letters), status


def _make(
    variant: Variant,
    sheep: int,
    wolf: int,
    wolf_seat: int | None,
    stage: int,
    sheep_turn: bool,
    result: Result | None,
) -> LupoState:
    state = object.__new__(LupoState)
    state.variant = variant
    state._legal = None
    state.sheep = sheep
    state.wolf = wolf
    state.wolf_seat = wolf_seat
    state.stage = stage
    state.sheep_turn = sheep_turn
    state._result = result
    return state
