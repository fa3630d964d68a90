"""The kiosk operator's service menu, as an arcade cabinet has one: every setting of
``kiosk.toml`` over its whole range, the usage counters, a service page (touch, rotation,
sound, languages), the log and health, the high scores, a factory reset and the way out.

Every change is saved at once, logged (``kiosk: the operator set …``) and said on screen;
what cannot be undone asks first.
"""

from __future__ import annotations

import logging
import shutil
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

import pygame

from game import i18n
from game.client import input as ui
from game.client import theme
from game.client.kiosk_config import (
    CHECKS,
    RANGES,
    ROTATIONS,
    SETTINGS,
    KioskConfig,
    SettingsNotSaved,
    pin_weakness,
)
from game.client.kiosk_watch import kiosk_of
from game.client.navigator import Screen, make
from game.client.scene import Scene
from game.client.scenes.entry import TextEntryScene
from game.client.scenes.keypad import KeypadScene
from game.client.scenes.menu import Item, MenuScene, item
from game.client.scenes.saved import ConfirmScene
from game.client.scenes.table import layout_label, next_layout
from game.client.sound import EFFECTS
from game.client.widgets import button
from game.i18n import _, ngettext
from game.names import variant_title
from game.rules import VARIANTS
from game.session.saves import FINISHED, LEFTOVER_DAYS, UNFINISHED, SetAside, plain

if TYPE_CHECKING:
    from game.client.app import App

log = logging.getLogger(__name__)

VOLUME_STEPS = (0.0, 0.25, 0.5, 0.75, 1.0)


