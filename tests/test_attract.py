"""Attract mode draws its demo again only while the demo moves, and what the screen shows
is always the whole picture of that moment: no banner trails, no stale corners."""

from __future__ import annotations

import itertools
import time
from pathlib import Path

import pygame
import pytest

from game.client import theme
from game.client.kiosk_config import KioskConfig
from game.client.scenes.kiosk import AttractScene, darken
from tests.client_driver import Driver

SIZE = (1024, 640)


@pytest.fixture(params=["ausgeblockt", "numeri", "dama:classic", "mulino:ceylonese"])
def attract(request, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    config = KioskConfig(games=[request.param], dim_after=3600)
    driver = Driver(tmp_path, size=SIZE, kiosk=config)
    driver.app.reset(AttractScene(driver.app, seed=7))
    shown: list[list[pygame.Rect] | None] = []
    """What each frame showed: the areas it updated, None for the whole screen."""
    monkeypatch.setattr(pygame.display, "flip", lambda: shown.append(None))
    monkeypatch.setattr(pygame.display, "update", lambda areas: shown.append(list(areas)))
    yield driver, shown
    driver.app.close()
    theme.set_scale(1.0)


def _whole_picture(scene: AttractScene) -> bytes:
    """The screen as drawing everything now would make it."""
    surface = pygame.Surface(SIZE).convert()
    scene.demo.draw_whole(surface)
    darken(surface, 200 if scene.dimmed else 90)
    scene._draw_banner(surface)
    return pygame.image.tobytes(surface, "RGB")


@pytest.mark.slow
def test_a_resting_demo_is_not_drawn_again_and_the_screen_stays_whole(attract) -> None:
    driver, shown = attract
    scene: AttractScene = driver.scene
    moves = len(scene.demo.match.record.actions)
    partial = whole = 0
    for _ in range(240):  # 8 s of demo: computer moves come from the worker in real time
        time.sleep(0.004)
        driver.app.frame(1 / 30)
        areas = shown[-1]
        if scene.demo.view.animating:
            assert areas is None, "a moving demo is drawn whole"
        if areas is None:
            whole += 1
            continue
        partial += 1
        assert len(areas) == 2  # where the banner was, where it is
        assert sum(a.width * a.height for a in areas) < 0.3 * SIZE[0] * SIZE[1]
        if partial % 10 == 1:
            screen = pygame.image.tobytes(driver.app.screen, "RGB")
            assert screen == _whole_picture(scene), f"after {partial} partial frames"
    assert len(scene.demo.match.record.actions) > moves, "the demo went on meanwhile"
    assert partial > whole > 0


def test_a_window_shown_again_is_shown_whole(attract) -> None:
    driver, shown = attract
    for _ in range(3):
        driver.app.frame(1 / 30)
    while driver.scene.demo.view.animating or shown[-1] is None:
        driver.app.frame(1 / 30)
    pygame.event.post(pygame.event.Event(pygame.WINDOWEXPOSED))
    driver.app.frame(1 / 30)
    assert shown[-1] is None
    driver.app.frame(1 / 30)
    assert shown[-1] is not None or driver.scene.demo.view.animating


def test_the_demo_is_drawn_again_each_second_even_at_rest(attract) -> None:
    """A change that is no move (a status line, a notice) shows within a second."""
    driver, shown = attract
    scene: AttractScene = driver.scene
    scene.demo.update = lambda dt: None  # the demo stands still
    for _ in range(90):
        driver.app.frame(1 / 30)
    wholes = [n for n, areas in enumerate(shown) if areas is None]
    assert 2 <= len(wholes) <= 4 and all(b - a <= 31 for a, b in itertools.pairwise(wholes))
