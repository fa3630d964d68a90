"""The kiosk operator's service menu and what it looks after: matches nobody came back to,
usage counters, opening hours, the touch test, the health page, the factory reset and the
turned screen."""

from __future__ import annotations

import json
import logging
import os
import time
from pathlib import Path

import pygame
import pytest

from game.client import theme
from game.client.kiosk_config import FILE, KioskConfig
from game.client.kiosk_usage import RUNNING, KioskUsage
from tests.client_driver import Driver
from tests.test_kiosk import _long_press_corner, _type, _wait


def _kiosk(tmp_path: Path, size: tuple[int, int] = (1920, 1080), **settings) -> Driver:
    config = KioskConfig(**{"attract_after": 10, "abandon_after": 20, "countdown": 5,
                            "dim_after": 30, **settings})  # fmt: skip
    return Driver(tmp_path, size=size, kiosk=config)


@pytest.fixture
def kiosk(tmp_path: Path):
    driver = _kiosk(tmp_path)
    yield driver
    driver.app.close()
    theme.set_scale(1.0)


def _operator(kiosk: Driver) -> None:
    _long_press_corner(kiosk, 3.5)
    _type(kiosk, "2580")
    assert type(kiosk.scene).__name__ == "OperatorScene"


def _later(kiosk: Driver, seconds: float) -> None:
    """The wall clock ``seconds`` ahead (saves' times are the disk's, not the app's)."""
    kiosk.app.wall_clock = lambda: time.time() + seconds


def _resume_offered(kiosk: Driver) -> bool:
    return any(t.name.startswith("resume") for t in kiosk.scene.targets)


def test_a_match_left_with_leave_is_gone_from_the_next_visitors_title(tmp_path: Path) -> None:
    kiosk = _kiosk(tmp_path, attract_after=60)
    kiosk.start("dama:classic")
    kiosk.play_one()
    kiosk.press("menu")
    kiosk.press("leave")
    assert type(kiosk.scene).__name__ == "TitleScene" and _resume_offered(kiosk)
    _later(kiosk, 20)  # within the abandon time and its countdown: the visitor may be back
    _wait(kiosk, 6)
    assert _resume_offered(kiosk)
    _later(kiosk, 26)  # past them: nobody came back for it
    _wait(kiosk, 6)
    assert type(kiosk.scene).__name__ == "TitleScene" and not _resume_offered(kiosk)
    assert kiosk.app.saves.unfinished().total == 0
    _wait(kiosk, 61)  # the demos, and a new visitor's touch: no stranger's match
    assert type(kiosk.scene).__name__ == "AttractScene"
    kiosk.tap((600, 600))
    assert type(kiosk.scene).__name__ == "TitleScene" and not _resume_offered(kiosk)
    kiosk.app.close()
    theme.set_scale(1.0)


def test_a_match_carried_over_a_restart_is_offered_only_within_the_abandon_time(
    tmp_path: Path,
) -> None:
    first = _kiosk(tmp_path)
    first.start("mulino:classic")
    first.play_one()
    first.app.saves.flush()
    [save] = (tmp_path / "data" / "unfinished").glob("*.tavolo")
    first.app.close()  # a restart: the kiosk comes back at once, the visitor may be there
    again = _kiosk(tmp_path)
    try:
        assert _resume_offered(again)
    finally:
        again.app.close()
    old = time.time() - 26
    os.utime(save, (old, old))  # the kiosk was off longer than the abandon time
    later = _kiosk(tmp_path)
    try:
        assert not _resume_offered(later) and not save.exists()
    finally:
        later.app.close()
        theme.set_scale(1.0)


def test_a_match_being_played_is_never_swept_however_long_its_last_move(kiosk: Driver) -> None:
    kiosk.start("dama:classic")
    kiosk.play_one()
    kiosk.app.saves.flush()
    _later(kiosk, 3600)
    kiosk.app.kiosk_watch.sweep_abandoned()
    assert kiosk.app.saves.store.unfinished().total == 1


def test_usage_counts_plays_time_starts_and_crashes(tmp_path: Path) -> None:
    kiosk = _kiosk(tmp_path)
    kiosk.start("numeri")
    while not kiosk.scene.match.begun:
        kiosk.play_one()
    for _ in range(30):
        kiosk.app.frame(0.5)
        kiosk.tap((5, 500))  # somebody there: no countdown
    _operator(kiosk)
    kiosk.press("usage")
    lines = [text for text, _ in kiosk.scene.lines()]
    assert any(line.startswith("Numeri: 1 play, ") for line in lines), lines
    assert "Starts: 1 · crashes: 0" in lines
    usage = kiosk.app.usage
    assert usage is not None and usage.counters.seconds["numeri"] >= 14
    kiosk.app.close()  # a clean stop: the counters kept, no footprint
    assert not (tmp_path / "data" / RUNNING).exists()
    stored = json.loads((tmp_path / "data" / "kiosk-usage.json").read_text())
    assert stored["plays"] == {"numeri": 1} and stored["starts"] == 1
    crashed = KioskUsage(tmp_path / "data")
    crashed.started()  # a run that never stops cleanly leaves its footprint...
    after = KioskUsage(tmp_path / "data")
    after.started()  # ...which the next start counts
    assert (after.counters.starts, after.counters.crashes) == (3, 1)
    theme.set_scale(1.0)