class OperatorScene(MenuScene):
    """For staff only: the service menu's pages, and the way out."""

    columns = 2
    operator = True
    """The app closes staff's screens when left idle, and never puts a visitor's countdown
    over them (everything else of the service menu is pushed above this one)."""

    def __init__(self, app: App) -> None:
        self.feedback = ""
        """What the last action did, shown until the next one."""
        super().__init__(app)

    def title(self) -> str:
        return _("Operator")

    def subtitle(self) -> str:
        return self.feedback or _("Service menu: every change is saved and logged")

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        draw_warning(self, surface, kiosk_of(self.app).warning())

    def items(self) -> list[Item]:
        app = self.app
        return [
            item(lambda: _("Settings"), lambda: app.push(SettingsScene(app)), "settings"),
            item(lambda: _("Usage"), lambda: app.push(UsageScene(app)), "usage"),
            item(lambda: _("Service: touch, screen, sound"), lambda: app.push(ServiceScene(app)),
                 "service"),
            item(lambda: _("Log and health"), lambda: app.push(HealthScene(app)), "health"),
            item(lambda: _("High scores"), self._scores, "scores"),
            item(lambda: _("Saves put aside: {n}").format(n=len(app.saves.store.set_aside())),
                 lambda: app.push(SetAsideScene(app)), "set aside"),
            item(lambda: _("Change the PIN"), self._change_pin, "pin"),
            item(lambda: _("Factory reset"), self._factory_reset, "factory reset"),
            item(lambda: _("Quit Tavolo"), self._quit, "quit"),
            item(lambda: _("Back to the games"), self._done, "back"),
        ]  # fmt: skip

    def _scores(self) -> None:
        self.app.push(make(Screen.OPERATOR_SCORES, self.app))

    # -- the PIN ----------------------------------------------------------------------------

    def _change_pin(self) -> None:
        def first(pin: str) -> None:
            why = pin_weakness(pin)
            if why is not None:
                self.app.sound.play("nope")
                self._say(_("Not changed: {why}.").format(why=why))
                return
            again = KeypadScene(self.app, _("The new PIN again"), "0123456789",
                                lambda twice: self._set_pin(pin, twice), secret=True)  # fmt: skip
            self.app.push(again)

        self.app.push(KeypadScene(self.app, _("New PIN (4 to 12 digits)"), "0123456789", first,
                                  secret=True))  # fmt: skip

    def _set_pin(self, pin: str, again: str) -> None:
        if pin != again:
            self.app.sound.play("nope")
            self._say(_("The two PINs differ: the PIN is unchanged."))
            return
        try:
            kiosk_of(self.app).set_pin(pin, self.app.paths.config)
        except SettingsNotSaved as error:
            self.app.sound.play("nope")
            log.error("kiosk settings not saved: %s", error)
            self._say(_("The new PIN works; kiosk.toml was not saved."))
            return
        log.info("kiosk: the operator PIN was changed")
        self._say(_("The PIN is changed."))

    def _say(self, text: str) -> None:
        self.feedback = text
        self.layout(self.app.size)

    # -- what cannot be undone ------------------------------------------------------------

    def _quit(self) -> None:
        def quit_now() -> None:
            log.info("kiosk: the operator quit Tavolo")
            self.app.quit()

        self.app.push(ConfirmScene(
            self.app, lambda: _("Quit Tavolo?"),
            lambda: _("The table stays dark until the next login, or until it is started again."),
            quit_now, undoable=True,
        ))  # fmt: skip

    def _factory_reset(self) -> None:
        what = _("Every setting back to its default (the PIN stays), the high scores, the "
                 "usage counters and the finished matches emptied.")  # fmt: skip
        self.app.push(ConfirmScene(
            self.app, lambda: _("Factory reset?"), lambda: what,
            lambda: self.app.push(ConfirmScene(
                self.app, lambda: _("Really reset everything?"), lambda: what, self._reset_all,
                yes_first=True)),
        ))  # fmt: skip

    def _reset_all(self) -> None:
        app, problems = self.app, []
        defaults = KioskConfig()
        for name in SETTINGS:
            setattr(kiosk_of(app), name, getattr(defaults, name))
        app.set_volume(kiosk_of(app).volume)
        problems.append(_save_settings(app))
        try:
            app.highscores.reset()
        except OSError as error:
            problems.append(_("Not saved: {why}").format(why=plain(error)))
        if app.usage is not None:
            app.usage.reset()
        for path in (app.saves.store.directory / FINISHED).glob("*.tavolo"):
            try:
                path.unlink()
            except OSError as error:
                problems.append(_("Not saved: {why}").format(why=plain(error)))
                break
        app.apply_rotation()
        log.info("kiosk: the operator made a factory reset")
        self._say(next((p for p in problems if p), _("Everything is back as it came.")))

    def _done(self) -> None:
        self.app.reset(make(Screen.TITLE, self.app))

    def back(self) -> None:
        self._done()


