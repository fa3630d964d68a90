"""The title screen: the games' pieces and dice drift behind the menu (a screen that lives),
still with *reduce motion*, when the title waits for a touch without drawing."""

from __future__ import annotations

from pathlib import Path

import pygame

from game.client.scenes.menus import TitleScene
from tests.client_driver import Driver


def _picture(driver: Driver) -> bytes:
    return pygame.image.tobytes(driver.app.screen, "RGB")


def test_the_title_lives_its_pieces_drift_and_its_dice_tumble(tmp_path: Path) -> None:
    driver = Driver(tmp_path)
    try:
        title = driver.scene
        assert isinstance(title, TitleScene) and title.animating and title.fps == 30
        before = [(d.name, d.x, d.y) for d in title.backdrop.drifters]
        first = _picture(driver)
        driver.frame(20)  # two seconds
        after = [(d.name, d.x, d.y) for d in title.backdrop.drifters]
        assert all((a[1], a[2]) != (b[1], b[2]) for a, b in zip(before, after, strict=True))
        assert any(a[0] != b[0] for a, b in zip(before, after, strict=True))  # a die rolled
        assert _picture(driver) != first
        driver.press("new game")  # the menu works as before under them
        assert type(driver.scene).__name__ == "ChooseScene"
    finally:
        driver.app.close()


def test_with_reduce_motion_the_title_stands_still_and_waits(tmp_path: Path) -> None:
    driver = Driver(tmp_path)
    try:
        driver.app.settings.reduce_motion = True
        driver.app.reset(TitleScene(driver.app))
        driver.frame()
        first = _picture(driver)
        driver.frame(20)
        assert not driver.scene.animating  # the app sleeps in its event wait
        assert _picture(driver) == first
    finally:
        driver.app.close()
