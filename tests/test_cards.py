"""Choosing a game from cards: every card opens its game, by touch and by keys; a kiosk
shows only what it allows; the pictures are the games' own boards, the same every time."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from game.client import theme
from game.client.kiosk_config import KioskConfig
from game.client.scenes.cards import GAMES, ChooseScene, thumbnail
from game.rules import VARIANTS
from tests.client_driver import Driver


@pytest.fixture
def driver(tmp_path: Path):
    drive = Driver(tmp_path, size=(1920, 1080))
    yield drive
    drive.app.close()


@pytest.mark.parametrize("way", ["touch", "keyboard"])
def test_every_card_opens_its_game(driver: Driver, way: str) -> None:
    for name in VARIANTS:
        driver.press("new game")
        assert isinstance(driver.scene, ChooseScene)
        target = driver.target(name)
        if way == "touch":
            driver.touch(target.rect.center)
        else:
            driver.keyboard_to(target)
        assert type(driver.scene).__name__ == "SetupScene" and driver.scene.spec.name == name
        driver.press("back")
        driver.press("back")


def test_a_tap_on_the_picture_of_a_one_variant_game_opens_it(driver: Driver) -> None:
    driver.press("new game")
    card = next(c for g, c in driver.scene.cards if g == "numeri")
    driver.touch((card.x + card.height // 3, card.y + card.height // 3))  # on the board
    assert driver.scene.spec.name == "numeri"


def test_a_kiosk_shows_the_cards_and_variants_it_allows(tmp_path: Path) -> None:
    config = KioskConfig(games=["dama:lupo", "mulino:classic", "mulino:misto"])
    kiosk = Driver(tmp_path, size=(1920, 1080), kiosk=config)
    try:
        kiosk.press("new game")
        assert [game for game, _ in kiosk.scene.cards] == ["dama", "mulino"]
        names = {t.name for t in kiosk.scene.targets}
        assert names == {"dama:lupo", "mulino:classic", "mulino:misto", "back"}
    finally:
        kiosk.app.close()
        theme.set_scale(1.0)


@pytest.mark.parametrize("size", [(1920, 1080), (1024, 600), (700, 1050), (3840, 2160)])
def test_the_cards_fit_every_screen(tmp_path: Path, size: tuple[int, int]) -> None:
    drive = Driver(tmp_path, size=size)
    try:
        drive.press("new game")
        drive.settle()  # the pictures, one a frame
        screen = pygame.Rect((0, 0), size)
        cards = [card for _, card in drive.scene.cards]
        assert len(cards) == len(GAMES)
        rects = cards + [t.rect for t in drive.scene.targets if t.name == "back"]
        assert all(screen.contains(r) for r in rects)
        assert not any(a.colliderect(b) for i, a in enumerate(rects) for b in rects[i + 1 :])
        for target in drive.scene.targets:  # variant buttons inside their cards
            assert any(card.contains(target.rect) for card in cards) or target.name == "back"
    finally:
        drive.app.close()


def test_the_pictures_are_the_boards_and_the_same_every_time(driver: Driver) -> None:
    for game in GAMES:
        first = thumbnail(game, 200, driver.app)
        colours = {first.get_at((x, y))[:3] for x in range(0, 200, 7) for y in range(0, 200, 7)}
        assert len(colours) > 8, f"{game}: a board, not a blank"
        thumbnail.cache_clear()
        again = thumbnail(game, 200, driver.app)
        assert pygame.image.tobytes(first, "RGBA") == pygame.image.tobytes(again, "RGBA")


def test_the_pictures_do_not_keep_a_closed_app_alive(tmp_path: Path) -> None:
    """A kiosk makes a new app at each restart: the old one (its screens, their surfaces)
    must not stay in memory through the pictures' cache."""
    import gc
    import weakref

    drive = Driver(tmp_path, size=(1024, 600))
    drive.press("new game")
    drive.settle()
    assert len(thumbnail) >= len(GAMES)
    gone = weakref.ref(drive.app)
    drive.app.close()
    del drive
    gc.collect()
    assert gone() is None
