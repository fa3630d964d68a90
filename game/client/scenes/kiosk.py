"""The kiosk's own screens: attract mode, the countdown of an abandoned match, the PIN and
the operator menu.

*Attract mode* cycles computer-against-computer demos of the allowed games under a "touch
to play" banner; after a long idle it dims the screen and keeps the banner drifting, so no
pixel burns in.  Demos never touch the saves.
"""

from __future__ import annotations

import logging
import math
import random
from typing import TYPE_CHECKING

import pygame

from game import i18n
from game.client import input as ui
from game.client import theme
from game.client.control import LocalControl
from game.client.kiosk_watch import kiosk_of, watch_of
from game.client.navigator import Screen, make
from game.client.pin_guard import PinGuard
from game.client.scene import Scene
from game.client.scenes.highscores import draw_boards, what_counts
from game.client.scenes.keypad import KeypadScene
from game.client.scenes.play import PlayScene
from game.client.scenes.title import TitleScene
from game.i18n import _
from game.names import variant_title
from game.rules import variant
from game.session.match import Match
from game.session.seats import Seat, SeatKind

if TYPE_CHECKING:
    from game.client.app import App

log = logging.getLogger(__name__)

LANGUAGE_SECONDS = 4.0
"""The banner says "Touch to play" in each allowed language for this long in turn."""
BACKDROP_SECONDS = 1.0
"""While nothing in a demo moves or changes its words, it is drawn again this often all the
same, for whatever else might change."""
DEMO_SECONDS = 90.0
"""A demo match gives way to the next game after this long, finished or not."""
SCORES_SECONDS = 10.0
"""Between two demos, a game's high scores show this long (when it has any)."""


class DemoPlayScene(PlayScene):
    """A match between computers, for show: no autosave, no results screen, and no buttons
    (a touch anywhere goes to the title; buttons would look as if they did something)."""

    def __init__(self, app: App, match: Match) -> None:
        super().__init__(app, LocalControl(app, match, autosave=False))  # demos are not kept

    def rebuild(self) -> None:
        super().rebuild()
        self.set_targets([])

    @property
    def finished(self) -> bool:
        return self.state.is_terminal()

    def update(self, dt: float) -> None:
        if self.state.is_terminal():
            self.view.update(dt)
            return
        super().update(dt)


