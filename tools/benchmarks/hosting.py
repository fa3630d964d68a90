"""``python tools/bench.py hosting`` (and part of ``net``): the frames of a client that hosts a
LAN match while a *hard* computer seat thinks.  The client runs the peer on an asyncio loop
in a thread of the pygame process (:class:`net.link.NetLink`); where the computer's search
runs decides whether the frame loop has to wait for the interpreter's lock.

* **hosting**: the real thing.  The client (SDL's dummy video driver, 1920×1080) hosts Dama
  on loopback with a ``python -m net join --spectate`` guest; seat 1 is the person at this
  screen, who plays a random move as soon as the screen lets her, seat 2 a hard computer.
  Frames are timed while the log waits for the computer's decision, and the run says where
  that decision was computed, as seen from here (a worker process, or this process).
* **direct**: the same frame loop beside an asyncio loop on a thread, as ``NetLink`` runs it,
  awaiting hard Dama decisions the two ways side by side — the old one,
  ``asyncio.to_thread(choose, …)`` in the client's process, and :class:`net.thinking.SeatThinker`
  in the worker process — whatever ``net/peer.py`` does today.

Each frame is the client's own (``App.frame``: events, update, drawing, presentation), paced
at 60 Hz.  ``late`` is how long after its due time a frame began (the frame loop waking up
and getting the interpreter back); ``fps`` counts frames over the time measured.  On a
machine others are using, frames also wait for a core: ``waiting_for_a_core`` is the time the
frame loop's thread was ready to run, during a frame and the wait before it, and was not
(Linux counts it; waiting for the interpreter's lock is not in it), so that busy-machine
delays can be told from the client's own.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SIZE = (1920, 1080)
STEP = 1 / 60
SECONDS = 1.0
"""The thinking-time setting (the client's default): hard Dama's budget, as in local play."""
OLD_WAY = "thread in the client process (asyncio.to_thread(choose))"
NEW_WAY = "worker process (net.thinking.SeatThinker)"


def bench_hosting(decisions: int) -> dict:
    """Run the measurement in a fresh process on the dummy video driver; its JSON."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "bench.py"), "hosting", "--worker",
         "--decisions", str(decisions)],
        capture_output=True,
        text=True,
        timeout=900,
        env={**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
             "PYGAME_HIDE_SUPPORT_PROMPT": "1", "PYTHONPATH": str(ROOT)},
        check=False,
    )  # fmt: skip
    if done.returncode != 0:
        return {"benchmark": "hosting", "error": done.stderr.strip()[-1500:]}
    return json.loads(done.stdout)


# -- inside the measuring process ----------------------------------------------------------


class _Frames:
    """The client's frames at 60 Hz, timed."""

    def __init__(self, app) -> None:
        self.app = app
        self.times: list[float] = []
        self.late: list[float] = []
        self.queued: list[float] = []
        self.span = 0.0
        self.intervals = 0
        self._due: float | None = None
        self._last_measured: float | None = None
        self._queued_until = _run_queue_wait()

    def run(self, measure: bool) -> None:
        """One frame (then sleep until the next is due); timed if ``measure``."""
        began = time.perf_counter()
        late = 0.0 if self._due is None else max(0.0, began - self._due)
        self.app.frame(STEP)
        ended = time.perf_counter()
        queued, self._queued_until = self._queued_until, _run_queue_wait()
        if measure:
            self.times.append(ended - began)
            self.late.append(late)
            self.queued.append(self._queued_until - queued)
            if self._last_measured is not None:
                self.span += began - self._last_measured
                self.intervals += 1
        self._last_measured = began if measure else None
        self._due = began + STEP
        time.sleep(max(0.0, self._due - ended))

    def report(self) -> dict:
        from tools.benchmarks.common import percentiles

        if not self.times:
            return {"frames": 0}
        late = percentiles(self.late)
        queued = percentiles(self.queued)
        return {
            **percentiles(self.times),
            "late_p99_ms": late["p99_ms"],
            "late_max_ms": late["max_ms"],
            "waiting_for_a_core_p99_ms": queued["p99_ms"],
            "waiting_for_a_core_max_ms": queued["max_ms"],
            "fps": round(self.intervals / self.span, 1) if self.span else None,
        }


