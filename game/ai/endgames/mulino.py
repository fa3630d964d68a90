"""Mulino after placing: 3 against 3, 4 against 3 and 3 against 4 pieces.

Positions are seen from the side to move (the *mover*): a table ``(m, o)`` holds every way of
putting ``m`` mover pieces and ``o`` other pieces on the 24 points, at index
``rank(mover) · C(24, o) + rank(other)`` (:func:`store.mask_rank` of each set, taken over
all 24 points, so that indices where the two sets meet name no position).  Only positions
where the mover is to move (not to remove) are stored: :func:`probe` looks one action ahead
for a removal or a ceylonese extra action.

Classic and misto play the same once both hands are empty and share a file; ceylonese, where
a mill made while moving grants an extra move after the removal, has its own.
"""

from __future__ import annotations

from math import comb

from game.ai.endgames.codes import Verdict, decode, verdict_of
from game.ai.endgames.store import load, mask_rank
from game.ai.search import successor
from game.rules.mulino import FULL, NORMAL, MulinoState

SIZES = ((3, 3), (4, 3), (3, 4))
"""The tables, in the order they are stored: (mover pieces, other pieces)."""
ASSETS = {
    "mulino:classic": "ai/endgames-mulino.xz",
    "mulino:misto": "ai/endgames-mulino.xz",
    "mulino:ceylonese": "ai/endgames-ceylonese.xz",
}


def table_size(mover: int, other: int) -> int:
    return comb(24, mover) * comb(24, other)


OFFSETS = {size: sum(table_size(*s) for s in SIZES[: SIZES.index(size)]) for size in SIZES}
TOTAL = sum(table_size(*size) for size in SIZES)


_SETS = tuple(comb(24, k) for k in range(25))


def index(mover: int, other: int) -> int:
    """Where the position with these masks (mover to move) sits in its table."""
    return mask_rank(mover) * _SETS[other.bit_count()] + mask_rank(other)


def probe(state: MulinoState) -> Verdict | None:
    if state.hand != (0, 0):
        return None
    mover, other = state.men[state.side], state.men[1 - state.side]
    size = (mover.bit_count(), other.bit_count())
    if size not in OFFSETS or state.variant.name not in ASSETS or state.result() is not None:
        return None
    if state.stage != NORMAL:
        return _after_one_action(state)
    return _lookup(state.variant.name, mover, other)


def probe_key(name: str, key: int) -> tuple[int, Verdict | None]:
    """The side to move and the tables' verdict for it at the position of a repetition
    history's ``key`` (:func:`game.rules.mulino.position_key`), None outside the tables."""
    men, side = (key & FULL, key >> 24 & FULL), key >> 48 & 1
    if key >> 49 or name not in ASSETS:  # pieces in hand
        return side, None
    mover, other = men[side], men[1 - side]
    if (mover.bit_count(), other.bit_count()) not in OFFSETS:
        return side, None
    return side, _lookup(name, mover, other)


def _lookup(name: str, mover: int, other: int) -> Verdict | None:
    data = load(ASSETS[name], TOTAL)
    if data is None:
        return None
    return decode(data[OFFSETS[(mover.bit_count(), other.bit_count())] + index(mover, other)])


def _after_one_action(state: MulinoState) -> Verdict | None:
    """A removal or an extra action is due: the best of the positions it can lead to."""
    best: Verdict | None = None
    for action in state.legal_actions():
        child = successor(state, action)
        result = child.result()
        if result is not None:
            verdict = verdict_of(result, state.side, 1)
        else:
            found = probe(child)
            if found is None:
                return None
            same = child.to_move == state.side
            verdict = found.later() if same else found.flipped()
        if best is None or verdict.preference > best.preference:
            best = verdict
    return best
