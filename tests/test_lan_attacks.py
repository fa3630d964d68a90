"""The LAN protocol against its adversaries over real sockets: a fake host that captured a
player's handshake, a guest that spams requests, a guest that withholds its dice while it
stays connected, a host that slips a commitment of its own in front of a guest's reveal.
Each attack fails, and the match goes on or ends with the blame where it belongs — but
for the last, where a host can always end a match against a guest it drops (§11.2)."""

from __future__ import annotations

import asyncio
import json
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

from net import records
from net.connection import Closed, Connection
from net.identity import Identity
from net.matchlog import replay
from net.signing import host_payload
from net.testing.peer_process import ROOT, PeerProcess
from tests.lan import RawGuest, guest, host, joined


def _run(coroutine) -> None:
    asyncio.run(asyncio.wait_for(coroutine, 90))


@pytest.mark.slow
def test_a_handshake_captured_by_a_fake_host_is_worth_nothing_at_the_real_one(
    tmp_path: Path,
) -> None:
    """Mallory runs a fake host; Anna joins it and Mallory keeps everything she sent.  At
    the real host Mallory replays Anna's hello and proof: refused, because the proof signs
    the real host's fresh challenge, which Anna never saw.  Anna herself then joins."""
    server, port = host(tmp_path, "dama", "--ai", "easy", "--pace", "0.05")
    mallory = Identity.fresh()
    captured: dict = {}

    async def scenario() -> None:
        proved = asyncio.Event()

        async def fake(reader, writer) -> None:
            connection = Connection(reader, writer)
            hello = await connection.receive()
            nonce = secrets.token_bytes(32)
            match = "cd" * 16
            sig = mallory.sign(host_payload(match, hello["key"], hello["nonce"]))
            connection.send(
                {"t": "challenge", "match": match, "key": mallory.key, "nonce": nonce, "sig": sig}
            )
            captured["hello"], captured["proof"] = hello, await connection.receive()
            proved.set()
            await connection.close("thanks")

        trap = await asyncio.start_server(fake, "127.0.0.1", 0)
        anna = guest(tmp_path, trap.sockets[0].getsockname()[1], "anna", "--ai", "easy")
        await asyncio.wait_for(proved.wait(), 30)
        trap.close()
        await asyncio.to_thread(anna.finish, 30)
        connection = await Connection.open("127.0.0.1", port)
        connection.send(captured["hello"])  # Anna's key and nonce, word for word
        challenge = await connection.receive(10)
        assert challenge["t"] == "challenge" and challenge["key"] != mallory.key
        connection.send(captured["proof"])
        try:
            while True:
                await connection.receive(10)
        except Closed as closed:
            assert closed.reason == "the proof of identity does not check out"
        real = guest(tmp_path, port, "anna", "--ai", "easy", "--pace", "0.05")
        assert await asyncio.to_thread(real.finish) == 0, real.tail()

    _run(scenario())
    assert server.finish() == 0, server.tail()


@pytest.mark.slow
def test_refusals_go_to_the_sender_only(tmp_path: Path) -> None:
    """A spectator sends a stream of requests the host must refuse: it hears every refusal;
    the player beside it hears none of them."""
    server, port = host(tmp_path, "dama", "--pace", "0.3", "--ai", "easy")

    async def scenario() -> None:
        player = await RawGuest.join(port, name="anna")
        await player.until(joined(player))
        spammer = await RawGuest.join(port, name="<spam>", role="spectator")
        await spammer.until(joined(spammer))
        for _ in range(300):
            spammer.request({"k": "offer", "ply": 0})
        rejects = 0
        while rejects < 300:
            message = await spammer.next()
            rejects += message["t"] == "reject"
        await asyncio.sleep(0.5)
        with_timeout = asyncio.wait_for(player.until(lambda m: m["t"] == "notice"), 1.0)
        try:
            notice = await with_timeout
        except TimeoutError:
            notice = None
        assert notice is None, notice
        assert not [m for m in player.messages if m["t"] in ("notice", "reject")]

    _run(scenario())
    server.kill()


