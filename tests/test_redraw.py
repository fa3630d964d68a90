"""Drawing only what changed (game/client/redraw.py): whatever a match screen draws again
and shows in a frame, the screen must be, pixel for pixel, what drawing everything would
make it — through whole matches of every game, by taps, clicks and keys, landscape and
portrait — and the frames where nothing but a piece moves draw and show only part of it."""

from __future__ import annotations

import random
from pathlib import Path

import pygame
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from game.client.redraw import MOST_AREAS, MOST_WAIT, Redraw, SavedUnder, gathered, merged
from game.client.scenes.menu import MenuScene
from game.client.scenes.play import PlayScene
from game.client.scenes.results import ResultsScene
from game.client.scenes.table import FaceToFaceScene
from game.client.scenes.title import TitleScene
from game.rules import Outcome, variant
from game.session.match import Match
from game.session.seats import Seat, SeatKind
from tests.client_driver import Driver

from .examples import examples


class _Checked:
    """Stands in for pygame's display updates: at each one, compares the screen with the
    whole picture of the match screen on show."""

    def __init__(self, driver: Driver) -> None:
        self.driver = driver
        self.frames = {"whole": 0, "partial": 0, "nothing": 0}
        self.area_shown = 0
        self.waits = 0
        """Frames × areas a part of a change waited for room (see ``Redraw.waiting``)."""
        self.mismatch: str | None = None
        self.shown: pygame.Surface | None = None
        """What the display shows: the screen as of each area presented."""

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
        """What the display shows after this update — the screen where it was shown, the
        last frames elsewhere — is what drawing everything would make it."""
        app = self.driver.app
        if self.shown is None or areas is None:
            self.shown = app.screen.copy()
        else:
            for area in areas:
                self.shown.blit(app.screen, area, area)
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
        redraw = getattr(scene, "_redraw", None)
        for late in redraw.waiting if redraw is not None else ():
            whole.blit(self.shown, late, late)  # a part of a change waiting for room
            self.waits += 1
        if pygame.image.tobytes(whole, "RGB") != pygame.image.tobytes(self.shown, "RGB"):
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
    assert checked.waits > 0  # parts of the changes at a move's start or end waited for room
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


def _noise(size: tuple[int, int], seed: int) -> pygame.Surface:
    rng = random.Random(seed)
    surface = pygame.Surface(size)
    for _ in range(200):
        colour = (rng.randrange(256), rng.randrange(256), rng.randrange(256))
        surface.fill(colour, (rng.randrange(size[0]), rng.randrange(size[1]), 9, 7))
    return surface


