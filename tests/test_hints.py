"""Hints (game/client/coach.py, the match screen's Hint button and H key): the move *hard*
would play, marked on the board without being played, counted in the match and its save."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from game.ai.players import choose
from game.rules import resign_action
from game.session.match import Match
from tests.client_driver import Driver


def _ask_by_key(drive: Driver) -> None:
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text="h"))
    drive.frame()
    drive.settle()


def _person_to_decide(drive: Driver) -> None:
    for _ in range(40):
        drive.settle()
        state = drive.scene.state
        if state.to_move >= 0 and drive.scene.control.here(state.to_move):
            return
        drive.press("roll")
    raise AssertionError("no decision came to the person")


@pytest.mark.slow
@pytest.mark.parametrize("game", ["dama:classic", "mulino:classic", "numeri", "ausgeblockt"])
def test_a_hint_is_hards_legal_choice_marked_and_not_played(tmp_path: Path, game: str) -> None:
    drive = Driver(tmp_path, size=(1280, 720), seed=5)
    drive.start(game, computers={1: "easy"})
    for _ in range(3):
        _person_to_decide(drive)
        drive.play_one()
    _person_to_decide(drive)
    play = drive.scene
    state, match = play.state, play.match
    before = len(match.record.actions)
    drive.press("hint")
    drive.settle()
    hint = play.coach.hint(state)
    seconds = drive.app.settings.thinking_seconds
    seed = match.seed + before
    assert hint in state.legal_actions()
    assert hint == choose(state, "hard", seed, max_seconds=seconds, scale=seconds).action
    assert len(match.record.actions) == before  # shown, not played
    assert play.prompt().startswith("Hint: ")
    if game != "ausgeblockt" or hint < 49 or hint >= 100:
        assert play._hint_areas(), "the hint is marked on the board"
    assert match.hints == [before]
    drive.app.close()


def test_the_h_key_asks_once_per_decision_and_the_hint_goes_with_the_move(
    tmp_path: Path,
) -> None:
    drive = Driver(tmp_path, seed=2)
    drive.start("dama:classic")
    drive.play_one()
    _ask_by_key(drive)
    _ask_by_key(drive)  # the same decision: not counted twice
    play = drive.scene
    assert play.prompt().startswith("Hint: ") and play.match.hints == [1]
    drive.play_one()
    assert not play.prompt().startswith("Hint: ") and not play._hint_areas()
    _ask_by_key(drive)
    assert play.match.hints == [1, 2]
    assert play.match.hints_by_seat() == {1: 1, 0: 1}
    saved = Match.from_bytes(play.match.to_bytes())
    assert saved.hints == [1, 2]
    from game.client.scenes.results import ResultsScene

    play.match.play(resign_action(play.state.to_move))
    assert ResultsScene(drive.app, play.match).detail().endswith(" · 2 hints used")
    drive.app.close()


def test_no_hint_for_the_computers_turn_nor_in_a_match_that_does_not_coach(
    tmp_path: Path,
) -> None:
    drive = Driver(tmp_path, seed=4)
    drive.start("mulino:classic", computers={1: "hard"})
    play = drive.scene
    play.submit(play.state.legal_actions()[0])
    while play.view.animating:
        drive.frame()
    assert play.state.to_move == 1  # the computer thinks
    assert not play._can_hint()
    play.ask_hint()
    assert play.match.hints == [] and play.cue > 0  # a gentle cue, nothing asked
    drive.settle()
    play.control.coaching = False  # as a LAN match's control, unless its room allowed hints
    play.rebuild()
    assert "hint" not in [t.name for t in play.targets]
    _ask_by_key(drive)
    assert play.match.hints == []
    drive.app.close()


def test_a_hint_cancelled_by_the_match_moving_on_can_be_asked_again(tmp_path: Path) -> None:
    drive = Driver(tmp_path, seed=6)
    drive.start("dama:classic")
    play = drive.scene
    drive.press("hint")
    play.app.thinker.cancel()  # as when the computer begins to think meanwhile
    drive.settle()
    assert play.coach.hint(play.state) is None
    drive.press("hint")
    drive.settle()
    assert play.coach.hint(play.state) in play.state.legal_actions()
    assert play.match.hints == [0]
    drive.app.close()
