"""Colours, fonts and sizes.  Everything scales from the window's height, so any
resolution from 1024×600 to 3840×2160 lays out the same way, sharp at its own size."""

from __future__ import annotations

import io
import logging
from dataclasses import dataclass
from functools import cache
from typing import Literal

import pygame

from game.client.surface_cache import surface_cache
from game.resources import MissingAssetError, asset_bytes

log = logging.getLogger(__name__)

Colour = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class Palette:
    background: Colour
    panel: Colour
    text: Colour
    muted: Colour
    accent: Colour
    button: Colour
    button_text: Colour
    focus: Colour
    legal: Colour
    warning: Colour
    last_move: Colour
    """Where the last turn moved from and to, apart from legal moves, focus and warnings."""
    seats: tuple[Colour, Colour, Colour, Colour]


STANDARD = Palette(
    background=(32, 52, 44),
    panel=(24, 38, 33),
    text=(240, 236, 224),
    muted=(170, 176, 160),
    accent=(236, 190, 84),
    button=(70, 104, 88),
    button_text=(250, 248, 240),
    focus=(255, 220, 120),
    legal=(120, 220, 140),
    warning=(230, 110, 90),
    last_move=(96, 200, 255),
    seats=((222, 64, 56), (58, 120, 220), (70, 170, 80), (240, 200, 40)),
)
# Okabe–Ito colours: told apart with every common colour-vision deficiency.
COLOUR_BLIND_SAFE = Palette(
    background=(30, 40, 56),
    panel=(22, 30, 42),
    text=(245, 245, 240),
    muted=(175, 180, 190),
    accent=(230, 159, 0),
    button=(60, 80, 110),
    button_text=(250, 250, 250),
    focus=(240, 228, 66),
    legal=(86, 180, 233),
    warning=(213, 94, 0),
    last_move=(204, 121, 167),
    seats=((213, 94, 0), (0, 114, 178), (0, 158, 115), (240, 228, 66)),
)


def palette(colour_blind: bool) -> Palette:
    return COLOUR_BLIND_SAFE if colour_blind else STANDARD


@dataclass(frozen=True, slots=True)
class Boards:
    """What the boards are painted with: one set per board theme (the pieces, dice and
    marks are the sprites of ``tools/build_art.py`` in every theme)."""

    name: str
    dama_light: Colour
    dama_dark: Colour
    dama_frame: Colour
    dama_number: Colour
    mill_board: Colour
    mill_line: Colour
    mill_label: Colour
    sheet_paper: Colour
    sheet_ink: Colour
    sheet_grid: Colour
    sheet_label: Colour
    track_start: Colour
    track_plain: Colour
    track_end: Colour
    track_edge: Colour
    track_digits: Colour
    track_start_digits: Colour
    track_path: Colour
    track_barrier: Colour


WOOD = Boards(
    "wood",
    dama_light=(233, 214, 176), dama_dark=(118, 84, 58), dama_frame=(70, 44, 28),
    dama_number=(214, 186, 146),
    mill_board=(214, 178, 122), mill_line=(70, 48, 30), mill_label=(112, 80, 50),
    sheet_paper=(246, 242, 228), sheet_ink=(70, 80, 110), sheet_grid=(170, 180, 200),
    sheet_label=(120, 118, 130),
    track_start=(140, 30, 40), track_plain=(236, 228, 206), track_end=(246, 210, 70),
    track_edge=(90, 70, 50), track_digits=(60, 50, 40), track_start_digits=(250, 240, 230),
    track_path=(120, 100, 70), track_barrier=(200, 40, 40),
)  # fmt: skip
"""Warm wood and paper, as the leaflets' boards."""
CONTRAST = Boards(
    "contrast",
    dama_light=(255, 255, 255), dama_dark=(60, 150, 240), dama_frame=(0, 0, 0),
    dama_number=(255, 255, 255),
    mill_board=(255, 214, 0), mill_line=(0, 0, 0), mill_label=(0, 0, 0),
    sheet_paper=(255, 255, 255), sheet_ink=(0, 0, 0), sheet_grid=(0, 0, 0),
    sheet_label=(0, 0, 0),
    track_start=(170, 0, 0), track_plain=(255, 255, 255), track_end=(255, 214, 0),
    track_edge=(0, 0, 0), track_digits=(0, 0, 0), track_start_digits=(255, 255, 255),
    track_path=(0, 0, 0), track_barrier=(220, 0, 0),
)  # fmt: skip
"""Black on white and yellow, and Dama's playing squares a middle blue that both colours of
pieces stand out from: for low vision and bright rooms."""
BOARD_THEMES = {boards.name: boards for boards in (WOOD, CONTRAST)}


