"""Who plays White: colour preferences and their allocation in a Swiss pairing (after FIDE's
Dutch system, C.04.3 A.6 and C.04.3.1 E).

A player's colour history counts only games played over the board (a bye or a forfeit gives
no colour). From it comes a preference:

- **absolute** for White when the player has two blacks more than whites, or had Black in
  the last two games played (for Black likewise): two players with the same absolute
  preference are not paired (in the first attempt; see ``swiss``);
- **strong** for White when one black more than whites (for Black likewise);
- **mild** for the colour not had in the last game, when as many whites as blacks;
- **none** before the first game played.

Granting every absolute preference is what keeps the two guarantees: nobody has one colour
three times running, and nobody's whites and blacks differ by more than two.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum

from game.tournament.model import Colour


class Strength(IntEnum):
    NONE = 0
    MILD = 1
    STRONG = 2
    ABSOLUTE = 3


@dataclass(frozen=True)
class Preference:
    strength: Strength
    colour: Colour | None


def difference(history: Sequence[Colour]) -> int:
    """Whites less blacks."""
    return sum(1 if c is Colour.WHITE else -1 for c in history)


def preference(history: Sequence[Colour]) -> Preference:
    """The colour a player with these colours (games played, oldest first) should have."""
    if not history:
        return Preference(Strength.NONE, None)
    diff = difference(history)
    last_two = tuple(history[-2:])
    if diff <= -2 or last_two == (Colour.BLACK, Colour.BLACK):
        return Preference(Strength.ABSOLUTE, Colour.WHITE)
    if diff >= 2 or last_two == (Colour.WHITE, Colour.WHITE):
        return Preference(Strength.ABSOLUTE, Colour.BLACK)
    if diff:
        return Preference(Strength.STRONG, Colour.WHITE if diff < 0 else Colour.BLACK)
    return Preference(Strength.MILD, history[-1].other)


def clash(a: Preference, b: Preference) -> bool:
    """Whether two players with these preferences cannot meet without one of them losing
    an absolute preference."""
    return a.strength == b.strength == Strength.ABSOLUTE and a.colour == b.colour


def wants_differ(a: Preference, b: Preference) -> bool:
    """Whether both can have the colour they prefer (one has none, or they prefer
    different colours)."""
    return a.colour is None or b.colour is None or a.colour != b.colour


def higher_gets(higher: Sequence[Colour], lower: Sequence[Colour], board: int) -> Colour:
    """The colour of the higher-ranked player of a pair on ``board`` (from 1):

    1. neither has a preference: White on odd boards, Black on even ones;
    2. only one has one, or they differ: each has their preference;
    3. both prefer the same colour: the stronger preference has it; between two absolute
       ones the larger colour difference; then, looking back from the last game each
       played, at the latest point where their colours differed each has the colour they
       did not have then; else the higher-ranked player has their preference.
    """
    a, b = preference(higher), preference(lower)
    if a.colour is None and b.colour is None:
        return Colour.WHITE if board % 2 else Colour.BLACK
    if b.colour is None or (a.colour is not None and a.colour != b.colour):
        assert a.colour is not None
        return a.colour
    if a.colour is None:
        return b.colour.other
    if a.strength != b.strength:
        return a.colour if a.strength > b.strength else a.colour.other
    if a.strength == Strength.ABSOLUTE:
        da, db = abs(difference(higher)), abs(difference(lower))
        if da != db:
            return a.colour if da > db else a.colour.other
    for mine, theirs in zip(reversed(higher), reversed(lower), strict=False):
        if mine != theirs:
            return mine.other
    return a.colour
