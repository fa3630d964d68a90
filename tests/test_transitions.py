"""Moving between screens: the next screen is uncovered over the last by an edge sweeping
across in a fifth of a second (from the right going on, from the left going back) — taps
already reach the new one — and at once with *reduce motion*.  Each frame of it changes a
strip of the screen, not all of it, and when it ends the screen is exactly the new one,
even if that one moved meanwhile (drifting pieces, falling confetti)."""

from __future__ import annotations

import random
from pathlib import Path

import pygame
import pytest

from game.client.scenes.results import ResultsScene
from game.client.wipe import WIPE_SECONDS
from game.rules import Outcome, variant
from game.session.match import Match
from game.session.seats import Seat, SeatKind
from tests.client_driver import Driver


def _click(driver: Driver, pos: tuple[int, int], dt: float) -> None:
    """A mouse click handled in one frame of ``dt`` seconds."""
    for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        pygame.event.post(pygame.event.Event(kind, pos=pos, button=1, touch=False))
    driver.app.frame(dt)


def _alone(driver: Driver) -> bytes:
    """The current screen drawn whole on its own, as it shows once the wipe is over."""
    surface = pygame.Surface(driver.app.size).convert()
    driver.scene.draw_whole(surface)
    return pygame.image.tobytes(surface, "RGB")


def _shown(driver: Driver) -> bytes:
    return pygame.image.tobytes(driver.app.screen, "RGB")


@pytest.fixture
def shown_areas(monkeypatch: pytest.MonkeyPatch) -> list[list[pygame.Rect] | None]:
    """What each frame showed: the areas it updated, None for the whole window."""
    areas: list[list[pygame.Rect] | None] = []
    monkeypatch.setattr(pygame.display, "flip", lambda: areas.append(None))
    monkeypatch.setattr(pygame.display, "update", lambda rects: areas.append(list(rects)))
    return areas


def test_the_next_screen_is_uncovered_over_the_last(tmp_path: Path, shown_areas) -> None:
    driver = Driver(tmp_path)
    try:
        driver.app.settings.reduce_motion = True  # a still title, to compare pictures
        driver.frame()
        driver.app.settings.reduce_motion = False
        title = _shown(driver)
        _click(driver, driver.target("rules").rect.center, 0.02)  # a tenth of the way
        assert type(driver.scene).__name__ == "RulesIndexScene"
        assert driver.app.transitioning
        assert _shown(driver) not in (title, _alone(driver))  # part old, part new
        width = driver.app.size[0]
        right = driver.app.screen.subsurface(pygame.Rect(width - 4, 0, 4, driver.app.size[1]))
        alone = pygame.Surface(driver.app.size).convert()
        driver.scene.draw_whole(alone)
        assert pygame.image.tobytes(right, "RGB") == pygame.image.tobytes(
            alone.subsurface(pygame.Rect(width - 4, 0, 4, driver.app.size[1])), "RGB"
        )  # going on: the new screen comes in from the right
        _click(driver, driver.target("numeri").rect.center, 0.02)  # a tap in the wipe counts
        assert type(driver.scene).__name__ == "RulesScene"
        shown_areas.clear()
        frames = 0
        while driver.app.transitioning:
            driver.app.frame(0.02)
            frames += 1
        assert frames <= round(WIPE_SECONDS / 0.02)  # a fifth of a second
        assert _shown(driver) == _alone(driver)
        screen = width * driver.app.size[1]
        assert None not in shown_areas  # never the whole window at once
        assert all(sum(a.width * a.height for a in frame) < 0.35 * screen for frame in shown_areas)
    finally:
        driver.app.close()


def test_no_wipe_with_reduce_motion(tmp_path: Path) -> None:
    driver = Driver(tmp_path)
    try:
        driver.app.settings.reduce_motion = True
        driver.frame()
        driver.press("rules")
        assert not driver.app.transitioning
        driver.settle()  # the cards' pictures, one a frame
        driver.app.frame(0.05)
        assert _shown(driver) == _alone(driver)
    finally:
        driver.app.close()


def test_a_moving_screen_uncovered_ends_exactly_itself(tmp_path: Path, shown_areas) -> None:
    """Back to the living title (its pieces drift while it is uncovered), then on to a won
    match's results (confetti falls while they are uncovered): no piece or scrap is left
    where it was when its strip was drawn."""
    driver = Driver(tmp_path)
    try:
        app = driver.app
        app.settings.reduce_motion = False
        driver.frame()
        driver.press("settings")
        for _ in range(20):
            app.frame(1 / 60)
        driver.scene.back()  # to the title, from the left
        for _ in range(round(WIPE_SECONDS * 60) + 1):
            app.frame(1 / 60)
        assert not app.transitioning and type(driver.scene).__name__ == "TitleScene"
        assert _shown(driver) == _alone(driver)
        seats = [Seat(), Seat(SeatKind.COMPUTER, "easy")]
        for seed in range(60):  # a match the person here won: confetti
            match = Match.new(variant("numeri", 2), seats, seed)
            match.play_randomly(random.Random(seed))
            if match.state.result().outcomes[0] is Outcome.WIN:
                break
        app.push(ResultsScene(app, match))
        for _ in range(round(WIPE_SECONDS * 60) + 1):
            app.frame(1 / 60)
        assert not app.transitioning and driver.scene.confetti.active
        assert _shown(driver) == _alone(driver)
    finally:
        driver.app.close()