def _run_queue_wait() -> float:
    """Seconds the frame loop's thread has been ready to run but waited for a core (Linux's
    schedstat; 0 elsewhere): other processes' work, not this client's."""
    try:
        with open("/proc/thread-self/schedstat") as stat:
            return int(stat.read().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return 0.0


def worker(decisions: int) -> dict:
    from game.client.app import App, Paths
    from tools.benchmarks.common import machine

    load = round(os.getloadavg()[0], 2)  # others' work on the machine shows up as late frames
    home = Path(tempfile.mkdtemp())
    app = App(Paths(home / "c", home / "d"), size=SIZE, fullscreen=False)
    report: dict = {
        "benchmark": "hosting",
        "size": "1920x1080",
        "machine": machine(),
        "think_seconds": SECONDS,
        "target_p99_ms": 8.0,
    }
    try:
        report["hosting"] = _hosting(app, home, decisions)
        report["direct"] = {way: _direct(app, way, decisions) for way in (OLD_WAY, NEW_WAY)}
    finally:
        app.close()
    report["load_average_before_after"] = [load, round(os.getloadavg()[0], 2)]
    return report


def _hosting(app, home: Path, decisions: int) -> dict:
    """Host Dama from the client against a hard computer seat, matches until ``decisions``
    of the computer's have been awaited."""
    frames = _Frames(app)
    rng = random.Random(1)
    played = matches = 0
    in_a_worker = False
    while played < decisions and matches < 5:
        matches += 1
        awaited, worker_seen = _host_a_match(app, home, frames, rng, decisions - played)
        played += awaited
        in_a_worker = in_a_worker or worker_seen
    return {
        "computer thinks in": "a worker process" if in_a_worker else "this process",
        "decisions": played,
        "matches": matches,
        **frames.report(),
    }


def _host_a_match(app, home: Path, frames: _Frames, rng: random.Random, wanted: int):
    """Play one hosted match (or its first ``wanted`` computer decisions): how many
    decisions were awaited, and whether a worker process was seen while awaiting them."""
    import multiprocessing

    from game.client.net_control import NetControl
    from game.client.scenes.play import PlayScene
    from game.rules import variant
    from net.identity import Identity
    from net.link import NetLink
    from net.peer import PeerConfig

    config = PeerConfig(name="host", interface="127.0.0.1", think_seconds=SECONDS)
    link = NetLink(Identity.load(home / "host.id"), config, advertise=False)
    spectator = None
    played = 0
    in_a_worker = False
    try:
        link.host(variant("dama:classic"), {1: "hard"}, None)
        port = _until(lambda: link.view().port, "the client never listened")
        spectator = subprocess.Popen(
            [sys.executable, "-m", "net", "join", f"127.0.0.1:{port}", "--spectate",
             "--interface", "127.0.0.1", "--identity", str(home / "spectator.id")],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )  # fmt: skip
        _until(lambda: link.view().spectators, "the spectator never joined")
        _start(link)
        play = PlayScene(app, NetControl(app, link))
        app.reset(play)
        while played < wanted and app.scene is play and not play.match.state.is_terminal():
            view = link.view()
            if view.error:
                raise RuntimeError(f"the hosted match failed: {view.error}")
            thinking = play.match.state.to_move == 1 and not view.paused
            in_a_worker = in_a_worker or (thinking and bool(multiprocessing.active_children()))
            frames.run(measure=thinking)
            if thinking and play.match.state.to_move != 1:
                played += 1
            state = play.state
            if not play.locked and state.to_move == 0:
                play.submit(rng.choice(state.legal_actions()))
    finally:
        app.reset(_blank(app))  # the match screen's discard closes the link
        link.close()
        if spectator is not None:
            spectator.kill()
            spectator.wait()
    return played, in_a_worker


def _start(link) -> None:
    """Get this player ready and start the match once it can start."""
    _until(lambda: link.view().my_seat is not None, "no seat for the host")
    view = link.view()
    if not view.seats[view.my_seat].ready:
        link.set_ready(True)
    _until(lambda: link.view().can_start, "the match cannot start")
    link.start()
    _until(lambda: link.view().phase == "playing", "the match never started")


def _until(condition, failure: str, seconds: float = 30.0):
    deadline = time.monotonic() + seconds
    while not (value := condition()):
        if time.monotonic() > deadline:
            raise RuntimeError(failure)
        time.sleep(0.01)
    return value


def _blank(app):
    from game.client.scenes.title import TitleScene

    return TitleScene(app)


def _direct(app, way: str, decisions: int) -> dict:
    """Frames of a Dama match screen while hard decisions are awaited on an asyncio loop in
    a thread, ``way``: in that thread's process, or in the worker."""
    import asyncio

    from game.ai.players import choose
    from game.client.scenes.play import PlayScene
    from net.thinking import SeatThinker

    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True, name="lan")
    thread.start()
    seat_thinker = SeatThinker(SECONDS) if way == NEW_WAY else None

    async def decide(state, seed: int) -> int | None:
        if seat_thinker is not None:
            return await seat_thinker.decide(state, "hard", seed)
        decision = await asyncio.to_thread(choose, state, "hard", seed, max_seconds=SECONDS)
        return decision.action

    frames = _Frames(app)
    think_times: list[float] = []
    app.reset(PlayScene(app, _midgame(0)))
    try:
        for index in range(decisions + 1):  # the first one untimed: the worker starting
            state = _midgame(index).state
            began = time.perf_counter()
            future = asyncio.run_coroutine_threadsafe(decide(state, index), loop)
            while not future.done():
                frames.run(measure=index > 0)
            if future.result() not in state.legal_actions():
                raise RuntimeError(f"{way}: no legal decision")
            if index > 0:
                think_times.append(time.perf_counter() - began)
    finally:
        if seat_thinker is not None:
            seat_thinker.close()
        loop.call_soon_threadsafe(loop.stop)
        thread.join(5)
        app.reset(_blank(app))
    return {
        "decisions": decisions,
        "think_mean_ms": round(1000 * sum(think_times) / len(think_times), 1),
        **frames.report(),
    }


def _midgame(seed: int):
    """A Dama match at this screen (two people, so nobody else thinks), 16 random moves in."""
    from game.rules import variant
    from game.rules.chance import random_action
    from game.session.match import Match
    from game.session.seats import Seat

    rng = random.Random(seed)
    while True:
        match = Match.new(variant("dama:classic"), [Seat(), Seat()], seed)
        while len(match.record.actions) < 16 and not match.state.is_terminal():
            match.play(random_action(match.state, rng))
        if not match.state.is_terminal() and len(match.state.legal_actions()) > 1:
            return match
