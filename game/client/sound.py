"""Sound effects: short WAV files made by ``tools/build_sounds.py`` under assets/sounds.

With no audio device, or a missing file, the game goes on silently (and says so in the log).
"""

from __future__ import annotations

import io
import logging

import pygame

from game.resources import MissingAssetError, asset_bytes

log = logging.getLogger(__name__)

EFFECTS = ("roll", "move", "capture", "mill", "win", "nope", "tap")


class SoundBank:
    def __init__(self, volume: float) -> None:
        self._sounds: dict[str, pygame.mixer.Sound] = {}
        self.volume = volume
        try:
            if not pygame.mixer.get_init():
                pygame.mixer.init()
        except pygame.error as error:
            log.info("no sound: %s", error)
            return
        for name in EFFECTS:
            try:
                self._sounds[name] = pygame.mixer.Sound(
                    io.BytesIO(asset_bytes(f"sounds/{name}.wav"))
                )
            except (MissingAssetError, pygame.error) as error:
                log.warning("sound %s unavailable: %s", name, error)
        self.set_volume(volume)

    def set_volume(self, volume: float) -> None:
        self.volume = volume
        for sound in self._sounds.values():
            sound.set_volume(volume)

    def play(self, name: str) -> None:
        sound = self._sounds.get(name)
        if sound is not None and self.volume > 0:
            sound.play()
