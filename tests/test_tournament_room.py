"""The tournament's room and TV screen in the real client (game/client/scenes/tournament.py,
tournament_tv.py), driven by synthetic taps: a room that joins a real director over
loopback (``python -m net tournament host``) and plays to the end with the director's
digest; the TV's standings and winner; and what goes wrong — an address nobody answers at,
a wrong join code, a director that goes away — said in words, never a crash."""

from __future__ import annotations

import socket
import time
from dataclasses import replace
from pathlib import Path

import pygame
import pytest

from game.client import theme
from game.client.kiosk_config import KioskConfig
from game.client.navigator import Screen, make
from game.client.scenes import tournament as room_module
from game.client.scenes.tournament import TournamentRoomScene
from game.rules import new_game, variant
from game.tournament import Format, Player, Tournament
from net.__main__ import main as net_main
from net.testing.peer_process import PeerProcess
from net.tournament_link import GameView, StandingView, TournamentView
from tests.client_driver import Driver

HANG = 240.0


@pytest.fixture
def driver(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(room_module, "PACE", 0.0)
    driver = Driver(tmp_path)
    driver.app.settings.lan_interface = "127.0.0.1"
    driver.app.settings.player_name = "Carla"
    yield driver
    driver.app.close()  # every screen lets go of its link


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every text drawn fitted to its room (the tables, the lines, the titles)."""
    texts: list[str] = []
    fitted = theme.fitted

    def recording(message: str, *args, **kwargs):
        texts.append(message)
        return fitted(message, *args, **kwargs)

    monkeypatch.setattr(theme, "fitted", recording)
    return texts


def _director(tmp: Path, *extra: str) -> tuple[PeerProcess, int]:
    process = PeerProcess.net(
        "tournament", "host", "mulino", "--interface", "127.0.0.1", "--no-advertise",
        "--format", "round-robin", "--think", "0.05", *extra, cwd=tmp,
    )  # fmt: skip
    return process, process.wait_for("listening")["port"]


def _player(tmp: Path, port: int, name: str, *extra: str) -> PeerProcess:
    return PeerProcess.net(
        "tournament", "join", f"127.0.0.1:{port}", "--ai", "easy", "--interface", "127.0.0.1",
        "--name", name, "--identity", str(tmp / f"{name}.id"), "--think", "0.05", *extra,
        cwd=tmp,
    )  # fmt: skip


def _join(
    driver: Driver,
    port: int,
    code: str = "",
    who: str = "level easy",
    then: str = "TournamentRoomScene",
) -> None:
    """From the title to the room of the director at ``port``, typed on the keypads, its
    games played as ``who`` says (``myself``, ``level …``, ``watch``)."""
    driver.press("lan")
    driver.press("tournaments")
    driver.press("join")
    for char in f"127.0.0.1:{port}":
        driver.press(f"key {char}")
    driver.press("ok")
    for char in code:
        driver.press(f"key {char}")
    driver.press("ok")
    driver.press(who)
    driver.wait_for_scene(then)


@pytest.mark.slow
def test_a_room_plays_a_tournament_of_a_real_director_to_its_digest(
    driver: Driver, tmp_path: Path, drawn: list[str]
) -> None:
    boss, port = _director(tmp_path, "--players", "2", "--code", "4321")
    bea = _player(tmp_path, port, "Bea", "--code", "4321")
    try:
        _join(driver, port, "4321")
        room = driver.scene
        driver.until(lambda: room.view.round >= 1, boss, bea, seconds=60)
        view = room.view
        assert {"Carla", "Bea"} == set(view.entrants)
        assert [(g.mine, g.result) for g in view.games] == [(True, None)]
        assert view.next_opponent == "Bea"
        driver.until(lambda: room.view.phase == "over", boss, bea, seconds=HANG)
        over = boss.wait_for("over", timeout=HANG)
        assert room.view.digest == over["digest"]
        assert [s.name for s in room.view.standings] == [s["name"] for s in over["standings"]]
        assert room.view.winner == over["standings"][0]["name"]
        drawn.clear()
        driver.frame()
        assert "Standings" in drawn and "Cross table" in drawn
        assert any(over["standings"][0]["name"] in text for text in drawn)
        driver.press("export page")
        assert room.exported is not None and room.exported.suffix == ".html"
        assert "Carla" in room.exported.read_text()
        driver.press("export csv")
        assert room.exported.suffix == ".csv"
        assert room.exported.read_text().startswith("rank,name,")
        driver.press("export games")
        files = sorted(p.name for p in room.exported.iterdir())
        pair = {"round-1-board-1-Carla-Bea.tavolo-net", "round-1-board-1-Bea-Carla.tavolo-net"}
        assert len(files) == 2 and files[0] in pair and files[1] == "tournament.tavolo-tournament"
        assert room.notice == f"1 game and the tournament record are saved in {room.exported}"
        for name in files:  # what python -m net verify says of each
            assert net_main(["verify", str(room.exported / name)]) == 0
        driver.press("tv")
        driver.wait_for_scene("TournamentTvScene")
        drawn.clear()
        driver.frame(3)
        assert driver.scene.celebrated
        assert f"Winner: {room.view.winner}" in drawn
        driver.press("back")
        driver.wait_for_scene("TournamentRoomScene")
        assert bea.finish(HANG) == 0, bea.tail()
    finally:
        boss.kill()
        bea.kill()


def test_an_address_nobody_answers_at_is_said(driver: Driver) -> None:
    with socket_port() as port:  # bound, never listening: refused at once
        _join(driver, port)
        room = driver.scene
        driver.until(lambda: room.view.error is not None, seconds=10)
    assert room.view.phase == "failed"
    assert "cannot be reached" in room.view.error
    assert any("No tournament" in line for line in room.lines())
    driver.frame()
    driver.press("leave")
    driver.wait_for_scene("TitleScene")


def test_a_wrong_join_code_is_refused_in_words(driver: Driver, tmp_path: Path) -> None:
    boss, port = _director(tmp_path, "--players", "2", "--code", "1234")
    try:
        _join(driver, port, "9999")
        room = driver.scene
        driver.until(lambda: room.view.error is not None, boss, seconds=20)
        assert "wrong join code" in room.view.error
        driver.frame()
        driver.press("tv")  # the TV of a tournament that never began says so too
        driver.wait_for_scene("TournamentTvScene")
        driver.frame()
    finally:
        boss.kill()


@pytest.mark.slow
def test_a_director_that_goes_away_is_said_and_nothing_crashes(
    driver: Driver, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(room_module, "RECONNECT", 1.0)
    boss, port = _director(tmp_path, "--players", "3")
    try:
        _join(driver, port)
        room = driver.scene
        driver.until(lambda: "Carla" in room.view.entrants, boss, seconds=20)
        assert room.view.phase == "waiting"  # the others not in: a joiner waits for round 1
        assert "Waiting for the first round" in room.lines()
        driver.press("leave")  # under way: asked once more
        driver.wait_for_scene("LeaveScene")
        assert "without you" in driver.scene.subtitle()
        driver.press("stay")
        driver.wait_for_scene("TournamentRoomScene")
        boss.kill()
        driver.until(lambda: room.view.error is not None, seconds=20)
        assert "cannot be reached" in room.view.error
        assert any("director was lost" in notice for notice in room.view.notices)
        driver.frame()
        driver.press("leave")
        driver.wait_for_scene("TitleScene")
    finally:
        boss.kill()


class socket_port:  # noqa: N801 - a context manager read as a phrase
    """A loopback port bound and not listening: a connection to it is refused."""

    def __enter__(self) -> int:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        return self.sock.getsockname()[1]

    def __exit__(self, *exc: object) -> None:
        self.sock.close()


# -- the screens' layout, from a view made by hand -----------------------------------------


class _Link:
    def __init__(self, view: TournamentView) -> None:
        self._view = view

    def view(self) -> TournamentView:
        return self._view

    def game_link(self, game: tuple[int, int]) -> None:
        return None

    def game_files(self) -> list[tuple[str, bytes]]:
        return []

    def close(self) -> None:
        pass


def _over_view(players: int = 8) -> TournamentView:
    names = [f"Giocatore con un nome lungo {n}" for n in range(players)]
    people = [Player(n + 1, f"p{n}", name) for n, name in enumerate(names)]
    tournament = Tournament.create(variant("mulino", 2), Format.ROUND_ROBIN, people)
    standings = tuple(
        StandingView(n + 1, name, float(players - n), (float(n),), n == 3, n == 5)
        for n, name in enumerate(names)
    )
    games = tuple(
        GameView(
            1, b, names[2 * b], names[2 * b + 1], {1: "1-0", 3: "-/-"}.get(b), b == 0, b == 0, 17
        )
        for b in range(players // 2)
    )
    cross = tuple(tuple("×" if i == j else "1 ½" for j in range(players)) for i in range(players))
    return TournamentView(
        phase="over", directing=True, port=40000, code="1234", name="Torneo del giovedì sera",
        game="mulino:classic", format="round-robin", entrants=tuple(names), round=7, rounds=7,
        games=games, standings=standings, tie_breaks=("Sonneborn–Berger",),
        cross_names=tuple(names), cross=cross, me="p0", my_name=names[0],
        winner=names[0], digest="ab" * 16, tournament=tournament,
    )  # fmt: skip


@pytest.mark.parametrize("size", [(1024, 600), (1920, 1080), (3840, 2160)])
def test_the_room_and_the_tv_fit_every_screen(
    tmp_path: Path, size: tuple[int, int], drawn: list[str]
) -> None:
    driver = Driver(tmp_path, size=size)
    try:
        link = _Link(_over_view())
        room = TournamentRoomScene(driver.app, link)
        driver.app.push(room)
        driver.frame(2)
        assert "Standings" in drawn and "This round" in drawn
        assert "Winner: Giocatore con un nome lungo 0" in drawn
        assert "-/- not scored" in drawn  # a game whose match forked: shown, not scored
        for target in room.targets:
            assert driver.app.screen.get_rect().contains(target.rect), target.name
            assert target.rect.height >= theme.TOUCH
        drawn.clear()
        driver.app.push(make(Screen.TOURNAMENT_TV, driver.app, link))
        driver.frame(3)
        assert driver.scene.celebrated
        assert "Winner: Giocatore con un nome lungo 0" in drawn
        assert "Standings" in drawn
        surface = pygame.display.get_surface()
        assert surface.get_size() == size
    finally:
        driver.app.close()


@pytest.mark.slow
def test_a_person_plays_their_own_game_on_the_match_screen_and_comes_back(
    driver: Driver, tmp_path: Path
) -> None:
    boss, port = _director(tmp_path, "--players", "2")
    bea = _player(tmp_path, port, "Bea")
    try:
        _join(driver, port, who="myself")
        room = driver.scene
        driver.wait_for_scene("PlayScene", seconds=60)  # the game begun: to the board
        assert type(driver.scene.control).__name__ == "TournamentGameControl"
        driver.play_lan_to_the_end(seconds=HANG)
        driver.wait_for_scene("TournamentResultsScene")
        played = driver.scene.match
        assert played.state.is_terminal() and len(played.record.actions) > 10
        driver.press("room")
        driver.wait_for_scene("TournamentRoomScene")
        assert driver.scene is room
        driver.until(lambda: room.view.phase == "over", boss, bea, seconds=HANG)
        over = boss.wait_for("over", timeout=HANG)
        assert room.view.digest == over["digest"]
        assert over_result(room) in ("1-0", "0-1", "½-½")  # scored from the record played
        assert bea.finish(HANG) == 0, bea.tail()
    finally:
        boss.kill()
        bea.kill()


def over_result(room) -> str | None:
    """The result of the person's game as the room shows it, once the log scored it."""
    return next((g.result for g in room.view.games if g.mine), None)


@pytest.mark.slow
def test_directing_from_the_client_to_the_end(driver: Driver, tmp_path: Path) -> None:
    driver.press("lan")
    driver.press("tournaments")
    driver.press("direct")
    while driver.scene.players != 2:
        driver.press("fewer")
    driver.press("mine")  # your games: the computer, easy
    assert driver.scene.my_level == "easy"
    driver.press("code")
    code = driver.scene.code
    driver.press("start")
    driver.wait_for_scene("TournamentRoomScene")
    room = driver.scene
    driver.until(lambda: room.view.port != 0, seconds=20)
    assert room.view.directing and room.view.code == code
    assert any(code in line for line in room.lines())
    bea = _player(tmp_path, room.view.port, "Bea", "--code", code)
    try:
        driver.until(lambda: room.view.phase == "over", bea, seconds=HANG)
        over = bea.wait_for("over", timeout=HANG)
        assert room.view.digest == over["digest"]
        assert {s.name for s in room.view.standings} == {"Carla", "Bea"}
        assert bea.finish(HANG) == 0, bea.tail()
    finally:
        bea.kill()


def test_the_tv_gives_way_to_the_room_when_the_persons_game_begins(tmp_path: Path) -> None:
    driver = Driver(tmp_path)
    try:
        link = _Link(replace(_over_view(), phase="playing", winner=None))
        room = TournamentRoomScene(driver.app, link)
        driver.app.push(room)
        driver.app.push(make(Screen.TOURNAMENT_TV, driver.app, link))
        driver.frame(2)
        assert type(driver.scene).__name__ == "TournamentTvScene"
        link._view = replace(link._view, my_game=(7, 0))
        link.game_link = lambda game: object()  # type: ignore[method-assign]
        room._can_play = lambda: False  # type: ignore[method-assign]  # no match to show here
        driver.frame(3)
        assert driver.scene is room
    finally:
        driver.app.close()


def test_a_headless_player_without_the_join_code_is_refused(tmp_path: Path) -> None:
    boss, port = _director(tmp_path, "--players", "2", "--code", "1234")
    bea = _player(tmp_path, port, "Bea")
    try:
        refused = bea.wait_for("refused", timeout=20)
        assert "this tournament needs a join code" in refused["reason"]
        assert bea.finish(20) == 1
    finally:
        boss.kill()
        bea.kill()


@pytest.mark.slow
def test_directing_only_shows_the_others_tournament_to_its_end(
    driver: Driver, tmp_path: Path
) -> None:
    driver.press("lan")
    driver.press("tournaments")
    driver.press("direct")
    while driver.scene.players != 2:
        driver.press("fewer")
    while driver.scene.plays:
        driver.press("mine")  # you: direct only
    driver.press("start")
    driver.wait_for_scene("TournamentRoomScene")
    room = driver.scene
    driver.until(lambda: room.view.port != 0, seconds=20)
    port = room.view.port
    bea, ugo = _player(tmp_path, port, "Bea"), _player(tmp_path, port, "Ugo")
    try:
        driver.until(lambda: room.view.phase == "over", bea, ugo, seconds=HANG)
        over = bea.wait_for("over", timeout=HANG)
        assert room.view.digest == over["digest"]
        assert {s.name for s in room.view.standings} == {"Bea", "Ugo"}
        assert room.view.next_opponent is None and not any(g.mine for g in room.view.games)
        assert bea.finish(HANG) == 0 and ugo.finish(HANG) == 0
    finally:
        bea.kill()
        ugo.kill()


def test_a_kiosk_keeps_a_tournaments_tv_however_long_nobody_touches_it(tmp_path: Path) -> None:
    config = KioskConfig(attract_after=10, abandon_after=20, countdown=5, dim_after=3600)
    driver = Driver(tmp_path, size=(1920, 1080), kiosk=config)
    try:
        link = _Link(replace(_over_view(), phase="playing", winner=None))
        driver.app.push(TournamentRoomScene(driver.app, link))
        driver.app.push(make(Screen.TOURNAMENT_TV, driver.app, link))
        for _ in range(60):  # a minute of app time, untouched
            driver.app.frame(1.0)
        assert type(driver.scene).__name__ == "TournamentTvScene"
    finally:
        driver.app.close()
        theme.set_scale(1.0)


def test_the_tv_draws_each_game_under_way_as_a_live_board_and_nothing_it_cannot_read(
    tmp_path: Path, drawn: list[str]
) -> None:
    """Four games of a Mulino round: one moving (its picture drawn again only when its
    position changes), one finished (its result instead of a board), one whose White sent
    bytes that are no position and one a position of another game — neither drawn, and
    nothing breaks."""
    driver = Driver(tmp_path, size=(1920, 1080))
    try:
        mulino = new_game("mulino:classic")
        moved = mulino.apply(mulino.legal_actions()[0])
        view = _over_view()
        games = (
            replace(view.games[0], result=None, position=mulino.encode()),
            replace(view.games[1], result="1-0", position=None),
            replace(view.games[2], result=None, position=b"\x93\x01not a state"),
            replace(view.games[3], result=None, position=new_game("numeri").encode()),
        )
        link = _Link(replace(view, phase="playing", winner=None, games=games))
        driver.app.push(make(Screen.TOURNAMENT_TV, driver.app, link))
        driver.frame(2)
        tv = driver.scene
        assert set(tv.pictures) == {0}  # the one readable position of this game
        first = tv.pictures[0][1]
        driver.frame(2)
        assert tv.pictures[0][1] is first  # unchanged: not drawn again
        link._view = replace(link._view, games=(replace(games[0], position=moved.encode()),
                                                *games[1:]))  # fmt: skip
        driver.frame(2)
        assert tv.pictures[0][1] is not first
        assert any(text.startswith("2 · ") and text.endswith("· 1-0") for text in drawn)
    finally:
        driver.app.close()


@pytest.mark.slow
def test_any_tavolo_can_only_watch_a_tournament_on_its_tv(
    driver: Driver, tmp_path: Path, drawn: list[str]
) -> None:
    """From the join screen, "Only watch": the room with the TV on top, following the
    tournament as the two players play it — never entered, the boards drawn live."""
    boss, port = _director(tmp_path, "--players", "2")
    try:
        _join(driver, port, who="watch", then="TournamentTvScene")
        tv = driver.scene
        assert tv.link.config.watch
        boss.wait_for("watching", timeout=HANG)
        players = [_player(tmp_path, port, name, "--pace", "0.05") for name in ("Anna", "Bea")]
        driver.until(lambda: bool(tv.pictures), boss, *players, seconds=HANG)
        driver.until(lambda: tv.view.phase == "over", boss, *players, seconds=HANG)
        assert tv.celebrated and {s.name for s in tv.view.standings} == {"Anna", "Bea"}
        assert not any(g.mine for g in tv.view.games)
        for process in players:
            assert process.finish(HANG) == 0, process.tail()
        driver.press("back")
        driver.wait_for_scene("TournamentRoomScene")
    finally:
        boss.kill()


@pytest.mark.slow
def test_a_time_a_round_is_set_up_and_the_room_says_when_the_round_ends(
    driver: Driver, tmp_path: Path
) -> None:
    """The setup's "Time a round" steps through its choices; the director's log holds it;
    once round 1 is paired the room says when it ends, by this computer's clock."""
    driver.press("lan")
    driver.press("tournaments")
    driver.press("direct")
    while driver.scene.players != 2:
        driver.press("fewer")
    driver.press("mine")  # the computer plays this person's games
    driver.press("time")
    driver.press("time")
    assert driver.scene.minutes == 30
    driver.press("start")
    driver.wait_for_scene("TournamentRoomScene")
    room = driver.scene
    driver.until(lambda: room.view.port != 0, seconds=20)
    assert room.link.director.log.time == 1800
    assert room.view.round_ends is None  # no round yet: nothing ends
    bea = _player(tmp_path, room.view.port, "Bea")
    try:
        driver.until(lambda: room.view.round >= 1, bea, seconds=HANG)
        ends = room.view.round_ends
        assert ends is not None and abs(ends - (room.view.round_seen + 1800)) < 1e-6
        clock = time.strftime("%H:%M", time.localtime(ends))
        assert any(f"ends at {clock}" in line for line in room.lines())
    finally:
        bea.kill()
