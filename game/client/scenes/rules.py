"""The rules of a variant as players read them, with its board and its lesson."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from game.client import theme
from game.client.rules_text import rules_text
from game.client.scene import Scene
from game.client.scenes.picture import board_picture
from game.client.tutorial import script_for, start_tutorial
from game.client.widgets import button
from game.i18n import _
from game.names import variant_subtitle, variant_title
from game.rules import Variant

if TYPE_CHECKING:
    from game.client.app import App


class RulesScene(Scene):
    """The rules of one game in the player's language, beside a picture of its board: over a
    match, for the options it was set up with; from the rules index (``with_options``), for
    the default ones, with a line on each option."""

    def __init__(self, app: App, chosen: Variant, with_options: bool = False) -> None:
        super().__init__(app)
        self.chosen = chosen
        self.name = chosen.name
        self.with_options = with_options

    def layout(self, size: tuple[int, int]) -> None:
        self.u = u = theme.unit(size)
        self.text = rules_text(self.chosen, self.with_options)
        side = min(size[1] - 9 * u, size[0] * 2 // 5)
        self.picture = board_picture(self.app, self.name, (side, side))
        back = pygame.Rect(size[0] - 12 * u, size[1] - u - theme.row(u), 10 * u, theme.row(u))
        self.targets = [button(back, lambda: _("Back"), self.app.pop, self.palette, name="back")]
        if script_for(self.name) is not None:
            learn = pygame.Rect(back.x - 15 * u, back.y, 14 * u, back.height)
            self.targets.insert(0, button(learn, lambda: _("Learn by playing"),
                                          lambda: start_tutorial(self.app, self.name),
                                          self.palette, name="learn"))  # fmt: skip

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(self.palette.background)
        u = self.u
        title = theme.text(variant_title(self.name), 3 * u, self.palette.accent, True)
        surface.blit(title, (2 * u, u))
        subtitle = theme.text(variant_subtitle(self.name), round(1.3 * u), self.palette.text)
        surface.blit(subtitle, (2 * u, 4 * u))
        surface.blit(self.picture, (2 * u, 6 * u))
        x = 3 * u + self.picture.get_width()
        width = surface.get_width() - x - 2 * u
        y = 6 * u
        body = theme.font(round(0.95 * u))
        for paragraph in self.text.split("\n"):
            for line in theme.wrap(paragraph, body, width):
                surface.blit(body.render(line, True, self.palette.text), (x, y))
                y += round(1.3 * u)
            y += round(0.5 * u)
        self.draw_targets(surface)
