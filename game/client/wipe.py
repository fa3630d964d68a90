"""The sweep between two screens: the next screen is uncovered over the last one by an edge
sweeping across it in :data:`WIPE_SECONDS` (from the right going on, from the left going
back), a strip a frame.  A slide (the old screen moving off) changed all of the window each
frame, and presenting a whole 4K window took most of a frame; a cross-fade blended it.

The app starts a :class:`Wipe` when a screen is pushed or popped (none with *reduce
motion*) and, while it lasts, has it draw each frame (:meth:`Wipe.frame`) and shows the
areas it names.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from game.client import theme
from game.client.scene import Scene

WIPE_SECONDS = 0.2
"""The next screen is uncovered over the last one in this long."""


@dataclass
class Wipe:
    """The next screen, uncovered over the last one by an edge sweeping across: from the
    right going on (``direction`` −1), from the left going back (+1)."""

    direction: int
    elapsed: float = 0.0
    touched: bool = False
    """A tap or key reached the new screen while it was being uncovered."""
    edge: pygame.Rect | None = None
    """Where the sweeping edge's line was drawn last frame (over the new screen)."""

    @property
    def over(self) -> bool:
        """The new screen is wholly uncovered."""
        return self.elapsed >= WIPE_SECONDS

    @staticmethod
    def strip(before: pygame.Rect, now: pygame.Rect) -> pygame.Rect:
        """The part of ``now`` that ``before`` did not hold (both reach the same side)."""
        if not before.width:
            return now
        if now.left < before.left:
            return pygame.Rect(now.left, now.top, before.left - now.left, now.height)
        return pygame.Rect(before.right, now.top, now.right - before.right, now.height)

    def shown(self, size: tuple[int, int]) -> pygame.Rect:
        """The part of the screen uncovered so far, at an even pace: a twelfth of it a
        frame at 60 Hz.  An ease-out (fast, then settling) drew most where it is slowest —
        the cubic one uncovered 23 % of the screen in the first frame, 1.9 million pixels
        to draw and show at 4K; even a gentle one (power 1.5) made the wipe's frames at
        4K half as slow again as this (p99 5–6 ms headless against 3.1)."""
        share = min(1.0, self.elapsed / WIPE_SECONDS)
        width = round(size[0] * share)
        if self.direction < 0:
            return pygame.Rect(size[0] - width, 0, width, size[1])
        return pygame.Rect(0, 0, width, size[1])

    def frame(
        self, scene: Scene, screen: pygame.Surface, dt: float, accent: theme.Colour
    ) -> list[pygame.Rect]:
        """A frame of the wipe, ``dt`` seconds on: the new screen drawn whole in the strip
        just uncovered, and what changed in the part already uncovered (a screen that says
        where it changed; one that does not is taken as still, unless it moves or was
        touched, when its uncovered part is drawn again); the edge's line in ``accent``.
        Returns the areas to show."""
        size = screen.get_size()
        before = self.shown(size)
        self.elapsed += dt
        now = self.shown(size)
        shown: list[pygame.Rect] = []
        if before.width and (scene.draws_changes_only or scene.animating or self.touched):
            screen.set_clip(before)
            try:
                scene.draw(screen)
            finally:
                screen.set_clip(None)
            areas = scene.updated_areas()
            shown += [before] if areas is None else [a.clip(before) for a in areas]
        fresh = Wipe.strip(before, now)
        for strip in (fresh, self.edge):  # the strip uncovered, and the edge's last place
            if strip is not None and strip.width:
                screen.set_clip(strip)
                try:
                    scene.draw_whole(screen)
                finally:
                    screen.set_clip(None)
                shown.append(strip)
        self.edge = None
        if not self.over and now.width < size[0]:  # a line of light along the edge
            line = max(2, theme.unit(size) // 5)
            x = now.left if self.direction < 0 else now.right - line
            self.edge = pygame.Rect(x, 0, line, size[1])
            screen.fill(accent, self.edge)
            shown.append(self.edge)
        return [a for a in shown if a.width and a.height]
