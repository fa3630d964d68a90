"""Tables that list the set bits of a mask at once, for the bitboard games.

>>> bit_table(4, 10)[0b1010]
(11, 13)
"""

from __future__ import annotations


def bit_table(width: int, add: int) -> tuple[tuple[int, ...], ...]:
    """For each mask of ``width`` bits, the indices of its set bits in order, plus ``add``
    (to place a slice of a wider mask, or to turn a point into an action)."""
    return tuple(
        tuple(add + i for i in range(width) if mask >> i & 1) for mask in range(1 << width)
    )
