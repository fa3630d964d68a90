"""The sprite sheets drawn by tools/build_art.py, cut into frames and scaled on demand.

Scaled frames are cached by size, so a layout change costs one smooth scaling per sprite
and a frame costs only blits.  A missing sheet is reported once and replaced by plain
shapes, so a broken install still shows a playable board.
"""

from __future__ import annotations

import io
import logging
from functools import cache

import pygame

from game.client.surface_cache import surface_cache
from game.resources import MissingAssetError, asset_bytes

log = logging.getLogger(__name__)

FRAME = 256
FRAMES = {
    "pieces": (
        "man_white",
        "man_black",
        "king_white",
        "king_black",
        "stone_white",
        "stone_black",
        "wolf",
        "sheep",
    ),
    "dice": ("die_1", "die_2", "die_3", "die_4", "die_5", "die_cow", "die_star"),
    "marks": ("mark_x", "mark_o", "pawn"),
}
SHEET_OF = {frame: sheet for sheet, frames in FRAMES.items() for frame in frames}


@cache
def _sheet(name: str) -> pygame.Surface | None:
    try:
        image = pygame.image.load(io.BytesIO(asset_bytes(f"art/{name}.png")), f"{name}.png")
    except (MissingAssetError, pygame.error) as error:
        log.error("sprite sheet %s unavailable (%s): drawing plain shapes", name, error)
        return None
    return image.convert_alpha() if pygame.display.get_surface() else image


@surface_cache(entries=256, megabytes=32)
def sprite(name: str, size: int, tint: tuple[int, int, int] | None = None) -> pygame.Surface:
    """Frame ``name`` scaled to ``size``×``size`` pixels, optionally multiplied by ``tint``."""
    sheet_name = SHEET_OF[name]
    sheet = _sheet(sheet_name)
    size = max(2, size)
    if sheet is None:
        frame = pygame.Surface((size, size), pygame.SRCALPHA)
        pygame.draw.circle(frame, tint or (200, 200, 200), (size // 2, size // 2), size * 2 // 5)
        return frame
    index = FRAMES[sheet_name].index(name)
    frame = sheet.subsurface((index * FRAME, 0, FRAME, FRAME))
    frame = pygame.transform.smoothscale(frame, (size, size))
    if tint is not None:
        frame = frame.copy()
        frame.fill((*tint, 255), special_flags=pygame.BLEND_RGBA_MULT)
    return frame
