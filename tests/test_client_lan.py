"""LAN play through the real client, driven by synthetic taps and keys: hosting from the
setup screen, joining by address on the keypad, a paused match — against headless peers
over loopback sockets.  The client's LAN settings keep everything on 127.0.0.1."""

from __future__ import annotations

import signal
from pathlib import Path

import pygame
import pytest

from net import records
from tests.client_driver import Driver
from tests.lan import guest, host
from tests.test_redraw import _Checked


@pytest.fixture
def driver(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """The client, every frame of its match screen checked against the screen drawn whole:
    what the network changes (a move, a pause, a notice) is drawn again where it shows."""
    driver = Driver(tmp_path)
    driver.app.settings.lan_interface = "127.0.0.1"
    driver.app.settings.player_name = "Carla"
    checked = _Checked(driver)
    monkeypatch.setattr(pygame.display, "flip", checked.flip)
    monkeypatch.setattr(pygame.display, "update", checked.update)
    yield driver
    driver.app.close()  # every screen lets go of its network link
    assert checked.mismatch is None, checked.mismatch
    assert checked.frames["partial"] > 0, checked.frames  # the match screen was checked


def _port(driver: Driver) -> int:
    driver.until(lambda: driver.scene.link.view().port)
    return driver.scene.link.view().port


@pytest.mark.slow
def test_hosting_from_the_client_and_playing_a_guest_to_the_end(
    driver: Driver, tmp_path: Path
) -> None:
    driver.press("lan")
    driver.press("host")
    driver.press("dama:classic")
    driver.press("code")  # a join code others must type
    code = driver.scene.code
    assert code and len(code) == 4
    driver.press("start")
    assert type(driver.scene).__name__ == "RoomScene"
    port = _port(driver)
    news = driver.app.wakeup.mark()
    anna = guest(tmp_path, port, "anna", "--ai", "easy", "--code", code)
    assert driver.app.wakeup.wait(news, 30), "her arrival did not wake the app"
    driver.until(lambda: driver.scene.view.can_start, anna)
    assert driver.scene._seat_label(1).endswith("anna ✓")
    driver.press("start")
    driver.wait_for_scene("PlayScene")
    driver.play_lan_to_the_end()
    assert type(driver.scene).__name__ == "NetResultsScene"
    assert anna.finish() == 0, anna.tail()
    saved = list((tmp_path / "data" / "lan").glob("*.tavolo-net"))
    assert len(saved) == 1
    report = records.verify(records.load(saved[0]))
    assert report["ok"] and report["digest"] == anna.last("over")["digest"]
    assert "rematch" not in [t.name for t in driver.scene.targets]


def _join_on_the_keypad(driver: Driver, port: int, server) -> None:
    """From the title to a seat in the room of the host at ``port``, its address typed."""
    driver.press("lan")
    driver.press("address")
    for char in f"127.0.0.1:{port}":
        driver.press(f"key {char}")
    driver.press("ok")
    driver.press("ok")  # no join code
    driver.wait_for_scene("RoomScene")
    driver.until(lambda: driver.scene.view.my_seat is not None, server)
    driver.frame()


@pytest.mark.slow
def test_joining_by_address_on_the_keypad_and_playing_with_shared_dice(
    driver: Driver, tmp_path: Path
) -> None:
    server, port = host(tmp_path, "numeri", "--ai", "easy")
    _join_on_the_keypad(driver, port, server)
    driver.press("ready")
    driver.wait_for_scene("PlayScene")
    driver.play_lan_to_the_end()
    assert type(driver.scene).__name__ == "NetResultsScene"
    assert server.finish() == 0, server.tail()
    assert driver.scene.match.state.digest() == server.last("over")["digest"]


@pytest.mark.slow
def test_a_dropped_player_pauses_the_match_on_the_screen(driver: Driver, tmp_path: Path) -> None:
    driver.press("lan")
    driver.press("host")
    driver.press("dama:classic")
    driver.press("start")
    anna = guest(tmp_path, _port(driver), "anna", "--ai", "easy", "--pace", "0.05")
    driver.until(lambda: driver.scene.view.can_start, anna)
    driver.frame()
    driver.press("start")
    driver.wait_for_scene("PlayScene")
    play = driver.scene
    while play.state.to_move != 1:  # our first move, then anna's turn
        driver.frame()
        if not play.locked:
            step = driver.taps(play, play.state, driver.choose(play.state))
            for tap in step:
                driver.tap(tap)
    anna.popen.send_signal(signal.SIGKILL)
    anna.finish()
    # On the clock, not a count of frames: under a loaded machine 600 quick frames could
    # pass before the host had read the closed connection (seen once in CI).
    driver.until(lambda: play.control.net.paused, seconds=30)
    driver.frame(30)  # the last move's animation ends, the buttons are remade
    assert play.status() == "Waiting for anna…"
    assert not driver.target("hand over").enabled()  # not before the drop timeout


@pytest.mark.slow
def test_joining_a_match_under_way_watches_it_from_where_it_stands(
    driver: Driver, tmp_path: Path
) -> None:
    server, port = host(tmp_path, "dama", "--ai", "easy", "--pace", "0.05")
    anna = guest(tmp_path, port, "anna", "--ai", "easy", "--pace", "0.05")
    server.wait_for("action", ply=6)
    driver.press("lan")
    driver.press("address")
    for char in f"127.0.0.1:{port}":
        driver.press(f"key {char}")
    driver.press("ok")
    driver.press("ok")
    driver.wait_for_scene("PlayScene")
    play = driver.scene
    assert len(play.match.record.actions) >= 6  # caught up at once, not move by move
    driver.until(lambda: "Carla" in play.control.net.spectators)  # logged once caught up
    assert play.control.net.my_seat is None and "Carla" in play.control.net.spectators
    assert play.locked
    driver.wait_for_scene("NetResultsScene", seconds=60)
    assert anna.finish() == 0 and server.finish() == 0
    assert driver.scene.match.state.digest() == server.last("over")["digest"]


@pytest.mark.slow
@pytest.mark.parametrize("host_allows", [True, False])
def test_hints_come_to_a_lan_match_only_when_every_player_allowed_them(
    driver: Driver, tmp_path: Path, host_allows: bool
) -> None:
    extra = ("--ai", "easy", "--allow-hints") if host_allows else ("--ai", "easy")
    server, port = host(tmp_path, "dama", *extra)
    _join_on_the_keypad(driver, port, server)
    assert driver.scene._coach_label() == "Hints and odds: you do not allow them"
    driver.press("coach")
    driver.until(lambda: driver.scene.view.seats[driver.scene.view.my_seat].coach, server)
    assert driver.scene.view.coaching is host_allows
    driver.press("ready")
    driver.wait_for_scene("PlayScene")
    play = driver.scene
    assert play.control.coaching is host_allows
    assert ("hint" in [t.name for t in play.targets]) is host_allows
    driver.frame(20)  # the match screen drawn in parts meanwhile, and checked
    server.popen.kill()
    server.finish()
