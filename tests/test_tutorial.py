"""Lessons (game/client/tutorial.py): one for each variant, on that variant, played through
by taps from its rules screen to its last words in every language; a wrong move is answered
by "Not that one" and the ring again, never an error; the scripts are legal matches; the
lesson's words stand large in the panel, clear of the board, at every size."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from game.client.beside_panel import BesidePanel
from game.client.match_words import lines_height
from game.client.scenes.play import PlayScene
from game.client.tutorial import PERSON, Script, TutorialControl, _scripts, script_for
from game.i18n import set_language
from game.rules import VARIANTS, MatchRecord, variant
from game.rules.mulino import EXTRA, REMOVE
from tests.client_driver import Driver

LESSONS = list(VARIANTS)
SIZES = [(1920, 1080), (1024, 600), (700, 1050)]


def test_every_variant_has_a_lesson_of_its_own() -> None:
    assert [script.name for script in _scripts().values()] == LESSONS
    assert list(_scripts()) == LESSONS
    for name in LESSONS:
        assert script_for(name).name == name
    assert script_for("dama").name == "dama:classic"  # a family stands for its classic
    assert script_for("mulino").name == "mulino:classic"
    assert script_for("chess") is None


def _persons_turn(state) -> bool:
    return (state.to_move if state.to_move >= 0 else state.roller) == PERSON


def test_every_script_is_a_legal_match_with_words_for_each_of_the_players_moves() -> None:
    for script in _scripts().values():
        state = MatchRecord(variant(script.name)).initial_state()
        for index, step in enumerate(script.steps):
            assert not state.is_terminal(), f"{script.name}: over before step {index}"
            text = step.action
            if text is None:  # any move the player likes: the first, for this check
                text = state.action_to_str(state.legal_actions()[0])
            if (state.to_move if state.to_move >= 0 else None) == PERSON:
                assert step.say is not None, f"{script.name}: no words for {text}"
            if index == script.key:
                assert _persons_turn(state) and step.say is not None, script.name
            action = state.parse_action(text)
            assert action in state.legal_actions() or state.is_chance(), (script.name, text)
            state = state.apply(action)
        if state.is_terminal():  # a lesson may end the match, with the player's win
            assert state.result().winners() == (PERSON,), script.name
        assert len(script.steps) <= 12  # about two minutes


def _panel(scene: PlayScene) -> BesidePanel:
    """A lesson's panel: the usual one, beside the board."""
    assert isinstance(scene.panel, BesidePanel)
    return scene.panel


def _words_shown(scene: PlayScene) -> str:
    """The lesson's words as the panel draws them, lines joined."""
    _room, lines = _panel(scene).lesson_lines()
    return " ".join(line for line, _size, _instruction in lines)


def _said(scene: PlayScene) -> str:
    """Everything the lesson says now, as it would read unwrapped."""
    return " ".join([*scene.control.notices(), scene.prompt()]).strip()


def _play_through(drive: Driver, wrong_first: bool) -> int:
    """Follow the instructions to the last words; with ``wrong_first``, make a wrong move
    before each right one where another is possible.  Returns the instructions seen."""
    instructions = 0
    for _ in range(80):
        drive.settle()
        scene = drive.scene
        if type(scene).__name__ == "TutorialDoneScene":
            return instructions
        control = scene.control
        assert isinstance(control, TutorialControl)
        state = scene.state
        if control.step is None:  # the script is over: its last words come in a moment
            drive.frame(15)
            continue
        if scene.locked:
            continue
        assert _words_shown(scene).split() == _said(scene).split()  # every word, large
        if state.is_chance():
            assert scene.prompt()
            drive.press("roll")
            continue
        instructions += 1
        said = scene.prompt()
        assert said == control.instruction() and said
        wanted = control.known_hint(state)
        if wanted is None:
            wanted = state.legal_actions()[0]
        assert scene._hint_areas() or wanted >= 49  # the move is ringed (or is a button)
        others = [a for a in state.legal_actions() if a != wanted]
        if wrong_first and others and control.step.action is not None:
            before = control.refused
            for tap in drive.taps(scene, state, others[0]):
                drive.tap(tap) if isinstance(tap, tuple) else drive.press(tap)
            drive.settle()
            assert control.refused == before + 1 and scene.state is state
            assert control.notices() == ("Not that one.",)
            assert _words_shown(scene).split() == f"Not that one. {said}".split()
            assert scene._hint_areas() or wanted >= 49
            scene.view.clear_selection()
        for tap in drive.taps(scene, state, wanted):
            drive.tap(tap) if isinstance(tap, tuple) else drive.press(tap)
    raise AssertionError("the lesson did not end")


