"""The dice of an Ausgeblockt turn as multisets, and the exact reroll dynamic programme.

Dice are interchangeable, so a throw of five is one of 252 multisets and what a player keeps
one of 462; rolling the others gives each throw with its exact probability.  For a value
``V(D)`` of ending the turn on throw ``D`` (the computer's worth of its best mark, or 1 for
a throw that can mark and 0 otherwise — which makes the expectation a probability), keeping
``K`` with ``r`` rolls left, this one included, is worth ``E_r(K) = Σ P(o)·best_{r-1}(K + o)``
over the throws ``o`` of the other dice, where ``best_r(D) = max(V(D), max over K ⊂ D of
E_r(K))`` and ``best_0 = V``: a few thousand products per roll left.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from itertools import combinations, combinations_with_replacement

from game.rules.ausgeblockt import dice_of, roll_outcomes

FACES = (1, 2, 3, 4, 5, 6)
Dice = tuple[int, ...]


@cache
def throws() -> tuple[Dice, ...]:
    """Every throw of five dice, sorted."""
    return tuple(combinations_with_replacement(FACES, 5))


@cache
def kept_sets() -> tuple[Dice, ...]:
    """Every multiset of 0 to 5 dice a player can keep."""
    return tuple(k for n in range(6) for k in combinations_with_replacement(FACES, n))


@cache
def transitions() -> dict[Dice, tuple[tuple[Dice, float], ...]]:
    """For each kept multiset: the five-dice throws it can become, with probabilities."""
    return {
        kept: tuple(
            (tuple(sorted(kept + dice_of(code))), float(p))
            for code, p in roll_outcomes(5 - len(kept))
        )
        for kept in kept_sets()
    }


@cache
def keepable(dice: Dice) -> tuple[Dice, ...]:
    """The sub-multisets of a throw that could be kept (itself included: stopping)."""
    found = {
        tuple(sorted(dice[i] for i in picked))
        for n in range(len(dice) + 1)
        for picked in combinations(range(len(dice)), n)
    }
    return tuple(sorted(found))


def expectations(value: Mapping[Dice, float], rolls: int) -> list[dict[Dice, float]]:
    """``[E_1, …, E_rolls]``: for every kept multiset, its worth with that many rolls left."""
    table = transitions()
    best: Mapping[Dice, float] = value
    found = []
    for _ in range(rolls):
        expect = {kept: sum(p * best[after] for after, p in table[kept]) for kept in kept_sets()}
        found.append(expect)
        best = {d: max([value[d], *(expect[k] for k in keepable(d) if k != d)]) for d in throws()}
    return found


def keep_values(
    dice: Dice,
    rolls_left: int,
    value: Mapping[Dice, float],
    tables: list[dict[Dice, float]] | None = None,
) -> dict[Dice, float]:
    """What each choice on throw ``dice`` is worth with ``rolls_left`` rolls to come: keeping
    ``K`` (rolling the others) is ``E_rolls_left(K)``, keeping all (stopping) is ``V(dice)``.
    ``tables``: :func:`expectations` of ``value`` already made, for at least that many rolls."""
    expect = (tables or expectations(value, rolls_left))[rolls_left - 1]
    return {k: value[dice] if k == dice else expect[k] for k in keepable(dice)}


def plan_roll(dice: Dice, rolls_left: int, value: Mapping[Dice, float]) -> Dice:
    """The multiset to keep (all of ``dice`` means stop) that maximises the expected value."""
    # Rounded, so that sums of probabilities a hair over 1 do not beat stopping on a tie.
    options = {k: round(v, 9) for k, v in keep_values(dice, rolls_left, value).items()}
    return max(options, key=lambda k: (options[k], k == dice, k))
