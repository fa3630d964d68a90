"""Regenerate docs/screenshots/: what a player sees, drawn by the real client off-screen.

    python tools/screenshots.py [--sizes 1920x1080,1024x600,700x1050]
                                [--kiosk-sizes 1920x1080,1024x600]
                                [--tournament-sizes 1920x1080,3840x2160] [--only STEMS]

For every game, at every size: the match right after the computer's move (its move
highlighted, the person's prompt), its lesson at its key step (``lesson-dama-lupo``), a
Mulino removal prompt, an Ausgeblockt chain prompt, the results screen and a replay step;
the title screen; the LAN list (announcements that hold still, a look-alike of a match
under another key among them).  At the kiosk sizes, the kiosk's screens: the operator's
service menu and its pages (settings with a mistyped key, usage, service, touch test, log
and health, high scores), the PIN keypad locked after wrong PINs, the closed screen and
the demos.  At the tournament sizes (``--tournament-sizes``, 1920x1080 and 3840x2160), the
tournament's room and its TV screen during a round, and the TV at the end (a six-player round
robin with results from a seeded generator).  ``--only STEM,STEM`` shoots just those.
Positions come from random but legal play from fixed seeds, so the pictures change only
when the drawing does.
"""

from __future__ import annotations

import argparse
import logging
import os
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import threading
from dataclasses import replace

import pygame

from game.ai.review import Judged
from game.client import sprites
from game.client.app import App, Paths
from game.client.kiosk_config import KioskConfig
from game.client.scenes import lobby
from game.client.scenes.cards import ChooseScene
from game.client.scenes.play import PlayScene
from game.client.scenes.replay import ReplayScene
from game.client.scenes.results import ResultsScene
from game.client.scenes.setup import SetupScene
from game.client.scenes.table import FaceToFaceScene
from game.client.scenes.title import TitleScene
from game.client.scenes.tournament import TournamentRoomScene
from game.client.scenes.tournament_tv import TournamentTvScene
from game.client.turns import actor
from game.rules import State, new_game, variant
from game.rules.ausgeblockt import DECIDE, MARK, PASS, STOP
from game.rules.chance import random_action
from game.rules.mulino import REMOVE
from game.session.match import Match
from game.session.seats import Seat, SeatKind
from game.tournament import TIE_BREAKS, Format, Player, Result, Tournament
from net.discovery import SERVICE, Listing, decode
from net.identity import Identity, fingerprint
from net.link import LanBrowser
from net.tournament_link import GameView, StandingView, TournamentView

OUT = Path(__file__).resolve().parent.parent / "docs" / "screenshots"
GAMES = [
    ("ausgeblockt", 2, 60),
    ("numeri", 3, 60),
    ("dama:classic", 2, 17),
    ("dama:mangia", 2, 15),
    ("dama:lupo", 2, 12),
    ("mulino:classic", 2, 23),
    ("mulino:misto", 2, 14),
    ("mulino:ceylonese", 2, 21),
]
Predicate = Callable[[State], bool]


def _seats(players: int) -> list[Seat]:
    return [Seat(), *(Seat(SeatKind.COMPUTER, "medium") for _ in range(players - 1))]


def _random_step(match: Match, rng: random.Random) -> None:
    state = match.state
    if state.is_chance():
        match.roll()
        return
    legal = state.legal_actions()
    if state.variant.name == "ausgeblockt":  # mark when able, so the sheet fills
        marks = [a for a in legal if a < PASS]
        match.play(rng.choice(marks) if marks else STOP)
        return
    match.play(random_action(state, rng))


def after_the_computer(
    name: str, players: int, at_least: int, want: Predicate, after_another: bool = True
) -> Match:
    """A match of random play, at least ``at_least`` actions long, stopped where the person
    (seat 1) is to act — right after another seat's turn if ``after_another`` — in a state
    ``want`` accepts."""
    for seed in range(2026, 2026 + 400):
        match = Match.new(variant(name, players), _seats(players), seed)
        rng = random.Random(seed)
        while not match.state.is_terminal() and len(match.record.actions) < 600:
            state = match.state
            actions = len(match.record.actions)
            previous = actor(match.state_at(actions - 1)) if actions else None
            turned = previous not in (None, 0) or not after_another
            ready = actor(state) == 0 and turned and actions >= at_least
            if ready and want(state):
                return match
            _random_step(match, rng)
    raise SystemExit(f"no position found for {name}")


