"""Ratings on the Elo scale fitted to a round-robin's results, by maximum likelihood.

The model is Bradley–Terry's on Elo's scale: a player rated ``a`` scores against one rated
``b`` on average ``expected(a, b) = 1 / (1 + 10 ** ((b - a) / 400))``, a draw counting half.
:func:`fit` finds the ratings under which the results seen are likeliest, with one rating
held at a stated value (the anchor: the scale says only how far apart players are), and
each rating's confidence interval from the Fisher information (the curvature of the
log-likelihood at its top; the anchor's interval is the rating itself).

A pair whose every game went one way would drive the two ratings infinitely far apart, so
every pair that met is given one more game, drawn (``prior_draws``): a weak pull together
that long series outweigh.  Ratings of players that no chain of games joins to the anchor
cannot be fitted (ValueError).

>>> fitted = fit([Tally(0, 1, wins=30, draws=0, losses=10)], players=2, anchor=(0, 1000))
>>> [round(r.rating) for r in fitted]
[1000, 815]
"""

from __future__ import annotations

import math
from dataclasses import dataclass

SCALE = 400 / math.log(10)
"""Rating points per unit of the logistic's argument."""

Z95 = 1.959963984540054
"""The normal distribution's 97.5th percentile: intervals are 95 % ones."""


def expected(rating: float, other: float) -> float:
    """The average score of a player rated ``rating`` against one rated ``other``."""
    return 1 / (1 + 10 ** ((other - rating) / 400))


@dataclass(frozen=True, slots=True)
class Tally:
    """The games between two players, from the first one's side."""

    first: int
    second: int
    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        """The first player's points (a draw is half a point)."""
        return self.wins + self.draws / 2


@dataclass(frozen=True, slots=True)
class Rating:
    player: int
    rating: float
    low: float
    """The 95 % confidence interval's lower end."""
    high: float


def fit(
    tallies: list[Tally],
    players: int,
    anchor: tuple[int, float],
    prior_draws: float = 1.0,
    iterations: int = 100,
) -> list[Rating]:
    """Every player's rating (players numbered 0…``players - 1``) with its interval, the
    player ``anchor[0]`` held at ``anchor[1]`` (Newton's method on the log-likelihood)."""
    fixed, value = anchor
    games = [(t.first, t.second, t.score + prior_draws / 2, t.games + prior_draws)
             for t in tallies if t.games or prior_draws]  # fmt: skip
    free = [p for p in range(players) if p != fixed]
    _check_joined(games, players, fixed)
    x = [0.0] * players  # in logistic units, the anchor at 0
    for _ in range(iterations):
        gradient, fisher = _derivatives(games, x, free)
        step = _solve(fisher, gradient)
        for index, player in enumerate(free):
            x[player] += max(-3.0, min(3.0, step[index]))  # damped: far starts stay stable
        if max((abs(s) for s in step), default=0.0) < 1e-10:
            break
    _, fisher = _derivatives(games, x, free)
    variances = _inverse_diagonal(fisher)
    out = []
    for player in range(players):
        rating = value + SCALE * x[player]
        spread = 0.0 if player == fixed else Z95 * SCALE * math.sqrt(variances[free.index(player)])
        out.append(Rating(player, rating, rating - spread, rating + spread))
    return out


def _derivatives(
    games: list[tuple[int, int, float, float]], x: list[float], free: list[int]
) -> tuple[list[float], list[list[float]]]:
    """The log-likelihood's gradient over the free players and its negated Hessian (the
    observed Fisher information)."""
    where = {player: index for index, player in enumerate(free)}
    gradient = [0.0] * len(free)
    fisher = [[0.0] * len(free) for _ in free]
    for a, b, score, count in games:
        p = 1 / (1 + math.exp(x[b] - x[a]))
        residual, weight = score - count * p, count * p * (1 - p)
        for player, sign in ((a, 1.0), (b, -1.0)):
            if player in where:
                gradient[where[player]] += sign * residual
        for i in (a, b):
            for j in (a, b):
                if i in where and j in where:
                    fisher[where[i]][where[j]] += weight if i == j else -weight
    return gradient, fisher


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """``matrix⁻¹ · vector`` by Gaussian elimination with partial pivoting."""
    n = len(vector)
    rows = [[*matrix[i], vector[i]] for i in range(n)]
    for column in range(n):
        pivot = max(range(column, n), key=lambda r: abs(rows[r][column]))
        rows[column], rows[pivot] = rows[pivot], rows[column]
        if abs(rows[column][column]) < 1e-300:
            raise ValueError("the ratings cannot be told apart: the results are singular")
        for r in range(n):
            if r != column:
                factor = rows[r][column] / rows[column][column]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[column], strict=True)]
    return [rows[i][n] / rows[i][i] for i in range(n)]


def _inverse_diagonal(matrix: list[list[float]]) -> list[float]:
    """The diagonal of ``matrix``'s inverse (the variances of the estimates)."""
    n = len(matrix)
    return [_solve(matrix, [1.0 if j == i else 0.0 for j in range(n)])[i] for i in range(n)]


def _check_joined(games: list[tuple[int, int, float, float]], players: int, fixed: int) -> None:
    """ValueError unless every player is joined to the anchor by a chain of games."""
    reached, frontier = {fixed}, [fixed]
    while frontier:
        here = frontier.pop()
        for a, b, _, _ in games:
            for near in (b,) if a == here else (a,) if b == here else ():
                if near not in reached:
                    reached.add(near)
                    frontier.append(near)
    if len(reached) < players:
        missing = sorted(set(range(players)) - reached)
        raise ValueError(f"players {missing} played nobody joined to the anchor")
