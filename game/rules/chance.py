"""Chance outcomes chosen from randomness given from outside, each exactly to its probability.

The engine draws nothing itself: local play hands these functions a seeded generator
(``game.session.dice``), network play the fair dice's shared randomness (``net.fairdice``).

>>> import random
>>> from game.rules import new_game
>>> state = new_game("numeri", players=2, first=1)
>>> outcome_at(state.chance_outcomes(), 0), outcome_at(state.chance_outcomes(), 5)
(1, 6)
>>> random_action(state, random.Random(7)) in range(1, 8)
True
"""

from __future__ import annotations

from math import lcm
from typing import TYPE_CHECKING, Protocol

from game.rules.core import Action, RulesError

if TYPE_CHECKING:
    from collections.abc import Sequence
    from fractions import Fraction

    from game.rules.core import State


class Randomness(Protocol):
    """What a playout needs of a generator: ``random.Random`` has it."""

    def randrange(self, stop: int, /) -> int: ...

    def choice(self, seq: Sequence[Action], /) -> Action: ...


def common_denominator(outcomes: Sequence[tuple[Action, Fraction]]) -> int:
    """The number of equal shares every outcome's probability is a whole number of."""
    return lcm(*(p.denominator for _, p in outcomes))


def outcome_at(
    outcomes: Sequence[tuple[Action, Fraction]], point: int, denominator: int | None = None
) -> Action:
    """The outcome whose shares hold ``point`` (0 ≤ point < the common denominator, which a
    caller that has it already may pass): each outcome takes as many shares as its
    probability is worth, in order, so a uniform point gives each outcome exactly its
    probability."""
    if denominator is None:
        denominator = common_denominator(outcomes)
    if not 0 <= point < denominator:
        raise RulesError(f"point {point} is outside 0…{denominator - 1}")
    for outcome, probability in outcomes:
        point -= probability.numerator * (denominator // probability.denominator)
        if point < 0:
            return outcome
    raise RulesError("the probabilities do not add up to 1")


def draw_outcome(outcomes: Sequence[tuple[Action, Fraction]], rng: Randomness) -> Action:
    """One outcome drawn with ``rng``, each exactly with its probability."""
    denominator = common_denominator(outcomes)
    return outcome_at(outcomes, rng.randrange(denominator), denominator)


def random_action(state: State, rng: Randomness) -> Action:
    """The next action of a random playout: a chance outcome drawn to its probability, or a
    legal action chosen uniformly."""
    if state.is_chance():
        return draw_outcome(state.chance_outcomes(), rng)
    return rng.choice(state.legal_actions())  # draws as randrange(len(...)) would, quicker
