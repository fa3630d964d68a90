"""Translucent marks the board views lay over a position: the last turn's tint and the ghosts
of the pieces it took.  Each is made once per size and colour, so a frame costs only blits.
And the colours that stand for light and dark pieces in the panel."""

from __future__ import annotations

import pygame

from game.client.sprites import sprite
from game.client.surface_cache import surface_cache
from game.client.theme import Colour

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


@surface_cache(entries=32, megabytes=4)
def tinted_disc(colour: Colour, radius: int, ring: int) -> pygame.Surface:
    """A translucent disc of ``colour`` with an opaque rim ``ring`` pixels wide."""
    radius = max(2, radius)
    disc = pygame.Surface((2 * radius, 2 * radius), pygame.SRCALPHA)
    pygame.draw.circle(disc, (*colour, TINT_ALPHA), (radius, radius), radius)
    pygame.draw.circle(disc, (*colour, 255), (radius, radius), radius, max(1, ring))
    return disc


@surface_cache(entries=32, megabytes=4)
def tinted_square(colour: Colour, side: int, ring: int) -> pygame.Surface:
    """A translucent square of ``colour`` with an opaque border ``ring`` pixels wide."""
    side = max(2, side)
    square = pygame.Surface((side, side), pygame.SRCALPHA)
    square.fill((*colour, TINT_ALPHA))
    pygame.draw.rect(square, (*colour, 255), square.get_rect(), max(1, ring))
    return square
