"""Discovery for real: a host in one network namespace, a browser and a guest in another,
joined by a veth pair; multicast DNS between them and nowhere else.  No mocks."""

from __future__ import annotations

import os
import queue
from pathlib import Path

import pytest

from tests.lan import Process
from tools.netns import available, private_lan

WHY_NOT = available()
pytestmark = pytest.mark.skipif(
    WHY_NOT is not None and not os.environ.get("CI"), reason=f"no private LAN: {WHY_NOT}"
)


def test_a_browser_lists_a_match_live_and_a_guest_joins_it_by_name(tmp_path: Path) -> None:
    with private_lan("d") as (a, b):
        browser = Process(
            "browse", "--interface", b.address, "--timeout", "25",
            cwd=tmp_path, prefix=tuple(b.command()),
        )  # fmt: skip
        host = Process(
            "host", "dama", "--interface", a.address, "--name", "Corner table", "--ai", "easy",
            "--pace", "0.03", "--identity", str(tmp_path / "h.id"),
            cwd=tmp_path, prefix=tuple(a.command()),
        )  # fmt: skip
        listing = _next_change(browser, "found")
        assert listing["host"] == "Corner table" and listing["address"] == a.address
        assert listing["game"] == "dama:classic" and listing["free"] == 1
        assert listing["state"] == "lobby" and listing["compatible"] and not listing["code"]
        guest = Process(
            "join", "corner", "--interface", b.address, "--ai", "easy", "--pace", "0.03",
            "--identity", str(tmp_path / "g.id"), cwd=tmp_path, prefix=tuple(b.command()),
        )  # fmt: skip
        assert guest.finish() == 0, guest.tail()
        assert host.finish() == 0, host.tail()
        assert guest.last("over")["digest"] == host.last("over")["digest"]
        _next_change(browser, "gone")
        browser.kill()
    seen = [(c["free"], c["state"]) for c in browser.events]
    assert (0, "playing") in seen  # it filled, then it started


def _next_change(browser: Process, change: str) -> dict:
    """``browse`` prints one JSON line per change: the next one of ``change``."""
    while True:
        try:
            line = browser.next_line(timeout=20)
        except queue.Empty:
            raise AssertionError(f"no {change} from the browser: {browser.tail()}") from None
        assert line is not None, browser.tail()
        if line["change"] == change:
            return line
