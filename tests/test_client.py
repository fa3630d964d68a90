"""The client, headless: complete matches through synthetic events, and the screen's
robustness to resizing, full screen, touch and bad input."""

from __future__ import annotations

import re
from concurrent.futures import wait
from pathlib import Path

import pygame
import pytest

from game.rules import every_setup

from .client_driver import Driver

SETUPS = [(v.name, v.players, dict(v.options)) for v in every_setup()]


@pytest.fixture
def driver(tmp_path: Path):
    drive = Driver(tmp_path)
    yield drive
    drive.app.close()  # the computer's worker process too
    pygame.event.clear()


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "players", "options"), SETUPS, ids=[v.describe() for v in every_setup()]
)
def test_a_whole_match_from_title_to_results(
    tmp_path: Path, name: str, players: int, options: dict
) -> None:
    drive = Driver(tmp_path, seed=players)
    drive.settle()
    drive.start(name, players if name == "numeri" else None, options)
    assert type(drive.scene).__name__ == "PlayScene"
    match = drive.scene.match
    drive.play_to_the_end()
    results = drive.scene
    assert results.result == match.state.result()
    assert drive.app.saves.unfinished().total == 0  # finished: no match left to resume
    assert len(drive.app.saves.finished()) == 1
    drive.press("title")
    assert type(drive.scene).__name__ == "TitleScene"


def test_keyboard_alone_reaches_every_target(driver: Driver) -> None:
    from game.client.widgets import nearest

    driver.start("dama:classic")
    scene = driver.scene
    live = [t for t in scene.targets if t.enabled()]
    reached, frontier = {id(live[0])}, [live[0]]
    while frontier:
        current = frontier.pop()
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            step = nearest(scene.targets, current, dx, dy)
            if step is not None and id(step) not in reached:
                reached.add(id(step))
                frontier.append(step)
    assert reached == {id(t) for t in live}


def test_tab_reaches_the_target_no_arrow_leads_to(driver: Driver) -> None:
    """Found by a keyboard player on a portrait Numeri screen: pawn 2, on the second row
    of the track, lay where every arrow preferred another target in line (the mute key,
    Resign, Menu).  Tab and Shift+Tab walk through every target in turn."""
    from game.client.widgets import Target, following, nearest

    def at(name: str, x: int, y: int, side: int = 34) -> Target:
        return Target(pygame.Rect(x, y, side, side), lambda: None, name=name)

    targets = [
        at("pawn 1", 189, 107), at("pawn 2", 341, 183), at("pawn 3", 317, 501, 19),
        at("pawn 4", 379, 107), at("pawn 5", 265, 107), at("mute", 184, 482, 35),
        Target(pygame.Rect(156, 758, 138, 36), lambda: None, name="resign"),
        Target(pygame.Rect(300, 758, 138, 36), lambda: None, name="menu"),
    ]  # fmt: skip
    reached, frontier = {"pawn 1"}, [targets[0]]
    while frontier:
        current = frontier.pop()
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            step = nearest(targets, current, dx, dy)
            if step is not None and step.name not in reached:
                reached.add(step.name)
                frontier.append(step)
    assert "pawn 2" not in reached  # spatial navigation alone cannot get there
    walk, focus = [], targets[0]
    for _ in range(len(targets)):
        focus = following(targets, focus, 1)
        walk.append(focus.name)
    assert sorted(walk) == sorted(t.name for t in targets) and walk[-1] == "pawn 1"
    assert following(targets, targets[0], -1).name == "menu"  # Shift+Tab: back round

    driver.key(pygame.K_TAB)  # on the title, through the real keys
    first = driver.scene.focus
    assert first is not None and first.name == driver.scene.targets[0].name
    driver.key(pygame.K_TAB)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_TAB,
                                         mod=pygame.KMOD_LSHIFT, unicode=""))  # fmt: skip
    driver.frame()
    assert driver.scene.focus is first