@settings(max_examples=examples(200), deadline=None, derandomize=True)
@given(
    st.lists(
        st.lists(st.tuples(st.integers(-20, 110), st.integers(-20, 90), st.integers(1, 30)),
                 max_size=12),
        min_size=1, max_size=4,
    ),
    st.one_of(st.none(), st.tuples(st.integers(0, 60), st.integers(0, 40),
                                   st.integers(1, 80), st.integers(1, 60))),
)  # fmt: skip
def test_things_laid_over_a_frame_come_off_without_a_trace(layers, clip) -> None:
    """Sparks laid in several strokes (a frame's, a wipe's strips), over each other, under
    a clip or none, off the edges: lifting them puts back every pixel as it was, and the
    areas shown hold every pixel that changed."""
    surface = _noise((100, 80), seed=len(layers))
    before = surface.copy()
    under = SavedUnder()
    surface.set_clip(clip)
    shown: list[pygame.Rect] = []
    for k, layer in enumerate(layers):
        places = [pygame.Rect(x, y, size, size) for x, y, size in layer]

        def draw(target: pygame.Surface, places=places, k=k) -> None:
            for place in places:
                pygame.draw.circle(target, (k * 60, 255, 0), place.center, place.width // 2)

        shown += under.lay(surface, places, draw)
    changed = _changed(before, surface)
    assert all(any(area.collidepoint(point) for area in shown) for point in changed)
    lifted = under.lift(surface)
    assert sorted(map(tuple, lifted)) == sorted(map(tuple, shown))
    assert pygame.image.tobytes(surface, "RGB") == pygame.image.tobytes(before, "RGB")
    assert under.lift(surface) == []  # once


def _changed(before: pygame.Surface, after: pygame.Surface) -> list[tuple[int, int]]:
    width, height = before.get_size()
    return [(x, y) for x in range(width) for y in range(height)
            if before.get_at((x, y)) != after.get_at((x, y))]  # fmt: skip


def test_gathered_places_hold_each_in_few_areas() -> None:
    rng = random.Random(5)
    places = [pygame.Rect(rng.randrange(3000), rng.randrange(2000), 20, 20) for _ in range(300)]
    areas = gathered(places, 160)
    assert all(any(area.contains(place) for area in areas) for place in places)
    assert len(areas) < len(places)
    assert all(area.width <= 160 + 20 and area.height <= 160 + 20 for area in areas)
    assert gathered([], 160) == []


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


class RedrawOnABudget(RuleBasedStateMachine):
    """A screen of a few elements, some overlapping, changing in any order, drawn by a
    :class:`Redraw` with a budget: after every frame each pixel shows what the elements over
    it show now, except inside the areas waiting for room; and no pixel is wrong for longer
    than :data:`MOST_WAIT` frames."""

    SIZE = 16
    PLACES = (
        ("a", (0, 0, 6, 6)), ("b", (4, 4, 6, 6)), ("c", (10, 0, 6, 16)),
        ("d", (0, 10, 10, 6)), ("e", (2, 2, 12, 3)), ("a", (8, 8, 4, 4)),
    )  # fmt: skip

    def __init__(self) -> None:
        super().__init__()
        self.redraw = Redraw(budget=0.12)  # most changes wait
        self.shown: dict[tuple[str, tuple[int, ...]], int] = {}
        self.screen = [[frozenset()] * self.SIZE for _ in range(self.SIZE)]
        self.stale = [[0] * self.SIZE for _ in range(self.SIZE)]
        """Frames each pixel has shown something else than the elements over it."""
        self.frame()  # the first frame draws everything

    def truth(self, x: int, y: int) -> frozenset:
        """What the elements over ``(x, y)`` showed at the last frame."""
        return frozenset(
            (place, drawn)
            for place, drawn in self.framed.items()
            if pygame.Rect(place[1]).collidepoint(x, y)
        )

    @rule(place=st.sampled_from(PLACES), drawn=st.integers(0, 3))
    def show(self, place, drawn: int) -> None:
        self.shown[place] = drawn

    @rule(place=st.sampled_from(PLACES))
    def hide(self, place) -> None:
        self.shown.pop(place, None)

    @rule(place=st.sampled_from(PLACES), to=st.sampled_from(PLACES), drawn=st.integers(0, 3))
    def move(self, place, to, drawn: int) -> None:
        """An element goes to another place (a focus to the next button) in one frame."""
        if self.shown.pop(place, None) is not None:
            self.shown[(place[0], to[1])] = drawn

    @rule(moving=st.lists(st.tuples(*[st.integers(-2, 17)] * 2), max_size=2))
    def frame(self, moving=()) -> None:
        screen = pygame.Rect(0, 0, self.SIZE, self.SIZE)
        self.framed = dict(self.shown)
        things = [pygame.Rect(x, y, 2, 2) for x, y in moving]
        elements = [(name, pygame.Rect(rect), drawn) for (name, rect), drawn in self.shown.items()]
        areas = self.redraw.areas("look", things, screen, elements)
        for x in range(self.SIZE):
            for y in range(self.SIZE):
                if areas is None or any(area.collidepoint(x, y) for area in areas):
                    self.screen[y][x] = self.truth(x, y)
        for x in range(self.SIZE):
            for y in range(self.SIZE):
                wrong = self.screen[y][x] != self.truth(x, y)
                self.stale[y][x] = self.stale[y][x] + 1 if wrong else 0

    @invariant()
    def every_pixel_shows_the_truth_but_where_a_part_waits(self) -> None:
        late = self.redraw.waiting
        for x in range(self.SIZE):
            for y in range(self.SIZE):
                if not any(rect.collidepoint(x, y) for rect in late):
                    assert self.screen[y][x] == self.truth(x, y), (x, y)

    @invariant()
    def no_pixel_is_wrong_longer_than_a_part_may_wait(self) -> None:
        assert max(map(max, self.stale)) <= MOST_WAIT, self.stale


TestRedrawOnABudget = RedrawOnABudget.TestCase
TestRedrawOnABudget.settings = settings(
    max_examples=examples(60), stateful_step_count=25, deadline=None, derandomize=True
)


def test_a_change_too_large_for_a_frame_is_drawn_over_four_in_the_order_given() -> None:
    assert MOST_WAIT == 3
    redraw = Redraw(budget=0.25)
    rows = [(f"row {k}", pygame.Rect(0, 10 * k, 100, 10), 0) for k in range(10)]
    assert redraw.areas("look", [], SCREEN, rows) is None
    changed = [(name, rect, 1) for name, rect, _ in rows]
    first = redraw.areas("look", [], SCREEN, changed)
    # its share, and more: the three frames after it hold no more than theirs of the rest
    assert first == [pygame.Rect(0, 0, 100, 20), pygame.Rect(0, 90, 100, 10)]
    assert len(redraw.waiting) == 7
    second = redraw.areas("look", [], SCREEN, changed)
    assert second == [pygame.Rect(0, 20, 100, 20)]  # what fits of what waited, in order
    third = redraw.areas("look", [], SCREEN, changed)
    assert third == [pygame.Rect(0, 40, 100, 20)]
    fourth = redraw.areas("look", [], SCREEN, changed)
    assert fourth == [pygame.Rect(0, 60, 100, 30)]  # the rest, however much: waited its most
    assert redraw.waiting == []
    assert redraw.areas("look", [], SCREEN, changed) == []
