"""Solve the endgame tables by retrograde analysis and write them, lzma-compressed, under
``assets/ai/`` (see :mod:`game.ai.endgames`).  Needs numpy (``pip install -e '.[tables]'``);
the game reads the tables without it.

    python tools/build_endgames.py                 # all four families
    python tools/build_endgames.py mulino dama     # some of them

Prints one JSON object per family: positions, wins, draws, losses, the longest win, the
time taken and the size shipped.
"""

from __future__ import annotations

import argparse
import json
import lzma
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402 - after the path is set

from game.ai.endgames import dama, mulino  # noqa: E402 - after the path is set
from game.ai.endgames.build import dama_graph, mulino_graph  # noqa: E402 - after the path is set
from game.ai.endgames.build.retrograde import solve  # noqa: E402 - after the path is set
from game.ai.endgames.codes import ABSENT, DRAW, LOSS_BASE  # noqa: E402 - after the path is set

FAMILIES = ("mulino", "ceylonese", "dama", "mangia")
ASSETS = {
    "mulino": mulino.ASSETS["mulino:classic"],
    "ceylonese": mulino.ASSETS["mulino:ceylonese"],
    "dama": dama.ASSETS["dama:classic"],
    "mangia": dama.ASSETS["dama:mangia"],
}


def build_mulino(ceylonese: bool) -> np.ndarray:
    ranks = mulino_graph.Ranks()
    size33 = mulino.table_size(3, 3)
    graph = mulino_graph.Graph({(3, 3): 0}, size33)
    mulino_graph.add_table(graph, ranks, (3, 3), None, ceylonese)
    three_three = solve(graph.solvable())
    _log(f"3-3 solved: {_summary(three_three)}")
    sizes = ((4, 3), (3, 4))
    offsets = {(4, 3): 0, (3, 4): mulino.table_size(4, 3)}
    graph = mulino_graph.Graph(offsets, sum(mulino.table_size(*s) for s in sizes))
    for size in sizes:
        mulino_graph.add_table(graph, ranks, size, three_three, ceylonese)
        _log(f"{size} graph built")
    rest = solve(graph.solvable(), progress=_level)
    _log(f"4-3 and 3-4 solved: {_summary(rest)}")
    return np.concatenate([three_three, rest])


def build_dama(mangia: bool, processes: int) -> np.ndarray:
    solved: dict[tuple[int, int, int, int], np.ndarray] = {}
    for group in dama_graph.groups():
        began = time.perf_counter()
        codes = solve(dama_graph.build_group(group, solved, mangia, processes), stuck_wins=mangia)
        at = 0
        for sig in group:
            solved[sig] = codes[at : at + dama.table_size(sig)]
            at += dama.table_size(sig)
        _log(f"{group}: {_summary(codes)} in {time.perf_counter() - began:.0f} s")
    return np.concatenate([solved[sig] for sig in dama.SIGNATURES])


def _level(level: int, unsolved: int, edges: int) -> None:
    _log(f"level {level}: {unsolved:,} unsolved, {edges:,} edges")


def _summary(codes: np.ndarray) -> dict[str, int]:
    real = codes[codes != ABSENT]
    wins = real[(real != DRAW) & (real < LOSS_BASE)]
    losses = real[real >= LOSS_BASE]
    return {
        "positions": len(real),
        "wins": len(wins),
        "draws": int((real == DRAW).sum()),
        "losses": len(losses),
        "longest_win_plies": int(wins.max() - 1) if len(wins) else 0,
        "longest_loss_plies": int(losses.max() - LOSS_BASE) if len(losses) else 0,
    }


def _log(text: str) -> None:
    print(f"[{_resident_gb():.1f} GB] {text}", file=sys.stderr, flush=True)


def _resident_gb() -> float:
    """This process's memory now, from /proc (0 where there is none)."""
    try:
        status = Path("/proc/self/status").read_text()
    except OSError:
        return 0.0
    line = next((x for x in status.splitlines() if x.startswith("VmRSS:")), "VmRSS: 0 kB")
    return int(line.split()[1]) / 2**20


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("families", nargs="*", choices=FAMILIES, default=list(FAMILIES))
    parser.add_argument("--processes", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args(argv)
    for family in args.families or FAMILIES:
        began = time.perf_counter()
        if family in ("mulino", "ceylonese"):
            codes = build_mulino(ceylonese=family == "ceylonese")
            expected = mulino.TOTAL
        else:
            codes = build_dama(mangia=family == "mangia", processes=args.processes)
            expected = dama.TOTAL
        assert len(codes) == expected
        solved = time.perf_counter() - began
        data = lzma.compress(codes.tobytes(), preset=9 | lzma.PRESET_EXTREME)
        out = ROOT / "assets" / ASSETS[family]
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(data)
        report = {"family": family, **_summary(codes), "solve_seconds": round(solved, 1)}
        report |= {"bytes": len(data), "seconds": round(time.perf_counter() - began, 1)}
        print(json.dumps(report), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
