"""Part of ``python tools/bench.py ai``: *hard* with the endgame tables against *hard*
without them, from random endgame positions.

Positions are drawn at random among those the tables call won for one side in more than
two plies (a drawn one teaches nothing about converting, nor does a mill or a capture of the
last piece on the spot): Mulino with 3 against 3, 4 against 3 and 3 against 4
pieces after placing, Dama with three or four pieces, men and kings.  Each is played twice,
the tables once with the winning side and once with the defending side, so that the same
positions measure both converting and defending.  Reported per game: W/D/L from the side
with the tables, and for each way round how many won positions were converted and in how
many plies on average, beside the tables' distance.
"""

from __future__ import annotations

import os
import random
import time
from concurrent.futures import ProcessPoolExecutor

FAMILIES = ("mulino:classic", "dama:classic")


def random_won_position(name: str, rng: random.Random):
    """A random position of the tables' sizes that the tables call won for one side, not on
    the spot: (the state, the winning seat, the tables' distance)."""
    from game.ai.endgames import WIN, probe
    from game.ai.endgames import dama as dama_tables
    from game.ai.endgames import mulino as mulino_tables
    from game.ai.endgames.samples import random_dama, random_mulino

    while True:
        if name.startswith("mulino"):
            state = random_mulino(name, rng, *rng.choice(mulino_tables.SIZES))
        else:
            sizes = [s for s in dama_tables.SIGNATURES if sum(s) >= 3]
            state = random_dama(name, rng, rng.choice(sizes))
        verdict = probe(state)
        if verdict is not None and verdict.outcome and verdict.plies > 2:
            winner = state.to_move if verdict.outcome == WIN else 1 - state.to_move
            return state, winner, verdict.plies


def play(name: str, index: int, tables_with_winner: bool) -> dict:
    from game.ai.players import choose

    state, winner, distance = random_won_position(name, random.Random(f"endgame:{name}:{index}"))
    tables_seat = winner if tables_with_winner else 1 - winner
    plies, began = 0, time.perf_counter()
    while not state.is_terminal():
        seat = state.to_move
        decision = choose(state, "hard", seed=index, endgames=seat == tables_seat)
        state = state.apply(decision.action)
        plies += 1
    result = state.result()
    outcome = result.outcomes[tables_seat].value
    return {
        "family": name,
        "tables_with_winner": tables_with_winner,
        "outcome": outcome,
        "winner_won": result.winners() == (winner,),
        "plies": plies,
        "distance": distance,
        "seconds": time.perf_counter() - began,
    }


def bench_endgames(positions: int) -> dict:
    """``positions`` won positions per family, each played both ways round."""
    tasks = [(f, i, w) for f in FAMILIES for i in range(positions) for w in (True, False)]
    began = time.perf_counter()
    with ProcessPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        games = list(pool.map(play, *zip(*tasks, strict=True)))
    report = {}
    for family in FAMILIES:
        mine = [g for g in games if g["family"] == family]
        entry = {
            "games": len(mine),
            "tables_side": {
                k: sum(g["outcome"] == k for g in mine) for k in ("win", "draw", "loss")
            },
            "tables_side_mean_plies_to_win": _mean(
                [g["plies"] for g in mine if g["outcome"] == "win"]
            ),
        }
        for label, converting in (("winner_with_tables", True), ("winner_without_tables", False)):
            way = [g for g in mine if g["tables_with_winner"] == converting]
            won = [g for g in way if g["winner_won"]]
            entry[label] = {
                "converted": f"{len(won)}/{len(way)}",
                "mean_plies_to_win": _mean([g["plies"] for g in won]),
                "mean_table_distance_of_those": _mean([g["distance"] for g in won]),
            }
        entry["mean_game_seconds"] = _mean([g["seconds"] for g in mine])
        report[family] = entry
    return {
        "positions_per_family": positions,
        "minutes": round((time.perf_counter() - began) / 60, 1),
        "families": report,
    }


def _mean(values: list[float]) -> float | None:
    return round(sum(values) / len(values), 1) if values else None
