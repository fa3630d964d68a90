"""Dama and Mangia la dama with at most four pieces, men and kings.

Positions are seen from the side to move, turned so that it plays upwards as White does
(the board rotated half a turn for Black: square ``s`` becomes ``31 - s``).  A *signature*
``(a, b, c, d)`` counts the mover's men and kings and the other side's men and kings; its
table holds every way of placing them at index
``((rank(a-men) · C(32, b) + rank(b-kings)) · C(28, c) + rank(c-men)) · C(32, d) + rank(d-kings)``,
men ranked over the 28 squares they can stand on (never their crowning row) and kings over
all 32 (:func:`store.mask_rank`); indices where two pieces meet name no position.

The tables assume that capturing is compulsory: Dama with huffing on is left to the search.
"""

from __future__ import annotations

from math import comb

from game.ai.endgames.codes import Verdict, decode
from game.ai.endgames.store import load, mask_rank
from game.rules.dama import DamaState

MOST_PIECES = 4
MAN_SQUARES = 28
SIGNATURES = tuple(
    (a, b, c, d)
    for pieces in range(2, MOST_PIECES + 1)
    for a in range(pieces + 1)
    for b in range(pieces + 1 - a)
    for c in range(pieces + 1 - a - b)
    for d in (pieces - a - b - c,)
    if a + b and c + d
)
"""Every signature, in the order the tables are stored."""
ASSETS = {"dama:classic": "ai/endgames-dama.xz", "dama:mangia": "ai/endgames-mangia.xz"}


def table_size(signature: tuple[int, int, int, int]) -> int:
    a, b, c, d = signature
    return comb(MAN_SQUARES, a) * comb(32, b) * comb(MAN_SQUARES, c) * comb(32, d)


OFFSETS = {s: sum(table_size(t) for t in SIGNATURES[: SIGNATURES.index(s)]) for s in SIGNATURES}
TOTAL = sum(table_size(s) for s in SIGNATURES)

_MAN_SETS = tuple(comb(MAN_SQUARES, k) for k in range(MOST_PIECES + 1))
_KING_SETS = tuple(comb(32, k) for k in range(MOST_PIECES + 1))
_REVERSED_BYTE = tuple(int(f"{b:08b}"[::-1], 2) for b in range(256))


def rotate(mask: int) -> int:
    """A 32-square mask turned half a turn: square ``s`` becomes ``31 - s``."""
    r = _REVERSED_BYTE
    return r[mask & 255] << 24 | r[mask >> 8 & 255] << 16 | r[mask >> 16 & 255] << 8 | r[mask >> 24]


def signature(men: int, kings: int, other_men: int, other_kings: int) -> tuple[int, int, int, int]:
    return (men.bit_count(), kings.bit_count(), other_men.bit_count(), other_kings.bit_count())


def index(men: int, kings: int, other_men: int, other_kings: int) -> int:
    """Where a position sits in its signature's table; the mover plays upwards."""
    at = mask_rank(men >> 4)
    at = at * _KING_SETS[kings.bit_count()] + mask_rank(kings)
    at = at * _MAN_SETS[other_men.bit_count()] + mask_rank(other_men)
    return at * _KING_SETS[other_kings.bit_count()] + mask_rank(other_kings)


def probe(state: DamaState) -> Verdict | None:
    side = state.side
    pieces = (state.men[side], state.kings[side], state.men[1 - side], state.kings[1 - side])
    if sum(p.bit_count() for p in pieces) > MOST_PIECES:
        return None
    asset = ASSETS.get(state.variant.name)
    if asset is None or state.huffing or state.huff or state.result() is not None:
        return None
    return _lookup(asset, side, pieces)


def probe_key(name: str, key: int) -> tuple[int, Verdict | None]:
    """The side to move and the tables' verdict for it at the position of a repetition
    history's ``key`` (``game.rules.dama._key``), None outside the tables."""
    mask = (1 << 32) - 1
    men = (key & mask, key >> 32 & mask)
    kings = (key >> 64 & mask, key >> 96 & mask)
    side, huff = key >> 128 & 1, key >> 129
    asset = ASSETS.get(name)
    pieces = (men[side], kings[side], men[1 - side], kings[1 - side])
    if asset is None or huff or sum(p.bit_count() for p in pieces) > MOST_PIECES:
        return side, None
    return side, _lookup(asset, side, pieces)


def _lookup(asset: str, side: int, pieces: tuple[int, int, int, int]) -> Verdict | None:
    """The verdict of the position ``pieces`` (mover's men and kings, the other's) with
    ``side`` to move."""
    if side == 1:
        pieces = (rotate(pieces[0]), rotate(pieces[1]), rotate(pieces[2]), rotate(pieces[3]))
    data = load(asset, TOTAL)
    if data is None:
        return None
    return decode(data[OFFSETS[signature(*pieces)] + index(*pieces)])
