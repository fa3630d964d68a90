"""Saved matches on the screen: every unfinished match offered on the title screen or in its
list, with the game, who plays, when and how far; deleting only after a yes; the save of an
earlier version picked up; and the lists' rows drawn in one text size."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

import pygame
import pytest

from game.client import theme
from game.client.scenes.saved import fitted
from game.rules import AGREED_DRAW, resign_action, variant
from game.session.match import Match
from game.session.saves import SaveStore, seal
from game.session.seats import Seat, SeatKind

from .client_driver import Driver


@pytest.fixture
def home(tmp_path: Path):
    yield tmp_path
    pygame.event.clear()


@pytest.fixture
def driver(home: Path):
    """The client over ``home``'s saves, started when a test has saved what it needs."""
    drivers: list[Driver] = []

    def start() -> Driver:
        drivers.append(Driver(home))
        return drivers[-1]

    yield start
    for drive in drivers:
        drive.app.close()  # the computer's worker process too


def store_in(home: Path) -> SaveStore:
    return SaveStore(home / "data")  # where the driver's app keeps its saves


def texts_drawn(draw: Callable[[pygame.Surface], object]) -> list[str]:
    """The texts ``draw`` renders, in order (empty labels left out)."""
    drawn: list[str] = []
    real = theme.text

    def recording(message: str, *args, **kwargs) -> pygame.Surface:
        drawn.append(message)
        return real(message, *args, **kwargs)

    theme.text = recording
    try:
        draw(pygame.Surface((1280, 720)))
    finally:
        theme.text = real
    return [text for text in drawn if text]


def shown_text(target) -> list[str]:
    """The texts a target draws, in order."""
    return texts_drawn(lambda surface: target.draw(surface, False, False))


def leave(drive: Driver) -> None:
    """From the match to the title screen by the pause menu, as a player would."""
    drive.key(pygame.K_ESCAPE)
    drive.press("leave")
    assert type(drive.scene).__name__ == "TitleScene"


@pytest.mark.slow
def test_a_second_game_keeps_the_first_and_both_are_offered(home: Path, driver) -> None:
    drive = driver()
    drive.start("dama:classic", computers={1: "hard"})
    drive.play_one()
    drive.settle()
    first = drive.scene.match.record
    leave(drive)
    drive.start("mulino:classic")
    drive.play_one()
    second = drive.scene.match.record
    leave(drive)
    today = time.strftime("%Y-%m-%d")
    newest, older = shown_text(drive.target("resume")), shown_text(drive.target("resume 2"))
    assert newest[0] == "Resume: Mulino — 2 people"
    assert newest[1].startswith(today) and newest[1].endswith(" · 1 turn")
    assert older[0] == "Resume: Dama — vs computer, hard"
    assert older[1].startswith(today) and older[1].endswith(" · 2 turns")  # yours, its reply
    drive.press("resume 2")
    assert type(drive.scene).__name__ == "PlayScene" and drive.scene.match.record == first
    leave(drive)
    drive.press("resume")
    assert drive.scene.match.record == second


def unfinished(home: Path, count: int) -> list[Match]:
    """``count`` unfinished matches saved a minute apart, the last the newest."""
    store = store_in(home)
    matches = []
    for seed in range(count):
        match = Match.new(variant("dama:classic"), [Seat(), Seat()], seed)
        match.play(match.state.parse_action("22-18"))
        store.save(match)
        when = time.time() - 60 * (count - seed)
        os.utime(store.path_of(match), (when, when))
        matches.append(match)
    return matches