class SettingsScene(MenuScene):
    """Every key of ``kiosk.toml``; numbers typed on a keypad over the file's whole range."""

    columns = 2

    def __init__(self, app: App) -> None:
        self.feedback = ""
        super().__init__(app)

    def title(self) -> str:
        return _("Settings")

    def subtitle(self) -> str:
        return self.feedback or _("Saved in kiosk.toml at once")

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        kiosk = kiosk_of(self.app)
        draw_warning(self, surface, next((p.text() for p in kiosk.problems if p.key != "pin"), ""))

    def items(self) -> list[Item]:
        kiosk, app = kiosk_of(self.app), self.app

        def number(key: str, label: Callable[[], str], prompt: Callable[[], str]) -> Item:
            return item(label, lambda: self._ask_number(key, prompt()), key)

        return [
            item(lambda: _("Games allowed: {n}").format(n=len(kiosk.games)),
                 lambda: app.push(GamesScene(app)), "games"),
            item(lambda: _("Languages: {codes}").format(codes=", ".join(kiosk.languages)),
                 self._next_languages, "languages"),
            item(lambda: _("Volume: {percent}%").format(percent=round(kiosk.volume * 100)),
                 self._ask_volume, "volume"),
            number("attract_after",
                   lambda: _("Demos after {seconds} s idle").format(
                       seconds=_number(kiosk.attract_after)),
                   lambda: _("Seconds idle on the menus before the demos")),
            number("abandon_after",
                   lambda: _("Matches end after {seconds} s idle").format(
                       seconds=_number(kiosk.abandon_after)),
                   lambda: _("Seconds idle in a match before its countdown")),
            number("countdown",
                   lambda: _("Countdown: {seconds} s").format(seconds=_number(kiosk.countdown)),
                   lambda: _("Seconds the countdown runs")),
            number("dim_after",
                   lambda: _("Dim demos after {seconds} s").format(
                       seconds=_number(kiosk.dim_after)),
                   lambda: _("Seconds idle before the demos dim")),
            number("keep_finished",
                   lambda: _("Finished matches kept: {count}").format(count=kiosk.keep_finished),
                   lambda: _("Finished matches kept")),
            number("keep_finished_days",
                   lambda: _("…and for {days} days").format(
                       days=_number(kiosk.keep_finished_days)),
                   lambda: _("Days finished matches are kept")),
            item(lambda: _("LAN hosting: on") if kiosk.lan_hosting else _("LAN hosting: off"),
                 lambda: self._set("lan_hosting", not kiosk.lan_hosting), "lan_hosting"),
            item(lambda: _("LAN name: {name}").format(name=kiosk.lan_name), self._lan_name,
                 "lan_name"),
            item(lambda: _("Open: {hours}").format(hours=kiosk.opening_hours or _("always")),
                 self._ask_hours, "opening_hours"),
            item(lambda: _("Screen turned {degrees}°").format(degrees=kiosk.rotation),
                 self._next_rotation, "rotation"),
            item(lambda: _("High-score names: initials only") if kiosk.initials_only
                 else _("High-score names: as typed"),
                 lambda: self._set("initials_only", not kiosk.initials_only), "initials_only"),
            item(lambda: layout_label(kiosk.table_layout),
                 lambda: self._set("table_layout", next_layout(kiosk.table_layout)),
                 "table_layout"),
            item(lambda: _("Back"), app.pop, "back"),
        ]  # fmt: skip

    def _set(self, key: str, value: object) -> None:
        """Set, save, log and say."""
        kiosk = kiosk_of(self.app)
        before = getattr(kiosk, key)
        setattr(kiosk, key, value)
        problem = _save_settings(self.app, key)
        log.info("kiosk: the operator set %s from %r to %r%s", key, before, value,
                 " (not saved)" if problem else "")  # fmt: skip
        self.feedback = problem or _("Saved.")
        self.layout(self.app.size)

    def _ask_number(self, key: str, what: str) -> None:
        low, high = RANGES[key]
        prompt = _("{what} ({low} to {high})").format(
            what=what, low=_number(low), high=_number(high)
        )

        def typed(digits: str) -> None:
            value = int(digits)
            if not low <= value <= high:
                self.app.sound.play("nope")
                self.feedback = _("Not changed: {low} to {high} only.").format(
                    low=_number(low), high=_number(high)
                )
                self.layout(self.app.size)
                return
            self._set(key, value)  # whole numbers, as the operator typed them

        current = _number(getattr(kiosk_of(self.app), key))
        self.app.push(KeypadScene(self.app, prompt, "0123456789", typed, text=current))

    def _ask_volume(self) -> None:
        def typed(digits: str) -> None:
            percent = int(digits)
            if percent > 100:
                self.app.sound.play("nope")
                self.feedback = _("Not changed: {low} to {high} only.").format(low=0, high=100)
                self.layout(self.app.size)
                return
            before = kiosk_of(self.app).volume
            self.app.set_volume(percent / 100)  # heard at once
            kiosk_of(self.app).volume = before
            self._set("volume", percent / 100)
            self.app.sound.play("tap")

        percent = str(round(kiosk_of(self.app).volume * 100))
        self.app.push(KeypadScene(self.app, _("Volume in percent (0 to 100)"), "0123456789",
                                  typed, text=percent))  # fmt: skip

    def _ask_hours(self) -> None:
        def typed(text: str) -> None:
            digits = text.replace(":", "")
            if not digits:
                self._set("opening_hours", "")
                return
            hours = f"{digits[:2]}:{digits[2:4]}-{digits[4:6]}:{digits[6:8]}"
            if len(digits) != 8:
                problem = _("Not changed: opening and closing time, 8 digits.")
            elif not CHECKS["opening_hours"](hours):
                problem = _("Not changed: {hours} is not a time of day.").format(hours=hours)
            else:
                self._set("opening_hours", hours)
                return
            self.app.sound.play("nope")
            self.feedback = problem
            self.layout(self.app.size)

        prompt = _("Opening and closing time, 8 digits: 09002300 is 09:00 to 23:00; none: always")
        now = kiosk_of(self.app).opening_hours.replace(":", "").replace("-", "")
        self.app.push(KeypadScene(self.app, prompt, "0123456789", typed, allow_empty=True,
                                  text=now))  # fmt: skip

    def _next_languages(self) -> None:
        codes = list(i18n.LANGUAGES)
        options = [codes, *([c] for c in codes)]
        kiosk = kiosk_of(self.app)
        index = options.index(kiosk.languages) if kiosk.languages in options else -1
        chosen = list(options[(index + 1) % len(options)])
        if self.app.settings.language not in chosen:
            self.app.settings.language = i18n.set_language(chosen[0])
        self._set("languages", chosen)

    def _next_rotation(self) -> None:
        turned = ROTATIONS[(ROTATIONS.index(kiosk_of(self.app).rotation) + 1) % len(ROTATIONS)]
        self._set("rotation", turned)
        self.app.apply_rotation()

    def _lan_name(self) -> None:
        self.app.push(TextEntryScene(self.app, _("The name others see on the LAN"),
                                     lambda name: self._set("lan_name", name),
                                     text=kiosk_of(self.app).lan_name))  # fmt: skip


