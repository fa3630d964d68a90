"""One TCP connection between two peers: framed, validated, rate-limited, kept alive.

Everything that arrives goes through the frame decoder (sizes, msgpack limits) and the
message schemas before anyone sees it; a connection that sends a bad frame, an invalid
message, too many messages, or nothing at all for too long is closed with a ``bye`` that
says why.  Pings go out while the line is quiet, so a silent peer is told from a slow one.
"""

from __future__ import annotations

import asyncio
import contextlib
import time

from net.framing import FrameDecoder, FrameError, encode
from net.messages import MessageError, validate

HANDSHAKE_TIMEOUT = 5.0
"""Seconds a new connection has to send its hello."""
IDLE_TIMEOUT = 10.0
"""Seconds of silence after which a peer is taken for gone."""
PING_EVERY = 2.0
RATE, BURST = 200.0, 400.0
"""Messages per second a guest may send the host on average, and in a burst."""
HOST_RATE, HOST_BURST = 20_000.0, 200_000.0
"""The same for what a host relays: a whole match log comes at once to a peer catching up."""
READ_CHUNK = 65536


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
    ) -> None:
        self._reader, self._writer = reader, writer
        self._decoder = FrameDecoder()
        self._inbox: list[dict] = []
        self._rate, self._burst = rate, burst
        self._tokens, self._filled = burst, time.monotonic()
        self._pings = 0
        self.closed: str | None = None
        self.peer: str | None = None
        """The peer id once the handshake named it."""
        address = writer.get_extra_info("peername")
        self.address: str = address[0] if address else "?"

    @classmethod
    async def open(cls, host: str, port: int, timeout: float = 5.0) -> Connection:
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), timeout)
        except (OSError, TimeoutError) as error:
            raise Closed(f"cannot reach {host}:{port}: {error or 'timed out'}") from error
        return cls(reader, writer, HOST_RATE, HOST_BURST)

    def send(self, message: dict) -> None:
        """Queue ``message`` (never blocks; a dead line is noticed by the reader)."""
        if self.closed is None:
            with contextlib.suppress(OSError, RuntimeError):
                self._writer.write(encode(message))

    async def drain(self) -> None:
        with contextlib.suppress(OSError, RuntimeError, ConnectionError):
            await self._writer.drain()

    async def receive(self, timeout: float = IDLE_TIMEOUT) -> dict:
        """The next valid message (pings are answered here and not returned)."""
        while True:
            if self._inbox:
                message = self._inbox.pop(0)
                if message["t"] == "ping":
                    self.send({"t": "pong", "n": message["n"]})
                    continue
                if message["t"] == "pong":
                    continue
                if message["t"] == "bye":
                    self._shut(message["reason"])
                    raise Closed(message["reason"])
                return message
            await self._fill(timeout)

    async def _fill(self, timeout: float) -> None:
        if self.closed is not None:
            raise Closed(self.closed)
        deadline = time.monotonic() + timeout
        while True:
            quiet = min(PING_EVERY, deadline - time.monotonic())
            if quiet <= 0:
                await self.close("no word from the other side for too long (timed out)")
                raise Closed(self.closed or "timed out")
            try:
                data = await asyncio.wait_for(self._reader.read(READ_CHUNK), quiet)
            except TimeoutError:
                self._pings += 1
                self.send({"t": "ping", "n": self._pings})
                continue
            except (OSError, ConnectionError) as error:
                self._shut(f"connection lost ({error})")
                raise Closed(self.closed or "connection lost") from error
            if not data:
                self._shut("connection closed")
                raise Closed("connection closed")
            try:
                messages = self._decoder.feed(data)
                for message in messages:
                    validate(message)
            except (FrameError, MessageError) as error:
                await self.close(f"bad message: {error}")
                raise Closed(self.closed or "bad message") from error
            if not self._take(len(messages)):
                await self.close("too many messages: rate limit exceeded")
                raise Closed(self.closed or "rate limit")
            if messages:
                self._inbox.extend(messages)
                return

    def _take(self, count: int) -> bool:
        now = time.monotonic()
        self._tokens = min(self._burst, self._tokens + (now - self._filled) * self._rate)
        self._filled = now
        self._tokens -= count
        return self._tokens >= 0

    async def close(self, reason: str) -> None:
        """Say ``bye`` with the reason and hang up."""
        if self.closed is None:
            self.send({"t": "bye", "reason": reason[:300]})
            await self.drain()
        self._shut(reason)

    def _shut(self, reason: str) -> None:
        if self.closed is None:
            self.closed = reason
        with contextlib.suppress(OSError, RuntimeError):
            self._writer.close()
