"""Touch input that a stuck or extra finger cannot freeze: one finger owns the pointer, the
others are tracked and ignored, and a finger whose lift was lost lets go of the pointer once
it has been silent for longer than any deliberate hold (:data:`STALE_TOUCH_SECONDS`)."""

from __future__ import annotations

import logging
from pathlib import Path

import pygame
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.client import theme
from game.client.input import (
    STALE_TOUCH_SECONDS,
    InputTranslator,
    Motion,
    Press,
    Release,
    UIEvent,
)
from game.client.kiosk_config import KioskConfig
from game.client.kiosk_watch import LONG_PRESS

from .client_driver import Driver
from .examples import examples

SIZE = (1000, 500)
LATER = STALE_TOUCH_SECONDS + 0.5
"""Long enough for a silent finger to be forgotten."""


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def finger(kind: int, finger_id: int, pos: tuple[int, int] = (500, 250), touch_id: int = 1):
    """A finger event as pygame-ce reports it (``pos`` in pixels of a :data:`SIZE` window)."""
    return pygame.event.Event(
        kind,
        touch_id=touch_id,
        finger_id=finger_id,
        x=pos[0] / SIZE[0],
        y=pos[1] / SIZE[1],
        dx=0.0,
        dy=0.0,
        pressure=0.0 if kind == pygame.FINGERUP else 1.0,
    )


def down(finger_id: int, pos: tuple[int, int] = (500, 250), touch_id: int = 1):
    return finger(pygame.FINGERDOWN, finger_id, pos, touch_id)


def up(finger_id: int, pos: tuple[int, int] = (500, 250), touch_id: int = 1):
    return finger(pygame.FINGERUP, finger_id, pos, touch_id)


def move(finger_id: int, pos: tuple[int, int] = (500, 250), touch_id: int = 1):
    return finger(pygame.FINGERMOTION, finger_id, pos, touch_id)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def translator(clock: Clock) -> InputTranslator:
    return InputTranslator(clock=clock)


def feed(translator: InputTranslator, *events: pygame.event.Event) -> list[UIEvent | None]:
    return [translator.translate(event, SIZE) for event in events]


def test_a_tap_is_a_press_and_a_release_where_the_finger_was(
    translator: InputTranslator,
) -> None:
    assert feed(translator, down(1, (100, 50)), move(1, (110, 60)), up(1, (120, 70))) == [
        Press((100, 50)),
        Motion((110, 60)),
        Release((120, 70)),
    ]
    assert translator.fingers == 0 and not translator.pointing


def test_a_second_finger_is_no_second_pointer_and_the_firsts_release_still_counts(
    translator: InputTranslator,
) -> None:
    events = [down(1, (10, 10)), down(2, (20, 20)), move(2, (30, 30)), up(2), up(1, (40, 40))]
    assert feed(translator, *events) == [Press((10, 10)), None, None, None, Release((40, 40))]
    assert translator.fingers == 0


def test_a_finger_lifted_while_another_rests_lets_the_next_tap_through(
    translator: InputTranslator,
) -> None:
    """The resting finger came down second: it never takes the pointer, nor keeps it from
    the next finger."""
    assert feed(translator, down(1), down(2), up(1)) == [
        Press((500, 250)),
        None,
        Release((500, 250)),
    ]
    assert feed(translator, down(3, (5, 5)), up(3, (5, 5)), up(2)) == [
        Press((5, 5)),
        Release((5, 5)),
        None,
    ]


def test_sdls_mouse_copies_of_touches_are_dropped(translator: InputTranslator) -> None:
    copies = [
        pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(5, 5), button=1, touch=True),
        pygame.event.Event(
            pygame.MOUSEMOTION, pos=(6, 6), rel=(1, 1), buttons=(1, 0, 0), touch=True
        ),
        pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(6, 6), button=1, touch=True),
    ]
    assert feed(translator, *copies) == [None, None, None]
    real = pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(5, 5), button=1, touch=False)
    assert feed(translator, real) == [Press((5, 5))]


def test_a_lost_release_lets_a_new_finger_take_the_pointer_once_it_is_stale(
    translator: InputTranslator, clock: Clock, caplog: pytest.LogCaptureFixture
) -> None:
    assert feed(translator, down(1, (10, 10))) == [Press((10, 10))]  # its lift never comes
    clock.advance(LATER)
    with caplog.at_level(logging.INFO, logger="game.client.input"):
        assert feed(translator, down(2, (20, 20))) == [Press((20, 20))]
    assert "held the pointer" in caplog.text
    assert feed(translator, up(2, (20, 20))) == [Release((20, 20))]
    assert feed(translator, down(3), up(3)) == [Press((500, 250)), Release((500, 250))]
    assert feed(translator, move(1), up(1)) == [None, None]  # the lost finger, back late


