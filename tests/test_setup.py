"""Starting a match: *Play* on the title in one tap, and a setup whose every choice is in
sight — each row's choices side by side, the chosen one lit — set by touch and by keyboard."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from game.client import theme
from game.client.kiosk_config import KioskConfig
from game.rules import VARIANTS
from tests.client_driver import Driver


@pytest.fixture
def driver(tmp_path: Path):
    drive = Driver(tmp_path, seed=3)
    yield drive
    drive.app.close()


@pytest.mark.slow
def test_play_on_the_title_is_one_tap_to_a_match_against_the_computer(tmp_path: Path) -> None:
    first = Driver(tmp_path)
    try:
        first.press("play")
        play = first.scene
        assert type(play).__name__ == "PlayScene"
        assert play.match.variant.name == "mulino:classic"  # before any setup: the default
        assert play.match.seats[0].is_human and play.match.seats[1].level == "medium"
        first.press("menu")
        first.press("leave")
        first.settle()
        first.start("numeri", players=3, computers={1: "hard", 2: "hard"})
    finally:
        first.app.close()
    again = Driver(tmp_path)  # the next day: the game and level last set up are remembered
    try:
        assert "Numeri" in again.scene._quick_label()
        again.press("play")
        match = again.scene.match
        assert match.variant.name == "numeri" and match.variant.players == 2
        assert match.seats[0].is_human and match.seats[1].level == "hard"
    finally:
        again.app.close()


def test_a_kiosk_plays_only_a_game_it_allows(tmp_path: Path) -> None:
    kiosk = Driver(tmp_path, size=(1920, 1080), kiosk=KioskConfig(games=["dama:mangia"]))
    try:
        kiosk.press("play")
        assert kiosk.scene.match.variant.name == "dama:mangia"
    finally:
        kiosk.app.close()
        theme.set_scale(1.0)


def _setup(driver: Driver, name: str) -> None:
    driver.press("new game")
    driver.press(name)
    assert type(driver.scene).__name__ == "SetupScene"


def _lit(driver: Driver) -> set[str]:
    """The names of the choices shown chosen."""
    return {choice.name for row, _ in driver.scene.rows for choice in row.choices
            if choice.chosen()}  # fmt: skip


def _one_lit_in_each_row(driver: Driver) -> None:
    """Each row shows what is set: one choice lit (the opponents' row: none for a mix)."""
    for row, _ in driver.scene.rows:
        lit = [choice.name for choice in row.choices if choice.chosen()]
        assert len(lit) == 1 or (not lit and row.choices[0].name.startswith("opponents")), lit


@pytest.mark.parametrize("name", list(VARIANTS))
@pytest.mark.parametrize("way", ["touch", "keyboard"])
def test_every_choice_of_every_game_is_in_sight_and_set_by_touch_or_keys(
    driver: Driver, name: str, way: str
) -> None:
    _setup(driver, name)
    setup = driver.scene
    spec = VARIANTS[name]

    def choose(target_name: str) -> None:
        target = driver.target(target_name)
        if way == "touch":
            driver.touch(target.rect.center)
        else:
            driver.keyboard_to(target)
        assert target_name in _lit(driver)
        _one_lit_in_each_row(driver)

    for players in reversed(spec.players):
        if len(spec.players) > 1:
            choose(f"players {players}")
        assert setup.players == players
        for option in spec.options:
            for value in option.choices(players):
                shown = ("on" if value else "off") if isinstance(value, bool) else value
                choose(f"{option.name} {shown}")
                assert setup.options[option.name] == value
        for seat in range(players):
            choose(f"seat {seat + 1} computer")
            for step in ("weaker",) * 8 + ("stronger",) * 8:  # one past each end: it stays
                driver.press(f"seat {seat + 1} {step}")  # a step lights nothing of its own
                _one_lit_in_each_row(driver)
                if step == "stronger" and setup.seats[seat].level == "level-1":
                    raise AssertionError("the weakest level was not kept at the bottom")
            assert setup.seats[seat].level == "hard" and f"seat {seat + 1} computer" in _lit(driver)
            choose(f"seat {seat + 1} person")
            assert setup.seats[seat].is_human
    choose("opponents computer")
    assert setup.seats[0].is_human and all(s.level for s in setup.seats[1 : setup.players])
    chosen = {o.name: o.choices(setup.players)[-1] for o in spec.options}
    for option, value in chosen.items():
        shown = ("on" if value else "off") if isinstance(value, bool) else value
        choose(f"{option} {shown}")
    driver.press("start")
    # The match is there at once; the computer may win the lot and think on (at hard, a
    # whole Ausgeblockt turn outlasted settle's frames now and then): no waiting for it.
    driver.until(lambda: type(driver.scene).__name__ == "PlayScene")
    match = driver.scene.match
    assert match.variant.players == setup.players
    assert all(match.variant.option(name) == value for name, value in chosen.items())
    assert [s.level for s in match.seats] == [None, *["hard"] * (setup.players - 1)]  # last chosen


def test_one_person_plays_the_computer_unless_they_say_people(driver: Driver) -> None:
    _setup(driver, "numeri")
    setup = driver.scene
    driver.press("players 4")
    assert setup.seats[0].is_human and [s.level for s in setup.seats[1:]] == ["medium"] * 3
    assert "opponents computer" in _lit(driver)
    driver.press("opponents people")
    assert all(s.is_human for s in setup.seats)
    assert "opponents people" in _lit(driver) and "opponents computer" not in _lit(driver)
    driver.choose_level(2, "hard")  # a mix: neither "computer" nor "people" is lit
    assert not {"opponents people", "opponents computer"} & _lit(driver)
    driver.press("opponents computer")  # every other seat the computer, at the level last chosen
    assert [s.level for s in setup.seats[1:]] == ["hard"] * 3


def test_play_remembers_the_level_a_person_faced_not_a_match_of_computers(
    driver: Driver,
) -> None:
    """Play's subtitle says what Play starts: after a match of computers only (a demo
    someone set up), still the level the person last played against."""
    driver.app.settings.last_level = "hard"
    for name in ("new game", "dama:classic", "opponents people"):
        driver.press(name)
    driver.choose_level(0, "easy")
    driver.choose_level(1, "easy")
    driver.press("start")  # (a match of computers plays on by itself: no settling)
    assert driver.app.settings.last_game == "dama:classic"
    assert driver.app.settings.last_level == "hard"
    driver.app.reset(type(driver.app.scenes[0])(driver.app))
    assert driver.scene._quick_label() == "Dama against the computer (Hard)"
    driver.start("mulino:classic", computers={1: "easy"})
    assert driver.app.settings.last_level == "easy"


def test_fewer_players_take_back_a_choice_that_no_longer_exists(driver: Driver) -> None:
    _setup(driver, "numeri")
    setup = driver.scene
    driver.press("players 4")
    driver.press("first 4")  # Yellow begins
    driver.press("players 2")
    assert setup.options["first"] == "lot"
    assert "first lot" in _lit(driver)
    assert "first 4" not in {t.name for t in setup.targets}


@pytest.mark.parametrize("size", [(1920, 1080), (1024, 600), (700, 1050)])
@pytest.mark.parametrize("language", ["en", "it", "de"])
def test_the_setup_fits_the_screen_in_every_language(
    tmp_path: Path, size: tuple[int, int], language: str
) -> None:
    drive = Driver(tmp_path, size=size)
    try:
        drive.app.settings.language = language
        from game import i18n

        i18n.set_language(language)
        _setup(drive, "numeri")
        drive.press("players 4")
        screen = pygame.Rect((0, 0), size)
        rects = [t.rect for t in drive.scene.targets]
        assert all(screen.contains(r) for r in rects), "off screen"
        assert not any(a.colliderect(b) for i, a in enumerate(rects) for b in rects[i + 1 :])
        drive.frame()  # draws
    finally:
        from game import i18n

        i18n.set_language("en")
        drive.app.close()
