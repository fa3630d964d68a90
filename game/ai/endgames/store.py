"""Reading a shipped table: lzma-compressed bytes under ``assets/ai/``, read once per process
when first needed.  A missing or damaged table is reported once and then treated as absent:
the computer goes on playing by search alone."""

from __future__ import annotations

import logging
import lzma
from functools import cache
from math import comb

from game.resources import MissingAssetError, asset_bytes

log = logging.getLogger(__name__)


@cache
def load(asset: str, size: int) -> bytes | None:
    """The table in ``asset`` if it is there, readable and ``size`` bytes long."""
    try:
        data = lzma.decompress(asset_bytes(asset))
    except (MissingAssetError, lzma.LZMAError) as error:
        log.warning("endgame table %s unusable (%s): playing by search alone", asset, error)
        return None
    if len(data) != size:
        log.warning("endgame table %s has %d bytes, not %d: ignored", asset, len(data), size)
        return None
    return data


@cache
def mask_rank(mask: int) -> int:
    """The rank of the set of points of ``mask`` among all sets of as many points in
    colexicographic order — which is the order of their masks as numbers.  Cached: the
    search asks for the same few thousand masks again and again."""
    rank, count = 0, 0
    while mask:
        low = mask & -mask
        count += 1
        rank += comb(low.bit_length() - 1, count)
        mask ^= low
    return rank
