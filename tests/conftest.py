"""Headless by default: the client tests draw on SDL's dummy video and audio drivers."""

import os
import sys

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


@pytest.fixture
def driver(tmp_path: Path):
    """The real client on the dummy drivers, with hands to play it (tests/client_driver.py);
    its worker process and queued events go when the test ends."""
    from .client_driver import Driver

    drive = Driver(tmp_path)
    yield drive
    drive.app.close()
    pygame.event.clear()
