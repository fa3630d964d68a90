"""The high-score board: what counts in each game, the day's and the all-time boards, a
name asked after a qualifying result, kept across a restart, a broken file set aside with a
message, the operator's reset, and the boards between the kiosk's demos."""

from __future__ import annotations

import json
import logging
from datetime import date, timedelta
from pathlib import Path

import pygame
import pytest

from game.client import theme
from game.client.kiosk_config import KioskConfig
from game.client.scenes.results import ASK_AFTER, ResultsScene
from game.rules import Outcome, variant
from game.session.highscores import FILE, PLACES, HighScores, Qualifier, results, turns_taken
from game.session.match import Match
from game.session.seats import Seat, SeatKind
from tests.client_driver import Driver
from tests.matches import finished as _finished

TODAY = date(2026, 11, 23)
PERSON = Seat()


def _person_wins(result) -> bool:
    return result.outcomes[0] is Outcome.WIN and result.outcomes[1] is not Outcome.WIN


def test_what_counts_in_each_game() -> None:
    hard, easy = Seat(SeatKind.COMPUTER, "hard"), Seat(SeatKind.COMPUTER, "easy")
    numeri = _finished("numeri", [PERSON, easy])
    assert results(numeri) == [(0, numeri.state.result().scores[0])]  # won or not
    dama = _finished("dama:classic", [PERSON, hard], _person_wins)
    assert results(dama) == [(0, turns_taken(dama, 0))]
    against_easy = Match.from_bytes(dama.to_bytes())
    against_easy.seats = [PERSON, easy]
    assert results(against_easy) == []  # the board games count wins against hard only
    lost = _finished("mulino:classic", [PERSON, hard], lambda r: r.outcomes[0] is Outcome.LOSS)
    assert results(lost) == []
    sheet = _finished("ausgeblockt", [PERSON, easy], _person_wins)
    assert results(sheet) == [(0, turns_taken(sheet, 0))]  # against anyone
    computers = _finished("numeri", [easy, hard])
    assert results(computers) == []  # nobody here played


def test_a_turn_is_a_seats_run_of_decisions() -> None:
    match = Match.new(variant("mulino:classic"), [PERSON, PERSON], 1)
    while match.state.is_chance():
        match.roll()
    first = match.state.to_move
    for point in ("a1", "a7", "d1", "b6", "g1"):  # the mover closes a mill on row 1 ...
        match.play(match.state.parse_action(point))
    assert match.state.to_move == first  # ... and removes: the same turn
    match.play(match.state.legal_actions()[0])
    assert turns_taken(match, first) == 3 and turns_taken(match, 1 - first) == 2


def _qualifier(value: int, variant_name: str = "numeri") -> Qualifier:
    return Qualifier(variant_name, 0, value, 1, 1)


def test_boards_of_the_day_and_of_all_time_keep_the_best(tmp_path: Path) -> None:
    scores = HighScores(tmp_path)
    yesterday = TODAY - timedelta(days=1)
    for value in range(100, 100 + 3 * PLACES):
        scores.add(_qualifier(value), f"Old {value}", yesterday)
    scores.add(_qualifier(50), "Today's first", TODAY)
    assert [s.value for s in scores.all_time("numeri")] == list(range(129, 119, -1))
    assert [s.name for s in scores.today("numeri", TODAY)] == ["Today's first"]
    stored = json.loads((tmp_path / FILE).read_text())["boards"]["numeri"]
    assert len(stored) == PLACES + 1  # nothing kept that no board can show
    fewest = HighScores(tmp_path)
    for value in (30, 12, 12, 40):
        fewest.add(_qualifier(value, "ausgeblockt"), str(value), TODAY)
    board = fewest.all_time("ausgeblockt")
    assert [s.value for s in board] == [12, 12, 30, 40]  # fewer turns first; ties by arrival


def test_a_qualifier_is_found_for_each_place_it_takes(tmp_path: Path) -> None:
    scores = HighScores(tmp_path)
    match = _finished("numeri", [PERSON, PERSON])
    found = scores.qualifiers(match, TODAY)
    assert {q.seat for q in found} == {0, 1}  # an empty board takes everyone
    for value in range(1000, 1000 + PLACES):
        scores.add(_qualifier(value), "Champion", TODAY)
    assert scores.qualifiers(match, TODAY) == []  # full of better results today and ever
    assert scores.qualifiers(match, TODAY + timedelta(days=1)) != []  # a new day's board


