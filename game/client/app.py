"""The application: the window, the stack of scenes and the frame loop.

The loop draws at most ``fps`` frames a second while something moves, and sleeps in
``pygame.event.wait`` when nothing does, so an idle game does not spin a core.  A screen
waiting for word from outside (the computer's move, the network) sleeps too: the word wakes
the loop at once (:mod:`game.client.wakeup`), and a few frames a second keep its clocks and
progress bars going meanwhile.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pygame

from game import i18n
from game.ai.worker import Thinker
from game.client import input as ui
from game.client import (
    screens,  # noqa: F401 - every screen, registered with the navigator
    sprites,
    theme,
)
from game.client.input import InputTranslator
from game.client.kiosk_config import KioskConfig
from game.client.kiosk_usage import KioskUsage, RecentProblems
from game.client.kiosk_watch import KioskWatch
from game.client.navigator import Screen, make
from game.client.pin_guard import TRIES_FILE, PinGuard
from game.client.save_writer import SaveWriter
from game.client.scene import Scene
from game.client.settings import Settings
from game.client.sound import MusicLoop, SoundBank
from game.client.stop_signals import StopSignals
from game.client.wakeup import WAKE, Wakeup
from game.client.window_guard import WindowGuard
from game.client.wipe import Wipe
from game.session.highscores import HighScores
from game.session.profiles import Profiles
from game.session.saves import Keep, SaveStore

log = logging.getLogger(__name__)

MIN_SIZE = (1024, 600)
IDLE_WAIT_MS = 250
WAITING_WAIT_MS = 100
"""A screen waiting for word from outside draws at least this often (its clocks move)."""
KIOSK_SCALE = 1.12
"""A kiosk's controls are this much bigger: at 1080p every button is at least 64 px."""
OFFSCREEN_DRIVERS = frozenset({"offscreen", "dummy"})
"""SDL's video drivers that draw nowhere: SDL falls back to them when it finds no display."""


EXPOSING_EVENTS = frozenset({
    pygame.WINDOWEXPOSED, pygame.WINDOWSHOWN, pygame.WINDOWRESTORED, pygame.WINDOWMAXIMIZED,
    pygame.VIDEOEXPOSE,
})  # fmt: skip
"""Window events after which the system may have lost what the window showed."""


class NoDisplayError(RuntimeError):
    """There is no screen to show the game on, and running without one was not asked for."""


@dataclass(frozen=True, slots=True)
class Paths:
    """Where the player's settings and saves live."""

    config: Path
    data: Path

    @property
    def settings(self) -> Path:
        return self.config / "settings.json"


