"""``python tools/bench.py ai ladder``: the ladder's ratings per game, measured.

For each game (every variant, two players, default options), each rung plays the rung
above it ``games`` times, the lower rung's seat alternating; dice and the computer players'
choices are seeded by the game's number, so a run is repeatable.  A game without dice opens
with :data:`OPENING` random plies, each opening played twice with the colours swapped.  The
results of the seven neighbouring pairs are fitted by maximum likelihood
(:func:`game.levels.ratings.fit`), level 1 anchored at :data:`game.levels.table.ANCHOR`,
each rating with its 95 % interval.
``--write`` stores the ratings in ``assets/ai/ladder.json``, which the game reads; a game not
run keeps what it had.  Games run in ``workers`` processes (default one: the machine is
shared).

``--known W/D/L,...`` gives the lowest pairs' results from an earlier run instead of playing
them again — for when only the upper rungs changed (*hard* Mulino's search, issue 32): the
pairs of a chain are fitted together, so the ratings are what a whole run with those results
would give.
"""

from __future__ import annotations

import json
import random
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

LADDER_FILE = Path(__file__).resolve().parents[2] / "assets" / "ai" / "ladder.json"

OPENING = 4
"""Plies played at random, before the rungs take over, in a game without dice.  The upper
rungs play the best move every time, so from the start position two of them play two games
whatever the seed: Dama's level 7 against *hard*, 100 games, was two games played fifty
times each, 50-50 by colour alone.  Seeded by the opening's number (the game's, halved)."""


def play_pair_game(name: str, lower: int, game: int) -> tuple[str, int, float, float]:
    """One game of rung ``lower`` against rung ``lower + 1``: the lower rung's score (1, ½
    or 0) and the seconds it took."""
    from game.ai.players import choose
    from game.levels import LADDER
    from game.rules import VARIANTS, start, variant
    from game.rules.chance import random_action

    began = time.perf_counter()
    state = start(variant(name, 2))
    lower_seat = game % 2
    dice = random.Random(f"ladder:{name}:{lower}:{game}")
    opening = random.Random(f"ladder-opening:{name}:{lower}:{game // 2}")
    at_random = 0 if VARIANTS[name].players_roll else OPENING
    while not state.is_terminal():
        if state.is_chance():
            state = state.apply(random_action(state, dice))
        elif at_random:
            state = state.apply(opening.choice(state.legal_actions()))
            at_random -= 1
        else:
            level = LADDER[lower - 1 if state.to_move == lower_seat else lower]
            state = state.apply(choose(state, level, seed=game).action)
    result = state.result()
    assert result is not None
    winners = result.winners()
    score = 0.5 if len(winners) != 1 else float(winners == (lower_seat,))
    return name, lower, score, time.perf_counter() - began


def known_pairs(text: str) -> list[tuple[int, int, int]]:
    """``W/D/L,W/D/L,...`` (the lower rung's wins, the draws, the upper rung's wins) as
    tuples; ValueError if malformed."""
    pairs = []
    for item in text.split(","):
        wins, draws, losses = (int(n) for n in item.split("/"))
        if min(wins, draws, losses) < 0:
            raise ValueError(item)
        pairs.append((wins, draws, losses))
    return pairs


def bench_ladder(
    names: list[str],
    games: int,
    workers: int,
    write: bool,
    known: list[tuple[int, int, int]] | None = None,
) -> dict:
    from game.levels import LADDER, RUNGS
    from game.levels.ratings import Tally, fit
    from game.levels.table import ANCHOR
    from tools.benchmarks.common import machine

    known = known or []
    scores: dict[str, dict[int, list[float]]] = {n: {r: [] for r in range(1, RUNGS)} for n in names}
    for name in names:
        for lower, (wins, draws, losses) in enumerate(known, start=1):
            scores[name][lower] = [1.0] * wins + [0.5] * draws + [0.0] * losses
    seconds: dict[str, float] = dict.fromkeys(names, 0.0)
    began = time.perf_counter()
    played = range(len(known) + 1, RUNGS)
    tasks = [(n, r, g) for n in names for r in played for g in range(games)]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(play_pair_game, *task) for task in tasks]
        for future in as_completed(futures):
            name, lower, score, took = future.result()
            scores[name][lower].append(score)
            seconds[name] += took
    report: dict = {
        "benchmark": "ai ladder",
        "machine": machine(),
        "workers": workers,
        "games_per_pair": games,
        "known_pairs": len(known),
        "minutes": round((time.perf_counter() - began) / 60, 1),
        "games": {},
    }
    for name in names:
        tallies = [
            Tally(r - 1, r, wins=s.count(1.0), draws=s.count(0.5), losses=s.count(0.0))
            for r, s in scores[name].items()
        ]
        fitted = fit(tallies, RUNGS, anchor=(0, ANCHOR))
        report["games"][name] = {
            "pairs": [
                {
                    "lower": LADDER[t.first],
                    "upper": LADDER[t.second],
                    "lower_won": t.wins,
                    "drawn": t.draws,
                    "upper_won": t.losses,
                }
                for t in tallies
            ],
            "ratings": [
                {
                    "level": r.player + 1,
                    "name": LADDER[r.player],
                    "rating": round(r.rating),
                    "low": round(r.low),
                    "high": round(r.high),
                }
                for r in fitted
            ],
            "game_seconds": round(seconds[name], 1),
        }
    if write:
        _write(report)
    return report


def _write(report: dict) -> None:
    """Store the games measured in the ladder file the game reads, the others kept."""
    data = json.loads(LADDER_FILE.read_text())
    for name, entry in report["games"].items():
        data["games"][name] = {
            "games_per_pair": report["games_per_pair"],
            "ratings": [[r["rating"], r["low"], r["high"]] for r in entry["ratings"]],
        }
    data["games"] = dict(sorted(data["games"].items()))
    LADDER_FILE.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
