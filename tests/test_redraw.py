"""Drawing only what changed (game/client/redraw.py): whatever a match screen draws again
and shows in a frame, the screen must be, pixel for pixel, what drawing everything would
make it — through whole matches of every game, by taps, clicks and keys, landscape and
portrait — and the frames where nothing but a piece moves draw and show only part of it."""

from __future__ import annotations

import random
from pathlib import Path

import pygame
import pytest

from game.client.redraw import MOST_AREAS, Redraw, merged
from game.client.scenes.menu import MenuScene
from game.client.scenes.play import PlayScene
from game.client.scenes.results import ResultsScene
from game.client.scenes.table import FaceToFaceScene
from game.client.scenes.title import TitleScene
from game.rules import Outcome, variant
from game.session.match import Match
from game.session.seats import Seat, SeatKind
from tests.client_driver import Driver


class _Checked:
    """Stands in for pygame's display updates: at each one, compares the screen with the
    whole picture of the match screen on show."""

    def __init__(self, driver: Driver) -> None:
        self.driver = driver
        self.frames = {"whole": 0, "partial": 0, "nothing": 0}
        self.area_shown = 0
        self.mismatch: str | None = None

    def share(self) -> float:
        """The pixels shown, as a share of showing every frame whole."""
        screen = self.driver.app.size[0] * self.driver.app.size[1]
        frames = sum(self.frames.values())
        return (self.frames["whole"] * screen + self.area_shown) / (frames * screen)

    def flip(self) -> None:
        self._check(None)

    def update(self, areas=None) -> None:
        self._check(list(areas) if areas is not None else None)

    def _check(self, areas: list[pygame.Rect] | None) -> None:
        app = self.driver.app
        scene = app.scene
        whole_of = _WHOLE.get(type(scene))
        if whole_of is None or app.transitioning or self.mismatch:
            return
        if areas is None:
            self.frames["whole"] += 1
        elif areas:
            self.frames["partial"] += 1
            self.area_shown += sum(a.width * a.height for a in areas)
        else:
            self.frames["nothing"] += 1
        whole = pygame.Surface(app.size).convert(app.screen)
        whole_of(scene, whole)
        if pygame.image.tobytes(whole, "RGB") != pygame.image.tobytes(app.screen, "RGB"):
            self.mismatch = f"frame {self.driver.frames}: {type(scene).__name__}, {areas}"


def _results_whole(scene: ResultsScene, surface: pygame.Surface) -> None:
    scene.draw_still(surface)
    scene.confetti.draw(surface)


_WHOLE = {PlayScene: PlayScene.draw_whole, FaceToFaceScene: PlayScene.draw_whole,
          TitleScene: MenuScene.draw, ResultsScene: _results_whole}  # fmt: skip
"""How each screen that draws in parts is drawn whole."""


@pytest.fixture
def checked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, request):
    size = getattr(request, "param", (800, 450))
    driver = Driver(tmp_path, size=size, seed=3)
    checked = _Checked(driver)
    monkeypatch.setattr(pygame.display, "flip", checked.flip)
    monkeypatch.setattr(pygame.display, "update", checked.update)
    yield checked
    driver.app.close()


@pytest.mark.slow
@pytest.mark.parametrize("checked", [(1920, 1080)], indirect=True)
def test_the_title_drawn_in_parts_is_the_title_drawn_whole(checked: _Checked) -> None:
    driver = checked.driver
    for _ in range(90):  # three seconds of drifting, then the arrows and a tap
        driver.frame()
    for key in (pygame.K_DOWN, pygame.K_DOWN, pygame.K_UP):
        driver.key(key)
        driver.frame(10)
    driver.frame(60)
    assert checked.mismatch is None, checked.mismatch
    assert checked.frames["partial"] > 100, checked.frames
    screen = driver.app.size[0] * driver.app.size[1]
    assert checked.area_shown < 0.4 * screen * checked.frames["partial"]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("variant", "players", "size", "layout"),
    [
        ("ausgeblockt", None, (800, 450), "beside"),
        ("numeri", 4, (800, 450), "beside"),
        ("dama:classic", None, (800, 450), "beside"),
        ("mulino:classic", None, (800, 450), "beside"),
        ("numeri", 3, (450, 800), "beside"),
        ("mulino:ceylonese", None, (450, 800), "beside"),
        ("mulino:misto", None, (450, 800), "facing"),  # the touch table: two panels, one turned
    ],
)
def test_a_match_drawn_in_parts_is_the_match_drawn_whole(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    variant: str,
    players: int | None,
    size: tuple[int, int],
    layout: str,
) -> None:
    driver = Driver(tmp_path, size=size, seed=3)
    driver.app.settings.table_layout = layout
    checked = _Checked(driver)
    monkeypatch.setattr(pygame.display, "flip", checked.flip)
    monkeypatch.setattr(pygame.display, "update", checked.update)
    driver.app.settings.dice_odds = "on"  # the odds' lines change as dice are kept
    hints = 0
    try:
        driver.start(variant, players)
        for decision in range(60):  # decisions: enough for every kind of move and animation
            if not isinstance(driver.scene, PlayScene) or checked.mismatch:
                break
            if decision % 5 == 2:  # a hint's marks come, and go with the move
                pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text="h"))
                driver.settle()
                hints += driver.scene.prompt().startswith("Hint: ")
            driver.play_one()
    finally:
        driver.app.close()
    assert checked.mismatch is None, checked.mismatch
    assert hints >= 3
    assert checked.frames["partial"] > 20, checked.frames  # pieces moved in part-frames
    assert checked.frames["nothing"] > 0, checked.frames  # and still frames drew nothing
    print(checked.frames, checked.share())
    assert checked.share() < 0.3, checked.frames  # of what drawing every frame whole shows


