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

from game.client.surface_cache import clear_caches, surface_cache
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
THEMED_SHEETS = {"contrast": {"pieces": "pieces_contrast"}}
"""The sheets a board theme draws its own way (the others are shared)."""
_theme = {"name": "wood"}


def use_theme(name: str) -> None:
    """Draw the pieces of board theme ``name`` from now on.  Every drawing cache is emptied:
    they hold pieces (faint, tinted, in pictures) drawn in the old theme."""
    if name != _theme["name"]:
        _theme["name"] = name
        clear_caches()


@cache
def _sheet(name: str) -> pygame.Surface | None:
    try:
        image = pygame.image.load(io.BytesIO(asset_bytes(f"art/{name}.png")), f"{name}.png")
    except (MissingAssetError, pygame.error) as error:
        log.error("sprite sheet %s unavailable (%s): drawing plain shapes", name, error)
        return None
    return image.convert_alpha() if pygame.display.get_surface() else image


SOLID = 248
"""Opacity from which a scaled sprite's pixel is made fully opaque: smooth scaling leaves a
piece's face at 253 of 255, which lets a board's lines show through a flat white stone."""


def _solid(frame: pygame.Surface) -> pygame.Surface:
    """``frame`` with its nearly opaque pixels made opaque (its soft edges kept)."""
    opaque = frame.copy()
    opaque.fill((0, 0, 0, 255), special_flags=pygame.BLEND_RGBA_MAX)  # same colours, opaque
    solid = pygame.mask.from_surface(frame, SOLID - 1)
    return solid.to_surface(frame.copy(), setsurface=opaque, unsetsurface=frame)


@surface_cache(entries=256, megabytes=32)
def sprite(name: str, size: int, tint: tuple[int, int, int] | None = None) -> pygame.Surface:
    """Frame ``name`` scaled to ``size``×``size`` pixels, optionally multiplied by ``tint``."""
    sheet_name = SHEET_OF[name]
    sheet = _sheet(THEMED_SHEETS.get(_theme["name"], {}).get(sheet_name, sheet_name))
    size = max(2, size)
    if sheet is None:
        frame = pygame.Surface((size, size), pygame.SRCALPHA)
        pygame.draw.circle(frame, tint or (200, 200, 200), (size // 2, size // 2), size * 2 // 5)
        return frame
    index = FRAMES[sheet_name].index(name)
    frame = sheet.subsurface((index * FRAME, 0, FRAME, FRAME))
    frame = _solid(pygame.transform.smoothscale(frame, (size, size)))
    if tint is not None:
        frame = frame.copy()
        frame.fill((*tint, 255), special_flags=pygame.BLEND_RGBA_MULT)
    return frame