MIN_CONTRAST = 3.0
"""The least contrast a marker on a board keeps with the board under it: WCAG 2.x's for what
must be seen but is not text (success criterion 1.4.11)."""
BLACK: Colour = (0, 0, 0)
WHITE: Colour = (255, 255, 255)
HALO_CONTRAST = 4.5
"""The contrast a marker's halo aims for, where a shade of its colour reaches it: plainly
seen, not just enough (a halo at 3:1 on the yellow Mulino board reads as a faint line)."""
HALO_STEPS = 32


def luminance(colour: Colour) -> float:
    """WCAG 2.x relative luminance: the sRGB channels linearised, then weighted."""

    def linear(channel: int) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: Colour, b: Colour) -> float:
    """WCAG 2.x contrast ratio of two colours: 1 (the same) to 21 (black and white)."""
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


MarkerKind = Literal["hint", "last_move", "legal", "focus"]


def marker_colour(kind: MarkerKind, palette: Palette) -> Colour:
    """The palette's colour for a kind of marker on a board: a hint is drawn in the accent,
    the others in the colour named after them."""
    return palette.accent if kind == "hint" else getattr(palette, kind)


@dataclass(frozen=True, slots=True)
class Marker:
    """How a marker is drawn on a board: in its palette colour and, where that colour alone
    would not stand out from the board, inside a halo of its own hue that does."""

    colour: Colour
    """The palette's colour, unchanged: what tells the markers apart."""
    halo: Colour | None = None
    """An outline round the marker on both sides (a double stroke), or None."""

    @property
    def edge(self) -> Colour:
        """The colour the marker meets the board with."""
        return self.colour if self.halo is None else self.halo


@cache
def marker(colour: Colour, grounds: tuple[Colour, ...]) -> Marker:
    """``colour`` drawn as a marker over ``grounds`` (the colours of the squares, points,
    cells or spaces under and beside it): as it is if it stands out from all of them, else
    with a halo that does."""
    if all(contrast(colour, ground) >= MIN_CONTRAST for ground in grounds):
        return Marker(colour)
    return Marker(colour, _halo(colour, grounds))


def _halo(colour: Colour, grounds: tuple[Colour, ...]) -> Colour:
    """The shade of ``colour`` closest to it that stands out from every ground and from
    ``colour`` itself — by :data:`HALO_CONTRAST` if a shade can, else by the least
    :data:`MIN_CONTRAST` — darker if one does, else lighter (the markers' colours are light,
    most boards too); black or white, whichever stands out more, if no shade does."""
    against = (*grounds, colour)
    for wanted in (HALO_CONTRAST, MIN_CONTRAST):
        for end in (BLACK, WHITE):
            for step in range(1, HALO_STEPS + 1):
                shade = _mix(colour, end, step / HALO_STEPS)
                if all(contrast(shade, ground) >= wanted for ground in against):
                    return shade
    return max((BLACK, WHITE), key=lambda end: min(contrast(end, g) for g in grounds))


def _mix(colour: Colour, other: Colour, amount: float) -> Colour:
    """``colour`` taken ``amount`` (0 to 1) of the way to ``other``."""
    r, g, b = (round(c + (o - c) * amount) for c, o in zip(colour, other, strict=True))
    return r, g, b


SMALLEST = 12
"""No text is drawn smaller than this many pixels, whatever the window (WCAG's readable
floor on a café's 1024x600 panel)."""


TOUCH = 44
"""No button, key or board cell a person taps is narrower or lower than this many pixels,
whatever the window (the platforms' touch guideline, WCAG 2.5.5's target size)."""


