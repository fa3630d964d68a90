"""The frame loop: an event the idle loop waited for is handled before the ones that came
after it, so a click or tap that arrives whole (press and release together) is one click;
while the computer thinks the loop sleeps, and its answer wakes it."""

from __future__ import annotations

import time

import pygame

from game.client.app import WAITING_WAIT_MS
from game.client.wakeup import WAKE

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


def test_the_loop_sleeps_while_the_computer_thinks_and_wakes_for_its_move(
    driver: Driver, monkeypatch
) -> None:
    """Waiting for the computer's move, the real loop draws a few frames a second (not 60)
    and the move's arrival wakes it (the worker's answer posts WAKE), not its idle clock."""
    driver.start("dama:classic", computers={1: "hard"})
    play = driver.scene
    play.submit(play.state.legal_actions()[0])
    driver.until(lambda: play.thinking)
    driver.until(lambda: not play.animating)  # the person's move is shown; only the answer is due
    assert play.waiting
    actions = len(play.match.record.actions)
    dispatched: list[int] = []
    frames = 0
    real_dispatch, real_frame = driver.app.dispatch, driver.app.frame

    def dispatch(event: pygame.event.Event) -> None:
        dispatched.append(event.type)
        real_dispatch(event)

    def frame(*args, **kwargs) -> None:
        nonlocal frames
        frames += 1
        real_frame(*args, **kwargs)
        if len(play.match.record.actions) > actions:
            driver.app.running = False  # the computer's move is in: enough

    monkeypatch.setattr(driver.app, "dispatch", dispatch)
    monkeypatch.setattr(driver.app, "frame", frame)
    pygame.event.clear()
    started = time.monotonic()
    driver.app.running = True
    driver.app._loop()
    thought = time.monotonic() - started
    assert len(play.match.record.actions) == actions + 1
    assert WAKE in dispatched, "the worker's answer did not wake the loop"
    most = thought / (WAITING_WAIT_MS / 1000) + 2  # one frame per wait, and the last
    assert frames <= most, f"{frames} frames in {thought:.2f} s of thinking: the loop spun"


def test_a_burst_of_news_queues_one_wake_until_the_loop_takes_it(driver: Driver) -> None:
    """A guest catching up on a long match hears an entry at a time: one WAKE waits in the
    queue (SDL's queue, once full, would refuse the players' input too)."""
    pygame.event.clear()
    for _ in range(1000):
        driver.app.wakeup.notify()
    (wake,) = pygame.event.get(WAKE)
    driver.app.dispatch(wake)  # the loop took it: the next news wakes it again
    driver.app.wakeup.notify()
    assert len(pygame.event.get(WAKE)) == 1
