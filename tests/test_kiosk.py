"""Kiosk mode: locked for the public, opened by the operator's PIN, demos when idle,
abandoned matches ended, errors recovered, a configuration that never stops the start."""

from __future__ import annotations

import itertools
import logging
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pygame
import pytest

from game.client import theme
from game.client.kiosk_config import FILE, KioskConfig
from game.client.pin_guard import LONGEST_LOCK, TRIES_FILE, PinGuard
from game.rules import VARIANTS
from tests.client_driver import Driver
from tests.lines import Lines


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
    _type(kiosk, "1975")  # a wrong PIN: the keypad says so and asks again
    assert type(kiosk.scene).__name__ == "KeypadScene"
    assert kiosk.scene.prompt == "Wrong PIN: try again"
    _type(kiosk, "2580")
    assert type(kiosk.scene).__name__ == "OperatorScene"
    assert "still the published 2580" in kiosk.app.kiosk.warning()
    kiosk.press("settings")
    kiosk.press("lan_hosting")
    assert kiosk.app.kiosk.lan_hosting
    saved = KioskConfig.load(kiosk.app.paths.config)
    assert saved.lan_hosting
    kiosk.press("back")
    kiosk.press("quit")  # Quit asks first
    assert type(kiosk.scene).__name__ == "ConfirmScene" and kiosk.app.running
    kiosk.press("no")
    assert type(kiosk.scene).__name__ == "OperatorScene" and kiosk.app.running
    kiosk.press("quit")
    kiosk.press("yes")
    assert not kiosk.app.running


def test_the_operator_changes_the_pin_and_the_allowed_games(kiosk: Driver) -> None:
    _long_press_corner(kiosk, 3.5)
    _type(kiosk, "2580")
    kiosk.press("pin")
    _type(kiosk, "424242")  # two digits only: refused
    assert "three different digits" in kiosk.scene.subtitle()
    assert KioskConfig.load(kiosk.app.paths.config).pin_matches("2580")
    kiosk.press("pin")
    _type(kiosk, "472913")
    _type(kiosk, "472913")
    assert kiosk.scene.subtitle() == "The PIN is changed."
    kiosk.press("settings")
    kiosk.press("games")
    for name in VARIANTS:
        if name != "mulino:classic":
            kiosk.press(name)
    kiosk.press("mulino:classic")  # the last one allowed stays, and the screen says why
    assert kiosk.scene.subtitle() == "At least one game stays allowed."
    kiosk.press("back")
    kiosk.press("back")
    kiosk.press("back")
    saved = KioskConfig.load(kiosk.app.paths.config)
    assert saved.pin_matches("472913") and not saved.pin_matches("2580")
    assert "472913" not in (kiosk.app.paths.config / FILE).read_text()  # only its hash
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
    while not kiosk.scene.match.begun:  # a match nobody has moved in is not kept
        kiosk.play_one()

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
    kiosk.press("players 4")
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
        ("games = ['chess']", "games"),
        ("volume = 7", "volume"),
        ("volume = 0,5", "volume"),  # not TOML: that line only
        ("attract_after = 'soon'", "attract_after"),
        ("lan_hosting = 'yes'", "lan_hosting"),
        ("lan_hosting = yes", "lan_hosting"),
        ("keep_finished = -1", "keep_finished"),
        ("keep_finished_days = 0", "keep_finished_days"),
        ('opening_hours = "9-23"', "opening_hours"),
        ("rotation = 45", "rotation"),
    ],
)
def test_a_bad_value_costs_its_own_key_only_with_a_logged_message(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, text: str, fallback: str
) -> None:
    (tmp_path / FILE).write_text(f"{text}\ncountdown = 30\nsparkles = true\n")
    with caplog.at_level(logging.WARNING):
        config = KioskConfig.load(tmp_path)
    assert getattr(config, fallback) == getattr(KioskConfig(), fallback)
    assert config.countdown == 30  # the good values are kept
    assert f"kiosk setting {fallback} = " in caplog.text and "cannot be used" in caplog.text
    assert "'sparkles'" in caplog.text and "unknown" in caplog.text
    assert [p.key for p in config.problems] == [fallback, "sparkles"]
    assert config.problems[0].line == 1 and "line 1" in config.warning()


