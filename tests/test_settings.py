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


# -- the settings screen, driven as a player would --------------------------------------


@pytest.fixture
def driver(tmp_path: Path):
    from tests.client_driver import Driver

    driver = Driver(tmp_path)
    yield driver
    driver.app.close()


def _settings_screen(driver) -> None:
    driver.press("settings")
    assert type(driver.scene).__name__ == "SettingsScene"


def test_volume_goes_from_0_to_100_percent_and_is_kept(driver, tmp_path: Path) -> None:
    """Bug 3: the volume cycled 70 → 95 → 120 → 20 → 45 %, never reached 0, and 120 % was
    written to settings.json, which refused it on the next start."""
    from tests.client_driver import Driver

    _settings_screen(driver)
    heard = []
    for name in ["volume up"] * 5 + ["volume down"] * 12:
        driver.press(name)  # at either end the key is greyed: it stops, it does not wrap
        heard.append(driver.app.settings.volume)
        assert driver.app.sound.volume == driver.app.settings.volume
    assert all(0 <= v <= 1 for v in heard) and max(heard) == 1.0 and heard[-1] == 0.0
    for _ in range(3):
        driver.press("volume up")
    driver.press("sound")  # the middle of the row mutes, keeping the volume
    assert driver.app.settings.muted and driver.app.sound.muted
    again = Driver(tmp_path)
    assert again.app.settings.volume == 0.3 and again.app.settings.muted
    again.app.close()


def test_set_volume_keeps_within_range_and_unmutes(driver) -> None:
    app = driver.app
    app.toggle_mute()
    assert app.settings.muted and not app.sound.audible
    app.set_volume(1.7)
    assert app.settings.volume == 1.0 and not app.settings.muted and app.sound.audible
    app.set_volume(-0.2)
    assert app.settings.volume == 0.0 and not app.sound.audible
    assert Settings.load(app.paths.settings).volume == 0.0


def test_kiosk_volume_stays_within_range_and_a_visitors_mute_ends(tmp_path: Path) -> None:
    from game.client import theme
    from game.client.kiosk_config import KioskConfig
    from game.client.scenes.kiosk import AttractScene
    from game.client.scenes.operator import SettingsScene
    from tests.client_driver import Driver

    kiosk = Driver(tmp_path, kiosk=KioskConfig(volume=0.5))
    try:
        app = kiosk.app
        app.push(SettingsScene(app))
        for typed, volume in (("0", 0.0), ("100", 1.0), ("150", 1.0), ("35", 0.35)):
            kiosk.press("volume")
            for digit in typed:
                kiosk.press(f"key {digit}")
            kiosk.press("ok")
            assert app.kiosk.volume == volume  # 150 % is refused: the volume stays
            assert app.settings.volume == app.sound.volume == app.kiosk.volume
        assert KioskConfig.load(app.paths.config).volume == app.kiosk.volume
        app.toggle_mute()
        assert app.sound.muted and not app.paths.settings.exists()  # the player's file
        app.reset(AttractScene(app))
        assert not app.sound.muted
    finally:
        kiosk.app.close()
        theme.set_scale(1.0)


def test_board_coordinates_can_be_switched_off(driver) -> None:
    _settings_screen(driver)
    assert driver.app.settings.show_coordinates
    driver.press("coordinates")
    assert not driver.app.settings.show_coordinates
    assert not Settings.load(driver.app.paths.settings).show_coordinates


def test_every_setting_fits_and_is_reached_by_keyboard(driver) -> None:
    import pygame

    _settings_screen(driver)
    driver.inputs = ("keyboard",)
    for size in ((1024, 600), (700, 1050), (1920, 1080)):
        pygame.display.set_mode(size, pygame.RESIZABLE)
        pygame.event.post(pygame.event.Event(pygame.WINDOWRESIZED, x=size[0], y=size[1]))
        driver.frame()
        rects = [t.rect for t in driver.scene.targets]
        assert all(pygame.Rect((0, 0), size).contains(r) for r in rects), size
        assert not any(a.colliderect(b) for n, a in enumerate(rects) for b in rects[n + 1 :])
        for name in ("volume up", "volume down", "sound", "sound", "coordinates", "name"):
            driver.keyboard_to(driver.target(name))
        assert type(driver.scene).__name__ == "TextEntryScene"
        driver.press("cancel")
    assert driver.app.settings.volume == 0.7 and not driver.app.settings.muted


# -- the player's name ---------------------------------------------------------------------


def _post_text(driver, text: str) -> None:
    import pygame

    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=text))
    driver.frame()


def test_name_typed_on_a_keyboard_accents_and_all(driver, tmp_path: Path) -> None:
    import pygame

    from tests.client_driver import Driver

    _settings_screen(driver)
    driver.press("name")
    assert type(driver.scene).__name__ == "TextEntryScene"
    driver.scene.text = ""  # whatever was suggested
    _post_text(driver, "Jürgenx")
    driver.key(pygame.K_BACKSPACE)
    # the space bar sends Activate and then its text, in one frame: a space, not OK
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE, mod=0, unicode=" "))
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=" "))
    driver.frame()
    assert type(driver.scene).__name__ == "TextEntryScene"
    _post_text(driver, "Groß  ")
    driver.key(pygame.K_RETURN)
    assert type(driver.scene).__name__ == "SettingsScene"
    assert driver.app.settings.player_name == "Jürgen Groß"  # trimmed
    assert Driver(tmp_path).app.settings.player_name == "Jürgen Groß"


