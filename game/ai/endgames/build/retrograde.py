"""Retrograde analysis of a game graph held in numpy arrays.

The positions of a *group* are numbered ``0 … size-1``.  A move from one position to
another of the group is an *edge* (``parents[i] → children[i]``, one ply, the other side to
move there).  A move that leaves the group — into a table solved before, or straight to the
end of the game — is an *option*: its value for the mover is already known and given as a
table code (:mod:`game.ai.endgames.codes`) from the mover's point of view.

The solver works level by level: a position wins in ``n`` plies when one of its moves
reaches a position lost in ``n - 1`` (or an option wins in ``n``), and loses in ``n`` when
every move reaches a position won in fewer (and no option does better).  What is left when
nothing changes any more is a draw.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from game.ai.endgames.codes import ABSENT, DRAW, LOSS_BASE, MAX_PLIES, WIN_BASE

NEVER = np.int16(MAX_PLIES + 10)


def flip_codes(codes: np.ndarray, plies: int) -> np.ndarray:
    """Codes for the other side, ``plies`` earlier (the move that leads there)."""
    codes = codes.astype(np.int16)
    out = np.zeros_like(codes)
    won, lost = (codes >= WIN_BASE) & (codes < LOSS_BASE), (codes >= LOSS_BASE) & (codes < ABSENT)
    out[won] = codes[won] - WIN_BASE + LOSS_BASE + plies
    out[lost] = codes[lost] - LOSS_BASE + WIN_BASE + plies
    _check(out)
    return out.astype(np.uint8)


def later_codes(codes: np.ndarray, plies: int) -> np.ndarray:
    """Codes for the same side, ``plies`` earlier (its own action leads there)."""
    codes = codes.astype(np.int16)
    out = np.where(codes == DRAW, codes, codes + plies)
    _check(out)
    return out.astype(np.uint8)


def _check(codes: np.ndarray) -> None:
    too_long = ((codes > WIN_BASE + MAX_PLIES) & (codes < LOSS_BASE)) | (
        codes > LOSS_BASE + MAX_PLIES
    )
    if too_long.any():
        raise OverflowError(f"a distance beyond {MAX_PLIES} plies does not fit a table byte")


def _count(indices: np.ndarray, size: int) -> np.ndarray:
    """``np.bincount`` a slice at a time: it widens its input to 64 bits, which for the
    largest graphs would be gigabytes at once."""
    counts = np.zeros(size, np.int32)
    for start in range(0, len(indices), 1 << 25):
        counts += np.bincount(indices[start : start + (1 << 25)], minlength=size).astype(np.int32)
    return counts


@dataclass
class MoveGraph:
    """A group's positions (``valid`` marks the indices that are positions), its edges and
    its options (see the module's docstring)."""

    valid: np.ndarray
    parents: np.ndarray | None
    children: np.ndarray | None
    option_parents: np.ndarray
    option_codes: np.ndarray

    def take_edges(self) -> tuple[np.ndarray, np.ndarray]:
        """The edges, handed over: the graph forgets them, so that the solver can let go of
        the ones it no longer needs (the largest group has some 700 million)."""
        assert self.parents is not None and self.children is not None, "edges already taken"
        edges = self.parents, self.children
        self.parents = self.children = None
        return edges


def solve(
    graph: MoveGraph,
    stuck_wins: bool = False,
    progress: Callable[[int, int, int], None] | None = None,
) -> np.ndarray:
    """The table codes of a group, its edges consumed.  A position without any move is lost
    (won, with ``stuck_wins``, as in Mangia la dama).  ``progress`` is told after each level:
    the level, the positions unsolved, the edges kept."""
    valid, option_parents, option_codes = graph.valid, graph.option_parents, graph.option_codes
    parents, children = graph.take_edges()
    size = len(valid)
    best_win = np.full(size, NEVER, np.int16)
    latest_loss = np.zeros(size, np.int16)
    option_codes = option_codes.astype(np.int16)
    for code in np.unique(option_codes)[::-1]:  # descending: the smallest win written last
        where = option_parents[option_codes == code]
        if WIN_BASE <= code < LOSS_BASE:
            best_win[where] = code - WIN_BASE
    for code in np.unique(option_codes):  # ascending: the latest loss written last
        if code >= LOSS_BASE:
            latest_loss[option_parents[option_codes == code]] = code - LOSS_BASE
    draw_option = _count(option_parents[option_codes == DRAW], size) > 0
    escapes = draw_option | (best_win < NEVER)
    in_degree = _count(parents, size)
    degree = in_degree + _count(option_parents, size)

    won = np.zeros(size, bool)
    lost = np.zeros(size, bool)
    plies = np.zeros(size, np.int16)
    stuck = valid & (degree == 0)
    (won if stuck_wins else lost)[stuck] = True
    nothing = np.zeros(size, bool)
    fresh_won, fresh_lost = (stuck, nothing) if stuck_wins else (nothing, stuck)
    unresolved = valid & ~stuck
    wins_seen = np.zeros(size, np.int32)
    last_option = int(max(best_win[best_win < NEVER].max(initial=0), latest_loss.max()))
    level = 0
    compacted_at = int(unresolved.sum())
    while fresh_won.any() or fresh_lost.any() or level < last_option:
        level += 1
        if level > MAX_PLIES:
            raise OverflowError(f"a distance beyond {MAX_PLIES} plies does not fit a table byte")
        reaches_loss = np.zeros(size, bool)
        if fresh_lost.any():
            reaches_loss[parents[fresh_lost[children]]] = True
        if fresh_won.any():
            wins_seen += _count(parents[fresh_won[children]], size)
        fresh_won = unresolved & (reaches_loss | (best_win == level))
        fresh_lost = (
            unresolved & ~fresh_won & (wins_seen == in_degree) & ~escapes & (latest_loss <= level)
        )
        won |= fresh_won
        lost |= fresh_lost
        plies[fresh_won | fresh_lost] = level
        unresolved &= ~(fresh_won | fresh_lost)
        unresolved_count = int(unresolved.sum())
        if progress is not None:
            progress(level, unresolved_count, len(parents))
        if unresolved_count < 0.75 * compacted_at:  # drop the edges out of solved positions
            compacted_at = unresolved_count
            keep = unresolved[parents]
            parents = parents[keep]
            children = children[keep]
            del keep

    codes = np.full(size, ABSENT, np.uint8)
    codes[valid] = DRAW
    codes[won] = (WIN_BASE + plies[won]).astype(np.uint8)
    codes[lost] = (LOSS_BASE + plies[lost]).astype(np.uint8)
    return codes
