"""Readable and touchable on every screen: at a kiosk's 1024x600 panel, a portrait 700x1050
and 1920x1080, every button, key and board cell a person taps is at least
:data:`theme.TOUCH` (44 px) wide and high, inside the window and on top of no other; every
text drawn is at least :data:`theme.SMALLEST` (12 px), and 14 px at 1920x1080.

Each screen is put up as the screenshot tool does (tests never import ``tools``), drawn
whole once with the text functions of :mod:`game.client.theme` watched, and measured."""

from __future__ import annotations

import importlib
import random
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

import pygame
import pytest

from game.client import theme
from game.client.app import App, Paths
from game.client.kiosk_config import KioskConfig
from game.client.widgets import Target
from game.rules import variant
from game.session.match import Match
from game.session.seats import Seat, SeatKind

SIZES = [(1024, 600), (700, 1050), (1920, 1080)]
"""A kiosk panel turned upright and 4K, in the slow walk only."""
AT_1080P = 14
"""The least text size at 1920x1080 (the issue's "14 px at 1080p")."""
VARIANTS = ["ausgeblockt", "numeri", "dama:classic", "dama:mangia", "dama:lupo",
            "mulino:classic", "mulino:misto", "mulino:ceylonese"]  # fmt: skip
Show = Callable[[App], object]


# -- putting each screen up --------------------------------------------------------------


def _seats(players: int) -> list[Seat]:
    return [Seat(), *(Seat(SeatKind.COMPUTER, "medium") for _ in range(players - 1))]


def _played(name: str, players: int, actions: int | None, seed: int = 7) -> Match:
    """A match of random play from ``seed``: ``actions`` long (stopped early where a person
    at this screen is to act), or to its end with None."""
    from game.rules.chance import random_action

    match = Match.new(variant(name, players), _seats(players), seed)
    rng = random.Random(seed)
    while not match.state.is_terminal():
        long_enough = actions is not None and len(match.record.actions) >= actions
        if long_enough and not match.state.is_chance() and match.state.to_move == 0:
            break
        if match.state.is_chance():
            match.roll()
        else:
            match.play(random_action(match.state, rng))
    return match


def _push(factory: Callable[[App], object]) -> Show:
    return lambda app: app.push(factory(app))


def _title(app: App) -> None:
    from game.client.scenes.title import TitleScene

    for seed in (1, 2):  # two matches to resume: a row each
        app.saves.save(_played("dama:classic", 2, 6, seed))
    app.reset(TitleScene(app))


def _numeri_setup(app: App) -> None:
    from game.client.scenes.setup import SetupScene

    setup = SetupScene(app, "numeri")
    app.push(setup)
    setup._set_players(4)
    setup._set_seat(1, Seat())


def _profile(app: App) -> None:
    from game.client.scenes.players import ProfileScene

    app.profiles.add("Ada")
    for name in ("numeri", "dama:classic"):
        played = _played(name, 2, None)
        app.profiles.record(Match(played.record, [Seat(name="Ada"), *played.seats[1:]], 7))
    app.push(ProfileScene(app, app.profiles.get("Ada")))


def _players(app: App) -> None:
    from game.client.scenes.players import PlayersScene

    for name in ("Ada", "Bruno", "Carla", "Dario", "Elena", "Fabio"):
        app.profiles.add(name)
    app.push(PlayersScene(app))


def _pick_player(app: App) -> None:
    from game.client.scenes.players import PickPlayerScene

    for name in ("Ada", "Bruno", "Carla"):
        app.profiles.add(name)
    app.push(PickPlayerScene(app, "White", set(), lambda name: None))


def _highscores(app: App) -> None:
    from datetime import date, timedelta

    from game.client.scenes.highscores import HighScoresScene
    from game.session.highscores import Qualifier, Score

    today = date.today()
    names = ["Giulia", "Max", "Anna", "Luca", "Sofia", "Jonas", "Marta", "Paolo", "Lena"]
    for n, name in enumerate(names):
        app.highscores.add(Qualifier("numeri", 0, 180 + 17 * n % 140, 1, 1), name,
                           today - timedelta(days=n % 3))  # fmt: skip
    app.push(HighScoresScene(app, "numeri", Score("Giulia", 180, today.isoformat())))


