"""The seam between the match screen and the panel round its board.

The match screen (:class:`~game.client.scenes.play.PlayScene`) is composed with a
:class:`Panel`, which lays the window out (the unit, the board's and the tray's
rectangles), makes the panel's buttons for the decision at hand, names what it shows for the
frames that draw only what changed, and draws itself.  The usual panel stands beside the
board, or under it in a narrow window (:class:`~game.client.beside_panel.BesidePanel`); a
touch table has one at each edge, facing its side
(:class:`~game.client.table_panels.FacingPanels`).  Both use the speaker of
:func:`mute_button` and the counts' line height :data:`COUNT_LINE`.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple, Protocol

import pygame

from game.client import theme
from game.client.redraw import Element
from game.client.widgets import Target

if TYPE_CHECKING:
    from game.client.app import App

COUNT_LINE = 1.15
"""Units per line of counts."""


class Arrangement(NamedTuple):
    """Where a panel puts the match screen in a window: the unit of its sizes, the board's
    rectangle and the tray's (dice, hands: below the panel's words or beside the board)."""

    u: int
    board: pygame.Rect
    tray: pygame.Rect


class Panel(Protocol):
    """What the match screen asks of the panel — or panels — round its board."""

    @property
    def rect(self) -> pygame.Rect:
        """The panel (of a table's two, the near one)."""
        ...

    def layout(self, size: tuple[int, int]) -> Arrangement:
        """Lay the panel out for a window of ``size``; where the board and the tray go."""
        ...

    def fits(self) -> bool:
        """Whether the layout still suits the decision at hand (False: buttons came or went
        that need another; the screen lays itself out anew)."""
        ...

    def buttons(self) -> list[Target]:
        """The panel's buttons for the screen as it now stands, asked at each change (the
        panel takes what it lists — the moves so far — then too)."""
        ...

    def areas(self) -> list[pygame.Rect]:
        """The rectangles painted in the panel's colour under everything."""
        ...

    def elements(self) -> list[Element]:
        """What each part of the panel shows now, for the frames that draw only what
        changed (:mod:`game.client.redraw`)."""
        ...

    def draw(self, surface: pygame.Surface) -> None:
        """The panel's words, counts and notices (its buttons are the screen's targets)."""
        ...


def mute_button(app: App, rect: pygame.Rect, size: int) -> Target:
    """The loudspeaker that mutes and unmutes the sounds, in ``rect``, its corners rounded
    as a button ``size`` pixels high."""
    palette = app.palette

    def draw(surface: pygame.Surface, focused: bool, pressed: bool) -> None:
        pygame.draw.rect(surface, palette.button, rect, border_radius=size // 5)
        if focused:
            pygame.draw.rect(surface, palette.focus, rect, max(2, size // 14),
                             border_radius=size // 5)  # fmt: skip
        surface.blit(_speaker(rect.size, palette.button_text, app.settings.muted), rect)

    muted = lambda: "muted" if app.settings.muted else "sounding"  # noqa: E731
    return Target(rect, app.toggle_mute, draw=draw, name="mute", label=muted)


@lru_cache(maxsize=8)
def _speaker(size: tuple[int, int], colour: theme.Colour, muted: bool) -> pygame.Surface:
    """A loudspeaker, with sound waves or crossed out, drawn once and blitted: pygame's arcs
    are not drawn alike under every clip, and the button is drawn again in parts."""
    surface = pygame.Surface(size, pygame.SRCALPHA)
    w, h = size
    body = [(0.22 * w, 0.4 * h), (0.36 * w, 0.4 * h), (0.55 * w, 0.22 * h), (0.55 * w, 0.78 * h),
            (0.36 * w, 0.6 * h), (0.22 * w, 0.6 * h)]  # fmt: skip
    pygame.draw.polygon(surface, colour, body)
    line = max(2, w // 14)
    if muted:
        for (ax, ay), (bx, by) in (((0.64, 0.36), (0.84, 0.64)), ((0.84, 0.36), (0.64, 0.64))):
            pygame.draw.line(surface, colour, (ax * w, ay * h), (bx * w, by * h), line)
        return surface
    for radius in (0.16, 0.28):
        arc = pygame.Rect(0, 0, 2 * radius * w, 2 * radius * h)
        arc.center = (round(0.5 * w), h // 2)
        pygame.draw.arc(surface, colour, arc, -0.9, 0.9, line)
    return surface