def test_keyboard_plays_a_move_and_navigates_menus(driver: Driver) -> None:
    driver.key(pygame.K_DOWN)  # the focus goes to the first button: Play
    assert driver.scene.focus is not None and driver.scene.focus.name == "play"
    driver.key(pygame.K_DOWN)
    assert driver.scene.focus.name == "new game"
    driver.key(pygame.K_DOWN)
    assert driver.scene.focus.name == "lan"
    driver.key(pygame.K_UP)
    driver.key(pygame.K_SPACE)
    assert type(driver.scene).__name__ == "ChooseScene"
    driver.key(pygame.K_ESCAPE)
    assert type(driver.scene).__name__ == "TitleScene"
    driver.start("mulino:classic")
    scene = driver.scene
    scene.focus = driver.target("point a1")
    driver.key(pygame.K_RETURN)
    driver.settle()
    assert scene.match.record.notation() == ("a1",)
    driver.key(pygame.K_RIGHT)  # a1 → d1
    driver.key(pygame.K_SPACE)
    driver.settle()
    assert scene.match.record.notation() == ("a1", "d1")


def test_a_touch_counts_once_though_sdl_also_sends_mouse_events(driver: Driver) -> None:
    driver.start("mulino:classic")
    driver.touch(driver.scene.view.point_center(0))
    driver.settle()
    assert driver.scene.match.record.notation() == ("a1",)


def test_illegal_taps_give_a_gentle_cue_and_change_nothing(driver: Driver) -> None:
    driver.start("dama:classic")
    scene = driver.scene
    before = scene.match.state.digest()
    driver.click(scene.view.square_center(8))  # a black man, on White's turn
    assert scene.cue > 0 and scene.match.state.digest() == before
    driver.settle()
    driver.click(scene.view.square_center(21))  # 22: select
    driver.click(scene.view.square_center(12))  # 13: not reachable
    assert scene.cue > 0 and scene.match.state.digest() == before
    assert type(driver.scene).__name__ == "PlayScene"


def test_undo_goes_back_in_a_local_game(driver: Driver) -> None:
    driver.start("dama:classic")
    scene = driver.scene
    driver.click(scene.view.square_center(21))
    driver.click(scene.view.square_center(17))
    driver.settle()
    assert scene.match.record.notation() == ("22-18",)
    driver.press("undo")
    assert scene.match.record.notation() == ()


def test_resize_and_full_screen_toggles_keep_everything_on_screen(driver: Driver) -> None:
    driver.start("numeri")
    for size in ((1024, 600), (3840, 2160), (900, 1400), (1920, 1080)):
        pygame.event.post(pygame.event.Event(pygame.WINDOWRESIZED, x=size[0], y=size[1]))
        pygame.display.set_mode(size, pygame.RESIZABLE)
        driver.frame()
        screen = pygame.Rect((0, 0), driver.app.size)
        assert all(screen.contains(t.rect) for t in driver.scene.targets), size
    driver.key(pygame.K_F11)
    assert driver.app.settings.fullscreen
    driver.key(pygame.K_F11)
    assert not driver.app.settings.fullscreen
    driver.frame(3)
    assert type(driver.scene).__name__ == "PlayScene"


def test_a_match_resumes_after_a_restart(tmp_path: Path) -> None:
    first = Driver(tmp_path)
    first.start("mulino:misto")
    for _ in range(5):
        first.play_one()
    saved = first.scene.match.state.digest()
    first.app.close()  # the restart: the game quit (its saves written), started again
    pygame.event.clear()
    second = Driver(tmp_path)
    second.press("resume")
    assert second.scene.match.state.digest() == saved


def test_a_damaged_save_is_set_aside_with_a_notice(tmp_path: Path) -> None:
    first = Driver(tmp_path)
    first.start("dama:classic")
    first.play_one()
    first.app.saves.flush()
    path = first.app.saves.store.path_of(first.scene.match)
    path.write_bytes(path.read_bytes()[:-7])
    second = Driver(tmp_path)
    assert second.scene.subtitle() == "A match could not be opened and was put aside."
    assert "resume" not in [t.name for t in second.scene.targets]


def test_settings_persist_and_translate_the_screens(tmp_path: Path) -> None:
    first = Driver(tmp_path)
    first.press("settings")
    first.press("language")  # English → Italiano
    assert first.app.settings.language == "it"
    first.press("back")
    assert first.target("new game").label() == "Nuova partita"  # the title, in Italian
    second = Driver(tmp_path)
    assert second.app.settings.language == "it"
    from game.i18n import _

    assert _("New game") == "Nuova partita"
    second.press("settings")
    second.press("language")
    second.press("language")  # back to English for the other tests
    assert second.app.settings.language == "en"


