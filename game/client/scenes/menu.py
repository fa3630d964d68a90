"""The menu screens' base: a title and a column (or grid) of buttons, each an :func:`item`."""

from __future__ import annotations

from collections.abc import Callable

import pygame

from game.client import theme
from game.client.scene import Scene
from game.client.widgets import Target, button

Item = tuple[Callable[[], str], Callable[[], None], Callable[[], bool], str]


def item(
    label: Callable[[], str],
    action: Callable[[], None],
    name: str,
    enabled: Callable[[], bool] = lambda: True,
) -> Item:
    """A menu entry: its label (read at each draw, so it follows the language), what it
    does, its name for tests and focus, and whether it can be chosen now."""
    return label, action, enabled, name


class MenuScene(Scene):
    """A title and a column (or grid) of buttons; subclasses list the items."""

    columns = 1

    def title(self) -> str:
        return "Tavolo"

    def subtitle(self) -> str:
        return ""

    def items(self) -> list[Item]:
        return []

    def draw_backdrop(self, surface: pygame.Surface) -> None:
        """What shows behind the title and the buttons (by default: the plain background)."""

    def spans(self, name: str) -> bool:
        """Whether the item ``name`` takes a whole row when the buttons stand in columns."""
        return False

    def layout(self, size: tuple[int, int]) -> None:
        """The buttons in a column (or the grid of :attr:`columns`) under the title: 3.4
        units a button and half a unit between, less when that would run off the bottom (a
        title with matches to resume on a short window), never under :data:`theme.TOUCH`;
        in more columns where even that does not fit (a 1024x600 panel)."""
        self.u = u = theme.unit(size)
        items = self.items()
        top = 13 * u
        gap = u // 2
        room = size[1] - top - gap
        least = theme.touch(2.6 * u) + gap
        columns = self.columns
        while True:
            width = min(size[0] - 4 * u, 22 * u * columns + (columns - 1) * u)
            cell_width = (width - (columns - 1) * u) // columns
            places, rows = self._places(items, columns)
            wider = min(size[0] - 4 * u, 22 * u * (columns + 1) + columns * u)
            if rows * least <= room or (wider - columns * u) // (columns + 1) < 12 * u:
                break
            columns += 1
        left = (size[0] - width) // 2
        pitch = max(least, min(round(3.9 * u), room // rows))
        height = pitch - gap
        targets: list[Target] = []
        for (label, action, enabled, name), (row, col, span) in zip(items, places, strict=True):
            rect = pygame.Rect(left + col * (cell_width + u), top + row * pitch,
                               span * cell_width + (span - 1) * u, height)  # fmt: skip
            targets.append(button(rect, label, action, self.palette, enabled, name))
        self.set_targets(targets)

    def _places(self, items: list[Item], columns: int) -> tuple[list[tuple[int, int, int]], int]:
        """Where each item stands in ``columns`` columns (its row, its column, how many
        columns it spans), in reading order, and how many rows that takes."""
        places, row, col = [], 0, 0
        for item_ in items:
            if columns > 1 and self.spans(item_[3]):
                row += col > 0
                places.append((row, 0, columns))
                row, col = row + 1, 0
            else:
                places.append((row, col, 1))
                row, col = (row + 1, 0) if col + 1 == columns else (row, col + 1)
        return places, row + (col > 0)

    def words(self, width: int) -> list[tuple[pygame.Surface, pygame.Rect]]:
        """The title and the subtitle's lines on a screen ``width`` wide: each picture and
        where it goes (sets :attr:`subtitle_bottom`, where the words end)."""
        u = self.u
        room = width - 2 * u
        size = 5 * u
        wide = theme.font(size, True).size(self.title())[0]
        if wide > room:  # a narrow window: the title shrinks to fit
            size = max(2 * u, size * room // wide)
        title = theme.text(self.title(), size, self.palette.accent, True)
        placed = [(title, title.get_rect(midtop=(width // 2, 3 * u)))]
        self.subtitle_bottom = 9 * u
        if self.subtitle():  # wrapped, two lines at most: a narrow (turned) screen cuts none
            size = round(1.3 * u)
            font = theme.font(size)
            for line in theme.wrap(self.subtitle(), font, room)[:2]:
                sub = theme.fitted(line, size, self.palette.text, room)
                placed.append((sub, sub.get_rect(midtop=(width // 2, self.subtitle_bottom))))
                self.subtitle_bottom += font.get_linesize()
        return placed

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(self.palette.background)
        self.draw_backdrop(surface)
        surface.blits(self.words(surface.get_width()), doreturn=False)
        self.draw_targets(surface)
