"""Make the sound effects and the music loop under assets/sounds/ (16-bit mono WAV,
22 050 Hz) from formulas.

    python tools/build_sounds.py

Deterministic: the same script writes the same files, so anyone can restyle a sound by
changing its recipe here.
"""

from __future__ import annotations

import math
import random
import struct
import wave
from pathlib import Path

RATE = 22_050
OUT = Path(__file__).resolve().parent.parent / "assets" / "sounds"


def tone(freq: float, seconds: float, decay: float, attack: float = 0.004) -> list[float]:
    samples = []
    for i in range(int(RATE * seconds)):
        t = i / RATE
        envelope = min(1.0, t / attack) * math.exp(-t / decay)
        samples.append(envelope * math.sin(2 * math.pi * freq * t))
    return samples


def noise(seconds: float, decay: float, seed: int) -> list[float]:
    rng = random.Random(seed)
    return [
        math.exp(-(i / RATE) / decay) * (rng.random() * 2 - 1) for i in range(int(RATE * seconds))
    ]


def mix(*layers: tuple[float, list[float]], offset: list[float] | None = None) -> list[float]:
    length = max(
        len(layer) + int((offset or [0] * len(layers))[k] * RATE)
        for k, (_, layer) in enumerate(layers)
    )
    out = [0.0] * length
    for k, (gain, layer) in enumerate(layers):
        start = int((offset or [0] * len(layers))[k] * RATE)
        for i, value in enumerate(layer):
            out[start + i] += gain * value
    return out


def recipes() -> dict[str, list[float]]:
    rattle = [(0.5, noise(0.035, 0.012, seed)) for seed in range(7)]
    return {
        "roll": mix(*rattle, offset=[0.0, 0.05, 0.11, 0.16, 0.24, 0.3, 0.41]),
        "move": mix((0.6, tone(1900, 0.05, 0.01)), (0.5, tone(180, 0.08, 0.025))),
        "capture": mix((0.7, tone(140, 0.18, 0.05)), (0.35, noise(0.12, 0.03, 99))),
        "mill": mix(
            (0.45, tone(880, 0.6, 0.18)),
            (0.35, tone(1320, 0.6, 0.14)),
            (0.25, tone(1760, 0.5, 0.1)),
            offset=[0, 0.03, 0.06],
        ),
        "win": mix(
            *[(0.4, tone(f, 0.5, 0.2)) for f in (523.3, 659.3, 784.0, 1046.5)],
            offset=[0, 0.12, 0.24, 0.36],
        ),
        "chain": mix(  # a quick rising run: the turn goes on
            *[(0.35, tone(f, 0.25, 0.08)) for f in (659.3, 784.0, 987.8, 1318.5)],
            offset=[0, 0.06, 0.12, 0.18],
        ),
        "nope": tone(220, 0.14, 0.05, attack=0.02),
        "tap": tone(2600, 0.02, 0.006),
    }


MUSIC_BEAT = 0.5
"""Seconds a note of the music loop (120 notes a minute, eight to a chord)."""
MUSIC_CHORDS = (  # A minor, F, C, G — in the pentatonic's gentle register
    (220.0, 261.6, 329.6, 440.0),
    (174.6, 220.0, 261.6, 349.2),
    (130.8, 196.0, 261.6, 329.6),
    (196.0, 246.9, 293.7, 392.0),
)
MUSIC_PATTERN = (0, 1, 2, 3, 2, 1, 2, 3)
"""Which note of the chord each of its eight beats plays."""


def music() -> list[float]:
    """A soft loop of 16 s: plucked arpeggios over a low hum, each chord's notes ringing
    on past the loop's end wrapped round to its start, so that it repeats without a seam."""
    length = int(RATE * MUSIC_BEAT * len(MUSIC_PATTERN) * len(MUSIC_CHORDS))
    out = [0.0] * length
    for number, chord in enumerate(MUSIC_CHORDS):
        start = int(RATE * MUSIC_BEAT * len(MUSIC_PATTERN) * number)
        hum = tone(chord[0] / 2, MUSIC_BEAT * 10, 2.2, attack=0.4)
        _wrapped_add(out, start, hum, 0.35)
        for beat, which in enumerate(MUSIC_PATTERN):
            at = start + int(RATE * MUSIC_BEAT * beat)
            _wrapped_add(out, at, tone(chord[which], 1.6, 0.45, attack=0.01), 0.22)
            _wrapped_add(out, at, tone(chord[which] * 2, 0.8, 0.2, attack=0.01), 0.05)
    return out


def _wrapped_add(out: list[float], start: int, layer: list[float], gain: float) -> None:
    for i, value in enumerate(layer):
        out[(start + i) % len(out)] += gain * value


def write(path: Path, samples: list[float]) -> None:
    peak = max(1e-9, max(abs(s) for s in samples))
    scale = 0.8 * 32767 / peak
    frames = b"".join(struct.pack("<h", round(s * scale)) for s in samples)
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(frames)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, samples in {**recipes(), "music": music()}.items():
        write(OUT / f"{name}.wav", samples)
        print(f"wrote assets/sounds/{name}.wav ({len(samples) / RATE:.2f} s)")


if __name__ == "__main__":
    main()
