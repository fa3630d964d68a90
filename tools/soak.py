"""``python tools/soak.py --kiosk --minutes N``: the kiosk under a monkey, headless.

Runs the real client in kiosk mode on SDL's dummy drivers with accelerated time (each frame
advances the game by ``--dt`` seconds without waiting for the clock), while a seeded monkey
taps buttons and random places, drags across the board, leaves the screen alone for long
stretches so that attract mode, dimming and abandoned-match countdowns come round, and now
and then has the window manager minimise the kiosk or take full screen away.  Every
``--restart-every`` frames the system stops the kiosk with SIGTERM and it starts again on
the same disk, whose finished matches have grown by ``--grow`` meanwhile (as weeks of
visitors would make them): each start prunes them, and the title screen's time is measured.

Prints one JSON report: frames, taps, drags, matches started and finished, attract cycles,
window take-backs, restarts, unhandled exceptions (errors the kiosk had to recover from, and
any that escaped), frame time percentiles, the title screen's time at each start, the
finished matches on disk, and over time: resident memory as it is, resident memory once the
allocator has given back its free pages, and the number of Python objects.

And what was lost, each a failure: saves set aside as damaged, reads of the saves that
reported a problem, and matches that vanished — at every stop, each unfinished match the
kiosk saved and did not throw away (an abandoned match is, by design) must be on the disk,
equal to the match as it was played.  The exit status is 1 if anything was lost or any
exception seen.  Runs ``--minutes``, or stops sooner at ``--frames`` if that is given.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import gc
import itertools
import json
import os
import random
import signal
import sys
import tempfile
import time
from array import array
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from game.session.match import Match

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pygame  # after the SDL drivers are chosen

SAMPLES = 20
"""Memory samples over the run."""


def trimmed_resident_bytes() -> int:
    """Resident memory once the garbage is collected and the C allocator has given back
    what is free (glibc's ``malloc_trim``): what is really held, without the allocator's
    free pages that make the plain figure rise and fall by tens of MB."""
    gc.collect()
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None).malloc_trim(0)
    return resident_bytes()


def resident_bytes() -> int:
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        import resource

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


class Monkey:
    """Random people at the table: bursts of taps and drags, then walking away."""

    def __init__(self, rng: random.Random, size: tuple[int, int]) -> None:
        self.rng = rng
        self.size = size
        self.quiet = 0  # frames left without any touch
        self.burst = 0
        self.held: tuple[int, int] | None = None
        self.taps = self.drags = self.window_events = 0

    def act(self, app) -> None:
        rng = self.rng
        if self.held is not None:  # a drag in progress: move, then let go
            x, y = self.held
            x = max(0, min(self.size[0] - 1, x + rng.randint(-60, 60)))
            y = max(0, min(self.size[1] - 1, y + rng.randint(-60, 60)))
            if rng.random() < 0.3:
                _post(pygame.MOUSEBUTTONUP, (x, y))
                self.held = None
            else:
                _post(pygame.MOUSEMOTION, (x, y), buttons=(1, 0, 0), rel=(0, 0))
                self.held = (x, y)
            return
        if rng.random() < 0.0005:  # Alt+Space → Iconify, or a shortcut that unsets full screen
            if rng.random() < 0.5:
                pygame.event.post(pygame.event.Event(pygame.WINDOWMINIMIZED))
            else:
                pygame.event.post(pygame.event.Event(pygame.WINDOWHIDDEN))
            self.window_events += 1
        if self.quiet:
            self.quiet -= 1
            return
        if self.burst == 0:
            if rng.random() < 0.002:  # someone walks away for a while (up to 5 minutes)
                self.quiet = rng.randint(300, 9000)
                return
            self.burst = rng.randint(1, 40)
        if rng.random() > 0.35:
            return  # people do not tap every frame
        self.burst -= 1
        pos = self._somewhere(app)
        _post(pygame.MOUSEBUTTONDOWN, pos)
        if rng.random() < 0.15:
            self.held = pos
            self.drags += 1
        else:
            _post(pygame.MOUSEBUTTONUP, pos)
            self.taps += 1

    def _somewhere(self, app) -> tuple[int, int]:
        targets = [t for t in app.scene.targets if t.rect.width > 0]
        if targets and self.rng.random() < 0.8:
            target = self.rng.choice(targets)
            return target.rect.center
        # anywhere but the operator's corner (the monkey knows no PIN anyway)
        return (self.rng.randrange(100, self.size[0]), self.rng.randrange(100, self.size[1]))


def _post(kind: int, pos: tuple[int, int], **extra) -> None:
    if kind == pygame.MOUSEMOTION:
        pygame.event.post(pygame.event.Event(kind, pos=pos, touch=False, **extra))
    else:
        pygame.event.post(pygame.event.Event(kind, pos=pos, button=1, touch=False))


class FrameTimes:
    """Frame times in 10 µs bins: percentiles in constant memory.  (A list of a million
    floats is 32 MB, which the memory samples would count as the kiosk's own growth.)"""

    BIN = 1e-5
    BINS = 20_000  # up to 200 ms; slower frames count in the last bin

    def __init__(self) -> None:
        self.counts = array("L", bytes(8 * self.BINS))
        self.count = 0
        self.slowest = 0.0

    def add(self, seconds: float) -> None:
        self.counts[min(self.BINS - 1, int(seconds / self.BIN))] += 1
        self.count += 1
        self.slowest = max(self.slowest, seconds)

    def at(self, share: float) -> float:
        """The frame time (seconds, to the bin's top) below which ``share`` of frames are."""
        wanted, seen = share * self.count, 0
        for index, count in enumerate(self.counts):
            seen += count
            if seen >= wanted and seen:
                return (index + 1) * self.BIN
        return self.slowest

    def figures(self) -> dict:
        return {
            "p50": round(1000 * self.at(0.5), 2),
            "p99": round(1000 * self.at(0.99), 2),
            "max": round(1000 * self.slowest, 2),
        }


KEEP_FINISHED = 200
"""The soaked kiosk's ``keep_finished``: pruning comes round at every start."""


def soak(
    frames: int | None,
    minutes: float,
    dt: float,
    seed: int,
    size: tuple[int, int],
    restart_every: int = 0,
    grow: int = 0,
) -> dict:
    from game.client.app import App, Paths
    from game.client.kiosk_config import KioskConfig
    from game.client.scenes.kiosk import AttractScene
    from game.client.scenes.play import PlayScene
    from game.client.scenes.results import ResultsScene
    from game.client.scenes.title import TitleScene
    from game.session.saves import FINISHED

    home = Path(tempfile.mkdtemp(prefix="tavolo-soak-"))
    config = KioskConfig(attract_after=30, abandon_after=60, countdown=10, dim_after=120,
                         keep_finished=KEEP_FINISHED)  # fmt: skip
    paths = Paths(home / "config", home / "data")

    def start() -> tuple[App, float]:
        app = App(paths, size=size, fullscreen=False, kiosk=config)
        began = time.perf_counter()
        app.push(TitleScene(app))
        app.frame(dt)
        return app, time.perf_counter() - began

    # With --frames, a memory sample every twentieth of them; else every twentieth of the
    # minutes (a run of minutes makes some 700,000 frames: sampling on a guess of them
    # took thousands of samples, each with a full collection and a trim).
    sample_every = max(1, frames // SAMPLES) if frames is not None else None
    app, title = start()
    title_ms = [round(1000 * title, 2)]
    ledger = Ledger()
    ledger.watch(app)
    model = _a_finished_match(app) if grow else None
    monkey = Monkey(random.Random(seed), size)
    times = FrameTimes()
    memory: list[dict] = []
    escaped: list[str] = []
    started = finished = attract = restarts = taken_back = 0
    seen_match = seen_results = None
    attract_scene = None
    deadline = time.monotonic() + 60 * minutes
    began = time.monotonic()
    frame = 0
    stopped_by = "frames"
    for frame in itertools.count(1) if frames is None else range(1, frames + 1):
        if restart_every and frame % restart_every == 0:
            os.kill(os.getpid(), signal.SIGTERM)  # systemctl stop, a shutdown
            if app.stopped_by != "SIGTERM":
                escaped.append("SIGTERM did not stop the kiosk")
            taken_back += app.window_returns
            app.close()
            ledger.check(app.saves.store)
            if model is not None:
                _grow(paths.data / FINISHED, model, grow, frame)
            app, title = start()
            ledger.watch(app)
            title_ms.append(round(1000 * title, 2))
            restarts += 1
        monkey.act(app)
        start_at = time.perf_counter()
        try:
            app.frame(dt)
        except Exception as error:  # escaped the kiosk's own recovery: counted, and go on
            escaped.append(f"{type(error).__name__}: {error}")
            app.reset(TitleScene(app))
        times.add(time.perf_counter() - start_at)
        scene = app.scene
        if isinstance(scene, PlayScene) and scene.match is not seen_match:
            seen_match = scene.match
            started += 1
        if isinstance(scene, ResultsScene) and scene is not seen_results:
            seen_results = scene
            finished += 1
        if isinstance(scene, AttractScene) and scene is not attract_scene:
            attract_scene = scene
            attract += 1
        if not app.running:  # the monkey found the way out: that must never happen
            escaped.append("the kiosk quit")
            app.running = True
        if (
            frame % sample_every == 0
            if sample_every is not None
            else time.monotonic() - began >= 60 * minutes * (len(memory) + 1) / SAMPLES
        ):
            memory.append(_memory_sample(frame))
        if time.monotonic() > deadline:
            stopped_by = "minutes"
            break
    taken_back += app.window_returns
    app.close()
    ledger.check(app.saves.store)
    on_disk = len(list((paths.data / FINISHED).glob("*.tavolo")))
    warm = memory[len(memory) // 5] if memory else {}
    last = memory[-1] if memory else {}
    return {
        "tool": "soak",
        "frames": frame,
        "stopped_by": stopped_by,
        "game_seconds": round(frame * dt),
        "wall_seconds": round(time.monotonic() - began, 1),
        "taps": monkey.taps,
        "drags": monkey.drags,
        "matches_started": started,
        "matches_finished": finished,
        "attract_cycles": attract,
        "window_events": monkey.window_events,
        "window_taken_back": taken_back,
        "restarts_by_sigterm": restarts,
        "finished_added_per_restart": grow,
        "finished_on_disk_at_end": on_disk,
        "keep_finished": KEEP_FINISHED,
        "title_ms_at_each_start": title_ms,
        "unhandled_exceptions": app.recovered + len(escaped),
        "recovered_in_kiosk": app.recovered,
        "escaped": escaped[:5],
        "matches_saved": ledger.matches,
        "matches_checked_at_stops": ledger.checked,
        "matches_discarded_by_the_kiosk": ledger.discarded,
        "lost": ledger.lost(),
        "swept_matches": ledger.swept,
        "lost_matches": ledger.vanished[:5],
        "frame_ms": times.figures(),
        **{f"{key}_samples": [[m["frame"], m[key]] for m in memory] for key in MEASURES},
        **{f"{key}_growth_after_warmup_percent": _growth(warm, last, key) for key in MEASURES},
    }


class Ledger:
    """What the kiosk was given to keep, checked against its disk at every stop.

    It listens to the app's saves: the newest state of each match handed over to be saved,
    the matches thrown away (abandoned, by design), and every read of the unfinished saves
    that reported a problem."""

    def __init__(self) -> None:
        self.saved: dict[int, Match] = {}
        """By seed: the match last handed over to be saved (as it is now: every change of
        a match is handed over)."""
        self.thrown_away: set[int] = set()
        self.problems: list[str] = []
        self.vanished: list[str] = []
        self.set_aside = 0
        self.matches = 0
        """Matches handed over to be saved, over the run."""
        self.checked = 0
        self.discarded = 0
        self.swept = 0
        """Unfinished matches the kiosk deleted because nobody came back to them."""

    def watch(self, app) -> None:
        saves = app.saves
        save, discard, unfinished = saves.save, saves.discard, saves.unfinished

        def saving(match, on_error=None) -> None:
            self.matches += match.seed not in self.saved
            self.saved[match.seed] = match
            self.thrown_away.discard(match.seed)
            save(match, on_error)

        def discarding(match) -> None:
            self.thrown_away.add(match.seed)
            self.discarded += 1
            discard(match)

        def reading(limit=None):
            shelf = unfinished(limit)
            if shelf.problem is not None:
                self.problems.append(shelf.problem)
            return shelf

        saves.save, saves.discard, saves.unfinished = saving, discarding, reading
        abandon = saves.store.abandon

        def abandoning(before, keep=frozenset()):  # left matches swept by design
            gone = abandon(before, keep)
            for path in gone:
                with contextlib.suppress(ValueError):
                    self.thrown_away.add(int(path.name.split(".")[0], 16))
                    self.swept += 1
            return gone

        saves.store.abandon = abandoning

    def check(self, store) -> None:
        """At a stop: every match kept, as it was played; nothing set aside."""
        shelf = store.unfinished()
        if shelf.problem is not None:
            self.problems.append(shelf.problem)
        on_disk = {u.match.seed: u.match for u in shelf.matches}
        for seed, match in self.saved.items():
            if seed in self.thrown_away or match.state.is_terminal() or not match.begun:
                continue
            self.checked += 1
            if on_disk.get(seed) != match:
                found = "missing" if seed not in on_disk else "different"
                self.vanished.append(f"{seed:016x}: {found} on the disk")
        self.set_aside = len(store.set_aside())
        self.saved.clear()
        self.thrown_away.clear()

    def lost(self) -> dict[str, int]:
        return {
            "set_aside_saves": self.set_aside,
            "refused_loads": len(self.problems),
            "vanished_matches": len(self.vanished),
        }


MEASURES = ("resident_mb", "trimmed_resident_mb", "drawing_caches_mb", "trimmed_less_caches_mb",
            "python_objects")  # fmt: skip
"""What each memory sample holds: the process's resident memory as the system shows it and
after returning the allocator's free pages, the pixels the drawing caches hold (bounded:
:mod:`game.client.surface_cache`), the trimmed memory less those, and Python's objects."""


def _memory_sample(frame: int) -> dict:
    from game.client.surface_cache import cached_megabytes, limit_megabytes

    plain = resident_bytes() / 2**20  # before the trim returns the free pages
    trimmed = trimmed_resident_bytes() / 2**20
    caches = cached_megabytes()
    return {
        "frame": frame,
        "resident_mb": round(plain, 1),
        "trimmed_resident_mb": round(trimmed, 1),
        "drawing_caches_mb": round(caches, 1),
        "drawing_caches_limit_mb": round(limit_megabytes(), 1),
        "trimmed_less_caches_mb": round(trimmed - caches, 1),
        "python_objects": len(gc.get_objects()),
    }


def _growth(warm: dict, last: dict, key: str) -> float | None:
    """From the sample at a fifth of the run to the last, in percent."""
    if not warm or not warm[key]:
        return None
    return round(100 * (last[key] - warm[key]) / warm[key], 2)


def _a_finished_match(app) -> Path:
    """A real finished match saved by the kiosk's store: the model the store grows from."""
    from game.rules import variant
    from game.rules.chance import random_action
    from game.session.match import Match
    from game.session.saves import FINISHED
    from game.session.seats import Seat

    match = Match.new(variant("dama:classic"), [Seat(), Seat()], 99)
    rng = random.Random(99)
    while not match.state.is_terminal():
        state = match.state
        match.play(
            random_action(state, rng) if state.is_chance() else rng.choice(state.legal_actions())
        )
    app.saves.store.save(match)
    name = f"{match.seed:016x}-{len(match.record.actions)}.tavolo"
    model = app.saves.store.directory / FINISHED / name
    kept = model.with_name("model.bin")
    os.link(model, kept)
    return kept


def _grow(folder: Path, model: Path, count: int, frame: int) -> None:
    """``count`` more finished matches (links to one real save), as visitors would leave."""
    folder.mkdir(parents=True, exist_ok=True)
    for number in range(count):
        link = folder / f"{frame:08x}{number:08x}-1.tavolo"
        with contextlib.suppress(FileExistsError):
            os.link(model, link)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kiosk", action="store_true", required=True, help="(the mode soaked)")
    parser.add_argument("--minutes", type=float, default=15.0, help="how long it runs")
    parser.add_argument("--frames", type=int, help="stop sooner, after this many frames")
    parser.add_argument("--dt", type=float, default=1 / 30, help="game seconds per frame")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--size", default="1280x720", help="WIDTHxHEIGHT")
    parser.add_argument(
        "--restart-every",
        type=int,
        default=20_000,
        help="frames between stops by SIGTERM and starts again (0: never)",
    )
    parser.add_argument("--grow", type=int, default=2_000,
                        help="finished matches added to the disk at each restart")  # fmt: skip
    args = parser.parse_args(argv)
    try:
        width, height = (int(n) for n in args.size.lower().split("x"))
    except ValueError:
        parser.error("--size takes WIDTHxHEIGHT")
    if args.minutes <= 0 or (args.frames is not None and args.frames < 1) or not 0 < args.dt <= 1:
        parser.error("--minutes and --frames must be positive, --dt in (0, 1]")
    if args.restart_every < 0 or args.grow < 0:
        parser.error("--restart-every and --grow cannot be negative")
    report = soak(
        args.frames,
        args.minutes,
        args.dt,
        args.seed,
        (width, height),
        args.restart_every,
        args.grow,
    )
    print(json.dumps(report, indent=2))
    failed = report["unhandled_exceptions"] or any(report["lost"].values())
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
