"""Benchmarks that print JSON; their figures go into docs/PERFORMANCE.md.

    python tools/bench.py engine [--seconds S] [--seed N]

``engine``: random-playout actions per second for every variant of the rules engine (each
step asks for the legal actions or chance outcomes, picks one and applies it with the
engine's own legality check — the work a search or a replaying peer does), and, in the same
run, random playouts of pydraughts' English checkers as the pure-Python peer for Dama.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sys
import time
from importlib import metadata
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.dice import random_action
from game.rules import Variant, every_setup, start

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
        "machine": _machine(),
        "variants": results,
        "targets": targets,
        "peer": {"pydraughts:english": peer},
    }
    if "actions_per_second" in peer:
        dama = results["dama:classic players=2 huffing=false"]["actions_per_second"]
        report["peer"]["dama:classic_over_pydraughts"] = round(dama / peer["actions_per_second"], 1)
    return report


def _machine() -> dict:
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "cpu": platform.processor() or platform.machine(),
        "cores": os.cpu_count(),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    commands = parser.add_subparsers(dest="benchmark", required=True)
    engine = commands.add_parser("engine", help="rules engine random playouts")
    engine.add_argument("--seconds", type=float, default=3.0, help="per variant (default 3)")
    engine.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.seconds <= 0:
        parser.error("--seconds must be positive")
    print(json.dumps(bench_engine(args.seconds, args.seed), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
