"""The title screen's living backdrop: the games' own pieces, marks and dice — the sprites the
boards use — drifting faintly behind the menu, the dice tumbling from face to face.

Positions are fractions of the screen, so a resize keeps the picture; a seeded generator
makes it the same at every start.  With *reduce motion* the pieces stand still and the title
draws no frames while nobody touches it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import pygame

from game.client.sprites import sprite
from game.client.surface_cache import look, surface_cache
from game.client.theme import Colour

FAINT = 64
"""Opacity of the drifting pieces (of 255): there, but never in the way of the buttons."""
FACES = ("die_1", "die_2", "die_3", "die_4", "die_5", "die_cow", "die_star")
PIECES = (
    ("die_5", None), ("man_white", None), ("stone_black", None), ("mark_x", None),
    ("pawn", 0), ("die_cow", None), ("king_black", None), ("sheep", None),
    ("stone_white", None), ("pawn", 1), ("die_star", None), ("mark_o", None),
    ("wolf", None), ("man_black", None), ("pawn", 2), ("die_2", None),
)  # fmt: skip
"""What drifts: a sprite and, for Numeri's pawns, the seat whose colour tints it."""


@dataclass(slots=True)
class Drifter:
    name: str
    seat: int | None
    x: float
    y: float
    """Where, as fractions of the screen's width and height."""
    vx: float
    vy: float
    """Fractions of the screen a second."""
    size: float
    """In layout units."""
    phase: float
    """Seconds until a die shows its next face."""


Placed = tuple[pygame.Surface | None, tuple[int, int], pygame.Rect]
"""A piece's picture (None when faded out), where it is drawn, and its area."""

FADE_UNITS = 2.0
"""A piece fades out over this many layout units as it nears the words or a button."""


class TitleBackdrop:
    def __init__(self, moving: bool, seed: int = 7) -> None:
        self.moving = moving
        self.keep_out: list[pygame.Rect] = []
        """Where the menu's words and buttons are: the pieces fade before they reach them,
        never passing behind a label."""
        self._rng = rng = random.Random(seed)
        self.drifters = [
            Drifter(name, seat, rng.random(), rng.random(),
                    rng.uniform(-0.012, 0.012), -rng.uniform(0.006, 0.02),
                    rng.uniform(3.0, 6.5), rng.uniform(0.3, 1.2))
            for name, seat in PIECES
        ]  # fmt: skip
        self._moves = 0
        """How often the pieces have moved: what the pieces were placed for is kept until then."""
        self._placing: tuple[object, list[Placed]] | None = None

    def update(self, dt: float) -> None:
        if not self.moving:
            return
        self._moves += 1
        for d in self.drifters:
            d.x = (d.x + d.vx * dt) % 1.0
            d.y = (d.y + d.vy * dt) % 1.0  # up and round again from below
            if d.name in FACES:
                d.phase -= dt
                if d.phase <= 0:  # the die tumbles to another face
                    d.name = self._rng.choice([f for f in FACES if f != d.name])
                    d.phase = self._rng.uniform(0.5, 1.4)

    def draw(self, surface: pygame.Surface, u: int, seats: tuple[Colour, ...]) -> None:
        shown = [(p, at) for p, at, _rect in self._placed(surface.get_size(), u, seats) if p]
        surface.blits(shown, doreturn=False)

    def areas(self, size: tuple[int, int], u: int, seats: tuple[Colour, ...]) -> list[pygame.Rect]:
        """Where each piece is now, drawn or faded out (the frame that hides one must clear
        where it was)."""
        return [rect for _picture, _at, rect in self._placed(size, u, seats)]

    def _fade(self, rect: pygame.Rect, u: int) -> int:
        """How much of the piece shows, 0–3: none over the words or a button, all of it
        :data:`FADE_UNITS` away from them."""
        band = max(1, round(FADE_UNITS * u))
        if rect.inflate(2 * band, 2 * band).collidelist(self.keep_out) < 0:
            return 3  # no label within a band: the common case, asked of pygame at once
        near = min(_gap(rect, area) for area in self.keep_out)
        return min(3, 3 * near // band)

    def _placed(self, size: tuple[int, int], u: int, seats: tuple[Colour, ...]) -> list[Placed]:
        """Each piece's picture (None when faded out), where it goes and its area — worked
        out once a frame (and again when the board theme changes the pictures): a frame
        drawn in parts asks for every part, and the fade measures each piece against every
        label."""
        key = (self._moves, look(), size, u, seats, [tuple(area) for area in self.keep_out])
        if self._placing is None or self._placing[0] != key:
            self._placing = (key, self._place(size, u, seats))
        return self._placing[1]

    def _place(self, size: tuple[int, int], u: int, seats: tuple[Colour, ...]) -> list[Placed]:
        width, height = size
        placed = []
        for d in self.drifters:
            side = max(8, round(d.size * u))
            tint = seats[d.seat] if d.seat is not None else None
            # drawn a margin beyond the edges, so pieces glide in and out rather than pop
            at = (round(d.x * (width + 2 * side) - side), round(d.y * (height + 2 * side) - side))
            rect = pygame.Rect(at, (side, side))
            level = self._fade(rect, u)
            placed.append((_faint(d.name, side, tint, level) if level else None, at, rect))
        return placed


def _gap(a: pygame.Rect, b: pygame.Rect) -> int:
    """The distance between two rectangles (0 when they touch or overlap)."""
    dx = max(b.left - a.right, a.left - b.right, 0)
    dy = max(b.top - a.bottom, a.top - b.bottom, 0)
    return max(dx, dy)


@surface_cache(entries=128, megabytes=8)
def _faint(name: str, side: int, tint: tuple[int, int, int] | None, level: int) -> pygame.Surface:
    faint = sprite(name, side, tint).copy()
    faint.set_alpha(FAINT * level // 3)
    return faint
