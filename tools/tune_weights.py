"""Tune the evaluation weights of Mulino, Dama, Mangia la dama and Numeri by self-play.

    python tools/tune_weights.py [--minutes M] [--games N] [--nodes N] [--only F,F]
                                 [--write]

Coordinate ascent: each weight in turn is scaled up and down; the changed evaluation plays
``games`` games against the current one (sides alternated, each game opened with a few
seeded random moves so that the games differ, the same node budget on both sides) and is
kept when it scores at least 55 %.  Numeri games are two-player games of the judgement
alone (no search, no budget), its dice from seeded generators — cheap enough for a thousand
games a trial.  The sweep repeats until the time is up.  It prints a JSON report of every
trial; ``--write`` puts the result into ``game/ai/weights.py``.
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

GAMES = {
    "mulino": "mulino:classic",
    "dama": "dama:classic",
    "mangia": "dama:mangia",
    "numeri": "numeri",
}
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

    if family == "numeri":
        return _play_numeri(challenger, incumbent, game)
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


def _play_numeri(challenger: dict, incumbent: dict, game: int) -> float:
    """One two-player Numeri game of the judgements, a shared win counting half."""
    from game.ai.track_player import judged_best
    from game.rules import new_game
    from game.rules.chance import random_action

    dice = random.Random(f"tune:numeri:{game}")
    state = new_game(GAMES["numeri"])
    challenger_seat = game % 2
    while not state.is_terminal():
        if state.is_chance():
            state = state.apply(random_action(state, dice))
        else:
            weights = challenger if state.to_move == challenger_seat else incumbent
            state = state.apply(judged_best(state, weights))
    winners = state.result().winners()
    return 0.0 if challenger_seat not in winners else 1.0 / len(winners)


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


def tune(minutes: float, games: int, nodes: int, families: list[str]) -> dict:
    from game.ai.weights import WEIGHTS

    weights = {family: dict(values) for family, values in WEIGHTS.items()}
    trials = []
    deadline = time.monotonic() + 60 * minutes
    with ProcessPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        while time.monotonic() < deadline:
            changed = False
            for family in families:
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
    parser.add_argument("--only", default=",".join(GAMES), help="families, comma-separated")
    parser.add_argument("--write", action="store_true", help="update game/ai/weights.py")
    args = parser.parse_args(argv)
    families = args.only.split(",")
    unknown = sorted(set(families) - set(GAMES))
    if unknown:
        parser.error(f"unknown families {', '.join(unknown)} (known: {', '.join(GAMES)})")
    report = tune(args.minutes, args.games, args.nodes, families)
    if args.write:
        write(report["weights"])
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
