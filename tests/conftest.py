"""Headless by default: the client tests draw on SDL's dummy video and audio drivers."""

import os
import sys
import tempfile

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from pathlib import Path

import pygame
import pytest

# Bytecode kept: each test worker imports some 300 modules of the project and its tests, and
# the game's own processes started by the tests import the project again.  Where the
# environment says never to write bytecode (PYTHONDONTWRITEBYTECODE, set on the project's
# machine), every one was compiled — and every test module's asserts rewritten by pytest —
# again in every process of every run: a sixth of the quick loop's time.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

# Temporary files in memory where the machine has it: the saves, logs and records the tests
# write are made durable with fsync, which on this machine's virtual disk costs a millisecond
# or more a file (a test that writes two thousand took 2.8 s on disk, 0.3 s in memory). The
# game's own processes started by the tests inherit it.
if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK):
    os.environ["TMPDIR"] = "/dev/shm"
    tempfile.tempdir = None  # asked again at the next use


def pytest_configure(config: pytest.Config) -> None:
    """In the quick loop (``-m "not slow"``) the property tests try a quarter of their
    examples (tests/examples.py); the whole suite tries them all.  Runs in every xdist
    worker before it imports a test module."""
    if "not slow" in (config.getoption("markexpr") or ""):
        from hypothesis import settings

        from . import examples

        examples.quick = True
        settings.register_profile("quick", max_examples=examples.examples(100))
        settings.load_profile("quick")


@pytest.fixture(autouse=True)
def quick_pins(monkeypatch: pytest.MonkeyPatch) -> None:
    """A kiosk PIN's hash at a cost of 16 instead of 16,384: the same code, without 50 ms a
    try in the hundreds of tries the kiosk's tests make (its full cost is checked alone)."""
    from game.client import kiosk_config

    monkeypatch.setattr(kiosk_config, "PIN_WORK", 16)


@pytest.fixture(autouse=True)
def lent_thinker(monkeypatch: pytest.MonkeyPatch) -> None:
    """The client's apps borrow one worker process for the computer's thinking
    (tests/shared_thinker.py) instead of starting one each."""
    from game.client import app

    from .shared_thinker import LentThinker

    monkeypatch.setattr(app, "Thinker", LentThinker)


@pytest.fixture(scope="session", autouse=True)
def _end_the_lent_thinker():
    yield
    from .shared_thinker import close_shared

    close_shared()


@pytest.fixture
def driver(tmp_path: Path):
    """The real client on the dummy drivers, with hands to play it (tests/client_driver.py);
    its worker process and queued events go when the test ends."""
    from .client_driver import Driver

    drive = Driver(tmp_path)
    yield drive
    drive.app.close()
    pygame.event.clear()
