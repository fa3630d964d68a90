"""Moving between screens: the screen left slides off the next in a fifth of a second (to
the left going on, to the right going back) — taps already reach the new one — and does not
with *reduce motion*."""

from __future__ import annotations

from pathlib import Path

import pygame

from game.client.app import SLIDE_SECONDS
from tests.client_driver import Driver


def _click(driver: Driver, pos: tuple[int, int], dt: float) -> None:
    """A mouse click handled in one frame of ``dt`` seconds."""
    for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        pygame.event.post(pygame.event.Event(kind, pos=pos, button=1, touch=False))
    driver.app.frame(dt)


def _alone(driver: Driver) -> bytes:
    """The current screen drawn on its own, as it shows once the slide is over."""
    surface = pygame.Surface(driver.app.size).convert()
    driver.scene.draw(surface)
    return pygame.image.tobytes(surface, "RGB")


def test_the_screen_left_slides_off_the_next(tmp_path: Path) -> None:
    driver = Driver(tmp_path)
    try:
        driver.app.settings.reduce_motion = True  # a still title, to compare pictures
        driver.frame()
        driver.app.settings.reduce_motion = False
        _click(driver, driver.target("rules").rect.center, 0.02)  # a tenth of the way
        assert type(driver.scene).__name__ == "RulesIndexScene"
        assert driver.app.transitioning
        shown = pygame.image.tobytes(driver.app.screen, "RGB")
        assert shown != _alone(driver)  # the title is still partly on the screen
        _click(driver, driver.target("numeri").rect.center, 0.02)  # a tap in the slide counts
        assert type(driver.scene).__name__ == "RulesScene"
        for _ in range(round(SLIDE_SECONDS / 0.05) + 1):
            driver.app.frame(0.05)
        assert not driver.app.transitioning
        assert pygame.image.tobytes(driver.app.screen, "RGB") == _alone(driver)
    finally:
        driver.app.close()


def test_no_slide_with_reduce_motion(tmp_path: Path) -> None:
    driver = Driver(tmp_path)
    try:
        driver.app.settings.reduce_motion = True
        driver.frame()
        driver.press("rules")
        assert not driver.app.transitioning
        driver.settle()  # the cards' pictures, one a frame
        driver.app.frame(0.05)
        assert pygame.image.tobytes(driver.app.screen, "RGB") == _alone(driver)
    finally:
        driver.app.close()
