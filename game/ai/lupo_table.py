"""The solved game of Lupo e pecore: every position's value under perfect play.

A position is four sheep, the wolf's square and who moves.  Its entry is one byte:
``(win << 7) | plies``, where ``win`` says whether the side to move wins and ``plies``
(0–127) how many plies the game lasts with best play (the winner hurries, the loser delays);
positions that cannot occur hold 0 and are never looked up.  The table is built by retrograde
analysis
(``python tools/build_lupo_table.py``) and shipped zlib-compressed as
``assets/ai/lupo.bin``; :func:`solve` can rebuild it anywhere.

The sheep only ever step forward, so the positions ordered by how far the sheep have
advanced form a graph without cycles: one backward pass over them solves the game.
"""

from __future__ import annotations

import zlib
from functools import cache
from itertools import combinations
from math import comb

from game.resources import MissingAssetError, asset_bytes
from game.rules.checkerboard import NEIGHBOURS, SQUARES, STEPS, WHITE, coords

SHEEP_SETS = comb(SQUARES, 4)
ENTRIES = SHEEP_SETS * SQUARES * 2
ASSET = "ai/lupo.bin"
WOLF_TO_MOVE, SHEEP_TO_MOVE = 0, 1
_ROW = tuple(coords(s)[1] for s in range(SQUARES))


def sheep_index(sheep: tuple[int, ...]) -> int:
    """The rank of a sorted set of four squares among all such sets (combinatorial numbers)."""
    return sum(comb(square, k + 1) for k, square in enumerate(sheep))


def entry_index(sheep: tuple[int, ...], wolf: int, sheep_to_move: bool) -> int:
    return (sheep_index(sheep) * SQUARES + wolf) * 2 + sheep_to_move


def _wolf_through(sheep: tuple[int, ...], wolf: int) -> bool:
    return _ROW[wolf] < min(_ROW[s] for s in sheep)


def solve() -> bytearray:
    """Retrograde analysis of every position (about a minute in CPython)."""
    table = bytearray(ENTRIES)
    sets = sorted(combinations(range(SQUARES), 4), key=lambda s: -sum(_ROW[q] for q in s))
    for sheep in sets:
        occupied = set(sheep)
        base = sheep_index(sheep) * SQUARES
        moves = [
            tuple(sorted((*(s for s in sheep if s != start), to)))
            for start in sheep
            for to in STEPS[WHITE][start]
            if to not in occupied
        ]
        for side in (SHEEP_TO_MOVE, WOLF_TO_MOVE):  # the wolf's positions need the sheep's
            for wolf in range(SQUARES):
                if wolf in occupied or _wolf_through(sheep, wolf):
                    continue  # impossible, or already over
                children = []
                if side == SHEEP_TO_MOVE:
                    for after in moves:
                        if wolf in after:
                            continue
                        if _wolf_through(after, wolf):
                            children.append(_WOLF_HAS_WON)
                        else:
                            children.append(table[entry_index(after, wolf, False)])
                else:
                    for to in NEIGHBOURS[wolf]:
                        if to in occupied:
                            continue
                        if _wolf_through(sheep, to):
                            children.append(_MOVER_WINS)
                        else:
                            children.append(table[(base + to) * 2 + SHEEP_TO_MOVE])
                table[(base + wolf) * 2 + side] = _value(children)
    return table


_WOLF_HAS_WON = 0x80  # the side to move there (the wolf) has won, in no more plies
_MOVER_WINS = -1


def _value(children: list[int]) -> int:
    """A position's entry from its children's entries (each for the side to move there)."""
    if not children:
        return 0  # no move: the side to move has lost
    best_win, best_loss = None, None
    for entry in children:
        if entry == _MOVER_WINS:
            return 0x80 | 1
        plies = (entry & 0x7F) + 1
        if entry >> 7:  # the opponent wins from there: lose as late as possible
            best_loss = plies if best_loss is None else max(best_loss, plies)
        else:  # the opponent loses from there: win as soon as possible
            best_win = plies if best_win is None else min(best_win, plies)
    if best_win is not None:
        return 0x80 | min(127, best_win)
    return min(127, best_loss or 0)


@cache
def table() -> bytes:
    """The shipped table (or, if it is missing, one solved now)."""
    try:
        data = zlib.decompress(asset_bytes(ASSET))
    except (MissingAssetError, zlib.error):
        return bytes(solve())
    if len(data) != ENTRIES:
        return bytes(solve())
    return data


def lookup(sheep: tuple[int, ...], wolf: int, sheep_to_move: bool) -> tuple[bool, int]:
    """(whether the side to move wins, plies to the end) of a position."""
    entry = table()[entry_index(tuple(sorted(sheep)), wolf, sheep_to_move)]
    return bool(entry >> 7), entry & 0x7F
