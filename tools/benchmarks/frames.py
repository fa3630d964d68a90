"""``python tools/bench.py frames [--size WxH]``: frame times of each game's busiest
animation (1920×1080 unless ``--size`` says otherwise, e.g. 3840x2160).

Each game's animation is played ``repeat`` times — the five Ausgeblockt dice tumbling, a Dama
multiple capture (its sparks), a Mulino mill closing (the line flashes, sparks along it), a
Numeri pawn hopping far — and every frame's update and drawing is timed, to the frame that
draws the last of the move's end (one may wait a frame for room, see ``redraw``); then two seconds
of the living title (pieces drifting, dice tumbling) and of a won match's confetti, each
``repeat`` times.  Each frame is made as the app makes it (:meth:`App.render`): the screen
advanced, drawn (whole, or only what changed) and shown.  It runs twice, each in its own
process: ``headless`` (SDL's dummy video driver: drawing only) and ``x11`` (a real window
on an X server, Xvfb started here if there is no DISPLAY: drawing plus presentation, of the
whole window or of the areas drawn again), and on X11 again with SDL's accelerated
presentation forced back on, to compare it with the client's default.  It also measures the
CPU the idle app uses while it waits for input, and the frames and CPU of the app's own loop
while the computer thinks.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
SIZE = (1920, 1080)
STEP = 1 / 60
SCENERY_FRAMES = 120
"""Frames timed of the title and of the confetti, per repetition (two seconds at 60 Hz)."""


def bench_frames(repeat: int, size: tuple[int, int] = SIZE) -> dict:
    from tools.benchmarks.common import machine

    report: dict = {
        "benchmark": "frames",
        "size": f"{size[0]}x{size[1]}",
        "machine": machine(),
        "target_p99_ms": 8.0,
    }
    report["headless"] = _run_worker("headless", repeat, size, {})
    report["x11"] = _on_x_server(size, lambda env: _run_worker("x11", repeat, size, env))
    report["x11_sdl_accelerated_presentation"] = _on_x_server(
        size,
        lambda env: _run_worker("x11", repeat, size, {**env, "SDL_FRAMEBUFFER_ACCELERATION": "1"}),
    )
    return report


def _run_worker(mode: str, repeat: int, size: tuple[int, int], env: dict) -> dict:
    command = [
        sys.executable,
        str(ROOT / "tools" / "bench.py"),
        "frames",
        "--worker",
        mode,
        "--repeat",
        str(repeat),
        "--size",
        f"{size[0]}x{size[1]}",
    ]
    done = subprocess.run(
        command,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "PYGAME_HIDE_SUPPORT_PROMPT": "1", **env},
        check=False,
    )
    if done.returncode != 0:
        return {"error": done.stderr.strip()[-1500:]}
    import json

    return json.loads(done.stdout)


def _on_x_server(size: tuple[int, int], run) -> dict:
    if os.environ.get("DISPLAY"):
        return run({})
    if shutil.which("Xvfb") is None:
        return {"error": "no DISPLAY and no Xvfb (apt-get install xvfb)"}
    display = ":97"
    server = subprocess.Popen(
        ["Xvfb", display, "-screen", "0", f"{size[0]}x{size[1]}x24", "-nolisten", "tcp"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        time.sleep(1.0)
        return run({"DISPLAY": display})
    finally:
        server.terminate()
        server.wait(timeout=10)


# -- inside the worker process -----------------------------------------------------------


def worker(mode: str, repeat: int, size: tuple[int, int] = SIZE) -> dict:
    if mode == "headless":
        os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    import pygame

    from game.client.app import App, Paths
    from tools.benchmarks.common import percentiles

    home = Path(tempfile.mkdtemp())
    app = App(Paths(home / "c", home / "d"), size=size, fullscreen=False)
    results = {
        "video_driver": pygame.display.get_driver(),
        "framebuffer_acceleration": os.environ.get("SDL_FRAMEBUFFER_ACCELERATION", "(SDL default)"),
    }
    for name, scenario in SCENARIOS.items():
        samples: list[float] = []
        for rep in range(repeat):
            scene, trigger = scenario(app, rep)
            _show(app, scene)
            trigger()
            while scene.view.animating or scene.settling:  # to the last part of its end
                samples.append(_timed_frame(app))
        results[name] = percentiles(samples)
    for name, scenery in (("title (pieces drifting)", _title), ("celebration (confetti)", _won)):
        samples = []
        for rep in range(repeat):
            _show(app, scenery(app, rep))
            samples += [_timed_frame(app) for _ in range(SCENERY_FRAMES)]
        results[name] = percentiles(samples)
    results["screen change (wipe)"] = _screen_changes(app, repeat)
    results["while the computer thinks (hard, Dama)"] = _thinking(app)
    results["the real loop while the computer thinks"] = _waiting(app)
    results["idle_cpu_percent"] = _idle_cpu(app, moving=False)
    results["living_title_cpu_percent"] = _idle_cpu(app, moving=True)
    app.close()
    return results


def _show(app, scene) -> None:
    """Make ``scene`` the app's, its wipe over."""
    app.reset(scene)
    app.frame(STEP)
    while app.transitioning:
        app.frame(STEP)


