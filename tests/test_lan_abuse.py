"""Limits that hold under abuse, over real sockets on loopback: strangers that ping but never
say hello, join codes tried one after another, a host out of file descriptors."""

from __future__ import annotations

import asyncio
import contextlib
import sys
import time
from collections import Counter
from functools import partial
from pathlib import Path

import pytest

from net.connection import CLOSE_WAIT, HANDSHAKE_TIMEOUT, Closed, Connection
from net.framing import FrameDecoder, encode
from net.testing.peer_process import PeerProcess
from tests.lan import RawGuest, guest, host


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


@pytest.mark.slow
def test_a_stranger_that_only_pings_is_closed_at_its_deadline() -> None:
    async def scenario() -> None:
        ended: asyncio.Future[tuple[str, float]] = asyncio.Future()

        async def handle(reader, writer) -> None:
            connection = Connection(reader, writer)
            opened = time.monotonic()
            try:
                await connection.receive_by(opened + 1.0)
            except Closed as closed:
                ended.set_result((closed.reason, time.monotonic() - opened))

        server, port = await _serve(handle)
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        pinging = asyncio.create_task(_ping(writer, 0.1, time.monotonic() + 3.0))
        reason, after = await ended
        pinged_past_the_close = not pinging.done()
        decoder, said = FrameDecoder(), []
        while data := await reader.read(65536):
            said += decoder.feed(data)
        pinging.cancel()
        server.close()
        assert reason == "no answer by the deadline (timed out)"
        assert after >= 1.0  # not before its deadline …
        assert pinged_past_the_close  # … and pings (answered) never moved it: the line closed
        # while they still came, not once they stopped (no wall-clock bound: a slow machine
        # passes, a deadline that pings extend fails)
        pongs = [m["n"] for m in said if m["t"] == "pong"]
        assert pongs == list(range(1, len(pongs) + 1)) and len(pongs) >= 2  # heard, in order
        assert {m["t"] for m in said} == {"pong", "bye"}
        assert said[-1] == {"t": "bye", "reason": reason}

    _run(scenario())


@pytest.mark.slow
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
        writer.write(encode({"t": "reject", "reason": "still here", "kind": "x"}))
        await asyncio.sleep(1.0)  # then silence
        server.close()
        assert got == [
            {"t": "reject", "reason": "still here", "kind": "x"},
            "no word from the other side for too long (timed out)",
        ]

    _run(scenario())


@pytest.mark.slow
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
            await writer.wait_closed()  # the transport is gone
            gone.set_result(time.monotonic() - started)

        server, port = await _serve(handle)
        _, writer = await asyncio.open_connection("127.0.0.1", port)  # and never reads
        assert CLOSE_WAIT <= await closed_in < CLOSE_WAIT + 0.5
        assert await gone < 2 * CLOSE_WAIT + 0.5
        writer.close()
        server.close()

    _run(scenario())


# -- a host under attack -----------------------------------------------------------------


def _alias(n: int) -> str:
    """The n-th of the attacker's loopback addresses (all of 127/8 reaches this computer)."""
    return f"127.0.{1 + n // 250}.{1 + n % 250}"


def _events(process: PeerProcess) -> list[dict]:
    """Every event of a process that has ended."""
    while process.next_event(30) is not None:
        pass
    return process.events


async def _stranger(address: str, port: int, stop: float, seen: list[tuple[float, str]]) -> None:
    """Connect from ``address`` again and again until ``stop``, a second after each close;
    never say hello, ping every half second; note how long each connection lived and the
    host's last word."""
    while time.monotonic() < stop:
        try:
            reader, writer = await asyncio.open_connection(
                "127.0.0.1", port, local_addr=(address, 0)
            )
        except OSError:
            await asyncio.sleep(0.5)
            continue
        opened = time.monotonic()
        pinging = asyncio.create_task(_ping(writer, 0.5, opened + 60))
        decoder, said = FrameDecoder(), "(nothing)"
        with contextlib.suppress(ConnectionError):
            while data := await reader.read(65536):
                said = next((m["reason"] for m in decoder.feed(data) if m["t"] == "bye"), said)
        seen.append((time.monotonic() - opened, said))
        pinging.cancel()
        writer.close()
        await asyncio.sleep(1.0)