def _finished_list(app: App) -> None:
    from game.client.scenes.replay import FinishedScene

    for seed in (1, 2, 3):
        match = _played("mulino:classic", 2, None, seed)
        app.saves.save(match)
    app.push(FinishedScene(app))


def _unfinished_list(app: App) -> None:
    from game.client.scenes.saved import UnfinishedScene

    for seed in range(1, 6):
        app.saves.save(_played("numeri", 2, 8, seed))
    app.push(UnfinishedScene(app))


def _confirm(app: App) -> None:
    from game.client.scenes.saved import ConfirmScene

    app.push(ConfirmScene(app, lambda: "Delete this match?", lambda: "Dama, 12 moves",
                          lambda: None))  # fmt: skip


def _which_mill(app: App) -> None:
    from game.client.scenes.import_game import WhichMillScene

    app.push(WhichMillScene(app, ["mulino:classic", "mulino:misto", "mulino:ceylonese"],
                            lambda chosen: None))  # fmt: skip


def _keypad(app: App) -> None:
    from game.client.scenes.keypad import KeypadScene

    app.push(KeypadScene(app, "PIN", "0123456789", lambda typed: None, secret=True))


def _name_entry(app: App) -> None:
    from game.client.scenes.entry import TextEntryScene

    app.push(TextEntryScene(app, "Your name", lambda typed: None, text="Ada"))


def _initials(app: App) -> None:
    import string

    from game.client.scenes.entry import TextEntryScene

    app.push(TextEntryScene(app, "Your initials", lambda typed: None, limit=3,
                            charset=string.ascii_uppercase))  # fmt: skip


def _results(name: str, players: int) -> Show:
    def show(app: App) -> None:
        from game.client.scenes.results import ResultsScene

        app.push(ResultsScene(app, _played(name, players, None)))

    return show


