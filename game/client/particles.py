"""Sparks and confetti: the bursts that greet a capture, a mill, a Numeri row or an
Ausgeblockt quad, and the confetti over a won match.

A small system of its own: each particle a position, a velocity and a life, moved by the
frame's (animation-speed scaled) time under a little gravity and drawn as a disc or a
spinning scrap of paper.  At most :data:`LIMIT` live at once, so a burst never costs a
frame; none are made when the player asked for reduced motion.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

import pygame

LIMIT = 600
"""Particles alive at once at most; a burst beyond it is cut short."""

Colour = tuple[int, int, int]


@dataclass(slots=True)
class Particle:
    x: float
    y: float
    vx: float
    vy: float
    life: float
    """Seconds it lasts."""
    size: float
    colour: Colour
    paper: bool
    """A scrap of confetti (a spinning rectangle) rather than a spark (a fading disc)."""
    age: float = 0.0
    spin: float = 0.0


class Particles:
    """The live particles of one screen.  ``enabled`` false (reduced motion): bursts are
    ignored."""

    def __init__(self, enabled: bool = True, seed: int | None = None) -> None:
        self.enabled = enabled
        self.live: list[Particle] = []
        self._rng = random.Random(seed)

    @property
    def active(self) -> bool:
        return bool(self.live)

    def burst(
        self, at: tuple[float, float], colours: list[Colour], count: int, speed: float,
        size: float, life: float = 0.8,
    ) -> None:  # fmt: skip
        """Sparks flying out of ``at`` in every direction, ``speed`` pixels a second."""
        if not self.enabled:
            return
        rng = self._rng
        for _ in range(min(count, LIMIT - len(self.live))):
            angle = rng.uniform(0, 2 * math.pi)
            pace = speed * rng.uniform(0.35, 1.0)
            self.live.append(Particle(
                at[0], at[1], pace * math.cos(angle), pace * math.sin(angle) - speed * 0.3,
                life * rng.uniform(0.6, 1.0), size * rng.uniform(0.6, 1.2), rng.choice(colours),
                paper=False,
            ))  # fmt: skip

    def confetti(self, area: pygame.Rect, colours: list[Colour], count: int, size: float) -> None:
        """Scraps of paper falling from above ``area`` across its width."""
        if not self.enabled:
            return
        rng = self._rng
        fall = area.height / 2.2
        for _ in range(min(count, LIMIT - len(self.live))):
            self.live.append(Particle(
                rng.uniform(area.left, area.right), area.top - rng.uniform(0, area.height * 0.6),
                rng.uniform(-0.15, 0.15) * fall, fall * rng.uniform(0.5, 1.0),
                rng.uniform(2.5, 4.0), size * rng.uniform(0.7, 1.3), rng.choice(colours),
                paper=True, spin=rng.uniform(0, math.pi),
            ))  # fmt: skip

    def update(self, dt: float) -> None:
        kept = []
        for p in self.live:
            p.age += dt
            if p.age >= p.life:
                continue
            if p.paper:  # flutters down at its own pace
                p.x += (p.vx + 30 * math.sin(3 * p.age + p.spin)) * dt
                p.y += p.vy * dt
                p.spin += 5 * dt
            else:  # flies out, slows, falls a little
                p.vx *= 1 - 2.5 * dt
                p.vy = p.vy * (1 - 2.5 * dt) + 400 * dt
                p.x += p.vx * dt
                p.y += p.vy * dt
            kept.append(p)
        self.live = kept

    def draw(self, surface: pygame.Surface) -> list[pygame.Rect]:
        """Draw every live particle; returns where each is (drawn or clipped away)."""
        places = []
        for p in self.live:
            fade = 1 - p.age / p.life
            if p.paper:
                width = max(1, round(p.size * abs(math.cos(p.spin))))
                rect = pygame.Rect(0, 0, width, max(1, round(p.size * 0.6)))
                rect.center = (round(p.x), round(p.y))
                pygame.draw.rect(surface, p.colour, rect)
            else:
                radius = max(1, round(p.size * (0.4 + 0.6 * fade)))
                centre = (round(p.x), round(p.y))
                rect = pygame.Rect(centre[0] - radius, centre[1] - radius, 2 * radius + 1,
                                   2 * radius + 1)  # fmt: skip
                pygame.draw.circle(surface, p.colour, centre, radius)
            places.append(rect)
        return places

    def area(self) -> pygame.Rect | None:
        """The rectangle every live particle is drawn in (None when there are none)."""
        if not self.live:
            return None
        reach = max(p.size for p in self.live) + 2
        xs, ys = [p.x for p in self.live], [p.y for p in self.live]
        left, top = math.floor(min(xs) - reach), math.floor(min(ys) - reach)
        return pygame.Rect(left, top, math.ceil(max(xs) + reach) - left,
                           math.ceil(max(ys) + reach) - top)  # fmt: skip

    def areas(self, cell: int) -> list[pygame.Rect]:
        """Where the live particles are drawn, a rectangle round those in each ``cell``-pixel
        square of a grid: the last sparks of a burst, spread far apart, are a few small
        areas to draw again rather than one box round the board."""
        reach = max((p.size for p in self.live), default=0) + 2
        cells: dict[tuple[int, int], list[float]] = {}
        for p in self.live:
            box = cells.setdefault((int(p.x // cell), int(p.y // cell)), [p.x, p.y, p.x, p.y])
            box[0], box[1] = min(box[0], p.x), min(box[1], p.y)
            box[2], box[3] = max(box[2], p.x), max(box[3], p.y)
        areas = []
        for left, top, right, bottom in cells.values():
            x, y = math.floor(left - reach), math.floor(top - reach)
            areas.append(pygame.Rect(x, y, math.ceil(right + reach) - x,
                                     math.ceil(bottom + reach) - y))  # fmt: skip
        return areas

    def clear(self) -> None:
        self.live = []
