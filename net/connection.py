"""One TCP connection between two peers: framed, validated, rate-limited, kept alive.

Everything that arrives goes through the frame decoder (sizes, msgpack limits) and the
message schemas before anyone sees it; a connection that sends a bad frame, an invalid
message, too many messages, or nothing at all for too long is closed with a ``bye`` that
says why.  Pings go out while the line is quiet, so a silent peer is told from a slow one.

Two kinds of waiting: :meth:`Connection.receive` waits out an idle timeout that any traffic
restarts (pings prove the other side alive — right for a peer already in the match), and
:meth:`Connection.receive_by` waits until a fixed deadline that nothing moves (right for a
handshake: a stranger that pings but never says hello is gone at its deadline all the same).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from typing import Any

from net.framing import FrameDecoder, FrameError, encode
from net.messages import MessageError, validate

HANDSHAKE_TIMEOUT = 5.0
"""Seconds a new connection has to send its hello: a fixed deadline, see :meth:`receive_by`."""
IDLE_TIMEOUT = 10.0
"""Seconds of silence after which a peer is taken for gone."""
PING_EVERY = 2.0
RATE, BURST = 200.0, 400.0
"""Messages per second a guest may send the host on average, and in a burst."""
HOST_RATE, HOST_BURST = 20_000.0, 200_000.0
"""The same for what a host relays: a whole match log comes at once to a peer catching up."""
READ_CHUNK = 65536
CLOSE_WAIT = 2.0
"""Seconds a closing line keeps what it has not sent yet for a peer that reads slowly."""


class Closed(Exception):  # noqa: N818 - the end of a connection, with its reason
    """The connection is over; ``reason`` says why (sent or received in a ``bye``)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Connection:
    def __init__(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        rate: float = RATE,
        burst: float = BURST,
        check: Callable[[dict[str, Any]], dict[str, Any]] = validate,
    ) -> None:
        self._reader, self._writer = reader, writer
        self._check = check
        """The schemas every message must pass: a match's (:func:`net.messages.validate`)
        or a tournament's (:func:`net.tournament_messages.validate`)."""
        self._decoder = FrameDecoder()
        self._inbox: list[dict[str, Any]] = []
        self._rate, self._burst = rate, burst
        self._tokens, self._filled = burst, time.monotonic()
        self._pings = 0
        self.heard_at = time.monotonic()
        """When bytes last came in (pings included; the opening counts as the first)."""
        self.closed: str | None = None
        self.peer: str | None = None
        """The peer id once the handshake named it."""
        address = writer.get_extra_info("peername")
        self.address: str = address[0] if address else "?"
        local = writer.get_extra_info("sockname")
        self.local_address: str = local[0] if local else "?"
        """This side's address on the line: this machine's as the other side reaches it."""

    @classmethod
    async def open(
        cls,
        host: str,
        port: int,
        timeout: float = 5.0,
        check: Callable[[dict[str, Any]], dict[str, Any]] = validate,
    ) -> Connection:
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), timeout)
        except (OSError, TimeoutError) as error:
            # str(): an exception is true even when it says nothing (a timeout says nothing)
            raise Closed(f"cannot reach {host}:{port}: {str(error) or 'timed out'}") from error
        return cls(reader, writer, HOST_RATE, HOST_BURST, check)

    def send(self, message: dict[str, Any]) -> None:
        """Queue ``message`` (never blocks; a dead line is noticed by the reader)."""
        self.send_frame(encode(message))

    def send_frame(self, frame: bytes) -> None:
        """Queue a message already framed by :func:`net.framing.encode` (one encoding for
        every receiver of a broadcast)."""
        if self.closed is None:
            with contextlib.suppress(OSError, RuntimeError):
                self._writer.write(frame)

    async def drain(self) -> None:
        with contextlib.suppress(OSError, RuntimeError, ConnectionError):
            await self._writer.drain()

    async def receive(self, timeout: float = IDLE_TIMEOUT) -> dict[str, Any]:
        """The next valid message (pings are answered here and not returned); anything the
        other side sends in the meantime, pings included, restarts ``timeout``."""
        while True:
            message = self._next()
            if message is not None:
                return message
            await self._fill(time.monotonic() + timeout, "no word from the other side for too long")

    async def receive_by(self, deadline: float) -> dict[str, Any]:
        """The next valid message by ``deadline`` (a :func:`time.monotonic` time), which
        nothing extends: pings are answered, but a peer that only pings is closed at it."""
        while True:
            message = self._next()
            if message is not None:
                return message
            await self._fill(deadline, "no answer by the deadline")

    def _next(self) -> dict[str, Any] | None:
        """The first message of the inbox that is for the caller (answering pings)."""
        while self._inbox:
            message = self._inbox.pop(0)
            if message["t"] == "ping":
                self.send({"t": "pong", "n": message["n"]})
            elif message["t"] == "bye":
                self._shut(message["reason"])
                raise Closed(message["reason"])
            elif message["t"] != "pong":
                return message
        return None

    async def _fill(self, deadline: float, late: str) -> None:
        """Read until whole messages are in the inbox; closes the line at ``deadline``."""
        if self.closed is not None:
            raise Closed(self.closed)
        while True:
            quiet = min(PING_EVERY, deadline - time.monotonic())
            if quiet <= 0:
                raise Closed(await self.close(f"{late} (timed out)"))
            try:
                async with asyncio.timeout(quiet):  # no task per read, unlike wait_for
                    data = await self._reader.read(READ_CHUNK)
            except TimeoutError:
                if time.monotonic() < deadline:  # quiet for a while, not yet for too long
                    self._pings += 1
                    self.send({"t": "ping", "n": self._pings})
                continue
            except (OSError, ConnectionError) as error:
                raise Closed(self._shut(f"connection lost ({error})")) from error
            if not data:
                raise Closed(self._shut("connection closed"))
            self.heard_at = time.monotonic()
            try:
                messages = self._decoder.feed(data)
                for message in messages:
                    self._check(message)
            except (FrameError, MessageError) as error:
                raise Closed(await self.close(f"bad message: {error}")) from error
            if not self._take(len(messages)):
                raise Closed(await self.close("too many messages: rate limit exceeded"))
            if messages:
                self._inbox.extend(messages)
                return

    def _take(self, count: int) -> bool:
        now = time.monotonic()
        self._tokens = min(self._burst, self._tokens + (now - self._filled) * self._rate)
        self._filled = now
        self._tokens -= count
        return self._tokens >= 0

    async def close(self, reason: str) -> str:
        """Say ``bye`` with the reason, give it :data:`CLOSE_WAIT` seconds to go out, hang up;
        the reason the line ended with is returned (see :meth:`_shut`)."""
        if self.closed is None:
            self.send({"t": "bye", "reason": reason[:300]})
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.drain(), CLOSE_WAIT)
        return self._shut(reason)

    def hang_up(self, reason: str) -> None:
        """Say ``bye`` and hang up now, without waiting (for callers that cannot wait)."""
        self.send({"t": "bye", "reason": reason[:300]})
        self._shut(reason)

    def _shut(self, reason: str) -> str:
        """Hang up; returns the reason the line ended with: the first one given, which a
        reader waiting on the line hears (a line hung up under it is not "closed" by the
        other side)."""
        if self.closed is None:
            self.closed = reason
        with contextlib.suppress(OSError, RuntimeError):
            self._writer.close()
            # What is still unsent would keep the socket open for a peer that reads nothing.
            transport = self._writer.transport
            if transport.get_write_buffer_size():
                asyncio.get_running_loop().call_later(CLOSE_WAIT, transport.abort)
        return self.closed
