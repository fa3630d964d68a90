"""Board themes: wood and high contrast, chosen in Settings, kept, and painted at once —
the high-contrast boards read with WCAG's strictest contrast between lines and board."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from game.client import theme
from game.client.scenes.play import PlayScene
from game.client.settings import BOARD_THEME_NAMES, Settings
from game.client.views.marks import LIGHT_AND_DARK
from game.rules import variant
from game.session.match import Match
from game.session.seats import Seat
from tests.client_driver import Driver


def _luminance(colour: tuple[int, int, int]) -> float:
    def channel(c: int) -> float:
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_the_high_contrast_boards_pass_wcag_aaa_for_what_is_read() -> None:
    boards = theme.CONTRAST
    for ink, ground in (
        (boards.mill_line, boards.mill_board),
        (boards.mill_label, boards.mill_board),
        (boards.sheet_ink, boards.sheet_paper),
        (boards.sheet_label, boards.sheet_paper),
        (boards.track_digits, boards.track_plain),
        (boards.track_digits, boards.track_end),
        (boards.track_start_digits, boards.track_start),
        (boards.dama_number, boards.dama_frame),  # the square numbers are outlined
    ):
        assert contrast(ink, ground) >= 7.0, (ink, ground)
    for piece in LIGHT_AND_DARK:  # both colours of pieces stand out from the playing squares
        assert contrast(piece, boards.dama_dark) >= 2.4
    dark = LIGHT_AND_DARK[1]  # on wood, Black's pieces all but vanish into the dark squares
    assert contrast(dark, boards.dama_dark) >= 1.5 * contrast(dark, theme.WOOD.dama_dark)


@pytest.mark.parametrize("name", ["ausgeblockt", "numeri", "dama:classic", "mulino:classic"])
def test_every_board_is_painted_in_each_theme(tmp_path: Path, name: str) -> None:
    driver = Driver(tmp_path)
    try:
        pictures = []
        for boards in BOARD_THEME_NAMES:
            driver.app.settings.board_theme = boards
            chosen = variant(name)
            play = PlayScene(driver.app, Match.new(chosen, [Seat()] * chosen.players, 1))
            driver.app.reset(play)
            driver.frame(2)
            pictures.append(pygame.image.tobytes(driver.app.screen.subsurface(play.view.rect),
                                                 "RGB"))  # fmt: skip
        assert pictures[0] != pictures[1]
    finally:
        driver.app.close()


def test_the_theme_is_chosen_in_settings_kept_and_paints_the_board_under_the_menu(
    tmp_path: Path,
) -> None:
    driver = Driver(tmp_path)
    try:
        driver.start("mulino:classic")
        board = driver.scene.view.rect
        before = pygame.image.tobytes(driver.app.screen.subsurface(board), "RGB")
        driver.press("menu")
        driver.press("settings")
        driver.press("boards")
        assert driver.app.settings.board_theme == "contrast"
        driver.press("back")
        driver.press("continue")
        driver.frame(2)
        assert pygame.image.tobytes(driver.app.screen.subsurface(board), "RGB") != before
        assert Settings.load(driver.app.paths.settings).board_theme == "contrast"
    finally:
        driver.app.close()
