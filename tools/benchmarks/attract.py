"""``python tools/bench.py attract``: what a kiosk costs while nobody is there.

A kiosk spends most of its life in attract mode.  The real client runs in kiosk mode on
SDL's dummy video driver at 1920×1080 in real time (the frame loop's own clock and pacing,
as on the table), side by side in one run: attract mode as it is (paced at
:attr:`AttractScene.fps`, the demo drawn again only while it moves); the same pace with
everything drawn at every frame (the way before); and that at 60 frames a second (the app's
pace, the way before that).  CPU is the process's own time plus its computer-player
worker's (from /proc), as a share of one core over the wall time measured; each part runs
in a fresh process, and all show the same demos (one seed).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SIZE = (1920, 1080)
SEED = 2026


PACES = ("paced", "paced-whole", "60-whole")
SAMPLE_EVERY = 30.0
"""Seconds between two readings of the memory (each collects the garbage first)."""


def bench_attract(seconds: float, paces: tuple[str, ...] = PACES) -> dict:
    report: dict = {"benchmark": "attract", "size": f"{SIZE[0]}x{SIZE[1]}", "seconds": seconds}
    for pace in paces:
        done = subprocess.run(
            [sys.executable, "-m", "tools.benchmarks.attract", pace, str(seconds)],
            capture_output=True, text=True, cwd=ROOT, timeout=60 + 3 * seconds, check=False,
            env={**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
                 "PYGAME_HIDE_SUPPORT_PROMPT": "1", "PYTHONPATH": str(ROOT)},
        )  # fmt: skip
        if done.returncode != 0:
            report[pace] = {"error": done.stderr.strip()[-1500:]}
        else:
            report[pace] = json.loads(done.stdout)
    return report


def _cpu_seconds(pid: int) -> float:
    """User and system CPU of process ``pid`` so far (0 if it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _rss_mb(pid: int) -> float:
    """Resident memory of process ``pid`` in MB (0 if it is gone)."""
    try:
        pages = int(Path(f"/proc/{pid}/statm").read_text().split()[1])
    except (OSError, IndexError, ValueError):
        return 0.0
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def _memory(children: list[int]) -> dict[str, float]:
    """The game's resident memory as the system shows it and once the allocator has given
    back its free pages (tools/soak.py's measure), the pixels the drawing caches hold (bounded
    by game/client/surface_cache.py), and the computer-player worker's resident memory."""
    from game.client.surface_cache import cached_megabytes
    from tools.soak import trimmed_resident_bytes

    plain = _rss_mb(os.getpid())
    trimmed = trimmed_resident_bytes() / 2**20
    caches = cached_megabytes()
    return {
        "game": round(plain, 1),
        "game_trimmed": round(trimmed, 1),
        "drawing_caches": round(caches, 1),
        "game_trimmed_less_caches": round(trimmed - caches, 1),
        "worker": round(sum(_rss_mb(pid) for pid in children), 1),
    }


def measure(pace: str, seconds: float) -> dict:
    """In this process: attract mode for ``seconds`` of real time after a warm-up."""
    import multiprocessing

    from game.client.app import App, Paths
    from game.client.kiosk_config import KioskConfig
    from game.client.scenes.kiosk import AttractScene, darken

    class Counted(AttractScene):
        """Attract mode as it is, counting the frames that draw the demo again."""

        whole_frames = 0

        def _draw_backdrop(self, size: tuple[int, int]) -> None:
            self.whole_frames += 1
            super()._draw_backdrop(size)

    class WholeFrames(AttractScene):
        """Attract mode drawing the demo, its veil and the banner at every frame."""

        def draw(self, surface) -> None:
            self.demo.draw_whole(surface)
            darken(surface, 200 if self.dimmed else 90)
            self._draw_banner(surface)
            self._areas = None

    home = Path(tempfile.mkdtemp(prefix="tavolo-attract-"))
    app = App(Paths(home / "c", home / "d"), size=SIZE, fullscreen=False, kiosk=KioskConfig())
    attract = (Counted if pace == "paced" else WholeFrames)(app, seed=SEED)  # the same demos
    if pace == "60-whole":
        attract.fps = 60
    app.push(attract)
    warm_until = time.monotonic() + 3.0
    while time.monotonic() < warm_until:  # the worker started, the first demo moving
        app.frame()
    children = [p.pid for p in multiprocessing.active_children()]
    attract.whole_frames = frames = 0
    cpu = time.process_time() + sum(_cpu_seconds(pid) for pid in children)
    began = time.monotonic()
    memory: list[dict[str, float]] = []
    sampled = -SAMPLE_EVERY
    while (now := time.monotonic()) - began < seconds:
        if now - sampled >= SAMPLE_EVERY:
            sampled = now
            memory.append(_memory(children))
        app.frame()
        frames += 1
    wall = time.monotonic() - began
    memory.append(_memory(children))
    cpu = time.process_time() + sum(_cpu_seconds(pid) for pid in children) - cpu
    demos = len(attract.shown)
    whole = attract.whole_frames if isinstance(attract, Counted) else frames
    app.close()
    return {
        "fps_asked": attract.fps,
        "frames": frames,
        "fps": round(frames / wall, 1),
        "cpu_percent_of_a_core": round(100 * cpu / wall, 1),
        "frames_drawing_the_demo": whole,
        "demos_shown": demos,
        "memory_mb": {
            key: {
                "first": memory[0][key],
                "after_a_minute": memory[min(len(memory) - 1, round(60 / SAMPLE_EVERY))][key],
                "last": memory[-1][key],
                "max": max(sample[key] for sample in memory),
            }
            for key in memory[0]
        },
    }


if __name__ == "__main__":
    print(json.dumps(measure(sys.argv[1], float(sys.argv[2]))))