def finished(name: str, players: int, seats: list[Seat] | None = None) -> Match:
    """A match played to its end by random moves (``seats``: the person and the computer
    at medium unless given)."""
    match = Match.new(variant(name, players), seats or _seats(players), 2026)
    rng = random.Random(5)
    while not match.state.is_terminal():
        _random_step(match, rng)
    return match


def _anything(state: State) -> bool:
    return True


def _removal(state: State) -> bool:
    return getattr(state, "stage", None) == REMOVE


def _chain(state: State) -> bool:
    return getattr(state, "stage", None) == MARK and getattr(state, "chain", -1) >= 0


def shots() -> list[tuple[str, Callable[[App], object]]]:
    """(file stem, a function that puts the screen to shoot on the app's stack)."""
    entries: list[tuple[str, Callable[[App], object]]] = [
        ("title", lambda app: app.push(TitleScene(app))),
        ("cards", lambda app: app.push(ChooseScene(app))),
        ("setup-numeri", _numeri_setup),
        ("highscores", _highscores),
        ("player", _player),
        ("setup-dama-classic", lambda app: app.push(SetupScene(app, "dama:classic"))),
        ("setup-mulino-classic", lambda app: app.push(SetupScene(app, "mulino:classic"))),
        ("results-rated", _rated_results),
    ]
    for name, players, at_least in GAMES:
        stem = name.replace(":", "-")
        entries.append(
            (stem, lambda app, n=name, p=players, a=at_least: app.push(
                PlayScene(app, after_the_computer(n, p, a, _anything))))
        )  # fmt: skip
        entries.append(
            (f"{stem}-results", lambda app, n=name, p=players: app.push(
                ResultsScene(app, finished(n, p))))
        )  # fmt: skip
        entries.append((f"lesson-{stem}", _lesson(name)))
    for name, players, at_least in GAMES:
        if name in ("dama:classic", "mulino:classic", "numeri", "ausgeblockt"):
            stem = f"{name.replace(':', '-')}-contrast"
            entries.append((stem, lambda app, n=name, p=players, a=at_least: _in_contrast(
                app, PlayScene(app, after_the_computer(n, p, a, _anything)))))  # fmt: skip
    entries += [
        ("mulino-classic-removal", lambda app: app.push(
            PlayScene(app, after_the_computer("mulino:classic", 2, 4, _removal, False)))),
        ("ausgeblockt-chain", lambda app: app.push(
            PlayScene(app, after_the_computer("ausgeblockt", 2, 10, _chain, False)))),
        ("ausgeblockt-odds", _odds),
        ("dama-classic-hint", _hint),
        ("dama-classic-contrast-hint", lambda app: _in_contrast(app, None) or _hint(app)),
        ("facing-dama-classic", _facing("dama:classic", 2, 17)),
        ("facing-numeri", _facing("numeri", 4, 40)),
        ("facing-ausgeblockt", _facing("ausgeblockt", 2, 20)),
        ("dama-classic-review", _review_of("dama:classic", lambda j: j.label == "blunder")),
        ("ausgeblockt-review", _review_of("ausgeblockt", lambda j: bool(j.chances))),
        ("dama-classic-replay", _replay_step),
        ("lan-list", _lan_list),
    ]  # fmt: skip
    return entries


def kiosk_shots() -> list[tuple[str, Callable[[App], object]]]:
    """The kiosk's screens (they make the app a kiosk), shot at the kiosk sizes."""
    return [
        ("kiosk-operator", _operator_page(None)),
        ("kiosk-settings", _operator_page("settings")),
        ("kiosk-usage", _operator_page("usage")),
        ("kiosk-service", _operator_page("service")),
        ("kiosk-touch-test", _touch_test),
        ("kiosk-health", _operator_page("health")),
        ("kiosk-scores", _operator_page("scores")),
        ("kiosk-operator-broken-file", _operator_with_a_broken_file),
        ("kiosk-pin-locked", _pin_locked),
        ("kiosk-operator-de", _operator_in_german),
        ("kiosk-closed", _closed),
        ("kiosk-attract", _attract),
    ]


