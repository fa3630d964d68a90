"""The printed boards that are data rather than rules: the Ausgeblockt sheet and the Numeri
track.  They are parsed from text, so that other sheets and tracks can be added; the
defaults of RULES.md ship under ``assets/rules/`` and are read once, when first needed —
the engine's only contact with files, which it never writes.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from game.resources import asset_text
from game.rules.core import RulesError

COW = 6
"""The cow face of an Ausgeblockt die and the cow symbol of a sheet cell (faces are 1–5)."""
START_X, START_O = 7, 8
SHEET_SIZE = 7
SYMBOL_LETTERS = {"1": 1, "2": 2, "3": 3, "4": 4, "5": 5, "C": COW, "X": START_X, "O": START_O}


@dataclass(frozen=True, slots=True)
class Sheet:
    """An Ausgeblockt sheet: the symbol of each cell, cell ``row * 7 + col`` with a1 = 0."""

    symbols: tuple[int, ...]

    @classmethod
    def parse(cls, text: str) -> Sheet:
        """A sheet written as in RULES.md: seven rows, top row first, each led by its number."""
        rows: dict[int, list[int]] = {}
        for number, raw in enumerate(text.splitlines(), 1):
            line = raw.split("#")[0].split()
            if not line:
                continue
            if len(line) != SHEET_SIZE + 1 or not line[0].isdigit():
                raise RulesError(f"sheet line {number}: expected a row number and 7 symbols")
            row = int(line[0])
            if not 1 <= row <= SHEET_SIZE or row in rows:
                raise RulesError(f"sheet line {number}: row {row} is out of place")
            try:
                rows[row] = [SYMBOL_LETTERS[s.upper()] for s in line[1:]]
            except KeyError as error:
                raise RulesError(f"sheet line {number}: unknown symbol {error}") from None
        if sorted(rows) != list(range(1, SHEET_SIZE + 1)):
            raise RulesError("a sheet has rows 1 to 7")
        symbols = tuple(s for row in range(1, SHEET_SIZE + 1) for s in rows[row])
        if symbols.count(START_X) != 3 or symbols.count(START_O) != 3:
            raise RulesError("a sheet has three start crosses and three start circles")
        return cls(symbols)

    def starts(self, symbol: int) -> tuple[int, ...]:
        return tuple(i for i, s in enumerate(self.symbols) if s == symbol)


@dataclass(frozen=True, slots=True)
class Track:
    """A Numeri track: the value of each space (0 for none), the last three being the end
    spaces, and after which space the barrier stands for each number of players."""

    values: tuple[int, ...]
    barriers: tuple[tuple[int, int], ...]

    @property
    def length(self) -> int:
        return len(self.values)

    def barrier(self, players: int) -> int:
        """The space after which the active barrier stands."""
        return dict(self.barriers)[players]

    @classmethod
    def parse(cls, text: str) -> Track:
        values: list[int] = []
        barriers: dict[int, int] = {}
        for number, raw in enumerate(text.splitlines(), 1):
            words = raw.split("#")[0].split()
            if not words:
                continue
            try:
                if words[0] == "barrier" and len(words) == 3:
                    barriers[int(words[1])] = int(words[2])
                    continue
                if len(words) != 2 or int(words[0]) != len(values):
                    raise ValueError
                values.append(0 if words[1] == "." else int(words[1]))
            except ValueError:
                raise RulesError(
                    f"track line {number}: expected 'SPACE VALUE' in order "
                    "or 'barrier PLAYERS SPACE'"
                ) from None
        if len(values) < 8 or set(barriers) != {2, 3, 4}:
            raise RulesError("a track needs its spaces and a barrier for 2, 3 and 4 players")
        if not all(0 <= s < len(values) - 4 for s in barriers.values()):
            raise RulesError("a barrier must stand before the end spaces")
        return cls(tuple(values), tuple(sorted(barriers.items())))


@cache
def default_sheet() -> Sheet:
    return Sheet.parse(asset_text("rules/ausgeblockt-sheet.txt"))


@cache
def default_track() -> Track:
    return Track.parse(asset_text("rules/numeri-track.txt"))