SCREEN = pygame.Rect(0, 0, 100, 100)


def test_the_areas_are_where_the_moving_things_were_and_are() -> None:
    redraw = Redraw()
    assert redraw.areas("look", [pygame.Rect(0, 0, 10, 10)], SCREEN) is None  # first: all
    assert redraw.areas("look", [pygame.Rect(5, 0, 10, 10)], SCREEN) == [pygame.Rect(0, 0, 15, 10)]
    assert redraw.areas("look", [], SCREEN) == [pygame.Rect(5, 0, 10, 10)]  # where it ended
    assert redraw.areas("look", [], SCREEN) == []  # nothing moves: nothing to draw
    assert redraw.areas("other look", [], SCREEN) is None  # a text changed: all
    redraw.invalidate()
    assert redraw.areas("other look", [], SCREEN) is None
    off_the_edge = [pygame.Rect(90, -5, 20, 20)]
    assert redraw.areas("other look", off_the_edge, SCREEN) == [pygame.Rect(90, 0, 10, 15)]


def test_areas_merge_where_that_draws_no_more_and_far_ones_stay_apart() -> None:
    near = merged([pygame.Rect(0, 0, 10, 10), pygame.Rect(50, 50, 10, 10)], spare=4000)
    assert near == [pygame.Rect(0, 0, 60, 60)]  # a pass saved for a few pixels
    apart = merged([pygame.Rect(0, 0, 100, 100), pygame.Rect(2000, 1500, 100, 100)], 4000)
    assert sorted(map(tuple, apart)) == [(0, 0, 100, 100), (2000, 1500, 100, 100)]
    inside = merged([pygame.Rect(0, 0, 50, 50), pygame.Rect(10, 10, 5, 5)])
    assert inside == [pygame.Rect(0, 0, 50, 50)]
    row = merged([pygame.Rect(x, 0, 10, 10) for x in (0, 10, 20)])
    assert row == [pygame.Rect(0, 0, 30, 10)]
    corners = merged([pygame.Rect(0, 0, 10, 10), pygame.Rect(3830, 2150, 10, 10)])
    assert len(corners) == 2  # not one box round the whole screen
    scattered = [pygame.Rect(x * 600, (x % 7) * 900, 5, 5) for x in range(60)]
    few = merged(scattered)
    assert len(few) <= MOST_AREAS
    assert all(any(area.contains(rect) for area in few) for rect in scattered)


def test_confetti_drawn_in_parts_is_the_confetti_drawn_whole(checked: _Checked) -> None:
    driver = checked.driver
    app = driver.app
    app.settings.reduce_motion = False
    match = Match.new(variant("numeri", 2), [Seat(), Seat(SeatKind.COMPUTER, "easy")], 5)
    for seed in range(5, 60):  # a match the person here won: confetti
        match = Match.new(variant("numeri", 2), [Seat(), Seat(SeatKind.COMPUTER, "easy")], seed)
        match.play_randomly(random.Random(seed))
        if match.state.result().outcomes[0] is Outcome.WIN:
            break
    app.reset(ResultsScene(app, match))
    for _ in range(60):  # the scraps fall, at 60 frames a second
        app.frame(1 / 60)
    driver.key(pygame.K_DOWN)  # a focus moves: all again
    for _ in range(60):
        app.frame(1 / 60)
    assert checked.mismatch is None, checked.mismatch
    assert checked.frames["partial"] > 100, checked.frames
    screen = app.size[0] * app.size[1]
    assert checked.area_shown < 0.5 * screen * checked.frames["partial"]