def _timed_frame(app) -> float:
    """One frame as the app makes it — the screen advanced, drawn (all of it, or what
    changed) and shown (on X11, the whole window or the areas drawn) — in seconds."""
    import pygame

    began = time.perf_counter()
    app.render(STEP)
    took = time.perf_counter() - began
    pygame.event.pump()
    return took


def _screen_changes(app, repeat: int) -> dict:
    """Every frame of going from the title to the settings and back, ``repeat`` times: the
    next screen is uncovered over the last (each frame presented by the app, as in play)."""
    from game.client.scenes.settings_screen import SettingsScene
    from game.client.scenes.title import TitleScene
    from tools.benchmarks.common import percentiles

    app.settings.reduce_motion = False
    app.reset(TitleScene(app))
    app.frame(STEP)
    samples: list[float] = []
    for _ in range(repeat):
        for change in (lambda: app.push(SettingsScene(app)), app.pop):
            began = time.perf_counter()
            change()
            while True:
                app.frame(STEP)  # the app presents the frame itself
                samples.append(time.perf_counter() - began)
                if not app.transitioning:
                    break
                began = time.perf_counter()
    return percentiles(samples)


def _title(app, rep: int):
    from game.client.scenes.title import TitleScene

    return TitleScene(app)


def _won(app, rep: int):
    """The results of a match of random play that someone won, its confetti falling."""
    from game.client.scenes.results import ResultsScene
    from game.rules import Outcome, variant
    from game.session.match import Match
    from game.session.seats import Seat

    for seed in range(rep * 50, rep * 50 + 50):
        match = Match.new(variant("numeri", 2), [Seat(), Seat()], seed)
        match.play_randomly(random.Random(seed))
        if Outcome.LOSS in match.state.result().outcomes:
            return ResultsScene(app, match)
    raise RuntimeError("no won match")


def _computer_thinking(app, rep: int):
    """A Dama match on the screen after the person's ``rep``-th legal move, shown, with the
    hard computer player asked for its answer; the match."""
    from game.client.scenes.play import PlayScene
    from game.rules import variant
    from game.session.match import Match
    from game.session.seats import Seat, SeatKind

    seats = [Seat(), Seat(SeatKind.COMPUTER, "hard")]
    match = Match.new(variant("dama:classic"), seats, rep)
    scene = PlayScene(app, match)
    _show(app, scene)
    scene.submit(scene.state.legal_actions()[rep])
    while not scene.thinking:
        app.render(STEP)
    return match


def _thinking(app) -> dict:
    """Frames paced at 60 Hz while a hard Dama player thinks in its worker process."""
    from tools.benchmarks.common import percentiles

    samples: list[float] = []
    elapsed = frames = 0.0
    for rep in range(4):
        match = _computer_thinking(app, rep)
        began = time.perf_counter()
        while match.state.to_move == 1:
            took = _timed_frame(app)
            samples.append(took)
            frames += 1
            time.sleep(max(0.0, STEP - took))
        elapsed += time.perf_counter() - began
    return {**percentiles(samples), "fps": round(frames / elapsed, 1)}


