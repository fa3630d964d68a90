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

A screen may give its changes a *budget*: when the elements that changed at once would
paint more than that share of the screen (the end of a move: the squares it touched, the
marks of the next player's pieces, the panel's words and buttons), those beyond it wait
for a later frame — at most :data:`MOST_WAIT` frames — instead of making one frame too slow
to show in time.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence

import pygame

Element = tuple[str, pygame.Rect, Hashable]
"""A named part of a screen, its rectangle, and what it shows there (equal when unchanged)."""

_Place = tuple[str, tuple[int, ...]]
"""An element's name and rectangle: a moved element is one gone and one come."""

SQUARE_CORNER = 1
"""The corner radius to frame a rectangle with (``pygame.draw.rect(..., width, border_radius=
SQUARE_CORNER)``): the same pixels as a square corner, but drawn by pygame's rounded-rectangle
code, which draws the same pixels clipped or not — its plain framed rectangle does not, and a
screen drawn in clipped parts would keep stray pixels of it."""

MATCH_SPARE = 1 / 64
"""On the match screen two areas are drawn as one when that paints at most this share of
the screen more: each area costs a pass of its drawing code (about 0.3 ms at 3840×2160
here: the backdrop, the board's pieces, the panel's words), about what painting and showing
a hundred and thirty thousand pixels — a sixty-fourth of a 4K screen — does in a window."""

MATCH_BUDGET = 1 / 12
"""The share of the screen the match screen paints in one frame, what moves included,
before the rest of a change waits (see :class:`Redraw`). At 3840×2160 the start and the end
of a move change 1.5–2 million pixels at once (the squares, the marks of the pieces that may
move, the panel's words): 6–8 ms to draw and show here in one frame, 4–5 ms in a twelfth."""

MOST_WAIT = 3
"""Frames a changed element may wait for room at most (see :class:`Redraw`): at 60 Hz the
last of a change is on screen 50 ms after the first — four frames hold the largest change
of a move at a twelfth of the screen each, where three at an eighth drew more a frame."""

MOST_AREAS = 24
"""At most this many areas a frame (see :func:`merged`): each costs the screen's drawing
code a pass and the display a copy of its own."""


class Redraw:
    """What one screen must draw this frame."""

    def __init__(self, spare: float = 0.0, budget: float = 1.0) -> None:
        """``spare``: the share of the screen two areas may paint more to be drawn as one
        (see :func:`merged`; for screens whose drawing passes cost more than their pixels).
        ``budget``: the share of the screen a frame paints, what moves included, before
        further changed elements wait for a later frame (1: none waits)."""
        self.spare = spare
        self.budget = budget
        self._look: Hashable = None
        self._whole = True
        self._moving: list[pygame.Rect] = []
        self._elements: dict[_Place, Hashable] = {}
        self._waiting: dict[_Place, int] = {}
        """The changed elements left for a later frame, and for how many frames they have
        waited."""

    @property
    def waiting(self) -> list[pygame.Rect]:
        """The rectangles of the changed elements this frame left for a later one: what the
        screen shows there is up to MOST_WAIT frames old."""
        return [pygame.Rect(place[1]) for place in self._waiting]

    def invalidate(self) -> None:
        """Draw everything next frame (after a resize, a window shown again, or a
        frame drawn elsewhere)."""
        self._whole = True
        self._waiting = {}

    def areas(
        self,
        look: Hashable,
        moving: Sequence[pygame.Rect],
        screen: pygame.Rect,
        elements: Sequence[Element] = (),
    ) -> list[pygame.Rect] | None:
        """None if everything must be drawn (the first frame, or ``look`` changed), else the
        areas to draw again: the ``moving`` ones of the last frame and of this one, and the
        rectangles of the ``elements`` that changed, appeared or went — within ``screen``,
        those beyond the budget left for the next frame (:attr:`waiting`)."""
        now = {(name, tuple(rect)): drawn for name, rect, drawn in elements}
        before_elements, self._elements = self._elements, now
        waited, self._waiting = self._waiting, {}
        # Those that waited, longest first, then those gone, then the others in order. One
        # that waited is drawn even if it changed back or went meanwhile: a neighbour's area
        # may have drawn a part of it.
        changed = sorted(waited, key=lambda place: -waited[place])
        changed += [place for place in before_elements if place not in now and place not in waited]
        changed += [
            place
            for place, drawn in now.items()
            if place not in waited
            and (place not in before_elements or before_elements[place] != drawn)
        ]
        moving = [r.clip(screen) for r in moving]
        moving = [r for r in moving if r.width > 0 and r.height > 0]
        whole = self._whole or look != self._look
        self._whole, self._look = False, look
        before, self._moving = self._moving, moving
        if whole:
            return None
        areas = before + moving
        budget = self.budget * screen.width * screen.height
        room = budget - sum(map(_area, areas))  # this frame's
        later = budget * MOST_WAIT  # the next frames', which must draw what waits
        for place in changed:
            rect = pygame.Rect(place[1]).clip(screen)
            if rect.width <= 0 or rect.height <= 0:
                continue
            age = waited.get(place, 0)
            if age >= MOST_WAIT or _area(rect) <= room or _area(rect) > later:
                areas.append(rect)
                room -= _area(rect)
            else:  # shown as it was for another frame
                later -= _area(rect)
                self._waiting[place] = age + 1
        return merged(areas, round(self.spare * screen.width * screen.height))


class SavedUnder:
    """Small things drawn over a finished frame — the sparks flying over the board — with
    the pixels under each kept, so that the next frame takes them away by putting those
    pixels back (:meth:`lift`) instead of drawing the screen again where they were: a
    hundred sparks spread over a fifth of a 4K board are a hundred small copies, not passes
    of the screen's drawing over 1.7 million pixels.

    What is kept is only true while nothing else draws there: the screen that uses it
    forgets it (:meth:`forget`) whenever it draws everything, and lifts it before drawing
    anything else."""

    def __init__(self) -> None:
        self._kept: list[tuple[pygame.Rect, pygame.Surface]] = []

    def lay(
        self,
        surface: pygame.Surface,
        places: Sequence[pygame.Rect],
        draw: Callable[[pygame.Surface], object],
    ) -> list[pygame.Rect]:
        """Keep the pixels of ``surface`` in ``places`` (as far as its clip lets ``draw``
        reach), then ``draw``; returns the areas kept, which the screen shows."""
        clip = surface.get_clip()
        laid = []
        for place in places:
            area = place.clip(clip)
            if area.width > 0 and area.height > 0:
                self._kept.append((area, surface.subsurface(area).copy()))
                laid.append(area)
        draw(surface)
        return laid

    def lift(self, surface: pygame.Surface) -> list[pygame.Rect]:
        """Put back the pixels kept, the last laid first (things laid over each other come
        off in the reverse order); returns their areas, which the screen shows."""
        lifted = []
        for area, pixels in reversed(self._kept):
            surface.blit(pixels, area)
            lifted.append(area)
        self._kept = []
        return lifted

    def forget(self) -> None:
        """Drop what was kept: the screen is drawn again under it."""
        self._kept = []


def gathered(rects: Sequence[pygame.Rect], cell: int) -> list[pygame.Rect]:
    """``rects`` as one rectangle round those whose top-left corner is in each ``cell``-pixel
    square of a grid: a hundred sparks' places as a few dozen areas to show, none much
    larger than a cell."""
    cells: dict[tuple[int, int], pygame.Rect] = {}
    for rect in rects:
        key = (rect.x // cell, rect.y // cell)
        held = cells.get(key)
        cells[key] = rect.copy() if held is None else held.union(rect)
    return list(cells.values())


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