def _lesson(name: str) -> Callable[[App], None]:
    """The lesson of the variant ``name`` at its key step: what the computer did and what
    to do now, in the panel; the move asked for ringed on the board."""

    def shoot(app: App) -> None:
        from game.client.tutorial import TutorialControl, script_for

        script = script_for(name)
        assert script is not None, name
        control = TutorialControl(app, script)
        control.advance_to(script.key)
        app.push(PlayScene(app, control))

    return shoot


def _deciding(state: State) -> bool:
    return getattr(state, "stage", None) == DECIDE and state.attempts == 1


def _odds(app: App) -> None:
    """The Ausgeblockt odds beside the dice: two dice kept, a better choice named."""
    app.settings.dice_odds = "on"
    play = PlayScene(app, after_the_computer("ausgeblockt", 2, 12, _deciding, False))
    app.push(play)
    app.frame(0.1)
    dice = play.view.slots
    common = max(set(dice), key=lambda face: (dice.count(face), face))
    for slot, face in enumerate(dice):
        if face != common:
            play.view.tap_die(slot)
    deadline = time.monotonic() + 60
    while play.coach.odds(play.state) is None and time.monotonic() < deadline:
        time.sleep(0.05)
    play.invalidate()


def _hint(app: App) -> None:
    """A hint asked in a Dama middle game: the move ringed, its path drawn, its name said."""
    play = PlayScene(app, after_the_computer("dama:classic", 2, 14, _anything))
    app.push(play)
    app.frame(0.1)
    play.ask_hint()
    deadline = time.monotonic() + 60
    while play.coach.hint(play.state) is None and time.monotonic() < deadline:
        time.sleep(0.05)
    play.invalidate()


def _review_of(name: str, shown: Callable[[Judged], bool]) -> Callable[[App], None]:
    """The review of a finished match of ``name`` at the first decision that is ``shown``,
    with the graph."""

    def shoot(app: App) -> None:
        from game.client.scenes.review import ReviewScene

        review = ReviewScene.of_match(app, finished(name, 2))
        app.push(review)
        deadline = time.monotonic() + 120
        while review.review is None and time.monotonic() < deadline:
            app.frame(0.05)
            time.sleep(0.05)
        found = review.review.decisions if review.review else ()
        first = next((j for j in found if shown(j)), found[0] if found else None)
        if first is not None:
            review.go(first.ply)

    return shoot


def _in_contrast(app: App, scene) -> None:
    """``scene`` on the high-contrast boards (the next shot is on wood again); None: only
    the boards' paint."""
    app.settings.board_theme = "contrast"
    sprites.use_theme("contrast")
    if scene is not None:
        app.push(scene)


def _facing(name: str, players: int, at_least: int) -> Callable[[App], None]:
    """The face-to-face table: people on both sides, the near seat to act."""

    def shoot(app: App) -> None:
        match = after_the_computer(name, players, at_least, _anything)
        people = [Seat(SeatKind.HUMAN, None, who) for who in ("Anna", "Marco", "Lena", "Piero")]
        match.seats = tuple(people[:players])
        app.push(FaceToFaceScene(app, match))

    return shoot


def _player(app: App) -> None:
    """A player's record after a few matches."""
    from game.client.scenes.players import ProfileScene

    profiles = app.profiles
    if profiles.get("Ada") is None:
        profiles.add("Ada")
        hard = Seat(SeatKind.COMPUTER, "hard")
        for name, seats in (("numeri", [Seat(name="Ada"), hard]),
                            ("ausgeblockt", [Seat(name="Ada"), hard]),
                            ("mulino:classic", [Seat(name="Ada"), Seat(SeatKind.COMPUTER, "easy")]),
                            ("dama:classic", [Seat(name="Ada"), Seat()])):  # fmt: skip
            match = Match.new(variant(name, 2), seats, 11)
            rng = random.Random(11)
            while not match.state.is_terminal():
                _random_step(match, rng)
            profiles.record(match)
    app.push(ProfileScene(app, profiles.get("Ada")))


def _rated_results(app: App) -> None:
    """Leo's Mulino match against *medium*, his adaptive level moved (the line under the
    reason); not Ada, whose profile the player screen shows."""
    leo = app.profiles.get("Leo") or app.profiles.add("Leo")
    leo.standings.pop("mulino:classic", None)  # his first match at it, at every size
    seats = [Seat(name="Leo"), Seat(SeatKind.COMPUTER, "medium")]
    app.push(ResultsScene(app, finished("mulino:classic", 2, seats), scored=True))


