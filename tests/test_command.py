"""The tavolo command's flags: bad ones get a clear message and exit 2, never a traceback."""

from __future__ import annotations

import subprocess
import sys

import pytest


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--size", "big"], "WIDTHxHEIGHT"),
        (["--size", "10x10"], "width 320"),
        (["--language", "fr"], "invalid choice"),
        (["--start", "chess"], "unknown game"),
        (["--start", "numeri", "--players", "9"], "2, 3, 4 players"),
        (["--players", "3"], "--players goes with --start"),
        (["--fullscreen", "--windowed"], "not allowed"),
        (["--frobnicate"], "unrecognized arguments"),
    ],
)
def test_bad_flags_are_refused_clearly(args: list[str], message: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "game", *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert message in done.stderr and "Traceback" not in done.stderr
