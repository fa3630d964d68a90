"""A private X server (Xvfb), with a window manager if asked, for the tests that need a real
window; skipped where the tools are missing, except in CI, where that is a failure."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
from collections.abc import Callable, Iterator

import pytest

from tests.lines import Lines


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
    ready, told = os.pipe()  # Xvfb writes its display's number there once it takes clients
    server = subprocess.Popen(
        ["Xvfb", display, "-screen", "0", "1280x720x24", "-nolisten", "tcp", "-displayfd",
         str(told)],
        pass_fds=(told,), **quiet,
    )  # fmt: skip
    os.close(told)
    with os.fdopen(ready) as answer:
        if not answer.readline():
            pytest.fail(f"Xvfb {display} did not start (exit status {server.wait()})")
    manager = subprocess.Popen(list(window_manager), env=env, **quiet) if window_manager else None
    try:
        if manager is not None and root_property(env, "_NET_SUPPORTING_WM_CHECK", 10) is None:
            pytest.fail(f"{window_manager[0]} did not take the display")
        yield env
    finally:
        for process in (manager, server):
            if process is not None:
                process.terminate()
                process.wait(timeout=10)


@contextlib.contextmanager
def watching(env: dict, *command: str) -> Iterator[Lines]:
    """The lines an X watcher (``xprop -spy``: a property's value at each change) writes
    while the block runs."""
    watcher = subprocess.Popen(  # stdbuf: a line as it comes, not a pipe's buffer at a time
        ["stdbuf", "-oL", *command],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    try:
        yield Lines(watcher)
    finally:
        watcher.kill()
        watcher.wait()


def root_property(
    env: dict, name: str, seconds: float, wanted: Callable[[str], bool] = bool
) -> str | None:
    """The root window's property ``name`` (xprop's line) once it is set and ``wanted``, as
    X reports its changes; None if ``seconds`` go by first."""

    def set_and_wanted(line: str) -> bool:
        return line.startswith(f"{name}(") and wanted(line)

    with watching(env, "xprop", "-root", "-spy") as lines:
        return lines.wait_for(set_and_wanted, seconds)
