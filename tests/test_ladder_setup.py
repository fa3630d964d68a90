"""The ladder at the screen: the setup's computer seat steps through the levels with their
ratings ("Level 5 · about 1450", in the player's language), a person's adaptive level is
where the setup starts, the profile shows the person's rating per game, and the LAN's setup
offers only the levels the LAN protocol carries."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from game import i18n
from game.client.scenes.lobby import LanSetupScene
from game.client.scenes.players import rating_text
from game.client.scenes.seats import ladder_label
from game.levels import RUNGS, table
from game.session.adaptive import Standing
from tests.client_driver import Driver

MEASURED = table.Measured(
    ratings=tuple(1000.0 + 112 * n for n in range(RUNGS)),
    low=tuple(960.0 + 112 * n for n in range(RUNGS)),
    high=tuple(1040.0 + 112 * n for n in range(RUNGS)),
    games=100,
)
"""A measured ladder for Dama: level 5 at 1448."""


@pytest.fixture
def measured(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(table, "measured", lambda: {"dama:classic": MEASURED})
    yield
    i18n.set_language("en")


def test_the_setup_shows_each_level_with_its_rating(driver: Driver, measured: None) -> None:
    driver.app.settings.last_level = "medium"
    driver.press("new game")
    driver.press("dama:classic")
    setup = driver.scene
    computer = next(c for row, _ in setup.rows for c in row.choices if c.name == "seat 2 computer")
    assert computer.label() == "Level 5 · about 1450"
    driver.press("seat 2 weaker")
    assert setup.seats[1].level == "level-4" and computer.label() == "Level 4 · about 1340"
    driver.press("seat 2 person")
    assert computer.label() == "Level 4 · about 1340"  # shown, not lit, while a person plays
    driver.press("seat 2 stronger")  # a step makes the seat the computer again
    assert setup.seats[1].level == "medium"
    i18n.set_language("it")
    assert computer.label() == "Livello 5 · circa 1450"
    i18n.set_language("de")
    assert computer.label() == "Stufe 5 · etwa 1450"
    assert ladder_label("numeri", "level-3") == "Stufe 3"  # a ladder not measured: no rating
    driver.frame()


def test_a_person_s_adaptive_level_is_where_the_setup_starts(driver: Driver) -> None:
    profiles = driver.app.profiles
    ada = profiles.add("Ada")
    ada.standings["dama:classic"] = Standing(1560.0, 14, "level-6")
    driver.app.settings.player_name = "Ada"
    driver.app.settings.last_level = "easy"
    driver.press("new game")
    driver.press("dama:classic")
    setup = driver.scene
    if setup.seats[0].name != "Ada":  # the main player may be asked for: pick her
        driver.press("seat 1 player")
        driver.press("player Ada")
    assert setup.seats[1].level == "level-6"
    driver.press("back")
    profiles.set_adaptive("Ada", False)  # off: the level last chosen
    driver.press("dama:classic")
    assert driver.scene.seats[1].level == "easy"


def test_the_profile_shows_the_person_s_rating_per_game(driver: Driver) -> None:
    ada = driver.app.profiles.add("Ada")
    assert rating_text(ada, "dama:classic") == "–"
    ada.standings["dama:classic"] = Standing(1447.0, 9, "medium")
    assert rating_text(ada, "dama:classic") == "about 1450, next Medium"
    driver.press("players")
    driver.press("player Ada")
    driver.frame()
    assert ada.adaptive  # on for every profile
    driver.press("adaptive")
    assert not driver.app.profiles.get("Ada").adaptive
    driver.frame()


def test_the_lan_setup_steps_through_the_named_levels_only(driver: Driver) -> None:
    driver.app.settings.last_level = "level-3"
    setup = LanSetupScene(driver.app, "mulino:classic")
    driver.app.push(setup)
    assert setup.level == "easy"  # the nearest level the LAN carries
    driver.press("seat 2 computer")
    driver.press("seat 2 stronger")
    assert setup.seats[1].level == "medium"
    driver.press("seat 2 stronger")
    driver.press("seat 2 stronger")
    assert setup.seats[1].level == "hard"


def test_play_on_the_title_starts_a_person_at_their_adaptive_level(driver: Driver) -> None:
    ada = driver.app.profiles.add("Ada")
    ada.standings["dama:classic"] = Standing(1560.0, 14, "level-6")
    driver.app.settings.player_name = "Ada"
    driver.app.settings.last_game = "dama:classic"
    driver.app.settings.last_level = "easy"
    driver.app.reset(type(driver.app.scenes[0])(driver.app))
    assert driver.scene._quick_label() == "Dama against the computer (Level 6)"
    driver.app.profiles.set_adaptive("Ada", False)
    assert driver.scene._quick_label() == "Dama against the computer (Easy)"
