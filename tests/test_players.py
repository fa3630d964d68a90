"""Players at this machine: a profile per person, picked for a seat in the setup, with a
record per game and opposition that a finished match updates and a restart keeps; a broken
file is set aside with a message."""

from __future__ import annotations

import json
import logging
from pathlib import Path

from game.rules import Outcome
from game.session.highscores import turns_taken
from game.session.profiles import FILE, MOST, Profiles, opposition
from game.session.seats import Seat, SeatKind
from tests.client_driver import Driver
from tests.matches import finished as _finished

HARD, EASY = Seat(SeatKind.COMPUTER, "hard"), Seat(SeatKind.COMPUTER, "easy")


def test_a_match_counts_for_each_named_person_against_whom_they_played(tmp_path: Path) -> None:
    profiles = Profiles(tmp_path)
    profiles.add("Ada")
    profiles.add("Ben")
    numeri = _finished("numeri", [Seat(name="Ada"), Seat(name="Ben"), Seat(), EASY])
    assert opposition(numeri, 0) == "easy"
    assert sorted(profiles.record(numeri)) == ["Ada", "Ben"]  # the guest is nobody's record
    ada = profiles.get("Ada")
    tally = ada.tally("numeri", "easy")
    outcome = numeri.state.result().outcomes[0]
    assert (tally.played, tally.won, tally.lost) == (
        1, outcome is Outcome.WIN, outcome is Outcome.LOSS)  # fmt: skip
    assert ada.best_numeri == numeri.state.result().scores[0]
    won = _finished("ausgeblockt", [Seat(name="Ada"), HARD],
                    lambda r: r.outcomes[0] is Outcome.WIN)  # fmt: skip
    profiles.record(won)
    assert ada.fastest_ausgeblockt == turns_taken(won, 0)
    assert ada.tally("ausgeblockt", "hard").won == 1
    people = _finished("dama:classic", [Seat(name="Ada"), Seat(name="Ben")])
    profiles.record(people)
    assert ada.tally("dama:classic", "people").played == 1
    again = Profiles(tmp_path)  # a restart
    assert again.get("Ada").tally("ausgeblockt", "hard").won == 1
    assert again.get("Ada").total().played == 3 and again.get("Ben").total().played == 2


def test_at_most_a_dozen_players(tmp_path: Path) -> None:
    profiles = Profiles(tmp_path)
    for n in range(MOST):
        profiles.add(f"P{n}")
    assert profiles.full()
    try:
        profiles.add("One more")
    except ValueError:
        pass
    else:
        raise AssertionError("a thirteenth player was kept")
    profiles.add("P3")  # one already here is fine


def test_a_broken_file_is_set_aside_and_said_on_the_title(tmp_path: Path, caplog) -> None:
    data = tmp_path / "data"
    data.mkdir()
    for broken in ('{"version": 1, "profiles": {"Ada": {"records": {"chess": {}}, '
                   '"best_numeri": null, "fastest_ausgeblockt": null}}}',
                   '{"version": 1, "profiles": []}', "nonsense",
                   json.dumps({"version": 1, "profiles": {"Ada": {
                       "records": {"numeri": {"easy": [1, -1, 0, 0]}},
                       "best_numeri": None, "fastest_ausgeblockt": None}}})):  # fmt: skip
        (data / FILE).write_text(broken)
        with caplog.at_level(logging.ERROR):
            profiles = Profiles(data)
        assert profiles.problem == "broken" and profiles.names() == []
        assert (data / (FILE + ".broken")).read_text() == broken
    (data / FILE).write_text("nonsense")
    driver = Driver(tmp_path)
    try:
        assert "records could not be read" in driver.scene.subtitle()
    finally:
        driver.app.close()


def test_a_player_picked_in_the_setup_gets_the_match_in_their_record(tmp_path: Path) -> None:
    driver = Driver(tmp_path)
    try:
        driver.press("new game")
        driver.press("ausgeblockt")
        setup = driver.scene
        assert setup._seat_label(0).endswith("a guest")
        assert not driver.target("seat 2 player").enabled()  # the computer: nobody to pick
        driver.press("seat 1 player")
        assert type(driver.scene).__name__ == "PickPlayerScene"
        driver.press("new player")
        driver.scene.type_text("Ada")
        driver.press("ok")
        assert driver.scene is setup and setup.seats[0].name == "Ada"
        driver.press("seat 1 computer")
        driver.press("seat 1 person")  # back to a person: still Ada
        assert setup.seats[0].name == "Ada"
        match = _finished("ausgeblockt", [Seat(name="Ada"), HARD])
        from game.client.scenes.results import ResultsScene

        driver.app.push(ResultsScene(driver.app, match, scored=True))
    finally:
        driver.app.close()
    again = Driver(tmp_path)  # a restart: the record is kept
    try:
        again.press("players")
        again.press("player Ada")
        profile = again.scene.profile
        assert profile.tally("ausgeblockt", "hard").played == 1
        again.frame()  # the record screen draws
    finally:
        again.app.close()


def test_the_lan_name_starts_as_the_first_seats_player(tmp_path: Path) -> None:
    driver = Driver(tmp_path)
    try:
        driver.app.profiles.add("Ada")
        driver.app.settings.player_name = "Ada"
        driver.press("play")
        assert driver.scene.match.seats[0].name == "Ada"
    finally:
        driver.app.close()


def test_the_results_say_how_a_match_moved_a_person_s_rating_and_level(tmp_path: Path) -> None:
    """Lost against Mulino's level 5 (about 2575): a first match, so from 2575, down by
    half of K's first step, and the next level is level 4 — said on the results screen;
    a guest's result and a person with the adaptive level off say nothing of it."""
    from game.client.scenes.results import ResultsScene

    driver = Driver(tmp_path)
    try:
        driver.app.profiles.add("Ada")
        level_5 = Seat(SeatKind.COMPUTER, "medium")
        lost = _finished("mulino:classic", [Seat(name="Ada"), level_5],
                         lambda r: r.outcomes[0] is Outcome.LOSS)  # fmt: skip
        results = ResultsScene(driver.app, lost, scored=True)
        driver.app.push(results)
        driver.frame()
        assert results.ratings == ["Ada: rating about 2520 (\u221260), next Level 4"]
        # and the rematch is against the level it said
        assert [seat.level for seat in results._rematch_seats()] == [None, "level-4"]
        driver.press("rematch")
        assert [seat.level for seat in driver.scene.match.seats] == [None, "level-4"]
        guest = ResultsScene(driver.app, _finished("mulino:classic", [Seat(), level_5]), True)
        assert guest.ratings == [] and guest._rematch_seats() == [Seat(), level_5]
        driver.app.profiles.set_adaptive("Ada", False)
        off = ResultsScene(driver.app, _finished("mulino:classic", [Seat(name="Ada"), level_5]),
                           scored=True)  # fmt: skip
        assert off.ratings == []
    finally:
        driver.app.close()