def _waiting(app) -> dict:
    """The app's own loop while a hard Dama player thinks in its worker process: frames it
    draws a second, and the share of one core its process takes (the worker's not counted)."""
    frames = cpu = wall = 0.0
    for rep in range(4):
        match = _computer_thinking(app, rep)
        drawn = 0
        frame = app.frame

        def counted(*args, frame=frame, match=match, **kwargs) -> None:
            nonlocal drawn
            drawn += 1
            frame(*args, **kwargs)
            if match.state.to_move != 1:  # the computer's move is in
                app.running = False

        app.frame = counted
        app.running = True
        began_cpu, began = time.process_time(), time.perf_counter()
        app._loop()
        cpu += time.process_time() - began_cpu
        wall += time.perf_counter() - began
        frames += drawn
        del app.frame
    return {"fps": round(frames / wall, 1), "cpu_percent": round(100 * cpu / wall, 1)}


def _idle_cpu(app, moving: bool) -> float:
    """Share of one core the app uses over two seconds on the title with nobody touching:
    with its pieces drifting (``moving``), or still (reduce motion: the app waits)."""
    import pygame

    from game.client.scenes.title import TitleScene

    app.settings.reduce_motion = not moving
    app.reset(TitleScene(app))
    app.running = True
    pygame.time.set_timer(pygame.QUIT, 2000, loops=1)
    cpu, wall = time.process_time(), time.perf_counter()
    app.run()
    return round(100 * (time.process_time() - cpu) / (time.perf_counter() - wall), 1)


def _match(name: str, players: int, want, seed: int):
    """A match played at random from ``seed`` until ``want(state)`` names an action."""
    from game.rules import variant
    from game.rules.chance import random_action
    from game.session.match import Match
    from game.session.seats import Seat

    for attempt in range(200):
        match = Match.new(variant(name, players), [Seat()] * players, seed + attempt)
        rng = random.Random(seed + attempt)
        while not match.state.is_terminal():
            state = match.state
            if state.is_chance():
                match.roll()
                continue
            action = want(state)
            if action is not None:
                return match, action
            match.play(random_action(state, rng))
    raise RuntimeError(f"no position found for {name}")


def _dice(app, rep: int):
    from game.client.scenes.play import PlayScene
    from game.rules import variant
    from game.session.match import Match
    from game.session.seats import Seat

    match = Match.new(variant("ausgeblockt", 2, {"first": 1}), [Seat(), Seat()], rep)
    scene = PlayScene(app, match)
    return scene, scene.roll


def _capture(app, rep: int):
    from game.client.scenes.play import PlayScene
    from game.rules.checkerboard import SQUARES, decode_path

    def multi(state):
        for action in state.legal_actions():
            if action >= SQUARES and action & 1 and len(decode_path(action)[0]) >= 3:
                return action
        return None

    match, action = _match("dama:classic", 2, multi, 100 + rep)
    scene = PlayScene(app, match)
    return scene, lambda: scene.submit(action)


def _mill(app, rep: int):
    from game.client.scenes.play import PlayScene

    def closing(state):
        for action in state.legal_actions():
            if action >= 24 and state.apply(action).stage == 1:
                return action
        return None

    match, action = _match("mulino:classic", 2, closing, 300 + rep)
    scene = PlayScene(app, match)
    return scene, lambda: scene.submit(action)


def _hop(app, rep: int):
    from game.client.scenes.play import PlayScene
    from game.rules.numeri import CHOOSE

    def far(state):
        if state.stage != CHOOSE:
            return None
        for action in state.legal_actions():
            if action < 10:
                at = state.pawns[state.side][action - 1]
                if state._destination(state.occupied, at) - at >= 8:
                    return action
        return None

    match, action = _match("numeri", 4, far, 500 + rep)
    scene = PlayScene(app, match)
    return scene, lambda: scene.submit(action)


SCENARIOS = {
    "ausgeblockt: five dice rolling": _dice,
    "dama: multiple capture": _capture,
    "mulino: mill closing and flashing": _mill,
    "numeri: pawn hopping far": _hop,
}
