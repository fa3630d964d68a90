"""Eased motion over time: what slides, hops, fades and flashes on the boards."""

from __future__ import annotations

import math
from dataclasses import dataclass


def ease_out_cubic(t: float) -> float:
    return 1 - (1 - t) ** 3


@dataclass
class Tween:
    """A value going from 0 to 1 over ``duration`` seconds, after ``delay`` seconds."""

    duration: float
    delay: float = 0.0
    elapsed: float = 0.0

    def advance(self, dt: float) -> None:
        self.elapsed += dt

    @property
    def done(self) -> bool:
        return self.elapsed >= self.delay + self.duration

    @property
    def t(self) -> float:
        if self.duration <= 0:
            return 1.0
        return min(1.0, max(0.0, (self.elapsed - self.delay) / self.duration))

    def eased(self) -> float:
        return ease_out_cubic(self.t)


def lerp(a: tuple[float, float], b: tuple[float, float], t: float) -> tuple[float, float]:
    return a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t


def along(path: list[tuple[float, float]], t: float, hop: float = 0.0) -> tuple[float, float]:
    """The point at ``t`` (0–1) along a path of equal legs, lifted by ``hop`` mid-leg."""
    if len(path) == 1:
        return path[0]
    legs = len(path) - 1
    position = min(t * legs, legs - 1e-9)
    leg = int(position)
    x, y = lerp(path[leg], path[leg + 1], position - leg)
    return x, y - hop * math.sin(math.pi * (position - leg))
