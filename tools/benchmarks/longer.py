"""``python tools/bench.py ai longer``: *hard* Mulino against itself thinking longer (issue 32).

One side is *hard* as players meet it, the other *hard* with ``scale`` times its search
budget (nodes, so a run is the same on every machine).  *Hard* plays White in the even games
and Black in the odd ones; a game's first ``opening`` placements are drawn at random, seeded
by the game's number (two searches that both always choose alike would otherwise play one
game).  Every game's actions are reported in Tavolo's notation, so a loss of the faster side
becomes a regression position (tests/test_mulino_running_mill.py).
"""

from __future__ import annotations

import random
import time
from typing import Any


def play(game: int, scale: float, opening: int) -> dict[str, Any]:
    """One game; *hard*'s score (1, ½, 0), its colour, the actions and the seconds."""
    from game.ai.players import choose
    from game.rules import new_game

    began = time.perf_counter()
    state = new_game("mulino:classic")
    hard = game % 2
    chance = random.Random(f"longer:{game}")
    actions: list[str] = []
    while state.result() is None:
        legal = state.legal_actions()
        if len(actions) < opening:
            action = chance.choice(legal)
        else:
            longer = 1.0 if state.to_move == hard else scale
            action = choose(state, "hard", seed=game, scale=longer).action
        actions.append(state.action_to_str(action))
        state = state.apply(action)
    result = state.result()
    assert result is not None
    winners = result.winners()
    return {
        "game": game,
        "hard": "white" if hard == 0 else "black",
        "score": 0.5 if len(winners) != 1 else float(winners == (hard,)),
        "ending": str(result.reason),
        "plies": len(actions),
        "actions": " ".join(actions),
        "seconds": round(time.perf_counter() - began, 1),
    }


def bench_longer(games: int, scale: float, opening: int, workers: int) -> dict[str, Any]:
    from tools.benchmarks.common import hard_games, machine

    tally, _played = hard_games(play, games, workers, scale, opening)
    return {
        "benchmark": "ai longer",
        "machine": machine(),
        "opponent": f"hard with {scale:g} times its search budget",
        "opening": f"{opening} random placements, seeded by the game's number",
        **tally,
    }
