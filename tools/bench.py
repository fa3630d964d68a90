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

from game.dice import draw_outcome
from game.rules import new_game

VARIANTS = [
    ("ausgeblockt", None, {}),
    ("numeri", 2, {}),
    ("numeri", 4, {}),
    ("dama:classic", None, {}),
    ("dama:classic", None, {"huffing": True}),
    ("dama:mangia", None, {}),
    ("dama:lupo", None, {}),
    ("mulino:classic", None, {}),
    ("mulino:misto", None, {}),
    ("mulino:ceylonese", None, {}),
]
TARGETS = {"mulino": 100_000, "dama": 30_000}
"""Actions per second each game must reach (issue: the AI's strength depends on it)."""


def _label(name: str, players: int | None, options: dict) -> str:
    suffix = f"/{players}p" if players else ""
    return name + suffix + "".join(f"+{k}" for k, v in options.items() if v)


def engine_playouts(
    name: str, players: int | None, options: dict, seconds: float, seed: int
) -> dict:
    """Random playouts of one variant for about ``seconds``: whole games only."""
    rng = random.Random(seed)
    actions = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = new_game(name, players, **options)
        while not state.is_terminal():
            if state.is_chance():
                action = draw_outcome(state.chance_outcomes(), rng)
            else:
                legal = state.legal_actions()
                action = legal[rng.randrange(len(legal))]
            state = state.apply(action)
            actions += 1
        games += 1
    elapsed = time.perf_counter() - start
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
    results = {
        _label(*case): engine_playouts(*case, seconds=seconds, seed=seed) for case in VARIANTS
    }
    peer = pydraughts_playouts(seconds, seed)
    report = {
        "benchmark": "engine",
        "what": "random-playout actions per second, chance outcomes included",
        "machine": _machine(),
        "variants": results,
        "peer": {"pydraughts:english": peer},
        "targets": {
            label: {
                "target": TARGETS[label.split(":")[0]],
                "met": r["actions_per_second"] >= TARGETS[label.split(":")[0]],
            }
            for label, r in results.items()
            if label.split(":")[0] in TARGETS
        },
    }
    if "actions_per_second" in peer:
        ratio = results["dama:classic"]["actions_per_second"] / peer["actions_per_second"]
        report["peer"]["dama:classic_over_pydraughts"] = round(ratio, 1)
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
