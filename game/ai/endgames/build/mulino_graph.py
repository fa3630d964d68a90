"""The move graph of Mulino after placing, for :mod:`game.ai.endgames.mulino`'s tables, built
with numpy one (from, to) pair at a time over every position at once."""

from __future__ import annotations

from math import comb

import numpy as np

from game.ai.endgames.build.retrograde import MoveGraph, flip_codes, later_codes
from game.ai.endgames.mulino import table_size
from game.rules.mulino import ADJACENT, FLIES_WITH, MILLS, MILLS_AT

POINTS = 24


def _popcounts() -> np.ndarray:
    masks = np.arange(1 << POINTS, dtype=np.uint32)
    counts = np.zeros(1 << POINTS, np.uint8)
    for bit in range(POINTS):
        counts += ((masks >> bit) & 1).astype(np.uint8)
    return counts


class Ranks:
    """Every point set of up to four points in colexicographic order (numeric mask order),
    and each mask's rank among the sets of its size."""

    def __init__(self) -> None:
        counts = _popcounts()
        self.masks = {k: np.flatnonzero(counts == k).astype(np.int64) for k in (2, 3, 4)}
        self.rank = np.zeros(1 << POINTS, np.int64)
        for masks in self.masks.values():
            self.rank[masks] = np.arange(len(masks))


def positions(ranks: Ranks, mover: int, other: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Mover masks, other masks and table indices of every real position of table
    ``(mover, other)``."""
    movers, others = ranks.masks[mover], ranks.masks[other]
    m = np.repeat(movers, len(others))
    o = np.tile(others, len(movers))
    index = np.flatnonzero((m & o) == 0)
    assert len(m) == table_size(mover, other)
    return m[index], o[index], index


def _free_to_remove(others: np.ndarray) -> np.ndarray:
    """The pieces that may be removed: those outside mills, or any if all stand in mills."""
    in_mills = np.zeros_like(others)
    for mill in MILLS:
        in_mills |= np.where((others & mill) == mill, mill, 0)
    free = others & ~in_mills
    return np.where(free == 0, others, free)


def _closes_mill(mover: np.ndarray, to: int) -> np.ndarray:
    first, second = MILLS_AT[to]
    closes: np.ndarray = ((mover & first) == first) | ((mover & second) == second)
    return closes


class Graph:
    """Edges and options of a group of tables; ``offsets`` places each table in the group."""

    def __init__(self, offsets: dict[tuple[int, int], int], size: int) -> None:
        self.offsets = offsets
        self.valid = np.zeros(size, bool)
        self.parents: list[np.ndarray] = []
        self.children: list[np.ndarray] = []
        self.option_parents: list[np.ndarray] = []
        self.option_codes: list[np.ndarray] = []

    def option(self, parents: np.ndarray, codes: np.ndarray) -> None:
        self.option_parents.append(parents.astype(np.int32))
        self.option_codes.append(codes.astype(np.uint8))

    def solvable(self) -> MoveGraph:
        """The graph as :func:`retrograde.solve` takes it, the parts joined and let go."""

        def join(parts: list[np.ndarray], dtype: type) -> np.ndarray:
            joined: np.ndarray = np.concatenate(parts, dtype=dtype) if parts else np.zeros(0, dtype)
            parts.clear()
            return joined

        return MoveGraph(
            self.valid,
            join(self.parents, np.int32),
            join(self.children, np.int32),
            join(self.option_parents, np.int32),
            join(self.option_codes, np.uint8),
        )


def add_table(
    graph: Graph,
    ranks: Ranks,
    size: tuple[int, int],
    three_three: np.ndarray | None,
    ceylonese: bool,
) -> None:
    """Every move of every position of table ``size`` into ``graph``.  ``three_three`` is
    the solved 3-against-3 table, which removals from four pieces lead into."""
    mover_count, other_count = size
    movers, others, index = positions(ranks, mover_count, other_count)
    base = graph.offsets[size]
    graph.valid[base + index] = True
    parents_all = (base + index).astype(np.int64)
    free_all = _free_to_remove(others)
    flying = mover_count == FLIES_WITH
    child_base = graph.offsets.get((other_count, mover_count))
    for start in range(POINTS):
        mine = np.flatnonzero((movers >> start) & 1)
        m, o, parents, free = movers[mine], others[mine], parents_all[mine], free_all[mine]
        occupied = m | o
        targets = [t for t in range(POINTS) if t != start] if flying else _neighbours(start)
        for to in targets:
            ok = np.flatnonzero(((occupied >> to) & 1) == 0)
            moved = m[ok] ^ ((1 << start) | (1 << to))
            mill = _closes_mill(moved, to)
            quiet = ~mill
            assert child_base is not None
            graph.parents.append(parents[ok][quiet].astype(np.int32))
            graph.children.append(
                (
                    child_base
                    + ranks.rank[o[ok][quiet]] * comb(POINTS, mover_count)
                    + ranks.rank[moved[quiet]]
                ).astype(np.int32)
            )
            if not mill.any():
                continue
            milled = np.flatnonzero(mill)
            if other_count == 3:  # the removal leaves two: the game is won
                graph.option(parents[ok][milled], np.full(len(milled), 1 + 2, np.uint8))
                continue
            assert three_three is not None
            _removals(
                graph, ranks, parents[ok][milled], moved[milled], o[ok][milled],
                free[ok][milled], three_three, ceylonese,
            )  # fmt: skip


def _removals(
    graph: Graph,
    ranks: Ranks,
    parents: np.ndarray,
    movers: np.ndarray,
    others: np.ndarray,
    free: np.ndarray,
    three_three: np.ndarray,
    ceylonese: bool,
) -> None:
    """A mover with three pieces closed a mill against four: each removal leads to 3 against
    3, the other side to move — or, in ceylonese, the mover's extra move or its pass."""
    sets = comb(POINTS, 3)
    for point in range(POINTS):
        hit = np.flatnonzero((free >> point) & 1)
        if not len(hit):
            continue
        left = others[hit] ^ (1 << point)
        mine = movers[hit]
        theirs_to_move = three_three[ranks.rank[left] * sets + ranks.rank[mine]]
        pass_or_not = flip_codes(theirs_to_move, 3 if ceylonese else 2)
        graph.option(parents[hit], pass_or_not)
        if ceylonese:  # the extra move: the mover moves again in 3 against 3
            mine_to_move = three_three[ranks.rank[mine] * sets + ranks.rank[left]]
            graph.option(parents[hit], later_codes(mine_to_move, 2))


def _neighbours(point: int) -> list[int]:
    return [p for p in range(POINTS) if ADJACENT[point] >> p & 1]
