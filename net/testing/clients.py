"""Peers driven by hand over real sockets, for the net benchmark: a line that frames and
unframes messages and answers pings, the handshake of protocol version 2, and spectators
that stamp every message the moment its bytes arrive (``python -m
net.testing.clients PORT COUNT`` runs them in a process of their own).

A line may come from any loopback address (``source``): a host lets at most 8 strangers in
at once from one address, and on a LAN every spectator would have its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import json
import secrets
import sys
import time
from collections.abc import Callable
from typing import Any, TypeVar

from game.rules.registry import fingerprint
from net.connection import Closed
from net.framing import FrameDecoder, encode
from net.identity import Identity, verify
from net.matchlog import MatchLog
from net.messages import PROTOCOL_VERSION, validate
from net.signing import host_payload, join_payload


class Line:
    """One TCP connection to a host, every byte the caller's to choose."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.decoder = FrameDecoder()
        self.inbox: list[dict[str, Any]] = []
        self.sent = 0
        """Frames (or chunks of raw bytes) written."""
        self.ended = False
        """Whether :meth:`end_writing` said nothing more will come: what is sent after it is
        dropped, as on a line being hung up (asyncio raises on a write after the end)."""

    @classmethod
    async def open(cls, port: int, source: str = "127.0.0.1", timeout: float = 5.0) -> Line:
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0)), timeout
            )
        except (OSError, TimeoutError) as error:
            raise Closed(f"cannot reach the host: {error or 'timed out'}") from error
        return cls(reader, writer)

    def send(self, message: dict[str, Any]) -> None:
        self.send_raw(encode(message))

    def send_raw(self, data: bytes) -> None:
        self.sent += 1
        if not self.writer.is_closing() and not self.ended:
            self.writer.write(data)

    def hang_up(self) -> None:
        self.writer.close()

    def end_writing(self) -> None:
        """Say that nothing more will come (the host then sees the line closed)."""
        if not self.writer.is_closing() and self.writer.can_write_eof():
            self.ended = True
            with contextlib.suppress(OSError):  # the host has hung up already
                self.writer.write_eof()

    async def receive(self, timeout: float = 10.0) -> dict[str, Any]:
        """The host's next message (pings answered, pongs dropped); :class:`Closed` with the
        host's reason once it says ``bye`` or hangs up."""
        while True:
            while self.inbox:
                message = self.inbox.pop(0)
                if message["t"] == "ping":
                    self.send({"t": "pong", "n": message["n"]})
                elif message["t"] == "bye":
                    raise Closed(message["reason"])
                elif message["t"] != "pong":
                    return message
            try:
                data = await asyncio.wait_for(self.reader.read(65536), timeout)
            except TimeoutError:
                raise Closed("hang: no word from the host") from None
            except (OSError, ConnectionError) as error:
                raise Closed(f"connection lost ({error})") from error
            if not data:
                raise Closed("closed without a bye")
            for message in self.decoder.feed(data):
                self.inbox.append(validate(message))


async def handshake(
    line: Line,
    identity: Identity,
    name: str,
    role: str = "player",
    seat: int = -1,
    have: int = 0,
    head: str | None = None,
) -> dict[str, Any]:
    """Hello, the host's proof checked, this peer's proof; the welcome (or :class:`Closed`)."""
    nonce = secrets.token_bytes(32)
    line.send(
        {
            "t": "hello", "version": PROTOCOL_VERSION, "rules": fingerprint(),
            "key": identity.key, "nonce": nonce, "name": name, "role": role, "seat": seat,
            "listen": 0, "have": have, "head": head, "code": None, "vote": None,
        }
    )  # fmt: skip
    challenge = await line.receive()
    if challenge["t"] != "challenge":
        raise Closed(f"expected a challenge, got {challenge['t']}")
    match, key = challenge["match"], challenge["key"]
    if not verify(key, host_payload(match, identity.key, nonce), challenge["sig"]):
        raise Closed("the host's proof does not check out")
    line.send(
        {"t": "proof",
         "sig": identity.sign(join_payload(match, key, challenge["nonce"], name, role, seat))}
    )  # fmt: skip
    welcome = await line.receive()
    if welcome["t"] != "welcome":
        raise Closed(f"expected a welcome, got {welcome['t']}")
    return welcome


