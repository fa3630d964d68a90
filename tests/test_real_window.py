"""The installed ``tavolo`` command in a real X11 window (on Xvfb): the board is drawn."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pygame
import pytest

from tests.lines import Lines
from tests.xdisplay import require, x_display

TOOLS = ("Xvfb", "xwininfo", "import")
DISPLAY = ":83"


@pytest.fixture
def x_server():
    require(TOOLS, "xvfb x11-utils imagemagick")
    with x_display(DISPLAY) as env:
        yield env


@pytest.mark.slow
def test_installed_tavolo_draws_the_board_in_a_real_window(x_server, tmp_path: Path) -> None:
    tavolo = Path(sys.executable).parent / "tavolo"
    assert tavolo.exists(), "the tavolo command is installed with the package"
    env = {**x_server, "SDL_AUDIODRIVER": "dummy", "TAVOLO_HOME": str(tmp_path)}
    env.pop("SDL_VIDEODRIVER", None)  # a real window, not the dummy driver
    game = subprocess.Popen(
        [tavolo, "--start", "dama:classic", "--size", "1280x720"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    output = Lines(game)
    try:
        # Logged once the first frame is on the window (SDL's present waits for X).
        if output.wait_for("showing 1280x720 on x11", 30) is None:
            pytest.fail(f"no Tavolo window appeared: {output.text}")
        shot = tmp_path / "shot.png"
        subprocess.run(["import", "-window", "root", str(shot)], env=env, check=True, timeout=30)
    finally:
        game.terminate()
        game.wait(timeout=10)
    image = pygame.image.load(str(shot))
    assert image.get_size() == (1280, 720)
    colours = {tuple(image.get_at((x, y)))[:3] for x in range(0, 1280, 8) for y in range(0, 720, 8)}
    assert len(colours) > 50, "the frame is blank or nearly one colour"
    light, dark = (233, 214, 176), (118, 84, 58)  # the checkerboard's squares
    assert light in colours and dark in colours, "no checkerboard in the window"
