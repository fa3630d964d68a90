"""The title screen: the games' pieces and dice drift behind the menu (a screen that lives),
still with *reduce motion*, when the title waits for a touch without drawing."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.client.scenes.title import TitleScene
from game.client.title_backdrop import FADE_UNITS, TitleBackdrop
from tests.client_driver import Driver


def _picture(driver: Driver) -> bytes:
    return pygame.image.tobytes(driver.app.screen, "RGB")


def test_the_title_lives_its_pieces_drift_and_its_dice_tumble(tmp_path: Path) -> None:
    driver = Driver(tmp_path)
    try:
        title = driver.scene
        assert isinstance(title, TitleScene) and title.animating and title.fps == 30
        before = [(d.name, d.x, d.y) for d in title.backdrop.drifters]
        first = _picture(driver)
        driver.frame(20)  # two seconds
        after = [(d.name, d.x, d.y) for d in title.backdrop.drifters]
        assert all((a[1], a[2]) != (b[1], b[2]) for a, b in zip(before, after, strict=True))
        assert any(a[0] != b[0] for a, b in zip(before, after, strict=True))  # a die rolled
        assert _picture(driver) != first
        driver.press("new game")  # the menu works as before under them
        assert type(driver.scene).__name__ == "ChooseScene"
    finally:
        driver.app.close()


def test_with_reduce_motion_the_title_stands_still_and_waits(tmp_path: Path) -> None:
    driver = Driver(tmp_path)
    try:
        driver.app.settings.reduce_motion = True
        driver.app.reset(TitleScene(driver.app))
        driver.frame()
        first = _picture(driver)
        driver.frame(20)
        assert not driver.scene.animating  # the app sleeps in its event wait
        assert _picture(driver) == first
    finally:
        driver.app.close()


LONG_NOTICE = (
    "A match could not be read and was set aside in the folder of damaged saves; "
    "the others are safe and waiting for you"
)


@pytest.mark.parametrize(
    ("size", "notice"),
    [((1920, 1080), None), ((1024, 600), None), ((700, 1050), None), ((1024, 600), LONG_NOTICE)],
)
def test_the_drifting_pieces_never_pass_behind_the_words_or_a_button(
    tmp_path: Path, size: tuple[int, int], notice: str | None
) -> None:
    driver = Driver(tmp_path, size=size)
    try:
        if notice is not None:  # a subtitle much wider than the title
            driver.app.reset(TitleScene(driver.app, notice))
            driver.frame()
        title = driver.scene
        backdrop, seen_faded = title.backdrop, 0
        buttons = [t.rect for t in title.targets]
        words = [rect for _picture, rect in title.words(size[0])]
        if notice is not None:
            assert max(r.width for r in words[1:]) > 2 * words[0].width  # wider than the title
        assert buttons and all(r in backdrop.keep_out for r in buttons + words)
        for _ in range(120):  # a minute: every piece crosses the middle of the screen
            title.update(0.5)
            placed = backdrop._placed(size, title.u, title.palette.seats)
            for picture, _at, rect in placed:
                if picture is None:
                    seen_faded += 1
                    continue
                assert not any(rect.colliderect(area) for area in backdrop.keep_out), rect
        assert seen_faded  # the pieces were there to hide: the check was not empty
    finally:
        driver.app.close()


def test_a_still_title_shows_the_pieces_of_the_board_theme_chosen_in_the_settings(
    tmp_path: Path,
) -> None:
    """With *reduce motion* the pieces never move, so the title keeps where it placed them;
    coming back from Settings with another board theme, it must draw the new theme's
    pieces, as a title opened afresh does (it kept the old ones, found in review)."""
    from game.client.scenes.settings_screen import SettingsScene

    driver = Driver(tmp_path, size=(800, 450))
    app = driver.app
    try:
        app.settings.reduce_motion = True
        app.reset(TitleScene(app))
        driver.frame(5)
        app.push(SettingsScene(app))
        driver.frame(10)
        theme = app.settings.board_theme
        driver.press("boards")
        assert app.settings.board_theme != theme
        app.pop()
        driver.frame(30)
        shown = pygame.image.tobytes(app.screen, "RGB")
        fresh = TitleScene(app)
        fresh.layout(app.size)
        whole = pygame.Surface(app.size).convert(app.screen)
        fresh.draw_whole(whole)
        assert shown == pygame.image.tobytes(whole, "RGB")
    finally:
        app.close()


rects = st.builds(
    pygame.Rect,
    st.integers(-50, 400), st.integers(-50, 400), st.integers(1, 120), st.integers(1, 120),
)  # fmt: skip


@given(piece=rects, labels=st.lists(rects, max_size=6), u=st.integers(1, 40))
def test_a_piece_fades_by_its_distance_to_the_nearest_label(
    piece: pygame.Rect, labels: list[pygame.Rect], u: int
) -> None:
    """0 (hidden) touching a label, 3 (all of it) :data:`FADE_UNITS` away or more, in
    thirds between — the quick answer for a piece far from every label included."""
    backdrop = TitleBackdrop(moving=False)
    backdrop.keep_out = labels
    band = max(1, round(FADE_UNITS * u))
    p = piece
    gaps = [
        max(a.left - p.right, p.left - a.right, a.top - p.bottom, p.top - a.bottom, 0)
        for a in labels
    ]
    assert backdrop._fade(piece, u) == min(3, 3 * min(gaps, default=band) // band)
