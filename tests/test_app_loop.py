"""The frame loop: an event the idle loop waited for is handled before the ones that came
after it, so a click or tap that arrives whole (press and release together) is one click."""

from __future__ import annotations

import pygame

from .client_driver import Driver


def _run_loop_on(driver: Driver, events: list[pygame.event.Event]) -> None:
    """Post ``events`` and a quit request while the app is idle, and run its real loop."""
    pygame.event.clear()
    assert not driver.scene.animating, "the loop must be idle, waiting for an event"
    for event in [*events, pygame.event.Event(pygame.QUIT)]:
        pygame.event.post(event)
    driver.app.running = True
    driver.app._loop()


def _click(pos: tuple[int, int]) -> list[pygame.event.Event]:
    return [
        pygame.event.Event(kind, pos=pos, button=1, touch=False)
        for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP)
    ]


def _tap(pos: tuple[int, int], size: tuple[int, int]) -> list[pygame.event.Event]:
    x, y = pos[0] / size[0], pos[1] / size[1]
    finger = {"x": x, "y": y, "dx": 0, "dy": 0, "finger_id": 1, "touch_id": 1}
    return [
        pygame.event.Event(pygame.FINGERDOWN, pressure=1.0, **finger),
        pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1, touch=True),
        pygame.event.Event(pygame.FINGERUP, pressure=0.0, **finger),
        pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1, touch=True),
    ]


def _to_setup(driver: Driver) -> None:
    driver.press("new game")
    driver.press("numeri")
    driver.settle()
    assert type(driver.scene).__name__ == "SetupScene"


def test_a_click_that_arrives_whole_while_idle_is_one_click(driver: Driver) -> None:
    _to_setup(driver)
    setup = driver.scene
    assert setup.players == 2
    _run_loop_on(driver, _click(driver.target("players 3").rect.center))
    assert setup.players == 3, "the first click was lost"


def test_every_click_of_a_series_counts(driver: Driver) -> None:
    _to_setup(driver)
    setup = driver.scene
    asked = [3, 4, 2, 4, 3, 2]
    seen = []
    for players in asked:
        _run_loop_on(driver, _click(driver.target(f"players {players}").rect.center))
        seen.append(setup.players)
    assert seen == asked


def test_a_tap_that_arrives_whole_while_idle_is_one_tap(driver: Driver) -> None:
    _to_setup(driver)
    setup = driver.scene
    _run_loop_on(driver, _tap(driver.target("players 4").rect.center, driver.app.size))
    assert setup.players == 4, "the tap was lost"
