"""The move graph of Dama and Mangia la dama with at most four pieces, for
:mod:`game.ai.endgames.dama`'s tables.

Positions are enumerated one by one and their moves made by the rules' own generator on
bare masks (:func:`game.rules.dama.moves_of`), in worker processes.  Signatures are solved in
*groups* of equal piece count and equal number of men, fewest first: a capture leaves fewer
pieces and a crowning fewer men, so every move leaves its group only for one solved before.
"""

from __future__ import annotations

import multiprocessing
from array import array
from collections.abc import Iterator
from itertools import combinations

import numpy as np

from game.ai.endgames.build.retrograde import MoveGraph, flip_codes
from game.ai.endgames.codes import LOSS_BASE, WIN_BASE
from game.ai.endgames.dama import MAN_SQUARES, SIGNATURES, index, rotate, signature, table_size
from game.rules.checkerboard import FAR_ROW, WHITE
from game.rules.dama import moves_of


def groups() -> list[tuple[tuple[int, int, int, int], ...]]:
    """The signatures in the order they can be solved, grouped."""
    keyed: dict[tuple[int, int], list[tuple[int, int, int, int]]] = {}
    for sig in SIGNATURES:
        keyed.setdefault((sum(sig), sig[0] + sig[2]), []).append(sig)
    return [tuple(keyed[key]) for key in sorted(keyed)]


def _masks(count: int, squares: range) -> list[int]:
    """Every set of ``count`` of ``squares`` as a mask, in increasing (colex) order."""
    return sorted(sum(1 << s for s in chosen) for chosen in combinations(squares, count))


_MOVER_MEN = {k: _masks(k, range(4, 32)) for k in range(5)}
_OTHER_MEN = {k: _masks(k, range(MAN_SQUARES)) for k in range(5)}
_KINGS = {k: _masks(k, range(32)) for k in range(5)}

# Set in the parent before the workers fork: the group being built and the tables solved.
_GROUP_OFFSETS: dict[tuple[int, int, int, int], int] = {}
_SOLVED: dict[tuple[int, int, int, int], np.ndarray] = {}
_MANGIA = False


def _positions(
    sig: tuple[int, int, int, int], first: int, last: int
) -> Iterator[tuple[int, int, int, int, int]]:
    """(table index, mover men, mover kings, other men, other kings) of every real position
    with an index in ``first … last - 1``."""
    a, b, c, d = sig
    lists = (_MOVER_MEN[a], _KINGS[b], _OTHER_MEN[c], _KINGS[d])
    sizes = [len(x) for x in lists]
    for at in range(first, last):
        rest, picks = at, []
        for size in reversed(sizes):
            rest, pick = divmod(rest, size)
            picks.append(pick)
        men, kings, other_men, other_kings = (lists[i][p] for i, p in enumerate(reversed(picks)))
        if (men | kings) & (other_men | other_kings) or men & kings or other_men & other_kings:
            continue
        yield at, men, kings, other_men, other_kings


def _chunk(task: tuple[tuple[int, int, int, int], int, int]) -> tuple[bytes, ...]:
    """Valid indices, edges and options (raw child codes, still to flip) of a slice."""
    sig, first, last = task
    base = _GROUP_OFFSETS[sig]
    valid, parents, children = array("q"), array("q"), array("q")
    option_parents, option_codes = array("q"), array("B")
    far = FAR_ROW[WHITE]
    for at, men, kings, other_men, other_kings in _positions(sig, first, last):
        parent = base + at
        valid.append(parent)
        moves, _ = moves_of(WHITE, men, kings, other_men | other_kings)
        for start, to, captured in moves.values():
            start_bit, to_bit = 1 << start, 1 << to
            if men & start_bit:
                new_men, new_kings = men ^ start_bit, kings
                if to_bit & far:
                    new_kings |= to_bit
                else:
                    new_men |= to_bit
            else:
                new_men, new_kings = men, kings ^ start_bit ^ to_bit
            left_men, left_kings = other_men & ~captured, other_kings & ~captured
            if not left_men | left_kings:
                # The other side has no piece at its turn: it has lost at once (Dama) or
                # won (Mangia); like every option, stored as that side's code, flipped later.
                option_parents.append(parent)
                option_codes.append(WIN_BASE if _MANGIA else LOSS_BASE)
                continue
            child = (rotate(left_men), rotate(left_kings), rotate(new_men), rotate(new_kings))
            child_sig = signature(*child)
            child_at = index(*child)
            if child_sig in _GROUP_OFFSETS:
                parents.append(parent)
                children.append(_GROUP_OFFSETS[child_sig] + child_at)
            else:
                option_parents.append(parent)
                option_codes.append(int(_SOLVED[child_sig][child_at]))
    return tuple(x.tobytes() for x in (valid, parents, children, option_parents, option_codes))


def build_group(
    group: tuple[tuple[int, int, int, int], ...],
    solved: dict[tuple[int, int, int, int], np.ndarray],
    mangia: bool,
    processes: int,
) -> MoveGraph:
    """A group's moves for :func:`retrograde.solve`; offsets in the group follow the order
    of ``group``."""
    global _MANGIA
    _GROUP_OFFSETS.clear()
    at = 0
    for sig in group:
        _GROUP_OFFSETS[sig] = at
        at += table_size(sig)
    _SOLVED.clear()
    _SOLVED.update(solved)
    _MANGIA = mangia
    tasks = []
    for sig in group:
        step = max(1, table_size(sig) // (8 * processes))
        tasks += [(sig, s, min(s + step, table_size(sig))) for s in range(0, table_size(sig), step)]
    if processes == 1:  # in this process: a program with threads must never fork
        parts = [_chunk(task) for task in tasks]
    else:  # the children inherit the tables above: fork, from the one-threaded tool
        with multiprocessing.get_context("fork").Pool(processes) as pool:
            parts = pool.map(_chunk, tasks)
    valid = np.zeros(at, bool)
    columns = [b"".join(p[i] for p in parts) for i in range(5)]
    valid[np.frombuffer(columns[0], np.int64)] = True
    parents = np.frombuffer(columns[1], np.int64).astype(np.int32)
    children = np.frombuffer(columns[2], np.int64).astype(np.int32)
    option_parents = np.frombuffer(columns[3], np.int64).astype(np.int32)
    option_codes = flip_codes(np.frombuffer(columns[4], np.uint8), 1)
    return MoveGraph(valid, parents, children, option_parents, option_codes)