def test_within_the_stale_time_a_new_finger_is_still_kept_out(
    translator: InputTranslator, clock: Clock
) -> None:
    """The operator's long press in the corner is a finger held still: nothing else may take
    the pointer from it meanwhile, and its release still ends it."""
    assert STALE_TOUCH_SECONDS >= 2 * LONG_PRESS, "the operator's hold needs room to spare"
    assert feed(translator, down(1, (5, 5))) == [Press((5, 5))]
    clock.advance(STALE_TOUCH_SECONDS - 0.1)
    assert feed(translator, down(2), up(2)) == [None, None]
    assert translator.expire() == 0
    assert feed(translator, up(1, (5, 5))) == [Release((5, 5))]


def test_a_moving_finger_is_never_stale(translator: InputTranslator, clock: Clock) -> None:
    feed(translator, down(1))
    for step in range(6):
        clock.advance(STALE_TOUCH_SECONDS * 0.9)
        assert feed(translator, move(1, (step, step)), down(2), up(2)) == [
            Motion((step, step)),
            None,
            None,
        ]
    assert feed(translator, up(1)) == [Release((500, 250))]


def test_expire_drops_a_stale_finger_with_no_new_touch(
    translator: InputTranslator, clock: Clock, caplog: pytest.LogCaptureFixture
) -> None:
    feed(translator, down(1), down(2))
    clock.advance(STALE_TOUCH_SECONDS / 2)
    feed(translator, move(2))  # the second finger moves: it lasts longer
    clock.advance(STALE_TOUCH_SECONDS / 2 + 0.1)
    with caplog.at_level(logging.INFO, logger="game.client.input"):
        assert translator.expire() == 1
    assert "forgotten (it held the pointer)" in caplog.text
    assert not translator.pointing and translator.fingers == 1
    clock.advance(STALE_TOUCH_SECONDS / 2)
    assert translator.expire() == 1
    assert translator.fingers == 0
    assert translator.expire() == 0
    assert feed(translator, up(1), up(2)) == [None, None]  # no Release for a forgotten finger


def test_events_of_unknown_fingers_are_ignored(translator: InputTranslator) -> None:
    assert feed(translator, move(7), up(7)) == [None, None]
    assert feed(translator, down(1), move(7), up(7), move(1, (1, 2))) == [
        Press((500, 250)),
        None,
        None,
        Motion((1, 2)),
    ]
    assert translator.fingers == 1


def test_the_same_finger_id_on_another_touch_device_is_another_finger(
    translator: InputTranslator,
) -> None:
    assert feed(translator, down(0, touch_id=1), down(0, touch_id=2), up(0, touch_id=2)) == [
        Press((500, 250)),
        None,
        None,
    ]
    assert translator.pointing
    assert feed(translator, up(0, touch_id=1)) == [Release((500, 250))]


def test_a_repeated_down_presses_again_cleanly(translator: InputTranslator) -> None:
    assert feed(translator, down(1, (1, 1)), down(1, (2, 2))) == [Press((1, 1)), Press((2, 2))]
    assert translator.fingers == 1
    assert feed(translator, down(2), down(2)) == [None, None]  # a second finger, repeated
    assert feed(translator, up(1, (3, 3)), up(1), up(2)) == [Release((3, 3)), None, None]
    assert translator.fingers == 0


# -- any sequence -------------------------------------------------------------------------

FINGERS = st.tuples(st.integers(1, 2), st.integers(0, 3))  # (touch device, finger)
POSITIONS = st.tuples(st.integers(0, SIZE[0]), st.integers(0, SIZE[1]))
STEPS = st.one_of(
    st.tuples(st.sampled_from(["down", "up", "move"]), FINGERS, POSITIONS),
    st.tuples(st.just("wait"), st.floats(0, 2 * STALE_TOUCH_SECONDS), st.just((0, 0))),
    st.tuples(st.just("expire"), st.just((0, 0)), st.just((0, 0))),
    st.tuples(st.just("mouse copy"), st.booleans(), POSITIONS),
)
KINDS = {"down": pygame.FINGERDOWN, "up": pygame.FINGERUP, "move": pygame.FINGERMOTION}