def test_rules_screen_for_every_game(driver: Driver) -> None:
    from game.rules import VARIANTS

    driver.press("rules")
    for name in VARIANTS:
        driver.press(name)
        driver.frame()
        assert type(driver.scene).__name__ == "RulesScene"
        driver.press("back")


def test_finished_matches_replay_step_by_step_and_export_as_pdn(tmp_path: Path) -> None:
    drive = Driver(tmp_path, seed=4)
    drive.start("dama:classic")
    drive.play_to_the_end()
    match = drive.scene.match
    drive.press("title")
    drive.press("finished")
    drive.press("finished 0")
    replay = drive.scene
    assert replay.step == len(match.states) - 1
    drive.press("start")
    assert replay.preview.state.digest() == match.states[0].digest()
    drive.press("next")
    drive.press("next")
    assert replay.preview.state.digest() == match.states[2].digest()
    drive.press("export")
    [exported] = (tmp_path / "data" / "exports").glob("*.pdn")
    text = exported.read_text()
    assert '[GameType "Dama"]' in text and "1. " + match.record.notation()[0] in text
    assert text.split()[-1] in ("1-0", "0-1", "1/2-1/2")
    # named by what it is, said in words as large as the moves, on the screen
    assert re.fullmatch(r"dama-classic_player-vs-player_\d{4}-\d\d-\d\d-\d{4}\.pdn",
                        exported.name), exported.name  # fmt: skip
    said = " ".join(replay._notice_lines())
    assert exported.name in said.replace(" ", "") or exported.name in said
    drive.press("export")  # again: a second file, the first kept
    assert len(list((tmp_path / "data" / "exports").glob("*.pdn"))) == 2


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "level"),
    [
        ("mulino:classic", "hard"),
        ("numeri", "medium"),
        ("ausgeblockt", "hard"),
        ("dama:lupo", "hard"),
    ],
)
def test_a_match_against_the_computer(tmp_path: Path, name: str, level: str) -> None:
    drive = Driver(tmp_path, seed=7)
    try:
        drive.start(name, computers={1: level})
        play = drive.scene
        assert play.match.seats[1].level == level
        drive.play_to_the_end()
        match = play.match
        humans = {i for i, s in enumerate(match.seats) if s.is_human}
        for before, text in zip(match.states, match.record.notation(), strict=False):
            if before.to_move >= 0 and before.to_move not in humans:
                assert before.parse_action(text) in before.legal_actions()
    finally:
        drive.app.close()


def test_the_screen_keeps_moving_while_the_computer_thinks(driver: Driver) -> None:
    """The frames go on while hard thinks in the worker (how long they take is measured by
    tools/bench.py frames, not here)."""
    driver.start("dama:classic", computers={1: "hard"})
    play = driver.scene
    driver.click(play.view.square_center(21))
    driver.click(play.view.square_center(17))  # 22-18: now the computer thinks
    for _ in range(120):  # the move's animation, then the computer's turn
        if play.thinking:
            break
        driver.frame()
    thought = play.control._thinking
    assert thought is not None, "the computer began thinking"
    frames_while_thinking = 0
    while play.thinking:
        driver.frame()
        frames_while_thinking += 1
        wait([thought], timeout=1 / 60)  # a frame's time, or less if the answer comes
    driver.frame()
    assert play.match.state.to_move == 0, "the computer answered"
    assert frames_while_thinking >= 3, "the frame loop waited for the computer"


def test_undo_interrupts_the_computer_at_once(driver: Driver) -> None:
    driver.start("mulino:classic", computers={1: "hard"})
    play = driver.scene
    driver.click(play.view.point_center(0))  # a1: the computer starts thinking
    driver.frame(3)
    assert play.thinking and play.match.record.notation() == ("a1",)
    driver.press("undo")
    assert play.match.record.notation() == () and not play.thinking
    driver.frame(30)
    assert play.match.record.notation() == ()  # no late answer lands


def test_rules_show_a_match_its_options_and_the_index_the_defaults(driver: Driver) -> None:
    driver.press("rules")
    driver.press("dama:classic")
    assert "Capturing is compulsory" in driver.scene.text
    assert "switch on huffing" in driver.scene.text
    driver.press("back")
    driver.press("back")
    driver.start("dama:classic", options={"huffing": True})
    driver.press("menu")
    driver.press("rules")
    assert "Huffing is on" in driver.scene.text and "compulsory" not in driver.scene.text
