"""Kiosk mode: locked for the public, opened by the operator's PIN, demos when idle,
abandoned matches ended, errors recovered, a configuration that never stops the start."""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pygame
import pytest

from game.client import theme
from game.client.kiosk_config import FILE, KioskConfig
from game.rules import VARIANTS
from tests.client_driver import Driver


@pytest.fixture
def kiosk(tmp_path: Path):
    config = KioskConfig(attract_after=10, abandon_after=20, countdown=5, dim_after=30)
    driver = Driver(tmp_path, size=(1920, 1080), kiosk=config)
    yield driver
    driver.app.close()
    theme.set_scale(1.0)


def _wait(driver: Driver, seconds: float) -> None:
    """Let ``seconds`` of app time pass with nobody touching."""
    for _ in range(round(seconds)):
        driver.app.frame(1.0)


def test_the_public_cannot_quit_or_reach_the_settings(kiosk: Driver) -> None:
    names = [t.name for t in kiosk.scene.targets]
    assert "quit" not in names and "settings" not in names and "finished" not in names
    pygame.event.post(pygame.event.Event(pygame.QUIT))  # the window's close button, Alt+F4
    kiosk.frame()
    kiosk.key(pygame.K_ESCAPE)
    kiosk.key(pygame.K_F11)
    assert kiosk.app.running and type(kiosk.scene).__name__ == "TitleScene"
    kiosk.start("dama:classic")
    kiosk.press("menu")
    assert "settings" not in [t.name for t in kiosk.scene.targets]


def _long_press_corner(driver: Driver, seconds: float) -> None:
    pos = (5, 5)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1, touch=False))
    driver.app.frame(0.05)
    for _ in range(round(seconds / 0.5)):
        driver.app.frame(0.5)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1, touch=False))
    driver.app.frame(0.05)


def _type(driver: Driver, digits: str) -> None:
    for digit in digits:
        driver.press(f"key {digit}")
    driver.press("ok")


def test_a_long_press_in_the_corner_and_the_pin_open_the_operator_menu(kiosk: Driver) -> None:
    _long_press_corner(kiosk, 1.0)  # too short: nothing
    assert type(kiosk.scene).__name__ == "TitleScene"
    _long_press_corner(kiosk, 3.5)
    assert type(kiosk.scene).__name__ == "KeypadScene"
    _type(kiosk, "1111")  # a wrong PIN
    assert type(kiosk.scene).__name__ == "TitleScene"
    _long_press_corner(kiosk, 3.5)
    _type(kiosk, "2580")
    assert type(kiosk.scene).__name__ == "OperatorScene"
    kiosk.press("lan")
    assert kiosk.app.kiosk.lan_hosting
    saved = KioskConfig.load(kiosk.app.paths.config)
    assert saved.lan_hosting
    kiosk.press("quit")
    assert not kiosk.app.running


def test_the_operator_changes_the_pin_and_the_allowed_games(kiosk: Driver) -> None:
    _long_press_corner(kiosk, 3.5)
    _type(kiosk, "2580")
    kiosk.press("pin")
    _type(kiosk, "424242")
    _type(kiosk, "424242")
    kiosk.press("games")
    for name in VARIANTS:
        if name != "mulino:classic":
            kiosk.press(name)
    kiosk.press("back")
    kiosk.press("back")
    assert KioskConfig.load(kiosk.app.paths.config).pin == "424242"
    kiosk.press("new game")
    assert [t.name for t in kiosk.scene.targets] == ["mulino:classic", "back"]


def test_idle_brings_demos_and_a_touch_brings_the_title_back(kiosk: Driver) -> None:
    _wait(kiosk, 11)
    assert type(kiosk.scene).__name__ == "AttractScene"
    assert not kiosk.scene.dimmed
    _wait(kiosk, 31)
    assert kiosk.scene.dimmed  # long idle: dim, the banner keeps moving
    assert kiosk.app.saves.unfinished().total == 0  # demos are not saved
    kiosk.tap((600, 600))
    assert type(kiosk.scene).__name__ == "TitleScene"


def test_an_abandoned_match_counts_down_visibly_and_ends(kiosk: Driver) -> None:
    kiosk.start("dama:classic")
    kiosk.play_one()
    assert kiosk.app.saves.unfinished().total == 1
    _wait(kiosk, 21)
    assert type(kiosk.scene).__name__ == "AbandonScene"
    kiosk.tap((600, 600))  # still playing
    assert type(kiosk.scene).__name__ == "PlayScene"
    _wait(kiosk, 21)
    assert type(kiosk.scene).__name__ == "AbandonScene"
    _wait(kiosk, 6)
    assert type(kiosk.scene).__name__ == "AttractScene"
    assert kiosk.app.saves.unfinished().total == 0


