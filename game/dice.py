"""Local dice: chance outcomes drawn from a seeded generator, exactly to their probabilities.

The rules engine never draws randomness; in local play this is where outcomes come from
(in network play, the shared fair-dice protocol takes its place).
"""

from __future__ import annotations

import random
from fractions import Fraction
from math import lcm
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from game.rules import State


def draw_outcome(outcomes: list[tuple[int, Fraction]], rng: random.Random) -> int:
    """One outcome, each with exactly its probability: a uniform whole number below the
    common denominator is mapped onto the cumulative distribution."""
    denominator = lcm(*(p.denominator for _, p in outcomes))
    point = rng.randrange(denominator)
    for outcome, probability in outcomes:
        point -= probability.numerator * (denominator // probability.denominator)
        if point < 0:
            return outcome
    raise ValueError("the probabilities do not add up to 1")


def random_action(state: State, rng: random.Random) -> int:
    """The next action of a random playout: a chance outcome drawn to its probability, or a
    legal action chosen uniformly."""
    if state.is_chance():
        return draw_outcome(state.chance_outcomes(), rng)
    legal = state.legal_actions()
    return legal[rng.randrange(len(legal))]
