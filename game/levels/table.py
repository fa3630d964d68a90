"""The ladder's measured ratings per game, as ``tools/bench.py ai ladder --write`` stored
them in ``assets/ai/ladder.json``: what the setup shows ("Level 5 · about 1450"), what the
engine protocol's ``levels`` reports and what the adaptive opponent steers by.

A game whose ladder has not been measured has no ratings (None): the setup then shows the
levels without, and the adaptive opponent assumes :data:`NOMINAL_STEP` points a rung.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass

from game.levels import RUNGS
from game.resources import asset_text

FILE = "ai/ladder.json"

ANCHOR = 1000
"""The beginner's rating (level 1): the scale's zero point, fixed by choice."""

NOMINAL_STEP = 150
"""Rating points a rung is assumed to add where the game's ladder is not measured."""


@dataclass(frozen=True, slots=True)
class Measured:
    """One game's ladder as measured."""

    ratings: tuple[float, ...]
    """Each rung's rating, weakest first."""
    low: tuple[float, ...]
    """The 95 % intervals' ends."""
    high: tuple[float, ...]
    games: int
    """Games per pair of neighbouring rungs."""


@functools.cache
def measured() -> dict[str, Measured]:
    """Every measured game's ladder, by variant name."""
    data = json.loads(asset_text(FILE))
    out = {}
    for name, entry in data["games"].items():
        rows = entry["ratings"]
        if len(rows) != RUNGS:
            raise ValueError(f"{FILE}: {name} has {len(rows)} rungs, not {RUNGS}")
        ratings, low, high = (tuple(float(row[i]) for row in rows) for i in range(3))
        out[name] = Measured(ratings, low, high, int(entry["games_per_pair"]))
    return out


def rating(variant: str, rung: int) -> float | None:
    """The rating of ``rung`` (1…RUNGS) at ``variant``, None if not measured."""
    ladder = measured().get(variant)
    return None if ladder is None else ladder.ratings[rung - 1]


def steering(variant: str, rung: int) -> float:
    """The rating the adaptive opponent takes ``rung`` to have at ``variant``: measured, or
    the nominal one."""
    found = rating(variant, rung)
    return ANCHOR + NOMINAL_STEP * (rung - 1) if found is None else found
