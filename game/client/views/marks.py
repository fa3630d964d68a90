"""Marks the board views lay over a position: the last turn's translucent tint and the ghosts
of the pieces it took (each made once per size and colour, so a frame costs only blits); the
rings, frames, dots and lines of the markers, each inside its halo when it has one (see
:func:`theme.marker`).  And the colours that stand for light and dark pieces in the panel."""

from __future__ import annotations

import itertools

import pygame

from game.client.sprites import sprite
from game.client.surface_cache import surface_cache
from game.client.theme import Colour, Marker

GHOST_ALPHA = 110
"""How much of a taken piece stays on its square until the next turn: visible, not solid."""
DIM_ALPHA = 130
"""A die already played: still readable, plainly not the dice in play."""
TINT_ALPHA = 110
LIGHT_AND_DARK = ((236, 232, 220), (84, 84, 94))
"""White's and Black's colour in the side panel, the dark one light enough to show on it."""


@surface_cache(entries=64, megabytes=8)
def ghost(name: str, size: int, alpha: int = GHOST_ALPHA) -> pygame.Surface:
    """Sprite ``name`` at ``size``, faint: where a removed or captured piece stood, or a die
    already played."""
    faint = sprite(name, size).copy()
    faint.set_alpha(alpha)
    return faint


def halo_width(width: int) -> int:
    """How wide a marker's halo is on each side of its stroke ``width`` wide."""
    return max(2, width // 2)


@surface_cache(entries=32, megabytes=4)
def tinted_disc(
    colour: Colour, radius: int, ring: int, halo: Colour | None = None
) -> pygame.Surface:
    """A translucent disc of ``colour`` with an opaque rim ``ring`` pixels wide, inside a
    halo of ``halo`` on both sides if given (all within ``radius``)."""
    radius = max(2, radius)
    disc = pygame.Surface((2 * radius, 2 * radius), pygame.SRCALPHA)
    pygame.draw.circle(disc, (*colour, TINT_ALPHA), (radius, radius), radius)
    ring = max(1, ring)
    inset = 0 if halo is None else halo_width(ring)
    ring_of(disc, Marker(colour, halo), (radius, radius), radius - inset, ring)
    return disc


@surface_cache(entries=32, megabytes=4)
def tinted_square(
    colour: Colour, side: int, ring: int, halo: Colour | None = None
) -> pygame.Surface:
    """A translucent square of ``colour`` with an opaque border ``ring`` pixels wide, inside a
    halo of ``halo`` on both sides if given (all within the square)."""
    side = max(2, side)
    square = pygame.Surface((side, side), pygame.SRCALPHA)
    square.fill((*colour, TINT_ALPHA))
    frame(square, Marker(colour, halo), square.get_rect(), max(1, ring))
    return square


def frame(surface: pygame.Surface, marker: Marker, rect: pygame.Rect, width: int,
          radius: int = 0) -> None:  # fmt: skip
    """A rectangular ring of ``marker`` within ``rect``, its stroke ``width`` wide: at the
    edge of ``rect``, or, with a halo, inset by the halo's width, the halo round it."""
    surface.blit(_frame(marker.colour, marker.halo, rect.size, width, radius), rect)


@surface_cache(entries=32, megabytes=8)
def _frame(colour: Colour, halo: Colour | None, size: tuple[int, int], width: int,
           radius: int) -> pygame.Surface:  # fmt: skip
    """A rectangular ring drawn once on a clear surface, then blitted: clipped to a part of
    its inside (a wipe's 2-pixel edge across a square), pygame's framed rectangle filled
    that part, and the screen kept a stripe of the frame's colour."""
    drawn = pygame.Surface(size, pygame.SRCALPHA)
    rect = drawn.get_rect()
    if halo is None:
        pygame.draw.rect(drawn, colour, rect, width, border_radius=radius)
        return drawn
    extra = halo_width(width)
    pygame.draw.rect(drawn, halo, rect, width + 2 * extra, border_radius=radius)
    inner = rect.inflate(-2 * extra, -2 * extra)
    pygame.draw.rect(drawn, colour, inner, width, border_radius=max(0, radius - extra))
    return drawn


def ring_of(surface: pygame.Surface, marker: Marker, centre: tuple[int, int], radius: int,
            width: int) -> None:  # fmt: skip
    """A round ring of ``marker``, its stroke ``width`` wide inside ``radius``, and its halo,
    when it has one, round it on both sides (reaching the halo's width beyond ``radius``)."""
    if marker.halo is not None:
        halo = halo_width(width)
        pygame.draw.circle(surface, marker.halo, centre, radius + halo, width + 2 * halo)
    pygame.draw.circle(surface, marker.colour, centre, radius, width)


def dot(surface: pygame.Surface, marker: Marker, centre: tuple[int, int], radius: int) -> None:
    """A dot of ``marker``, ``radius`` wide, ringed by its halo when it has one."""
    if marker.halo is not None:
        pygame.draw.circle(surface, marker.halo, centre, radius + halo_width(radius // 2))
    pygame.draw.circle(surface, marker.colour, centre, radius)


def path(surface: pygame.Surface, marker: Marker, points: list[tuple[int, int]], width: int,
         end: int = 0) -> None:  # fmt: skip
    """A line of ``marker`` through ``points``, ``width`` wide, to a dot of radius ``end`` (if
    any) at the last; the halo, when it has one, under all of it, so that the line's own
    crossings and joints do not cut it."""
    pairs = list(itertools.pairwise(points))
    if marker.halo is not None:
        halo = halo_width(width)
        for start, stop in pairs:
            pygame.draw.line(surface, marker.halo, start, stop, width + 2 * halo)
        if end:
            pygame.draw.circle(surface, marker.halo, points[-1], end + halo)
    for start, stop in pairs:
        pygame.draw.line(surface, marker.colour, start, stop, width)
    if end:
        pygame.draw.circle(surface, marker.colour, points[-1], end)