def _highscores(app: App) -> None:
    """Numeri's boards: a week of results and today's, the newest lit."""
    from datetime import date, timedelta

    from game.client.scenes.highscores import HighScoresScene
    from game.session.highscores import Qualifier, Score

    scores, today = app.highscores, date.today()
    if scores.empty():
        names = ["Giulia", "Max", "Anna", "Luca", "Sofia", "Jonas", "Marta", "Paolo", "Lena"]
        for n, name in enumerate(names):
            day = today - timedelta(days=n % 3)
            scores.add(Qualifier("numeri", 0, 180 + 17 * n % 140, 1, 1), name, day)
    app.push(HighScoresScene(app, "numeri", Score("Giulia", 180, today.isoformat())))


def _numeri_setup(app: App) -> None:
    """Four players: two people, the computer at two levels."""
    setup = SetupScene(app, "numeri")
    app.push(setup)
    setup._set_players(4)
    setup._set_seat(1, Seat())
    setup._set_seat(3, Seat(SeatKind.COMPUTER, "hard"))


def _as_a_kiosk(app: App, config: KioskConfig | None = None) -> None:
    """The app as a kiosk that has been in use: counters, a warning or two in its log."""
    from game.client.kiosk_usage import KioskUsage, RecentProblems
    from game.client.kiosk_watch import KioskWatch

    app.kiosk = config or KioskConfig()
    app.kiosk_watch = KioskWatch(app, app.kiosk)  # as the app has it in kiosk mode
    app.usage = KioskUsage(app.paths.data / "shots")
    counters = app.usage.counters
    counters.plays = {"numeri": 212, "dama:classic": 87, "mulino:classic": 64, "ausgeblockt": 31}
    counters.seconds = {"numeri": 151_200.0, "dama:classic": 98_400.0,
                        "mulino:classic": 61_000.0, "ausgeblockt": 20_500.0}  # fmt: skip
    counters.starts, counters.crashes, counters.damaged_saves = 41, 1, 1
    counters.uptime, counters.since = 2_480_000.0, 1_790_000_000.0
    app.usage.run_seconds = 30_600.0
    app.recent_problems = RecentProblems(clock=lambda: 1_795_000_000.0)
    for message in (
        "kiosk: a wrong operator PIN (1 in a row)",
        "kiosk setting volume = 0,5 (line 6 of kiosk.toml) cannot be used",
    ):
        record = logging.LogRecord("game", logging.WARNING, "", 0, message, (), None)
        app.recent_problems.emit(record)


def _operator_page(page: str | None) -> Callable[[App], None]:
    def shoot(app: App) -> None:
        from game import i18n
        from game.client.scenes.operator import OperatorScene

        i18n.set_language("en")
        _as_a_kiosk(app)
        app.push(OperatorScene(app))
        if page is not None:
            target = next(t for t in app.scene.targets if t.name == page)
            target.action()

    return shoot


