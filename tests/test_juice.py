"""Sparks and confetti: a capture, a mill, a Numeri row and an Ausgeblockt quad each burst
on the board, a win rains confetti; none of it holds the game, all of it stays within its
limit, and *reduce motion* turns it off."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pygame
import pytest

from game.client.particles import LIMIT, Particles
from game.client.scenes.play import PlayScene
from game.client.scenes.results import ResultsScene
from game.rules import Outcome, State, variant
from game.rules.ausgeblockt import CELLS
from game.rules.chance import random_action
from game.rules.checkerboard import SQUARES, decode_path
from game.rules.mulino import REMOVE
from game.rules.numeri import CHOOSE, ROLL
from game.session.match import Match
from game.session.seats import Seat
from tests.client_driver import Driver
from tests.matches import finished


@pytest.fixture
def driver(tmp_path: Path):
    drive = Driver(tmp_path, size=(1280, 720))
    yield drive
    drive.app.close()


def _capture(before: State, action: int, after: State) -> bool:
    return action >= SQUARES and decode_path(action)[1]


def _mill(before: State, action: int, after: State) -> bool:
    return after.stage == REMOVE and before.stage != REMOVE


def _row(before: State, action: int, after: State) -> bool:
    return before.stage == CHOOSE and after.stage == ROLL and after.side == before.side


def _quad(before: State, action: int, after: State) -> bool:
    return action < CELLS and not before.is_chance() and after.side == before.side


def _moment(name: str, wanted: Callable[[State, int, State], bool]) -> tuple[Match, int]:
    """A match of random play up to a decision ``wanted`` accepts, and that decision."""
    for seed in range(1, 400):
        match = Match.new(variant(name), [Seat(), Seat()], seed)
        rng = random.Random(seed)
        while not match.state.is_terminal():
            state = match.state
            if state.is_chance():
                match.roll()
                continue
            for action in state.legal_actions():
                after = state.apply(action)
                if not after.is_terminal() and wanted(state, action, after):
                    return match, action
            match.play(random_action(state, rng))
    raise AssertionError(f"no such moment in {name}")


@pytest.mark.parametrize(
    ("name", "wanted"),
    [
        ("dama:classic", _capture),
        ("mulino:classic", _mill),
        ("numeri", _row),
        ("ausgeblockt", _quad),
    ],
)
def test_the_big_moments_burst_on_the_board_without_holding_the_game(
    driver: Driver, name: str, wanted
) -> None:
    match, action = _moment(name, wanted)
    play = PlayScene(driver.app, match)
    driver.app.reset(play)
    driver.frame(3)
    before = match.state
    play.view.played(before, action, before.apply(action))
    sparks = play.view.particles
    assert sparks.active and len(sparks.live) >= 20
    assert play.animating  # the screen keeps drawing them ...
    for tween in play.view.tweens:  # ... but once the pieces have moved ...
        tween.advance(10)
    play.view.update(0)
    assert not play.view.animating  # ... they hold nobody's input
    assert sparks.active
    play.view.update(5.0)
    assert not sparks.active  # and they end


def test_reduce_motion_makes_no_sparks_and_no_confetti(tmp_path: Path) -> None:
    driver = Driver(tmp_path, size=(1280, 720))
    try:
        driver.app.settings.reduce_motion = True
        match, action = _moment("mulino:classic", _mill)
        play = PlayScene(driver.app, match)
        driver.app.reset(play)
        play.view.played(match.state, action, match.state.apply(action))
        assert not play.view.particles.active
        results = ResultsScene(driver.app, _won("numeri"))
        driver.app.push(results)
        driver.frame(2)
        assert not results.confetti.active
    finally:
        driver.app.close()


def _won(name: str) -> Match:
    def someone_won(result) -> bool:
        return Outcome.WIN in result.outcomes and Outcome.LOSS in result.outcomes

    return finished(name, [Seat(), Seat()], someone_won)


def test_a_win_rains_confetti_over_the_results_and_it_ends(driver: Driver) -> None:
    results = ResultsScene(driver.app, _won("numeri"))
    driver.app.push(results)
    driver.frame()
    assert results.confetti.active and results.animating
    before = pygame.image.tobytes(driver.app.screen, "RGB")
    driver.frame()
    assert pygame.image.tobytes(driver.app.screen, "RGB") != before  # it falls
    driver.frame(60)  # six seconds
    assert not results.confetti.active and not results.animating


def test_a_burst_never_passes_the_limit() -> None:
    particles = Particles(seed=1)
    for _ in range(40):
        particles.burst((100.0, 100.0), [(255, 0, 0)], 100, 300.0, 4.0)
        particles.confetti(pygame.Rect(0, 0, 800, 600), [(0, 255, 0)], 100, 8.0)
    assert len(particles.live) == LIMIT
    surface = pygame.Surface((800, 600))
    particles.update(1 / 60)
    particles.draw(surface)  # drawn anywhere, even off the surface, without error


def test_each_spark_and_scrap_is_drawn_inside_its_place_alone() -> None:
    """The match screen keeps the pixels of each particle's place to take it away with
    (redraw.SavedUnder): a pixel drawn outside its place would stay on the board."""
    particles = Particles(seed=2)
    particles.burst((300.0, 200.0), [(255, 0, 0)], 60, 900.0, 6.0)
    particles.confetti(pygame.Rect(0, 0, 600, 400), [(0, 255, 0)], 60, 8.0)
    for step in range(40):
        particles.update(1 / 60)
        if step % 10:
            continue
        for particle, place in zip(particles.live, particles.places(), strict=True):
            surface = pygame.Surface((600, 400))
            alone = Particles()
            alone.live = [particle]
            assert alone.draw(surface) == [place]
            painted = pygame.mask.from_threshold(surface, (0, 0, 0), (1, 1, 1, 255))
            painted.invert()
            if painted.count():
                assert place.contains(painted.get_bounding_rects()[0]), (place, particle)
    assert Particles().places() == []


def test_no_confetti_when_the_computer_beat_the_person_here(driver: Driver) -> None:
    from game.session.seats import SeatKind

    def computer_won(result) -> bool:
        return result.outcomes[1] is Outcome.WIN and result.outcomes[0] is Outcome.LOSS

    lost = finished("numeri", [Seat(), Seat(SeatKind.COMPUTER, "easy")], computer_won)
    results = ResultsScene(driver.app, lost)
    driver.app.push(results)
    driver.frame()
    assert results.headline() == "You lost" and not results.confetti.active