class GamesScene(MenuScene):
    """Which games the public may choose (at least one stays allowed)."""

    columns = 2

    def __init__(self, app: App) -> None:
        self.feedback = ""
        super().__init__(app)

    def title(self) -> str:
        return _("Games allowed")

    def subtitle(self) -> str:
        return self.feedback

    def items(self) -> list[Item]:
        kiosk = kiosk_of(self.app)

        def entry(name: str) -> Item:
            return item(lambda: ("✓ " if name in kiosk.games else "✗ ") + variant_title(name),
                        lambda: self._toggle(name), name)  # fmt: skip

        entries = [entry(name) for name in VARIANTS]
        return [*entries, item(lambda: _("Back"), self.app.pop, "back")]

    def _toggle(self, name: str) -> None:
        kiosk = kiosk_of(self.app)
        if name in kiosk.games:
            if len(kiosk.games) == 1:
                self.feedback = _("At least one game stays allowed.")
                self.layout(self.app.size)
                return
            kiosk.games = [g for g in kiosk.games if g != name]
        else:
            kiosk.games = [g for g in VARIANTS if g in kiosk.games or g == name]
        log.info("kiosk: the operator set games to %r", kiosk.games)
        self.feedback = _save_settings(self.app, "games") or _("Saved.")
        self.layout(self.app.size)


