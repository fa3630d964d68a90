"""SIGKILL at random moments, over and over: every resume has every action whose autosave
had returned, and no save is ever torn."""

from __future__ import annotations

import os
import random
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

from game.session.saves import SaveStore

ROOT = Path(__file__).resolve().parent.parent
KILLS = 100


def _saved_actions(home: Path, run: int) -> list[str]:
    resumed = SaveStore(home).resume()
    assert resumed.problem is None, f"run {run}: {resumed.problem}"
    return [] if resumed.match is None else list(resumed.match.record.actions)


def _finished_with(home: Path, actions: list[str]) -> bool:
    """Whether a finished match begins with ``actions`` (the kill fell after the action that
    ended it was saved, which moves the match out of the autosave)."""
    return any(
        list(done.match.record.actions[: len(actions)]) == actions
        for done in SaveStore(home).finished()
    )


def test_killed_at_random_moments_a_hundred_times_nothing_is_lost_or_torn(
    tmp_path: Path,
) -> None:
    rng = random.Random(2026)
    finished = 0
    confirmed: list[str] = []  # the match in progress, as far as its saves were confirmed
    for run in range(KILLS):
        saved = _saved_actions(tmp_path, run)
        if saved[: len(confirmed)] != confirmed and _finished_with(tmp_path, confirmed):
            confirmed = []  # that match ended, whole, among the finished ones
        assert saved[: len(confirmed)] == confirmed, f"run {run}: a confirmed action was lost"
        assert len(saved) <= len(confirmed) + 1  # at most the save the kill cut short of its print
        confirmed = saved
        child = subprocess.Popen(
            [sys.executable, "-m", "tests.crash_child", str(tmp_path), str(run)],
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        assert child.stdout is not None
        lines = [child.stdout.readline()]
        deadline = time.monotonic() + rng.uniform(0.0, 0.1)
        while time.monotonic() < deadline:
            ready, _, _ = select.select([child.stdout], [], [], max(0, deadline - time.monotonic()))
            if ready:
                lines.append(child.stdout.readline())
        child.send_signal(signal.SIGKILL)
        child.wait()
        lines += child.stdout.read().splitlines()
        for line in lines:
            words = line.split()
            if not words:
                continue
            assert words[0] != "problem", f"run {run}: a torn or damaged save: {line}"
            if words[0] == "new":
                confirmed = []
            elif words[0] == "saved":
                confirmed = [*confirmed[: int(words[1]) - 1], words[2]]
            elif words[0] == "finished":
                finished += 1
    final = _saved_actions(tmp_path, KILLS)
    assert final[: len(confirmed)] == confirmed
    assert finished >= 3  # the kills fell in many matches, not one
