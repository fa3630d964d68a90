"""Player settings: persisted, and a bad file or value falls back to defaults with a log."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from game.client.settings import Settings


def test_settings_round_trip(tmp_path: Path) -> None:
    settings = Settings(
        language="de", volume=0.25, fullscreen=True, animation_speed=2.0, colour_blind=True
    )
    settings.save(tmp_path / "settings.json")
    assert Settings.load(tmp_path / "settings.json") == settings


def test_missing_file_gives_defaults(tmp_path: Path) -> None:
    assert Settings.load(tmp_path / "none.json") == Settings()


@pytest.mark.parametrize("text", ["{not json", "[1, 2]", '"text"'])
def test_damaged_file_gives_defaults_with_a_message(
    tmp_path: Path, text: str, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "settings.json"
    path.write_text(text)
    with caplog.at_level(logging.WARNING):
        assert Settings.load(path) == Settings()
    assert "using the defaults" in caplog.text


def test_bad_values_fall_back_one_by_one(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "settings.json"
    path.write_text(
        '{"language": "klingon", "volume": 7, "fullscreen": "yes", '
        '"animation_speed": 1.0, "colour_blind": true, "thinking_seconds": 3, "unknown": 1}'
    )
    with caplog.at_level(logging.WARNING):
        settings = Settings.load(path)
    assert settings == Settings(colour_blind=True)
    assert "language='klingon'" in caplog.text and "volume=7" in caplog.text


def test_missing_font_falls_back_to_pygames_own(monkeypatch: pytest.MonkeyPatch) -> None:
    import pygame

    from game.client import theme

    pygame.font.init()
    theme.font.cache_clear()
    theme._font_bytes.cache_clear()
    monkeypatch.setattr(
        theme, "asset_bytes", lambda path: (_ for _ in ()).throw(theme.MissingAssetError(path))
    )
    try:
        assert theme.font(20).size("Tavolo")[0] > 0
    finally:
        theme.font.cache_clear()
        theme._font_bytes.cache_clear()


def test_examples_in_the_settings_module_run() -> None:
    import doctest

    from game.client import settings

    assert doctest.testmod(settings).failed == 0


def test_volume_steps_stay_within_0_and_1_and_reach_both_ends() -> None:
    from game.client.settings import stepped_volume

    volume, heard = 0.7, []
    for steps in [1] * 12 + [-1] * 14:
        volume = stepped_volume(volume, steps)
        heard.append(volume)
    assert all(0 <= v <= 1 for v in heard)
    assert 1.0 in heard and heard[-1] == 0.0


def test_muted_and_name_are_kept_and_checked(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    Settings(volume=0.3, muted=True, player_name="Jürgen Groß").save(path)
    assert Settings.load(path) == Settings(volume=0.3, muted=True, player_name="Jürgen Groß")
    for bad in ('"muted": 1', '"player_name": " Carla"', '"player_name": "' + "x" * 21 + '"'):
        path.write_text("{" + bad + "}")
        assert Settings.load(path) == Settings()