def test_broken_usage_counters_start_again_from_zero(tmp_path: Path) -> None:
    (tmp_path / "kiosk-usage.json").write_text('{"starts": "many", "plays": {"numeri": -4}}')
    usage = KioskUsage(tmp_path)
    usage.started()
    assert usage.counters.starts == 1 and usage.counters.plays == {}


def test_outside_the_opening_hours_the_screen_is_closed_and_opens_again(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    now = time.localtime()
    minutes = now.tm_hour * 60 + now.tm_min
    opens = (minutes + 60) % 1440  # an hour from now, for two hours
    closes = (opens + 120) % 1440
    hours = f"{opens // 60:02d}:{opens % 60:02d}-{closes // 60:02d}:{closes % 60:02d}"
    kiosk = _kiosk(tmp_path, opening_hours=hours)
    try:
        with caplog.at_level(logging.INFO):
            _wait(kiosk, 11)
        assert type(kiosk.scene).__name__ == "ClosedScene" and kiosk.scene.fps <= 2
        assert "closed" in caplog.text
        kiosk.tap((600, 600))  # a touch lights the hours; nothing opens
        assert type(kiosk.scene).__name__ == "ClosedScene" and kiosk.scene.lit_until > 0
        _long_press_corner(kiosk, 3.5)  # the operator can still get in
        assert type(kiosk.scene).__name__ == "KeypadScene"
        kiosk.press("cancel")
        _later(kiosk, 3600 + 60)
        _wait(kiosk, 1)
        assert type(kiosk.scene).__name__ == "AttractScene"
    finally:
        kiosk.app.close()
        theme.set_scale(1.0)


@pytest.mark.parametrize(
    ("hours", "minute", "open_"),
    [("09:00-23:00", 8 * 60 + 59, False), ("09:00-23:00", 9 * 60, True),
     ("09:00-23:00", 23 * 60, False), ("18:00-02:00", 1 * 60, True),
     ("18:00-02:00", 12 * 60, False), ("", 3 * 60, True)],
)  # fmt: skip
def test_opening_hours_may_run_past_midnight(hours: str, minute: int, open_: bool) -> None:
    assert KioskConfig(opening_hours=hours).is_open(minute) is open_


def _finger(kind: int, finger: int, x: float, y: float) -> None:
    pygame.event.post(pygame.event.Event(kind, touch_id=1, finger_id=finger, x=x, y=y, dx=0.0,
                                         dy=0.0, pressure=1.0))  # fmt: skip


def test_the_touch_test_draws_every_finger_where_it_lands(kiosk: Driver) -> None:
    _operator(kiosk)
    kiosk.press("service")
    kiosk.press("touch test")
    test = kiosk.scene
    _finger(pygame.FINGERDOWN, 1, 0.25, 0.5)
    _finger(pygame.FINGERDOWN, 2, 0.75, 0.5)
    kiosk.frame()
    assert sorted(test.fingers.values()) == [(480, 540), (1440, 540)]
    _finger(pygame.FINGERUP, 1, 0.25, 0.5)
    kiosk.frame()
    assert list(test.fingers.values()) == [(1440, 540)] and len(test.marks) >= 2
    _finger(pygame.FINGERUP, 2, 0.75, 0.5)
    kiosk.frame()
    kiosk.press("back")
    assert type(kiosk.scene).__name__ == "ServiceScene"


def test_the_sound_and_language_tests(kiosk: Driver) -> None:
    _operator(kiosk)
    kiosk.press("service")
    kiosk.press("sound test")
    assert "1 of 8" in kiosk.scene.subtitle() or "nothing can be heard" in kiosk.scene.subtitle()
    kiosk.press("language test")
    shown = [text for text, _ in kiosk.scene.lines()]
    assert "    Tocca per giocare" in shown and "    Zum Spielen berühren" in shown


def test_the_health_page_shows_the_disk_and_the_last_problems(kiosk: Driver) -> None:
    logging.getLogger("game.test").error("the printer caught fire")
    _operator(kiosk)
    kiosk.press("health")
    lines = [text for text, _ in kiosk.scene.lines()]
    assert lines[0].startswith("Disk: ") and "MB free" in lines[0]
    assert any(line.endswith("error: the printer caught fire") for line in lines)
    assert "Saves put aside: 0" in lines


def test_the_factory_reset_asks_twice_and_keeps_the_pin(kiosk: Driver) -> None:
    _operator(kiosk)
    kiosk.app.kiosk.set_pin("730519", kiosk.app.paths.config)
    kiosk.app.kiosk.games = ["numeri"]
    kiosk.app.kiosk.save(kiosk.app.paths.config)
    finished = kiosk.app.saves.store.directory / "finished"
    finished.mkdir(parents=True)
    (finished / "0000000000000001-30.tavolo").write_bytes(b"x")
    kiosk.press("factory reset")
    kiosk.press("yes")
    assert type(kiosk.scene).__name__ == "ConfirmScene"  # the second question
    kiosk.press("no")
    assert kiosk.app.kiosk.games == ["numeri"]  # nothing happened
    kiosk.press("factory reset")
    kiosk.press("yes")
    kiosk.press("yes")
    assert type(kiosk.scene).__name__ == "OperatorScene"
    assert kiosk.scene.subtitle() == "Everything is back as it came."
    saved = KioskConfig.load(kiosk.app.paths.config)
    assert saved == KioskConfig() and saved.pin_matches("730519")
    assert not list(finished.glob("*.tavolo"))


def test_a_turned_screen_shows_the_picture_turned_and_turns_taps_back(tmp_path: Path) -> None:
    kiosk = _kiosk(tmp_path, rotation=270)
    try:
        app = kiosk.app
        assert app.screen.get_size() == (1080, 1920)
        kiosk.frame()
        app.screen.fill((0, 0, 0))
        app.screen.fill((255, 0, 0), pygame.Rect(0, 0, 10, 10))  # the picture's top left
        app._present(None)
        # turned 270° clockwise, the picture's top left is the window's bottom left
        assert app.display.get_at((2, 1080 - 3))[:3] == (255, 0, 0)
        assert app.display.get_at((1920 - 3, 2))[:3] == (0, 0, 0)
        x, y = kiosk.target("new game").rect.center
        kiosk.click((y, 1080 - 1 - x))
        assert type(kiosk.scene).__name__ != "TitleScene"
    finally:
        kiosk.app.close()
        theme.set_scale(1.0)


@pytest.mark.parametrize("size", [(1024, 600), (1920, 1080)])
def test_every_operator_page_fits_the_screen(tmp_path: Path, size: tuple[int, int]) -> None:
    kiosk = _kiosk(tmp_path, size=size)
    try:
        _operator(kiosk)
        window = pygame.Rect((0, 0), size)
        for page in ("settings", "usage", "service", "health", "set aside", None):
            if page is not None:
                kiosk.press(page)
            for target in kiosk.scene.targets:
                assert window.contains(target.rect), (page, target.name, target.rect)
            kiosk.frame()
            if page is not None:
                kiosk.press("back")
    finally:
        kiosk.app.close()
        theme.set_scale(1.0)


def test_the_file_written_by_the_menu_is_the_owners_only(kiosk: Driver) -> None:
    _operator(kiosk)
    kiosk.press("settings")
    kiosk.press("lan_hosting")
    assert (kiosk.app.paths.config / FILE).stat().st_mode & 0o777 == 0o600


def test_a_match_opened_but_not_begun_is_no_play(tmp_path: Path) -> None:
    usage = KioskUsage(tmp_path)
    usage.started()
    usage.tick(30.0, ("dama:classic", 7, False))  # on the board, nobody moved yet
    assert usage.counters.plays == {} and usage.counters.seconds["dama:classic"] == 30.0
    usage.tick(1.0, ("dama:classic", 7, True))
    usage.tick(1.0, ("dama:classic", 7, True))  # the same match: one play
    usage.tick(1.0, ("numeri", 8, True))
    assert usage.counters.plays == {"dama:classic": 1, "numeri": 1}


def test_the_demos_give_way_to_the_closed_screen_at_closing_time(tmp_path: Path) -> None:
    now = time.localtime()
    minutes = now.tm_hour * 60 + now.tm_min
    closes = (minutes + 10) % 1440  # open now, closing in ten minutes
    opens = (closes + 600) % 1440
    hours = f"{opens // 60:02d}:{opens % 60:02d}-{closes // 60:02d}:{closes % 60:02d}"
    kiosk = _kiosk(tmp_path, opening_hours=hours)
    try:
        _wait(kiosk, 11)
        assert type(kiosk.scene).__name__ == "AttractScene"
        _later(kiosk, 11 * 60)  # closing time comes while the demos play
        _wait(kiosk, 1)
        assert type(kiosk.scene).__name__ == "ClosedScene"
    finally:
        kiosk.app.close()
        theme.set_scale(1.0)


def test_the_service_menu_opened_during_a_match_never_falls_to_a_visitors_touch(
    tmp_path: Path,
) -> None:
    """Opened over a match and left: no "Still playing?" countdown over it (a visitor's touch
    on that would have gone back to the unlocked menu); it closes into the demos."""
    kiosk = _kiosk(tmp_path, attract_after=30, abandon_after=20)
    try:
        kiosk.start("mulino:classic")
        kiosk.play_one()
        _operator(kiosk)
        kiosk.press("settings")
        _wait(kiosk, 25)  # past the abandon time: no countdown over the staff's screens
        assert type(kiosk.scene).__name__ == "SettingsScene"
        _wait(kiosk, 6)
        assert type(kiosk.scene).__name__ == "AttractScene"
        kiosk.tap((600, 600))
        assert type(kiosk.scene).__name__ == "TitleScene"  # locked again
    finally:
        kiosk.app.close()
        theme.set_scale(1.0)
