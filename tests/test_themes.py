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


def _tones(piece: pygame.Surface) -> tuple[int, int]:
    """How many opaque pixels of ``piece`` are nearly white, and how many nearly black."""
    light = dark = 0
    for x in range(0, piece.get_width(), 2):
        for y in range(0, piece.get_height(), 2):
            r, g, b, a = piece.get_at((x, y))
            if a >= 250:
                light += _luminance((r, g, b)) > 0.9
                dark += _luminance((r, g, b)) < 0.01
    return light, dark


def test_the_high_contrast_boards_have_pieces_of_their_own_ringed_in_the_other_tone(
    tmp_path: Path,
) -> None:
    from game.client.sprites import FRAMES, sprite

    driver = Driver(tmp_path)
    try:
        wood = {name: pygame.image.tobytes(sprite(name, 96), "RGBA") for name in FRAMES["pieces"]}
        driver.press("settings")
        driver.press("boards")
        assert driver.app.settings.board_theme == "contrast"
        for name in FRAMES["pieces"]:
            piece = sprite(name, 96)
            assert pygame.image.tobytes(piece, "RGBA") != wood[name], name
            light, dark = _tones(piece)  # a white face in black, a black face in white
            assert light > 100 and dark > 100, (name, light, dark)
            # opaque: no board line shows through a flat face (scaling left 253 of 255)
            assert piece.get_at((48, 48)).a == 255 and piece.get_at((0, 0)).a == 0, name
    finally:
        driver.app.close()
    again = Driver(tmp_path)  # kept: the next start draws the same pieces
    try:
        assert again.app.settings.board_theme == "contrast"
        again.start("dama:classic")
        view = again.scene.view
        faces = sorted(_luminance(again.app.screen.get_at(view.square_center(s))[:3])
                       for s in (0, 31))  # fmt: skip
        assert faces[0] < 0.01 and faces[1] > 0.95  # a man of each side: flat black, white
    finally:
        again.app.close()
