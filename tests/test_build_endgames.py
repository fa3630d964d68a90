"""The endgame-table builder (tools/build_endgames.py and game/ai/endgames/build/): its solver on
hand-made graphs, and the smallest Dama groups built again here, byte for byte the shipped
table."""

from __future__ import annotations

import lzma

import numpy as np
import pytest

from game.ai.endgames import dama
from game.ai.endgames.build import dama_graph
from game.ai.endgames.build.retrograde import MoveGraph, solve
from game.ai.endgames.codes import ABSENT, DRAW, LOSS_BASE, WIN_BASE
from game.resources import asset_bytes


def _graph(edges: list[tuple[int, int]], options: list[tuple[int, int]], size: int) -> MoveGraph:
    valid = np.ones(size, bool)
    parents = np.array([p for p, _ in edges], np.int32)
    children = np.array([c for _, c in edges], np.int32)
    option_parents = np.array([p for p, _ in options], np.int32)
    option_codes = np.array([c for _, c in options], np.uint8)
    return MoveGraph(valid, parents, children, option_parents, option_codes)


def test_the_solver_finds_wins_losses_and_the_draws_of_a_cycle() -> None:
    # 0 has no move: lost.  1 → 0: won in 1.  2 → 1 only: lost in 2.  3 → 2 or 4: won in 3.
    # 4 ↔ 5 cycle with no way out: drawn.  6 → 5 or an option lost in 7: drawn (the cycle
    # is better).  7 → only an option lost in 5: lost in 5.  8 → 7 or an option won in 9:
    # won in 6 (7 is lost in 5).
    edges = [(1, 0), (2, 1), (3, 2), (3, 4), (4, 5), (5, 4), (6, 5), (8, 7)]
    options = [(6, LOSS_BASE + 7), (7, LOSS_BASE + 5), (8, WIN_BASE + 9)]
    codes = solve(_graph(edges, options, 9))
    expected = [LOSS_BASE + 0, WIN_BASE + 1, LOSS_BASE + 2, WIN_BASE + 3, DRAW, DRAW, DRAW,
                LOSS_BASE + 5, WIN_BASE + 6]  # fmt: skip
    assert codes.tolist() == expected


def test_a_stuck_side_wins_the_losing_game_and_indices_naming_no_position_stay_absent() -> None:
    graph = _graph([(1, 0), (2, 1)], [], 4)
    graph.valid[3] = False
    codes = solve(graph, stuck_wins=True)
    assert codes.tolist() == [WIN_BASE + 0, LOSS_BASE + 1, WIN_BASE + 2, ABSENT]


@pytest.mark.slow
def test_the_dama_groups_up_to_three_pieces_built_again_are_the_shipped_bytes() -> None:
    shipped = lzma.decompress(asset_bytes(dama.ASSETS["dama:classic"]))
    solved: dict = {}
    for group in dama_graph.groups():
        if sum(group[0]) > 3:
            break
        codes = solve(dama_graph.build_group(group, solved, mangia=False, processes=1))
        at = 0
        for sig in group:
            solved[sig] = codes[at : at + dama.table_size(sig)]
            at += dama.table_size(sig)
            start = dama.OFFSETS[sig]
            assert solved[sig].tobytes() == shipped[start : start + dama.table_size(sig)], sig
    assert len(solved) == len([s for s in dama.SIGNATURES if sum(s) <= 3])
