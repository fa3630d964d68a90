"""Fit Ausgeblockt's winning-chance model (:mod:`game.ai.sheet_chances`) to games of *hard*
against *hard*.

    python tools/fit_sheet_chances.py [--games 600] [--seed 1]

At the start of every turn of every game, the cells each side still needs and whose turn it
is are recorded with who won in the end; a logistic regression on the model's features
(Newton's method, no library needed) gives its coefficients.  Prints one JSON object: the
coefficients, the samples, the log-loss beside that of a coin, and the calibration (mean
predicted against observed win rate in ten bands).  Paste the coefficients into
``game/ai/sheet_chances.py``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def play(game: int, seed: int) -> list[tuple[list[float], int]]:
    """(features, whether that side won) for both sides at each turn's start of one game
    (both, so that the fit needs no constant); draws left out."""
    from game.ai.players import choose
    from game.ai.sheet_chances import features
    from game.rules import start, variant
    from game.rules.ausgeblockt import ROLL
    from game.rules.chance import random_action

    rng = random.Random(f"sheet-chances:{seed}:{game}")
    state = start(variant("ausgeblockt"))
    seen = []
    while not state.is_terminal():
        if state.is_chance():
            if state.stage == ROLL and state.attempts == 0 and state.chain < 0:
                seen += [(features(state, s, state.side == s), s) for s in (0, 1)]
            state = state.apply(random_action(state, rng))
        else:
            state = state.apply(choose(state, "hard", seed=game).action)
    winners = state.result().winners()
    if len(winners) != 1:
        return []
    return [(x, int(winners == (seat,))) for x, seat in seen if x is not None]


def fit(samples: list[tuple[list[float], int]], steps: int = 25) -> list[float]:
    """Logistic regression by Newton's method (a handful of features)."""
    size = len(samples[0][0])
    w = [0.0] * size
    for _ in range(steps):
        grad = [0.0] * size
        hess = [[0.0] * size for _ in range(size)]
        for x, y in samples:
            p = 1 / (1 + math.exp(-sum(a * b for a, b in zip(w, x, strict=True))))
            for i in range(size):
                grad[i] += (y - p) * x[i]
                for j in range(size):
                    hess[i][j] += p * (1 - p) * x[i] * x[j]
        step = _solve(hess, grad)
        w = [a + b for a, b in zip(w, step, strict=True)]
        if max(abs(s) for s in step) < 1e-9:
            break
    return w


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (the Newton step)."""
    n = len(vector)
    rows = [[*matrix[i], vector[i]] for i in range(n)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(n):
            if r != col and rows[col][col]:
                factor = rows[r][col] / rows[col][col]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col], strict=True)]
    return [rows[i][n] / rows[i][i] if rows[i][i] else 0.0 for i in range(n)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    with ProcessPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        games = list(pool.map(play, range(args.games), [args.seed] * args.games))
    samples = [s for g in games for s in g]
    weights = fit(samples)

    def chance(x: list[float]) -> float:
        return 1 / (1 + math.exp(-sum(a * b for a, b in zip(weights, x, strict=True))))

    loss = -sum(math.log(chance(x) if y else 1 - chance(x)) for x, y in samples) / len(samples)
    bands = []
    for band in range(10):
        inside = [(chance(x), y) for x, y in samples if band / 10 <= chance(x) < (band + 1) / 10]
        if inside:
            predicted = sum(p for p, _ in inside) / len(inside)
            observed = sum(y for _, y in inside) / len(inside)
            bands.append([round(predicted, 3), round(observed, 3), len(inside)])
    print(json.dumps({
        "games": args.games, "samples": len(samples),
        "coefficients": [round(w, 4) for w in weights],
        "log_loss": round(loss, 4), "coin_log_loss": round(math.log(2), 4),
        "calibration_predicted_observed_count": bands,
    }))  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
