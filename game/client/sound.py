"""Sound effects: short WAV files made by ``tools/build_sounds.py`` under assets/sounds.

With no audio device, or a missing file, the game goes on silently (and says so in the log).
The bank plays at the player's volume (kept within 0–1 whatever it is given) and not at all
while muted.
"""

from __future__ import annotations

import io
import logging

import pygame

from game.resources import MissingAssetError, asset_bytes

log = logging.getLogger(__name__)

EFFECTS = ("roll", "move", "capture", "mill", "chain", "win", "nope", "tap")


class SoundBank:
    def __init__(self, volume: float, muted: bool = False) -> None:
        self._sounds: dict[str, pygame.mixer.Sound] = {}
        self.volume = _within_range(volume)
        self.muted = muted
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
        self.volume = _within_range(volume)
        for sound in self._sounds.values():
            sound.set_volume(self.volume)

    def set_muted(self, muted: bool) -> None:
        """Silence the sounds (those playing stop at once), or let them be heard again."""
        self.muted = muted
        if muted and self._sounds:
            pygame.mixer.stop()

    @property
    def audible(self) -> bool:
        return not self.muted and self.volume > 0

    def play(self, name: str) -> None:
        sound = self._sounds.get(name)
        if sound is not None and self.audible:
            sound.play()


def _within_range(volume: float) -> float:
    return min(max(float(volume), 0.0), 1.0)
