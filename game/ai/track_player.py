"""Numeri: a judgement of the pawns for the weaker levels, Monte-Carlo playouts for *hard*.

A judgement scores each seat's pawns — pawn number times the value of its space, plus an
allowance for how far it has come (a pawn far along will end on a high value), a charge for a
pawn still waiting, a bonus for the seat that rolls next — and compares the seat with the best
placed other one; a move that ends the game is a win or a loss before it is points.
*Easy* judges by the points as they stand, as a casual player counts them, and now and then
plays any of its three best moves; *medium* plays the best move by the weights tuned by
self-play (``WEIGHTS["numeri"]``, ``tools/tune_weights.py``).

*Hard* takes a win that is there at once; otherwise it looks further: it plays its most
promising moves out to the end of the game many times, every player (itself included)
moving as the tuned judgement says, and keeps the move that wins most often.  All
candidates are played out on the same dice (common random numbers), so they are compared
on equal luck.  Playouts go in rounds — one more for every surviving candidate — and after a
few rounds the weaker half is dropped, so the time goes to the moves that matter.  The node
budget counts positions visited in playouts; when it runs out, the rounds finished so far
decide, so the answer never depends on the clock.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from game.ai.search import Stopped
from game.ai.weights import WEIGHTS
from game.rules.numeri import CHOOSE, OFF, OFF_TRACK_VALUE, PAWNS, ROLL, NumeriState

if TYPE_CHECKING:
    from game.ai.search import Budget

POINTS = {"waiting": OFF_TRACK_VALUE, "advance": 0, "to_roll": 0}
"""*Easy*'s judgement: the score as it stands."""

SLIP = 0.25
"""How often *easy* picks at random among its three best moves instead of the best."""

ENDED = 100_000
"""What the judgement adds for a game that ends won (and takes off for one that ends lost):
more than any position can be worth."""

CANDIDATES = 4
"""*Hard* plays out at most this many moves, the ones the judgement likes best."""

ROUNDS = 100
"""Playouts per candidate move at most (fewer when the budget runs out)."""

CULL_AFTER = (16, 40)
"""Rounds after which the weaker half of the candidates is dropped (never below two)."""


def choose(state: NumeriState, level: str, rng: random.Random, budget: Budget | None = None) -> int:
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    seat = state.to_move
    weights = POINTS if level == "easy" else WEIGHTS["numeri"]
    judged = sorted(legal, key=lambda a: (-judge(state._successor(a), seat, weights), a))
    best = state._successor(judged[0]).result()
    if level == "hard" and (best is None or best.winners() != (seat,)):
        return _played_out(state, judged[:CANDIDATES], rng, budget)
    if level == "easy" and rng.random() < SLIP:
        return rng.choice(judged[:3])
    return judged[0]


def judge(state: NumeriState, seat: int, weights: dict[str, int]) -> int:
    """How good the pawns stand for ``seat`` against the best placed other seat; a game
    that has ended counts as won or lost before anything else."""
    result = state.result()
    if result is not None:
        scores = result.scores
        margin = scores[seat] - max(s for who, s in enumerate(scores) if who != seat)
        return margin + (ENDED if margin > 0 else -ENDED if margin < 0 else 0)
    values = state.track.values
    waiting, advance = weights["waiting"], weights["advance"]
    totals = []
    for who, own in enumerate(state.pawns):
        score = 0
        for pawn, at in zip(PAWNS, own, strict=True):
            score += pawn * (waiting if at == OFF else values[at] + advance * at)
        if who == state.side and state.stage == ROLL:
            score += weights["to_roll"]
        totals.append(score)
    return totals[seat] - max(t for who, t in enumerate(totals) if who != seat)


def _judged_best(state: NumeriState) -> int:
    """The move the tuned judgement prefers (the lowest action among equals)."""
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    seat, weights = state.side, WEIGHTS["numeri"]
    return max(legal, key=lambda a: (judge(state._successor(a), seat, weights), -a))


def _played_out(
    state: NumeriState, candidates: list[int], rng: random.Random, budget: Budget | None
) -> int:
    """The candidate that wins most often in judgement-driven playouts on common dice
    (the better score margin, then the better judgement, breaking ties)."""
    seat = state.to_move
    base = rng.getrandbits(64)
    after = {action: state._successor(action) for action in candidates}
    wins = dict.fromkeys(candidates, 0.0)
    margin = dict.fromkeys(candidates, 0)
    alive = list(candidates)

    def standing(action: int) -> tuple[float, int, int]:
        return wins[action], margin[action], -candidates.index(action)

    try:
        for playout in range(ROUNDS):
            if playout in CULL_AFTER and len(alive) > 2:
                alive = sorted(alive, key=standing, reverse=True)[: max(2, len(alive) // 2)]
            finals = {
                action: _play_out(after[action], random.Random(base + playout), budget)
                for action in alive
            }
            for action, scores in finals.items():
                top = max(scores)
                if scores[seat] == top:
                    wins[action] += 1 / scores.count(top)
                margin[action] += scores[seat] - max(
                    s for who, s in enumerate(scores) if who != seat
                )
    except Stopped:
        pass  # the finished rounds decide: a round cut short is not counted
    return max(alive, key=standing)


def _play_out(state: NumeriState, dice: random.Random, budget: Budget | None) -> tuple[int, ...]:
    """The final scores after playing ``state`` to the end, every seat following the
    judgement and the die drawn from ``dice``."""
    while state.result() is None:
        if budget is not None:
            budget.spend()
        # After a move the only chance event left is the die (who begins is long decided).
        state = state._successor(
            _judged_best(state) if state.stage == CHOOSE else dice.randint(1, 6)
        )
    return state.result().scores
