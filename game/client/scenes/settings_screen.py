"""The settings screen: language, sound, looks, layout, the player's name."""

from __future__ import annotations

from collections.abc import Callable

import pygame

from game import i18n
from game.client import sprites
from game.client.scenes.entry import ask_player_name
from game.client.scenes.menu import Item, MenuScene, item
from game.client.scenes.table import layout_label, next_layout
from game.client.settings import (
    ANIMATION_SPEEDS,
    BOARD_THEME_NAMES,
    ODDS_MODES,
    THINKING_SECONDS,
    stepped_volume,
)
from game.client.widgets import Target, button
from game.i18n import _


class SettingsScene(MenuScene):
    columns = 2

    def title(self) -> str:
        return _("Settings")

    def items(self) -> list[Item]:
        settings = self.app.settings
        return [
            item(
                lambda: _("Language: {name}").format(name=i18n.LANGUAGES[settings.language]),
                self._next_language,
                "language",
            ),
            item(self._name_label, self._ask_name, "name"),
            item(self._sound_label, self.app.toggle_mute, "sound"),
            item(self._music_label, self._toggle_music, "music"),
            item(
                lambda: _("Full screen: on") if settings.fullscreen else _("Full screen: off"),
                self.app.toggle_fullscreen,
                "fullscreen",
            ),
            item(
                lambda: _("Animation speed: {speed}×").format(speed=settings.animation_speed),
                self._next_speed,
                "speed",
            ),
            item(self._boards_label, self._next_boards, "boards"),
            item(
                lambda: (
                    _("Reduce motion: on") if settings.reduce_motion else _("Reduce motion: off")
                ),
                self._toggle_motion,
                "motion",
            ),
            item(
                lambda: (
                    _("Colour-blind palette: on")
                    if settings.colour_blind
                    else _("Colour-blind palette: off")
                ),
                self._toggle_palette,
                "palette",
            ),
            item(
                lambda: _("Computer thinks up to {seconds} s").format(
                    seconds=f"{settings.thinking_seconds:g}"
                ),
                self._next_thinking,
                "thinking",
            ),
            item(self._odds_label, self._next_odds, "odds"),
            item(lambda: layout_label(settings.table_layout), self._next_layout, "table_layout"),
            item(
                lambda: (
                    _("Board coordinates: on")
                    if settings.show_coordinates
                    else _("Board coordinates: off")
                ),
                self._toggle_coordinates,
                "coordinates",
            ),
            item(self._lan_label, self._next_interface, "lan interface"),
            item(lambda: _("Back"), self.app.pop, "back"),
        ]

    def layout(self, size: tuple[int, int]) -> None:
        """The menu's grid, with "−" and "+" at the ends of the sound's and the music's
        cells: each a step of that volume, stopping (not wrapping round) at 0 and 100 %."""
        super().layout(size)
        settings = self.app.settings
        steps: list[Target] = []
        for name, prefix, volume, step in (
            ("sound", "volume", lambda: settings.volume, self._step_volume),
            ("music", "music volume", lambda: settings.music_volume, self._step_music),
        ):
            cell = next(t for t in self.targets if t.name == name)
            steps += self._volume_steps(cell, prefix, volume, step)
        self.set_targets([*self.targets, *steps])

    def _volume_steps(
        self,
        cell: Target,
        prefix: str,
        volume: Callable[[], float],
        step: Callable[[int], None],
    ) -> list[Target]:
        """ "−" and "+" at the ends of ``cell`` (narrowed to leave them room), each a step of
        ``volume``."""
        key, gap = cell.rect.height, self.u // 2
        down = pygame.Rect(cell.rect.left, cell.rect.top, key, key)
        up = pygame.Rect(cell.rect.right - key, cell.rect.top, key, key)
        cell.rect.inflate_ip(-2 * (key + gap), 0)  # in place: the button draws this rect
        return [
            button(down, lambda: "−", lambda: step(-1), self.palette,
                   lambda: volume() > 0, f"{prefix} down"),
            button(up, lambda: "+", lambda: step(1), self.palette,
                   lambda: volume() < 1, f"{prefix} up"),
        ]  # fmt: skip

    def _music_label(self) -> str:
        settings = self.app.settings
        if not settings.music or settings.muted:
            return _("Music: off")
        return _("Music: {percent}%").format(percent=round(settings.music_volume * 100))

    def _toggle_music(self) -> None:
        settings = self.app.settings
        self.app.set_music(not settings.music or settings.muted)

    def _step_music(self, steps: int) -> None:
        self.app.set_music(True, stepped_volume(self.app.settings.music_volume, steps))

    def _sound_label(self) -> str:
        settings = self.app.settings
        if settings.muted:
            return _("Sound: off")
        return _("Sound: {percent}%").format(percent=round(settings.volume * 100))

    def _step_volume(self, steps: int) -> None:
        self.app.set_volume(stepped_volume(self.app.settings.volume, steps))
        self.app.sound.play("tap")

    def _name_label(self) -> str:
        name = self.app.settings.player_name
        if not name:
            return _("Your name: not given")
        return _("Your name: {name}").format(name=name)

    def _ask_name(self) -> None:
        ask_player_name(self.app)

    def _toggle_coordinates(self) -> None:
        self.app.settings.show_coordinates = not self.app.settings.show_coordinates
        self._changed()
        for scene in self.app.scenes:
            scene.layout(self.app.size)

    def _lan_label(self) -> str:
        chosen = self.app.settings.lan_interface
        if not chosen:
            return _("LAN: every network")
        return _("LAN: only {address}").format(address=chosen)

    def _next_interface(self) -> None:
        from net.discovery import lan_addresses

        choices = ["", *(a for a in lan_addresses() if a != "127.0.0.1")]
        settings = self.app.settings
        current = choices.index(settings.lan_interface) if settings.lan_interface in choices else 0
        settings.lan_interface = choices[(current + 1) % len(choices)]
        self._changed()

    def _changed(self) -> None:
        self.app.save_settings()
        self.layout(self.app.size)

    def _next_language(self) -> None:
        codes = list(i18n.LANGUAGES)
        settings = self.app.settings
        settings.language = i18n.set_language(
            codes[(codes.index(settings.language) + 1) % len(codes)]
        )
        self._changed()

    def _next_thinking(self) -> None:
        settings = self.app.settings
        index = THINKING_SECONDS.index(settings.thinking_seconds)
        settings.thinking_seconds = THINKING_SECONDS[(index + 1) % len(THINKING_SECONDS)]
        self._changed()

    def _odds_label(self) -> str:
        if self.app.settings.dice_odds == "on":
            return _("Dice odds: on")
        return _("Dice odds: off")

    def _next_odds(self) -> None:
        settings = self.app.settings
        following = (ODDS_MODES.index(settings.dice_odds) + 1) % len(ODDS_MODES)
        settings.dice_odds = ODDS_MODES[following]
        self._changed()

    def _next_layout(self) -> None:
        settings = self.app.settings
        settings.table_layout = next_layout(settings.table_layout)
        self._changed()

    def _next_speed(self) -> None:
        settings = self.app.settings
        index = ANIMATION_SPEEDS.index(settings.animation_speed)
        settings.animation_speed = ANIMATION_SPEEDS[(index + 1) % len(ANIMATION_SPEEDS)]
        self._changed()

    def _boards_label(self) -> str:
        if self.app.settings.board_theme == "contrast":
            return _("Boards: high contrast")
        return _("Boards: wood")

    def _next_boards(self) -> None:
        names = BOARD_THEME_NAMES
        settings = self.app.settings
        settings.board_theme = names[(names.index(settings.board_theme) + 1) % len(names)]
        sprites.use_theme(settings.board_theme)
        self._repaint()

    def _toggle_motion(self) -> None:
        self.app.settings.reduce_motion = not self.app.settings.reduce_motion
        self._changed()

    def _toggle_palette(self) -> None:
        self.app.settings.colour_blind = not self.app.settings.colour_blind
        self._repaint()

    def _repaint(self) -> None:
        """Save the change and lay out every screen again, the match under this menu too:
        its colours changed."""
        self._changed()
        for scene in self.app.scenes:
            scene.layout(self.app.size)