def _play(translator: InputTranslator, clock: Clock, steps: list) -> None:
    """Feed ``steps``, checking after each that the pointer has one owner at most: Motion and
    Release come only from the finger whose down gave the last Press, nothing comes between a
    Release and the next Press, a Press is released once at most, and another finger presses
    while the owner is down only once the owner has been silent for the stale time."""
    owner = None  # the finger whose down gave the last Press, until its Release
    owner_seen = clock()  # when the owner last pressed or moved
    for what, who, pos in steps:
        if what == "wait":
            clock.advance(who)
            continue
        if what == "expire":
            translator.expire()
            continue
        if what == "mouse copy":
            kind = pygame.MOUSEBUTTONDOWN if who else pygame.MOUSEBUTTONUP
            copy = pygame.event.Event(kind, pos=pos, button=1, touch=True)
            assert translator.translate(copy, SIZE) is None
            continue
        out = translator.translate(finger(KINDS[what], who[1], pos, who[0]), SIZE)
        if isinstance(out, Press):
            assert what == "down" and out.pos == pos
            silent = clock() - owner_seen
            assert owner in (None, who) or silent > STALE_TOUCH_SECONDS, "a live owner lost"
            owner, owner_seen = who, clock()
        elif isinstance(out, Release | Motion):
            assert who == owner, f"{out} from {who}, but {owner} owns the pointer"
            assert what == ("up" if isinstance(out, Release) else "move") and out.pos == pos
            if isinstance(out, Release):
                owner = None  # a second Release for that Press would fail the line above
            else:
                owner_seen = clock()
        else:
            assert out is None
        assert owner is not None or not translator.pointing, "a pointer nobody pressed"


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(STEPS, max_size=60))
def test_any_sequence_leaves_one_pointer_owner_and_a_later_tap_works(steps: list) -> None:
    clock = Clock()
    translator = InputTranslator(clock=clock)
    _play(translator, clock, steps)
    clock.advance(LATER)
    assert feed(translator, down(9, (7, 8)), up(9, (7, 9))) == [Press((7, 8)), Release((7, 9))]
    assert not translator.pointing


# -- through the app ----------------------------------------------------------------------


def _post_and_run(driver: Driver, events: list[pygame.event.Event]) -> None:
    """Post ``events`` and a quit request, and run the app's real loop until it quits."""
    for event in [*events, pygame.event.Event(pygame.QUIT)]:
        pygame.event.post(event)
    driver.app.running = True
    driver.app._loop()


def _touch(driver: Driver, kind: int, finger_id: int, pos: tuple[int, int]) -> list:
    """A finger event on the app's window, and SDL's mouse copy of it."""
    width, height = driver.app.size
    event = pygame.event.Event(
        kind, touch_id=1, finger_id=finger_id, x=pos[0] / width, y=pos[1] / height,
        dx=0.0, dy=0.0, pressure=0.0 if kind == pygame.FINGERUP else 1.0,
    )  # fmt: skip
    button = pygame.MOUSEBUTTONDOWN if kind == pygame.FINGERDOWN else pygame.MOUSEBUTTONUP
    return [event, pygame.event.Event(button, pos=pos, button=1, touch=True)]


def test_in_the_app_a_tap_works_again_once_a_lost_release_goes_stale(driver: Driver) -> None:
    title = driver.scene
    play = driver.target("new game").rect.center
    pygame.event.clear()
    _post_and_run(driver, _touch(driver, pygame.FINGERDOWN, 1, play))  # its lift is lost
    tap = [*_touch(driver, pygame.FINGERDOWN, 2, play), *_touch(driver, pygame.FINGERUP, 2, play)]
    _post_and_run(driver, tap)
    assert driver.scene is title, "a second finger tapped past the first"
    driver.app.frame(LATER)  # the app's clock, which the stale time is measured by
    driver.frame(3)
    assert driver.scene is title, "forgetting the stuck finger tapped what it was on"
    _post_and_run(driver, tap)
    assert driver.scene is not title, "the tap after the stuck finger went stale was lost"


def test_in_a_kiosk_the_operators_long_touch_in_the_corner_still_opens_the_keypad(
    tmp_path: Path,
) -> None:
    kiosk = Driver(tmp_path, size=(1920, 1080), kiosk=KioskConfig())
    try:
        pygame.event.clear()
        for event in _touch(kiosk, pygame.FINGERDOWN, 1, (5, 5)):
            pygame.event.post(event)
        kiosk.app.frame(0.05)
        for _ in range(round((LONG_PRESS + 0.5) / 0.5)):
            kiosk.app.frame(0.5)  # the finger held still: no events, the app ticking on
        for event in _touch(kiosk, pygame.FINGERUP, 1, (5, 5)):
            pygame.event.post(event)
        kiosk.app.frame(0.05)
        assert type(kiosk.scene).__name__ == "KeypadScene"
    finally:
        kiosk.app.close()
        pygame.event.clear()
        theme.set_scale(1.0)
