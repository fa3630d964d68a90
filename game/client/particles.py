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
            rect = _place(p)
            if p.paper:
                pygame.draw.rect(surface, p.colour, rect)
            else:
                pygame.draw.circle(surface, p.colour, rect.center, rect.width // 2)
            places.append(rect)
        return places

    def places(self) -> list[pygame.Rect]:
        """Where each live particle is drawn (what :meth:`draw` returns), without drawing."""
        return [_place(p) for p in self.live]

    def area(self) -> pygame.Rect | None:
        """The rectangle every live particle is drawn in (None when there are none)."""
        if not self.live:
            return None
        reach = max(p.size for p in self.live) + 2
        xs, ys = [p.x for p in self.live], [p.y for p in self.live]
        left, top = math.floor(min(xs) - reach), math.floor(min(ys) - reach)
        return pygame.Rect(left, top, math.ceil(max(xs) + reach) - left,
                           math.ceil(max(ys) + reach) - top)  # fmt: skip

    def clear(self) -> None:
        self.live = []


def _place(p: Particle) -> pygame.Rect:
    """The rectangle a particle is drawn in: its scrap of paper, or the square round its
    disc (a spark shrinks as it fades)."""
    if p.paper:
        rect = pygame.Rect(0, 0, max(1, round(p.size * abs(math.cos(p.spin)))),
                           max(1, round(p.size * 0.6)))  # fmt: skip
        rect.center = (round(p.x), round(p.y))
        return rect
    radius = max(1, round(p.size * (0.4 + 0.6 * (1 - p.age / p.life))))
    return pygame.Rect(round(p.x) - radius, round(p.y) - radius, 2 * radius + 1, 2 * radius + 1)