def touch(size: float) -> int:
    """A tap target's side: ``size`` rounded, never under :data:`TOUCH`."""
    return max(TOUCH, round(size))


def row(u: int, units: float = 3) -> int:
    """The height of a row of buttons for the layout unit ``u``: ``units`` units (three, a
    screen's usual button), never under :data:`TOUCH` (a 1024x600 panel's unit is 11 px)."""
    return touch(units * u)


def small(size: float) -> int:
    """A secondary text's size: ``size`` rounded, never under :data:`SMALLEST`."""
    return max(SMALLEST, round(size))


@cache
def _font_bytes(bold: bool) -> bytes:
    return asset_bytes("fonts/DejaVuSans-Bold.ttf" if bold else "fonts/DejaVuSans.ttf")


@cache
def font(size: int, bold: bool = False) -> pygame.font.Font:
    """The game's font at ``size`` pixels, never under :data:`SMALLEST` (DejaVu Sans,
    shipped under assets/fonts), or pygame's own font if that file is missing (logged once
    per size)."""
    try:
        return pygame.font.Font(io.BytesIO(_font_bytes(bold)), max(SMALLEST, size))
    except (MissingAssetError, OSError, pygame.error) as error:
        log.error("font unavailable (%s): using pygame's default font", error)
        return pygame.font.Font(None, max(SMALLEST, size))


_SCALE = [1.0]


def set_scale(scale: float) -> None:
    """Make every control bigger (a touch-screen kiosk: fingers, not mouse pointers)."""
    _SCALE[0] = scale


def unit(size: tuple[int, int]) -> int:
    """The layout unit for a window: 1/54 of the smaller of its height and 16:9 width (times
    the scale set for a kiosk).  A portrait window lays its screens out in one narrow
    column, so there the unit is 1/36 of the width (the text of a 1080-wide portrait screen
    is as big as on a 1080-high landscape one)."""
    width, height = size
    if width < height:
        return max(8, round(_SCALE[0] * min(height / 54, width / 36)))
    return max(8, round(_SCALE[0] * min(height, width * 9 / 16) / 54))


@surface_cache(entries=512, megabytes=24)
def text(message: str, size: int, colour: Colour, bold: bool = False) -> pygame.Surface:
    """Rendered text, cached: labels change rarely and redraw every frame."""
    return font(size, bold).render(message, True, colour)


@surface_cache(entries=256, megabytes=8)
def fitted(
    message: str, size: int, colour: Colour, width: int, bold: bool = False
) -> pygame.Surface:
    """Rendered text shrunk to ``width`` if wider (cached, so a label that does not fit is
    not rescaled at every frame) — but never under :data:`SMALLEST`: text that would be is
    drawn at that size and, if still too wide, cut short with "…" (a long name, a long
    translation: readable in part rather than unreadable whole)."""
    words = text(message, size, colour, bold)
    if words.get_width() <= width:
        return words
    scale = width / words.get_width()
    if max(SMALLEST, size) * scale >= SMALLEST or width <= 0:
        return pygame.transform.smoothscale_by(words, scale)
    least = font(SMALLEST, bold)
    if least.size(message)[0] > width:
        message = cut(message, least, width)
    return text(message, SMALLEST, colour, bold)


def cut(message: str, font: pygame.font.Font, width: int) -> str:
    """The longest start of ``message`` that fits ``width`` with "…" after it."""
    shortest, longest = 0, len(message)
    while shortest < longest:
        middle = (shortest + longest + 1) // 2
        if font.size(message[:middle].rstrip() + "…")[0] <= width:
            shortest = middle
        else:
            longest = middle - 1
    return message[:shortest].rstrip() + "…"


def wrap(message: str, font: pygame.font.Font, width: int) -> list[str]:
    """``message`` in lines no wider than ``width`` (a word longer than that gets its own)."""
    lines, line = [], ""
    for word in message.split():
        candidate = f"{line} {word}".strip()
        if font.size(candidate)[0] <= width or not line:
            line = candidate
        else:
            lines.append(line)
            line = word
    return [*lines, line] if line else lines