@pytest.mark.slow
def test_a_guest_that_withholds_its_reveal_while_connected_loses_the_match(
    tmp_path: Path,
) -> None:
    """Mallory commits to her dice, then never reveals while staying connected.  After the
    drop timeout the host treats her as gone: the match pauses, cannot be rolled without
    her value, and is ended — recorded against her."""
    server, port = host(tmp_path, "numeri", "--ai", "easy", "--drop-timeout", "2",
                        "--on-drop", "end")  # fmt: skip

    async def scenario() -> None:
        raw = await RawGuest.join(port, name="mallory")
        await raw.until(joined(raw))
        raw.request({"k": "ready", "ready": True})
        await raw.until(lambda m: m["t"] == "entry" and m["e"]["k"] == "start")
        chain = raw.identity.chain(raw.log.match_id, 1, raw.log.chain_length)
        raw.request({"k": "commit", "first": 1, "c": chain.commitment})
        reason = await raw.closed_reason(30)
        assert reason.startswith("withheld its dice for")

    _run(scenario())
    over = server.wait_for("over", timeout=30)
    assert over["phase"] == "abandoned" and over["forfeit"] == ["mallory"]
    assert server.finish() == 0
    report = json.loads(
        subprocess.run(
            [sys.executable, "-m", "net", "verify", str(tmp_path / "host.rec")],
            capture_output=True, text=True, cwd=ROOT, check=False,
        ).stdout
    )  # fmt: skip
    assert report["ok"] and report["forfeit"] == ["mallory"] and report["rolls"] == 0


def _verified(record: Path) -> dict:
    done = subprocess.run(
        [sys.executable, "-m", "net", "verify", str(record)],
        capture_output=True, text=True, cwd=ROOT, check=False,
    )  # fmt: skip
    return json.loads(done.stdout)


@pytest.mark.slow
def test_a_host_that_slips_a_commitment_in_front_of_a_reveal_is_refused_by_a_real_guest(
    tmp_path: Path,
) -> None:
    """Issue 28 live: the host (``net.testing.grinding_host``, its own log stripped of the
    rules that freeze the dice) holds Anna's reveal of her die, grinds a value that gives it
    the outcome it wants, and places a fresh commitment to it in front of her reveal.  Anna,
    a real ``python -m net join``, refuses the entry and leaves saying why; no roll she saw
    was made of anything but committed values; her record verifies and the host's does
    not.  (Before the fix the host won 20 matches of 20 this way.)"""
    server = PeerProcess(
        [sys.executable, "-m", "net.testing.grinding_host", "host", "numeri",
         "--interface", "127.0.0.1", "--no-advertise", "--name", "host",
         "--identity", str(tmp_path / "host.id"), "--record", str(tmp_path / "host.rec"),
         "--ai", "easy", "--drop-timeout", "1", "--on-drop", "end"],
        cwd=tmp_path,
    )  # fmt: skip
    port = server.wait_for("listening")["port"]
    anna = guest(tmp_path, port, "anna", "--ai", "easy")
    assert anna.finish(120) == 1, anna.tail()
    error = anna.last("error")["text"]
    assert error.startswith("the host relayed an entry that does not check out"), error
    assert "commit): a commitment never replaces another" in error
    slipped = server.wait_for("notice", 30)
    while not slipped["text"].startswith("slipped a commitment"):
        slipped = server.wait_for("notice", 30)
    server.finish(30)
    mine = _verified(tmp_path / "anna.rec")
    assert mine["ok"] and mine["rolls"] >= 1, mine
    log = replay(records.load(tmp_path / "anna.rec"))
    host = Identity.load(tmp_path / "host.id")
    assert [(e["peer"], e["first"]) for e in log.entries if e["k"] == "commit"].count(
        (host.peer, 1)
    ) == 1
    assert not [e for e in log.entries if e["k"] == "commit" and e["first"] > 1]
    for roll in log.rolls:  # every value the one its owner's secret committed it to
        index = roll.peers.index(host.peer)
        assert roll.reveals[index] == host.chain(log.match_id, 1, 4096).reveal(roll.event)
    theirs = _verified(tmp_path / "host.rec")
    assert not theirs["ok"] and "a commitment never replaces another" in theirs["error"]
