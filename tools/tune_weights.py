"""Tune the evaluation weights of Mulino, Dama and Mangia la dama by self-play.

    python tools/tune_weights.py [--minutes M] [--games N] [--nodes N] [--write]

Coordinate ascent: each weight in turn is scaled up and down; the changed evaluation plays
``games`` games against the current one (sides alternated, each game opened with a few
seeded random moves so that the games differ, the same node budget on both sides) and is
kept when it scores at least 55 %.  The sweep repeats until the time is up.  It prints a
JSON report of every trial; ``--write`` puts the result into ``game/ai/weights.py``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GAMES = {"mulino": "mulino:classic", "dama": "dama:classic", "mangia": "dama:mangia"}
OPENING_PLIES = 4
ACCEPT = 0.55


def _evaluator(family: str, weights: dict):
    from game.ai.evaluators import DamaEvaluator, MillEvaluator

    if family == "mulino":
        return MillEvaluator(weights)
    return DamaEvaluator(weights, losing=family == "mangia")


def play(family: str, challenger: dict, incumbent: dict, game: int, nodes: int) -> float:
    """The challenger's score (1, ½ or 0) in one game."""
    from game.ai.search import AlphaBeta, Budget
    from game.rules import new_game

    rng = random.Random(f"tune:{family}:{game}")
    state = new_game(GAMES[family])
    for _ in range(OPENING_PLIES):
        state = state.apply(rng.choice(state.legal_actions()))
    challenger_seat = game % 2
    while not state.is_terminal():
        weights = challenger if state.to_move == challenger_seat else incumbent
        search = AlphaBeta(_evaluator(family, weights), Budget(nodes))
        state = state.apply(search.best(state).action)
    outcome = state.result().outcomes[challenger_seat].value
    return {"win": 1.0, "draw": 0.5, "loss": 0.0}[outcome]


def match(pool, family: str, challenger: dict, incumbent: dict, games: int, nodes: int) -> float:
    scores = pool.map(
        play,
        [family] * games,
        [challenger] * games,
        [incumbent] * games,
        range(games),
        [nodes] * games,
    )
    return sum(scores) / games


def tune(minutes: float, games: int, nodes: int) -> dict:
    from game.ai.weights import WEIGHTS

    weights = {family: dict(values) for family, values in WEIGHTS.items()}
    trials = []
    deadline = time.monotonic() + 60 * minutes
    with ProcessPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        while time.monotonic() < deadline:
            changed = False
            for family in GAMES:
                for key in sorted(weights[family]):
                    for factor in (1.3, 0.7):
                        if time.monotonic() > deadline:
                            break
                        current = weights[family][key]
                        if current == 0:
                            continue
                        candidate = dict(weights[family])
                        candidate[key] = round(current * factor) or (1 if current > 0 else -1)
                        if candidate[key] == current:
                            continue
                        score = match(pool, family, candidate, weights[family], games, nodes)
                        kept = score >= ACCEPT
                        trials.append(
                            {
                                "family": family,
                                "weight": key,
                                "from": current,
                                "to": candidate[key],
                                "score": round(score, 3),
                                "kept": kept,
                            }
                        )
                        if kept:
                            weights[family] = candidate
                            changed = True
            if not changed:
                break
    return {
        "tool": "tune_weights",
        "games_per_trial": games,
        "nodes": nodes,
        "minutes": minutes,
        "trials": trials,
        "weights": weights,
    }


def write(weights: dict) -> None:
    path = ROOT / "game" / "ai" / "weights.py"
    text = path.read_text()
    head = text[: text.index("WEIGHTS: dict")]
    table = json.dumps(weights, indent=4)  # a dict of ints reads the same in Python
    path.write_text(head + "WEIGHTS: dict[str, dict[str, int]] = " + table + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--games", type=int, default=24)
    parser.add_argument("--nodes", type=int, default=600)
    parser.add_argument("--write", action="store_true", help="update game/ai/weights.py")
    args = parser.parse_args(argv)
    report = tune(args.minutes, args.games, args.nodes)
    if args.write:
        write(report["weights"])
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
