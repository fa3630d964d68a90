"""Headless by default: the client tests draw on SDL's dummy video and audio drivers."""

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from pathlib import Path

import pygame
import pytest


@pytest.fixture
def driver(tmp_path: Path):
    """The real client on the dummy drivers, with hands to play it (tests/client_driver.py);
    its worker process and queued events go when the test ends."""
    from .client_driver import Driver

    drive = Driver(tmp_path)
    yield drive
    drive.app.close()
    pygame.event.clear()
