"""A kiosk under a real window manager (openbox on Xvfb): minimised or put out of full screen
by the window manager's own commands, it takes itself back within a second."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

TOOLS = ("Xvfb", "openbox", "wmctrl", "xdotool", "xprop", "xwininfo")
DISPLAY = ":84"


@pytest.fixture
def desktop():
    missing = [tool for tool in TOOLS if shutil.which(tool) is None]
    if missing:
        if os.environ.get("CI"):
            pytest.fail(f"CI must provide {missing} (.ci/run installs them)")
        pytest.skip(f"needs {missing}: apt-get install xvfb openbox wmctrl xdotool x11-utils")
    env = {**os.environ, "DISPLAY": DISPLAY, "SDL_AUDIODRIVER": "dummy"}
    env.pop("SDL_VIDEODRIVER", None)
    server = subprocess.Popen(
        ["Xvfb", DISPLAY, "-screen", "0", "1280x720x24", "-nolisten", "tcp"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    time.sleep(0.5)
    manager = subprocess.Popen(
        ["openbox"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    time.sleep(0.5)
    yield env
    manager.terminate()
    manager.wait(timeout=10)
    server.terminate()
    server.wait(timeout=10)


def _x(env: dict, *command: str) -> str:
    return subprocess.run(command, env=env, capture_output=True, text=True, check=False).stdout


def _until(condition, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


def test_a_minimised_or_unfullscreened_kiosk_takes_itself_back(desktop, tmp_path: Path) -> None:
    kiosk = subprocess.Popen(
        [sys.executable, "-m", "game", "--kiosk", "--home", str(tmp_path)],
        env=desktop, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    try:
        assert _until(lambda: "Tavolo" in _x(desktop, "wmctrl", "-l"), 30), "no kiosk window"
        window = next(
            line.split()[0] for line in _x(desktop, "wmctrl", "-l").splitlines() if "Tavolo" in line
        )

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
        assert _until(lambda: taken_back() == 2, 1.5), "the kiosk stayed out of full screen"
        assert _until(lambda: "FULLSCREEN" in state() and whole_screen(), 1.5), state()
        assert kiosk.poll() is None
    finally:
        kiosk.terminate()
        output, _ = kiosk.communicate(timeout=10)
    assert kiosk.returncode == 0, output


RC = Path(__file__).resolve().parents[1] / "docs" / "kiosk-openbox-rc.xml"
ESCAPES = ["alt+space", "alt+F4", "alt+Tab", "ctrl+alt+Left", "super", "ctrl+Escape", "alt+F2"]


def test_under_the_manuals_openbox_no_shortcut_leads_away(tmp_path: Path) -> None:
    missing = [tool for tool in TOOLS if shutil.which(tool) is None]
    if missing:
        if os.environ.get("CI"):
            pytest.fail(f"CI must provide {missing} (.ci/run installs them)")
        pytest.skip(f"needs {missing}")
    env = {**os.environ, "DISPLAY": ":85", "SDL_AUDIODRIVER": "dummy"}
    env.pop("SDL_VIDEODRIVER", None)
    server = subprocess.Popen(
        ["Xvfb", ":85", "-screen", "0", "1280x720x24", "-nolisten", "tcp"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    time.sleep(0.5)
    manager = subprocess.Popen(
        ["openbox", "--config-file", str(RC)],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    kiosk = subprocess.Popen(
        [sys.executable, "-m", "game", "--kiosk", "--home", str(tmp_path)],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    try:
        assert _until(lambda: "Tavolo" in _x(env, "wmctrl", "-l"), 30), "no kiosk window"
        window = next(
            line.split()[0] for line in _x(env, "wmctrl", "-l").splitlines() if "Tavolo" in line
        )
        time.sleep(1.0)

        def windows() -> int:  # menus, switchers and dialogs are windows too, mapped or not
            return _x(env, "xwininfo", "-root", "-tree").count("0x")

        before = windows()
        for keys in ESCAPES:  # a bored visitor with a keyboard
            _x(env, "xdotool", "key", "--clearmodifiers", keys)
            time.sleep(0.3)
            assert kiosk.poll() is None, keys
            assert windows() == before, f"{keys} opened something"
            assert "FULLSCREEN" in _x(env, "xprop", "-id", window, "_NET_WM_STATE"), keys
            assert _x(env, "xdotool", "getactivewindow").strip() == str(int(window, 16)), keys
        assert len(_x(env, "wmctrl", "-l").splitlines()) == 1  # no menu, no other window
    finally:
        kiosk.terminate()
        output, _ = kiosk.communicate(timeout=10)
        manager.terminate()
        _, complaints = manager.communicate(timeout=10)
        server.terminate()
        server.wait(timeout=10)
    assert kiosk.returncode == 0, output
    assert "error" not in complaints.lower(), complaints  # openbox read the manual's file
