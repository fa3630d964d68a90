"""Discovery for real: a host in one network namespace, a browser and a guest in another,
joined by a veth pair; multicast DNS between them and nowhere else.  No mocks."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from net.discovery import Listing, ordered, twins
from net.identity import Identity, fingerprint
from net.testing.netns import available, lan, private_lan
from net.testing.peer_process import ROOT, PeerProcess

WHY_NOT = available()
pytestmark = pytest.mark.skipif(
    WHY_NOT is not None and not os.environ.get("CI"), reason=f"no private LAN: {WHY_NOT}"
)
BROWSE = ("--browse-timeout", "2")
"""How long ``join NAME`` listens before it picks: on this LAN every listing is heard within
a tenth of a second of the browser's start (the default, 5 s, is for real networks)."""


@pytest.mark.slow
def test_a_browser_lists_a_match_live_and_a_guest_joins_it_by_name(tmp_path: Path) -> None:
    with private_lan("d") as (a, b):
        browser = PeerProcess.net(
            "browse", "--interface", b.address, "--timeout", "25",
            cwd=tmp_path, prefix=tuple(b.command()),
        )  # fmt: skip
        host = PeerProcess.net(
            "host", "dama", "--interface", a.address, "--name", "Corner table", "--ai", "easy",
            "--pace", "0.03", "--identity", str(tmp_path / "h.id"),
            cwd=tmp_path, prefix=tuple(a.command()),
        )  # fmt: skip
        listing = _next_change(browser, "found")
        assert listing["host"] == "Corner table" and listing["address"] == a.address
        assert listing["game"] == "dama:classic" and listing["free"] == 1
        assert listing["state"] == "lobby" and listing["compatible"] and not listing["code"]
        guest = PeerProcess.net(
            "join", "corner", *BROWSE, "--interface", b.address, "--ai", "easy", "--pace", "0.03",
            "--identity", str(tmp_path / "g.id"), cwd=tmp_path, prefix=tuple(b.command()),
        )  # fmt: skip
        assert guest.finish() == 0, guest.tail()
        assert host.finish() == 0, host.tail()
        assert guest.last("over")["digest"] == host.last("over")["digest"]
        _next_change(browser, "gone")
        browser.kill()
    seen = [(c["free"], c["state"]) for c in browser.events]
    assert (0, "playing") in seen  # it filled, then it started


@pytest.mark.slow
def test_spoofed_and_malformed_announcements_neither_raise_nor_push_the_real_match_down(
    tmp_path: Path,
) -> None:
    """An outsider announces eight abandoned matches, a copy of the real one under another
    key, and records with a TXT key that is not UTF-8, control characters and a name far too
    long.  The browser says nothing of the malformed ones and raises nothing; the real match
    waiting for a player comes first, its copy beside it, told apart by the fingerprint."""
    with lan(3, "s") as network:
        a, outsider, b = network.hosts
        browser = PeerProcess.net(
            "browse", "--interface", b.address, "--timeout", "30",
            cwd=tmp_path, prefix=tuple(b.command()),
        )  # fmt: skip
        host = PeerProcess.net(
            "host", "dama", "--interface", a.address, "--name", "Corner table",
            "--identity", str(tmp_path / "h.id"), cwd=tmp_path, prefix=tuple(a.command()),
        )  # fmt: skip
        match = host.wait_for("listening")["match"]
        spoofer = subprocess.Popen(
            [*outsider.command(), sys.executable, "-m", "tests.mdns_spoofer",
             outsider.address, match, "Corner table"],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )  # fmt: skip
        try:
            assert spoofer.stdout is not None and spoofer.stdout.readline() == "ready\n"
            found = _found(browser, count=10)
            time.sleep(3)  # the malformed ones, announced with the others, have been heard
        finally:
            spoofer.kill()
            host.kill()
            browser.kill()
    heard = [line for line in browser.events if line["change"] != "gone"]
    assert {line["host"] for line in heard} == {
        "Corner table",
        *(f"Abandoned {n}" for n in range(8)),
    }
    assert browser.popen.stderr is not None
    errors = browser.popen.stderr.read()
    assert "Traceback" not in errors and "exception" not in errors.lower(), errors
    shown = ordered(found.values())
    real_key = Identity.load(tmp_path / "h.id").key
    real = next(item for item in shown if item.key == real_key.hex())
    copy = next(item for item in shown if item.match == match and item is not real)
    assert {shown[0].name, shown[1].name} == {real.name, copy.name}
    assert all(item.state == "abandoned" for item in shown[2:])
    assert real.fingerprint == fingerprint(real_key) != copy.fingerprint
    assert twins(shown) == {real.name, copy.name}