class App:
    def __init__(
        self,
        paths: Paths,
        *,
        size: tuple[int, int] | None = None,
        fullscreen: bool | None = None,
        fps: int = 60,
        kiosk: KioskConfig | None = None,
    ) -> None:
        self.stopped_by: str | None = None
        """The name of the signal that ended the app, if one did."""
        self._stop_signals = StopSignals(self._stop)
        """The system's stop signals, heard before SDL starts (:mod:`game.client.stop_signals`)."""
        if os.environ.get("SDL_VIDEO_X11_WMCLASS") in (None, Path(sys.argv[0]).name):
            # pygame's import names the X window class after the script ("__main__.py");
            # window managers' rules match "tavolo" (docs/kiosk-openbox-rc.xml).
            os.environ["SDL_VIDEO_X11_WMCLASS"] = "tavolo"
        pygame.init()
        _require_a_display()
        self.paths = paths
        self.settings = Settings.load(paths.settings)
        self.kiosk = kiosk
        if kiosk is not None:
            fullscreen = True if fullscreen is None else fullscreen
            theme.set_scale(KIOSK_SCALE)
            self.settings.volume = kiosk.volume
            self.settings.muted = False  # the operator's volume, not a past visitor's mute
            if self.settings.language not in kiosk.languages:
                self.settings.language = kiosk.languages[0]
        if fullscreen is not None:
            self.settings.fullscreen = fullscreen
        i18n.set_language(self.settings.language)
        sprites.use_theme(self.settings.board_theme)
        keep = None if kiosk is None else Keep(kiosk.keep_finished, kiosk.keep_finished_days)
        store = SaveStore(paths.data, keep)
        store.prune()  # a kiosk's visitors finish thousands of matches over the weeks
        store.recover()  # saves an older version set aside that open now come back
        store.tidy()  # set-aside saves and cut-short writes go after a week
        self.saves = SaveWriter(store)
        self.wall_clock = time.time
        """The time of day (a kiosk's opening hours and abandoned matches; tests set it)."""
        self.usage: KioskUsage | None = None
        """A kiosk's usage counters."""
        self.recent_problems: RecentProblems | None = None
        """A kiosk's last warnings and errors, for the operator's health page."""
        if kiosk is not None:
            self.usage = KioskUsage(paths.data)
            self.usage.started()
            self.usage.saw_damaged({aside.path.name for aside in store.set_aside()})
            self.recent_problems = RecentProblems()
            logging.getLogger().addHandler(self.recent_problems)
        self._highscores: HighScores | None = None
        self._profiles: Profiles | None = None
        self.sound = SoundBank(self.settings.volume, self.settings.muted)
        self.music = MusicLoop()
        self._play_music()
        self.fps = fps
        self.window_size = size or _default_window_size()
        self.display = self._open_window()
        self.screen = self.display
        """What scenes draw on: the window, or a turned picture of it (:meth:`apply_rotation`)."""
        self.scenes: list[Scene] = []
        self.apply_rotation()
        pygame.display.set_caption("Tavolo")
        self._window_guard = WindowGuard() if kiosk is not None else None
        self.running = True
        self.kiosk_watch = KioskWatch(self, kiosk) if kiosk is not None else None
        """The kiosk's watch over the app: idle screens, abandoned matches, the PIN gesture."""
        if self.kiosk_watch is not None:
            self.kiosk_watch.sweep_abandoned()  # a restart carries no stranger's match on
        self._translator = InputTranslator(clock=lambda: self.time)  # LONG_PRESS's clock
        self._clock = pygame.time.Clock()
        self._exposed = False
        """The window was shown again since the last frame: the next one shows all of it,
        whatever the scene changed."""
        self._frames = 0
        self._wipe: Wipe | None = None
        """The next screen being uncovered over the last."""
        self._wipe_started = -1
        self._thinker: Thinker | None = None
        self.wakeup = Wakeup()
        """Rung by the computer's answers and the network's news (from other threads)."""
        self.time = 0.0
        """Seconds the app has run (advanced by each frame's ``dt``, so tools can hurry it)."""
        self.last_input = 0.0
        self.recovered = 0
        """Errors a kiosk caught inside a scene and recovered from."""
        self.pin_guard = PinGuard(None if kiosk is None else paths.config / TRIES_FILE)
        """Wrong operator PINs so far (kiosk mode: kept across restarts)."""

    @property
    def highscores(self) -> HighScores:
        """The table's high-score board, read at its first use."""
        if self._highscores is None:
            self._highscores = HighScores(self.paths.data)
        return self._highscores

    @property
    def profiles(self) -> Profiles:
        """The people who play at this machine, read at the first use."""
        if self._profiles is None:
            self._profiles = Profiles(self.paths.data)
        return self._profiles

    # -- window ---------------------------------------------------------------------------

    @property
    def size(self) -> tuple[int, int]:
        return self.screen.get_size()

    @property
    def palette(self) -> theme.Palette:
        return theme.palette(self.settings.colour_blind)

    @property
    def boards(self) -> theme.Boards:
        """The colours of the chosen board theme."""
        return theme.BOARD_THEMES[self.settings.board_theme]

    def _open_window(self) -> pygame.Surface:
        if self.settings.fullscreen:
            return pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
        return pygame.display.set_mode(self.window_size, pygame.RESIZABLE)

    def toggle_fullscreen(self) -> None:
        self.settings.fullscreen = not self.settings.fullscreen
        self.display = self._open_window()
        self.apply_rotation()
        self.save_settings()
        self._relayout()

    def _resized(self, size: tuple[int, int]) -> None:
        if not self.settings.fullscreen:
            self.window_size = (max(320, size[0]), max(240, size[1]))
        surface = pygame.display.get_surface()
        if surface is not None:  # the window's new surface (there is one: it was resized)
            self.display = surface
        self.apply_rotation()

    @property
    def rotation(self) -> int:
        """Degrees clockwise the picture is turned on the glass: a kiosk's table mounted
        either way, and the top screen's :attr:`~Scene.facing` (a menu opened from the far
        side of a face-to-face table faces that side)."""
        mounted = self.kiosk.rotation if self.kiosk is not None else 0
        facing = next((s.facing for s in reversed(self.scenes) if s.facing is not None), 0)
        return (mounted + facing) % 360

    @property
    def table_layout(self) -> str:
        """The match screen's layout: the kiosk's, else the player's setting."""
        return self.kiosk.table_layout if self.kiosk is not None else self.settings.table_layout

    def apply_rotation(self) -> None:
        """Scenes draw upright on a picture of their own, turned onto the window as it is
        shown; the pointer is turned back (:meth:`_upright`).  At 0° they draw on the
        window itself."""
        width, height = self.display.get_size()
        if self.rotation in (90, 270):
            width, height = height, width
        self._turned_to = self.rotation
        if self.rotation == 0:
            self.screen = self.display
        elif self.screen is self.display or self.screen.get_size() != (width, height):
            self.screen = pygame.Surface((width, height)).convert()
        self._relayout()

    def _present(self, areas: list[pygame.Rect] | None) -> None:
        """Show what was drawn: the areas given, or all of it (always all of it, turned)."""
        if self.screen is not self.display:
            turned = pygame.transform.rotate(self.screen, -self.rotation)
            self.display.blit(turned, (0, 0))
            pygame.display.flip()
        elif areas is None:
            pygame.display.flip()
        else:
            pygame.display.update(areas)

    def _upright(self, pos: tuple[int, int]) -> tuple[int, int]:
        """A point of the window as a point of the upright picture the scenes drew."""
        x, y = pos
        width, height = self.screen.get_size()
        if self.rotation == 90:
            return y, height - 1 - x
        if self.rotation == 180:
            return width - 1 - x, height - 1 - y
        if self.rotation == 270:
            return width - 1 - y, x
        return pos

    def _relayout(self) -> None:
        """Every screen laid out again, the one on show drawn whole at the next frame (a
        wipe under way is over: what it uncovered was laid out for the old size)."""
        self._wipe = None
        self._exposed = True
        for scene in self.scenes:
            scene.layout(self.size)

    # -- sound --------------------------------------------------------------------------

    def set_volume(self, volume: float) -> None:
        """Play sounds at ``volume``, 0 (silent) to 1 (anything beyond is brought within),
        and unmute: whoever changes the volume wants to hear it.  Kept in the settings — a
        kiosk's in its own configuration, which the operator menu saves."""
        self.settings.volume = min(max(round(volume, 2), 0.0), 1.0)
        self.settings.muted = False
        if self.kiosk is not None:
            self.kiosk.volume = self.settings.volume
        self.sound.set_volume(self.settings.volume)
        self.sound.set_muted(False)
        self._play_music()
        self._keep_sound_settings()

    def set_muted(self, muted: bool) -> None:
        self.settings.muted = muted
        self.sound.set_muted(muted)
        self._play_music()
        self._keep_sound_settings()

    def set_music(self, on: bool, volume: float | None = None) -> None:
        """The music on or off, at ``volume`` (kept within 0–1) if given; turning it on or
        changing its volume unmutes, as the sounds' volume does."""
        self.settings.music = on
        if volume is not None:
            self.settings.music_volume = min(max(round(volume, 2), 0.0), 1.0)
        if on and self.settings.muted:
            self.settings.muted = False
            self.sound.set_muted(False)
        self._play_music()
        self._keep_sound_settings()

    def _play_music(self) -> None:
        settings = self.settings
        self.music.apply(settings.music, settings.music_volume, settings.muted)

    def toggle_mute(self) -> None:
        """Sounds off, or on again at the volume they had (the match screen's speaker)."""
        self.set_muted(not self.settings.muted)

    def _keep_sound_settings(self) -> None:
        if self.kiosk is None:  # a kiosk never writes the player's settings: a visitor's
            self.save_settings()  # mute lasts until the demos start (see AttractScene)

    def save_settings(self) -> None:
        try:
            self.settings.save(self.paths.settings)
        except OSError as error:
            log.warning("settings not saved: %s", error)

    # -- scenes ---------------------------------------------------------------------------

    @property
    def scene(self) -> Scene:
        return self.scenes[-1]

    def push(self, scene: Scene) -> None:
        self._wipe_in(-1)
        self.scenes.append(scene)
        if not self._turn_to_face():
            scene.layout(self.size)

    def replace(self, scene: Scene) -> None:
        if self.scenes:
            self.scenes.pop().discard()
        self.push(scene)

    def reset(self, scene: Scene) -> None:
        """Make ``scene`` the only one (back to the title, say)."""
        while self.scenes:
            self.scenes.pop().discard()
        self.saves.flush()
        self.push(scene)

    def pop(self) -> None:
        if len(self.scenes) > 1:
            self._wipe_in(+1)
            self.scenes.pop().discard()
            if not self._turn_to_face():
                self.scene.layout(self.size)

    def _turn_to_face(self) -> bool:
        """Turn the picture if the top screen faces another way than the last (every
        screen is laid out again then); True if it did."""
        if self.rotation == self._turned_to:
            return False
        self.apply_rotation()
        return True

    @property
    def transitioning(self) -> bool:
        """The new screen is still being uncovered over the last one."""
        return self._wipe is not None

    def _wipe_in(self, direction: int) -> None:
        """The next screen is uncovered over the last one (:mod:`game.client.wipe`), from
        the right going on (``direction`` −1), from the left going back (+1); once per frame
        however many screens change in it; none with *reduce motion*."""
        if self._wipe_started == self._frames or not self._frames:
            return
        if self.settings.reduce_motion:
            return
        self._wipe_started = self._frames
        self._wipe = Wipe(direction)

    def quit(self) -> None:
        self.running = False

    @property
    def thinker(self) -> Thinker:
        """The computer players' worker process, started when first needed."""
        if self._thinker is None:
            self._thinker = Thinker(self.wakeup.notify)
        return self._thinker

    def close(self) -> None:
        """Let every screen let go of what it holds (network links, the computer's work) and
        stop the worker process (the window closes with the interpreter)."""
        while self.scenes:
            self.scenes.pop().discard()
        self.saves.close()
        if self._thinker is not None:
            self._thinker.close()
            self._thinker = None
        if self._window_guard is not None:
            self._window_guard.close()
            self._window_guard = None
        if self.usage is not None:
            self.usage.stopped()
            self.usage = None
        if self.recent_problems is not None:
            logging.getLogger().removeHandler(self.recent_problems)
            self.recent_problems = None
        self._stop_signals.close()

    @property
    def window_returns(self) -> int:
        """Times a kiosk took its window back from the window manager."""
        return self._window_guard.taken_back if self._window_guard is not None else 0

    def _stop(self, signal_name: str) -> None:
        """A stop signal came (between two steps of the frame loop): the loop ends after
        this frame, the match on the screen having been saved at its last change."""
        self.stopped_by = signal_name
        self.running = False

    # -- the loop -------------------------------------------------------------------------

    def dispatch(self, event: pygame.event.Event) -> None:
        if self._window_guard is not None:
            self._window_guard.saw(event)
        if event.type == pygame.QUIT:
            if self.kiosk is None:
                self.quit()
            else:  # closing the window, Alt+F4: the public cannot leave a kiosk
                log.info("kiosk: a request to quit was ignored")
        elif event.type in (pygame.WINDOWRESIZED, pygame.WINDOWSIZECHANGED):
            self._resized((event.x, event.y))
        elif event.type in EXPOSING_EVENTS:  # the window shows again: all of it is due
            self._exposed = True
        elif event.type == WAKE:  # word from outside: this frame's update reads it
            self.wakeup.taken()
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_F11:
            if self.kiosk is None:
                self.toggle_fullscreen()
        else:
            self._hand_over_finger(event)
            translated = self._translator.translate(event, self.display.get_size())
            if translated is not None:
                if self.rotation and isinstance(translated, ui.Press | ui.Release | ui.Motion):
                    translated = dataclasses.replace(translated, pos=self._upright(translated.pos))
                self.last_input = self.time
                if self.kiosk_watch is not None and self.kiosk_watch.gesture(translated):
                    return
                wipe = self._wipe
                self.scene.handle(translated)
                if wipe is not None and self._wipe is wipe:  # not a wipe this input began
                    wipe.touched = True

    def _hand_over_finger(self, event: pygame.event.Event) -> None:
        """Every finger, not only the pointer's, to a screen that draws them (the
        operator's touch test)."""
        finger = getattr(self.scene, "finger", None)
        if finger is None or event.type not in (
            pygame.FINGERDOWN, pygame.FINGERMOTION, pygame.FINGERUP
        ):  # fmt: skip
            return
        width, height = self.display.get_size()
        pos = self._upright((round(event.x * width), round(event.y * height)))
        finger(event.finger_id, None if event.type == pygame.FINGERUP else pos)

    def frame(self, dt: float | None = None, first: pygame.event.Event | None = None) -> None:
        """Handle ``first`` (an event already taken from the queue) and then the waiting
        events, in the order they came, advance by ``dt`` seconds (or the time since the last
        frame) and draw."""
        fps = (self.scene.fps if self.scenes else None) or self.fps
        elapsed = self._clock.tick(fps) / 1000 if dt is None else dt
        self.time += elapsed
        if self.kiosk is None:
            self._step(min(elapsed, 0.1), first)
            return
        try:
            self._step(min(elapsed, 0.1), first)
            assert self.kiosk_watch is not None
            self.kiosk_watch.watch(elapsed)
            if self._window_guard is not None:
                self._window_guard.check(self.time)
        except Exception:  # a kiosk logs it and starts over; the public sees no traceback
            log.exception("kiosk: an error inside %s; back to the title", type(self.scene).__name__)
            self.recovered += 1
            self._recover()

    def _step(self, dt: float, first: pygame.event.Event | None = None) -> None:
        events = pygame.event.get()
        self._translator.expire()  # a finger whose lift was lost lets go of the pointer
        for event in events if first is None else [first, *events]:
            self.dispatch(event)
            if not self.running:
                return
        self.render(dt)

    def render(self, dt: float) -> None:
        """Advance the screen by ``dt`` seconds, draw it and show what changed (the whole
        window, or only the areas the screen reports)."""
        self.scene.update(dt)
        self._frames += 1
        if self._wipe is not None:
            self._render_wipe(self._wipe, dt)
            return
        self.scene.draw(self.screen)
        areas = self.scene.updated_areas()
        self._present(None if self._exposed else areas)
        self._exposed = False

    def _render_wipe(self, wipe: Wipe, dt: float) -> None:
        """A frame of a wipe (:meth:`Wipe.frame`), and the areas it drew shown."""
        shown = wipe.frame(self.scene, self.screen, dt, self.palette.accent)
        if wipe.over:
            self._wipe = None
        self._present(None if self._exposed else shown)
        self._exposed = False

    def _recover(self) -> None:
        self.reset(make(Screen.TITLE, self))

    def run(self) -> int:
        if os.environ.get("TAVOLO_EXIT_AFTER_FIRST_FRAME"):  # for tools/bench.py startup
            self.frame()
            print("first frame", flush=True)
            return 0
        try:
            self.frame()
            width, height = self.size
            log.info("showing %dx%d on %s", width, height, pygame.display.get_driver())
            self._loop()
        finally:
            self.close()
        if self.stopped_by is not None:
            log.info("stopped by %s", self.stopped_by)
        return 0

    def _loop(self) -> None:
        while self.running and self.stopped_by is None:
            waited = None
            scene = self.scene
            if not (scene.animating or self.transitioning):
                # The event waited for is handled first: posting it back would queue it behind
                # the ones that came meanwhile (a button-up before its button-down: a lost click).
                waited = pygame.event.wait(WAITING_WAIT_MS if scene.waiting else IDLE_WAIT_MS)
                if waited.type == pygame.NOEVENT:
                    waited = None
            self.frame(first=waited)


def _require_a_display() -> None:
    """Raise :class:`NoDisplayError` when SDL found no display and fell back to drawing
    off screen: the game would run where nobody sees it and never end.  A driver asked for by
    name (``SDL_VIDEODRIVER=dummy`` in tests and tools) is respected."""
    if os.environ.get("SDL_VIDEODRIVER"):
        return
    driver = pygame.display.get_driver() if pygame.display.get_init() else None
    if driver is None or driver in OFFSCREEN_DRIVERS:
        pygame.quit()
        raise NoDisplayError(
            "no display found (is DISPLAY or WAYLAND_DISPLAY set?); "
            "to run without a window on purpose, set SDL_VIDEODRIVER=dummy"
        )


def _default_window_size() -> tuple[int, int]:
    try:
        width, height = pygame.display.get_desktop_sizes()[0]
    except (pygame.error, IndexError):
        return 1280, 720
    scale = min(0.85 * width / 1280, 0.85 * height / 720, 1.5)
    return max(MIN_SIZE[0], round(1280 * scale)), max(MIN_SIZE[1], round(720 * scale))
