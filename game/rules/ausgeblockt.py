"""Ausgeblockt, the five-dice roll-and-connect game (RULES.md §1).

The sheet's cells are bits of a 49-bit mask, cell ``row·7 + col`` with a1 = 0.  Dice are
interchangeable, so a throw is a sorted multiset of faces (1–5, and 6 for the cow); a roll
of ``k`` dice has one chance outcome per multiset, with its exact multinomial probability.

A turn: a chance event rolls the dice not kept; after the first and second roll the player
either stops or names the dice to roll again; then, if the throw offers a usable mark, the
player marks a cell or passes.  Actions: marking cell ``c`` is ``c``; passing is 49;
stopping is 50; rolling again the dice of multiset ``m`` is ``100 + code(m)``, where
``code`` reads the sorted faces as base-7 digits, lowest first.  Chance outcomes are
``code(m)`` of the faces thrown, or the first seat for the lot of who begins.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import product
from math import factorial, prod
from typing import TYPE_CHECKING, Any

from game.rules.boards import COW, SHEET_SIZE, START_O, START_X, Sheet, default_sheet
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
    from collections.abc import Sequence

    from game.rules.variants import Variant

DICE = 5
ATTEMPTS = 3
CELLS = SHEET_SIZE * SHEET_SIZE
FULL = (1 << CELLS) - 1
PASS = 49
STOP = 50
REROLL_BASE = 100
FACE_LETTERS = "?12345C"
SIDE_NAMES = ("X", "O")

# Stages
LOT = 0
ROLL = 1
DECIDE = 2
MARK = 3

_NOT_LEFT_EDGE = sum(1 << c for c in range(CELLS) if c % SHEET_SIZE != 0)
_NOT_RIGHT_EDGE = sum(1 << c for c in range(CELLS) if c % SHEET_SIZE != SHEET_SIZE - 1)


def cell_name(cell: int) -> str:
    return "abcdefg"[cell % SHEET_SIZE] + str(cell // SHEET_SIZE + 1)


def parse_cell(text: str) -> int | None:
    if len(text) == 2 and text[0] in "abcdefg" and text[1] in "1234567":
        return "abcdefg".index(text[0]) + SHEET_SIZE * (int(text[1]) - 1)
    return None


def neighbourhood(mask: int) -> int:
    """``mask`` with every cell 8-adjacent to it."""
    right, left = mask & _NOT_RIGHT_EDGE, mask & _NOT_LEFT_EDGE
    grown = (
        mask
        | mask << 7
        | mask >> 7
        | right << 1
        | left >> 1
        | right << 8
        | left << 6
        | right >> 6
        | left >> 8
    )
    return grown & FULL


def reach(start: int, passable: int) -> int:
    """The cells joined to cell mask ``start`` through 8-connected ``passable`` cells."""
    region = start & passable
    while True:
        grown = neighbourhood(region) & passable
        if grown == region:
            return region
        region = grown


def joins(starts: tuple[int, ...], passable: int) -> bool:
    """Whether ``passable`` joins all the start cells into one 8-connected group."""
    region = reach(1 << starts[0], passable)
    return all(region >> s & 1 for s in starts)


def dice_code(faces: tuple[int, ...]) -> int:
    """The number of a sorted multiset of faces (base-7 digits, lowest first)."""
    code = 0
    for face in reversed(faces):
        code = code * 7 + face
    return code


def dice_of(code: int) -> tuple[int, ...]:
    faces = []
    while code:
        code, face = divmod(code, 7)
        faces.append(face)
    return tuple(faces)


def faces_text(faces: tuple[int, ...]) -> str:
    return "".join(FACE_LETTERS[f] for f in faces)


def parse_faces(text: str) -> tuple[int, ...] | None:
    faces = [FACE_LETTERS.find(ch) for ch in text.upper()]
    if not faces or len(faces) > DICE or any(f < 1 for f in faces):
        return None
    return tuple(sorted(faces))


@cache
def roll_outcomes(count: int) -> tuple[tuple[int, Fraction], ...]:
    """Every multiset ``count`` dice can show, as (code, exact probability)."""
    outcomes = []
    for faces in sorted({tuple(sorted(t)) for t in product(range(1, 7), repeat=count)}):
        ways = factorial(count) // prod(factorial(n) for n in Counter(faces).values())
        outcomes.append((dice_code(faces), Fraction(ways, 6**count)))
    return tuple(outcomes)


@cache
def reroll_choices(dice: tuple[int, ...]) -> tuple[int, ...]:
    """The reroll actions for a throw: one per non-empty sub-multiset of its dice."""
    counts = Counter(dice)
    faces = sorted(counts)
    choices = []
    for taken in product(*(range(counts[f] + 1) for f in faces)):
        sub = tuple(f for f, n in zip(faces, taken, strict=True) for _ in range(n))
        if sub:
            choices.append(REROLL_BASE + dice_code(sub))
    return tuple(sorted(choices))


@cache
def mark_options(dice: tuple[int, ...]) -> dict[int, bool]:
    """The symbols a throw lets the player mark, each with whether it is a quad mark."""
    counts = Counter(dice)
    options = {}
    if counts[COW] >= 2:
        options[COW] = counts[COW] >= 4
    for face in range(1, 6):
        if counts[face] >= 3:
            options[face] = counts[face] >= 4
    return options


class AusgeblocktState(State):
    """A position of Ausgeblockt.

    ``cells`` are the cells of X (seat 0) and of O (seat 1), start cells included; ``dice``
    is the last throw, ``kept`` the dice put aside for the next roll, ``attempts`` how many
    rolls this turn has had, ``chain`` the cell a chain-mode mark must touch (or -1).
    """

    __slots__ = ("_result", "attempts", "cells", "chain", "dice", "kept", "sheet", "side", "stage")

    NOTATION_HINT = "throw =1134C, roll again r13C, stop, mark d4, pass, lot first1"

    sheet: Sheet
    cells: tuple[int, int]
    side: int
    stage: int
    dice: tuple[int, ...]
    kept: tuple[int, ...]
    attempts: int
    chain: int
    _result: Result | None

    @classmethod
    def initial(cls, variant: Variant, sheet: Sheet | None = None) -> AusgeblocktState:
        sheet = sheet or default_sheet()
        cells = (_mask(sheet.starts(START_X)), _mask(sheet.starts(START_O)))
        first = seat_chosen(variant, "first")
        if first is None:
            return _make(variant, sheet, cells, 0, LOT, (), (), 0, -1, None)
        return _make(variant, sheet, cells, first, ROLL, (), (), 0, -1, None)

    # -- turn and result ------------------------------------------------------------------

    @property
    def to_move(self) -> int:
        if self._result is not None:
            return TERMINAL
        return CHANCE if self.stage in (LOT, ROLL) else self.side

    @property
    def roller(self) -> int | None:
        return self.side if self.stage == ROLL and self._result is None else None

    def result(self) -> Result | None:
        return self._result

    def chance_outcomes(self) -> list[tuple[int, Fraction]]:
        if self._result is not None:
            return []
        if self.stage == LOT:
            return lot_outcomes(2)
        if self.stage == ROLL:
            return list(roll_outcomes(DICE - len(self.kept)))
        return []

    def starts(self, seat: int) -> tuple[int, ...]:
        return self.sheet.starts(START_X if seat == 0 else START_O)

    def is_blocked(self, seat: int) -> bool:
        """Whether ``seat`` can no longer join its starts through its own and free cells."""
        free = FULL ^ self.cells[0] ^ self.cells[1]
        return not joins(self.starts(seat), self.cells[seat] | free)

    def winning_chain(self) -> int:
        """The winner's cells joined to its starts (for the client to highlight), else 0."""
        if self._result is None or not self._result.winners():
            return 0
        seat = self._result.winners()[0]
        return reach(1 << self.starts(seat)[0], self.cells[seat])

    # -- legal actions --------------------------------------------------------------------

    def _markable(self) -> list[int]:
        wanted = FULL ^ self.cells[0] ^ self.cells[1]
        if self.chain >= 0:
            wanted &= neighbourhood(1 << self.chain)
        masks = _symbol_masks(self.sheet)
        allowed = 0
        for symbol in mark_options(self.dice):
            allowed |= masks[symbol]
        wanted &= allowed
        cells = []
        while wanted:
            low = wanted & -wanted
            cells.append(low.bit_length() - 1)
            wanted ^= low
        return cells

    def _generate_legal(self) -> tuple[int, ...]:
        if self.stage == DECIDE:
            return (STOP, *reroll_choices(self.dice))
        return (*self._markable(), PASS)

    # -- applying -------------------------------------------------------------------------

    def _successor(self, action: int) -> AusgeblocktState:
        variant, sheet = self.variant, self.sheet
        if self.stage == LOT:
            return _make(variant, sheet, self.cells, action, ROLL, (), (), 0, -1, None)
        if self.stage == ROLL:
            dice = tuple(sorted(self.kept + dice_of(action)))
            attempts = self.attempts + 1
            if attempts < ATTEMPTS:
                return _make(
                    variant,
                    sheet,
                    self.cells,
                    self.side,
                    DECIDE,
                    dice,
                    (),
                    attempts,
                    self.chain,
                    None,
                )
            return self._to_marking(dice, attempts)
        if action == STOP:
            return self._to_marking(self.dice, self.attempts)
        if action >= REROLL_BASE:
            kept = list(self.dice)
            for face in dice_of(action - REROLL_BASE):
                kept.remove(face)
            return _make(
                variant,
                sheet,
                self.cells,
                self.side,
                ROLL,
                self.dice,
                tuple(kept),
                self.attempts,
                self.chain,
                None,
            )
        if action == PASS:
            return self._next_turn()
        return self._mark(action)

    def _to_marking(self, dice: tuple[int, ...], attempts: int) -> AusgeblocktState:
        """After the last roll: marking if the throw allows any mark, else the next turn."""
        marking = _make(
            self.variant,
            self.sheet,
            self.cells,
            self.side,
            MARK,
            dice,
            (),
            attempts,
            self.chain,
            None,
        )
        return marking if marking._markable() else self._next_turn()

    def _next_turn(self) -> AusgeblocktState:
        return _make(self.variant, self.sheet, self.cells, 1 - self.side, ROLL, (), (), 0, -1, None)

    def _mark(self, cell: int) -> AusgeblocktState:
        side = self.side
        cells = list(self.cells)
        cells[side] |= 1 << cell
        cells_t = (cells[0], cells[1])
        state = _make(self.variant, self.sheet, cells_t, side, ROLL, (), (), 0, cell, None)
        if joins(self.starts(side), cells[side]):
            state._result = Result.win_for(side, 2, Reason.CONNECTED)
        elif state.is_blocked(0) and state.is_blocked(1):
            state._result = Result.draw(2, Reason.BOTH_BLOCKED)
        elif not mark_options(self.dice)[self.sheet.symbols[cell]]:  # a normal mark
            state.side, state.chain = 1 - side, -1
        return state

    # -- notation -------------------------------------------------------------------------

    def _action_text(self, action: int) -> str:
        if self.stage == LOT:
            return lot_text("first", action)
        if self.stage == ROLL:
            return "=" + faces_text(dice_of(action))
        if action == PASS:
            return "pass"
        if action == STOP:
            return "stop"
        if action >= REROLL_BASE:
            return "r" + faces_text(dice_of(action - REROLL_BASE))
        return cell_name(action)

    def _parse(self, text: str) -> int | None:
        word = text.lower()
        if self.stage == LOT:
            return parse_lot("first", word)
        if word in ("pass", "stop"):
            return PASS if word == "pass" else STOP
        if word[:1] in ("=", "r"):
            faces = parse_faces(word[1:])
            if faces is None:
                return None
            return dice_code(faces) + (REROLL_BASE if word[0] == "r" else 0)
        return parse_cell(word)

    def _why_illegal(self, action: int, legal: Sequence[int]) -> str:
        if self.stage == DECIDE and action < REROLL_BASE:
            return "first stop rolling, or name the dice to roll again"
        if self.stage == DECIDE:
            return "those dice are not all on the table: the throw is " + faces_text(self.dice)
        if action >= REROLL_BASE or action == STOP:
            return "the rolling is over: mark a cell or pass"
        if (self.cells[0] | self.cells[1]) >> action & 1:
            return f"{cell_name(action)} is already marked"
        if self.chain >= 0 and not neighbourhood(1 << self.chain) >> action & 1:
            return f"in a chain the mark must touch {cell_name(self.chain)}"
        return f"the throw {faces_text(self.dice)} does not allow marking that symbol"

    # -- encoding and display -------------------------------------------------------------

    def to_fields(self) -> list[Any]:
        result = self._result.to_fields() if self._result else None
        return [
            list(self.cells),
            self.side,
            self.stage,
            list(self.dice),
            list(self.kept),
            self.attempts,
            self.chain,
            result,
        ]

    @classmethod
    def from_fields(cls, variant: Variant, fields: list[Any]) -> AusgeblocktState:
        cells, side, stage, dice, kept, attempts, chain, result = check_list(
            fields, 8, "ausgeblockt state"
        )
        sheet = default_sheet()
        cells = tuple(check_int(c, 0, FULL, "cells") for c in check_list(cells, 2, "cells"))
        starts = (_mask(sheet.starts(START_X)), _mask(sheet.starts(START_O)))
        if cells[0] & cells[1] or any(c & s != s for c, s in zip(cells, starts, strict=True)):
            raise DecodeError("marks overlap or a start cell is missing")
        dice = tuple(check_int(f, 1, 6, "die") for f in check_list(dice, None, "dice"))
        kept = tuple(check_int(f, 1, 6, "die") for f in check_list(kept, None, "kept dice"))
        stage = check_int(stage, LOT, MARK, "stage")
        if len(dice) not in (0, DICE) or len(kept) >= DICE or Counter(kept) - Counter(dice):
            raise DecodeError("the dice do not add up")
        if (stage in (DECIDE, MARK)) != (len(dice) == DICE) and stage != ROLL:
            raise DecodeError("the dice do not fit the stage")
        state = _make(
            variant,
            sheet,
            cells,
            check_int(side, 0, 1, "side"),
            stage,
            tuple(sorted(dice)),
            tuple(sorted(kept)),
            check_int(attempts, 0, ATTEMPTS, "attempts"),
            check_int(chain, -1, CELLS - 1, "chain"),
            None if result is None else Result.from_fields(result),
        )
        if stage == MARK and result is None and not state._markable():
            raise DecodeError("marking, but the throw allows no mark")
        return state

    def _describe(self) -> tuple[str, str]:
        rows = []
        for row in range(SHEET_SIZE - 1, -1, -1):
            line = []
            for col in range(SHEET_SIZE):
                cell = row * SHEET_SIZE + col
                if self.cells[0] >> cell & 1:
                    line.append("X")
                elif self.cells[1] >> cell & 1:
                    line.append("O")
                else:
                    line.append(FACE_LETTERS[self.sheet.symbols[cell]].lower())
            rows.append(f"{row + 1} " + " ".join(line))
        rows.append("  a b c d e f g")
        stage = ("drawing lots", "to roll", "to roll again or stop", "to mark")[self.stage]
        status = f"{SIDE_NAMES[self.side]} {stage}"
        if self.dice:
            status += f", throw {faces_text(self.dice)} after {self.attempts} of 3"
        if self.kept:
            status += f", keeping {faces_text(self.kept)}"
        if self.chain >= 0:
            status += f", chain from {cell_name(self.chain)}"
        return "\n".join(rows), status


@cache
def _symbol_masks(sheet: Sheet) -> dict[int, int]:
    """For each symbol, the mask of the sheet's cells that show it."""
    masks: dict[int, int] = {}
    for cell, symbol in enumerate(sheet.symbols):
        masks[symbol] = masks.get(symbol, 0) | 1 << cell
    return masks


def _mask(cells: tuple[int, ...]) -> int:
    return sum(1 << c for c in cells)


def _make(
    variant: Variant,
    sheet: Sheet,
    cells: tuple[int, int],
    side: int,
    stage: int,
    dice: tuple[int, ...],
    kept: tuple[int, ...],
    attempts: int,
    chain: int,
    result: Result | None,
) -> AusgeblocktState:
    state = object.__new__(AusgeblocktState)
    state.variant = variant
    state._legal = None
    state.sheet = sheet
    state.cells = cells
    state.side = side
    state.stage = stage
    state.dice = dice
    state.kept = kept
    state.attempts = attempts
    state.chain = chain
    state._result = result
    return state