def test_a_broken_file_is_set_aside_with_a_message(tmp_path: Path, caplog) -> None:
    for broken in (b"{", b'{"version": 1, "boards": {"chess": []}}',
                   b'{"version": 1, "boards": {"numeri": [{"name": "", "value": 1, "day": "x"}]}}',
                   b"\xff\xfe", b"[]"):  # fmt: skip
        (tmp_path / FILE).write_bytes(broken)
        with caplog.at_level(logging.ERROR):
            scores = HighScores(tmp_path)
        assert scores.problem == "broken" and scores.empty()
        assert (tmp_path / (FILE + ".broken")).read_bytes() == broken  # kept, not lost
        assert not (tmp_path / FILE).exists()
        scores.add(_qualifier(5), "After", TODAY)  # the board goes on
        assert HighScores(tmp_path).all_time("numeri")[0].name == "After"


def _finish_on_screen(driver: Driver, match: Match) -> None:
    driver.app.push(ResultsScene(driver.app, match, scored=True))
    for _ in range(round(ASK_AFTER / 0.1) + 2):
        driver.frame()


def test_a_qualifying_result_asks_a_name_and_the_board_keeps_it(tmp_path: Path) -> None:
    driver = Driver(tmp_path)
    try:
        match = _finished("ausgeblockt", [PERSON, Seat(SeatKind.COMPUTER, "hard")],
                          _person_wins)  # fmt: skip
        _finish_on_screen(driver, match)
        assert type(driver.scene).__name__ == "TextEntryScene"
        for key in "Ada":
            driver.press(f"key {key.lower()}")
        driver.press("ok")
        board = driver.scene
        assert type(board).__name__ == "HighScoresScene" and board.variant == "ausgeblockt"
        assert board.new is not None and board.new.name == "Ada"
        driver.press("back")
        assert type(driver.scene).__name__ == "ResultsScene"  # not asked twice
        driver.frame(30)
        assert type(driver.scene).__name__ == "ResultsScene"
    finally:
        driver.app.close()
    again = Driver(tmp_path)  # a restart
    try:
        again.press("high scores")
        assert again.scene.variant == "ausgeblockt"
        best = again.app.highscores.all_time("ausgeblockt")
        assert [(s.name, s.value) for s in best] == [("Ada", turns_taken(match, 0))]
    finally:
        again.app.close()


def test_each_person_of_a_hot_seat_match_is_asked_in_turn(tmp_path: Path) -> None:
    driver = Driver(tmp_path)
    try:
        _finish_on_screen(driver, _finished("numeri", [PERSON, PERSON, PERSON]))
        names = []
        while type(driver.scene).__name__ == "TextEntryScene":
            assert "for " in driver.scene.prompt  # which seat is asked
            name = f"P{len(names) + 1}"
            driver.scene.type_text(name)
            driver.press("ok")
            names.append(name)
        assert len(names) == 3
        assert {s.name for s in driver.app.highscores.all_time("numeri")} == set(names)
    finally:
        driver.app.close()


def test_a_broken_board_is_said_on_the_title_once(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / FILE).write_text("not json")
    driver = Driver(tmp_path)
    try:
        assert "could not be read" in driver.scene.subtitle()
        driver.press("new game")
        driver.press("numeri")
        driver.press("start")  # the title is made anew under the match
        driver.app.pop()
        assert type(driver.scene).__name__ == "TitleScene"
        assert "could not be read" not in driver.scene.subtitle()
    finally:
        driver.app.close()


def test_the_operator_empties_the_boards_at_the_second_press(tmp_path: Path) -> None:
    from tests.test_kiosk import _long_press_corner, _type

    config = KioskConfig(attract_after=100, dim_after=300)
    kiosk = Driver(tmp_path, size=(1920, 1080), kiosk=config)
    try:
        kiosk.app.highscores.add(_qualifier(77), "Zoe", TODAY)
        _long_press_corner(kiosk, 3.5)
        _type(kiosk, "2580")
        kiosk.press("scores")
        kiosk.press("reset scores")
        assert not kiosk.app.highscores.empty()  # one press: only a question
        assert kiosk.scene.subtitle() == "Press again to empty the high scores"
        kiosk.press("reset scores")
        assert kiosk.app.highscores.empty() and HighScores(tmp_path / "data").empty()
        assert kiosk.scene.subtitle() == "The high scores are empty."
    finally:
        kiosk.app.close()
        theme.set_scale(1.0)


@pytest.mark.slow
def test_the_kiosk_shows_the_boards_between_demos(tmp_path: Path) -> None:
    from game.client.scenes.kiosk import DEMO_SECONDS, SCORES_SECONDS, AttractScene

    config = KioskConfig(games=["numeri", "mulino:classic"], dim_after=3600)
    kiosk = Driver(tmp_path, size=(1280, 720), kiosk=config)
    try:
        kiosk.app.highscores.add(_qualifier(77), "Zoe", date.today())
        attract = AttractScene(kiosk.app, seed=1)
        kiosk.app.reset(attract)
        for _ in range(round(DEMO_SECONDS / 0.1) + 10):  # a frame is at most 0.1 s of game
            kiosk.app.frame(0.1)
            if attract.scores:
                break
        assert attract.scores == "numeri"  # the one game with a board
        kiosk.app.frame(0.1)
        screen = pygame.image.tobytes(kiosk.app.screen, "RGB")
        for _ in range(round(SCORES_SECONDS / 0.1) + 1):
            kiosk.app.frame(0.1)
        assert attract.scores is None  # the next demo
        assert pygame.image.tobytes(kiosk.app.screen, "RGB") != screen
    finally:
        kiosk.app.close()
        theme.set_scale(1.0)