def test_deleting_asks_and_only_yes_deletes(home: Path, driver) -> None:
    matches = unfinished(home, 3)
    drive = driver()
    assert shown_text(drive.target("unfinished")) == ["Unfinished matches (3)"]
    drive.press("unfinished")
    assert [t.name for t in drive.scene.targets if t.name.startswith("unfinished")] == [
        "unfinished 0",
        "unfinished 1",
        "unfinished 2",
    ]
    drive.press("delete unfinished 1")  # the middle one: seed 1
    confirm = drive.scene
    assert confirm.title() == "Delete this match?"
    assert confirm.subtitle().startswith("Dama — 2 people · ")  # which match
    assert "It cannot be undone." in texts_drawn(confirm.draw)
    drive.press("no")
    drive.key(pygame.K_ESCAPE)  # Escape on the list: back to the title
    assert drive.app.saves.unfinished().total == 3
    drive.press("unfinished")
    drive.press("delete unfinished 1")
    drive.key(pygame.K_ESCAPE)  # Escape on the question is a no
    assert type(drive.scene).__name__ == "UnfinishedScene"
    assert drive.app.saves.unfinished().total == 3
    drive.press("delete unfinished 1")
    drive.press("yes")
    left = [u.match.seed for u in drive.app.saves.unfinished().matches]
    assert left == [matches[2].seed, matches[0].seed]
    assert [t.name for t in drive.scene.targets if t.name.startswith("unfinished")] == [
        "unfinished 0",
        "unfinished 1",
    ]
    drive.press("back")
    drive.press("delete resume 2")  # on the title screen too, with the same question
    drive.press("yes")
    assert [u.match.seed for u in drive.app.saves.unfinished().matches] == [matches[2].seed]
    assert [t.name for t in drive.scene.targets][:2] == ["resume", "delete resume"]


def test_every_unfinished_match_is_reachable_a_page_at_a_time(home: Path, driver) -> None:
    unfinished(home, 15)  # no cap: more than a page holds
    drive = driver()
    drive.press("unfinished")
    assert "Page 1 of 2" in texts_drawn(drive.scene.draw)
    seen = []
    while True:
        seen += [t.name for t in drive.scene.targets if t.name.startswith("unfinished ")]
        if not drive.target("next page").enabled():
            break
        drive.press("next page")
    assert seen == [f"unfinished {n}" for n in range(15)]


def test_the_save_of_an_earlier_version_is_offered(home: Path, driver) -> None:
    match = Match.new(variant("mulino:classic"), [Seat(), Seat(SeatKind.COMPUTER, "easy")], 5)
    match.play(match.state.parse_action("a1"))
    (home / "data").mkdir()
    (home / "data" / "current.tavolo").write_bytes(seal(match.to_bytes()))
    drive = driver()
    assert shown_text(drive.target("resume"))[0] == "Resume: Mulino — vs computer, easy"
    drive.press("resume")
    assert drive.scene.match.record == match.record


def finished(home: Path) -> None:
    """Finished matches whose rows say things of very different lengths."""
    store = store_in(home)
    people = [Seat(), Seat()]
    endings = [
        ("dama:classic", resign_action(0)),
        ("mulino:ceylonese", AGREED_DRAW),
        ("dama:mangia", resign_action(0)),
        ("mulino:classic", AGREED_DRAW),
    ]
    for seed, (name, ending) in enumerate(endings):
        match = Match.new(variant(name), people, 100 + seed)  # seeds are each match's own
        match.play(ending)
        store.save(match)


class Recorder(pygame.Surface):
    """A surface that notes the height of every text line blitted onto it."""

    heights: list[int]

    def blit(self, source, dest, *args, **kwargs):
        if source.get_width():  # an empty label draws nothing
            self.heights.append(source.get_height())
        return super().blit(source, dest, *args, **kwargs)


def line_heights(target) -> list[int]:
    surface = Recorder((1280, 720))
    surface.heights = []
    target.draw(surface, False, False)
    return surface.heights


