"""The computer seats of a LAN peer think in a worker process (net/thinking.py): never in the
peer's own process, with local play's budget, cancellable, and past a worker that dies."""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import random
import signal
import threading
import time

import pytest

import game.ai.players
from game.ai.players import choose
from game.rules import State, new_game
from game.rules.chance import random_action
from game.rules.registry import VARIANTS
from net import thinking
from net.thinking import SeatThinker, ThinkingError
from tests.processes import wait_for_the_end_of


def _position(name: str, decisions: int, seed: int = 1) -> State:
    """``name`` after ``decisions`` random decisions (and their dice), then on to a choice
    among at least three actions."""
    state = new_game(name)
    rng = random.Random(seed)
    while decisions > 0 or state.to_move < 0 or len(state.legal_actions()) < 3:
        if state.is_terminal():
            raise AssertionError(f"{name} ended before a decision to make")
        decisions -= 0 if state.is_chance() else 1
        state = state.apply(random_action(state, rng))
    return state


def _workers() -> set[int]:
    return {process.pid for process in multiprocessing.active_children()}


def _cpu_seconds(pid: int) -> float:
    """User and system time of process ``pid`` so far (Linux)."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _run(coroutine):
    return asyncio.run(asyncio.wait_for(coroutine, 60))


@pytest.mark.slow
def test_every_game_decides_in_another_process_with_the_budget_of_local_play(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seconds = 2.0
    positions = {name: _position(name, 4) for name in VARIANTS}
    expected = {
        name: choose(state, "hard", 7, max_seconds=seconds, scale=seconds).action
        for name, state in positions.items()
    }

    def not_here(*args, **kwargs):
        raise AssertionError("a computer seat thought in the peer's own process")

    monkeypatch.setattr(game.ai.players, "choose", not_here)
    thinker = SeatThinker(seconds)
    before = _workers()

    async def decide_all() -> dict[str, int | None]:
        return {name: await thinker.decide(s, "hard", 7) for name, s in positions.items()}

    try:
        decided = _run(decide_all())
        started = _workers() - before
    finally:
        thinker.close()
    assert decided == expected
    assert len(started) == 1 and os.getpid() not in started


@pytest.mark.slow
def test_cancelling_the_waiting_task_stops_the_search_in_the_worker() -> None:
    thinker = SeatThinker(30.0)  # hard Dama, thirty times the nodes: many seconds
    state = _position("dama:classic", 12)

    async def cancelled_midway() -> int:
        before = _workers()
        task = asyncio.create_task(thinker.decide(state, "hard", 1))
        await asyncio.sleep(1.5)  # the worker started and is searching
        (pid,) = _workers() - before
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        await asyncio.sleep(0.3)  # the search notices within a few hundred nodes
        return pid

    try:
        pid = _run(cancelled_midway())
        busy = _cpu_seconds(pid)
        time.sleep(1.0)
        assert _cpu_seconds(pid) - busy < 0.2, "the worker went on searching"
    finally:
        thinker.close()


@pytest.mark.slow
def test_a_later_decision_supersedes_the_one_under_way_and_close_gives_up() -> None:
    before = _workers()  # an earlier test's workers, still ending: not this thinker's
    thinker = SeatThinker(30.0)
    long = _position("dama:classic", 12)
    short = _position("mulino:classic", 3)

    async def superseded() -> tuple[int | None, int | None, float]:
        first = asyncio.create_task(thinker.decide(long, "hard", 1))
        await asyncio.sleep(1.0)
        second = await thinker.decide(short, "easy", 1)
        began = time.monotonic()
        return await first, second, time.monotonic() - began

    async def closed() -> tuple[int | None, float]:
        task = asyncio.create_task(thinker.decide(long, "hard", 1))
        await asyncio.sleep(0.5)
        began = time.monotonic()
        thinker.close()
        return await task, time.monotonic() - began

    try:
        first, second, _ = _run(superseded())
        assert first is None
        assert second in short.legal_actions()
        gave_up, waited = _run(closed())
        assert gave_up is None and waited < 2.0
        assert _run(thinker.decide(short, "easy", 1)) is None  # closed for good
    finally:
        thinker.close()
    left = wait_for_the_end_of(list(_workers() - before), seconds=10)
    assert not left, "the worker process outlived close()"


@pytest.mark.slow
def test_a_killed_worker_is_replaced_and_the_decision_still_comes() -> None:
    thinker = SeatThinker(1.0)
    state = _position("dama:classic", 8)

    async def killed() -> tuple[int | None, int, set[int]]:
        before = _workers()
        task = asyncio.create_task(thinker.decide(state, "hard", 3))
        await asyncio.sleep(0)  # the task starts the worker before it first waits
        (pid,) = _workers() - before
        os.kill(pid, signal.SIGKILL)
        action = await task
        return action, pid, _workers() - before

    try:
        action, killed, now = _run(killed())
        assert action == choose(state, "hard", 3, max_seconds=1.0, scale=1.0).action
        assert now and killed not in now
        assert _run(thinker.decide(state, "easy", 3)) in state.legal_actions()
    finally:
        thinker.close()


def test_a_worker_that_dies_every_time_is_reported_not_waited_for(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    class Doomed(thinking.Thinker):
        def think(self, *args, **kwargs):
            future = super().think(*args, **kwargs)
            for process in multiprocessing.active_children():
                with contextlib.suppress(ProcessLookupError):  # another test's, already gone
                    os.kill(process.pid, signal.SIGKILL)
            return future

    monkeypatch.setattr(thinking, "Thinker", Doomed)
    thinker = SeatThinker(1.0)
    try:
        with pytest.raises(ThinkingError, match="process stopped 2 times"):
            _run(thinker.decide(_position("dama:classic", 8), "easy", 3))
    finally:
        thinker.close()


@pytest.mark.slow
def test_a_peer_about_to_exit_waits_for_the_worker_and_its_pool_to_end() -> None:
    """``aclose`` (what a peer's ``close`` awaits) returns once the worker process and the
    pool's manager thread are gone — a thread left running may still be writing to pipes
    the exiting interpreter closes, which printed EBADF tracebacks from the host."""
    earlier = _workers()  # an earlier test's workers, still ending: not this thinker's
    thinker = SeatThinker(30.0)
    state = _position("dama:classic", 12)

    async def closed_mid_search() -> tuple[int | None, float]:
        task = asyncio.create_task(thinker.decide(state, "hard", 1))
        await asyncio.sleep(0.5)
        began = time.monotonic()
        await thinker.aclose()
        return await task, time.monotonic() - began

    before = {thread.ident for thread in threading.enumerate()}
    gave_up, waited = _run(closed_mid_search())
    assert gave_up is None and waited < 5.0
    assert not _workers() - earlier, "the worker process outlived aclose()"
    left = [t.name for t in threading.enumerate() if t.ident not in before and t.is_alive()]
    assert not left, f"threads outlived aclose(): {left}"