@pytest.mark.parametrize("size", [(1920, 1080), (1024, 600), (700, 1050)])
def test_the_board_screen_fits(tmp_path: Path, size: tuple[int, int]) -> None:
    driver = Driver(tmp_path, size=size)
    try:
        for value in range(PLACES):
            driver.app.highscores.add(_qualifier(value), "A rather long name here", TODAY)
        driver.press("high scores")
        screen = pygame.Rect((0, 0), size)
        assert all(screen.contains(t.rect) for t in driver.scene.targets)
        for name in ("dama:lupo", "numeri"):
            driver.press(name)
            assert driver.scene.variant == name
    finally:
        driver.app.close()


def test_removing_one_of_two_identical_results_leaves_the_other(tmp_path: Path) -> None:
    scores = HighScores(tmp_path)
    for value, name in ((40, "Rude"), (40, "Bea"), (40, "Rude"), (10, "Cal")):
        scores.add(_qualifier(value), name, TODAY)
    listed = scores.entries("numeri")
    assert [(e.score.name, e.score.value) for e in listed] == [
        ("Rude", 40), ("Bea", 40), ("Rude", 40), ("Cal", 10)
    ]  # fmt: skip
    scores.remove("numeri", listed[2])  # the second "Rude", after Bea
    names = [s.name for s in scores.all_time("numeri")]
    assert names == ["Rude", "Bea", "Cal"]
    assert names == [s.name for s in scores.today("numeri", TODAY)]  # one list, both boards
    assert [s.name for s in HighScores(tmp_path).all_time("numeri")] == names  # on the disk
    with pytest.raises(LookupError):
        scores.remove("numeri", listed[2])  # gone: nothing else goes in its place
    scores.clear("numeri")
    assert HighScores(tmp_path).empty()


def test_a_removal_the_disk_refuses_keeps_the_result(tmp_path: Path, monkeypatch) -> None:
    scores = HighScores(tmp_path)
    scores.add(_qualifier(40), "Rude", TODAY)
    scores.add(_qualifier(30, "ausgeblockt"), "Ada", TODAY)

    def refuse(path: Path, data: bytes, **_kwargs) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("game.session.highscores.atomic_write", refuse)
    with pytest.raises(OSError):
        scores.remove("numeri", scores.entries("numeri")[0])
    with pytest.raises(OSError):
        scores.clear("ausgeblockt")
    assert [s.name for s in scores.all_time("numeri")] == ["Rude"]  # as the file has it
    assert [s.name for s in scores.all_time("ausgeblockt")] == ["Ada"]


def _operator_scores(tmp_path: Path, size: tuple[int, int] = (1920, 1080)) -> Driver:
    """A kiosk on the operator's high-score page (as its menu opens it)."""
    from game.client.scenes.operator_scores import OperatorScoresScene

    kiosk = Driver(tmp_path, size=size, kiosk=KioskConfig(attract_after=100, dim_after=300))
    kiosk.app.push(OperatorScoresScene(kiosk.app))
    return kiosk


def _close(driver: Driver) -> None:
    driver.app.close()
    theme.set_scale(1.0)


def _names(scores: HighScores, variant_name: str = "numeri") -> list[str]:
    return [s.name for s in scores.all_time(variant_name)]


def test_the_operator_removes_one_result_at_the_second_press(tmp_path: Path, caplog) -> None:
    kiosk = _operator_scores(tmp_path)
    try:
        scores = kiosk.app.highscores
        for value, name in ((40, "Rude"), (40, "Bea"), (40, "Rude"), (10, "Cal")):
            scores.add(_qualifier(value), name, TODAY)
        kiosk.press("numeri")
        kiosk.press("entry 2")
        assert kiosk.scene.subtitle() == "Press again to remove Bea"
        kiosk.press("entry 3")  # another result: Bea's question is taken back
        assert kiosk.scene.subtitle() == "Press again to remove Rude"
        assert _names(scores) == ["Rude", "Bea", "Rude", "Cal"]  # nothing gone yet
        with caplog.at_level(logging.INFO):
            kiosk.press("entry 3")
        assert _names(scores) == ["Rude", "Bea", "Cal"]  # the one pressed, not its twin
        assert _names(HighScores(tmp_path / "data")) == ["Rude", "Bea", "Cal"]
        assert kiosk.scene.subtitle() == "Rude is removed from the high scores."
        assert "removed a high score of numeri" in caplog.text
        kiosk.press("entry 1")
        kiosk.press("ausgeblockt")  # another game: the question is taken back
        kiosk.press("numeri")
        kiosk.press("entry 1")
        assert _names(scores) == ["Rude", "Bea", "Cal"]  # asked again, not removed
        kiosk.press("remove game")
        kiosk.press("remove game")
        assert scores.all_time("numeri") == [] and kiosk.scene.targets[-6].name == "none"
        kiosk.press("back")
        assert type(kiosk.scene).__name__ == "TitleScene"
    finally:
        _close(kiosk)