def test_an_error_inside_a_scene_is_logged_and_the_kiosk_starts_over(
    kiosk: Driver, caplog: pytest.LogCaptureFixture
) -> None:
    kiosk.start("numeri")

    def broken(dt: float) -> None:
        raise RuntimeError("a bug")

    kiosk.scene.update = broken
    with caplog.at_level(logging.ERROR):
        kiosk.frame()
    assert type(kiosk.scene).__name__ == "TitleScene" and kiosk.app.recovered == 1
    assert "a bug" in caplog.text
    assert next(t.name for t in kiosk.scene.targets) == "resume"  # the match is offered again


def test_every_control_is_big_enough_for_a_finger(kiosk: Driver) -> None:
    def check() -> None:
        for target in kiosk.scene.targets:
            if target.draw is not None:  # buttons (board cells are far bigger)
                assert min(target.rect.size) >= 64, (type(kiosk.scene).__name__, target.name)
                assert kiosk.scene.targets and pygame.Rect(0, 0, 1920, 1080).contains(target.rect)

    check()
    kiosk.press("new game")
    check()
    kiosk.press("numeri")
    while kiosk.scene.players != 4:
        kiosk.press("players")
    check()
    kiosk.press("start")
    kiosk.settle()
    check()
    _long_press_corner(kiosk, 3.5)
    check()
    _type(kiosk, "2580")
    check()


@pytest.mark.parametrize(
    ("text", "fallback"),
    [
        ("pin = '12'", "pin"),
        ("games = ['chess']", "games"),
        ("volume = 7", "volume"),
        ("attract_after = 'soon'", "attract_after"),
        ("lan_hosting = 'yes'", "lan_hosting"),
    ],
)
def test_bad_values_fall_back_to_the_defaults_with_a_logged_message(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, text: str, fallback: str
) -> None:
    (tmp_path / FILE).write_text(f"{text}\ncountdown = 30\nsparkles = true\n")
    with caplog.at_level(logging.WARNING):
        config = KioskConfig.load(tmp_path)
    assert getattr(config, fallback) == getattr(KioskConfig(), fallback)
    assert config.countdown == 30  # the good values are kept
    assert f"kiosk setting {fallback} = " in caplog.text and "not valid" in caplog.text
    assert "'sparkles'" in caplog.text and "unknown" in caplog.text


def test_a_missing_or_broken_file_gives_the_defaults(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    assert KioskConfig.load(tmp_path) == KioskConfig()
    (tmp_path / FILE).write_bytes(b"pin = \xff[[[")
    with caplog.at_level(logging.WARNING):
        assert KioskConfig.load(tmp_path) == KioskConfig()
    assert "unreadable" in caplog.text
    config = KioskConfig(pin="97531", games=["numeri"], lan_hosting=True)
    config.save(tmp_path)
    assert KioskConfig.load(tmp_path) == config


def test_a_stop_signal_from_the_system_ends_the_kiosk_with_the_match_saved(
    kiosk: Driver,
) -> None:
    kiosk.start("dama:classic")
    kiosk.play_one()
    moves = len(kiosk.scene.match.record.actions)
    pygame.event.post(pygame.event.Event(pygame.QUIT))  # the public's quit: still ignored
    kiosk.frame()
    assert kiosk.app.running and kiosk.app.stopped_by is None
    os.kill(os.getpid(), signal.SIGTERM)  # systemctl stop, shutdown
    assert kiosk.app.stopped_by == "SIGTERM"
    assert kiosk.app.run() == 0  # the loop ends at once
    saved = kiosk.app.saves.unfinished()
    assert saved.total == 1
    assert len(saved.matches[0].match.record.actions) == moves


def test_the_kiosk_process_ends_cleanly_on_sigterm(tmp_path: Path) -> None:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    kiosk = subprocess.Popen(
        [sys.executable, "-m", "game", "--kiosk", "--home", str(tmp_path)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
    )  # fmt: skip
    log = tmp_path / "data" / "tavolo.log"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and "kiosk" not in _text(log):
        time.sleep(0.1)
    time.sleep(1.0)  # the frame loop is running
    kiosk.send_signal(signal.SIGTERM)
    try:
        output, _ = kiosk.communicate(timeout=5)
    except subprocess.TimeoutExpired:
        kiosk.kill()
        pytest.fail("the kiosk ignored SIGTERM")
    assert kiosk.returncode == 0, output
    assert "stopped by SIGTERM" in _text(log)
    assert "Traceback" not in output


def _text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return ""
