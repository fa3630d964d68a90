"""Board pictures outside a match: for the rules screens and the results."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import pygame

from game.client import theme
from game.client.coach import Silent
from game.client.views import view_for
from game.client.views.base import Step
from game.client.widgets import Target
from game.rules import State, new_game

if TYPE_CHECKING:
    from game.client.app import App


@dataclass
class Preview:
    """What a board view asks of the screen it is on, for a board that is only looked at."""

    app: App
    state: State
    locked: bool = True
    coach: Silent = field(default_factory=Silent)
    control: Onlookers = field(default_factory=lambda: Onlookers())
    targets: list[Target] = field(default_factory=list)
    played_on = False
    """Nothing is tapped on a picture: its dice and pieces stay where they are drawn small."""

    @property
    def palette(self) -> theme.Palette:
        return self.app.palette

    def gentle_cue(self, rect: pygame.Rect | None = None) -> None:
        """A picture is not played on: taps do nothing."""

    def can_roll(self) -> bool:
        return False

    def roll(self) -> None:
        """Nobody rolls on a picture."""

    def submit(self, action: int) -> None:
        """Nothing is played on a picture."""


class Onlookers:
    """Who decides for a picture's seats: nobody here."""

    def here(self, seat: int) -> bool:
        return False


def draw_position(
    app: App,
    state: State,
    size: tuple[int, int],
    last_turn: tuple[Step, ...] = (),
) -> pygame.Surface:
    """A picture of ``state``, its tray (dice, hands) along the bottom, at ``size``, with
    ``last_turn`` (the turn that led to it) highlighted."""
    view = view_for(state.variant.name, Preview(app, state))
    surface = pygame.Surface(size)
    surface.fill(app.palette.background)
    width, height = size
    tray_height = height // 7
    board = pygame.Rect(0, 0, width, height - tray_height)
    view.layout(board, pygame.Rect(0, height - tray_height, width, tray_height))
    drawn = getattr(view, "paper", view.rect)  # the board as drawn: the tray keeps under it
    if 0 < drawn.width < width:
        view.layout(board, pygame.Rect(drawn.x, height - tray_height, drawn.width, tray_height))
    view.show_last_turn(last_turn)
    view.draw(surface)
    return surface


def board_picture(app: App, name: str, size: tuple[int, int]) -> pygame.Surface:
    """The starting position of a variant."""
    return draw_position(app, new_game(name), size)
