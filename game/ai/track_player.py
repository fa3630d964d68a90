"""Numeri: judgements of the pawns for every level, and Monte-Carlo playouts for *hard*.

A judgement scores each seat's pawns — pawn number times the value of its space, plus an
allowance for how far it has come (a pawn far along will end on a high value), a charge for
a pawn still waiting, a bonus for the seat that rolls next — and compares the seat with the
best placed other one; a move that ends the game is a win or a loss before it is points.
*Easy* judges by the points as they stand, as a casual player counts them, and often plays
any of its three best moves; *medium* plays its best move by a rough judgement set by hand.
The other rungs of the ladder lie between and around them (:data:`STYLES`).

*Hard* judges with the weights tuned by self-play (``WEIGHTS["numeri"]``,
``tools/tune_weights.py``), takes a win that is there at once and otherwise checks its
choice by playing its most promising moves out to the end of the game, every player moving
as the tuned judgement says.  All candidates meet the same dice (common random numbers), so
they are compared on equal luck; after a few rounds only the judgement's choice and its
strongest rival go on.  The rival is played only when it wins more often beyond doubt —
playouts are noisy, and a move picked by noise is worse than the judgement's.  The node
budget counts positions visited in playouts; when it runs out, the rounds finished so far
decide, so the answer never depends on the clock.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

from game.ai.search import Stopped
from game.ai.weights import WEIGHTS
from game.levels import rung
from game.rules.numeri import CHOOSE, OFF, OFF_TRACK_VALUE, PAWNS, ROLL, NumeriState

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from game.ai.search import Budget

POINTS: dict[str, float] = {"waiting": OFF_TRACK_VALUE, "advance": 0, "to_roll": 0}
"""*Easy*'s judgement: the score as it stands."""

ROUGH: dict[str, float] = {"waiting": -3, "advance": 0.15, "to_roll": 2}
"""*Medium*'s judgement, set by hand: the score, a little for being further on, waiting pawns
charged less than their penalty, a bonus for the next roll."""


@dataclass(frozen=True, slots=True)
class TrackStyle:
    """One rung's decisions."""

    weights: Mapping[str, float]
    """The judgement."""
    slip: float = 0.0
    """How often it picks at random among its three best moves instead of the best."""
    playouts: bool = False
    """Whether it checks its choice by playing out (with the level's node budget)."""


STYLES: tuple[TrackStyle, ...] = (
    TrackStyle(POINTS, slip=0.8),
    TrackStyle(POINTS, slip=0.5),  # easy
    TrackStyle(POINTS, slip=0.2),
    TrackStyle(ROUGH, slip=0.2),
    TrackStyle(ROUGH),  # medium
    TrackStyle(WEIGHTS["numeri"]),
    TrackStyle(WEIGHTS["numeri"], playouts=True),
    TrackStyle(WEIGHTS["numeri"], playouts=True),  # hard: a larger budget
)
"""Numeri by rung, weakest first."""

ENDED = 100_000
"""What the judgement adds for a game that ends won (and takes off for one that ends lost):
more than any position can be worth."""

CANDIDATES = 4
"""*Hard* plays out at most this many moves, the ones the judgement likes best."""

ROUNDS = 100
"""Playouts per candidate move at most (fewer when the budget runs out)."""

DUEL_AFTER = 16
"""Rounds after which only the judgement's choice and the best other candidate go on."""

PROOF = 2.0
"""How many standard errors a candidate must win more by to overrule the judgement."""


def choose(state: NumeriState, level: str, rng: random.Random, budget: Budget | None = None) -> int:
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    seat = state.to_move
    style = STYLES[rung(level) - 1]
    judged = sorted(legal, key=lambda a: (-judge(state._successor(a), seat, style.weights), a))
    best = state._successor(judged[0]).result()
    if style.playouts and (best is None or best.winners() != (seat,)):
        return _played_out(state, judged[:CANDIDATES], rng, budget)
    if style.slip and rng.random() < style.slip:
        return rng.choice(judged[:3])
    return judged[0]


