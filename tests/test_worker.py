"""The computer players' worker process: it never outlives the program that started it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.processes import wait_for_the_end_of

ROOT = Path(__file__).resolve().parents[1]
CHILD = """
import multiprocessing, sys, time
from multiprocessing import resource_tracker
from game.ai.worker import Thinker

if __name__ == "__main__":
    thinker = Thinker()
    thinker._pool.submit(int).result()  # the worker is up
    helpers = [p.pid for p in multiprocessing.active_children()]
    print(*helpers, resource_tracker._resource_tracker._pid, flush=True)
    time.sleep(120)
"""


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie waiting for its reaper has ended)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the kernel's parent-death signal")
def test_the_worker_and_the_resource_tracker_end_when_their_program_is_killed(
    tmp_path: Path,
) -> None:
    script = tmp_path / "program.py"
    script.write_text(CHILD)
    program = subprocess.Popen(
        [sys.executable, str(script)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        text=True, cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    assert program.stdout is not None
    helpers = [int(pid) for pid in program.stdout.readline().split()]
    assert len(helpers) == 2 and all(_alive(pid) for pid in helpers)
    program.send_signal(signal.SIGKILL)  # a crash: nothing of Python's runs
    program.wait()
    left = wait_for_the_end_of(helpers, seconds=10)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left, "left running after their program was killed"
