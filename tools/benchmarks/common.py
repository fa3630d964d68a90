"""What every benchmark reports alongside its figures."""

from __future__ import annotations

import os
import platform
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any


def machine() -> dict:
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "cpu": platform.processor() or platform.machine(),
        "cores": os.cpu_count(),
    }


def percentiles(samples: list[float]) -> dict:
    """p50, p99 and max of ``samples`` (seconds), in milliseconds."""
    ordered = sorted(samples)

    def at(q: float) -> float:
        return round(1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))], 2)

    return {
        "p50_ms": at(0.5),
        "p99_ms": at(0.99),
        "max_ms": round(1000 * ordered[-1], 2),
        "frames": len(ordered),
    }


GAME_SUMMARY = ("game", "hard", "score", "ending", "plies", "seconds")
"""What a match of *hard* against another player reports of each game, beside its moves."""


def hard_games(
    play: Callable[..., dict], games: int, workers: int, *args: Any
) -> tuple[dict, list[dict]]:
    """Games 0…``games``−1 of ``play(game, *args)`` — each a dict with ``GAME_SUMMARY`` and
    ``actions`` — in ``workers`` processes, tallied for *hard* (wins, draws, losses with
    their moves to become regression positions, mean length, seconds, one line a game), and
    every game as played."""
    began = time.perf_counter()
    played: list[dict] = []
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(play, game, *args) for game in range(games)]
        played += [future.result() for future in as_completed(futures)]
    played.sort(key=lambda g: g["game"])
    scores = [g["score"] for g in played]
    return {
        "games": games,
        "hard_wins": scores.count(1.0),
        "draws": scores.count(0.5),
        "hard_losses": scores.count(0.0),
        "losses": [g for g in played if g["score"] == 0.0],
        "endings": dict(Counter(g["ending"] for g in played)),
        "mean_plies": round(sum(g["plies"] for g in played) / max(1, games), 1),
        "seconds": round(time.perf_counter() - began, 1),
        "workers": workers,
        "per_game": [{k: g[k] for k in GAME_SUMMARY} for g in played],
    }, played
