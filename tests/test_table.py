"""The face-to-face layout for a touch table: the board between two panels, the far one
turned to face the far side; each side acts only for its own seats; chosen in Settings and
by a kiosk's ``table_layout``."""

from __future__ import annotations

import itertools
from pathlib import Path

import pygame
import pytest

from game.client.kiosk_config import KioskConfig
from game.client.scenes.play import PlayScene
from game.client.scenes.table import FaceToFaceScene, match_scene
from game.client.table_panels import FAR, NEAR, FacingPanels
from game.rules import VARIANTS, find_variant, variant
from game.session.match import Match
from game.session.seats import Seat, SeatKind

from .client_driver import Driver

SIZES = [(1920, 1080), (1024, 600), (700, 1050)]


def _table(driver: Driver, name: str, players: int = 2, seed: int = 3) -> FaceToFaceScene:
    seats = [Seat(SeatKind.HUMAN, None, f"P{n + 1}") for n in range(players)]
    scene = FaceToFaceScene(driver.app, Match.new(variant(name, players), seats, seed))
    driver.app.push(scene)
    driver.settle()
    return scene


def _buttons(scene: FaceToFaceScene) -> list:
    return [t for t in scene.targets if t.draw is not None]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name", VARIANTS)
def test_every_button_fits_its_side_and_no_two_overlap(tmp_path: Path, name: str, size) -> None:
    driver = Driver(tmp_path, size=size)
    try:
        players = max(find_variant(name).players)
        scene = _table(driver, name, players)
        window = pygame.Rect((0, 0), size)
        buttons = _buttons(scene)
        for target in buttons:
            assert window.contains(target.rect), (target.name, target.rect)
            assert min(target.rect.size) >= 44, (target.name, target.rect.size)
            side = scene.panel.sides[FAR if target.name.startswith("far ") else NEAR]
            assert side.rect.contains(target.rect), (target.name, target.rect, side.rect)
        for a, b in itertools.combinations(buttons, 2):
            assert not a.rect.colliderect(b.rect), (a.name, b.name)
        assert not scene.view.rect.colliderect(scene.panel.sides[NEAR].rect)
        assert not scene.view.rect.colliderect(scene.panel.sides[FAR].rect)
        near = {t.name for t in buttons if not t.name.startswith("far ")}
        far = {t.name.removeprefix("far ") for t in buttons if t.name.startswith("far ")}
        assert near == far, "each side has every button"
    finally:
        driver.app.close()


def test_the_far_panel_is_the_near_one_turned_upside_down(driver: Driver) -> None:
    """The status line reads the same from both edges: the far panel's pixels, turned
    half round, are the near panel's where both say the same."""
    scene = _table(driver, "dama:classic")
    driver.frame(3)
    screen = driver.app.screen
    u = scene.u
    panels = scene.panel
    assert isinstance(panels, FacingPanels)
    line = pygame.Rect(u, panels.gap, panels.text_width - panels.row - u, round(1.6 * u))
    near = screen.subsurface(panels.sides[NEAR].place(line)).copy()
    far = pygame.transform.rotate(screen.subsurface(panels.sides[FAR].place(line)).copy(), 180)
    assert pygame.image.tobytes(near, "RGB") == pygame.image.tobytes(far, "RGB")
    blank = pygame.Surface(line.size)
    blank.fill(scene.palette.panel)
    assert pygame.image.tobytes(near, "RGB") != pygame.image.tobytes(blank, "RGB")


def test_each_side_moves_only_for_its_own_seat(driver: Driver) -> None:
    """The near side plays the first seat, the far side the second: the decision's buttons
    live only on the side to act, and a tap across the table changes nothing."""
    scene = _table(driver, "numeri")  # the first seat to act rolls
    seat = scene.actor(scene.state)
    acting, other = ("", "far ") if seat % 2 == 0 else ("far ", "")
    assert driver.target(f"{acting}roll").enabled()
    assert not driver.target(f"{other}roll").enabled()
    before = len(scene.match.record.actions)
    driver.touch(driver.target(f"{other}roll").rect.center)
    driver.settle()
    assert len(scene.match.record.actions) == before, "the other side rolled"
    driver.touch(driver.target(f"{acting}roll").rect.center)
    driver.settle()
    assert len(scene.match.record.actions) > before


def test_the_far_side_resigns_its_own_seat(driver: Driver) -> None:
    """Resign on the far panel asks on that panel only, and the far seat loses — even while
    the near seat is to move."""
    scene = _table(driver, "dama:classic")
    assert scene.actor(scene.state) == 0
    driver.touch(driver.target("far resign").rect.center)
    names = {t.name for t in scene.targets}
    assert "far confirm resign" in names and "confirm resign" not in names
    driver.touch(driver.target("far confirm resign").rect.center)
    driver.settle()
    assert scene.match.state.is_terminal()
    assert scene.match.state.result().winners() == (0,)


def test_a_draw_offered_on_one_side_is_answered_on_the_other(driver: Driver) -> None:
    scene = _table(driver, "dama:classic")
    driver.touch(driver.target("offer draw").rect.center)
    names = {t.name for t in scene.targets}
    assert {"far accept draw", "far decline draw"} <= names
    assert "accept draw" not in names, "the side that offered cannot accept its own offer"
    driver.touch(driver.target("far accept draw").rect.center)
    driver.settle()
    assert scene.match.state.is_terminal()
    assert scene.match.state.result().winners() == ()


def test_settings_choose_the_layout_for_the_next_match(driver: Driver) -> None:
    app = driver.app
    match = Match.new(variant("mulino:classic"), [Seat(), Seat()], 1)
    assert type(match_scene(app, match)) is PlayScene
    from game.client.scenes.settings_screen import SettingsScene

    app.push(SettingsScene(app))
    driver.frame()
    driver.press("table_layout")
    assert app.settings.table_layout == "facing"
    assert isinstance(match_scene(app, match), FaceToFaceScene)
    saved = (app.paths.config / "settings.json").read_text()
    assert '"table_layout": "facing"' in saved


def test_a_kiosk_reads_the_layout_from_its_file_and_survives_a_typo(tmp_path: Path) -> None:
    (tmp_path / "kiosk.toml").write_text('table_layout = "facing"\n')
    assert KioskConfig.load(tmp_path).table_layout == "facing"
    (tmp_path / "kiosk.toml").write_text('table_layout = "sideways"\n')
    config = KioskConfig.load(tmp_path)
    assert config.table_layout == "facing", "a typo keeps the last good value"
    assert [problem.key for problem in config.problems] == ["table_layout"]


def test_the_menu_faces_the_side_that_opened_it(driver: Driver) -> None:
    """Menu on the far panel turns the whole picture half round while the menu is up (a
    tap lands where the far player sees the button); back in the match it turns back."""
    app = driver.app
    scene = _table(driver, "mulino:classic")
    driver.touch(driver.target("far menu").rect.center)
    driver.settle()
    menu = app.scene
    assert menu is not scene and app.rotation == 180
    width, height = app.size
    seen = next(t for t in menu.targets if t.enabled())
    where = (width - 1 - seen.rect.centerx, height - 1 - seen.rect.centery)
    assert app._upright(where) == seen.rect.center
    drawn = pygame.transform.rotate(app.display, 180)
    assert pygame.image.tobytes(drawn, "RGB") == pygame.image.tobytes(app.screen, "RGB")
    app.pop()
    driver.settle()
    assert app.scene is scene and app.rotation == 0 and app.screen is app.display
    driver.touch(driver.target("menu").rect.center)
    driver.settle()
    assert app.rotation == 0, "the near side's menu is upright"
