"""``python tools/bench.py ai longer``: *hard* Mulino against itself thinking longer (issue 32).

One side is *hard* as players meet it, the other *hard* with ``scale`` times its search
budget (nodes, so a run is the same on every machine).  To weigh a change of the evaluation
the sides' weights can differ (``weights``, ``opponent_weights``: the changes, e.g.
``{"cramped": 0}``) and *hard*'s own budget can be scaled (``budget``): *hard* at a quarter of
its nodes against the evaluation before at the whole shows what the change is worth in
search.  *Hard* plays White in the even games and Black in the odd ones; a game's first
``opening`` placements are drawn at random, seeded by the game's number (two searches that
both always choose alike would otherwise play one game).  Every game's actions are reported
in Tavolo's notation, so a loss of the faster side becomes a regression position
(tests/test_mulino_running_mill.py, tests/test_mulino_room.py).
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any
from unittest import mock

MILL_WEIGHTS = ("mulino", "ceylonese")
"""The evaluations a weight change applies to: every Mulino variant's."""


@contextmanager
def weighed(changes: dict[str, int]) -> Iterator[None]:
    """The Mulino evaluations' weights changed by ``changes`` while inside."""
    from game.ai.weights import WEIGHTS

    with ExitStack() as stack:
        for family in MILL_WEIGHTS:
            stack.enter_context(mock.patch.dict(WEIGHTS[family], changes))
        yield


def play(
    game: int,
    scale: float,
    opening: int,
    name: str = "mulino:classic",
    budget: float = 1.0,
    weights: dict[str, int] | None = None,
    opponent_weights: dict[str, int] | None = None,
) -> dict[str, Any]:
    """One game; *hard*'s score (1, ½, 0), its colour, the actions and the seconds."""
    from game.ai.players import choose
    from game.rules import new_game

    began = time.perf_counter()
    state = new_game(name)
    hard = game % 2
    chance = random.Random(f"longer:{game}")
    actions: list[str] = []
    while state.result() is None:
        legal = state.legal_actions()
        if len(actions) < opening:
            action = chance.choice(legal)
        else:
            ours = state.to_move == hard
            changes = (weights if ours else opponent_weights) or {}
            with weighed(changes):
                nodes = budget if ours else budget * scale
                action = choose(state, "hard", seed=game, scale=nodes).action
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


def bench_longer(
    games: int,
    scale: float,
    opening: int,
    workers: int,
    name: str = "mulino:classic",
    budget: float = 1.0,
    weights: dict[str, int] | None = None,
    opponent_weights: dict[str, int] | None = None,
) -> dict[str, Any]:
    from tools.benchmarks.common import hard_games, machine

    tally, _played = hard_games(
        play, games, workers, scale, opening, name, budget, weights, opponent_weights
    )
    return {
        "benchmark": "ai longer",
        "machine": machine(),
        "game": name,
        "hard": f"{budget:g} times its search budget, weights changed by {weights or {}}",
        "opponent": f"hard with {scale:g} times that budget, weights changed by "
        f"{opponent_weights or {}}",
        "opening": f"{opening} random placements, seeded by the game's number",
        **tally,
    }