@pytest.mark.parametrize("language", ["en", "it", "de"])
@pytest.mark.parametrize("name", LESSONS)
def test_each_variants_learn_button_starts_its_own_lesson_played_through_by_taps(
    tmp_path: Path, name: str, language: str
) -> None:
    drive = Driver(tmp_path, size=(1280, 720), seed=3)
    try:
        drive.app.settings.language = set_language(language)
        drive.press("rules")
        drive.press(name)
        drive.press("learn")
        assert isinstance(drive.scene.control, TutorialControl)
        assert drive.scene.match.variant.name == name  # the lesson of the rules just read
        assert _play_through(drive, wrong_first=language == "en") >= 3
        done = drive.scene
        assert done.title() == {"en": "Well done!", "it": "Bravo!", "de": "Gut gemacht!"}[language]
        assert done.last_words() == script_for(name).done()
        drive.press("play")  # on to a real game against the easy computer
        assert type(drive.scene).__name__ == "PlayScene"
        assert drive.scene.match.variant.name == name
        assert not isinstance(drive.scene.control, TutorialControl)
    finally:
        set_language("en")
        drive.app.close()


def test_a_kiosk_title_leads_to_the_lessons_of_the_variants_it_allows(tmp_path: Path) -> None:
    from game.client.kiosk_config import KioskConfig

    config = KioskConfig(games=["numeri", "dama:lupo", "mulino:ceylonese"])
    drive = Driver(tmp_path, size=(1920, 1080), kiosk=config)
    try:
        drive.press("learn")
        names = [t.name for t in drive.scene.targets]
        assert names == ["learn numeri", "learn dama:lupo", "learn mulino:ceylonese", "back"]
        drive.press("learn dama:lupo")
        assert isinstance(drive.scene.control, TutorialControl)
        assert drive.scene.match.variant.name == "dama:lupo"
    finally:
        drive.app.close()


def _at_step(app, script: Script, index: int) -> PlayScene:
    """The match screen of ``script``'s lesson with its first ``index`` actions played as
    the lesson plays them (the computer's with their words)."""
    control = TutorialControl(app, script)
    control.advance_to(index)
    assert len(control.match.record.actions) == index
    scene = PlayScene(app, control)
    app.push(scene)
    return scene


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_lessons_words_are_large_inside_the_window_and_never_over_the_board(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    """Every step of every lesson, in the longest language (German) and in English."""
    drive = Driver(tmp_path, size=size)
    app = drive.app
    try:
        for language in ("en", "de"):
            set_language(language)
            for script in _scripts().values():
                for index in range(len(script.steps) + 1):
                    scene = _at_step(app, script, index)
                    assert _panel(scene).notice_band()[1] == ()  # no band over the board's side
                    room, lines = _panel(scene).lesson_lines()
                    assert " ".join(line for line, _, _ in lines).split() == _said(scene).split()
                    if not lines:
                        app.pop()
                        continue
                    where = f"{script.name} step {index} ({language})"
                    drawn = pygame.Rect(room.x, room.y, room.width, lines_height(lines, scene.u))
                    assert room.contains(drawn), where
                    assert app.screen.get_rect().contains(room), where
                    assert scene.panel.rect.contains(room), where
                    assert not room.colliderect(scene.view.rect), where  # never over the board
                    assert min(s for _, s, _ in lines) >= scene.u, where  # the prompt's size
                    buttons = [t.rect for t in scene.targets if t.draw is not None]
                    assert drawn.collidelist(buttons) == -1, where
                    app.pop()
    finally:
        set_language("en")
        app.close()


def test_the_ceylonese_lesson_never_asks_for_a_removal_after_a_placing_mill() -> None:
    script = script_for("mulino:ceylonese")
    state = MatchRecord(variant(script.name)).initial_state()
    extras = 0
    for step in script.steps:
        assert state.stage != REMOVE
        words = step.say() if step.say is not None else ""
        if state.stage == EXTRA:  # right after a mill made while placing
            extras += 1
            assert step.action == "pass" or not step.action.startswith("x")
            assert "remove" not in words.lower() and "black piece" not in words.lower()
        assert not (step.action or "").startswith("x"), "nothing is removed while placing"
        state = state.apply(state.parse_action(step.action))
    assert extras == 2  # one extra placement used, one declined
    assert not any("remove" in (s.say() if s.say else "").lower() for s in script.steps)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_lessons_last_words_are_wrapped_whole_above_its_buttons(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    """The goal of the game is said in full (a menu's one-line subtitle cut it at both
    sides), above the buttons, inside the window."""
    from game.client import theme
    from game.client.tutorial import TutorialDoneScene

    drive = Driver(tmp_path, size=size)
    app = drive.app
    try:
        for language in ("en", "it", "de"):
            set_language(language)
            for script in _scripts().values():
                done = TutorialDoneScene(app, script)
                app.push(done)
                font = theme.font(round(1.3 * done.u))
                assert " ".join(done.lines).split() == script.done().split()
                assert max(font.size(line)[0] for line in done.lines) <= size[0] - 2 * done.u
                bottom = 9 * done.u + len(done.lines) * font.get_linesize()
                assert all(bottom < t.rect.top for t in done.targets), script.name
                assert all(app.screen.get_rect().contains(t.rect) for t in done.targets)
                app.pop()
    finally:
        set_language("en")
        app.close()
