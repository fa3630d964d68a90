"""Each rule of one connection (``net/connection.py``) pushed against by the other end over
loopback (issue 28: every limit has a test that fails without it).

The adversary writes raw bytes: an oversize frame, bytes that are not a message, a frame
dripped a byte at a time, a peer that pings to look alive, one that reads nothing while a
closed line still has megabytes for it.  What the connection must do is close the line with
a ``bye`` that says why — and never take what it refused for a message.  The times are
scaled down with ``monkeypatch`` where the rule is a time, so each test takes well under a
second.
"""

from __future__ import annotations

import asyncio
import errno
import struct
import time
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from net import connection as line
from net.connection import BURST, HOST_BURST, Closed, Connection
from net.framing import MAX_FRAME, FrameDecoder, encode

Scenario = Callable[[Connection, asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]


def _run(coroutine: Awaitable[None]) -> None:
    async def bounded() -> None:
        await asyncio.wait_for(coroutine, 10)

    asyncio.run(bounded())


async def _with_line(scenario: Scenario, rate: float = line.RATE, burst: float = BURST) -> None:
    """``scenario`` with a host's :class:`Connection` to a raw client (its reader and
    writer: the adversary's end)."""
    accepted: asyncio.Future[Connection] = asyncio.get_running_loop().create_future()

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        accepted.set_result(Connection(reader, writer, rate, burst))

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        await scenario(await accepted, reader, writer)
    finally:
        writer.close()
        server.close()


async def _said(reader: asyncio.StreamReader) -> list[dict[str, Any]]:
    """Every message the connection wrote before it hung up."""
    decoder, said = FrameDecoder(), []
    while data := await reader.read(65536):
        said += decoder.feed(data)
    return said


async def _refused(connection: Connection, timeout: float = 2.0) -> str:
    with pytest.raises(Closed) as closed:
        await connection.receive(timeout)
    return closed.value.reason


def _notice(n: int) -> dict[str, Any]:
    return {"t": "reject", "reason": str(n), "kind": "x"}


# -- what arrives -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sent", "reason"),
    [
        (struct.pack(">I", MAX_FRAME + 1), f"frame of {MAX_FRAME + 1} bytes is over"),
        (struct.pack(">I", 3) + b"\xc1\xc1\xc1", "not valid msgpack"),
        (encode({"t": "ping", "n": -1}), "bad message: "),
        (encode({"t": "no such message"}), "bad message: "),
    ],
    ids=["oversize frame", "not msgpack", "a field out of range", "an unknown message"],
)
def test_a_bad_frame_or_message_closes_the_line_with_the_reason(sent: bytes, reason: str) -> None:
    """Nothing of a bad frame reaches the caller, a valid message sent before it included:
    the line is closed at once and the sender told why."""

    async def scenario(
        connection: Connection, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        writer.write(encode(_notice(1)) + sent)
        got = await _refused(connection)
        assert got.startswith("bad message: ") and reason in got
        assert connection.closed == got
        assert await _said(reader) == [{"t": "bye", "reason": got}]

    _run(_with_line(scenario))


def test_a_frame_of_exactly_the_limit_is_read() -> None:
    async def scenario(
        connection: Connection, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        message = {"t": "reject", "reason": "", "kind": "x"}
        frame = encode(message)
        writer.write(frame)
        assert await connection.receive(2) == message
        assert len(frame) - 4 < MAX_FRAME

    _run(_with_line(scenario))


def test_pings_are_answered_and_never_returned_and_a_bye_ends_the_line_with_its_reason() -> None:
    async def scenario(
        connection: Connection, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        writer.write(
            encode({"t": "ping", "n": 7})
            + encode({"t": "pong", "n": 3})
            + encode(_notice(1))
            + encode({"t": "bye", "reason": "going home"})
        )
        assert await connection.receive(2) == _notice(1)
        assert await _refused(connection) == "going home"
        assert connection.closed == "going home"
        assert await _said(reader) == [{"t": "pong", "n": 7}]  # no bye back to a bye

    _run(_with_line(scenario))


def test_bytes_are_timed_when_they_arrive() -> None:
    async def scenario(
        connection: Connection, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        opened = connection.heard_at
        await asyncio.sleep(0.05)
        writer.write(encode(_notice(1)))
        await connection.receive(2)
        assert connection.heard_at - opened >= 0.05
        assert connection.address == "127.0.0.1"

    _run(_with_line(scenario))


# -- the limits in time -------------------------------------------------------------------


def test_a_frame_dripped_a_byte_at_a_time_does_not_hold_the_line_open(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Slow bytes that never make a message by the idle timeout: only whole messages show
    the other side is alive, so the line is closed at the timeout however the bytes come."""
    monkeypatch.setattr(line, "PING_EVERY", 0.05)

    async def scenario(
        connection: Connection, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        frame = encode(_notice(1))

        async def drip() -> None:
            for byte in frame[:-1]:
                writer.write(bytes([byte]))
                await asyncio.sleep(0.02)

        dripping = asyncio.ensure_future(drip())
        started = time.monotonic()
        got = await _refused(connection, timeout=0.3)
        took = time.monotonic() - started
        dripped_past_the_close = not dripping.done()
        dripping.cancel()
        assert got == "no word from the other side for too long (timed out)"
        assert took > 0.25  # not before its time, and the bytes still coming moved nothing:
        assert dripped_past_the_close  # it closed while they came (no wall-clock bound)

    _run(_with_line(scenario))


def test_a_quiet_line_is_pinged_and_the_pings_restart_no_fixed_deadline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The connection pings a quiet peer, numbering its pings; a peer that answers every
    ping but says nothing else keeps an idle line open, yet is closed at a fixed deadline
    (a handshake's: a stranger that only pings holds no place at the door)."""
    monkeypatch.setattr(line, "PING_EVERY", 0.05)

    async def scenario(
        connection: Connection, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        pings: list[int] = []

        async def answer() -> None:
            decoder = FrameDecoder()
            while data := await reader.read(65536):
                for message in decoder.feed(data):
                    if message["t"] == "ping":
                        pings.append(message["n"])
                        writer.write(encode({"t": "ping", "n": message["n"]}))

        answering = asyncio.ensure_future(answer())
        started = time.monotonic()
        with pytest.raises(Closed) as closed:
            await connection.receive_by(started + 0.4)
        took = time.monotonic() - started
        assert closed.value.reason == "no answer by the deadline (timed out)"
        assert took > 0.35  # (pings that moved the deadline would keep it open for ever)
        assert pings[:3] == [1, 2, 3]
        answering.cancel()

    _run(_with_line(scenario))


def test_a_peer_that_pings_keeps_an_idle_line_open(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(line, "PING_EVERY", 0.05)

    async def scenario(
        connection: Connection, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        async def ping_then_speak() -> None:
            for n in range(6):
                writer.write(encode({"t": "ping", "n": n}))
                await asyncio.sleep(0.06)
            writer.write(encode(_notice(9)))

        talking = asyncio.ensure_future(ping_then_speak())
        assert await connection.receive(0.2) == _notice(9)  # 0.36 s in all, never 0.2 quiet
        await talking

    _run(_with_line(scenario))


def test_a_silent_line_gets_no_ping_after_its_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pings only while the deadline is ahead: a timed-out line says bye, nothing else."""
    monkeypatch.setattr(line, "PING_EVERY", 0.2)

    async def scenario(
        connection: Connection, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        got = await _refused(connection, timeout=0.1)
        assert await _said(reader) == [{"t": "bye", "reason": got}]

    _run(_with_line(scenario))


def test_a_line_already_closed_reads_nothing_more() -> None:
    async def scenario(
        connection: Connection, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        await connection.close("enough")
        assert await _said(reader) == [{"t": "bye", "reason": "enough"}]
        connection.send(_notice(2))  # nothing goes out on a closed line, nor raises
        assert await _refused(connection) == "enough"

    _run(_with_line(scenario))


def test_the_other_side_hanging_up_closes_the_line() -> None:
    async def scenario(
        connection: Connection, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        writer.write_eof()
        assert await _refused(connection) == "connection closed"
        assert connection.closed == "connection closed"

    _run(_with_line(scenario))


def test_a_reset_line_is_lost_with_the_reason() -> None:
    async def scenario(
        connection: Connection, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        writer.transport.abort()  # a RST, not a goodbye
        got = await _refused(connection)
        assert got.startswith("connection lost (") or got == "connection closed"

    _run(_with_line(scenario))


# -- closing ------------------------------------------------------------------------------


@pytest.mark.parametrize("how", ["hang_up", "close"])
def test_a_bye_is_cut_to_300_characters(how: str) -> None:
    async def scenario(
        connection: Connection, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        if how == "close":
            await connection.close("x" * 1000)
        else:
            connection.hang_up("x" * 1000)
        assert connection.closed == "x" * 1000
        assert await _said(reader) == [{"t": "bye", "reason": "x" * 300}]

    _run(_with_line(scenario))


def test_close_waits_for_a_slow_reader_to_take_its_bye() -> None:
    """A closing line gives what it has not sent yet a moment to go out: the other side,
    reading slowly, still gets everything and the bye."""

    async def scenario(
        connection: Connection, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        big = {"t": "reject", "reason": "y" * 16000, "kind": "x"}
        for _ in range(300):  # about 5 MB: more than the sockets' buffers hold
            connection.send(big)
        closing = asyncio.ensure_future(connection.close("done"))
        await asyncio.sleep(0.1)
        said = await _said(reader)
        await closing
        assert len(said) == 301 and said[-1] == {"t": "bye", "reason": "done"}

    _run(_with_line(scenario))


def test_a_peer_that_reads_nothing_cannot_keep_a_closed_line_open(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Hung up with megabytes still unsent to a peer that reads nothing: after
    :data:`~net.connection.CLOSE_WAIT` the socket is aborted and its buffer let go,
    instead of being kept for as long as the peer likes."""
    monkeypatch.setattr(line, "CLOSE_WAIT", 0.2)

    async def scenario(
        connection: Connection, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        big = {"t": "reject", "reason": "y" * 16000, "kind": "x"}
        for _ in range(300):
            connection.send(big)
        transport = connection._writer.transport
        connection.hang_up("bye now")
        assert transport.get_write_buffer_size() > 0
        await asyncio.sleep(0.5)
        assert transport.get_write_buffer_size() == 0

    _run(_with_line(scenario))


def test_a_closed_line_kept_nothing_unsent_is_not_aborted(monkeypatch: pytest.MonkeyPatch) -> None:
    """The goodbye of a line whose bytes are all out arrives whole, without a reset."""
    monkeypatch.setattr(line, "CLOSE_WAIT", 0.05)

    async def scenario(
        connection: Connection, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        connection.hang_up("bye now")
        await asyncio.sleep(0.2)
        assert await _said(reader) == [{"t": "bye", "reason": "bye now"}]

    _run(_with_line(scenario))


# -- opening ------------------------------------------------------------------------------


def test_a_guests_line_to_its_host_takes_a_whole_log_at_once() -> None:
    """What a host relays is limited far above what a guest may send: a peer catching up
    gets thousands of entries at once on the line it opened, where a line the host accepted
    would have cut it off after its burst."""
    count = int(BURST) * 5

    async def scenario() -> None:
        async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            writer.write(b"".join(encode(_notice(n)) for n in range(count)))
            await writer.drain()

        server = await asyncio.start_server(handle, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        connection = await Connection.open("127.0.0.1", port)
        assert (connection._rate, connection._burst) == (line.HOST_RATE, HOST_BURST)
        for n in range(count):
            assert await connection.receive(2) == _notice(n)
        connection.hang_up("thanks")
        server.close()

    _run(scenario())


def test_a_host_that_cannot_be_reached_is_named_with_the_reason(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async def scenario() -> None:
        server = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        server.close()
        await server.wait_closed()
        with pytest.raises(Closed, match=rf"^cannot reach 127\.0\.0\.1:{port}: .+"):
            await Connection.open("127.0.0.1", port)

        async def never(*_: object) -> None:
            await asyncio.sleep(10)

        monkeypatch.setattr(asyncio, "open_connection", never)
        started = time.monotonic()
        with pytest.raises(Closed) as closed:
            await Connection.open("127.0.0.1", port, timeout=0.1)
        assert closed.value.reason == f"cannot reach 127.0.0.1:{port}: timed out"
        assert time.monotonic() - started < 1

    _run(scenario())


def test_a_line_without_a_peer_address_says_so() -> None:
    class Nameless:
        def get_extra_info(self, name: str) -> None:
            return None

    async def scenario() -> None:
        connection = Connection(asyncio.StreamReader(), Nameless())  # type: ignore[arg-type]
        assert connection.address == "?"
        assert connection.closed is None and connection.peer is None

    _run(scenario())


# -- the first reason, and what asyncio may raise -----------------------------------------


def test_a_line_hung_up_while_it_is_read_ends_with_the_reason_it_was_hung_up_for() -> None:
    """The reader waiting on the line hears why this side hung up, not "connection
    closed": the first reason is the one kept and told."""

    async def scenario(
        connection: Connection, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        receiving = asyncio.ensure_future(connection.receive(2))
        await asyncio.sleep(0.05)
        connection.hang_up("the match is over")
        with pytest.raises(Closed) as closed:
            await receiving
        assert closed.value.reason == connection.closed == "the match is over"

    _run(_with_line(scenario))


class _Broken:
    """A stream whose every call fails with ``error``, as a dead socket's or a closed
    loop's may."""

    def __init__(self, error: BaseException) -> None:
        self.error = error
        self.transport = self

    def get_extra_info(self, name: str) -> tuple[str, int]:
        return ("192.0.2.7", 4000)

    def get_write_buffer_size(self) -> int:
        return 0

    def write(self, data: bytes) -> None:
        raise self.error

    async def drain(self) -> None:
        raise self.error

    def close(self) -> None:
        raise self.error

    async def read(self, size: int) -> bytes:
        raise self.error


@pytest.mark.parametrize(
    "error",
    [
        OSError(errno.ETIMEDOUT, "timed out"),
        ConnectionResetError(errno.ECONNRESET, "reset"),
        RuntimeError("Event loop is closed"),
    ],
    ids=["OSError", "ConnectionError", "RuntimeError"],
)
def test_a_dead_line_raises_nothing_at_whoever_writes_drains_or_hangs_up(
    error: BaseException,
) -> None:
    """A broadcast writes to every member's line: one dead line must not stop it, nor a
    hang-up, nor the drain before it; the reader notices the line is gone."""

    async def scenario() -> None:
        broken = _Broken(error)
        connection = Connection(broken, broken)  # type: ignore[arg-type]
        assert connection.address == "192.0.2.7"
        connection.send(_notice(1))
        connection.send_frame(encode(_notice(2)))
        await connection.drain()
        connection.hang_up("over")
        assert connection.closed == "over"

    _run(scenario())


def test_a_line_that_fails_under_the_reader_is_lost_with_the_error() -> None:
    async def scenario() -> None:
        broken = _Broken(ConnectionResetError(errno.ECONNRESET, "reset by peer"))
        connection = Connection(broken, broken)  # type: ignore[arg-type]
        with pytest.raises(Closed) as closed:
            await connection.receive(2)
        assert closed.value.reason == connection.closed
        assert closed.value.reason == "connection lost ([Errno 104] reset by peer)"

    _run(scenario())


# -- the rate, to the token ---------------------------------------------------------------


async def _bursts(sizes: list[int], pause: float, rate: float, burst: float) -> tuple[int, str]:
    """Messages taken from a peer that writes bursts of ``sizes`` ``pause`` seconds apart,
    and why the line ended."""
    taken = 0

    async def scenario(
        connection: Connection, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        nonlocal taken

        async def send() -> None:
            for size in sizes:
                writer.write(b"".join(encode(_notice(n)) for n in range(size)))
                await asyncio.sleep(pause)
            writer.write_eof()

        sending = asyncio.ensure_future(send())
        with pytest.raises(Closed) as closed:
            while True:
                await connection.receive(5)
                taken += 1
        sending.cancel()
        result.append(closed.value.reason)

    result: list[str] = []
    await _with_line(scenario, rate=rate, burst=burst)
    return taken, result[0]


def test_the_bucket_refills_at_the_rate_and_no_faster() -> None:
    """Bursts of 40 against a bucket of 50: refilled at 1,000 a second the peer keeps
    going; at 10 a second (0.1 s apart: one token) the second burst is cut off — however
    much time the first took, a refill never gives back more than the rate."""

    async def scenario() -> None:
        assert await _bursts([40] * 4, 0.1, rate=1000.0, burst=50.0) == (
            160,
            "connection closed",
        )
        taken, reason = await _bursts([40] * 4, 0.1, rate=10.0, burst=50.0)
        assert reason == "too many messages: rate limit exceeded"
        assert taken == 40

    _run(scenario())


def test_a_burst_of_exactly_the_bucket_is_taken_and_one_more_is_not() -> None:
    """With nothing refilled (a rate of 0), the last token is usable: 50 messages of a
    bucket of 50 go through, the 51st closes the line."""

    async def scenario() -> None:
        assert await _bursts([50], 0.0, rate=0.0, burst=50.0) == (50, "connection closed")
        taken, reason = await _bursts([51], 0.0, rate=0.0, burst=50.0)
        assert (taken, reason) == (0, "too many messages: rate limit exceeded")

    _run(scenario())


# -- closing, opening ---------------------------------------------------------------------


def test_close_cuts_its_bye_and_waits_no_longer_than_its_time_for_a_peer_that_reads_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(line, "CLOSE_WAIT", 0.2)

    async def scenario(
        connection: Connection, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        big = {"t": "reject", "reason": "y" * 16000, "kind": "x"}
        for _ in range(300):
            connection.send(big)
        started = time.monotonic()
        await connection.close("z" * 1000)
        assert time.monotonic() - started < 5  # its wait, not the peer's (which is for ever)
        assert connection.closed == "z" * 1000

    _run(_with_line(scenario))


def test_a_guest_opens_its_line_to_the_address_it_was_given() -> None:
    """A host listening on 127.0.0.2 only (loopback still) is reached there."""

    async def scenario() -> None:
        server = await asyncio.start_server(lambda r, w: None, "127.0.0.2", 0)
        port = server.sockets[0].getsockname()[1]
        connection = await Connection.open("127.0.0.2", port)
        assert connection.address == "127.0.0.2"
        connection.hang_up("done")
        server.close()

    _run(scenario())