def judge(state: NumeriState, seat: int, weights: Mapping[str, float]) -> float:
    """How good the pawns stand for ``seat`` against the best placed other seat; a game
    that has ended counts as won or lost before anything else."""
    result = state.result()
    if result is not None:
        margin = _lead(state.scores(), seat)
        return margin + (ENDED if margin > 0 else -ENDED if margin < 0 else 0)
    values = state.track.values
    waiting, advance = weights["waiting"], weights["advance"]
    totals: list[float] = []
    for who, own in enumerate(state.pawns):
        score: float = 0
        for pawn, at in zip(PAWNS, own, strict=True):
            score += pawn * (waiting if at == OFF else values[at] + advance * at)
        if who == state.side and state.stage == ROLL:
            score += weights["to_roll"]
        totals.append(score)
    return _lead(totals, seat)


def _lead(totals: Sequence[float], seat: int) -> float:
    """How far ``seat``'s total is ahead of the best other seat's (negative: behind)."""
    return totals[seat] - max(t for who, t in enumerate(totals) if who != seat)


def judged_best(state: NumeriState, weights: Mapping[str, float]) -> int:
    """The move the judgement with ``weights`` prefers (the lowest action among equals)."""
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    seat = state.side
    return max(legal, key=lambda a: (judge(state._successor(a), seat, weights), -a))


def _played_out(
    state: NumeriState, candidates: list[int], rng: random.Random, budget: Budget | None
) -> int:
    """The judgement's first choice, unless judgement-driven playouts on common dice show
    another candidate winning more often beyond doubt (by ``PROOF`` standard errors of the
    paired differences, over at least ``DUEL_AFTER`` rounds).
    """
    seat = state.to_move
    reference = candidates[0]
    base = rng.getrandbits(64)
    after = {action: state._successor(action) for action in candidates}
    wins = dict.fromkeys(candidates, 0.0)
    margin: dict[int, float] = dict.fromkeys(candidates, 0)
    spread = dict.fromkeys(candidates, 0.0)  # squared differences with the reference, summed
    alive = list(candidates)
    rounds = 0

    def standing(action: int) -> tuple[float, float, int]:
        return wins[action], margin[action], -candidates.index(action)

    def proven(action: int) -> bool:
        if action == reference:
            return True
        if rounds < DUEL_AFTER:
            return False
        mean = (wins[action] - wins[reference]) / rounds  # both played every round
        variance = spread[action] / rounds - mean * mean
        return mean > 0 and mean * mean * rounds > PROOF**2 * variance

    try:
        for playout in range(ROUNDS):
            if playout == DUEL_AFTER:
                alive = [reference, max(alive[1:], key=standing)]
            finals = {
                action: play_out(after[action], random.Random(base + playout), budget)
                for action in alive
            }
            shares = {}
            for action, scores in finals.items():
                top = max(scores)
                shares[action] = 1 / scores.count(top) if scores[seat] == top else 0.0
                margin[action] += _lead(scores, seat)
            for action, share in shares.items():
                wins[action] += share
                spread[action] += (share - shares[reference]) ** 2
            rounds += 1
    except Stopped:
        pass  # the finished rounds decide: a round cut short is not counted
    return max(filter(proven, alive), key=standing)


def play_out(state: NumeriState, dice: random.Random, budget: Budget | None) -> tuple[int, ...]:
    """The final scores after playing ``state`` to the end, every seat following the
    judgement and the die drawn from ``dice``."""
    weights = WEIGHTS["numeri"]
    while state.result() is None:
        if budget is not None:
            budget.spend()
        # After a move the only chance event left is the die (who begins is long decided).
        state = state._successor(
            judged_best(state, weights) if state.stage == CHOOSE else dice.randint(1, 6)
        )
    return state.scores()