class Spectator(asyncio.Protocol):
    """A spectator that only listens: each message stamped (``time.monotonic``) as its bytes
    arrive, kept for checking later, so that many spectators in one process do not queue
    behind each other's checks as spectators on their own computers would not."""

    def __init__(self, identity: Identity, number: int) -> None:
        self.identity = identity
        self.name = f"s{number}"
        self.decoder = FrameDecoder()
        self.nonce = secrets.token_bytes(32)
        self.transport: asyncio.Transport | None = None
        self.welcomed = asyncio.get_running_loop().create_future()
        self.closed = asyncio.get_running_loop().create_future()
        self.received: list[tuple[float, dict[str, Any]]] = []
        self.bye = ""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)  # a TCP connection's
        self.transport = transport
        self._send(
            {
                "t": "hello", "version": PROTOCOL_VERSION, "rules": fingerprint(),
                "key": self.identity.key, "nonce": self.nonce, "name": self.name,
                "role": "spectator", "seat": -1, "listen": 0, "have": 0, "head": None,
                "code": None, "vote": None,
            }
        )  # fmt: skip

    def data_received(self, data: bytes) -> None:
        now = time.monotonic()
        for message in self.decoder.feed(data):
            kind = message.get("t")
            if kind == "entry":
                self.received.append((now, message))
            elif kind == "ping":
                self._send({"t": "pong", "n": message["n"]})
            elif kind == "challenge":
                payload = join_payload(
                    message["match"], message["key"], message["nonce"], self.name, "spectator", -1
                )
                self._send({"t": "proof", "sig": self.identity.sign(payload)})
            elif kind == "welcome" and not self.welcomed.done():
                self.welcomed.set_result(message)
            elif kind == "bye":
                self.bye = message.get("reason", "")

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.welcomed.done():
            self.welcomed.set_exception(Closed(self.bye or "closed before the welcome"))
        if not self.closed.done():
            self.closed.set_result(self.bye)

    def _send(self, message: dict[str, Any]) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(encode(message))


def checked(spectator: Spectator) -> dict[str, Any]:
    """A spectator's entries checked in a log of its own, once the match is over: for each
    action (by ply) when its bytes arrived and when it had been checked (arrival plus the
    check's own time: validation and :meth:`MatchLog.apply`), for each roll when it was
    known, and the log's final head."""
    log: MatchLog | None = None
    received: dict[int, float] = {}
    done: dict[int, float] = {}
    rolls: dict[int, float] = {}
    for arrived, message in spectator.received:
        began = time.perf_counter()
        entry = validate(message)["e"]
        if log is None:
            log = MatchLog(entry)
        else:
            log.apply(entry)
        at = arrived + time.perf_counter() - began
        if entry["k"] == "act":
            received[entry["ply"]], done[entry["ply"]] = arrived, at
        for roll in log.rolls[len(rolls) :]:
            rolls[roll.event] = at
    head = log.heads[-1] if log else None
    return {"received": received, "checked": done, "rolls": rolls, "head": head}


_T = TypeVar("_T")


def _same(value: _T) -> _T:
    """``value`` itself: the protocol factory of a connection whose protocol is made already."""
    return value


async def spectate(
    port: int, count: int, joined: Callable[[], object], timeout: float
) -> list[Spectator]:
    """``count`` spectators, each from a loopback address of its own, watching the match at
    ``port`` until the host closes; ``joined()`` is called once all are in."""
    loop = asyncio.get_running_loop()
    spectators = []
    for number in range(count):
        spectator = Spectator(Identity.fresh(), number)
        source = f"127.0.1.{number + 1}"
        await loop.create_connection(
            functools.partial(_same, spectator), "127.0.0.1", port, local_addr=(source, 0)
        )
        await asyncio.wait_for(spectator.welcomed, 10)
        spectators.append(spectator)
    joined()
    await asyncio.wait_for(asyncio.gather(*(s.closed for s in spectators)), timeout)
    return spectators


def main(port: int, count: int) -> None:
    """``count`` spectators of the match at ``port``, in a process of their own (the net
    benchmark's): a ``joined`` line once all are in, then each one's :func:`checked` view."""

    def joined() -> None:
        print(json.dumps({"event": "joined"}), flush=True)

    # The stamps are this process's only work while the match lasts: a collection of the
    # thousands of messages kept for later would stamp a batch of them late.
    gc.disable()
    for spectator in asyncio.run(spectate(port, count, joined, 300)):
        print(json.dumps({"event": "view", **checked(spectator)}), flush=True)


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]))