def test_a_removal_the_disk_refuses_says_so_and_keeps_the_board(
    tmp_path: Path, monkeypatch
) -> None:
    kiosk = _operator_scores(tmp_path)
    try:
        kiosk.app.highscores.add(_qualifier(40), "Rude", TODAY)
        kiosk.press("numeri")

        def refuse(path: Path, data: bytes, **_kwargs) -> None:
            raise PermissionError(13, "Permission denied", str(path))

        monkeypatch.setattr("game.session.highscores.atomic_write", refuse)
        kiosk.press("entry 1")
        kiosk.press("entry 1")
        assert kiosk.scene.subtitle() == "Not saved: there is no permission to write there"
        assert _names(kiosk.app.highscores) == ["Rude"]
        assert _names(HighScores(tmp_path / "data")) == ["Rude"]
        assert kiosk.target("entry 1")  # still listed, to try again
    finally:
        _close(kiosk)


@pytest.mark.parametrize("size", [(1024, 600), (1920, 1080)])
def test_the_operators_score_page_fits_and_turns_pages(tmp_path: Path, size) -> None:
    from game.client.scenes.operator_scores import MOST_ROWS

    kiosk = _operator_scores(tmp_path, size)
    try:
        scores = kiosk.app.highscores
        for value in range(PLACES):  # yesterday's best ever, then today's board: 20 kept
            scores.add(_qualifier(100 + value), "A rather long name her", TODAY - timedelta(1))
        for value in range(PLACES):
            scores.add(_qualifier(value), f"Today {value}", TODAY)
        kiosk.press("numeri")
        page = kiosk.scene
        for _ in range(page.pages()):
            kiosk.frame()  # it draws
            screen = pygame.Rect((0, 0), size)
            targets = page.targets
            assert all(screen.contains(t.rect) for t in targets)
            assert not any(a.rect.colliderect(b.rect) for a in targets for b in targets
                           if a is not b)  # fmt: skip
            shown = [t for t in targets if t.name.startswith("entry ")]
            assert 1 <= len(shown) <= MOST_ROWS
            if page.page + 1 < page.pages():
                kiosk.press("next page")
        assert page.pages() > 1 and kiosk.target(f"entry {2 * PLACES}")  # the last page
    finally:
        _close(kiosk)


def _initials_kiosk(tmp_path: Path, initials_only: bool) -> Driver:
    config = KioskConfig(attract_after=100, dim_after=300, initials_only=initials_only)
    return Driver(tmp_path, size=(1920, 1080), kiosk=config)


def test_a_kiosk_with_initials_only_takes_three_letters(tmp_path: Path) -> None:
    kiosk = _initials_kiosk(tmp_path, True)
    try:
        kiosk.app.settings.player_name = "Earlier Visitor"
        match = _finished("numeri", [PERSON, Seat(SeatKind.COMPUTER, "easy")])
        _finish_on_screen(kiosk, match)
        entry = kiosk.scene
        assert entry.prompt == "A new high score! Your initials:"
        assert entry.text == ""  # nobody's name offered
        assert not any(t.name in ("key 1", "shift", "space") for t in entry.targets)
        kiosk.press("key M")
        entry.type_text("ario 7")  # from a keyboard: a letter in lower case is taken
        assert entry.text == "MAR"
        kiosk.press("delete")
        entry.type_text("1")  # digits refused
        assert entry.text == "MA"
        entry.type_text("x")
        kiosk.press("ok")
        assert _names(kiosk.app.highscores) == ["MAX"]
        assert kiosk.scene.new.name == "MAX"
    finally:
        _close(kiosk)


def test_a_kiosk_without_initials_only_keeps_a_whole_name(tmp_path: Path) -> None:
    kiosk = _initials_kiosk(tmp_path, False)
    try:
        match = _finished("numeri", [PERSON, Seat(SeatKind.COMPUTER, "easy")])
        _finish_on_screen(kiosk, match)
        entry = kiosk.scene
        assert entry.prompt == "A new high score! Your name:"
        entry.type_text("Mario Rossi 2")
        kiosk.press("ok")
        assert _names(kiosk.app.highscores) == ["Mario Rossi 2"]
    finally:
        _close(kiosk)
