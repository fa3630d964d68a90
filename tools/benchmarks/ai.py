"""``python tools/bench.py ai``: how strong each level is, how long it thinks, how fast.

For every variant: hard against medium, medium against easy and easy against a random
player (and, in :mod:`tools.benchmarks.endgames`, hard with the endgame tables against hard
without them), ``games`` games each, the stronger side's seat alternating (with 3–4 players the
stronger level holds one seat, rotating, and the weaker one the others).  Reported from the
stronger side: wins, draws, losses; per level the mean and largest think time per decision
and the search nodes per second.  Dice come from seeded generators, so a run is repeatable.
Games run in a pool of worker processes, one per core; ``--partial FILE`` keeps what is done.
"""

from __future__ import annotations

import json
import os
import random
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

PAIRINGS = (("hard", "medium"), ("medium", "easy"), ("easy", "random"))


def play_game(setup_fields: list, strong: str, weak: str, game: int) -> dict:
    from game.ai.players import choose
    from game.rules import every_setup, start
    from game.rules.chance import random_action

    setup = next(v for v in every_setup() if v.to_fields() == setup_fields)
    strong_seat = game % setup.players
    rng = random.Random(f"bench:{setup.describe()}:{strong}:{weak}:{game}")
    state = start(setup)
    think: dict[str, list[float]] = {strong: [], weak: []}
    nodes: dict[str, int] = {strong: 0, weak: 0}
    while not state.is_terminal():
        if state.is_chance():
            state = state.apply(random_action(state, rng))
            continue
        level = strong if state.to_move == strong_seat else weak
        if level == "random":
            action = rng.choice(state.legal_actions())
            think[level].append(0.0)
        else:
            decision = choose(state, level, seed=game)
            action = decision.action
            think[level].append(decision.seconds)
            nodes[level] += decision.nodes
        state = state.apply(action)
    outcome = state.result().outcomes[strong_seat].value
    shared = len(state.result().winners()) > 1
    return {
        "setup": setup.describe(),
        "pairing": f"{strong} vs {weak}",
        "outcome": "draw" if shared and outcome == "win" else outcome,
        "think": think,
        "nodes": nodes,
    }


def bench_ai(
    games: int, partial: Path | None, only: str | None = None, endgame_positions: int = 100
) -> dict:
    from game.rules import every_setup
    from tools.benchmarks.common import machine
    from tools.benchmarks.endgames import bench_endgames

    prefixes = tuple(p for p in only.split(",") if p != "endgames") if only else ("",)
    setups = [v for v in every_setup() if prefixes and v.name.startswith(prefixes)]
    tasks = [
        (v, strong, weak, g) for v in setups for strong, weak in PAIRINGS for g in range(games)
    ]
    results: dict[str, dict] = {}
    began = time.perf_counter()
    with ProcessPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        futures = [pool.submit(play_game, v.to_fields(), s, w, g) for v, s, w, g in tasks]
        for done, future in enumerate(as_completed(futures), 1):
            game = future.result()
            _add(results, game)
            if partial is not None and (done % 25 == 0 or done == len(futures)):
                partial.write_text(
                    json.dumps(
                        _report(results, machine(), games, began, done, len(futures)), indent=2
                    )
                )
    report = _report(results, machine(), games, began, len(tasks), len(tasks))
    if only is None or "endgames" in only.split(","):
        report["endgames"] = bench_endgames(endgame_positions)
    return report


def _add(results: dict, game: dict) -> None:
    entry = results.setdefault(game["setup"], {}).setdefault(
        game["pairing"], {"win": 0, "draw": 0, "loss": 0, "think": {}, "nodes": {}}
    )
    entry[game["outcome"]] += 1
    for level, times in game["think"].items():
        slot = entry["think"].setdefault(level, [0.0, 0.0, 0])
        slot[0] += sum(times)
        slot[1] = max([slot[1], *times])
        slot[2] += len(times)
        entry["nodes"][level] = entry["nodes"].get(level, 0) + game["nodes"].get(level, 0)


def _report(results: dict, machine: dict, games: int, began: float, done: int, total: int) -> dict:
    table = {}
    for setup, pairings in results.items():
        table[setup] = {}
        for pairing, entry in pairings.items():
            levels = {}
            for level, (seconds, longest, count) in entry["think"].items():
                if level == "random":
                    continue
                levels[level] = {
                    "mean_ms": round(1000 * seconds / max(count, 1), 1),
                    "max_ms": round(1000 * longest, 1),
                    "nodes_per_second": round(entry["nodes"][level] / seconds) if seconds else 0,
                }
            table[setup][pairing] = {
                "win": entry["win"],
                "draw": entry["draw"],
                "loss": entry["loss"],
                "levels": levels,
            }
    return {
        "benchmark": "ai",
        "machine": machine,
        "games_per_pairing": games,
        "done": f"{done}/{total}",
        "minutes": round((time.perf_counter() - began) / 60, 1),
        "results": table,
    }