class AttractScene(Scene):
    """Computer demos of the allowed games, in a shuffled order and from fresh positions each
    time, until someone touches; paced at 30 frames a second (a demo needs no more, and a
    kiosk spends most of its life here), and drawing the demo only while it moves."""

    fps = 30
    draws_changes_only = True

    def __init__(self, app: App, seed: int | None = None) -> None:
        super().__init__(app)
        app.set_muted(False)  # a visitor's mute ends with their visit
        self._rng = random.Random(seed)
        self._bag: list[str] = []
        self.shown: list[str] = []
        """The games demonstrated so far, in order."""
        self.elapsed = 0.0
        self.demo = self._demo()
        self.scores: str | None = None
        """The game whose high scores show between two demos, while they do."""
        self._scores_turn = -1
        self._backdrop: pygame.Surface | None = None
        """The demo under its veil, as last drawn."""
        self._backdrop_look: tuple[object, ...] = ()
        self._backdrop_moving = False
        self._backdrop_time = 0.0
        self._banner = pygame.Rect(0, 0, 0, 0)
        self._areas: list[pygame.Rect] | None = None

    def _demo(self) -> DemoPlayScene:
        if not self._bag:  # every allowed game once, then again in a new order
            self._bag = list(kiosk_of(self.app).games)
            self._rng.shuffle(self._bag)
            if len(self._bag) > 1 and self.shown and self._bag[-1] == self.shown[-1]:
                self._bag.reverse()  # never the same game twice in a row
        name = self._bag.pop()
        self.shown.append(name)
        chosen = variant(name)
        seats = [Seat(SeatKind.COMPUTER, "easy") for _ in range(chosen.players)]
        demo = DemoPlayScene(self.app, Match.new(chosen, seats, self._rng.getrandbits(62)))
        demo.layout(self.app.size)
        return demo

    def layout(self, size: tuple[int, int]) -> None:
        self.u = theme.unit(size)
        self.demo.layout(size)
        self.targets = []

    def update(self, dt: float) -> None:
        super().update(dt)
        self.elapsed += dt
        if self.scores is not None:
            if self.elapsed >= SCORES_SECONDS:
                self.scores, self.elapsed = None, 0.0
            return
        self.demo.update(dt)
        if (self.demo.finished and self.elapsed > 4.0) or self.elapsed >= DEMO_SECONDS:
            self.demo.discard()
            self.demo = self._demo()
            self.scores, self.elapsed = self._next_scores(), 0.0

    def _next_scores(self) -> str | None:
        """After each demo, the high scores of the next game that has any (in turn)."""
        boards = [v for v in kiosk_of(self.app).games if self.app.highscores.all_time(v)]
        if not boards:
            return None
        self._scores_turn = (self._scores_turn + 1) % len(boards)
        return boards[self._scores_turn]

    @property
    def idle(self) -> float:
        return self.app.time - self.app.last_input

    @property
    def dimmed(self) -> bool:
        return self.idle >= kiosk_of(self.app).dim_after

    def handle(self, event: ui.UIEvent) -> None:
        if isinstance(event, ui.Press | ui.Activate | ui.Text):
            self.wake()

    def wake(self) -> None:
        self.app.reset(TitleScene(self.app))

    def discard(self) -> None:
        self.demo.discard()

    @property
    def animating(self) -> bool:
        return True

    def draw(self, surface: pygame.Surface) -> None:
        """The demo under its veil is drawn again only when it may have changed; between
        times a frame puts back what the banner covered and draws the banner where it has
        wandered (:meth:`updated_areas` tells the app which parts to show)."""
        if self._backdrop_due(surface.get_size()) or self._backdrop is None:
            surface.blit(self._draw_backdrop(surface.get_size()), (0, 0))
            self._areas = None
        else:
            surface.blit(self._backdrop, self._banner, self._banner)
            self._areas = [self._banner]
        self._banner = self._draw_banner(surface)
        if self._areas is not None:
            self._areas.append(self._banner)

    def updated_areas(self) -> list[pygame.Rect] | None:
        return self._areas

    def draw_whole(self, surface: pygame.Surface) -> None:
        backdrop = self._backdrop
        if backdrop is None or backdrop.get_size() != surface.get_size():
            backdrop = self._draw_backdrop(surface.get_size())
        surface.blit(backdrop, (0, 0))
        self._draw_banner(surface)

    def _backdrop_due(self, size: tuple[int, int]) -> bool:
        demo = self.demo
        panel = (demo.status(), demo.prompt() or demo.banner, tuple(demo.control.notices()))
        look = (id(demo), demo.shown, panel, self.scores, self.dimmed, size)
        moving = (demo.view.animating or demo.view.particles.active) and self.scores is None
        due = (
            self._backdrop is None
            or look != self._backdrop_look
            or moving
            or self._backdrop_moving  # the frame a move comes to rest
            or self.app.time - self._backdrop_time >= BACKDROP_SECONDS
        )
        if due:
            self._backdrop_look, self._backdrop_moving = look, moving
            self._backdrop_time = self.app.time
        return due

    def _draw_backdrop(self, size: tuple[int, int]) -> pygame.Surface:
        """The demo (or a game's high scores) under its veil, drawn again; kept as
        ``_backdrop``."""
        backdrop = self._backdrop
        if backdrop is None or backdrop.get_size() != size:
            backdrop = self._backdrop = pygame.Surface(size).convert()
        if self.scores is None:
            self.demo.draw_whole(backdrop)
            darken(backdrop, 200 if self.dimmed else 90)
            return backdrop
        self._draw_scores(backdrop, self.scores)
        if self.dimmed:
            darken(backdrop, 200)
        return backdrop

    def _draw_scores(self, surface: pygame.Surface, game: str) -> None:
        """A game's boards of the day and of all time, as the title's high scores show."""
        palette, u = self.palette, self.u
        width, height = surface.get_size()
        surface.fill(palette.background)
        title = theme.text(_("High scores: {game}").format(game=variant_title(game)), 3 * u,
                           palette.accent, True)  # fmt: skip
        surface.blit(title, title.get_rect(midtop=(width // 2, 2 * u)))
        counts = theme.text(what_counts(game), round(1.1 * u), palette.text)
        surface.blit(counts, counts.get_rect(midtop=(width // 2, round(6.5 * u))))
        draw_boards(surface, self, game, pygame.Rect(4 * u, 10 * u, width - 8 * u, height - 12 * u))

    def _draw_banner(self, surface: pygame.Surface) -> pygame.Rect:
        """The invitation on its backing; returns the area it covers."""
        width, height = surface.get_size()
        u = self.u
        # The banner wanders slowly, so that nothing stays lit in one place for hours.
        t = self.idle
        x = width // 2 + round(width * 0.2 * math.sin(t / 23))
        y = height // 2 + round(height * 0.25 * math.sin(t / 31))
        room = width - 4 * u  # the words and their backing fit a narrow (portrait) screen
        title = theme.fitted(self.invitation(), 4 * u, self.palette.accent, room, True)
        shown = self.scores or self.demo.match.variant.name
        game = theme.fitted(variant_title(shown), 2 * u, self.palette.text, room)
        backing = title.get_rect(center=(x, y)).union(game.get_rect(center=(x, y + 4 * u)))
        backing = backing.inflate(3 * u, 2 * u)
        inside = backing.clamp(surface.get_rect())  # it wanders, but never off the screen
        x, y = x + inside.x - backing.x, y + inside.y - backing.y
        backing = inside
        pygame.draw.rect(surface, self.palette.panel, backing, border_radius=u)
        pygame.draw.rect(surface, self.palette.accent, backing, width=max(2, u // 6),
                         border_radius=u)  # fmt: skip
        surface.blit(title, title.get_rect(center=(x, y)))
        surface.blit(game, game.get_rect(center=(x, y + 4 * u)))
        return backing.clip(surface.get_rect())

    def invitation(self) -> str:
        """ "Touch to play" in each language the kiosk allows, in turn."""
        languages = kiosk_of(self.app).languages
        language = languages[int(self.idle // LANGUAGE_SECONDS) % len(languages)]
        return i18n.in_language("Touch to play", language)


class AbandonScene(Scene):
    """Over a match nobody touches: a visible countdown; a touch goes back to the match."""

    def __init__(self, app: App, play: PlayScene) -> None:
        super().__init__(app)
        self.play = play
        self.deadline = app.time + kiosk_of(app).countdown

    @property
    def left(self) -> float:
        return self.deadline - self.app.time

    def layout(self, size: tuple[int, int]) -> None:
        self.u = theme.unit(size)
        self.play.layout(size)

    def handle(self, event: ui.UIEvent) -> None:
        if isinstance(event, ui.Press | ui.Activate | ui.Text | ui.Navigate | ui.Cycle):
            self.app.pop()

    def back(self) -> None:
        self.app.pop()

    def update(self, dt: float) -> None:
        super().update(dt)
        if self.left <= 0:
            self.app.saves.discard(self.play.match)  # nobody comes back for it
            self.app.reset(AttractScene(self.app))

    @property
    def animating(self) -> bool:
        return True

    def draw(self, surface: pygame.Surface) -> None:
        self.play.draw_whole(surface)
        width, height = surface.get_size()
        darken(surface, 150)
        u = self.u
        lines = [
            (_("Still playing?"), 3 * u, self.palette.accent),
            (
                _("This match ends in {seconds} s").format(seconds=_whole_seconds(self.left)),
                2 * u,
                self.palette.text,
            ),
            (_("Touch the screen to go on"), round(1.4 * u), self.palette.text),
        ]
        y = height // 2 - 4 * u
        for text, size, colour in lines:
            rendered = theme.text(text, size, colour, True)
            surface.blit(rendered, rendered.get_rect(midtop=(width // 2, y)))
            y += size + u


class ClosedScene(Scene):
    """Outside the opening hours: a dark screen, the display put to sleep, and the hours in
    faint words that wander (a touch lights them for a while); the demos come back at
    opening time.  Two frames a second: nothing here moves fast."""

    fps = 2
    LIT_SECONDS = 10.0

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.lit_until = 0.0
        log.info("kiosk: closed (opening hours %s)", kiosk_of(app).opening_hours)
        watch_of(app).sleep_display()

    def layout(self, size: tuple[int, int]) -> None:
        self.u = theme.unit(size)
        self.targets = []

    def handle(self, event: ui.UIEvent) -> None:
        if isinstance(event, ui.Press | ui.Activate | ui.Text):
            self.lit_until = self.app.time + self.LIT_SECONDS

    def update(self, dt: float) -> None:
        super().update(dt)
        if watch_of(self.app).is_open():
            log.info("kiosk: open again")
            watch_of(self.app).sleep_display(False)
            self.app.reset(AttractScene(self.app))

    @property
    def animating(self) -> bool:
        return True

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill((0, 0, 0))
        width, height = surface.get_size()
        lit = self.app.time < self.lit_until
        colour = self.palette.text if lit else (48, 48, 48)
        opens = kiosk_of(self.app).opening_hours.partition("-")[0]
        lines = [  # in every language the kiosk offers: nobody can choose one now
            theme.fitted(i18n.in_language("Closed: we open at {time}", code).format(time=opens),
                         2 * self.u, colour, width - 4 * self.u)
            for code in kiosk_of(self.app).languages
        ]  # fmt: skip
        block = pygame.Rect(0, 0, max(line.get_width() for line in lines),
                            len(lines) * 3 * self.u)  # fmt: skip
        t = self.app.time
        block.center = (width // 2 + round(width * 0.3 * math.sin(t / 37)),
                        height // 2 + round(height * 0.3 * math.sin(t / 53)))  # fmt: skip
        block.clamp_ip(surface.get_rect())
        for n, line in enumerate(lines):
            surface.blit(line, line.get_rect(midtop=(block.centerx, block.top + n * 3 * self.u)))


def pin_keypad(app: App, wrong: bool = False) -> KeypadScene:
    """The keypad for the operator's PIN, its digits hidden; the right one opens the
    operator menu, a wrong one says so and asks again.  Wrong ones lock the keypad for
    longer and longer (:class:`PinGuard`); logins, wrong PINs and locks are logged (never
    the digits)."""
    guard: PinGuard = app.pin_guard
    kiosk = kiosk_of(app)

    def notice() -> str:
        wait = guard.wait(app.time)
        if wait > 0:
            return _("Too many wrong PINs: try again in {seconds} s").format(
                seconds=_whole_seconds(wait)
            )
        if kiosk.locked:
            return _("The operator menu is locked: kiosk.toml needs a valid PIN.")
        return ""

    def check(typed: str) -> None:
        if guard.wait(app.time) > 0 or kiosk.locked:
            return
        if kiosk.pin_matches(typed):
            guard.succeeded(app.time)
            log.info("kiosk: operator menu opened")
            app.push(make(Screen.OPERATOR, app))
            return
        app.sound.play("nope")
        lock = guard.failed(app.time)
        log.warning("kiosk: a wrong operator PIN (%d in a row)", guard.failures)
        if lock:
            log.warning("kiosk: the PIN keypad is locked for %d s", lock)
        app.push(pin_keypad(app, wrong=True))  # the keypad stays, saying so (and any wait)

    prompt = _("Wrong PIN: try again") if wrong else _("Operator PIN")
    return KeypadScene(app, prompt, "0123456789", check, secret=True, notice=notice)


def _whole_seconds(seconds: float) -> int:
    """Seconds left as a countdown shows them: 60 for 60.00000000001 (the app's clock sums
    frame times, whose float error would show a 60 s lock as "61 s")."""
    return max(0, math.ceil(round(seconds, 3)))


def darken(surface: pygame.Surface, alpha: int) -> None:
    """Lay a black veil of opacity ``alpha`` (0–255) over ``surface``, in place: a multiply
    by what shows through, with no full-screen layer to allocate or keep (at 4K, 33 MB
    each)."""
    keep = 255 - alpha
    surface.fill((keep, keep, keep), special_flags=pygame.BLEND_MULT)