def _touch_test(app: App) -> None:
    from game.client.scenes.operator import TouchTestScene

    _as_a_kiosk(app)
    test = TouchTestScene(app)
    app.push(test)
    width, height = app.size
    for n in range(40):  # a finger drawn across, and three resting
        test.marks.append((width * (n + 5) // 50, height // 3 + n * height // 150))
    test.touches = 43
    for finger, (x, y) in enumerate([(0.3, 0.6), (0.5, 0.7), (0.72, 0.55)]):
        test.finger(finger, (round(x * width), round(y * height)))


def _closed(app: App) -> None:
    from game.client.scenes.kiosk import ClosedScene

    _as_a_kiosk(app, KioskConfig(opening_hours="09:00-23:00"))
    app.wall_clock = lambda: time.mktime((2026, 11, 27, 3, 0, 0, 0, 0, -1))
    closed = ClosedScene(app)
    closed.lit_until = float("inf")  # as a touch shows it
    app.push(closed)


def _operator_in_german(app: App) -> None:
    from game import i18n
    from game.client.scenes.operator import OperatorScene

    _as_a_kiosk(app)
    i18n.set_language("de")  # the longest labels; English again for the next size
    operator = OperatorScene(app)
    app.push(operator)
    operator.feedback = i18n._("Saved.")


def _attract(app: App) -> None:
    from game import i18n
    from game.client.scenes.kiosk import AttractScene

    i18n.set_language("en")
    _as_a_kiosk(app, KioskConfig(games=["mulino:classic"]))
    attract = AttractScene(app)
    app.push(attract)
    for _ in range(300):  # a few moves of the demo
        app.frame(0.1)


def _operator_with_a_broken_file(app: App) -> None:
    from game.client.kiosk_config import Problem
    from game.client.scenes.operator import SettingsScene

    _as_a_kiosk(app, KioskConfig(games=["numeri", "dama:classic"], volume=0.25))
    app.kiosk.problems = [Problem("games", 3, '["numeri", "dama:clasic"]',
                                  '["numeri", "dama:classic"]', "out of range")]  # fmt: skip
    app.push(SettingsScene(app))


def _pin_locked(app: App) -> None:
    from game.client.scenes.kiosk import pin_keypad

    _as_a_kiosk(app)
    for _ in range(3):
        app.pin_guard.failed(app.time)
    app.push(pin_keypad(app))
    app.scene.text = "25"


def _announced(host: str, game: str, state: str, free: int, secret: int, match: str) -> Listing:
    key = Identity(bytes([secret]) * 32).key
    txt = {
        b"v": b"2", b"rules": b"-", b"game": game.encode(), b"players": b"2",
        b"free": str(free).encode(), b"code": b"0", b"state": state.encode(),
        b"host": host.encode(), b"match": match.encode(), b"key": key.hex().encode(),
    }  # fmt: skip
    listing = decode(f"{host} {secret}.{SERVICE}", txt, ["192.168.1.20"], 40000)
    assert listing is not None
    return replace(listing, compatible=True, fingerprint=fingerprint(key))


class _StillBrowser(LanBrowser):
    """Announcements that never change, in the real list's order (no network)."""

    def __init__(self, interface: str = "", on_change: Callable[[], None] | None = None) -> None:
        self._lock = threading.Lock()
        self.error = ""
        self._listings = {
            item.name: item
            for item in (
                _announced("Corner table", "dama:classic", "lobby", 1, 1, "a1" * 16),
                _announced("Corner table", "dama:classic", "lobby", 1, 2, "a1" * 16),
                _announced("Anna", "numeri", "playing", 0, 3, "b2" * 16),
                replace(
                    _announced("Sera", "mulino:classic", "under way", 0, 5, "d4" * 16),
                    kind="tournament",
                    format="swiss",
                    round=2,
                    players=8,
                    free=54,
                ),
                _announced("Library", "mulino:classic", "over", 0, 4, "c3" * 16),
            )
        }

    def close(self) -> None:
        pass


def _lan_list(app: App) -> None:
    app.settings.player_name = "Carla"
    original, lobby.LanBrowser = lobby.LanBrowser, _StillBrowser
    try:
        app.push(lobby.LanScene(app))
    finally:
        lobby.LanBrowser = original
    for _ in range(6):  # the list is looked at twice a second
        app.frame(0.1)


def tournament_shots() -> list[tuple[str, Callable[[App], object]]]:
    """The tournament's room and TV screen, shot at the tournament sizes."""
    return [
        ("tournament-room", lambda app: app.push(TournamentRoomScene(app, _StillTournament(4)))),
        ("tournament-tv", lambda app: app.push(TournamentTvScene(app, _StillTournament(4)))),
        ("tournament-tv-final", _tournament_final),
    ]


PLAYERS = ("Carla", "Anna", "Bruno", "Dario", "Elena", "Computer 1")


def _played_to(plies: int, seed: int) -> bytes:
    """A Mulino position ``plies`` random actions from the start (seeded), encoded as a
    game's White reports it to the TV."""
    rng = random.Random(seed)
    state = new_game("mulino:classic")
    for _ in range(plies):
        if state.result() is not None:
            break
        state = state.apply(rng.choice(state.legal_actions()))
    return state.encode()


class _StillTournament:
    """A tournament link that holds still (no network): a six-player round robin of Mulino
    with seeded results, its round ``upto`` under way (two games scored, this player's at
    move 23), or over when ``upto`` is past its rounds."""

    def __init__(self, upto: int) -> None:
        rng = random.Random(31)
        people = [Player(n + 1, f"p{n}", name) for n, name in enumerate(PLAYERS)]
        tournament = Tournament.create(variant("mulino", 2), Format.ROUND_ROBIN, people)
        choices = [Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW]
        while not tournament.over and len(tournament.rounds) < upto:
            tournament = tournament.pair_next_round()
            number = len(tournament.rounds)
            pairings = tournament.rounds[-1].pairings
            others = [b for b, pairing in enumerate(pairings) if "p0" not in pairing.players]
            for board in range(len(pairings)):
                if number < upto or board == others[0]:
                    tournament = tournament.record(number, board, rng.choice(choices))
        names = {p.id: p.name for p in people}
        latest = tournament.rounds[-1]
        games = tuple(
            GameView(len(tournament.rounds), board, names[pairing.white], names[pairing.black],
                     None if outcome is None else outcome.value, "p0" in pairing.players,
                     outcome is None and "p0" in pairing.players, 22,
                     position=None if outcome is not None else _played_to(22 + 9 * board, board))
            for board, (pairing, outcome) in enumerate(
                zip(latest.pairings, latest.outcomes, strict=True))
        )  # fmt: skip
        lines = tournament.standings()
        standings = tuple(
            StandingView(line.rank, line.player.name, float(line.points),
                         tuple(float(v) for v in line.tie_breaks),
                         line.player.name.startswith("Computer"), False)
            for line in lines
        )  # fmt: skip
        table = tournament.cross_table()
        over = tournament.over
        mine = next((g for g in games if g.mine and g.result is None), None)
        self._view = TournamentView(
            phase="over" if over else "playing", directing=True, port=40000, code="4821",
            name="Torneo del giovedì", game="mulino:classic", format="round-robin",
            entrants=PLAYERS, round=len(tournament.rounds), rounds=tournament.planned_rounds,
            games=games, standings=standings, tie_breaks=TIE_BREAKS[Format.ROUND_ROBIN],
            cross_names=tuple(p.name for p in table.players), cross=table.cells, me="p0",
            my_name="Carla", next_opponent=(mine.black if mine and mine.white == "Carla"
                                            else mine.white if mine else None),
            winner=standings[0].name if over else None, tournament=tournament,
        )  # fmt: skip

    def view(self) -> TournamentView:
        return self._view

    def game_link(self, game: tuple[int, int]) -> None:
        return None

    def game_files(self) -> list[tuple[str, bytes]]:
        return []

    def close(self) -> None:
        pass


def _tournament_final(app: App) -> None:
    app.push(TournamentTvScene(app, _StillTournament(99)))
    for _ in range(8):  # the confetti in the air
        app.frame(0.1)


def _replay_step(app: App) -> None:
    match = finished("dama:classic", 2)
    replay = ReplayScene.of_match(app, match)
    app.push(replay)
    replay.go(len(match.record.actions) // 2)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="1920x1080,1024x600,700x1050")
    parser.add_argument("--kiosk-sizes", default="1920x1080,1024x600")
    parser.add_argument("--tournament-sizes", default="1920x1080,3840x2160")
    parser.add_argument("--only", default="", help="shoot only these stems (commas)")
    args = parser.parse_args(argv)
    only = {stem for stem in args.only.split(",") if stem}
    sizes = [tuple(int(n) for n in size.split("x")) for size in args.sizes.split(",")]
    kiosk_sizes = [tuple(int(n) for n in size.split("x")) for size in args.kiosk_sizes.split(",")]
    tournament_sizes = [
        tuple(int(n) for n in size.split("x")) for size in args.tournament_sizes.split(",")
    ]
    OUT.mkdir(parents=True, exist_ok=True)  # each picture drawn is written over; none deleted
    with tempfile.TemporaryDirectory() as home:
        runs = [(size, shots) for size in sizes] + [(size, kiosk_shots) for size in kiosk_sizes]
        runs += [(size, tournament_shots) for size in tournament_sizes]
        for (width, height), listed in runs:
            app = App(Paths(Path(home) / "c", Path(home) / "d"), size=(width, height),
                      fullscreen=False)  # fmt: skip
            for stem, show in listed():
                if only and stem not in only:
                    continue
                show(app)
                for _ in range(6):  # the game cards draw a picture a frame
                    app.frame(0.1)
                file = OUT / f"{stem}-{width}x{height}.png"
                pygame.image.save(app.screen, file)
                print(f"wrote {file.relative_to(OUT.parent.parent)}")
                app.settings.board_theme = "wood"
                app.settings.dice_odds = "on"
                sprites.use_theme("wood")
                app.reset(TitleScene(app))
            app.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
