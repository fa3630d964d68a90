"""Numeri: a judgement of the pawns for the weaker levels, Monte-Carlo playouts for *hard*.

*Easy* and *medium* judge each move by the position it leaves — the points on the board, a
push towards the end spaces, a discount for pawns still waiting, a bonus for an extra roll,
all against the best placed other seat — and a move that ends the game is a win or a loss
before it is points.  *Medium* plays the move it judges best; *easy*, now and then, any of
its three best, as a casual player does.

*Hard* takes a win that is there at once; otherwise it looks further: it plays its most
promising moves out to the end of the game many times, every player (itself included)
moving as the judgement says, and keeps the move that wins most often.  All candidates are
played out on the same dice (common random numbers), so they are compared on equal luck.
Playouts go in rounds — one more for every surviving candidate — and after a few rounds the
weaker half is dropped, so the time goes to the moves that matter.  The node budget counts
positions visited in playouts; when it runs out, the rounds finished so far decide, so the
answer never depends on the clock.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from game.ai.search import Stopped
from game.rules.numeri import CHOOSE, OFF, PAWNS, ROLL, NumeriState

if TYPE_CHECKING:
    from game.ai.search import Budget

SLIP = 0.35
"""How often *easy* plays one of its second and third choices instead of the first."""

ENDED = 1000.0
"""What the judgement adds for a game that ends won (and takes off for one that ends lost)."""

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
    judged = sorted(legal, key=lambda a: (-judge(state._successor(a), seat), a))
    if level == "hard" and judge(state._successor(judged[0]), seat) < ENDED:
        return _played_out(state, judged[:CANDIDATES], rng, budget)
    if level == "easy" and rng.random() < SLIP:
        return rng.choice(judged[:3])
    return judged[0]


def judge(state: NumeriState, seat: int) -> float:
    """How good the pawns stand for ``seat`` against the best placed other seat; a game
    that has ended counts as won or lost before anything else."""
    result = state.result()
    if result is not None:
        scores = result.scores
        margin = scores[seat] - max(s for who, s in enumerate(scores) if who != seat)
        return margin + (ENDED if margin > 0 else -ENDED if margin < 0 else 0.0)
    values = state.track.values
    totals = []
    for who, own in enumerate(state.pawns):
        score = 0.0
        for pawn, at in zip(PAWNS, own, strict=True):
            if at == OFF:
                score -= 3.0 * pawn
            else:
                score += pawn * (values[at] + 0.15 * at)
        if who == state.side and state.stage == ROLL:
            score += 2.0  # this seat rolls next
        totals.append(score)
    return totals[seat] - max(t for who, t in enumerate(totals) if who != seat)


def _judged_best(state: NumeriState) -> int:
    """The move the judgement prefers (the lowest action among equals)."""
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    seat = state.side
    return max(legal, key=lambda a: (judge(state._successor(a), seat), -a))


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
        if state.stage == CHOOSE:
            state = state._successor(_judged_best(state))
        elif state.stage == ROLL:
            state = state._successor(dice.randint(1, 6))
        else:
            state = state._successor(dice.randrange(state.players))
    return state.result().scores
