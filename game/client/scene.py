"""A screen of the game.  The base class routes input to targets and keeps the focus."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from game.client import input as ui
from game.client import theme
from game.client.redraw import clipped_out
from game.client.widgets import Target, following, nearest

if TYPE_CHECKING:
    from game.client.app import App


class Scene:
    """One screen.  Subclasses build their targets in :meth:`layout` and draw in
    :meth:`draw`; the base class taps, clicks and keyboard-activates the targets."""

    fps: int | None = None
    """The most frames a second this screen needs while it moves (None: the app's)."""
    draws_changes_only = False
    """True for screens whose :meth:`draw` draws only what changed and says where
    (:meth:`updated_areas`); the others draw everything each time."""
    holds_the_kiosk = False
    """True for screens a kiosk must not leave for its demos however long nobody touches it
    (a tournament's room and TV: a big screen watched, not touched, and a tournament that
    would end with them)."""
    facing: int | None = None
    """Degrees the picture is turned while this screen is on top — 180 for a menu opened
    from the far side of a face-to-face table, so that side reads it; None: as the screen
    under it (0 at the bottom)."""

    def __init__(self, app: App) -> None:
        self.app = app
        self.targets: list[Target] = []
        self.focus: Target | None = None
        self._pressed: Target | None = None
        self.cue: float = 0.0  # seconds left of the "not here" cue
        self.cue_rect: pygame.Rect | None = None
        self.inputs = 0
        """Taps, clicks and keys handled (not pointer motion): a change a screen that draws
        only what changed cannot see otherwise (a choice half made)."""

    @property
    def palette(self) -> theme.Palette:
        return self.app.palette

    # -- hooks ----------------------------------------------------------------------------

    def layout(self, size: tuple[int, int]) -> None:
        """Place everything for a window of ``size``; called on entry and on every resize."""

    def update(self, dt: float) -> None:
        """Advance animations by ``dt`` seconds."""
        self.cue = max(0.0, self.cue - dt)

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(self.palette.background)
        self.draw_targets(surface)

    def updated_areas(self) -> list[pygame.Rect] | None:
        """The parts of the screen the last :meth:`draw` changed, for the app to show;
        None: the whole screen (the default, for screens that draw everything each frame)."""
        return None

    def draw_whole(self, surface: pygame.Surface) -> None:
        """Draw everything, whatever was drawn before (as clipped: a strip a wipe uncovers),
        without changing what :meth:`draw` will think is on the screen."""
        self.draw(surface)

    def invalidate(self) -> None:
        """Draw everything at the next :meth:`draw`: what the screen shows is not what this
        screen drew last (for screens that draw only what changed)."""

    def back(self) -> None:
        """What Escape does here (by default: the previous screen)."""
        self.app.pop()

    def discard(self) -> None:
        """The screen leaves the stack for good: let go of threads, links and work under way
        (called once; a screen handed on to another keeps what it hands over)."""

    @property
    def animating(self) -> bool:
        """True while something moves by itself, so the app keeps drawing frames."""
        return self.cue > 0

    @property
    def waiting(self) -> bool:
        """True while the screen waits for word from outside the frame loop (the computer's
        move, the network): the app sleeps until it comes (:mod:`game.client.wakeup`),
        drawing a few frames a second meanwhile."""
        return False

    def tap_elsewhere(self, pos: tuple[int, int]) -> None:
        """A tap on no target: scenes with boards treat it; others ignore it."""

    # -- input ----------------------------------------------------------------------------

    def handle(self, event: ui.UIEvent) -> None:
        if not isinstance(event, ui.Motion):
            self.inputs += 1
        if isinstance(event, ui.Press):
            self._pressed = self.target_at(event.pos)
        elif isinstance(event, ui.Release):
            target = self.target_at(event.pos)
            pressed, self._pressed = self._pressed, None
            if target is not None and target is pressed:
                self.focus = target
                self.activate(target)
            elif target is None and pressed is None:
                self.tap_elsewhere(event.pos)
        elif isinstance(event, ui.Navigate):
            self.focus = nearest(self.targets, self.focus, event.dx, event.dy)
        elif isinstance(event, ui.Cycle):
            self.focus = following(self.targets, self.focus, event.step)
        elif isinstance(event, ui.Activate):
            if self.focus is None:
                self.focus = nearest(self.targets, None, 0, 0)
            elif self.focus in self.targets:
                self.activate(self.focus)
        elif isinstance(event, ui.Back):
            self.back()

    def set_targets(self, targets: list[Target]) -> None:
        """Replace the targets, keeping the focus on the one of the same name if any."""
        focused = self.focus.name if self.focus is not None else None
        self.targets = targets
        self.focus = next((t for t in targets if focused and t.name == focused), None)

    def target_at(self, pos: tuple[int, int]) -> Target | None:
        for target in reversed(self.targets):
            if target.rect.collidepoint(pos):
                return target
        return None

    def activate(self, target: Target) -> None:
        if target.enabled():
            target.action()
        else:
            self.gentle_cue(target.rect)

    def gentle_cue(self, rect: pygame.Rect | None = None) -> None:
        """Show softly that this does nothing now: no dialog, no error."""
        self.cue, self.cue_rect = 0.35, rect
        self.app.sound.play("nope")

    def targets_look(self) -> tuple[object, ...]:
        """What the targets show now: each one's look, the focus and the press."""
        focus, pressed = self.focus, self._pressed
        return (tuple(t.look() for t in self.targets), focus.name if focus else None,
                pressed.name if pressed else None)  # fmt: skip

    def draw_targets(self, surface: pygame.Surface) -> None:
        for target in self.targets:
            if target.draw is not None and not clipped_out(surface, target.reach):
                target.draw(surface, target is self.focus, target is self._pressed)
        if self.focus is not None and self.focus.draw is None and self.focus in self.targets:
            pygame.draw.rect(
                surface,
                self.palette.focus,
                self.focus.rect,
                width=max(2, self.focus.rect.height // 12),
                border_radius=6,
            )
        if self.cue > 0 and self.cue_rect is not None:
            width = max(2, round(6 * self.cue / 0.35))
            pygame.draw.rect(
                surface, self.palette.warning, self.cue_rect, width=width, border_radius=6
            )
