"""A kiosk's watch over the app (``tavolo --kiosk``): the demos or the closed screen while
nobody plays, the countdown over a match left alone, the usage counters, the sweep of
unfinished matches nobody came back to, and the operator's long press in the corner."""

from __future__ import annotations

import logging
import shutil
import subprocess
import time
from typing import TYPE_CHECKING, TypeGuard

import pygame

from game.client import input as ui
from game.client import theme
from game.client.navigator import Screen, is_match, make, shows

if TYPE_CHECKING:
    from game.client.app import App
    from game.client.kiosk_config import KioskConfig
    from game.client.scene import Scene
    from game.client.scenes.title import TitleScene

log = logging.getLogger(__name__)

SWEEP_EVERY = 5.0
"""Seconds between two looks for unfinished matches nobody came back to."""
LONG_PRESS = 3.0
"""Seconds the operator holds a finger in the top-left corner to be asked for the PIN."""


def kiosk_of(app: App) -> KioskConfig:
    """The kiosk's configuration, for the screens there are only in kiosk mode — the attract
    mode, the countdown, the closed screen, the operator's menus; a RuntimeError outside
    it."""
    if app.kiosk is None:
        raise RuntimeError("a kiosk's screen outside kiosk mode")
    return app.kiosk


def watch_of(app: App) -> KioskWatch:
    """The kiosk's watch, for the closed screen (which puts the display to sleep); a
    RuntimeError outside kiosk mode."""
    if app.kiosk_watch is None:
        raise RuntimeError("a kiosk's screen outside kiosk mode")
    return app.kiosk_watch


class KioskWatch:
    """What a kiosk looks after between (and over) the visitors' frames."""

    def __init__(self, app: App, config: KioskConfig) -> None:
        self.app = app
        self.config = config
        self._swept_at = -SWEEP_EVERY
        self._corner_since: float | None = None

    def gesture(self, event: ui.UIEvent) -> bool:
        """A long press in the top-left corner asks for the operator's PIN; True if the
        event was that gesture's end (and so is no tap for the scene)."""
        app = self.app
        if not isinstance(event, ui.Press | ui.Release):
            return False
        corner = 3 * theme.unit(app.size)
        inside = event.pos[0] < corner and event.pos[1] < corner
        if isinstance(event, ui.Press):
            self._corner_since = app.time if inside else None
            return False
        since, self._corner_since = self._corner_since, None
        if inside and since is not None and app.time - since >= LONG_PRESS:
            app.push(make(Screen.PIN, app))
            return True
        return False

    def watch(self, elapsed: float) -> None:
        """Attract mode after the idle time, or the closed screen outside the opening hours;
        the countdown over a match nobody touches; the usage counters; and, every few
        seconds, unfinished matches nobody came back to swept away."""
        app = self.app
        idle = app.time - app.last_input
        # A match left open under a menu (paused, its rules, a question) is as abandoned as
        # one left on screen: the countdown ends it, or the next visitor would find it.
        play = next((s for s in reversed(app.scenes) if is_match(s)), None)
        visiting = play is not None and not play.state.is_terminal()
        if app.usage is not None:
            match = play.match if play is not None else None
            counted = visiting and match is not None and not shows(app.scene, Screen.ABANDON)
            app.usage.tick(elapsed, (match.variant.name, match.seed, match.begun)
                            if counted and match is not None else None)  # fmt: skip
        if app.time - self._swept_at >= SWEEP_EVERY:
            self._swept_at = app.time
            self.sweep_abandoned()
        if shows(app.scene, Screen.CLOSED) or shows(app.scene, Screen.ABANDON):
            return
        if any(scene.holds_the_kiosk for scene in app.scenes):
            return  # a tournament under way: watched on the big screen, not touched
        if shows(app.scene, Screen.ATTRACT):
            if not self.is_open():
                app.reset(make(Screen.CLOSED, app))
            return
        if any(getattr(scene, "operator", False) for scene in app.scenes):
            # Staff's screens: never a visitor's countdown (a touch on it would open them
            # to whoever came by); left idle, they close like any menu.
            if idle >= self.config.attract_after:
                log.info("kiosk: the operator menu closed after %d s untouched", idle)
                app.reset(self._rest_screen())
            return
        if visiting:
            if idle >= self.config.abandon_after:
                app.push(make(Screen.ABANDON, app, play))
        elif idle >= self.config.attract_after:
            app.reset(self._rest_screen())

    def _rest_screen(self) -> Scene:
        """The kiosk's screen while nobody plays: the demos, or closed outside its hours."""
        return make(Screen.ATTRACT if self.is_open() else Screen.CLOSED, self.app)

    def sleep_display(self, sleep: bool = True) -> None:
        """Ask the X server to put the display to sleep (or wake it and keep it awake, as
        the manual's ``xset -dpms`` does); nothing under other video drivers."""
        if pygame.display.get_driver() != "x11" or shutil.which("xset") is None:
            return
        steps = [["force", "off"]] if sleep else [["force", "on"], ["-dpms"]]
        for step in steps:
            command = ["xset", *step] if step[0] == "-dpms" else ["xset", "dpms", *step]
            try:
                subprocess.run(command, timeout=2, check=False, capture_output=True)
            except (OSError, subprocess.TimeoutExpired) as error:
                log.warning("kiosk: %s failed: %s", " ".join(command), error)

    def is_open(self) -> bool:
        """Whether the kiosk is within its opening hours now."""
        app = self.app
        now = time.localtime(app.wall_clock())
        return self.config.is_open(now.tm_hour * 60 + now.tm_min)

    def sweep_abandoned(self) -> int:
        """Kiosk mode: delete the unfinished matches nobody has played for the abandon time
        and its countdown — left with *Leave*, or carried over a restart — but those open on
        the screen; a title showing one is made anew.  How many went."""
        app = self.app
        store = app.saves.store
        keep = frozenset(store.path_of(s.match) for s in app.scenes if is_match(s))
        since = app.wall_clock() - self.config.abandon_after - self.config.countdown
        gone = len(store.abandon(since, keep))
        title = app.scene if app.scenes else None
        if gone and _is_title(title) and title.shelf.total:
            app.scenes[-1] = make(Screen.TITLE, app)
            app.scene.layout(app.size)
        return gone


def _is_title(scene: Scene | None) -> TypeGuard[TitleScene]:
    """Whether ``scene`` is the title screen (the navigator makes it as a TitleScene)."""
    return scene is not None and shows(scene, Screen.TITLE)
