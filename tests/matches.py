"""Finished matches for tests: random play to the end, from the first seed whose result a
test wants."""

from __future__ import annotations

import random
from collections.abc import Callable

from game.rules import Result, variant
from game.session.match import Match
from game.session.seats import Seat


def finished(
    name: str, seats: list[Seat], want: Callable[[Result], bool] = lambda result: True
) -> Match:
    """A match of ``name`` for ``seats``, played at random to its end, whose result ``want``
    accepts (the first such seed from 1)."""
    for seed in range(1, 500):
        match = Match.new(variant(name, len(seats)), seats, seed)
        match.play_randomly(random.Random(seed))
        if want(match.state.result()):
            return match
    raise AssertionError(f"no {name} match of random play ends as wanted")