@pytest.mark.parametrize("kind", ["finished", "unfinished"])
def test_the_rows_of_a_list_are_drawn_in_one_text_size(home: Path, driver, kind: str) -> None:
    finished(home)
    unfinished(home, 3)
    drive = driver()
    drive.press(kind)
    rows = [t for t in drive.scene.targets if t.name.startswith(f"{kind} ")]
    assert len(rows) >= 3
    heights = {tuple(line_heights(row)) for row in rows}
    assert len(heights) == 1, heights  # every row: the same lines in the same sizes
    [sizes] = heights
    assert len(sizes) == 2  # two lines


def test_a_line_too_long_ends_in_an_ellipsis() -> None:
    pygame.font.init()
    text = "Mulino ceylonese — a person · computer, easy · computer, hard"
    short = fitted(text, 20, True, 150)
    assert short.endswith("…") and theme.font(20, True).size(short)[0] <= 150
    assert text.startswith(short[:-1])
    assert fitted("Dama", 20, True, 150) == "Dama"


def test_the_pause_menu_says_what_leaving_keeps_from_every_way_in(home: Path, driver) -> None:
    from game.client.scenes.play import PlayScene
    from game.client.tutorial import TutorialControl, script_for

    drive = driver()
    drive.start("dama:classic")
    drive.press("menu")
    assert drive.scene.subtitle().startswith("Nothing is saved until the first move")
    drive.press("continue")
    drive.play_one()
    drive.press("menu")
    assert drive.scene.subtitle() == (
        "The match is saved: you can come back to it from the title screen."
    )
    drive.press("leave")
    lesson = TutorialControl(drive.app, script_for("mulino:ceylonese"))
    drive.app.push(PlayScene(drive.app, lesson))
    drive.press("menu")
    assert drive.scene.subtitle() == "Lessons are not saved: leaving ends this one."


def test_a_full_disk_is_told_clearly_while_play_goes_on_and_the_notice_goes_when_it_saves(
    home: Path, driver, monkeypatch: pytest.MonkeyPatch
) -> None:
    import errno

    from game.session import saves

    real = saves.atomic_write

    def full(*args, **kwargs) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    drive = driver()
    drive.start("mulino:classic")
    monkeypatch.setattr(saves, "atomic_write", full)
    drive.play_one()
    drive.app.saves.flush()
    play = drive.scene
    assert play.control.notices() == (
        "This match is not being saved: the disk is full. Play on; if the game is closed, "
        "the moves from here on are lost.",
    )
    assert "No space" not in play.control.notices()[0]  # the player's words, not the system's
    drive.frame()
    monkeypatch.setattr(saves, "atomic_write", real)
    drive.play_one()
    drive.app.saves.flush()
    assert play.control.notices() == ()
    assert store_in(home).unfinished().matches[0].match == play.match


def test_finished_matches_say_you_won_or_lost_with_your_side_and_who_resigned() -> None:
    from game.names import outcome_for
    from game.rules import Outcome, Reason, Result

    sides = ["White", "Black"]
    won = Result.win_for(0, 2, Reason.NO_MOVES)
    assert outcome_for(won, sides, [0], ["", ""]) == "You won as White"
    assert outcome_for(won, sides, [1], ["", ""]) == "You lost as Black"
    assert outcome_for(Result.draw(2, Reason.REPETITION), sides, [1], ["", ""]) == (
        "Draw: you played Black"
    )
    resigned = Result.win_for(1, 2, Reason.RESIGNATION)
    assert outcome_for(resigned, sides, [0], ["", ""]) == "You lost as White · you resigned"
    assert outcome_for(resigned, sides, [1], ["", ""]) == "You won as Black · White resigned"
    assert outcome_for(won, sides, [0, 1], ["Anna", ""]) == "Winner: Anna (White)"
    assert outcome_for(won, sides, [], ["", ""]) == "Winner: White"  # computers only
    four = Result((Outcome.LOSS, Outcome.WIN, Outcome.LOSS, Outcome.LOSS), Reason.END_SPACES)
    assert outcome_for(four, ["Red", "Blue", "Green", "Yellow"], [1], [""] * 4) == (
        "You won as Blue"
    )
