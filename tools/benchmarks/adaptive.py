"""``python tools/bench.py ai adaptive``: the adaptive opponent against simulated people, the
rule as shipped beside the one before it (Elo's update, then the rung nearest the rating).

A simulated person has a fixed strength on a game's ladder and scores against each level as
Elo's model says, a draw one time in ten.  For every game, people from each rung to the
next (a quarter of the way at a time, three seeds each) play ``matches`` matches starting
three rungs away; over the last ``judged`` the report gives their score (the target is
even), how far the rating their profile shows is from their strength (and for people 100
to 300 points beyond either end of the ladder, who can only meet its end), and how many
matches a person who wins every match takes from level 1 to *hard* (and one who loses
every match back).  Nothing is random beyond the seeded simulation: the figures are the
same on every machine.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from game.levels import LADDER, RUNGS, rung
from game.levels.ratings import expected
from game.levels.table import steering
from game.rules import VARIANTS
from game.session.adaptive import K_FIRST, K_SETTLED, Standing

Rule = Callable[[Standing, str, str, float], Standing]


def shipped(standing: Standing, game: str, level: str, score: float) -> Standing:
    return standing.after(game, level, score)


def nearest(standing: Standing, game: str, level: str, score: float) -> Standing:
    """The rule before the mix: Elo's update, then the rung nearest the rating, one rung a
    match at most."""
    played = rung(level)
    step = max(K_SETTLED, K_FIRST / (1 + standing.matches / 10))
    rating = standing.rating + step * (score - expected(standing.rating, steering(game, played)))
    near = min(range(1, RUNGS + 1), key=lambda n: abs(steering(game, n) - rating))
    moved = played + max(-1, min(1, near - played))
    return replace(standing, rating=rating, matches=standing.matches + 1, level=LADDER[moved - 1])


RULES: dict[str, Rule] = {"shipped": shipped, "nearest": nearest}


def _series(rule: Rule, game: str, strength: float, seed: int, start: str,
            matches: int, judged: int) -> tuple[float, float]:  # fmt: skip
    """A simulated person's score over the judged matches, and the mean error of the
    rating shown meanwhile."""
    rng = random.Random(seed)
    standing = Standing.starting(game, start)
    points, errors = 0.0, []
    for match in range(matches):
        p = expected(strength, steering(game, rung(standing.level)))
        roll = rng.random()
        score = 0.5 if roll > 0.9 else float(roll < 0.9 * p)
        if match >= matches - judged:
            points += score
            errors.append(standing.rating - strength)
        standing = rule(standing, game, standing.level, score)
    return points / judged, statistics.fmean(errors)


def _run_one_way(rule: Rule, game: str, start: str, end: str, score: float) -> int | None:
    """Matches from ``start`` to ``end`` for a person who scores ``score`` every time
    (None: not within a thousand)."""
    standing = Standing.starting(game, start)
    for count in range(1, 1001):
        standing = rule(standing, game, standing.level, score)
        if standing.level == end:
            return count
    return None


def bench_adaptive(matches: int, judged: int) -> dict[str, Any]:
    began = time.perf_counter()
    games: dict[str, Any] = {}
    for game in VARIANTS:
        games[game] = {}
        for name, rule in RULES.items():
            scores, errors = [], []
            for lower in range(1, RUNGS):
                low, high = steering(game, lower), steering(game, lower + 1)
                start = LADDER[(lower + 3) % RUNGS]
                for between in (0.0, 0.25, 0.5, 0.75):
                    strength = low + between * (high - low)
                    for seed in range(3):
                        score, error = _series(rule, game, strength, seed, start, matches, judged)
                        scores.append(score)
                        errors.append(error)
            beyond = [
                _series(rule, game, steering(game, end) + offset, seed, "medium", matches, judged)[
                    1
                ]
                for end, offsets in ((1, (-100, -200, -300)), (RUNGS, (100, 200, 300)))
                for offset in offsets
                for seed in range(3)
            ]
            games[game][name] = {
                "people": len(scores),
                "score_min": round(min(scores), 3),
                "score_max": round(max(scores), 3),
                "outside_40_60": sum(not 0.4 <= s <= 0.6 for s in scores),
                "rating_error_worst": round(max(errors, key=abs)),
                "beyond_the_ends_error_worst": round(max(beyond, key=abs)),
                "climb_all_wins": _run_one_way(rule, game, "level-1", "hard", 1.0),
                "fall_all_losses": _run_one_way(rule, game, "hard", "level-1", 0.0),
            }
    return {
        "benchmark": "ai adaptive",
        "matches": matches,
        "judged": judged,
        "games": games,
        "seconds": round(time.perf_counter() - began, 1),
    }
