"""The door, played by its adversaries over real sockets on loopback: impostor hosts that
want a guest's join code, and a flood of newcomers that claim long histories to hold a
host's descriptors (docs/PROTOCOL.md §4.1, §10)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import sys
import time
from pathlib import Path

import pytest

from game.rules.registry import fingerprint
from net.connection import HANDSHAKE_TIMEOUT, Closed, Connection
from net.door import Unproven, present
from net.framing import encode
from net.identity import Identity
from net.messages import PROTOCOL_VERSION
from net.peer import Peer, PeerConfig
from net.signing import host_payload, join_payload
from net.testing.peer_process import ROOT, PeerProcess
from tests.lan import RawGuest, guest, host

CODE = "4711"


def _run(coroutine) -> None:
    asyncio.run(asyncio.wait_for(coroutine, 60))


class Impostor:
    """A fake host on loopback that keeps every byte a guest sends it: it answers a hello
    with a challenge under ``claimed`` (the real host's key, which it cannot sign for) or,
    if None, under a key of its own that it proves; it then waits for whatever comes."""

    def __init__(self, claimed: bytes | None) -> None:
        self.claimed = claimed
        self.mallory = Identity.fresh()
        self.heard: list[dict] = []
        self.raw = bytearray()

    async def start(self) -> int:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        return self.server.sockets[0].getsockname()[1]

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        connection = Connection(reader, writer)
        with contextlib.suppress(Closed):
            hello = await connection.receive(5)
            self.heard.append(hello)
            match = "cd" * 16
            key = self.claimed or self.mallory.key
            sig = self.mallory.sign(host_payload(match, hello["key"], hello["nonce"]))
            connection.send(
                {"t": "challenge", "match": match, "key": key, "nonce": bytes(32), "sig": sig}
            )
            while True:
                self.heard.append(await connection.receive(5))

    def told(self, secret: str) -> bool:
        """Whether ``secret`` came in any message it heard."""
        return any(secret in repr(message) for message in self.heard)


@pytest.mark.parametrize("claims_the_real_key", [True, False], ids=["real key", "own key"])
def test_a_guest_sends_its_join_code_only_to_a_host_that_proved_the_key_asked_for(
    claims_the_real_key: bool,
) -> None:
    """A guest that expects the real host's key meets an impostor — one that names the real
    key and cannot sign for it, or one that proves a key of its own: the guest hangs up
    before its proof, and the impostor never hears the join code (version 3 sent it in
    the hello, to whoever answered)."""
    real = Identity.fresh()

    async def scenario() -> None:
        impostor = Impostor(real.key if claims_the_real_key else None)
        port = await impostor.start()
        peer = Peer(Identity.fresh(), PeerConfig("anna", code=CODE, interface="127.0.0.1"))
        try:
            with pytest.raises(Unproven):
                await peer.join("127.0.0.1", port, real.key)
            await asyncio.sleep(0.2)  # anything still on its way has arrived
        finally:
            await peer.close()
            impostor.server.close()
        assert impostor.heard and impostor.heard[0]["t"] == "hello"
        assert [m["t"] for m in impostor.heard] == ["hello"], impostor.heard
        assert not impostor.told(CODE)

    _run(scenario())


def test_joining_an_address_with_a_key_fingerprint_sends_the_code_to_no_other_key(
    tmp_path: Path,
) -> None:
    """``python -m net join ADDRESS:PORT --key FINGERPRINT --code …``: an impostor at that
    address proves a key of its own; the guest hangs up before its proof and says why, and
    the code stays with it (``--key`` was ignored for an address before, and the code went
    in the hello anyway)."""
    real = Identity.fresh()

    async def scenario() -> tuple[int | None, str]:
        impostor = Impostor(None)
        port = await impostor.start()
        try:
            guest = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "net", "join", f"127.0.0.1:{port}", "--key",
                real.fingerprint, "--code", CODE, "--interface", "127.0.0.1",
                "--identity", str(tmp_path / "g.id"), cwd=tmp_path,
                env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=asyncio.subprocess.PIPE,
            )  # fmt: skip
            out, _ = await guest.communicate()
            await asyncio.sleep(0.2)
        finally:
            impostor.server.close()
        assert [m["t"] for m in impostor.heard] == ["hello"] and not impostor.told(CODE)
        return guest.returncode, out.decode()

    code, out = asyncio.run(asyncio.wait_for(scenario(), 30))
    assert code == 1 and "not the one announced, known or given" in out, out


def test_joining_an_address_with_the_hosts_fingerprint_gets_in(tmp_path: Path) -> None:
    server, port = host(tmp_path, "dama", "--code", CODE)
    real = Identity.load(tmp_path / "host.id")

    async def scenario() -> None:
        peer = Peer(Identity.fresh(), PeerConfig("anna", code=CODE, interface="127.0.0.1"))
        try:
            await peer.join("127.0.0.1", port, real.fingerprint)
            while peer.log is None or peer.catching_up:
                await asyncio.sleep(0.05)
            assert peer.log.keys[peer.log.host] == real.key
        finally:
            await peer.close()

    _run(scenario())
    server.kill()


def test_a_vote_goes_only_to_the_candidate_that_proved_its_key() -> None:
    """A voter reconnecting to its candidate's address meets an impostor there: the vote,
    bound to the candidate but still a signed statement against the old host, never leaves
    the voter (version 3 sent it in the hello)."""
    candidate, voter = Identity.fresh(), Identity.fresh()
    vote = voter.sign(b"a vote")  # its bytes are all that matter here

    async def scenario() -> None:
        impostor = Impostor(candidate.key)
        port = await impostor.start()
        line = await Connection.open("127.0.0.1", port)
        with pytest.raises(Unproven):
            await present(line, voter, ("bert", "player", 1), 0, None, 0, candidate.key, None, vote)
        await asyncio.sleep(0.2)
        impostor.server.close()
        assert [m["t"] for m in impostor.heard] == ["hello"]
        assert vote not in repr(impostor.heard).encode() and vote.hex() not in repr(impostor.heard)
        assert all(m.get("vote") is None for m in impostor.heard)

    _run(scenario())


def test_a_host_refuses_a_hello_that_carries_the_code(tmp_path: Path) -> None:
    """Since version 4 the code goes in the proof: a hello with one is refused unchecked
    (no wrong code counted against the address)."""
    server, port = host(tmp_path, "dama", "--code", CODE)

    async def scenario() -> str:
        raw = await RawGuest.join(port, prove=False)
        hello = {**raw.hello, "nonce": secrets.token_bytes(32), "code": CODE}
        second = await Connection.open("127.0.0.1", port)
        second.send(hello)
        await raw.connection.close("done")
        try:
            while True:
                await second.receive(10)
        except Closed as closed:
            return closed.reason

    reason = asyncio.run(asyncio.wait_for(scenario(), 30))
    server.kill()
    assert reason == "the join code and the vote go in the proof, once the host has proved its key"


# -- a flood of newcomers claiming long histories -------------------------------------------

FILE_LIMIT = (
    "import os, resource, sys; n = int(sys.argv[1]); "
    "resource.setrlimit(resource.RLIMIT_NOFILE, (n, n)); os.execv(sys.argv[2], sys.argv[2:])"
)
"""Runs the rest of the command line with at most ``n`` open files."""
FLOOD = 1_100
AT_ONCE = 32
CLAIMED = 10_000_000


def _alias(n: int) -> str:
    """The n-th of the attacker's loopback addresses (all of 127/8 reaches this computer)."""
    return f"127.0.{1 + n // 250}.{1 + n % 250}"


class Flood:
    """Newcomers under fresh keys, four from each address, that prove their keys and claim
    :data:`CLAIMED` log entries, then send none: each stays until the host closes it.  At
    most :data:`AT_ONCE` are in their handshake at a time, so that each finishes it (a
    burst would only have the door turn the oldest away before they prove anything)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.handshakes = asyncio.Semaphore(AT_ONCE)
        self.held = 0
        """Lines the host asked for entries (``want``) and has not closed yet."""
        self.most_held = 0
        self.through = 0
        """Newcomers whose handshake is over: proven and held, or closed."""
        self.reasons: list[str] = []

    async def newcomer(self, n: int) -> None:
        async with self.handshakes:
            line = await self._prove(n)
            self.through += 1
        if line is None:
            return
        try:
            while True:
                await line.receive(60)
        except Closed as closed:
            self.reasons.append(closed.reason)
        finally:
            self.held -= 1
            line.hang_up("done")

    async def _prove(self, n: int) -> Connection | None:
        """Hello, proof, and the host's ``want``: the line then held, or None if closed."""
        identity, nonce = Identity.fresh(), secrets.token_bytes(32)
        try:
            reader, writer = await asyncio.open_connection(
                "127.0.0.1", self.port, local_addr=(_alias(n // 4), 0)
            )
        except OSError as error:
            self.reasons.append(f"cannot connect: {error.strerror}")
            return None
        line = Connection(reader, writer)
        hello = {
            "t": "hello", "version": PROTOCOL_VERSION, "rules": fingerprint(),
            "key": identity.key, "nonce": nonce, "name": f"m{n}", "role": "spectator",
            "seat": -1, "listen": 0, "have": CLAIMED, "head": "ab" * 16, "code": None,
            "vote": None,
        }  # fmt: skip
        try:
            line.send(hello)
            challenge = await line.receive(30)
            payload = join_payload(
                challenge["match"], challenge["key"], challenge["nonce"], hello["name"],
                "spectator", -1,
            )  # fmt: skip
            line.send({"t": "proof", "sig": identity.sign(payload)})
            while (await line.receive(30))["t"] != "want":
                pass
        except Closed as closed:
            self.reasons.append(closed.reason)
            line.hang_up("done")
            return None
        self.held += 1
        self.most_held = max(self.most_held, self.held)
        return line


@pytest.mark.slow
def test_newcomers_claiming_long_histories_cannot_fill_a_hosts_file_table(
    tmp_path: Path,
) -> None:
    """1,100 fresh keys from 275 addresses prove themselves and each claim 10,000,000 log
    entries, against a host allowed 1,024 descriptors: it holds no more of them than its
    door has places (64), so a spectator and a player who lost her connection both get in
    meanwhile, and the match is played out.  (Version 3 held each for 35 s once its place
    at the door was given back: a thousand at once, and the file table was full.)"""
    pace = ("--ai", "easy", "--pace", "0.05")
    server = PeerProcess.net(
        "host", "dama", "--interface", "127.0.0.1", "--no-advertise", "--name", "host",
        "--identity", str(tmp_path / "host.id"), "--record", str(tmp_path / "host.rec"), *pace,
        cwd=tmp_path, prefix=(sys.executable, "-c", FILE_LIMIT, "1024"),
    )  # fmt: skip
    port = server.wait_for("listening")["port"]
    anna = guest(tmp_path, port, "anna", *pace)
    server.wait_for("action", ply=2)
    anna.kill()  # her line is lost: she must come back through the door like anyone
    flood = Flood(port)

    async def attack() -> tuple[PeerProcess, PeerProcess, float]:
        began = time.monotonic()
        newcomers = [asyncio.create_task(flood.newcomer(n)) for n in range(FLOOD)]
        while flood.through < FLOOD and time.monotonic() < began + 20:
            await asyncio.sleep(0.1)  # every newcomer has had its try
        sam = guest(tmp_path, port, "sam", "--spectate")
        back = guest(tmp_path, port, "anna", *pace)  # the same identity file: a rejoin
        for honest in (sam, back):
            await asyncio.to_thread(honest.wait_for, "joined", 20.0)
        took = time.monotonic() - began
        for newcomer in newcomers:
            newcomer.cancel()
        await asyncio.gather(*newcomers, return_exceptions=True)
        return sam, back, took

    sam, back, took = asyncio.run(asyncio.wait_for(attack(), 90))
    assert flood.most_held <= 64, flood.most_held  # the door's places, no more
    assert "too many strangers" in flood.reasons  # the oldest made room for a newcomer
    assert took < 30, took
    for process in (back, sam, server):
        assert process.finish() == 0, process.tail()
    assert len({p.last("over")["digest"] for p in (back, sam, server)}) == 1
    text = server.stderr()
    assert "Traceback" not in text, text[-3000:]


@pytest.mark.slow
def test_an_impostor_that_only_pings_holds_a_joiner_5_s_at_most() -> None:
    """A fake host that answers a hello with pings alone, never a challenge: the guest gives
    it up at 5 s after its hello, pings or not, so ``join NAME`` can try the next listing."""

    pinged: list[int] = []

    async def scenario() -> float:
        async def pinger(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            with contextlib.suppress(ConnectionError):
                for n in range(60):  # 18 s of pings: far past the 5 s
                    writer.write(encode({"t": "ping", "n": n}))
                    pinged.append(n)
                    await asyncio.sleep(0.3)

        server = await asyncio.start_server(pinger, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        peer = Peer(Identity.fresh(), PeerConfig("anna", code=CODE, interface="127.0.0.1"))
        began = time.monotonic()
        try:
            with pytest.raises(Unproven, match="no answer by the deadline"):
                await peer.join("127.0.0.1", port, Identity.fresh().key)
            return time.monotonic() - began
        finally:
            await peer.close()
            server.close()

    took = asyncio.run(asyncio.wait_for(scenario(), 30))
    assert took >= HANDSHAKE_TIMEOUT - 0.5, took  # the 5 s from its hello: not sooner …
    assert len(pinged) < 60, took  # … and not as long as the pings came (no wall-clock bound)
