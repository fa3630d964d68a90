"""The door, played by its adversaries over real sockets on loopback: impostor hosts that
want a guest's join code, and a flood of newcomers that claim long histories to hold a
host's descriptors (docs/PROTOCOL.md §4.1, §10)."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from pathlib import Path

import pytest

from net.connection import Closed, Connection
from net.door import Unproven
from net.identity import Identity
from net.peer import Peer, PeerConfig
from net.signing import host_payload
from tests.lan import RawGuest, host

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