def _replay(app: App) -> None:
    from game.client.scenes.replay import ReplayScene

    match = _played("dama:classic", 2, None)
    replay = ReplayScene.of_match(app, match)
    app.push(replay)
    replay.go(len(match.record.actions) // 2)


def _review(app: App) -> None:
    from game.client.scenes.review import ReviewScene

    app.push(ReviewScene.of_match(app, _played("ausgeblockt", 2, None)))


def _play(name: str, players: int) -> Show:
    def show(app: App) -> None:
        from game.client.scenes.play import PlayScene

        app.push(PlayScene(app, _played(name, players, 14)))

    return show


def _facing(name: str, players: int) -> Show:
    """The match on a touch table, people on two opposite sides."""

    def show(app: App) -> None:
        from game.client.scenes.table import FaceToFaceScene

        seats = [Seat(), Seat(), *_seats(players)[2:]]
        played = _played(name, players, 14)
        app.push(FaceToFaceScene(app, Match(played.record, seats, 7)))

    return show


def _lesson(name: str) -> Show:
    def show(app: App) -> None:
        from game.client.scenes.play import PlayScene
        from game.client.tutorial import TutorialControl, script_for

        script = script_for(name)
        assert script is not None
        control = TutorialControl(app, script)
        control.advance_to(script.key)
        app.push(PlayScene(app, control))

    return show


def _over_a_match(factory: Callable[[App, object], object], kiosk: bool = False) -> Show:
    def show(app: App) -> None:
        from game.client.scenes.play import PlayScene

        if kiosk:
            _as_a_kiosk(app)
        play = PlayScene(app, _played("dama:classic", 2, 6))
        app.push(play)
        app.push(factory(app, play))

    return show


def _pause(app: App, play) -> object:
    from game.client.scenes.pause import PauseScene

    return PauseScene(app, play)


def _net_pause(app: App, play) -> object:
    from game.client.scenes.lan import NetPauseScene

    return NetPauseScene(app, play)


def _abandon(app: App, play) -> object:
    from game.client.scenes.kiosk import AbandonScene

    return AbandonScene(app, play)


def _tutorial_done(app: App) -> None:
    from game.client.tutorial import TutorialDoneScene, script_for

    app.push(TutorialDoneScene(app, script_for("dama:classic")))


def _lan_list(app: App, many: bool = False) -> None:
    from game.client.scenes import lobby
    from net.discovery import SERVICE, decode
    from net.identity import Identity, fingerprint
    from net.link import LanBrowser

    def announced(host: str, game: str, state: str, free: int, secret: int):
        key = Identity(bytes([secret]) * 32).key
        txt = {b"v": b"2", b"rules": b"-", b"game": game.encode(), b"players": b"2",
               b"free": str(free).encode(), b"code": b"0", b"state": state.encode(),
               b"host": host.encode(), b"match": (f"{secret:02x}" * 16).encode(),
               b"key": key.hex().encode()}  # fmt: skip
        listing = decode(f"{host} {secret}.{SERVICE}", txt, ["192.168.1.20"], 40000)
        return replace(listing, compatible=True, fingerprint=fingerprint(key))

    class StillBrowser(LanBrowser):
        def __init__(self, interface: str = "", on_change=None) -> None:
            self._lock = threading.Lock()
            self.error = ""
            self._listings = {
                item.name: item
                for item in (
                    announced("Corner table", "dama:classic", "lobby", 1, 1),
                    announced("Anna", "numeri", "playing", 0, 3),
                    announced("Library", "mulino:classic", "over", 0, 4),
                    announced("Bar", "ausgeblockt", "lobby", 1, 5),
                    announced("Window", "dama:lupo", "lobby", 1, 6),
                    *(announced(f"Table {n}", "numeri", "lobby", 1, n) for n in range(7, 11)
                      if many),
                )
            }  # fmt: skip

        def close(self) -> None:
            pass

    app.settings.player_name = "Carla"
    original, lobby.LanBrowser = lobby.LanBrowser, StillBrowser
    try:
        app.push(lobby.LanScene(app))
    finally:
        lobby.LanBrowser = original


def _room(app: App) -> None:
    from game.client.scenes.lobby import RoomScene
    from net.link import LinkView, SeatView

    seats = tuple(
        SeatView(name=name, peer=peer, computer=computer, ready=ready, present=True)
        for name, peer, computer, ready in (
            ("Carla", "a", "", True), ("", None, "medium", False),
            ("Bruno", "b", "", False), ("", None, "", False),
        )
    )  # fmt: skip

    class Link:
        class config:  # noqa: N801 — as NetLink's
            code = "4711"

        def view(self) -> LinkView:
            return LinkView(phase="lobby", variant=variant("numeri", 4), hosting=True,
                            port=40000, my_seat=0, seats=seats, host_fingerprint="ab12 cd34",
                            spectators=("Dario",), notices=("Bruno came in",))  # fmt: skip

        def close(self) -> None:
            pass

    app.settings.lan_interface = "192.168.1.20"
    app.push(RoomScene(app, Link()))


def _as_a_kiosk(app: App, config: KioskConfig | None = None) -> None:
    from game.client.kiosk_usage import KioskUsage, RecentProblems
    from game.client.kiosk_watch import KioskWatch

    app.kiosk = config or KioskConfig()
    app.kiosk_watch = KioskWatch(app, app.kiosk)  # as the app has it in kiosk mode
    app.usage = KioskUsage(app.paths.data / "usage")
    app.usage.counters.plays = {"numeri": 212, "dama:classic": 87}
    app.recent_problems = RecentProblems(clock=lambda: 1_795_000_000.0)


def _kiosk(factory: Callable[[App], object], config: KioskConfig | None = None) -> Show:
    def show(app: App) -> None:
        _as_a_kiosk(app, config)
        app.push(factory(app))

    return show


def _operator_page(page: str | None) -> Show:
    def show(app: App) -> None:
        from game.client.scenes.operator import OperatorScene

        _as_a_kiosk(app)
        app.push(OperatorScene(app))
        if page is not None:
            next(t for t in app.scene.targets if t.name == page).action()

    return show


def _scored(show: Show) -> Show:
    """``show`` with nine results on Numeri's boards."""

    def scored(app: App) -> None:
        from datetime import date

        from game.session.highscores import Qualifier

        for n in range(9):
            app.highscores.add(Qualifier("numeri", 0, 180 + 17 * n, 1, 1), f"P{n}", date.today())
        show(app)

    return scored


def _kiosk_title(app: App) -> None:
    from game.client.scenes.title import TitleScene

    _as_a_kiosk(app, KioskConfig(languages=["en", "it", "de"]))
    app.reset(TitleScene(app))


def _closed(app: App) -> None:
    from game.client.scenes.kiosk import ClosedScene

    _as_a_kiosk(app, KioskConfig(opening_hours="09:00-23:00"))
    app.wall_clock = lambda: time.mktime((2026, 11, 27, 3, 0, 0, 0, 0, -1))
    closed = ClosedScene(app)
    closed.lit_until = float("inf")
    app.push(closed)


def _scene_of(module: str, name: str, *args) -> Callable[[App], object]:
    """A screen's class by its module and name (imported when the screen is put up)."""

    def make(app: App) -> object:
        return getattr(importlib.import_module(module), name)(app, *args)

    return make


def _scene(module: str, name: str, *args) -> Show:
    return _push(_scene_of(module, name, *args))


SCREENS: dict[str, Show] = {
    "title": _title,
    "title-kiosk": _kiosk_title,
    "choose": _scene("game.client.scenes.cards", "ChooseScene"),
    "rules-index": _scene("game.client.scenes.cards", "RulesIndexScene"),
    "setup-numeri-4": _numeri_setup,
    **{
        f"setup-{name}": _scene("game.client.scenes.setup", "SetupScene", name) for name in VARIANTS
    },
    "lan-setup": _scene("game.client.scenes.lobby", "LanSetupScene", "dama:classic"),
    "lan-choose": _scene("game.client.scenes.lobby", "LanChooseScene"),
    **{
        f"rules-{name}": _scene("game.client.scenes.rules", "RulesScene", variant(name, 2))
        for name in VARIANTS
    },
    "settings": _scene("game.client.scenes.settings_screen", "SettingsScene"),
    "players": _players,
    "profile": _profile,
    "pick-player": _pick_player,
    "name-entry": _name_entry,
    "initials": _initials,
    "highscores": _highscores,
    "finished": _finished_list,
    "unfinished": _unfinished_list,
    "import": _scene("game.client.scenes.import_game", "ImportScene"),
    "which-mill": _which_mill,
    "confirm": _confirm,
    "keypad": _keypad,
    "lan-list": _lan_list,
    "lan-list-pages": lambda app: _lan_list(app, many=True),
    "room": _room,
    "results-numeri-4": _results("numeri", 4),
    "results-ausgeblockt": _results("ausgeblockt", 2),
    "results-dama": _results("dama:classic", 2),
    "replay": _replay,
    "review": _review,
    "lessons": _scene("game.client.tutorial", "TutorialsScene"),
    "lesson-done": _tutorial_done,
    "pause": _over_a_match(_pause),
    "net-pause": _over_a_match(_net_pause),
    "kiosk-abandon": _over_a_match(_abandon, kiosk=True),
    "kiosk-operator": _operator_page(None),
    "kiosk-settings": _operator_page("settings"),
    "kiosk-usage": _operator_page("usage"),
    "kiosk-service": _operator_page("service"),
    "kiosk-health": _operator_page("health"),
    "kiosk-scores": _scored(_operator_page("scores")),
    "kiosk-set-aside": _operator_page("set aside"),
    "kiosk-games": _kiosk(_scene_of("game.client.scenes.operator", "GamesScene")),
    "kiosk-language-test": _kiosk(_scene_of("game.client.scenes.operator", "LanguageTestScene")),
    "kiosk-attract": _kiosk(_scene_of("game.client.scenes.kiosk", "AttractScene")),
    "kiosk-touch-test": _kiosk(_scene_of("game.client.scenes.operator", "TouchTestScene")),
    "kiosk-closed": _closed,
}
PLAY_SCREENS: dict[str, Show] = {
    **{f"play-{name}": _play(name, 2) for name in VARIANTS},
    "play-numeri-4": _play("numeri", 4),
    "play-numeri-3": _play("numeri", 3),
    **{f"lesson-{name}": _lesson(name) for name in VARIANTS},
    **{
        f"facing-{name}": _facing(name, 2)
        for name in ("ausgeblockt", "dama:classic", "mulino:ceylonese")
    },
    "facing-numeri-4": _facing("numeri", 4),
}
QUICK = {"title", "setup-numeri-4", "settings", "review", "keypad", "results-numeri-4",
         "kiosk-operator", "play-numeri-4", "facing-ausgeblockt"}  # fmt: skip
"""Screens measured at 1024x600 in the quick loop; the rest (and every size) in the slow."""


# -- measuring ---------------------------------------------------------------------------


@contextmanager
def watched_text() -> Iterator[list[tuple[float, str]]]:
    """The size in pixels of every text rendered while inside: :func:`theme.text` and
    :func:`theme.font` at the size asked (the font never goes under its floor),
    :func:`theme.fitted` at the height it was drawn."""
    seen: list[tuple[float, str]] = []
    inside = [0]
    text, fitted, font = theme.text, theme.fitted, theme.font

    def watch_text(message, size, colour, bold=False):
        if not inside[0] and message.strip():
            seen.append((max(theme.SMALLEST, size), message))
        return text(message, size, colour, bold)

    def watch_fitted(message, size, colour, width, bold=False):
        inside[0] += 1
        try:
            drawn = fitted(message, size, colour, width, bold)
            whole = text(message, size, colour, bold).get_height()
        finally:
            inside[0] -= 1
        if message.strip():  # by its height: a text cut short with "…" is narrower
            shrunk = drawn.get_height() / whole if whole else 1.0
            seen.append((max(theme.SMALLEST, size) * min(1.0, shrunk), message))
        return drawn

    def watch_font(size, bold=False):
        if not inside[0]:
            seen.append((max(theme.SMALLEST, size), "(a font)"))
        return font(size, bold)

    theme.text, theme.fitted, theme.font = watch_text, watch_fitted, watch_font
    try:
        yield seen
    finally:
        theme.text, theme.fitted, theme.font = text, fitted, font


def problems(app: App) -> list[str]:
    """What is too small, off the window or on top of another target on the screen shown."""
    for _ in range(4):  # past the wipe, the first pictures drawn
        app.frame(0.1)
    scene = app.scene
    scene.layout(app.size)
    width, height = app.size
    window = pygame.Rect(0, 0, width, height)
    with watched_text() as texts:
        scene.draw_whole(app.screen)
    found = []
    shown: list[Target] = [t for t in scene.targets if t.enabled() or t.draw is not None]
    for target in shown:
        if min(target.rect.size) < theme.TOUCH and target.enabled():
            found.append(f"{target.name!r} is {target.rect.width}x{target.rect.height}")
        if not window.contains(target.rect):
            found.append(f"{target.name!r} at {tuple(target.rect)} is off the window")
    for n, first in enumerate(shown):
        for second in shown[n + 1 :]:
            if first.rect.colliderect(second.rect):
                found.append(f"{first.name!r} {tuple(first.rect)} overlaps "
                             f"{second.name!r} {tuple(second.rect)}")  # fmt: skip
    least = AT_1080P if (width, height) == (1920, 1080) else theme.SMALLEST
    small = sorted({(round(size, 1), message) for size, message in texts if size < least - 0.5})
    found += [f"text {message!r} at {size} px" for size, message in small]
    return found


def _measure(tmp_path: Path, size: tuple[int, int], show: Show) -> list[str]:
    from game import i18n
    from game.client import sprites

    i18n.set_language("en")
    app = App(Paths(tmp_path / "config", tmp_path / "data"), size=size, fullscreen=False)
    try:
        from game.client.scenes.title import TitleScene

        app.push(TitleScene(app))
        show(app)
        return problems(app)
    finally:
        app.close()
        sprites.use_theme("wood")
        i18n.set_language("en")
        pygame.event.clear()


def _params(screens: dict[str, Show]) -> list:
    params = []
    for size in SIZES:
        for name in screens:
            marks = []
            if size != (1024, 600) or name not in QUICK:
                marks.append(pytest.mark.slow)
            params.append(pytest.param(size, name, marks=marks, id=f"{name}-{size[0]}x{size[1]}"))
    return params


@pytest.mark.parametrize(("size", "name"), _params(SCREENS))
def test_every_target_is_touchable_and_every_text_readable(
    tmp_path: Path, size: tuple[int, int], name: str
) -> None:
    found = _measure(tmp_path, size, SCREENS[name])
    assert not found, "\n".join(found)


@pytest.mark.parametrize(("size", "name"), _params(PLAY_SCREENS))
def test_the_match_screen_is_touchable_and_readable(
    tmp_path: Path, size: tuple[int, int], name: str
) -> None:
    found = _measure(tmp_path, size, PLAY_SCREENS[name])
    assert not found, "\n".join(found)


def test_the_touch_floor() -> None:
    assert theme.row(11) == theme.TOUCH == 44  # a 1024x600 panel's unit: 33 px raised
    assert theme.row(20) == 60 and theme.row(20, 2.5) == 50
    assert theme.touch(12.4) == 44 and theme.touch(50.4) == 50
