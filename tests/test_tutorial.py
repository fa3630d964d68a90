"""Guided first games (game/client/tutorial.py): each played through by taps from the rules
screen to its last words, in every language; a wrong move is answered by the instruction
and the ring again, never an error; the scripts are legal matches."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.client.tutorial import PERSON, TutorialControl, _scripts
from game.i18n import set_language
from game.rules import MatchRecord, variant
from tests.client_driver import Driver

GAMES = {"ausgeblockt": "ausgeblockt", "numeri": "numeri", "dama": "dama:classic",
         "mulino": "mulino:classic"}  # fmt: skip


def test_every_script_is_a_legal_match_with_words_for_each_of_the_players_moves() -> None:
    for script in _scripts().values():
        actions = [s.action or "" for s in script.steps]
        state = MatchRecord(variant(script.name)).initial_state()
        for step in script.steps:
            text = step.action
            if text is None:  # any move the player likes: the first, for this check
                text = state.action_to_str(state.legal_actions()[0])
            person = (state.to_move if state.to_move >= 0 else None) == PERSON
            if person:
                assert step.say is not None, f"{script.name}: no words for {text}"
            state = state.apply(state.parse_action(text))
        assert not state.is_terminal()
        assert len(actions) <= 12  # about two minutes


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
        if state.is_chance():
            assert scene.prompt() == control.instruction() != ""
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
            assert said in " ".join(control.notices())  # the instruction again
            assert scene._hint_areas() or wanted >= 49
            scene.view.clear_selection()
        for tap in drive.taps(scene, state, wanted):
            drive.tap(tap) if isinstance(tap, tuple) else drive.press(tap)
    raise AssertionError("the guided game did not end")


@pytest.mark.parametrize("language", ["en", "it", "de"])
@pytest.mark.parametrize("game", list(GAMES))
def test_each_guided_game_is_played_through_by_taps(
    tmp_path: Path, game: str, language: str
) -> None:
    drive = Driver(tmp_path, size=(1280, 720), seed=3)
    try:
        drive.app.settings.language = set_language(language)
        drive.press("rules")
        drive.press(GAMES[game])
        drive.press("learn")
        assert _play_through(drive, wrong_first=language == "en") >= 3
        done = drive.scene
        assert done.title() == {"en": "Well done!", "it": "Bravo!", "de": "Gut gemacht!"}[language]
        assert done.subtitle()
        drive.press("play")  # on to a real game against the easy computer
        assert type(drive.scene).__name__ == "PlayScene"
        assert drive.scene.match.variant.name == GAMES[game]
    finally:
        set_language("en")
        drive.app.close()


def test_a_kiosk_title_leads_to_the_guided_games_it_allows(tmp_path: Path) -> None:
    from game.client.kiosk_config import KioskConfig

    config = KioskConfig(games=["numeri", "dama:classic"])
    drive = Driver(tmp_path, size=(1920, 1080), kiosk=config)
    try:
        drive.press("learn")
        names = [t.name for t in drive.scene.targets]
        assert names == ["learn numeri", "learn dama", "back"]
        drive.press("learn dama")
        assert isinstance(drive.scene.control, TutorialControl)
    finally:
        drive.app.close()
