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
import time

import pygame

from game import i18n
from game.client import theme
from game.client.control import LocalControl
from game.client.kiosk_config import PIN_LENGTHS, SettingsNotSaved
from game.client.pin_guard import PinGuard
from game.client.scene import Scene
from game.client.scenes.entry import TextEntryScene
from game.client.scenes.highscores import draw_boards, what_counts
from game.client.scenes.keypad import KeypadScene
from game.client.scenes.menus import Item, MenuScene, TitleScene, item
from game.client.scenes.play import PlayScene
from game.i18n import _
from game.names import variant_title
from game.rules import variant
from game.session.match import Match
from game.session.saves import LEFTOVER_DAYS, UNFINISHED, plain
from game.session.seats import Seat, SeatKind

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
VOLUMES = (0.0, 0.25, 0.5, 0.75, 1.0)
ATTRACT_CHOICES = (10.0, 30.0, 60.0, 90.0, 180.0, 300.0)
ABANDON_CHOICES = (30.0, 60.0, 120.0, 180.0, 300.0, 600.0)
COUNTDOWN_CHOICES = (5.0, 10.0, 15.0, 30.0, 60.0)
DIM_CHOICES = (60.0, 300.0, 900.0, 1800.0, 3600.0)
KEEP_CHOICES = (100, 500, 1000, 5000)
KEEP_DAYS_CHOICES = (7.0, 30.0, 90.0, 365.0)


