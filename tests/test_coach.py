"""The dice odds beside an Ausgeblockt player's dice (game/client/coach.py): shown when the
setting says so, for the dice the player is keeping right now, worked out in the worker."""

from __future__ import annotations

from pathlib import Path

import pytest

import game.ai.odds
from game.ai.odds import turn_odds
from game.client.coach import Coach
from game.names import percent
from game.rules.ausgeblockt import DECIDE, MARK, ROLL
from tests.client_driver import Driver


def _person_to_roll(drive: Driver) -> None:
    """Settle until the person at seat 0 is to throw the first roll of a turn (a person at
    seat 1 stops at once and passes: who begins is drawn by lot)."""
    for _ in range(40):
        drive.settle()
        state = drive.scene.state
        if state.stage == ROLL and state.attempts == 0 and state.side == 0:
            return
        drive.press({DECIDE: "stop", MARK: "pass"}.get(state.stage, "roll"))
    raise AssertionError("the person never came to roll")


def _odds_lines(drive: Driver) -> list[str]:
    return [line for seat, line in drive.scene.view.counts() if seat == -1]


def test_against_the_easy_computer_the_odds_follow_the_dice_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def not_here(state):
        raise AssertionError("the odds were worked out on the frame loop")

    monkeypatch.setattr(game.ai.odds, "turn_odds", not_here)  # the worker has its own
    drive = Driver(tmp_path)
    assert drive.app.settings.dice_odds == "on"  # shown to people by default
    drive.start("ausgeblockt", computers={1: "easy"})
    _person_to_roll(drive)
    state = drive.scene.state
    expected = turn_odds(state).of(())  # imported before the patch: the real one
    assert _odds_lines(drive) == [
        f"Chance of a mark: {percent(expected.mark)}",
        f"Chance of a quad: {percent(expected.quad)}",
        "",
    ]
    drive.press("roll")
    drive.settle()
    state = drive.scene.state
    assert state.stage == DECIDE and state.side == 0
    odds = turn_odds(state)
    slots = drive.scene.view.slots
    for held in ([], [0], [0, 1], list(range(5))):
        drive.scene.view.clear_selection()
        for slot in held:
            drive.press(f"die {slot}")
        kept = tuple(sorted(slots[s] for s in held))
        mark, quad, best = _odds_lines(drive)
        assert mark.startswith(f"Mark: {percent(odds.of(kept).mark)} (")
        assert quad.startswith(f"Quad: {percent(odds.of(kept).quad)} (")
        if odds.of(kept).mark < odds.best.mark - 5e-4:
            assert f"(best {percent(odds.best.mark)})" in mark
            assert best.startswith("Best for a mark: ")
        else:
            assert mark.endswith("(best choice)") and best == ""
    drive.app.close()


@pytest.mark.parametrize(
    ("setting", "computers", "shown"),
    [
        ("on", {1: "medium"}, True),
        ("on", {}, True),  # people only, around one screen
        ("off", {1: "easy"}, False),
        ("on", {}, True),
        ("on", {1: "hard"}, True),
    ],
)
def test_the_setting_decides_where_odds_are_shown(
    tmp_path: Path, setting: str, computers: dict, shown: bool
) -> None:
    drive = Driver(tmp_path)
    drive.app.settings.dice_odds = setting
    drive.start("ausgeblockt", computers=computers)
    _person_to_roll(drive)
    assert bool(_odds_lines(drive)) is shown
    drive.app.close()


def test_no_odds_in_a_match_whose_control_does_not_coach(tmp_path: Path) -> None:
    """A LAN match's control does not coach unless its room allowed it (its LAN side:
    tests/test_client_lan.py)."""
    drive = Driver(tmp_path)
    drive.app.settings.dice_odds = "on"
    drive.start("ausgeblockt")
    drive.scene.control.coaching = False
    assert not Coach(drive.app, drive.scene.control).shows_odds()
    drive.app.close()


def test_percentages_never_round_to_a_certainty_that_is_not_one() -> None:
    assert [percent(p) for p in (0, 0.001, 0.004, 0.5, 0.994, 0.996, 1)] == [
        "0%", "<1%", "<1%", "50%", "99%", ">99%", "100%",
    ]  # fmt: skip


def test_a_bad_setting_in_the_file_falls_back_to_on_and_the_old_auto_reads_as_on(
    tmp_path: Path,
) -> None:
    from game.client.settings import Settings

    path = tmp_path / "settings.json"
    path.write_text('{"dice_odds": "always"}')
    assert Settings.load(path).dice_odds == "on"
    path.write_text('{"dice_odds": "auto"}')  # the old default, kept by every saved file
    assert Settings.load(path).dice_odds == "on"
    path.write_text('{"dice_odds": "off"}')
    assert Settings.load(path).dice_odds == "off"


def test_numeri_odds_say_the_chance_of_an_extra_roll_and_the_moves_that_earn_one(
    tmp_path: Path,
) -> None:
    from game.ai.odds import extra_roll_moves, roll_odds

    drive = Driver(tmp_path, seed=8)
    drive.app.settings.dice_odds = "on"
    drive.start("numeri", players=2)
    seen = set()
    for _ in range(60):
        drive.settle()
        play = drive.scene
        if type(play).__name__ != "PlayScene" or play.state.is_terminal():
            break
        state, line = play.state, _odds_lines(drive)[-1]
        if state.side == 0 and state.stage == 1 and not play.locked:
            assert line == f"Chance of an extra roll: {percent(roll_odds(state).extra)}"
            seen.add("roll")
        elif state.side == 0 and state.stage == 2 and not play.locked:
            earning = extra_roll_moves(state)
            seen.add("moves" if earning else "none")
            if earning:
                assert line.startswith("Extra roll with: ")
            else:
                assert line == "No move earns an extra roll"
        drive.play_one()
    assert {"roll", "none"} <= seen
    drive.app.close()
