"""Hints (game/client/coach.py, the match screen's Hint button and H key): the move *hard*
would play, marked on the board without being played, counted in the match and its save."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from game.ai.players import choose
from game.rules import resign_action
from game.rules.ausgeblockt import CELLS, REROLL_BASE, AusgeblocktState, dice_of
from game.session.match import Hint, Match
from game.session.saves import SaveStore
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
    if _made_on_the_board(state, hint):
        assert play._hint_areas(), "the hint is marked on the board"
    assert match.hints == [Hint(before, state.to_move)]
    drive.app.close()


def _made_on_the_board(state, action: int) -> bool:
    """Whether a person makes ``action`` by tapping the board: everything but Ausgeblockt's
    pass, stop and throwing all five dice again (the panel's buttons; the hint's words say
    so) — *hard* answers within its thinking time, so which it picks depends on the machine."""
    if not isinstance(state, AusgeblocktState):
        return True
    if action < CELLS:
        return True
    return action >= REROLL_BASE and len(dice_of(action - REROLL_BASE)) < len(state.dice)


def test_the_h_key_asks_once_per_decision_and_the_hint_goes_with_the_move(
    tmp_path: Path,
) -> None:
    drive = Driver(tmp_path, seed=2)
    drive.start("dama:classic")
    drive.play_one()
    _ask_by_key(drive)
    _ask_by_key(drive)  # the same decision: not counted twice
    play = drive.scene
    assert play.prompt().startswith("Hint: ") and play.match.hints == [Hint(1, 1)]
    drive.play_one()
    assert not play.prompt().startswith("Hint: ") and not play._hint_areas()
    _ask_by_key(drive)
    assert play.match.hints == [Hint(1, 1), Hint(2, 0)]
    assert play.match.hints_by_seat() == {1: 1, 0: 1}
    assert Match.from_bytes(play.match.to_bytes()) == play.match
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
    assert not play.actions.can_hint()
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
    assert play.match.hints == [Hint(0, 0)]
    drive.app.close()


def _play_a7_hint_undo(tmp_path: Path) -> Driver:
    """The café visitor's start: Play (Mulino against the computer), place a7, the
    computer replies, Hint, Undo."""
    drive = Driver(tmp_path, seed=3)
    drive.app.settings.last_game, drive.app.settings.last_level = "mulino:classic", "easy"
    drive.press("play")
    drive.settle()
    play = drive.scene
    play.submit(play.state.parse_action("a7"))
    drive.settle()
    assert len(play.match.record.actions) == 2  # the computer replied
    for button in ("hint", "undo"):
        drive.press(button)
        drive.settle()
    assert play.match.record.actions == () and play.match.hints == [Hint(0, 0)]
    return drive


def _leave(drive: Driver) -> None:
    drive.press("menu")
    drive.press("leave")
    drive.settle()
    title = drive.scene
    assert title.shelf.problem is None and title.subtitle() == "The classic table games"
    drive.app.close()


def test_hint_then_undo_then_leave_keeps_the_match_whole(tmp_path: Path) -> None:
    """The visitor's sequence through the match screen: Play, a7, the computer's reply,
    Hint, Undo, Menu, Leave.  The title once said the save was damaged, and the match was
    gone."""
    _leave(_play_a7_hint_undo(tmp_path))
    # nothing played now that the move is undone, so nothing is kept
    store = SaveStore(tmp_path / "data")
    assert store.unfinished().matches == () and store.set_aside() == []
    # and once a move is made after the undo, the match is kept with the hint counted
    again = _play_a7_hint_undo(tmp_path)
    play = again.scene
    play.submit(play.state.parse_action("a1"))
    again.settle()
    match = play.match
    _leave(again)
    (kept,) = SaveStore(tmp_path / "data").unfinished().matches
    assert kept.match == match and kept.match.hints_by_seat() == {0: 1}


def test_a_hint_says_what_to_do_in_every_game_never_the_logs_words() -> None:
    """ "Keep 1, 1 and cow; roll 4 and 5 again", not "rolls 4 5 again"; "Capture 18x11"."""
    from game.names import hint_text
    from game.rules import variant
    from game.session.match import Match
    from game.session.seats import Seat

    log_words = ("rolls", "moves pawn", "throws", "marks", "stops rolling")
    for name in ("ausgeblockt", "numeri", "dama:classic", "dama:mangia", "dama:lupo",
                 "mulino:classic", "mulino:misto", "mulino:ceylonese"):  # fmt: skip
        match = Match.new(variant(name), [Seat(), Seat()], 5)
        for _ in range(30):
            while match.state.is_chance():
                match.roll()
            if match.state.is_terminal():
                break
            state = match.state
            for action in state.legal_actions():
                advice = hint_text(state, action)
                assert advice and not advice.startswith(log_words), (name, advice)
                assert advice[0].isupper(), (name, advice)  # an instruction, not a log line
            match.play(state.legal_actions()[-1])
    match = Match.new(variant("ausgeblockt"), [Seat(), Seat()], 3)
    while match.state.is_chance():
        match.roll()
    state = match.state  # dice 1 1 4 5 cow
    assert state.dice == (1, 1, 4, 5, 6)
    reroll = state.parse_action("r45")
    assert hint_text(state, reroll) == "Keep 1, 1 and cow; roll 4 and 5 again"
    assert hint_text(state, state.parse_action("stop")) == "Stop and keep this throw"
