"""A private X server (Xvfb), with a window manager if asked, for the tests that need a real
window; skipped where the tools are missing, except in CI, where that is a failure."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import time
from collections.abc import Iterator

import pytest


def require(tools: tuple[str, ...], packages: str) -> None:
    missing = [tool for tool in tools if shutil.which(tool) is None]
    if missing:
        if os.environ.get("CI"):
            pytest.fail(f"CI must provide {missing} (.ci/run installs them)")
        pytest.skip(f"needs {missing}: apt-get install {packages}")


@contextlib.contextmanager
def x_display(display: str, *window_manager: str) -> Iterator[dict]:
    """An environment whose DISPLAY is a fresh 1280×720 Xvfb, with ``window_manager``'s
    command running on it if one is given; both are stopped afterwards."""
    env = {**os.environ, "DISPLAY": display, "SDL_AUDIODRIVER": "dummy"}
    env.pop("SDL_VIDEODRIVER", None)  # a real window, not the dummy driver
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    server = subprocess.Popen(
        ["Xvfb", display, "-screen", "0", "1280x720x24", "-nolisten", "tcp"], **quiet
    )
    time.sleep(0.5)
    manager = subprocess.Popen(list(window_manager), env=env, **quiet) if window_manager else None
    time.sleep(0.5 if manager else 0)
    try:
        yield env
    finally:
        for process in (manager, server):
            if process is not None:
                process.terminate()
                process.wait(timeout=10)