def test_name_typed_on_the_screens_keys(driver) -> None:
    _settings_screen(driver)
    driver.press("name")
    driver.scene.text = ""
    driver.scene.capital = True
    for key in ("key m", "key c", "shift", "key l", "key a", "key r", "key e", "key n"):
        driver.press(key)  # a word begins in capitals; shift makes the next letter one
    driver.press("space")
    for key in ("key 2", "key x", "delete"):
        driver.press(key)
    assert driver.scene.text == "McLaren 2"
    driver.press("ok")
    assert driver.app.settings.player_name == "McLaren 2"


def test_a_name_is_1_to_20_characters_or_ok_waits(driver) -> None:
    _settings_screen(driver)
    driver.press("name")
    entry = driver.scene
    entry.text = ""
    _post_text(driver, "   ")
    driver.press("ok")  # only spaces: no name yet
    assert driver.scene is entry and driver.app.settings.player_name == ""
    _post_text(driver, "x" * 25 + "\x07")
    assert entry.text == "   " + "x" * 17 and entry.cue > 0
    driver.press("ok")
    assert driver.app.settings.player_name == "x" * 17


def test_the_lan_asks_for_a_name_never_the_login_and_uses_the_setting(
    driver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bug 6: the LAN name was the system account's ("Root"), and nothing could change it."""
    import getpass

    from game.client.scenes.lan import player_name

    monkeypatch.setattr(getpass, "getuser", lambda: "root")
    driver.app.settings.lan_interface = "127.0.0.1"
    driver.press("lan")
    assert type(driver.scene).__name__ == "TextEntryScene"
    assert driver.scene.text == ""  # no suggestion from the administrator's account
    driver.press("cancel")  # skipped: a neutral name where one is needed
    assert type(driver.scene).__name__ == "LanScene" and player_name(driver.app) == "Player"
    driver.press("name")
    for key in ("key a", "key n", "key n", "key a", "ok"):
        driver.press(key)
    assert player_name(driver.app) == driver.app.settings.player_name == "Anna"
    driver.press("back")
    driver.press("lan")  # a name is known: no question on the way in
    assert type(driver.scene).__name__ == "LanScene"


def test_a_login_name_is_offered_not_used(driver, monkeypatch: pytest.MonkeyPatch) -> None:
    import getpass

    from game.client.scenes.lan import player_name

    monkeypatch.setattr(getpass, "getuser", lambda: "carla")
    assert player_name(driver.app) == "Player"
    driver.app.settings.lan_interface = "127.0.0.1"
    driver.press("lan")
    assert driver.scene.text == "Carla"
    driver.press("ok")
    assert player_name(driver.app) == "Carla"


def test_a_kiosk_plays_the_lan_under_its_own_name(tmp_path: Path) -> None:
    from game.client import theme
    from game.client.kiosk_config import KioskConfig
    from game.client.scenes.lan import player_name
    from tests.client_driver import Driver

    assert KioskConfig().lan_name == "Tavolo"
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "kiosk.toml").write_text(
        'lan_name = "Bar Centrale"\nlan_hosting = true\n'
    )
    kiosk = Driver(tmp_path, kiosk=KioskConfig.load(tmp_path / "config"))
    try:
        kiosk.app.settings.lan_interface = "127.0.0.1"
        kiosk.press("lan")
        assert type(kiosk.scene).__name__ == "LanScene"  # nobody is asked to type
        assert "name" not in [t.name for t in kiosk.scene.targets]
        assert player_name(kiosk.app) == "Bar Centrale"
    finally:
        kiosk.app.close()
        theme.set_scale(1.0)


def test_music_is_off_until_turned_on_has_its_own_volume_and_is_kept(
    driver, tmp_path: Path
) -> None:
    """The soft loop: off by default; on from the settings, at its own volume (the sounds'
    stays), silenced by the match screen's mute, and as it was after a restart."""
    import pygame

    from tests.client_driver import Driver

    app = driver.app
    assert not app.settings.music and not app.music.playing
    assert not pygame.mixer.get_init() or not pygame.mixer.music.get_busy()
    _settings_screen(driver)
    driver.press("music")
    assert app.settings.music and app.music.playing and pygame.mixer.music.get_busy()
    assert pygame.mixer.music.get_volume() == pytest.approx(0.4, abs=0.01)
    sounds = app.settings.volume
    for name in ["music volume up"] * 8 + ["music volume down"] * 3:
        driver.press(name)  # stops at 100 %, never beyond
        assert 0 <= app.settings.music_volume <= 1
    assert app.settings.music_volume == 0.7 and app.settings.volume == sounds
    assert pygame.mixer.music.get_volume() == pytest.approx(0.7, abs=0.01)
    app.toggle_mute()  # the speaker on the match screen: silence, music included
    assert not app.music.playing
    assert driver.target("music").label() == "Music: off"
    app.toggle_mute()
    assert app.music.playing
    again = Driver(tmp_path)
    try:
        assert again.app.settings.music and again.app.settings.music_volume == 0.7
        assert again.app.music.playing
        again.press("settings")
        again.press("music")  # off again
        assert not again.app.settings.music and not again.app.music.playing
    finally:
        again.app.close()


def test_a_missing_music_file_leaves_the_game_silent_not_broken(
    driver, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from game.client import sound
    from game.resources import MissingAssetError

    def missing(name: str) -> bytes:
        raise MissingAssetError(name)

    monkeypatch.setattr(sound, "asset_bytes", missing)
    app = driver.app
    app.music = sound.MusicLoop()
    app.set_music(True)
    assert app.settings.music and not app.music.playing
    assert "no music" in caplog.text
    _settings_screen(driver)  # the screens go on
