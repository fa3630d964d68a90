"""The match screen as a person follows it: the computer's moves paced and left visible, the
step to take spelled out, the result told from the point of view of the people here, and a
narrow window that keeps its text readable."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pygame
import pytest

from game.client.scenes.play import PACE, PlayScene
from game.client.scenes.results import ResultsScene
from game.rules import resign_action, variant
from game.session.match import Match
from game.session.seats import Seat, SeatKind

from .client_driver import Driver

GAMES = ["ausgeblockt", "numeri", "dama:classic", "dama:lupo", "mulino:classic"]


def _screen(driver: Driver, name: str, seats: list[Seat], seed: int = 7) -> PlayScene:
    play = PlayScene(driver.app, Match.new(variant(name, len(seats)), seats, seed))
    driver.app.push(play)
    return play


def _computer(level: str = "easy") -> Seat:
    return Seat(SeatKind.COMPUTER, level)


@pytest.mark.parametrize("name", GAMES)
def test_after_a_computer_turn_its_move_stays_highlighted(driver: Driver, name: str) -> None:
    """Whenever the person's turn comes after the computer's, the computer's move is
    highlighted (an Ausgeblockt turn that marks nothing has nothing to highlight)."""
    play = _screen(driver, name, [Seat(), _computer()])
    seen: list[frozenset[str]] = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        driver.step()  # waits while the computer thinks in its own process
        if play.state.is_terminal() or len(seen) >= 4:
            break
        if play.locked:
            continue
        last = play.view.last_turn
        if last and play.actor(last[-1].before) == 1:
            seen.append(play.view.highlighted())
            driver.frame(5)
            assert play.view.highlighted() == seen[-1], "the highlight changed before a move"
        state = play.state  # the person plays the first legal action
        if state.is_chance():
            play.roll()
        else:
            play.submit(state.legal_actions()[0])
    assert seen, "the computer never acted"
    if name == "ausgeblockt":
        assert any(seen), "no computer mark was ever highlighted"
    else:
        assert all(seen), seen


def _frames_between_actions(driver: Driver, play: PlayScene, count: int) -> list[int]:
    """Frames of 0.1 s from one action shown to the next, for ``count`` actions (the frames
    while the computer thinks count too: a quick answer still waits for the pause)."""
    frames_between, frames, shown = [], 0, play.shown
    deadline = time.monotonic() + 60
    while len(frames_between) < count and time.monotonic() < deadline:
        driver.step()
        frames += 1
        if play.shown != shown:
            frames_between.append(frames)
            frames, shown = 0, play.shown
    assert len(frames_between) == count, frames_between
    return frames_between


def test_the_computer_is_paced_for_a_person(driver: Driver) -> None:
    play = _screen(driver, "mulino:classic", [_computer(), _computer()])
    driver.app.settings.animation_speed = 1.0
    frames_between = _frames_between_actions(driver, play, 5)
    assert min(frames_between[1:]) * 0.1 >= PACE, frames_between


def test_animation_speed_shortens_the_pause(driver: Driver) -> None:
    play = _screen(driver, "mulino:classic", [_computer(), _computer()])
    driver.app.settings.animation_speed = 2.0
    frames_between = _frames_between_actions(driver, play, 5)
    assert PACE / 2 <= min(frames_between[1:]) * 0.1 < PACE + 0.3, frames_between


def test_the_status_and_prompt_say_whose_turn_and_what_to_do(driver: Driver) -> None:
    play = _screen(driver, "mulino:classic", [Seat(), _computer()])
    driver.frame(3)
    assert play.status().startswith("Your turn")
    assert play.prompt() == play.view.prompt() != ""
    play.submit(play.state.legal_actions()[0])
    driver.frame()
    assert "White" not in play.status() and "Black" in play.status()
    assert play.prompt() == "", "no prompt while the computer plays"


def test_no_click_reaches_the_board_while_the_computer_move_is_shown(driver: Driver) -> None:
    play = _screen(driver, "mulino:classic", [Seat(), _computer()])
    driver.frame(3)
    play.submit(play.state.legal_actions()[0])
    for _ in range(3000):
        driver.frame()
        if play.shown == 2:
            break
    assert play.locked  # the computer's placement is being shown: hands off
    before = len(play.match.record.actions)
    play.submit(play.state.legal_actions()[0])
    assert len(play.match.record.actions) == before


@pytest.mark.parametrize(
    ("resigner", "headline"), [(0, "You lost"), (1, "You won")], ids=["person", "computer"]
)
def test_results_speak_to_the_person_here(driver: Driver, resigner: int, headline: str) -> None:
    match = Match.new(variant("dama:classic"), [Seat(), _computer()], 3)
    match.play(resign_action(resigner))
    results = ResultsScene(driver.app, match)
    driver.app.push(results)
    assert results.headline() == headline
    assert "review" in [t.name for t in results.targets]


def test_hot_seat_results_name_the_winner(driver: Driver) -> None:
    match = Match.new(variant("dama:classic"), [Seat(), Seat()], 3)
    match.play(resign_action(1))
    results = ResultsScene(driver.app, match)
    driver.app.push(results)
    assert results.headline() == "Winner: White"


def test_review_from_the_results_starts_at_the_first_move(driver: Driver) -> None:
    match = Match.new(variant("mulino:classic"), [Seat(), Seat()], 3)
    for text in ("a1", "g7", "d1"):
        match.play(match.state.parse_action(text))
    match.play(resign_action(1))
    driver.app.push(ResultsScene(driver.app, match))
    driver.press("review")
    review = driver.scene
    assert type(review).__name__ == "ReviewScene" and review.step == 0
    driver.settle()
    assert review.review is not None and review.judged().played == "a1"
    driver.press("end")
    assert review.step == len(match.record.actions) and review.judged() is None


@pytest.mark.parametrize("size", [(700, 1050), (1024, 600), (1920, 1080)])
def test_text_stays_readable_in_every_window(tmp_path: Path, size: tuple[int, int]) -> None:
    """The smallest text of the panel (0.8 u) is at least 14 px at 1080p equivalent (the
    window's smaller side scaled to 1080 px)."""
    drive = Driver(tmp_path, size=size)
    try:
        play = _screen(drive, "numeri", [Seat(), _computer(), _computer(), _computer()])
        drive.frame(3)
        equivalent = 1080 / min(size)
        assert 0.8 * play.u * equivalent >= 14, play.u
        if size[0] < size[1]:
            assert play.panel.rect.y >= play.view.rect.bottom, "the panel goes under the board"
        for target in play.targets:
            assert pygame.Rect((0, 0), size).contains(target.rect), target.name
    finally:
        drive.app.close()
        pygame.event.clear()


def test_replay_tells_each_action_in_words_not_engine_codes(driver: Driver) -> None:
    from game.client.scenes.replay import ReplayScene

    match = Match.new(variant("ausgeblockt"), [Seat(), Seat()], 11)
    while len(match.record.actions) < 12:
        state = match.state
        if state.is_chance():
            match.roll()
        else:
            match.play(state.legal_actions()[-1])
    replay = ReplayScene.of_match(driver.app, match)
    driver.app.push(replay)
    lines = [replay._move_line(i) for i in range(12)]
    engine = re.compile(r"\s[=r][1-5C]+$|first\d|\bstop\b")
    codes = [line for line in lines if engine.search(line)]
    assert not codes, lines
    assert any("begins" in line for line in lines) and any("throws" in line for line in lines)


def test_a_throw_that_allows_no_mark_is_said_whoever_plays_next(driver: Driver) -> None:
    """The person stops on a throw with no mark: the turn passes to the computer, and the
    screen says why instead of passing silently."""
    from game.rules.ausgeblockt import STOP

    for seed in range(200):
        match = Match.new(variant("ausgeblockt"), [Seat(), _computer()], seed)
        while match.state.is_chance() and play_actor(match.state) != 0:
            match.roll()  # the lot, and the computer's throw if it begins
        if match.state.is_chance():
            match.roll()  # the person's first throw
        state = match.state
        stops = state.to_move == 0 and STOP in state.legal_actions()
        if stops and play_actor(state.apply(STOP)) == 1:
            break
    else:
        raise AssertionError("no throw without a mark found")
    play = PlayScene(driver.app, match)
    driver.app.push(play)
    driver.frame(2)
    play.submit(STOP)
    for _ in range(3):
        driver.frame()
        assert play.prompt() == "Crosses could not mark: the turn passes"  # whose turn passed
    assert play.shown == len(match.record.actions), "the computer waits until it is read"


def play_actor(state) -> int | None:
    from game.client.turns import actor

    return actor(state)


def test_replay_numbers_turns_as_people_count_them_and_marks_the_hints(driver: Driver) -> None:
    """The list's "3 turns" and the replay's "Turn 3 of 3" count alike: a Mulino move and
    its removal, a Numeri roll and its move, are one turn; a lot is none."""
    from game.client.scenes.replay import ReplayScene
    from game.client.scenes.saved import turns_text

    mulino = Match.new(variant("mulino"), [Seat(), Seat()], 3)
    for text in ("a1", "g7", "d1", "a4", "g1"):  # the last closes a mill: a removal follows
        if text == "g1":
            mulino.note_hint()
        mulino.play(mulino.state.parse_action(text))
    mulino.play(mulino.state.legal_actions()[0])  # the removal, in the same turn
    assert mulino.turn_numbers() == (1, 2, 3, 4, 5, 5) and turns_text(mulino) == "5 turns"
    replay = ReplayScene.of_match(driver.app, mulino)
    driver.app.push(replay)
    lines = [replay._move_line(i) for i in range(6)]
    assert [line.split(".")[0] for line in lines[:5]] == ["1", "2", "3", "4", "5"]
    assert lines[4].endswith(" · hint seen") and lines[5].startswith("    ")
    numeri = Match.new(variant("numeri", 2), [Seat(), Seat()], 4)
    while len(numeri.record.actions) < 8:
        if numeri.state.is_chance():
            numeri.roll()
        else:
            numeri.play(numeri.state.legal_actions()[0])
    turns = numeri.turn_numbers()
    assert turns[0] == 0 and set(turns[1:]) == set(range(1, numeri.turns + 1))
    starts = [i for i in range(1, len(turns)) if turns[i] != turns[i - 1]]
    assert all(numeri.state_at(i).roller is not None for i in starts)  # each begins with a roll


def test_the_status_line_says_your_turn_only_when_input_is_live_and_the_lot_leaves(
    driver: Driver,
) -> None:
    """While the lot or the computer's move still shows, the person's turn shows as coming
    (no control answers yet); "Your turn" once they do; the lot's words go with the first
    move after it."""
    match = Match.new(variant("ausgeblockt"), [Seat(), _computer()], 11)
    play = PlayScene(driver.app, match)
    driver.app.push(play)
    seen: list[tuple[str, bool]] = []
    banners: list[tuple[int, str]] = []
    for _ in range(3000):
        driver.frame()
        banners.append((len(play.match.record.actions), play.banner))
        if play_actor(play.state) == 0 and play.caught_up and not play.state.is_terminal():
            held = play.holding
            seen.append((play.status(), held))
            if not play.locked:
                driver.play_one()
        if sum(1 for _, held in seen if not held) >= 6 and any(held for _, held in seen):
            break
    assert any(held for _, held in seen), "the pause before the person's turn was never seen"
    assert {status for status, held in seen if held} == {"Crosses is next…"}
    assert {status for status, held in seen if not held} == {"Your turn (Crosses)"}
    lot = [n for n, banner in banners if "begins" in banner]
    assert lot and max(lot) == 1  # the lot's words, and gone after the first action after it
