"""Drawing only what changed: at 3840×2160 a whole frame is 33 MB to paint and to present,
more than a 60 Hz frame allows on a modest machine, while a piece moving over a board or a
few scraps of confetti change a small part of it.

A screen keeps a :class:`Redraw` and tells it, every frame, how it looks (anything hashable
that changes whenever something other than the moving things changes: a text, a focus, a
position) and where its moving things are.  The answer is None when everything must be
drawn, else the areas to draw again — where the moving things were last frame and where they
are now — which the screen draws with :func:`draw_clipped` and the app presents alone.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence

import pygame

MOST_AREAS = 24
"""More areas than this are merged into their bounding rectangle: each area costs the
screen's drawing code a pass and the display a copy of its own."""


class Redraw:
    """What one screen must draw this frame."""

    def __init__(self) -> None:
        self._look: Hashable = None
        self._whole = True
        self._moving: list[pygame.Rect] = []

    def invalidate(self) -> None:
        """Draw everything next frame (after a resize, a slide, a window shown again, or a
        frame drawn elsewhere)."""
        self._whole = True

    def areas(
        self, look: Hashable, moving: Sequence[pygame.Rect], screen: pygame.Rect
    ) -> list[pygame.Rect] | None:
        """None if everything must be drawn (the first frame, or ``look`` changed), else the
        areas to draw again: the ``moving`` ones of the last frame and of this one, within
        ``screen``."""
        moving = [r.clip(screen) for r in moving]
        moving = [r for r in moving if r.width > 0 and r.height > 0]
        whole = self._whole or look != self._look
        self._whole, self._look = False, look
        before, self._moving = self._moving, moving
        if whole:
            return None
        return merged(before + moving)


def merged(rects: list[pygame.Rect]) -> list[pygame.Rect]:
    """``rects`` with each group of overlapping ones replaced by its bounding rectangle
    (repeated until none overlap), and all of them by one when there are too many."""
    pending = [pygame.Rect(r) for r in rects]
    done: list[pygame.Rect] = []
    while pending:
        rect = pending.pop()
        hit = rect.collidelist(done)
        while hit >= 0:
            rect.union_ip(done.pop(hit))
            hit = rect.collidelist(done)
        done.append(rect)
    if len(done) > MOST_AREAS:
        return [done[0].unionall(done[1:])]
    return done


def around(points: Sequence[tuple[float, float]], reach: float) -> pygame.Rect:
    """The rectangle holding ``points`` and ``reach`` pixels beyond each: where something
    moving along them (a piece ``reach`` from its centre to its edge) is drawn."""
    xs, ys = [x for x, _ in points], [y for _, y in points]
    left, top = int(min(xs) - reach) - 1, int(min(ys) - reach) - 1
    return pygame.Rect(left, top, int(max(xs) + reach) + 2 - left, int(max(ys) + reach) + 2 - top)


def draw_clipped(
    surface: pygame.Surface, areas: Sequence[pygame.Rect], draw: Callable[[pygame.Surface], None]
) -> None:
    """``draw`` the whole picture once for each of ``areas``, clipped to it: pygame skips
    the pixels outside, so each pass costs its area and the drawing code's own time."""
    try:
        for area in areas:
            surface.set_clip(area)
            draw(surface)
    finally:
        surface.set_clip(None)


def clipped_out(surface: pygame.Surface, rect: pygame.Rect) -> bool:
    """True if drawing in ``rect`` would change nothing on ``surface`` as clipped now."""
    return not surface.get_clip().colliderect(rect)