class DemoPlayScene(PlayScene):
    """A match between computers, for show: no autosave, no results screen, and no buttons
    (a touch anywhere goes to the title; buttons would look as if they did something)."""

    def __init__(self, app, match: Match) -> None:
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

    def __init__(self, app, seed: int | None = None) -> None:
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
        self._backdrop_look: tuple = ()
        self._backdrop_moving = False
        self._backdrop_time = 0.0
        self._banner = pygame.Rect(0, 0, 0, 0)
        self._areas: list[pygame.Rect] | None = None

    def _demo(self) -> DemoPlayScene:
        if not self._bag:  # every allowed game once, then again in a new order
            self._bag = list(self.app.kiosk.games)
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
        boards = [v for v in self.app.kiosk.games if self.app.highscores.all_time(v)]
        if not boards:
            return None
        self._scores_turn = (self._scores_turn + 1) % len(boards)
        return boards[self._scores_turn]

    @property
    def idle(self) -> float:
        return self.app.time - self.app.last_input

    @property
    def dimmed(self) -> bool:
        return self.idle >= self.app.kiosk.dim_after

    def handle(self, event) -> None:
        from game.client import input as ui

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
        if self._backdrop_due(surface.get_size()):
            self._draw_backdrop(surface.get_size())
            surface.blit(self._backdrop, (0, 0))
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
        if self._backdrop is None or self._backdrop.get_size() != surface.get_size():
            self._draw_backdrop(surface.get_size())
        surface.blit(self._backdrop, (0, 0))
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

    def _draw_backdrop(self, size: tuple[int, int]) -> None:
        if self._backdrop is None or self._backdrop.get_size() != size:
            self._backdrop = pygame.Surface(size).convert()
        if self.scores is None:
            self.demo.draw_whole(self._backdrop)
            darken(self._backdrop, 200 if self.dimmed else 90)
            return
        self._draw_scores(self._backdrop, self.scores)
        if self.dimmed:
            darken(self._backdrop, 200)

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
        languages = self.app.kiosk.languages
        language = languages[int(self.idle // LANGUAGE_SECONDS) % len(languages)]
        return i18n.in_language("Touch to play", language)


class AbandonScene(Scene):
    """Over a match nobody touches: a visible countdown; a touch goes back to the match."""

    def __init__(self, app, play: PlayScene) -> None:
        super().__init__(app)
        self.play = play
        self.deadline = app.time + app.kiosk.countdown

    @property
    def left(self) -> float:
        return self.deadline - self.app.time

    def layout(self, size: tuple[int, int]) -> None:
        self.u = theme.unit(size)
        self.play.layout(size)

    def handle(self, event) -> None:
        from game.client import input as ui

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


def ask_pin(app) -> None:
    """The keypad for the operator's PIN, its digits hidden; the right one opens the
    operator menu.  Wrong ones lock the keypad for longer and longer (:class:`PinGuard`);
    logins, wrong PINs and locks are logged (never the digits)."""
    guard: PinGuard = app.pin_guard
    kiosk = app.kiosk

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
            app.push(OperatorScene(app))
            return
        app.sound.play("nope")
        lock = guard.failed(app.time)
        log.warning("kiosk: a wrong operator PIN (%d in a row)", guard.failures)
        if lock:
            log.warning("kiosk: the PIN keypad is locked for %d s", lock)
            ask_pin(app)  # the keypad stays, showing the wait

    app.push(KeypadScene(app, _("Operator PIN"), "0123456789", check, secret=True, notice=notice))


class OperatorScene(MenuScene):
    """For staff only: everything the kiosk allows, and the way out."""

    columns = 2

    def title(self) -> str:
        return _("Operator")

    def __init__(self, app) -> None:
        self.feedback = ""
        """What the last change did, shown until the next one."""
        self._resetting = False
        """The high scores' reset was pressed once: a second press does it."""
        super().__init__(app)

    def subtitle(self) -> str:
        return self.feedback or _("Changes are saved in kiosk.toml")

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        warning = self.app.kiosk.warning()
        if warning:  # above the buttons, in the warning colour, wrapped to the screen
            u = self.u
            font = theme.font(u, True)
            y = round(10.4 * u)
            for line in theme.wrap("\u26a0 " + warning, font, surface.get_width() - 6 * u)[:2]:
                shown = theme.text(line, u, self.palette.warning, True)
                surface.blit(shown, shown.get_rect(midtop=(surface.get_width() // 2, y)))
                y += round(1.2 * u)

    def items(self) -> list[Item]:
        kiosk = self.app.kiosk
        return [
            item(lambda: _("Games allowed: {n}").format(n=len(kiosk.games)),
                 lambda: self.app.push(GamesScene(self.app)), "games"),
            item(lambda: _("Languages: {codes}").format(codes=", ".join(kiosk.languages)),
                 self._next_languages, "languages"),
            item(lambda: _("Volume: {percent}%").format(percent=round(kiosk.volume * 100)),
                 self._next_volume, "volume"),
            item(lambda: _("Demos after {seconds} s idle").format(
                     seconds=round(kiosk.attract_after)),
                 lambda: self._cycle("attract_after", ATTRACT_CHOICES), "attract"),
            item(lambda: _("Matches end after {seconds} s idle").format(
                     seconds=round(kiosk.abandon_after)),
                 lambda: self._cycle("abandon_after", ABANDON_CHOICES), "abandon"),
            item(lambda: _("Countdown: {seconds} s").format(seconds=round(kiosk.countdown)),
                 lambda: self._cycle("countdown", COUNTDOWN_CHOICES), "countdown"),
            item(lambda: _("Dim demos after {minutes} min").format(
                     minutes=round(kiosk.dim_after / 60)),
                 lambda: self._cycle("dim_after", DIM_CHOICES), "dim"),
            item(lambda: _("Finished matches kept: {count}").format(count=kiosk.keep_finished),
                 lambda: self._cycle("keep_finished", KEEP_CHOICES), "keep"),
            item(lambda: _("…and for {days} days").format(days=round(kiosk.keep_finished_days)),
                 lambda: self._cycle("keep_finished_days", KEEP_DAYS_CHOICES), "keep days"),
            item(lambda: _("LAN hosting: on") if kiosk.lan_hosting else _("LAN hosting: off"),
                 self._toggle_lan, "lan"),
            item(lambda: _("LAN name: {name}").format(name=kiosk.lan_name), self._lan_name,
                 "lan name"),
            item(lambda: _("Saves put aside: {n}").format(n=len(self.app.saves.store.set_aside())),
                 lambda: self.app.push(SetAsideScene(self.app)), "set aside"),
            item(self._reset_label, self._reset_scores, "reset scores"),
            item(lambda: _("Change the PIN"), self._change_pin, "pin"),
            item(lambda: _("Quit Tavolo"), self._quit, "quit"),
            item(lambda: _("Back to the games"), self._done, "back"),
        ]  # fmt: skip

    def _saved(self, done: str = "") -> None:
        """Save the change; say so on screen (or why it was not saved)."""
        problem = _save_settings(self.app)
        self.feedback = problem or done or _("Saved.")
        self.layout(self.app.size)

    def _reset_label(self) -> str:
        if self._resetting:
            return _("Press again to empty the high scores")
        return _("Reset the high scores")

    def _reset_scores(self) -> None:
        if not self._resetting:
            self._resetting = True
            self.feedback = _("The high scores are emptied at the second press.")
            return
        self._resetting = False
        try:
            self.app.highscores.reset()
        except OSError as error:
            self.feedback = _("Not saved: {why}").format(why=plain(error))
            return
        log.info("kiosk: the operator reset the high scores")
        self.feedback = _("The high scores are empty.")

    def _quit(self) -> None:
        log.info("kiosk: the operator quit Tavolo")
        self.app.quit()

    def _next_languages(self) -> None:
        codes = list(i18n.LANGUAGES)
        options = [codes, *([c] for c in codes)]
        kiosk = self.app.kiosk
        index = options.index(kiosk.languages) if kiosk.languages in options else -1
        kiosk.languages = list(options[(index + 1) % len(options)])
        if self.app.settings.language not in kiosk.languages:
            self.app.settings.language = i18n.set_language(kiosk.languages[0])
        self._saved()

    def _next_volume(self) -> None:
        self.app.set_volume(_next(VOLUMES, self.app.kiosk.volume))  # the kiosk's, 0–100 %
        self._saved()

    def _cycle(self, key: str, choices: tuple) -> None:
        setattr(self.app.kiosk, key, _next(choices, getattr(self.app.kiosk, key)))
        self._saved()

    def _lan_name(self) -> None:
        def done(name: str) -> None:
            self.app.kiosk.lan_name = name
            self._saved()

        self.app.push(TextEntryScene(self.app, _("The name others see on the LAN"), done,
                                     text=self.app.kiosk.lan_name))  # fmt: skip

    def _toggle_lan(self) -> None:
        self.app.kiosk.lan_hosting = not self.app.kiosk.lan_hosting
        self._saved()

    def _change_pin(self) -> None:
        def first(pin: str) -> None:
            if len(pin) not in PIN_LENGTHS:
                self.app.sound.play("nope")
                self.feedback = _("A PIN has 4 to 12 digits: the PIN is unchanged.")
                return
            self.app.push(
                KeypadScene(self.app, _("The new PIN again"), "0123456789",
                            lambda again: self._set_pin(pin, again), secret=True)
            )  # fmt: skip

        self.app.push(
            KeypadScene(self.app, _("New PIN (4 to 12 digits)"), "0123456789", first, secret=True)
        )

    def _set_pin(self, pin: str, again: str) -> None:
        if pin != again:
            self.app.sound.play("nope")
            self.feedback = _("The two PINs differ: the PIN is unchanged.")
            return
        try:
            self.app.kiosk.set_pin(pin, self.app.paths.config)
        except SettingsNotSaved as error:
            self.app.sound.play("nope")
            self.feedback = _("The new PIN works; kiosk.toml was not saved.")
            log.error("kiosk settings not saved: %s", error)
            return
        log.info("kiosk: the operator PIN was changed")
        self.feedback = _("The PIN is changed.")

    def _done(self) -> None:
        self.app.reset(TitleScene(self.app))

    def back(self) -> None:
        self._done()


class SetAsideScene(MenuScene):
    """The saves put aside because they could not be opened, newest first, for staff to
    look at (the public title only says that one was): file, date and size, where they
    are, and that they go by themselves after a week."""

    SHOWN = 6

    def title(self) -> str:
        return _("Saves put aside")

    def subtitle(self) -> str:
        folder = self.app.saves.store.directory / UNFINISHED
        return _("In {folder}; deleted after {days} days").format(
            folder=folder, days=round(LEFTOVER_DAYS)
        )

    def items(self) -> list[Item]:
        found = self.app.saves.store.set_aside()
        rows = [
            item(lambda a=aside: _("{name} · {when} · {size} bytes").format(
                     name=a.path.name, when=time.strftime("%Y-%m-%d %H:%M",
                                                          time.localtime(a.saved_at)),
                     size=a.size),
                 lambda: None, f"aside {number}", lambda: False)
            for number, aside in enumerate(found[: self.SHOWN])
        ]  # fmt: skip
        if len(found) > self.SHOWN:
            more = len(found) - self.SHOWN
            rows.append(item(lambda: _("…and {n} more").format(n=more), lambda: None, "more",
                             lambda: False))  # fmt: skip
        if not found:
            rows.append(item(lambda: _("None: every save opened."), lambda: None, "none",
                             lambda: False))  # fmt: skip
        return [*rows, item(lambda: _("Back"), self.app.pop, "back")]


class GamesScene(MenuScene):
    """Which games the public may choose (at least one stays allowed)."""

    columns = 2

    def __init__(self, app) -> None:
        self.feedback = ""
        super().__init__(app)

    def title(self) -> str:
        return _("Games allowed")

    def items(self) -> list[Item]:
        from game.rules import VARIANTS

        kiosk = self.app.kiosk
        entries = [
            item(lambda n=name: ("✓ " if n in kiosk.games else "✗ ") + variant_title(n),
                 lambda n=name: self._toggle(n), name)
            for name in VARIANTS
        ]  # fmt: skip
        return [*entries, item(lambda: _("Back"), self.app.pop, "back")]

    def _toggle(self, name: str) -> None:
        from game.rules import VARIANTS

        kiosk = self.app.kiosk
        if name in kiosk.games:
            if len(kiosk.games) > 1:
                kiosk.games.remove(name)
        else:
            kiosk.games = [g for g in VARIANTS if g in kiosk.games or g == name]
        self.feedback = _save_settings(self.app) or _("Saved.")
        self.layout(self.app.size)

    def subtitle(self) -> str:
        return self.feedback


def _save_settings(app) -> str:
    """Write the operator's change to kiosk.toml; if it cannot be, why (logged and felt, not
    fatal: the change holds until the kiosk restarts)."""
    try:
        app.kiosk.save(app.paths.config)
    except SettingsNotSaved as error:
        app.sound.play("nope")
        log.error("kiosk settings not saved: %s", error)
        if app.kiosk.unreadable:  # the warning on the screen says why
            return _("Not saved: kiosk.toml must be fixed first.")
        return _("Not saved: {why}").format(why=error)
    return ""


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


def _next(choices: tuple[float, ...], value: float) -> float:
    later = [c for c in choices if c > value]
    return later[0] if later else choices[0]