@pytest.mark.slow
def test_a_listing_copied_under_the_real_key_never_gets_the_join_code(tmp_path: Path) -> None:
    """An outsider re-announces the real match under the real host's key, pointing at
    itself, where it plays the host.  ``join "Corner table" --key FINGERPRINT --code …``
    tries it (its address comes first), sees it cannot prove the key, passes it over and
    joins the real host; the outsider hears a hello and never the code."""
    with lan(3, "i") as network:
        outsider, a, b = network.hosts  # the outsider's address sorts first: it is tried first
        host = PeerProcess.net(
            "host", "dama", "--interface", a.address, "--name", "Corner table", "--ai", "easy",
            "--pace", "0.03", "--code", "4711", "--identity", str(tmp_path / "h.id"),
            cwd=tmp_path, prefix=tuple(a.command()),
        )  # fmt: skip
        match = host.wait_for("listening")["match"]
        key = Identity.load(tmp_path / "h.id").key
        impostor = subprocess.Popen(
            [*outsider.command(), sys.executable, "-m", "tests.mdns_impostor",
             outsider.address, match, "Corner table", key.hex()],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )  # fmt: skip
        try:
            assert impostor.stdout is not None and impostor.stdout.readline() == "ready\n"
            guest = PeerProcess.net(
                "join", "Corner table", *BROWSE, "--key", fingerprint(key), "--code", "4711",
                "--interface", b.address, "--ai", "easy", "--pace", "0.03",
                "--identity", str(tmp_path / "g.id"), cwd=tmp_path, prefix=tuple(b.command()),
            )  # fmt: skip
            assert guest.finish() == 0, guest.tail()
            assert host.finish() == 0, host.tail()
        finally:
            impostor.kill()
            host.kill()
        heard = impostor.communicate()[0].splitlines()
    assert guest.last("joined")["host"].startswith(f"{a.address}:")
    assert guest.last("over")["digest"] == host.last("over")["digest"]
    passed = [e["text"] for e in guest.events if e["event"] == "notice"]
    assert any(t.startswith(f"{outsider.address}:") for t in passed), passed
    assert heard and all(line.startswith("{'t': 'hello'") for line in heard), heard
    assert not any("4711" in line for line in heard), heard  # nor any proof


@pytest.mark.slow
def test_a_tournament_is_listed_beside_matches_from_its_first_entrant_to_its_end(
    tmp_path: Path,
) -> None:
    """A director announces its tournament on one side of the LAN; on the other, a browser
    lists it — taking players, then under way, then over — and two players enter by the
    address and port the list gave.  When the director closes, the listing is gone."""
    with private_lan("t") as (a, b):
        browser = PeerProcess.net(
            "browse", "--interface", b.address, "--timeout", "60",
            cwd=tmp_path, prefix=tuple(b.command()),
        )  # fmt: skip
        director = PeerProcess.net(
            "tournament", "host", "mulino", "--players", "2", "--format", "round-robin",
            "--name", "Sera", "--interface", a.address, "--record", str(tmp_path / "d"),
            cwd=tmp_path, prefix=tuple(a.command()),
        )  # fmt: skip
        listing = _next_change(browser, "found")
        assert (listing["kind"], listing["host"], listing["format"]) == (
            "tournament", "Sera", "round-robin",
        )  # fmt: skip
        assert (listing["state"], listing["free"], listing["round"]) == ("entering", 2, 0)
        assert listing["address"] == a.address and listing["compatible"]
        key = Identity.load(tmp_path / "d" / "director.id").key
        assert listing["key"] == key.hex()
        where = f"{listing['address']}:{listing['port']}"
        players = [_entrant(tmp_path, b, where, name) for name in ("anna", "bruno")]
        for process in [*players, director]:
            assert process.finish(120) == 0, process.tail()
        _next_change(browser, "gone")
        browser.kill()
    seen = [(c["state"], c["free"], c["round"]) for c in browser.events if c["change"] != "gone"]
    assert seen[0] == ("entering", 2, 0) and seen[-1] == ("over", 0, 1)  # updates in between
    # may be coalesced by the time they are heard; each state's record: test_discovery_records


def _entrant(tmp: Path, side: Any, where: str, name: str) -> PeerProcess:
    return PeerProcess.net(
        "tournament", "join", where, "--ai", "easy", "--interface", side.address,
        "--name", name, "--identity", str(tmp / name), cwd=tmp, prefix=tuple(side.command()),
    )  # fmt: skip


def _found(browser: PeerProcess, count: int) -> dict[str, Listing]:
    """The first ``count`` matches ``browse`` finds, by name."""
    found: dict[str, Listing] = {}
    while len(found) < count:
        line = _next_change(browser, "found")
        found[line["name"]] = Listing(
            **{k: v for k, v in line.items() if k not in ("change", "at")}
        )
    return found


def _next_change(browser: PeerProcess, change: str) -> dict:
    """``browse`` prints one JSON line per change: the next one of ``change``."""
    return browser.wait_until(lambda line: line.get("change") == change, 20, f"a {change}")
