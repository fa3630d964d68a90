"""A kiosk under a real window manager (openbox on Xvfb): minimised or put out of full screen
by the window manager's own commands, it takes itself back within a second."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.xdisplay import require, x_display

TOOLS = ("Xvfb", "openbox", "wmctrl", "xdotool", "xprop", "xwininfo")
DISPLAY = ":84"


@pytest.fixture
def desktop():
    require(TOOLS, "xvfb openbox wmctrl xdotool x11-utils")
    with x_display(DISPLAY, "openbox") as env:
        yield env


def _x(env: dict, *command: str) -> str:
    return subprocess.run(command, env=env, capture_output=True, text=True, check=False).stdout


def _until(condition, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


def _kiosk(env: dict, home: Path) -> tuple[subprocess.Popen, str]:
    """A kiosk started on ``env``'s display, and its window's id once it is shown."""
    kiosk = subprocess.Popen(
        [sys.executable, "-m", "game", "--kiosk", "--home", str(home)],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    if not _until(lambda: "Tavolo" in _x(env, "wmctrl", "-l"), 30):
        kiosk.kill()
        pytest.fail(f"no kiosk window: {kiosk.communicate(timeout=10)[0]}")
    lines = _x(env, "wmctrl", "-l").splitlines()
    return kiosk, next(line.split()[0] for line in lines if "Tavolo" in line)


@pytest.mark.slow
@pytest.mark.parametrize("title", ["living", "still"])
def test_a_minimised_or_unfullscreened_kiosk_takes_itself_back(
    desktop, tmp_path: Path, title: str
) -> None:
    if title == "still":  # reduce motion: the title draws nothing while nobody touches it
        (tmp_path / "config").mkdir()
        (tmp_path / "config" / "settings.json").write_text('{"reduce_motion": true}')
    kiosk, window = _kiosk(desktop, tmp_path)
    try:

        def state() -> str:
            return _x(desktop, "xprop", "-id", window, "_NET_WM_STATE")

        def whole_screen() -> bool:
            info = _x(desktop, "xwininfo", "-id", window)
            return "Width: 1280" in info and "Height: 720" in info and "upper-left Y:  0" in info

        log = tmp_path / "data" / "tavolo.log"

        def taken_back() -> int:  # the kiosk logs each time it found its window lost
            return log.read_text().count("taken back") if log.exists() else 0

        assert _until(lambda: "FULLSCREEN" in state(), 10)
        assert taken_back() == 0
        # Alt+Space → Iconify, as a visitor would do it, is the window manager's iconify:
        _x(desktop, "timeout", "5", "xdotool", "windowminimize", "--sync", window)
        assert _until(lambda: taken_back() == 1, 1.5), "a minimised kiosk stayed minimised"
        assert _until(lambda: "HIDDEN" not in state() and "FULLSCREEN" in state(), 1.5), state()
        # Un-fullscreen: a title bar and a smaller place on the screen.
        _x(desktop, "wmctrl", "-i", "-r", window, "-b", "remove,fullscreen")
        # Back within the second and a half: by the kiosk's guard (logged) — or, a kiosk
        # drawing frames the while (its title living), at times by SDL putting its full
        # screen back first; a still kiosk only by its guard.
        back = _until(lambda: "FULLSCREEN" in state() and whole_screen(), 1.5)
        assert back, f"the kiosk stayed out of full screen: {state()}"
        assert taken_back() == 2 if title == "still" else taken_back() in (1, 2)
        assert kiosk.poll() is None
    finally:
        kiosk.terminate()
        output, _ = kiosk.communicate(timeout=10)
    assert kiosk.returncode == 0, output


RC = Path(__file__).resolve().parents[1] / "docs" / "kiosk-openbox-rc.xml"
ESCAPES = ["alt+space", "alt+F4", "alt+Tab", "ctrl+alt+Left", "super", "ctrl+Escape", "alt+F2"]


@pytest.mark.slow
def test_under_the_manuals_openbox_no_shortcut_leads_away(tmp_path: Path) -> None:
    require(TOOLS, "xvfb openbox wmctrl xdotool x11-utils")
    with x_display(":85", "openbox", "--config-file", str(RC)) as env:
        kiosk, window = _kiosk(env, tmp_path)
        try:
            _press_escapes(env, kiosk, window)
        finally:
            kiosk.terminate()
            output, _ = kiosk.communicate(timeout=10)
    assert kiosk.returncode == 0, output


def _press_escapes(env: dict, kiosk: subprocess.Popen, window: str) -> None:
    """A bored visitor with a keyboard: nothing opens, the kiosk stays active in full screen.
    (Under openbox's own configuration Alt+Space opens a menu: this fails.)"""
    time.sleep(1.0)

    def windows() -> int:  # menus, switchers and dialogs are windows too, mapped or not
        return _x(env, "xwininfo", "-root", "-tree").count("0x")

    before = windows()
    for keys in ESCAPES:
        _x(env, "xdotool", "key", "--clearmodifiers", keys)
        time.sleep(0.3)
        assert kiosk.poll() is None, keys
        assert windows() == before, f"{keys} opened something"
        assert "FULLSCREEN" in _x(env, "xprop", "-id", window, "_NET_WM_STATE"), keys
        assert _x(env, "xdotool", "getactivewindow").strip() == str(int(window, 16)), keys
    assert len(_x(env, "wmctrl", "-l").splitlines()) == 1  # no menu, no other window