class InfoScene(MenuScene):
    """A page of lines to read and a Back button (the usage and health pages)."""

    def lines(self) -> list[tuple[str, bool]]:
        """The lines, each with whether it is a warning."""
        return []

    def items(self) -> list[Item]:
        return [item(lambda: _("Back"), self.app.pop, "back")]

    def layout(self, size: tuple[int, int]) -> None:
        self.u = u = theme.unit(size)
        back = pygame.Rect(0, 0, min(size[0] - 4 * u, 22 * u), theme.row(u))
        back.midbottom = (size[0] // 2, size[1] - u)
        self.set_targets([button(back, lambda: _("Back"), self.app.pop, self.palette,
                                 name="back")])  # fmt: skip

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(self.palette.background)
        u, width = self.u, surface.get_width()
        title = theme.fitted(self.title(), 3 * u, self.palette.accent, width - 2 * u, True)
        surface.blit(title, title.get_rect(midtop=(width // 2, u)))
        y, bottom = 5 * u, self.targets[0].rect.top - u // 2
        size = round(1.2 * u)
        for text, warning in self.lines():
            if y + size > bottom:
                break
            colour = self.palette.warning if warning else self.palette.text
            shown = theme.fitted(text, size, colour, width - 4 * u, warning)
            surface.blit(shown, (2 * u, y))
            y += round(1.6 * u)
        self.draw_targets(surface)


class UsageScene(InfoScene):
    """The bookkeeping page: plays and play time per game, starts, crashes, time on."""

    def title(self) -> str:
        return _("Usage")

    def lines(self) -> list[tuple[str, bool]]:
        usage = self.app.usage
        if usage is None:
            return [(_("Counted in kiosk mode only."), False)]
        counts = usage.counters
        since = time.strftime("%Y-%m-%d", time.localtime(counts.since)) if counts.since else "-"
        lines = [(_("Counted since {date}").format(date=since), False)]
        for name in VARIANTS:
            plays = counts.plays.get(name, 0)
            lines.append((ngettext("{game}: {n} play, {time} played",
                                   "{game}: {n} plays, {time} played", plays).format(
                game=variant_title(name), n=plays, time=_duration(counts.seconds.get(name, 0.0))),
                False))  # fmt: skip
        lines += [
            (_("On for {time} this run, {total} in all").format(
                time=_duration(usage.run_seconds), total=_duration(counts.uptime)), False),
            (_("Starts: {n} · crashes: {crashes}").format(n=counts.starts,
                                                          crashes=counts.crashes),
             counts.crashes > 0),
            (_("Damaged saves: {n}").format(n=counts.damaged_saves), counts.damaged_saves > 0),
        ]  # fmt: skip
        return lines


class HealthScene(InfoScene):
    """Disk space, the last warnings and errors of the log, saves put aside."""

    def title(self) -> str:
        return _("Log and health")

    def lines(self) -> list[tuple[str, bool]]:
        app = self.app
        lines: list[tuple[str, bool]] = []
        try:
            disk = shutil.disk_usage(app.paths.data if app.paths.data.exists() else "/")
            low = disk.free < 100 * 2**20
            lines.append((_("Disk: {free} MB free of {total} MB").format(
                free=disk.free // 2**20, total=disk.total // 2**20), low))  # fmt: skip
        except OSError as error:
            lines.append((_("Disk: cannot be read ({why})").format(why=plain(error)), True))
        aside = len(app.saves.store.set_aside())
        lines.append((_("Saves put aside: {n}").format(n=aside), aside > 0))
        lines.append((_("Errors recovered from: {n}").format(n=app.recovered), app.recovered > 0))
        for problem in kiosk_of(app).problems:
            lines.append((problem.text(), True))
        recent = app.recent_problems.newest(8) if app.recent_problems is not None else []
        heading = _("Last warnings and errors of the log:")
        quiet = _("No warnings or errors in the log since the start.")
        lines.append((heading if recent else quiet, False))
        for when, level, message in recent:
            stamp = time.strftime("%H:%M:%S", time.localtime(when))
            lines.append((f"{stamp} {level.lower()}: {message}", level != "WARNING"))
        lines.append((_("The whole log: journalctl --user -u tavolo-kiosk"), False))
        return lines


class ServiceScene(MenuScene):
    """Checks for the hardware: touch, the screen's turn, the sound, the languages."""

    columns = 2

    def __init__(self, app: App) -> None:
        self.feedback = ""
        self._sound = 0
        super().__init__(app)

    def title(self) -> str:
        return _("Service")

    def subtitle(self) -> str:
        return self.feedback

    def items(self) -> list[Item]:
        app, kiosk = self.app, kiosk_of(self.app)
        return [
            item(lambda: _("Touch test"), lambda: app.push(TouchTestScene(app)), "touch test"),
            item(lambda: _("Screen turned {degrees}°").format(degrees=kiosk.rotation),
                 self._rotate, "rotation"),
            item(lambda: _("Sound test"), self._sound_test, "sound test"),
            item(lambda: _("Language test"), lambda: app.push(LanguageTestScene(app)),
                 "language test"),
            item(lambda: _("Back"), app.pop, "back"),
        ]  # fmt: skip

    def _rotate(self) -> None:
        kiosk = kiosk_of(self.app)
        before = kiosk.rotation
        kiosk.rotation = ROTATIONS[(ROTATIONS.index(before) + 1) % len(ROTATIONS)]
        problem = _save_settings(self.app, "rotation")
        log.info("kiosk: the operator set rotation from %r to %r", before, kiosk.rotation)
        self.app.apply_rotation()
        self.feedback = problem or _("Saved.")

    def _sound_test(self) -> None:
        name = EFFECTS[self._sound % len(EFFECTS)]
        self._sound += 1
        self.app.sound.play(name)
        if not self.app.sound.audible:
            self.feedback = _("The volume is 0: nothing can be heard.")
        else:
            playing = _("Playing “{name}” ({n} of {total}): press again for the next.")
            self.feedback = playing.format(name=name, n=EFFECTS.index(name) + 1, total=len(EFFECTS))


class TouchTestScene(Scene):
    """Every finger drawn where it lands, with its path, so a touch screen's reach and
    alignment can be seen; Back (or Escape) leaves."""

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.marks: list[tuple[int, int]] = []
        """Where the pointer went down or moved, oldest first (the last 400)."""
        self.fingers: dict[int, tuple[int, int]] = {}
        """Fingers on the glass now, by id."""
        self.touches = 0
        self._down = False

    def layout(self, size: tuple[int, int]) -> None:
        self.u = u = theme.unit(size)
        back = pygame.Rect(0, 0, 12 * u, theme.row(u))
        back.bottomright = (size[0] - u, size[1] - u)
        self.set_targets([button(back, lambda: _("Back"), self.app.pop, self.palette,
                                 name="back")])  # fmt: skip

    def handle(self, event: ui.UIEvent) -> None:
        if isinstance(event, ui.Press):
            self.touches += 1
            self._down = True
        elif isinstance(event, ui.Release):
            self._down = False
        if isinstance(event, ui.Press) or (isinstance(event, ui.Motion) and self._down):
            self.marks = [*self.marks[-399:], event.pos]  # where it lands, and its path
        super().handle(event)

    def finger(self, finger_id: int, pos: tuple[int, int] | None) -> None:
        """A finger is down at ``pos`` (or lifted: None) — every finger, not the pointer
        alone (the app hands them over raw)."""
        if pos is None:
            self.fingers.pop(finger_id, None)
        else:
            self.fingers[finger_id] = pos
            self.marks = [*self.marks[-399:], pos]

    @property
    def animating(self) -> bool:
        return True

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(self.palette.background)
        u, (width, height) = self.u, surface.get_size()
        for x in range(0, width, 4 * u):
            pygame.draw.line(surface, self.palette.panel, (x, 0), (x, height))
        for y in range(0, height, 4 * u):
            pygame.draw.line(surface, self.palette.panel, (0, y), (width, y))
        pygame.draw.rect(surface, self.palette.accent, surface.get_rect(), max(2, u // 4))
        for pos in self.marks:
            pygame.draw.circle(surface, self.palette.text, pos, max(2, u // 4))
        for number, pos in enumerate(self.fingers.values()):
            pygame.draw.circle(surface, self.palette.accent, pos, 2 * u, max(2, u // 5))
            label = theme.text(str(number + 1), u, self.palette.accent, True)
            surface.blit(label, label.get_rect(midbottom=(pos[0], pos[1] - 2 * u)))
        words = _("Touch anywhere, with several fingers: {n} touches, {f} fingers down.")
        shown = theme.fitted(words.format(n=self.touches, f=len(self.fingers)), round(1.2 * u),
                             self.palette.text, width - 4 * u)  # fmt: skip
        surface.blit(shown, (2 * u, u))
        self.draw_targets(surface)


class LanguageTestScene(InfoScene):
    """Lines of the game in every language, to see each is there and fits."""

    SAMPLES = ("Touch to play", "The classic table games", "Still playing?", "Roll the dice")

    def title(self) -> str:
        return _("Language test")

    def lines(self) -> list[tuple[str, bool]]:
        lines = []
        for code, name in i18n.LANGUAGES.items():
            allowed = code in kiosk_of(self.app).languages
            lines.append((f"{name} ({code})" + ("" if allowed else " · " + _("not offered")),
                          not allowed))  # fmt: skip
            lines += [("    " + i18n.in_language(text, code), False) for text in self.SAMPLES]
        return lines


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

        def row(number: int, aside: SetAside) -> Item:
            return item(lambda: _("{name} · {when} · {size} bytes").format(
                            name=aside.path.name, when=time.strftime("%Y-%m-%d %H:%M",
                                                                     time.localtime(aside.saved_at)),
                            size=aside.size),
                        lambda: None, f"aside {number}", lambda: False)  # fmt: skip

        rows = [row(number, aside) for number, aside in enumerate(found[: self.SHOWN])]
        if len(found) > self.SHOWN:
            more = len(found) - self.SHOWN
            rows.append(item(lambda: _("…and {n} more").format(n=more), lambda: None, "more",
                             lambda: False))  # fmt: skip
        if not found:
            rows.append(item(lambda: _("None: every save opened."), lambda: None, "none",
                             lambda: False))  # fmt: skip
        return [*rows, item(lambda: _("Back"), self.app.pop, "back")]


def draw_warning(scene: MenuScene, surface: pygame.Surface, warning: str) -> None:
    """A warning above a menu's buttons, in the warning colour, wrapped to the screen."""
    if not warning:
        return
    u = scene.u
    font = theme.font(u, True)
    y = max(round(10.4 * u), getattr(scene, "subtitle_bottom", 0) + u // 4)
    for line in theme.wrap("\u26a0 " + warning, font, surface.get_width() - 2 * u)[:2]:
        shown = theme.text(line, u, scene.palette.warning, True)
        surface.blit(shown, shown.get_rect(midtop=(surface.get_width() // 2, y)))
        y += round(1.2 * u)


def _save_settings(app: App, *keys: str) -> str:
    """Write the operator's change (of ``keys``, and whatever else changed) to kiosk.toml;
    if it cannot be, why (logged and felt, not fatal: the change holds until the kiosk
    restarts)."""
    try:
        kiosk_of(app).save(app.paths.config, keys)
    except SettingsNotSaved as error:
        app.sound.play("nope")
        log.error("kiosk settings not saved: %s", error)
        if kiosk_of(app).unreadable:  # the warning on the screen says why
            return _("Not saved: kiosk.toml cannot be read.")
        return _("Not saved: {why}").format(why=error)
    return ""


def _number(value: float) -> str:
    return f"{value:g}" if value != int(value) else str(int(value))


def _duration(seconds: float) -> str:
    minutes = int(seconds // 60)
    if minutes < 60:
        return _("{m} min").format(m=minutes)
    return _("{h} h {m} min").format(h=minutes // 60, m=minutes % 60)
