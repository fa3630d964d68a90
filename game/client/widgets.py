"""Things a player can point at or move the focus to: buttons and board targets."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import pygame

from game.client import theme


@dataclass(eq=False)
class Target:
    """A rectangle that does something when tapped, clicked or activated with the keyboard.

    ``draw`` is None for targets drawn by someone else (board cells); ``enabled`` false
    targets give a gentle cue instead of acting.
    """

    rect: pygame.Rect
    action: Callable[[], None]
    enabled: Callable[[], bool] = field(default=lambda: True)
    draw: Callable[[pygame.Surface, bool, bool], None] | None = None
    name: str = ""
    label: Callable[[], str] | None = None
    """The words on it, for screens that draw only what changed (a label may change with
    nothing else: *Roll* becomes *Stop*)."""

    @property
    def reach(self) -> pygame.Rect:
        """Its rectangle with a margin: a target may draw a little beyond it (a ring)."""
        return self.rect.inflate(self.rect.height // 2, self.rect.height // 2)

    def look(self) -> tuple[bool, str | None]:
        """What its drawing shows besides the focus and a press: enabled or not, its words."""
        return (self.enabled(), self.label() if self.label else None)


def draw_face(
    surface: pygame.Surface, rect: pygame.Rect, colour: theme.Colour, palette: theme.Palette,
    focused: bool, pressed: bool,
) -> None:  # fmt: skip
    """A button's rounded face: lighter while pressed, ringed while it has the focus."""
    if pressed:
        red, green, blue = colour
        colour = (min(255, red + 30), min(255, green + 30), min(255, blue + 30))
    radius = max(4, rect.height // 5)
    pygame.draw.rect(surface, colour, rect, border_radius=radius)
    if focused:
        pygame.draw.rect(
            surface, palette.focus, rect, width=max(2, rect.height // 16), border_radius=radius
        )


def two_lines(
    rect: pygame.Rect, colour: theme.Colour, ink: theme.Colour, palette: theme.Palette,
    first: Callable[[], str], second: Callable[[], str],
) -> Callable[[pygame.Surface, bool, bool], None]:  # fmt: skip
    """A button's drawing with a bold line and a smaller one under it ("Play" over what it
    starts, a variant's name over what it is), each shrunk to the width if need be; the
    smaller line in two where it would shrink under :data:`theme.SMALLEST` and the button
    holds three lines (the bold one then smaller)."""

    def draw(surface: pygame.Surface, focused: bool, pressed: bool) -> None:
        draw_face(surface, rect, colour, palette, focused, pressed)
        width = rect.width - rect.height // 3
        size, below = rect.height * 9 // 25, max(theme.SMALLEST, rect.height * 7 // 25)
        under = [second()]
        font = theme.font(below)
        if font.size(under[0])[0] > width:
            wrapped = theme.wrap(under[0], font, width)
            room = rect.height - 2 - 2 * font.get_linesize()
            while size > theme.SMALLEST and theme.font(size, True).get_linesize() > room:
                size -= 1
            fits = all(font.size(line)[0] <= width for line in wrapped)
            if len(wrapped) == 2 and fits and theme.font(size, True).get_linesize() <= room:
                under = wrapped
            else:
                size = rect.height * 9 // 25
        lines = (
            theme.fitted(first(), size, ink, width, True),
            *(theme.fitted(line, below, ink, width) for line in under),
        )
        top = rect.centery - sum(line.get_height() for line in lines) // 2
        for line in lines:
            surface.blit(line, line.get_rect(midtop=(rect.centerx, top)))
            top += line.get_height()

    return draw


def fixed(text: str) -> Callable[[], str]:
    """A label that never changes (a name, or words already in the player's language)."""
    return lambda: text


def button(
    rect: pygame.Rect,
    label: Callable[[], str],
    action: Callable[[], None],
    palette: theme.Palette,
    enabled: Callable[[], bool] = lambda: True,
    name: str = "",
) -> Target:
    """A labelled button; ``label`` is called at each draw so a language change shows."""
    draw = button_drawing(rect, label, palette, enabled)
    return Target(rect, action, enabled, draw, name or label(), label)


def button_drawing(
    rect: pygame.Rect,
    label: Callable[[], str],
    palette: theme.Palette,
    enabled: Callable[[], bool] = lambda: True,
) -> Callable[[pygame.Surface, bool, bool], None]:
    """How :func:`button` draws: its face (lighter while pressed, ringed with the focus)
    and its words — for a target that draws more over it."""

    def draw(surface: pygame.Surface, focused: bool, pressed: bool) -> None:
        on = enabled()
        draw_face(surface, rect, palette.button if on else palette.panel, palette, focused,
                  pressed and on)  # fmt: skip
        colour = palette.button_text if on else palette.muted
        draw_label(surface, label(), rect, colour)

    return draw


def draw_label(surface: pygame.Surface, text: str, rect: pygame.Rect, colour: theme.Colour) -> None:
    """A button's words at 2/5 of its height: on one line if they fit (or nearly: shrunk a
    tenth at most), else on two balanced lines where two fit (a long Italian or German label
    stays readable) — a little smaller if need be, never under :data:`theme.SMALLEST` nor
    under the size one line would shrink to —, else on one line shrunk to fit."""
    size = max(theme.SMALLEST, rect.height * 2 // 5)
    room = rect.width - 8
    wide = theme.font(size, True).size(text)[0]
    one_line = size * min(1.0, room / max(1, wide))  # the size one line shrinks to
    if one_line * 10 < size * 9:
        for smaller in range(size, theme.SMALLEST - 1, -1):
            if smaller <= one_line:
                break
            font = theme.font(smaller, True)
            if 2 * font.get_linesize() > rect.height - 2:
                continue
            lines = balanced(text, font)
            if len(lines) != 2:
                break
            if all(font.size(line)[0] <= room for line in lines):
                step = font.get_linesize()
                for n, line in enumerate(lines):
                    words = theme.text(line, smaller, colour, True)
                    centre = (rect.centerx, rect.centery + (n - 0.5) * step)
                    surface.blit(words, words.get_rect(center=centre))
                return
    words = theme.fitted(text, size, colour, room, True)
    surface.blit(words, words.get_rect(center=rect.center))


def balanced(text: str, font: pygame.font.Font) -> list[str]:
    """``text`` in two lines as even as its words allow (no word left alone on the second
    line when the first could give it company), or in one if it is one word."""
    words = text.split()
    splits = [(" ".join(words[:n]), " ".join(words[n:])) for n in range(1, len(words))]
    if not splits:
        return [text]
    return list(min(splits, key=lambda pair: max(font.size(line)[0] for line in pair)))


def nearest(targets: list[Target], current: Target | None, dx: int, dy: int) -> Target | None:
    """The target an arrow key moves the focus to: the closest one in that direction,
    preferring those in line with the current one (on its row for left and right, in its
    column for up and down), as browsers' spatial navigation does — so the arrows walk
    along a row of choices instead of jumping to a nearer-looking one on the next row."""
    live = [t for t in targets if t.enabled()]
    if not live:
        return None
    if current is None or current not in live:
        return live[0]
    cx, cy = current.rect.center
    best, best_score = None, None
    for target in live:
        if target is current:
            continue
        tx, ty = target.rect.center
        along = (tx - cx) * dx + (ty - cy) * dy
        if along <= 0:
            continue
        across = abs((tx - cx) * dy) + abs((ty - cy) * dx)
        in_line = _overlap(current.rect, target.rect, vertical=dx != 0)
        score = (not in_line, along + 2 * across)
        if best_score is None or score < best_score:
            best, best_score = target, score
    return best or current


def following(targets: list[Target], current: Target | None, step: int) -> Target | None:
    """The target Tab (``step`` 1) or Shift+Tab (−1) moves the focus to: the next enabled
    one in order, round from the end to the start — every target is reached this way."""
    live = [t for t in targets if t.enabled()]
    if not live:
        return None
    if current not in live:
        return live[0] if step > 0 else live[-1]
    return live[(live.index(current) + step) % len(live)]


def _overlap(a: pygame.Rect, b: pygame.Rect, vertical: bool) -> bool:
    """Whether ``a`` and ``b`` share some height (``vertical``) or some width."""
    if vertical:
        return a.top < b.bottom and b.top < a.bottom
    return a.left < b.right and b.left < a.right


def segment(
    rect: pygame.Rect,
    label: Callable[[], str],
    chosen: Callable[[], bool],
    choose: Callable[[], None],
    palette: theme.Palette,
    name: str,
) -> Target:
    """One choice of a segmented control: its choices side by side, all visible, the chosen
    one lit in the accent colour (and bold), so the setting reads at a glance."""

    def draw(surface: pygame.Surface, focused: bool, pressed: bool) -> None:
        on = chosen()
        draw_face(surface, rect, palette.accent if on else palette.button, palette, focused,
                  pressed)  # fmt: skip
        ink = palette.background if on else palette.button_text
        size = max(10, rect.height * 2 // 5 if on else rect.height * 9 // 25)
        words = theme.fitted(label(), size, ink, rect.width - rect.height // 4, on)
        surface.blit(words, words.get_rect(center=rect.center))

    return Target(rect, choose, draw=draw, name=name)
