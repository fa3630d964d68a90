"""The rate limit of a connection, over loopback (issue 28: the outside review's mutant of a
limiter that always lets messages through passed every test).

A member that floods the host with messages — each one valid, so that only their number is
wrong — is cut off with the reason once it has used up its burst; one that sends a burst's
worth at once, or keeps to the rate, is not.  The limiter is a token bucket of
:data:`~net.connection.BURST` messages refilled at :data:`~net.connection.RATE` a second.
"""

from __future__ import annotations

import asyncio
import time

from net.connection import BURST, RATE, Closed, Connection
from net.framing import FrameDecoder, encode


def _run(coroutine) -> None:
    asyncio.run(asyncio.wait_for(coroutine, 20))


def _notice(n: int) -> bytes:
    return encode({"t": "reject", "reason": f"{n}", "kind": "x"})


async def _received(frames: bytes, *, then_close: bool = True) -> tuple[int, str, list[dict]]:
    """What a host-side :class:`Connection` takes from a guest that writes ``frames`` at
    once: the count of messages it returned, the reason it ended, what it said back."""
    result: asyncio.Future[tuple[int, str]] = asyncio.Future()

    async def handle(reader, writer) -> None:
        connection = Connection(reader, writer)
        count = 0
        try:
            while True:
                await connection.receive(2.0)
                count += 1
        except Closed as closed:
            result.set_result((count, closed.reason))

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(frames)
    await writer.drain()
    if then_close:
        writer.write_eof()
    count, reason = await result
    decoder, said = FrameDecoder(), []
    while data := await reader.read(65536):
        said += decoder.feed(data)
    writer.close()
    server.close()
    return count, reason, said


def test_a_flood_of_valid_messages_is_cut_off_with_the_reason() -> None:
    flood = int(BURST * 3)  # far more than the burst, sent within milliseconds

    async def scenario() -> None:
        started = time.monotonic()
        count, reason, said = await _received(b"".join(_notice(n) for n in range(flood)))
        refilled = (time.monotonic() - started) * RATE
        assert reason == "too many messages: rate limit exceeded"
        assert count <= BURST + refilled < flood
        assert said[-1] == {"t": "bye", "reason": reason}

    _run(scenario())


def test_a_burst_within_the_limit_is_taken_whole() -> None:
    burst = int(BURST) - 10

    async def scenario() -> None:
        count, reason, _ = await _received(b"".join(_notice(n) for n in range(burst)))
        assert (count, reason) == (burst, "connection closed")

    _run(scenario())
