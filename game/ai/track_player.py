"""Numeri: Monte-Carlo rollouts over the die at the top level, a greedy judge below.

*Hard* plays every candidate move out 100 times to the end (random dice, random legal
choices, the same dice for every candidate) and keeps the move with the best share of wins,
the score margin breaking ties; *medium* does the same with 30 playouts, each candidate on
dice of its own.  *Easy* judges each move by the position it leaves
— points on the board, a discount for pawns still waiting, a bonus for an extra roll — and
now and then picks one of the next best instead.
"""

from __future__ import annotations

import random

from game.dice import random_action
from game.rules.numeri import OFF, PAWNS, NumeriState

ROLLOUTS = {"medium": 30, "hard": 100}
"""Playouts per candidate move."""


def choose(state: NumeriState, level: str, rng: random.Random, budget=None) -> int:
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    seat = state.to_move
    if level != "easy":
        return _rollouts(state, seat, legal, rng, budget, ROLLOUTS[level], paired=level == "hard")
    judged = sorted(legal, key=lambda a: (-_judge(state._successor(a), seat), a))
    if len(judged) > 1 and rng.random() < 0.35:
        return rng.choice(judged[:3])
    return judged[0]


def _judge(state: NumeriState, seat: int) -> float:
    """How good the pawns stand for ``seat`` against the best other seat."""
    totals = []
    for who, own in enumerate(state.pawns):
        score = 0.0
        for pawn, at in zip(PAWNS, own, strict=True):
            if at == OFF:
                score -= 3.0 * pawn
            else:
                score += pawn * (state.track.values[at] + 0.15 * at)
        if state.result() is None and who == state.side and state.stage == 1:
            score += 2.0  # an extra roll coming
        totals.append(score)
    mine = totals[seat]
    return mine - max(t for who, t in enumerate(totals) if who != seat)


def _rollouts(
    state: NumeriState,
    seat: int,
    legal: list[int],
    rng: random.Random,
    budget,
    rollouts: int,
    paired: bool,
) -> int:
    """The move with the best share of wins over ``rollouts`` playouts each.

    ``paired`` plays every candidate against the same dice (common random numbers):
    playout ``i`` of each move draws its rolls from one generator and its choices from
    another, both seeded alike for every move, so the moves are compared on equal luck and
    far fewer playouts tell them apart.  Unpaired, each playout has luck of its own.
    """
    base = rng.getrandbits(64)
    best, best_key = legal[0], None
    for action in legal:
        wins = margin = 0.0
        after = state._successor(action)
        for playout in range(rollouts):
            if budget is not None:
                budget.spend()
            if paired:
                dice = random.Random(base + 2 * playout)
                choices = random.Random(base + 2 * playout + 1)
            else:
                dice = choices = rng
            final = after
            while not final.is_terminal():
                source = dice if final.is_chance() else choices
                final = final._successor(random_action(final, source))
            scores = final.result().scores
            top = max(scores)
            if scores[seat] == top:
                wins += 1 / scores.count(top)
            margin += scores[seat] - max(s for who, s in enumerate(scores) if who != seat)
        key = (wins, margin, -action)
        if best_key is None or key > best_key:
            best, best_key = action, key
    return best