def test_a_typo_keeps_that_keys_last_good_value_and_every_other_key(tmp_path: Path) -> None:
    (tmp_path / FILE).write_text(OPERATOR_FILE + "attract_after = 45\n")
    assert KioskConfig.load(tmp_path).games == ["numeri", "dama:classic"]
    text = (tmp_path / FILE).read_text()
    (tmp_path / FILE).write_text(text.replace('"dama:classic"]', '"dama:classic"'))  # unclosed
    config = KioskConfig.load(tmp_path)
    assert config.games == ["numeri", "dama:classic"]  # the last good value, not all games
    assert config.volume == 0.25 and config.attract_after == 45 and config.pin_matches("731904")
    assert [p.key for p in config.problems] == ["games"]


def test_a_missing_file_gives_the_defaults_and_a_broken_one_everything_but_the_pin(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    assert KioskConfig.load(tmp_path) == KioskConfig()
    fresh = KioskConfig.load(tmp_path)
    assert fresh.pin_matches("2580") and fresh.default_pin  # a new kiosk: the manual's PIN
    assert "still the published 2580" in fresh.warning()
    (tmp_path / FILE).write_bytes(b"pin = \xff[[[\nvolume = 0.75\n")
    with caplog.at_level(logging.WARNING):
        broken = KioskConfig.load(tmp_path)
    assert "pin" in caplog.text and "cannot be used" in caplog.text
    assert broken.games == KioskConfig().games and broken.volume == 0.75
    assert broken.pin_matches("2580")  # it never had another PIN: as open as it was
    assert "the PIN cannot be used" in broken.warning()
    (tmp_path / FILE).write_text('pin_hash = "scrypt$00$00"\n')  # a PIN once, its copy lost
    lost = KioskConfig.load(tmp_path)
    assert lost.locked and not lost.pin_matches("2580")  # never the published PIN
    assert "no usable PIN" in lost.warning()
    (tmp_path / FILE).unlink()
    config = KioskConfig(games=["numeri"], lan_hosting=True)
    config.set_pin("97531", tmp_path)
    assert KioskConfig.load(tmp_path) == config
    assert KioskConfig.load(tmp_path).pin_matches("97531")


OPERATOR_FILE = """\
# Café Centrale: the kiosk by the window (ask Marta before changing anything)
pin = "731904"
games = ["numeri", "dama:classic"]  # the two our regulars play

# quieter in the mornings
volume = 0.25
"""


@pytest.mark.parametrize(
    "typo",
    [
        'pin = "731904',  # an unclosed quote: not TOML at all
        "pin = 7319O4",  # a letter O: not TOML at all
        'pin = "73190"4',
        "pin = '12'",  # too short
        "pin = true",
        'pin = "4455"',  # too easy: refused as a PIN, as the operator menu refuses it
    ],
)
def test_a_typo_in_the_pin_keeps_the_operators_last_pin_and_warns(
    tmp_path: Path, typo: str
) -> None:
    (tmp_path / FILE).write_text(OPERATOR_FILE)
    good = KioskConfig.load(tmp_path)
    assert good.pin_matches("731904") and good.games == ["numeri", "dama:classic"]
    assert not good.warning()
    hashed = (tmp_path / FILE).read_text()
    assert "731904" not in hashed and "pin_hash = " in hashed  # the PIN was replaced
    (tmp_path / FILE).write_text(hashed.replace("pin_hash", "# pin_hash") + typo + "\n")
    config = KioskConfig.load(tmp_path)
    assert not config.pin_matches("2580")  # the published default never comes back
    assert config.pin_matches("731904")  # the last good PIN, kept apart
    assert "the PIN cannot be used" in config.warning()
    assert config.games == ["numeri", "dama:classic"] and config.volume == 0.25
    config.volume = 1.0  # the operator changes something
    config.save(tmp_path)
    after = (tmp_path / FILE).read_text()
    assert typo in after and "volume = 1.0" in after and "# quieter" in after
    assert "2580" not in after


@pytest.mark.parametrize("written", ["pin = 0731", 'pin = "0731"', "pin = 073104  # new"])
def test_a_pin_with_a_leading_zero_works_quoted_or_not(tmp_path: Path, written: str) -> None:
    (tmp_path / FILE).write_text(OPERATOR_FILE.replace('pin = "731904"', written))
    config = KioskConfig.load(tmp_path)
    digits = written.split("=")[1].split("#")[0].strip().strip('"')
    assert config.pin_matches(digits) and not config.pin_matches(digits.lstrip("0"))
    assert not config.problems and config.games == ["numeri", "dama:classic"]
    assert KioskConfig.load(tmp_path).pin_matches(digits)  # from the hash, the next time


def test_a_pin_is_kept_as_its_scrypt_hash_at_full_cost(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The tests hash at a low cost (tests/conftest.py); the kiosk at scrypt's n = 2**14."""
    import hashlib

    from game.client import kiosk_config

    monkeypatch.setattr(kiosk_config, "PIN_WORK", 2**14)
    config = KioskConfig.load(tmp_path)
    config.set_pin("86420135", tmp_path)
    salt, digest = (bytes.fromhex(part) for part in config.pin_hash.split("$")[1:])
    assert digest == hashlib.scrypt(b"86420135", salt=salt, n=2**14, r=8, p=1, dklen=32)
    assert config.pin_matches("86420135") and not config.pin_matches("86420136")


def test_the_file_holds_only_the_hash_and_only_its_owner_reads_it(tmp_path: Path) -> None:
    (tmp_path / FILE).write_text(OPERATOR_FILE)
    os.chmod(tmp_path / FILE, 0o644)
    KioskConfig.load(tmp_path)
    text = (tmp_path / FILE).read_text()
    assert "731904" not in text and re.search(r'^pin_hash = "scrypt\$[0-9a-f]{32}\$', text, re.M)
    assert text.startswith("# Café Centrale") and "# quieter in the mornings" in text
    for name in (FILE, "kiosk-pin", "kiosk-last-good.json"):
        assert (tmp_path / name).stat().st_mode & 0o777 == 0o600, name
    config = KioskConfig.load(tmp_path)
    config.set_pin("86420135", tmp_path)
    assert "86420135" not in (tmp_path / FILE).read_text()
    assert (tmp_path / FILE).stat().st_mode & 0o777 == 0o600


@pytest.mark.parametrize(
    ("pin", "why"),
    [("2580", "default"), ("4455", "three different"), ("1111", "three different"),
     ("1212", "three different"), ("1234", "in a row"), ("9876", "in a row"),
     ("7890", "in a row"), ("123123", "repeated"), ("1975", "guesser"), ("1470", "guesser"),
     ("12", "4 to 12"), ("12a4", "4 to 12")],
)  # fmt: skip
def test_pins_a_guesser_tries_first_are_refused(pin: str, why: str) -> None:
    from game.client.kiosk_config import pin_weakness

    assert why in (pin_weakness(pin) or "")
    assert pin_weakness("731904") is None and pin_weakness("0731") is None


def test_an_unquoted_pin_of_six_digits_is_a_pin(tmp_path: Path) -> None:
    (tmp_path / FILE).write_text(OPERATOR_FILE.replace('"731904"', "731904"))
    config = KioskConfig.load(tmp_path)
    assert config.pin_matches("731904") and not config.warning()
    (tmp_path / FILE).write_text('pin = "102938475610"\n')
    assert KioskConfig.load(tmp_path).pin_matches("102938475610")  # up to 12 digits


def test_the_operators_change_edits_the_file_in_place(tmp_path: Path) -> None:
    (tmp_path / FILE).write_text(OPERATOR_FILE + "sparkles = true\n")
    config = KioskConfig.load(tmp_path)
    hashed = (tmp_path / FILE).read_text()
    config.lan_hosting = True
    config.save(tmp_path)
    after = (tmp_path / FILE).read_text()
    assert after.startswith(hashed)  # every comment, value and line as it was
    assert after.endswith("sparkles = true\nlan_hosting = true\n")
    assert "languages" not in after and "attract_after" not in after  # no defaults written
    config.set_pin("86420135", tmp_path)
    assert KioskConfig.load(tmp_path).pin_matches("86420135")
    (tmp_path / FILE).unlink()  # the file lost: the kept PIN, not the default, opens the menu
    lost = KioskConfig.load(tmp_path)
    assert lost.pin_matches("86420135") and not lost.pin_matches("2580")


def test_the_operator_menu_shows_a_typo_and_a_change_keeps_the_rest_of_the_file(
    tmp_path: Path,
) -> None:
    config_dir = tmp_path / "config"
    config_dir.mkdir()
    (config_dir / FILE).write_text(OPERATOR_FILE)
    KioskConfig.load(config_dir)  # the kiosk ran once with this PIN
    broken = (config_dir / FILE).read_text() + "volume = [[\n"
    (config_dir / FILE).write_text(broken)
    driver = Driver(tmp_path, size=(1920, 1080), kiosk=KioskConfig.load(config_dir))
    try:
        _long_press_corner(driver, 3.5)
        _type(driver, "731904")
        assert type(driver.scene).__name__ == "OperatorScene"
        assert "line 7: volume = [[ cannot be used: 0.25 is" in driver.app.kiosk.warning()
        assert driver.app.kiosk.volume == 0.25  # the last good value, not the default
        driver.press("health")
        assert any("volume = [[" in text for text, _ in driver.scene.lines())
        driver.press("back")
        driver.press("settings")
        driver.press("lan_hosting")
        assert driver.scene.subtitle() == "Saved."
        after = (config_dir / FILE).read_text()
        assert after == broken + "lan_hosting = true\n"  # the typo is the operator's to fix
    finally:
        driver.app.close()
        theme.set_scale(1.0)


def test_the_pin_is_masked_and_wrong_pins_lock_the_keypad_longer_each_time(
    kiosk: Driver, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO):
        _long_press_corner(kiosk, 3.5)
        for _ in range(3):
            for digit in "1111":
                kiosk.press(f"key {digit}")
            assert kiosk.scene.shown == "\u2022" * 4  # dots on the public screen
            kiosk.press("ok")
        keypad = kiosk.scene
        assert type(keypad).__name__ == "KeypadScene"  # locked: the keypad stays, saying so
        assert "try again in 30 s" in keypad.notice()
        _type(kiosk, "2580")  # even the right PIN waits
        assert type(kiosk.scene).__name__ == "KeypadScene"
        _wait(kiosk, 31)  # long enough for the demos to come
        kiosk.tap((600, 600))
        _long_press_corner(kiosk, 3.5)
        assert not kiosk.scene.notice()
        _type(kiosk, "0000")  # wrong again: twice as long
        assert "try again in 60 s" in kiosk.scene.notice()
        _wait(kiosk, 61)
        kiosk.tap((600, 600))
        _long_press_corner(kiosk, 3.5)
        _type(kiosk, "2580")
        assert type(kiosk.scene).__name__ == "OperatorScene"
        assert kiosk.app.pin_guard.failures == 0
        kiosk.press("quit")
        kiosk.press("yes")
    assert "wrong operator PIN (3 in a row)" in caplog.text
    assert "locked for 30 s" in caplog.text and "locked for 60 s" in caplog.text
    assert "operator menu opened" in caplog.text and "operator quit" in caplog.text
    assert "1111" not in caplog.text and "2580" not in caplog.text  # never the digits


def test_pulling_the_plug_gives_a_pin_guesser_no_free_tries(tmp_path: Path) -> None:
    config = KioskConfig(attract_after=100, dim_after=300)
    before = Driver(tmp_path, size=(1920, 1080), kiosk=config)
    _long_press_corner(before, 3.5)
    for _ in range(3):
        _type(before, "1111")
    assert "try again in 30 s" in before.scene.notice()
    before.app.close()  # the plug pulled: the next start is a new process on the same disk
    after = Driver(tmp_path, size=(1920, 1080), kiosk=config)
    try:
        _long_press_corner(after, 3.5)
        # The app's clock began again at 0; the lock goes on where it was (less the restart
        # and the long press).
        assert re.search(r"try again in 2[0-9] s", after.scene.notice())
        _type(after, "2580")
        assert type(after.scene).__name__ == "KeypadScene"
        _wait(after, 31)
        _type(after, "0000")  # the fourth wrong PIN in a row, across the restart
        assert "try again in 60 s" in after.scene.notice()
        _wait(after, 61)
        _type(after, "2580")
        assert type(after.scene).__name__ == "OperatorScene"
        assert PinGuard(tmp_path / "config" / TRIES_FILE).failures == 0  # counted afresh
    finally:
        after.app.close()
        theme.set_scale(1.0)


def test_on_a_full_disk_the_count_of_wrong_pins_is_kept_in_place_else_in_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A full disk must not give a guesser fresh tries at the next start."""
    import errno

    from game.client import pin_guard

    path = tmp_path / TRIES_FILE
    guard = PinGuard(path, wall=lambda: 1_000_000.0)
    assert path.stat().st_size == pin_guard.RECORD_BYTES  # its room taken while there is some

    def full(*args, **kwargs) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(pin_guard, "atomic_write", full)
    for _ in range(4):
        guard.failed(0.0)
    after_restart = PinGuard(path, now=0.0, wall=lambda: 1_000_000.0)
    assert after_restart.failures == 4 and after_restart.wait(0.0) == 60.0
    assert path.stat().st_size == pin_guard.RECORD_BYTES
    monkeypatch.setattr(pin_guard.os, "pwrite", full)
    with caplog.at_level(logging.ERROR):
        guard.failed(0.0)
    assert guard.failures == 5 and guard.wait(0.0) == 120.0  # in memory: still locked
    assert "kept in memory only" in caplog.text


def test_the_kept_lock_survives_a_clock_turned_back_or_a_broken_file(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / TRIES_FILE
    wall = [1_000_000.0]
    guard = PinGuard(path, wall=lambda: wall[0])
    for _ in range(10):
        guard.failed(0.0)
    assert guard.wait(0.0) == LONGEST_LOCK
    wall[0] -= 86_400 * 365  # the clock turned back a year: still an hour at most
    assert PinGuard(path, now=5.0, wall=lambda: wall[0]).wait(5.0) == LONGEST_LOCK
    wall[0] += 86_400 * 366  # a year later: free again, the count kept
    later = PinGuard(path, wall=lambda: wall[0])
    assert later.wait(0.0) == 0 and later.failures == 10
    for broken in (b"\xff\xfe", b"[]", b'{"failures": "9", "locked_until": 0}', b"{"):
        path.write_bytes(broken)
        with caplog.at_level(logging.WARNING):
            fresh = PinGuard(path)
        assert fresh.failures == 0 and fresh.wait(0.0) == 0
        assert "count of wrong PINs is unreadable" in caplog.text
        caplog.clear()


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


@pytest.mark.slow
def test_the_kiosk_process_ends_cleanly_on_sigterm(tmp_path: Path) -> None:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    kiosk = subprocess.Popen(
        [sys.executable, "-m", "game", "--kiosk", "--home", str(tmp_path)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
    )  # fmt: skip
    output = Lines(kiosk)
    assert output.wait_for("showing", 30), output.text  # the frame loop is running
    kiosk.send_signal(signal.SIGTERM)
    try:
        kiosk.wait(timeout=5)
    except subprocess.TimeoutExpired:
        kiosk.kill()
        pytest.fail("the kiosk ignored SIGTERM")
    written = output.all(5)
    assert kiosk.returncode == 0, written
    assert "stopped by SIGTERM" in (tmp_path / "data" / "tavolo.log").read_text()
    assert "Traceback" not in written


@pytest.mark.parametrize("left_in", ["pause menu", "rules"])
def test_a_match_left_under_a_menu_ends_by_the_countdown_too(kiosk: Driver, left_in: str) -> None:
    kiosk.start("mulino:classic")
    kiosk.play_one()
    kiosk.press("menu")
    if left_in == "rules":
        kiosk.press("rules")
    _wait(kiosk, 21)
    assert type(kiosk.scene).__name__ == "AbandonScene"
    _wait(kiosk, 6)
    assert type(kiosk.scene).__name__ == "AttractScene"
    assert kiosk.app.saves.unfinished().total == 0  # no "Resume Mulino" for the next visitor


def _open_settings(kiosk: Driver) -> None:
    _long_press_corner(kiosk, 3.5)
    _type(kiosk, "2580")
    kiosk.press("settings")


def test_the_settings_page_sets_every_key_over_the_files_whole_range_and_logs_it(
    kiosk: Driver, caplog: pytest.LogCaptureFixture
) -> None:
    from game.client.kiosk_config import RANGES, SETTINGS

    _open_settings(kiosk)
    assert {t.name for t in kiosk.scene.targets} == {*SETTINGS, "back"}  # every key, by name
    config_file = kiosk.app.paths.config / FILE
    with caplog.at_level(logging.INFO):
        for key, (low, high) in RANGES.items():
            for value in (low, high):  # the file's own ends, typed on the keypad
                kiosk.press(key)
                _type(kiosk, str(int(value)))
                assert getattr(kiosk.app.kiosk, key) == value, key
                assert kiosk.scene.subtitle() == "Saved."
                assert KioskConfig.load(kiosk.app.paths.config).__getattribute__(key) == value
            kiosk.press(key)
            _type(kiosk, str(int(high) + 1))  # beyond: refused, said, nothing changed
            assert getattr(kiosk.app.kiosk, key) == high and "Not changed" in kiosk.scene.subtitle()
        kiosk.press("volume")
        _type(kiosk, "35")
        assert kiosk.app.kiosk.volume == 0.35 and kiosk.app.sound.volume == 0.35
        kiosk.press("opening_hours")
        _type(kiosk, "09302215")
        assert kiosk.app.kiosk.opening_hours == "09:30-22:15"
        kiosk.press("initials_only")
        kiosk.press("lan_name")
        kiosk.scene.text = ""
        kiosk.scene.type_text("Bar Centrale")
        kiosk.press("ok")
        kiosk.press("rotation")  # a table mounted the other way: the picture turns at once
        assert kiosk.app.kiosk.rotation == 90 and kiosk.app.kiosk.initials_only
        assert kiosk.app.screen.get_size() == (1080, 1920) and kiosk.app.display.get_size() == (
            1920, 1080)  # fmt: skip
        x, y = kiosk.target("back").rect.center  # upright; on the glass: turned a quarter
        kiosk.click((1920 - 1 - y, x))
        assert type(kiosk.scene).__name__ == "OperatorScene"
    saved = KioskConfig.load(kiosk.app.paths.config)
    assert saved.lan_name == "Bar Centrale" and saved.opening_hours == "09:30-22:15"
    assert saved.rotation == 90 and saved.initials_only and saved.volume == 0.35
    assert "operator set attract_after from 10 to 10.0" in caplog.text or (
        "operator set attract_after from" in caplog.text
    )
    assert "operator set opening_hours from '' to '09:30-22:15'" in caplog.text
    assert "operator set lan_name from 'Tavolo' to 'Bar Centrale'" in caplog.text
    assert config_file.stat().st_mode & 0o777 == 0o600


def test_demos_vary_their_games_and_positions_and_show_no_buttons(kiosk: Driver) -> None:
    kiosk.app.kiosk.languages = ["it", "en"]
    _wait(kiosk, 11)
    attract = kiosk.scene
    assert type(attract).__name__ == "AttractScene" and attract.fps == 30
    assert not attract.demo.targets  # nothing that looks as if it could be pressed
    seeds = []
    for _ in range(2 * len(VARIANTS)):
        seeds.append(attract.demo.match.seed)
        attract.elapsed = 1e9  # the demo's time is up
        attract.update(0.01)
    shown = attract.shown
    assert set(shown[: len(VARIANTS)]) == set(VARIANTS)  # every allowed game comes round
    assert all(a != b for a, b in itertools.pairwise(shown))  # never twice in a row
    assert len(set(seeds)) == len(seeds)  # a fresh position every time
    first = attract.invitation()
    _wait(kiosk, 4)
    assert {first, attract.invitation()} == {"Tocca per giocare", "Touch to play"}


def test_a_full_disk_is_said_plainly_without_a_path(kiosk: Driver, monkeypatch) -> None:
    import errno

    kiosk.start("dama:classic")

    def full(snapshot) -> None:
        raise OSError(errno.ENOSPC, "No space left on device", "/home/kiosk/.local/secret")

    monkeypatch.setattr(kiosk.app.saves.store, "write", full)
    kiosk.play_one()
    kiosk.app.saves.flush()  # the saves' thread met the full disk
    notices = " ".join(kiosk.scene.control.notices())
    assert "the disk is full" in notices and "/" not in notices


def test_a_minimised_kiosk_without_x11_takes_itself_back_through_sdl(kiosk: Driver) -> None:
    pygame.event.post(pygame.event.Event(pygame.WINDOWMINIMIZED))
    kiosk.frame()
    kiosk.app.frame(1.0)  # the next look
    assert kiosk.app.window_returns == 1
    kiosk.app.frame(1.0)
    assert kiosk.app.window_returns == 1  # once per loss


def test_the_operator_sees_the_saves_put_aside_the_public_only_that_one_was(
    kiosk: Driver,
) -> None:
    kiosk.start("dama:classic")
    kiosk.play_one()
    kiosk.app.saves.flush()
    path = kiosk.app.saves.store.path_of(kiosk.scene.match)
    path.write_bytes(path.read_bytes()[:-5])  # torn
    from game.client.scenes.title import TitleScene

    kiosk.app.reset(TitleScene(kiosk.app))
    assert kiosk.scene.subtitle() == "A match could not be opened and was put aside."
    _long_press_corner(kiosk, 3.5)
    _type(kiosk, "2580")
    assert kiosk.target("set aside").label() == "Saves put aside: 1"
    kiosk.press("set aside")
    (row,) = [t.label() for t in kiosk.scene.targets if t.name.startswith("aside")]
    assert row.startswith(f"{path.name}.damaged-1 · ") and row.endswith(" bytes")
    assert "deleted after 7 days" in kiosk.scene.subtitle()
    kiosk.press("back")
    assert type(kiosk.scene).__name__ == "OperatorScene"


def test_a_setting_chosen_in_the_menu_is_written_even_when_it_equals_what_was_loaded(
    tmp_path: Path,
) -> None:
    """The operator edited the file by hand meanwhile (volume = 0.9); choosing 0.25 in the
    menu — the value the kiosk loaded — must still win at the next start."""
    (tmp_path / FILE).write_text(OPERATOR_FILE)
    config = KioskConfig.load(tmp_path)
    text = (tmp_path / FILE).read_text().replace("volume = 0.25", "volume = 0.9")
    (tmp_path / FILE).write_text(text)
    config.volume = 0.25
    config.save(tmp_path, {"volume"})
    assert KioskConfig.load(tmp_path).volume == 0.25


def test_the_pin_typed_on_a_keyboard_is_sent_by_enter(kiosk: Driver) -> None:
    _long_press_corner(kiosk, 3.5)
    for digit in "2580":
        kiosk.app.dispatch(pygame.event.Event(pygame.TEXTINPUT, text=digit))
    kiosk.key(pygame.K_RETURN)
    assert type(kiosk.scene).__name__ == "OperatorScene"
