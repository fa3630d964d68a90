"""Limits that hold under abuse, over real sockets on loopback: strangers that ping but never
say hello, join codes tried one after another, a host out of file descriptors."""

from __future__ import annotations

import asyncio
import time

from net.connection import CLOSE_WAIT, Closed, Connection
from net.framing import FrameDecoder, encode


def _run(coroutine) -> None:
    asyncio.run(asyncio.wait_for(coroutine, 60))


async def _serve(handle) -> tuple[asyncio.Server, int]:
    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    return server, server.sockets[0].getsockname()[1]


async def _ping(writer: asyncio.StreamWriter, every: float, until: float) -> None:
    n = 0
    while time.monotonic() < until and not writer.is_closing():
        n += 1
        writer.write(encode({"t": "ping", "n": n}))
        await asyncio.sleep(every)


# -- one connection ----------------------------------------------------------------------


def test_a_stranger_that_only_pings_is_closed_at_its_deadline() -> None:
    async def scenario() -> None:
        ended: asyncio.Future[tuple[str, float, float]] = asyncio.Future()

        async def handle(reader, writer) -> None:
            connection = Connection(reader, writer)
            opened = time.monotonic()
            try:
                await connection.receive_by(opened + 1.0)
            except Closed as closed:
                ended.set_result((closed.reason, time.monotonic() - opened, connection.heard_at))

        server, port = await _serve(handle)
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        pinging = asyncio.create_task(_ping(writer, 0.1, time.monotonic() + 3.0))
        reason, after, heard = await ended
        decoder, said = FrameDecoder(), []
        while data := await reader.read(65536):
            said += decoder.feed(data)
        pinging.cancel()
        server.close()
        assert reason == "no answer by the deadline (timed out)"
        assert 1.0 <= after < 1.5  # ten pings later: they answered, but moved nothing
        assert time.monotonic() - heard < 2.5  # every ping was heard all the same
        assert {m["t"] for m in said} == {"pong", "bye"}
        assert said[-1] == {"t": "bye", "reason": reason}

    _run(scenario())


def test_a_member_that_pings_stays_and_one_that_falls_silent_goes() -> None:
    async def scenario() -> None:
        got: list[object] = []

        async def handle(reader, writer) -> None:
            connection = Connection(reader, writer)
            try:
                while True:
                    got.append(await connection.receive(0.5))
            except Closed as closed:
                got.append(closed.reason)

        server, port = await _serve(handle)
        _, writer = await asyncio.open_connection("127.0.0.1", port)
        await _ping(writer, 0.1, time.monotonic() + 1.5)  # three idle timeouts of pings
        writer.write(encode({"t": "notice", "text": "still here"}))
        await asyncio.sleep(1.0)  # then silence
        server.close()
        assert got == [
            {"t": "notice", "text": "still here"},
            "no word from the other side for too long (timed out)",
        ]

    _run(scenario())


def test_a_peer_that_reads_nothing_cannot_keep_its_socket_open() -> None:
    async def scenario() -> None:
        closed_in: asyncio.Future[float] = asyncio.Future()
        gone: asyncio.Future[float] = asyncio.Future()

        async def handle(reader, writer) -> None:
            connection = Connection(reader, writer)
            for n in range(400):  # 20 MB: more than the kernel's buffers take
                connection.send({"t": "notice", "text": f"{n:05d}" + "x" * 50_000})
            started = time.monotonic()
            await connection.close("enough")
            closed_in.set_result(time.monotonic() - started)
            while not reader.at_eof():  # the transport is gone when its reader hears of it
                await asyncio.sleep(0.05)
            gone.set_result(time.monotonic() - started)

        server, port = await _serve(handle)
        _, writer = await asyncio.open_connection("127.0.0.1", port)  # and never reads
        assert CLOSE_WAIT <= await closed_in < CLOSE_WAIT + 0.5
        assert await gone < 2 * CLOSE_WAIT + 0.5
        writer.close()
        server.close()

    _run(scenario())
