"""Tables that list the set bits of a mask at once, for the bitboard games.

>>> bit_table(4, 10)[0b1010]
(11, 13)
"""

from __future__ import annotations


def bit_table(width: int, add: int) -> tuple[tuple[int, ...], ...]:
    """For each mask of ``width`` bits, the indices of its set bits in order, plus ``add``
    (to place a slice of a wider mask, or to turn a point into an action).

    Built by doubling: the masks whose highest bit is ``i`` are the masks below it with
    ``i`` appended — one tuple a mask, not one test a bit a mask (the rules load in every
    process the game starts, and Mulino's four tables of 4,096 cost 90 ms bit by bit)."""
    table: list[tuple[int, ...]] = [()]
    for i in range(width):
        table += [(*low, add + i) for low in table]
    return tuple(table)
