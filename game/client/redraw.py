"""Drawing only what changed: at 3840×2160 a whole frame is 33 MB to paint and to present,
more than a 60 Hz frame allows on a modest machine, while a piece moving over a board or a
few scraps of confetti change a small part of it.

A screen keeps a :class:`Redraw` and tells it, every frame, how it looks (anything hashable
that changes whenever something other than the moving things changes: a text, a focus, a
position) and where its moving things are.  The answer is None when everything must be
drawn, else the areas to draw again — where the moving things were last frame and where they
are now — which the screen draws with :func:`draw_clipped` and the app presents alone.

A screen may also name its *elements*: each a rectangle and what is drawn in it (a square
and the piece on it, a button and its words).  Then a change of one element draws again
only its rectangle — a move redraws its squares and the lines of the panel that changed,
not the screen.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence

import pygame

Element = tuple[str, pygame.Rect, Hashable]
"""A named part of a screen, its rectangle, and what it shows there (equal when unchanged)."""

SQUARE_CORNER = 1
"""The corner radius to frame a rectangle with (``pygame.draw.rect(..., width, border_radius=
SQUARE_CORNER)``): the same pixels as a square corner, but drawn by pygame's rounded-rectangle
code, which draws the same pixels clipped or not — its plain framed rectangle does not, and a
screen drawn in clipped parts would keep stray pixels of it."""

MATCH_SPARE = 1 / 32
"""On the match screen two areas are drawn as one when that paints at most this share of
the screen more: each area costs a pass of its drawing code (about 0.2 ms here: the board's
pieces, the panel's words), about what painting and showing a quarter of a million pixels
— a thirty-second of a 4K screen — does."""

MOST_AREAS = 24
"""At most this many areas a frame (see :func:`merged`): each costs the screen's drawing
code a pass and the display a copy of its own."""


class Redraw:
    """What one screen must draw this frame."""

    def __init__(self, spare: float = 0.0) -> None:
        """``spare``: the share of the screen two areas may paint more to be drawn as one
        (see :func:`merged`; for screens whose drawing passes cost more than their pixels)."""
        self.spare = spare
        self._look: Hashable = None
        self._whole = True
        self._moving: list[pygame.Rect] = []
        self._elements: dict[tuple[str, tuple[int, ...]], Hashable] = {}

    def invalidate(self) -> None:
        """Draw everything next frame (after a resize, a window shown again, or a
        frame drawn elsewhere)."""
        self._whole = True

    def areas(
        self,
        look: Hashable,
        moving: Sequence[pygame.Rect],
        screen: pygame.Rect,
        elements: Sequence[Element] = (),
    ) -> list[pygame.Rect] | None:
        """None if everything must be drawn (the first frame, or ``look`` changed), else the
        areas to draw again: the ``moving`` ones of the last frame and of this one, and the
        rectangles of the ``elements`` that changed, appeared or went — within ``screen``."""
        now = {(name, tuple(rect)): drawn for name, rect, drawn in elements}
        before_elements, self._elements = self._elements, now
        changed = [
            pygame.Rect(place[1])
            for place in before_elements.keys() ^ now.keys()
            | {place for place, drawn in now.items() if before_elements.get(place, drawn) != drawn}
        ]
        moving = [r.clip(screen) for r in moving]
        moving = [r for r in moving if r.width > 0 and r.height > 0]
        whole = self._whole or look != self._look
        self._whole, self._look = False, look
        before, self._moving = self._moving, moving
        if whole:
            return None
        changed = [r.clip(screen) for r in changed]
        areas = before + moving + [r for r in changed if r.width > 0 and r.height > 0]
        return merged(areas, round(self.spare * screen.width * screen.height))


def merged(rects: list[pygame.Rect], spare: int = 0) -> list[pygame.Rect]:
    """``rects`` with each two replaced by the rectangle round both wherever that covers at
    most ``spare`` pixels more than the two do apart (one inside the other, neighbours in a
    row, near ones), and at most :data:`MOST_AREAS` of them: beyond, the smallest joins the
    neighbour it wastes least with.  Areas far apart stay apart — a box round a square in
    one corner and a line of text in the other would be most of a 4K screen."""
    done: list[pygame.Rect] = []
    pending = sorted((pygame.Rect(r) for r in rects), key=_area, reverse=True)
    while pending:
        rect = pending.pop(0)
        for index, other in enumerate(done):
            union = rect.union(other)
            if _area(union) <= _area(rect) + _area(other) + spare:
                del done[index]
                pending.insert(0, union)  # the larger area may now take in others
                break
        else:
            done.append(rect)
    while len(done) > MOST_AREAS:
        smallest = min(range(len(done)), key=lambda k: _area(done[k]))
        rect = done.pop(smallest)
        best = min(range(len(done)), key=lambda k: _area(rect.union(done[k])) - _area(done[k]))
        done[best] = rect.union(done[best])
    return done


def _area(rect: pygame.Rect) -> int:
    return rect.width * rect.height


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
    outer = surface.get_clip()  # a clip already set (a wipe's) bounds every area
    try:
        for area in areas:
            surface.set_clip(area.clip(outer))
            draw(surface)
    finally:
        surface.set_clip(outer)


def clipped_out(surface: pygame.Surface, rect: pygame.Rect) -> bool:
    """True if drawing in ``rect`` would change nothing on ``surface`` as clipped now."""
    return not surface.get_clip().colliderect(rect)