@pytest.mark.slow
def test_strangers_that_ping_but_never_say_hello_are_gone_by_the_deadline(
    tmp_path: Path,
) -> None:
    """150 strangers from 30 addresses that keep coming back, and 12 more from one address:
    the gate is full all the while, yet a guest joins; none stays past the hello deadline,
    pings or not; the match is played out once a third player comes; nothing on stderr."""
    server, port = host(tmp_path, "numeri", "--players", "3", "--ai", "easy")
    seen: list[tuple[float, str]] = []

    async def attack() -> tuple[PeerProcess, float, float]:
        stop = time.monotonic() + 8.0
        strangers = [_stranger(_alias(n // 5), port, stop, seen) for n in range(150)]
        strangers += [_stranger(_alias(999), port, stop, seen) for _ in range(12)]
        running = [asyncio.create_task(stranger) for stranger in strangers]
        await asyncio.sleep(1.5)  # the gate is full of them by now
        anna = guest(tmp_path, port, "anna", "--ai", "easy")
        await asyncio.to_thread(anna.wait_for, "joined", 5.0)
        joined = time.monotonic()
        await asyncio.gather(*running)  # the last of them stay until their deadline
        return anna, joined, stop

    anna, joined, stop = asyncio.run(asyncio.wait_for(attack(), 60))
    assert joined < stop - 1.0  # while the strangers were still coming
    assert len(seen) >= 162
    assert max(lived for lived, _ in seen) < HANDSHAKE_TIMEOUT + 1.0, max(seen)
    reasons = Counter(said for _, said in seen)
    assert set(reasons) == {
        "too many strangers",  # the oldest made room for a newcomer
        "too many connections from this address",  # the 9th from one address
        "no answer by the deadline (timed out)",  # the last ones: pings moved nothing
    }, reasons
    assert reasons["no answer by the deadline (timed out)"] > 40
    bert = guest(tmp_path, port, "bert", "--ai", "easy")
    for process in (anna, bert, server):
        assert process.finish() == 0, process.events[-3:]
    assert len({p.last("over")["digest"] for p in (anna, bert, server)}) == 1
    text = server.stderr()
    assert len(text) < 10_000 and "Traceback" not in text, (len(text), text[-3000:])


@contextlib.contextmanager
def _from(address: str):
    """Connections opened meanwhile (:meth:`Connection.open` among them) come from
    ``address``."""
    original = asyncio.open_connection
    asyncio.open_connection = partial(original, local_addr=(address, 0))
    try:
        yield
    finally:
        asyncio.open_connection = original


async def _ask_with_code(port: int, address: str, code: str) -> str | None:
    """Ask to join with ``code`` from ``address``: None if welcomed, else the host's reason."""
    with _from(address):
        raw = await RawGuest.join(port, name="mallory", code=code)
    try:
        message = await raw.next()
    except Closed as closed:
        return closed.reason
    assert message["t"] == "welcome", message
    await raw.connection.close("leaving")
    return None


@pytest.mark.slow
def test_wrong_join_codes_wait_longer_each_time_and_the_host_hears_it_once(
    tmp_path: Path,
) -> None:
    server, port = host(tmp_path, "dama", "--ai", "easy", "--code", "4711")

    async def attempts() -> list[tuple[float, str | None]]:
        said = []
        tries = [("127.0.0.1", "0000", 0), ("127.0.0.1", "0001", 0), ("127.0.0.1", "0002", 1),
                 ("127.0.0.1", "0003", 2), ("127.0.0.1", "0004", 4), ("127.0.0.2", "4711", 0),
                 ("127.0.0.1", "4711", 0), ("127.0.0.1", "4711", 8)]  # fmt: skip
        for address, code, pause in tries:
            await asyncio.sleep(pause)
            started = time.monotonic()
            reason = await _ask_with_code(port, address, code)
            said.append((time.monotonic() - started, reason))
        return said

    said = asyncio.run(asyncio.wait_for(attempts(), 60))
    assert [reason for _, reason in said] == [
        "wrong join code (the next try in 1 s)",
        "too many wrong join codes from this address: try again in 1 s",  # not even looked at
        "wrong join code (the next try in 2 s)",
        "wrong join code (the next try in 4 s)",
        "wrong join code (the next try in 8 s)",
        None,  # a newcomer with the right code from another address: in at once
        "too many wrong join codes from this address: try again in 8 s",
        None,  # the one who mistyped, with the right code once the wait is over
    ]
    assert max(took for took, _ in said) < 1.0  # refusals and welcomes alike come at once
    server.kill()
    notices = [e["text"] for e in _events(server) if e["event"] == "notice"]
    assert notices == [
        "1 wrong join code from 1 address: each address waits longer after every wrong code"
    ]  # the next three wait for the next minute's notice; nobody's chosen name is shown
    assert "Traceback" not in server.stderr()


FILE_LIMIT = (
    "import os, resource, sys; n = int(sys.argv[1]); "
    "resource.setrlimit(resource.RLIMIT_NOFILE, (n, n)); os.execv(sys.argv[2], sys.argv[2:])"
)
"""Runs the rest of the command line with at most ``n`` open files."""


@pytest.mark.slow
def test_a_host_out_of_file_descriptors_plays_on_without_a_traceback(tmp_path: Path) -> None:
    """40 descriptors: about 20 left over once the match is under way."""
    pace = ("--ai", "easy", "--pace", "0.15")
    server = PeerProcess.net(
        "host", "dama", "--interface", "127.0.0.1", "--no-advertise", "--name", "host",
        "--identity", str(tmp_path / "host.id"), "--record", str(tmp_path / "host.rec"), *pace,
        cwd=tmp_path, prefix=(sys.executable, "-c", FILE_LIMIT, "40"),
    )  # fmt: skip
    port = server.wait_for("listening")["port"]
    anna = guest(tmp_path, port, "anna", *pace)
    server.wait_for("action", ply=2)

    async def flood() -> tuple[int, int, int]:
        """Connections from 4 addresses at a time until they are no longer taken."""
        writers, failures = [], 0
        for n in range(400):
            try:
                _, writer = await asyncio.wait_for(
                    asyncio.open_connection("127.0.0.1", port, local_addr=(_alias(n // 4), 0)), 0.5
                )
            except (OSError, TimeoutError):
                failures += 1
                if failures == 5:
                    break
                continue
            writers.append(writer)
        first = _ply(server)
        await asyncio.sleep(3.0)  # the host meanwhile: accept() out of descriptors, again and again
        for writer in writers:
            writer.close()
        return len(writers), first, _ply(server)

    opened, first, last = asyncio.run(asyncio.wait_for(flood(), 60))
    assert opened > 40  # more than the host could take
    assert last >= first + 5  # the match went on all the while
    assert anna.finish() == 0 and server.finish() == 0, server.tail()
    assert anna.last("over")["digest"] == server.last("over")["digest"]
    assert (tmp_path / "host.rec").stat().st_size > 0
    text = server.stderr()
    assert len(text) < 10_000 and "Traceback" not in text, (len(text), text[-3000:])
    notices = [e["text"] for e in _events(server) if e["event"] == "notice"]
    assert notices == ["Too many open connections: new ones are turned away for now"]


def _ply(process: PeerProcess) -> int:
    return max(e["ply"] for e in process.events if e["event"] == "action")


@pytest.mark.slow
def test_a_proven_peer_that_claims_entries_it_never_sends_is_closed_at_one_deadline(
    tmp_path: Path,
) -> None:
    """A peer that proves its key and says it holds 1,000 entries more than the host, then
    only pings: the host's wait for them has one fixed deadline (5 s + 5 ms an entry), which
    its pings do not move; the match goes on without it."""
    server, port = host(tmp_path, "dama", "--ai", "easy")

    async def attack() -> tuple[str, float]:
        raw = await RawGuest.join(port, name="mallory", have=1000, head="ab" * 16)
        began = time.monotonic()
        pinging = asyncio.create_task(_ping(raw.connection._writer, 0.2, began + 30.0))
        try:
            while True:
                message = await raw.connection.receive(30.0)
                assert message["t"] == "want", message
        except Closed as closed:
            return closed.reason, time.monotonic() - began
        finally:
            pinging.cancel()

    reason, lasted = asyncio.run(asyncio.wait_for(attack(), 60))
    assert reason == "no answer by the deadline (timed out)"
    assert 9.5 <= lasted < 11.5, lasted  # 5 s + 1,000 × 5 ms, however often it pinged
    anna = guest(tmp_path, port, "anna", "--ai", "easy")
    for process in (anna, server):
        assert process.finish() == 0, process.events[-3:]
