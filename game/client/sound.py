"""Sound effects and the music: WAV files made by ``tools/build_sounds.py`` under
assets/sounds — short effects, and a soft 16-second loop.

With no audio device, or a missing file, the game goes on silently (and says so in the log).
The bank plays at the player's volume (kept within 0–1 whatever it is given) and not at all
while muted; the music, when the player turns it on, at a volume of its own, and not while
muted either.
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


class MusicLoop:
    """The soft music, looping on SDL's music channel (apart from the effects' channels)."""

    FADE_MS = 800

    def __init__(self) -> None:
        self.playing = False
        self._loaded = False
        self._broken = False

    def apply(self, on: bool, volume: float, muted: bool) -> None:
        """Play (fading in) or stop (fading out) as the settings say, at ``volume``."""
        wanted = on and not muted and volume > 0
        if not self._ready(wanted):
            return
        pygame.mixer.music.set_volume(_within_range(volume))
        if wanted and not self.playing:
            pygame.mixer.music.play(loops=-1, fade_ms=self.FADE_MS)
        elif not wanted and self.playing:
            pygame.mixer.music.fadeout(self.FADE_MS)
        self.playing = wanted

    def _ready(self, wanted: bool) -> bool:
        """The loop loaded (only once it is first wanted: 700 kB)."""
        if self._loaded or self._broken:
            return self._loaded
        if not wanted:
            return False
        try:
            if not pygame.mixer.get_init():
                pygame.mixer.init()
            pygame.mixer.music.load(io.BytesIO(asset_bytes("sounds/music.wav")), "wav")
        except (MissingAssetError, pygame.error) as error:
            log.warning("no music: %s", error)
            self._broken = True
            return False
        self._loaded = True
        return True


def _within_range(volume: float) -> float:
    return min(max(float(volume), 0.0), 1.0)
