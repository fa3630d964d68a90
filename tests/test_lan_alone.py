"""A host left with nobody, on loopback (docs/PROTOCOL.md §6.6): both guests of a three-player
match die at once, so the host is cut off from most of the match and nobody ever answers it
again.  Told to end or to hand over, it ends its own copy once the others would have decided
its seat, saying why, and exits; told to wait, it says so and waits for its person."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from net.election import SAME_HOST_FIRST
from net.testing.peer_process import ROOT
from tests.lan import guest, host

DROP = 1.0
GRACE = 1.0
"""Every peer's ``--rejoin-grace``: the protocol's 15 s would only make the wait longer."""
ALONE = SAME_HOST_FIRST + GRACE + DROP
"""Seconds the host goes on trying the others before it gives up (§6.6)."""
TIMEOUTS = ("--drop-timeout", str(DROP), "--rejoin-grace", str(GRACE))


def _verify(record: Path) -> dict:
    done = subprocess.run(
        [sys.executable, "-m", "net", "verify", str(record)],
        capture_output=True, text=True, cwd=ROOT, check=False,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    return json.loads(done.stdout)


@pytest.mark.slow
@pytest.mark.parametrize("on_drop", ["end", "wait"])
def test_a_host_that_nobody_answers_ends_its_match_unless_told_to_wait(
    tmp_path: Path, on_drop: str
) -> None:
    drop = (*TIMEOUTS, "--on-drop", on_drop, "--ai", "easy", "--pace", "0.05")
    server, port = host(tmp_path, "numeri", "--players", "3", *drop)
    anna = guest(tmp_path, port, "anna", *drop)
    bert = guest(tmp_path, port, "bert", *drop)
    server.wait_for("action", ply=4)
    for process in (anna, bert):
        process.popen.send_signal(signal.SIGKILL)
    killed = time.monotonic()
    server.wait_for("touch", lost=True, timeout=10)
    server.wait_until(
        lambda e: e["event"] == "notice" and "found none of the others" in e["text"],
        ALONE + 15, "the host's word that it found nobody",
    )  # fmt: skip
    assert ALONE - 1 <= time.monotonic() - killed < ALONE + 10
    if on_drop == "wait":
        time.sleep(3.0)
        assert server.popen.poll() is None, server.tail()  # it waits for its person
        server.popen.terminate()
        assert server.finish() == 1, server.tail()
        assert _verify(tmp_path / "host.rec")["phase"] == "playing"
        return
    assert server.finish(20) == 0, server.tail()
    over = server.last("over")
    assert over["phase"] == "abandoned" and "found none of the others" in over["result"], over
    report = _verify(tmp_path / "host.rec")
    assert report["ok"] and report["phase"] == "abandoned", report
    assert "found none of the others" in report["result"], report


@pytest.mark.slow
def test_a_guest_that_nobody_answers_stops_and_says_why(tmp_path: Path) -> None:
    """The host and the other guest die at once: the last guest tries the host, votes or
    stands, and once nobody has answered for as long as a host would wait it stops with
    the reason (a guest cannot log, so its record stays as it was)."""
    drop = (*TIMEOUTS, "--on-drop", "end", "--ai", "easy", "--pace", "0.05")
    server, port = host(tmp_path, "numeri", "--players", "3", *drop)
    anna = guest(tmp_path, port, "anna", *drop)
    bert = guest(tmp_path, port, "bert", *drop)
    anna.wait_for("action", ply=4)
    for process in (server, bert):
        process.popen.send_signal(signal.SIGKILL)
    killed = time.monotonic()
    assert anna.finish(ALONE + 20) == 1, anna.tail()
    assert ALONE - 1 <= time.monotonic() - killed < ALONE + 10
    error = anna.last("error")["text"]
    assert error.startswith("found none of the others for ") and "losing the host" in error
    assert _verify(tmp_path / "anna.rec")["ok"]
