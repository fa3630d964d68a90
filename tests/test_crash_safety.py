"""SIGKILL at random moments, over and over, while several matches are played in turn: every
match keeps every action whose autosave had returned, no match is lost, and no save is ever
torn."""

from __future__ import annotations

import contextlib
import os
import random
import select
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import IO

import pytest

from game.session.saves import SaveStore

ROOT = Path(__file__).resolve().parent.parent
KILLS = 100


def _on_disk(home: Path, run: int) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """The actions of the unfinished and of the finished matches, by match."""
    store = SaveStore(home)
    shelf = store.unfinished()
    assert shelf.problem is None, f"run {run}: {shelf.problem}"
    unfinished = {f"{u.match.seed:016x}": _words(u.match.record.actions) for u in shelf.matches}
    finished = {f"{f.match.seed:016x}": _words(f.match.record.actions) for f in store.finished()}
    return unfinished, finished


def _words(actions: tuple[int, ...]) -> list[str]:
    """Actions as the child prints them: their numbers."""
    return [str(a) for a in actions]


def _check(home: Path, confirmed: dict[str, list[str]], run: int) -> dict[str, list[str]]:
    """Every match as far as its saves were confirmed is on disk, unfinished or (the kill fell
    after the action that ended it was saved) finished; the unfinished ones, as found."""
    unfinished, finished = _on_disk(home, run)
    for match, actions in confirmed.items():
        saved = unfinished[match] if match in unfinished else finished.get(match)
        assert saved is not None, f"run {run}: match {match} was lost"
        assert saved[: len(actions)] == actions, f"run {run}: a confirmed action was lost"
        if match in unfinished:  # at most the save the kill cut short of its print
            assert len(saved) <= len(actions) + 1, f"run {run}: {match} has unplayed actions"
    return unfinished


@pytest.mark.slow
def test_killed_at_random_moments_a_hundred_times_nothing_is_lost_or_torn(
    tmp_path: Path,
) -> None:
    rng = random.Random(2026)
    finished = 0
    most_unfinished = 0
    confirmed: dict[str, list[str]] = {}  # each match, as far as its saves were confirmed
    played: dict[str, list[str]] = {}  # each match's actions printed, kept or not yet
    server = subprocess.Popen(  # forks each run's child: a new process without the imports
        [sys.executable, "-m", "tests.crash_child", str(tmp_path)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)}, start_new_session=True,
    )  # fmt: skip
    assert server.stdin is not None and server.stdout is not None
    try:
        for run in range(KILLS):
            unfinished = _check(tmp_path, confirmed, run)
            confirmed.update(unfinished)
            played.update(unfinished)
            most_unfinished = max(most_unfinished, len(unfinished))
            server.stdin.write(f"{run}\n")
            server.stdin.flush()
            lines = _killed_at_random(server.stdout, rng)
            for line in lines:
                words = line.split()
                if not words:
                    continue
                assert words[0] != "problem", f"run {run}: a torn or damaged save: {line}"
                if words[0] == "saved":
                    match, count, action = words[1], int(words[2]), words[3]
                    played[match] = [*played.get(match, [])[: count - 1], action]
                    if words[4] == "1":  # kept once somebody has moved (a lot alone is not)
                        confirmed[match] = list(played[match])
                elif words[0] == "finished":
                    finished += 1
    except BaseException:
        os.killpg(server.pid, signal.SIGKILL)  # the server and the child it waits for
        raise
    finally:
        server.stdin.close()
        server.wait(timeout=30)
    _check(tmp_path, confirmed, KILLS)
    assert finished >= 3  # the kills fell in many matches, not one
    assert most_unfinished >= 2  # and several were unfinished at once


def _killed_at_random(output: IO[str], rng: random.Random) -> list[str]:
    """The lines of the child the server has just forked, killed at a random moment within
    0.1 s of its first line."""
    started = output.readline()
    assert started.startswith("child "), started  # the child waits for this line
    pid = int(started.split()[1])
    lines = [output.readline()]
    deadline = time.monotonic() + rng.uniform(0.0, 0.1)
    while time.monotonic() < deadline:
        ready, _, _ = select.select([output], [], [], max(0, deadline - time.monotonic()))
        if ready:
            lines.append(output.readline())
    with contextlib.suppress(ProcessLookupError):  # ended already: the server says how
        os.kill(pid, signal.SIGKILL)
    for line in output:  # the rest the child wrote, then the server's word that it ended
        if line.startswith("ended "):
            assert int(line.split()[2]) == signal.SIGKILL, f"the child ended by itself: {lines}"
            return lines
        lines.append(line)
    raise AssertionError("the server of children ended")
