"""``python tools/bench.py engine``: random-playout actions per second for every variant of
the rules engine, and pydraughts' English checkers in the same run as the pure-Python peer
for Dama.  Each step asks for the legal actions or chance outcomes, picks one and applies it
with the engine's own legality check: the work a search, or a peer replaying, does.
"""

from __future__ import annotations

import random
import time
from importlib import metadata

from game.rules import Variant, every_setup, start
from game.rules.chance import random_action
from tools.benchmarks.common import machine

TARGETS = {"mulino": 100_000, "dama": 30_000}
"""Actions per second each game must reach (issue: the AI's strength depends on it)."""


def engine_playouts(setup: Variant, seconds: float, seed: int) -> dict:
    """Random playouts of one variant for about ``seconds``: whole games only."""
    rng = random.Random(seed)
    actions = games = 0
    begin = time.perf_counter()
    while time.perf_counter() - begin < seconds:
        state = start(setup)
        while not state.is_terminal():
            state = state.apply(random_action(state, rng))
            actions += 1
        games += 1
    elapsed = time.perf_counter() - begin
    return {
        "actions_per_second": round(actions / elapsed),
        "games": games,
        "mean_actions_per_game": round(actions / games, 1),
        "seconds": round(elapsed, 2),
    }


def pydraughts_playouts(seconds: float, seed: int) -> dict:
    """The same measurement on pydraughts' English checkers (men as in Dama, kings short)."""
    try:
        from draughts import Board
    except ImportError:
        return {"error": "pydraughts is not installed: pip install -e '.[bench]'"}
    rng = random.Random(seed)
    actions = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        board = Board(variant="english")
        while not board.is_over():
            board.push(rng.choice(board.legal_moves()))
            actions += 1
        games += 1
    elapsed = time.perf_counter() - start
    return {
        "package": f"pydraughts {metadata.version('pydraughts')}",
        "actions_per_second": round(actions / elapsed),
        "games": games,
        "mean_actions_per_game": round(actions / games, 1),
        "seconds": round(elapsed, 2),
    }


def bench_engine(seconds: float, seed: int) -> dict:
    setups = every_setup()
    results = {v.describe(): engine_playouts(v, seconds, seed) for v in setups}
    targets = {
        v.describe(): {
            "target": TARGETS[v.game],
            "met": results[v.describe()]["actions_per_second"] >= TARGETS[v.game],
        }
        for v in setups
        if v.game in TARGETS
    }
    peer = pydraughts_playouts(seconds, seed)
    report = {
        "benchmark": "engine",
        "what": "random-playout actions per second, chance outcomes included",
        "machine": machine(),
        "variants": results,
        "targets": targets,
        "peer": {"pydraughts:english": peer},
    }
    if "actions_per_second" in peer:
        dama = results["dama:classic players=2 huffing=false"]["actions_per_second"]
        report["peer"]["dama:classic_over_pydraughts"] = round(dama / peer["actions_per_second"], 1)
    return report
