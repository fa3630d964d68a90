"""``python tools/bench.py engine``: random-playout actions per second for every variant of
the rules engine, pydraughts' English checkers in the same run as the pure-Python peer for
Dama, and OpenSpiel's ``nine_mens_morris`` (C++ behind Python bindings, driven by the same
Python loop) beside Mulino.  Each step asks for the legal actions or chance outcomes, picks
one and applies it with the engine's own legality check: the work a search, or a peer
replaying, does.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from importlib import metadata

from game.rules import Variant, every_setup, start, variant
from game.rules.chance import random_action
from tools.benchmarks.common import machine

TARGETS = {"mulino": 100_000, "dama": 30_000}
"""Actions per second each game must reach (issue: the AI's strength depends on it)."""


def _timed_games(seconds: float, play_one: Callable[[], int]) -> dict:
    """Whole games, each played by ``play_one`` (which says how many actions it took),
    for about ``seconds``."""
    actions = games = 0
    begin, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - begin < seconds:
        actions += play_one()
        games += 1
    elapsed, cpu = time.perf_counter() - begin, time.process_time() - cpu
    return {
        "actions_per_second": round(actions / elapsed),
        "actions_per_cpu_second": round(actions / cpu),
        "games": games,
        "mean_actions_per_game": round(actions / games, 1),
        "seconds": round(elapsed, 2),
    }


def engine_playouts(setup: Variant, seconds: float, seed: int) -> dict:
    """Random playouts of one variant for about ``seconds``: whole games only."""
    rng = random.Random(seed)

    def play_one() -> int:
        state, actions = start(setup), 0
        while not state.is_terminal():
            state = state.apply(random_action(state, rng))
            actions += 1
        return actions

    return _timed_games(seconds, play_one)


def pydraughts_playouts(seconds: float, seed: int) -> dict:
    """The same measurement on pydraughts' English checkers (men as in Dama, kings short)."""
    try:
        from draughts import Board
    except ImportError:
        return {"error": "pydraughts is not installed: pip install -e '.[bench]'"}
    rng = random.Random(seed)

    def play_one() -> int:
        board, actions = Board(variant="english"), 0
        while not board.is_over():
            board.push(rng.choice(board.legal_moves()))
            actions += 1
        return actions

    return {"package": f"pydraughts {metadata.version('pydraughts')}",
            **_timed_games(seconds, play_one)}  # fmt: skip


def openspiel_playouts(seconds: float, seed: int) -> dict:
    """The same measurement on OpenSpiel's nine men's morris: its C++ states, mutated in
    place (``apply_action``), where Tavolo's are immutable Python."""
    try:
        import pyspiel
    except ImportError:
        return {"error": "open_spiel is not installed: pip install -e '.[bench]'"}
    game = pyspiel.load_game("nine_mens_morris")
    rng = random.Random(seed)

    def play_one() -> int:
        state, actions = game.new_initial_state(), 0
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            actions += 1
        return actions

    return {"package": f"open_spiel {metadata.version('open_spiel')}",
            **_timed_games(seconds, play_one)}  # fmt: skip


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
    spiel = openspiel_playouts(seconds, seed)
    report = {
        "benchmark": "engine",
        "what": "random-playout actions per second, chance outcomes included",
        "machine": machine(),
        "variants": results,
        "targets": targets,
        "peer": {"pydraughts:english": peer, "openspiel:nine_mens_morris": spiel},
    }
    if "actions_per_second" in peer:
        dama = results["dama:classic players=2 huffing=false"]["actions_per_second"]
        report["peer"]["dama:classic_over_pydraughts"] = round(dama / peer["actions_per_second"], 1)
    if "actions_per_second" in spiel:
        report["peer"]["mulino:classic_over_openspiel"] = _side_by_side(seed)
    return report


SLICES = 6
"""Turns each of Mulino and OpenSpiel get in the side-by-side comparison."""


def _side_by_side(seed: int, slice_seconds: float = 0.7) -> dict:
    """Mulino classic and OpenSpiel's nine men's morris in turns of ``slice_seconds``, the
    best turn of each kept: runs of a few seconds one after the other differ by 10–20 % on a
    shared machine (another process, the clock), which a ratio of two such runs doubles;
    turns taken in alternation meet the same machine. Both clocks: the wall's, and the
    process's CPU time, which leaves out the moments another process had the core."""
    classic = variant("mulino:classic")
    ours, theirs = [], []
    for _ in range(SLICES):
        ours.append(engine_playouts(classic, slice_seconds, seed))
        theirs.append(openspiel_playouts(slice_seconds, seed))

    def best(turns: list[dict], clock: str) -> int:
        return max(turn[clock] for turn in turns)

    wall, cpu = "actions_per_second", "actions_per_cpu_second"
    return {
        "ratio_of_best": round(best(ours, wall) / best(theirs, wall), 3),
        "ratios_turn_by_turn": [
            round(a[wall] / b[wall], 3) for a, b in zip(ours, theirs, strict=True)
        ],
        "cpu_ratio_of_best": round(best(ours, cpu) / best(theirs, cpu), 3),
        "mulino_best": best(ours, wall),
        "openspiel_best": best(theirs, wall),
        "turns": SLICES,
        "turn_seconds": slice_seconds,
    }
