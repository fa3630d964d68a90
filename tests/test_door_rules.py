"""Each rule of the door (``net/door.py``) pushed against over loopback, both sides of the
handshake and the catch-up (issue 28: every rule has a test that fails without it).

The host's side meets strangers that send something else first, speak another version or
other rules, put the join code in the hello (before the host proved its key), answer the
challenge with a proof for another host or nonce, or only ping; a newcomer that claims a
huge history and sends nothing, sends entries out of order, or entries of another log.  The
guest's side meets hosts that answer with something else, prove nothing, prove another key
or host another match.  Time limits are scaled down with ``monkeypatch``.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from game.rules.registry import fingerprint
from net import door
from net.connection import Closed, Connection
from net.door import (
    DIVERGED,
    Unproven,
    catch_up_deadline,
    catch_up_from,
    introduce,
    is_expected,
    present,
)
from net.identity import Identity, peer_id, verify
from net.identity import fingerprint as key_fingerprint
from net.matchlog import MatchLog, replay
from net.messages import PROTOCOL_VERSION
from net.signing import host_payload, join_payload
from tests.net_helpers import Table

HOST = Identity(bytes([1]) * 32)
GUEST = Identity(bytes([9]) * 32)

Scenario = Callable[[Connection, Connection], Awaitable[None]]


def _run(coroutine: Awaitable[None]) -> None:
    async def bounded() -> None:
        await asyncio.wait_for(coroutine, 10)

    asyncio.run(bounded())


async def _pair(scenario: Scenario) -> None:
    """``scenario`` with the host's end and the guest's end of one loopback line."""
    accepted: asyncio.Future[Connection] = asyncio.get_running_loop().create_future()

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        accepted.set_result(Connection(reader, writer))

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    guest = await Connection.open("127.0.0.1", port)
    host = await accepted
    try:
        await scenario(host, guest)
    finally:
        host.hang_up("test over")
        guest.hang_up("test over")
        server.close()


def _table() -> Table:
    return Table("numeri", 2, chain=32)


def _hello(nonce: bytes, **changes: Any) -> dict[str, Any]:
    return {
        "t": "hello", "version": PROTOCOL_VERSION, "rules": fingerprint(), "key": GUEST.key,
        "nonce": nonce, "name": "Bert", "role": "player", "seat": 1, "listen": 4000,
        "have": 0, "head": None, "code": None, "vote": None, **changes,
    }  # fmt: skip


async def _closed_with(connection: Connection) -> str:
    """The reason of the bye the other side ended with."""
    with pytest.raises(Closed) as closed:
        while True:
            await connection.receive(2)
    return closed.value.reason


# -- the expected key and the catch-up's deadline -----------------------------------------


def test_the_expected_key_is_that_key_a_prefix_of_its_fingerprint_or_any() -> None:
    key, other = HOST.key, GUEST.key
    printed = key_fingerprint(key)
    assert is_expected(key, None) and is_expected(key, key)
    assert not is_expected(key, other)
    assert is_expected(key, printed[:9]) and is_expected(key, f"  {printed[:9].lower()} ")
    assert not is_expected(key, key_fingerprint(other)[:9])
    assert not is_expected(key, "") and not is_expected(key, "   ")  # a blank text is no key


def test_a_catch_up_gets_the_handshakes_time_and_a_little_per_entry_capped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(door.time, "monotonic", lambda: 100.0)
    base = 100.0 + door.HANDSHAKE_TIMEOUT
    assert catch_up_deadline(0) == base
    assert catch_up_deadline(-40) == base  # a newcomer behind the host is owed nothing
    assert catch_up_deadline(1000) == pytest.approx(base + 1000 * door.CATCH_UP_PER_ENTRY)
    assert catch_up_deadline(6000) == base + door.CATCH_UP_MOST
    assert catch_up_deadline(10_000_000) == base + door.CATCH_UP_MOST


# -- the host's side: introduce -----------------------------------------------------------


async def _introduce(
    host: Connection, log: MatchLog | None, notices: list[str]
) -> tuple[dict[str, Any], str] | None:
    return await introduce(host, log, HOST, notices.append)


def test_a_stranger_that_proves_its_key_is_introduced_with_its_code_and_vote() -> None:
    log = _table().log
    vote = bytes(range(64))

    async def scenario(host: Connection, guest: Connection) -> None:
        notices: list[str] = []
        nonce = secrets.token_bytes(32)
        introducing = asyncio.ensure_future(_introduce(host, log, notices))
        guest.send(_hello(nonce))
        challenge = await guest.receive(2)
        assert challenge["t"] == "challenge"
        assert (challenge["match"], challenge["key"]) == (log.match_id, HOST.key)
        assert verify(HOST.key, host_payload(log.match_id, GUEST.key, nonce), challenge["sig"])
        wish = join_payload(log.match_id, HOST.key, challenge["nonce"], "Bert", "player", 1)
        guest.send({"t": "proof", "sig": GUEST.sign(wish), "code": "4711", "vote": vote})
        result = await introducing
        assert result is not None
        hello, peer = result
        assert peer == GUEST.peer == peer_id(GUEST.key)
        assert hello == {
            **_hello(nonce), "code": "4711", "vote": vote, "proof": GUEST.sign(wish),
            "challenge": challenge["nonce"],
        }  # fmt: skip
        assert notices == [] and host.closed is None

    _run(_pair(scenario))


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (
            {"version": PROTOCOL_VERSION + 1},
            f"protocol version mismatch: the host speaks version {PROTOCOL_VERSION}, this "
            f"peer {PROTOCOL_VERSION + 1}; update Tavolo on both computers",
        ),
        (
            {"rules": "ab" * 16},
            "rules mismatch: the host and this peer run different versions of the game rules "
            f"({fingerprint()[:8]} and abababab); update Tavolo",
        ),
        (
            {"code": "4711"},
            "the join code and the vote go in the proof, once the host has proved its key",
        ),
        (
            {"vote": bytes(64)},
            "the join code and the vote go in the proof, once the host has proved its key",
        ),
    ],
    ids=["version", "rules", "code in the hello", "vote in the hello"],
)
def test_a_hello_the_host_cannot_take_is_refused_with_the_reason_told_on_both_sides(
    change: dict[str, Any], reason: str
) -> None:
    log = _table().log

    async def scenario(host: Connection, guest: Connection) -> None:
        notices: list[str] = []
        introducing = asyncio.ensure_future(_introduce(host, log, notices))
        guest.send(_hello(secrets.token_bytes(32), **change))
        assert await _closed_with(guest) == reason
        assert await introducing is None
        assert notices == [f"refused Bert: {reason}"]

    _run(_pair(scenario))


PROOF = {"t": "proof", "sig": bytes(64), "code": None, "vote": None}


@pytest.mark.parametrize(
    ("sent", "in_a_match", "reason"),
    [
        ([PROOF], True, "expected a hello first"),
        ([{"t": "ping", "n": 1}, PROOF], True, "expected a hello first"),
        ([None], False, "this peer is not in a match"),
    ],
    ids=["something else first", "a ping, then something else", "no match"],
)
def test_anything_but_a_hello_first_or_a_hello_to_no_match_is_refused(
    sent: list[dict[str, Any] | None], in_a_match: bool, reason: str
) -> None:
    log = _table().log if in_a_match else None

    async def scenario(host: Connection, guest: Connection) -> None:
        notices: list[str] = []
        introducing = asyncio.ensure_future(_introduce(host, log, notices))
        for message in sent:
            guest.send(message or _hello(secrets.token_bytes(32)))
        assert await _closed_with(guest) == reason
        assert await introducing is None
        assert notices == []

    _run(_pair(scenario))


@pytest.mark.parametrize(
    "proof",
    ["another type", "another nonce", "another host", "another seat", "another's key"],
)
def test_a_proof_that_does_not_answer_this_challenge_for_this_host_is_refused(
    proof: str,
) -> None:
    log = _table().log

    async def scenario(host: Connection, guest: Connection) -> None:
        introducing = asyncio.ensure_future(_introduce(host, log, []))
        guest.send(_hello(secrets.token_bytes(32)))
        challenge = await guest.receive(2)
        nonce = bytes(32) if proof == "another nonce" else challenge["nonce"]
        key = GUEST.key if proof == "another host" else HOST.key
        seat = 0 if proof == "another seat" else 1
        signer = HOST if proof == "another's key" else GUEST
        sig = signer.sign(join_payload(log.match_id, key, nonce, "Bert", "player", seat))
        if proof == "another type":
            guest.send({"t": "pong", "n": 1})  # skipped: the host waits for the proof
            guest.send({"t": "challenge", **{k: challenge[k] for k in challenge if k != "t"}})
        else:
            guest.send({"t": "proof", "sig": sig, "code": None, "vote": None})
        assert await _closed_with(guest) == "the proof of identity does not check out"
        assert await introducing is None

    _run(_pair(scenario))


def test_one_fixed_deadline_covers_the_hello_and_the_proof_however_often_the_stranger_pings(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A stranger that keeps pinging, hello sent late and proof never: closed at the
    handshake's deadline from its arrival — neither its pings nor its hello move it."""
    monkeypatch.setattr(door, "HANDSHAKE_TIMEOUT", 0.4)
    monkeypatch.setattr("net.connection.PING_EVERY", 0.05)
    log = _table().log

    async def scenario(host: Connection, guest: Connection) -> None:
        started = time.monotonic()
        introducing = asyncio.ensure_future(_introduce(host, log, []))
        for n in range(5):
            guest.send({"t": "ping", "n": n})
            await asyncio.sleep(0.05)
        guest.send(_hello(secrets.token_bytes(32)))
        for n in range(5, 40):
            guest.send({"t": "ping", "n": n})
            await asyncio.sleep(0.05)
            if introducing.done():
                break
        else:
            pytest.fail("the pings kept the newcomer in past its deadline")
        with pytest.raises(Closed, match=r"^no answer by the deadline \(timed out\)$"):
            await introducing
        assert time.monotonic() - started > 0.35

    _run(_pair(scenario))


# -- the host's side: catch_up_from -------------------------------------------------------


def _played(entries: int) -> tuple[Table, MatchLog]:
    """A match whose log has at least ``entries`` entries, and a copy of its first 4."""
    table = _table()
    table.start()
    while len(table.log) < entries:
        table.dice()
        state = table.log.state
        if state.to_move >= 0:
            table.act(state.action_to_str(state.legal_actions()[0]))
    return table, replay(table.log.entries[:4])


def test_a_newcomer_that_heard_more_is_asked_for_it_and_each_entry_is_checked() -> None:
    table, behind = _played(12)

    async def scenario(host: Connection, guest: Connection) -> None:
        taken: list[dict[str, Any]] = []
        catching = asyncio.ensure_future(catch_up_from(host, behind, 12, taken.append))
        assert await guest.receive(2) == {"t": "want", "from": 4}
        for seq in range(4, 12):
            guest.send({"t": "push", "seq": seq, "e": table.log.entries[seq]})
        assert await catching is True
        assert taken == table.log.entries[4:12]
        assert behind.heads == table.log.heads[:12]

    _run(_pair(scenario))


def test_a_newcomer_that_heard_no_more_is_asked_for_nothing() -> None:
    _, behind = _played(4)

    async def scenario(host: Connection, guest: Connection) -> None:
        assert await catch_up_from(host, behind, 4, lambda e: None) is True
        assert await catch_up_from(host, behind, 2, lambda e: None) is True
        host.hang_up("done")
        with pytest.raises(Closed, match=r"^done$"):  # no want came before the bye
            await guest.receive(2)

    _run(_pair(scenario))


@pytest.mark.parametrize(
    ("push", "reason"),
    [
        ({"t": "push", "seq": 5}, "expected the missing log entries"),
        ({"t": "push", "seq": 3}, "expected the missing log entries"),
        ({"t": "reject", "reason": "no", "kind": "x"}, "expected the missing log entries"),
        ({"t": "push", "seq": 4, "forged": True}, f"{DIVERGED} (entry 4: forged entry"),
    ],
    ids=["a gap", "an old entry", "something else", "an entry of another log"],
)
def test_a_newcomer_that_pushes_out_of_order_or_another_log_is_turned_away(
    push: dict[str, Any], reason: str
) -> None:
    table, behind = _played(8)

    async def scenario(host: Connection, guest: Connection) -> None:
        taken: list[dict[str, Any]] = []
        catching = asyncio.ensure_future(catch_up_from(host, behind, 8, taken.append))
        assert (await guest.receive(2))["t"] == "want"
        message = dict(push)
        if message.pop("forged", False):
            entry = dict(table.log.entries[4])
            entry["hs"] = bytes(64)
            message["e"] = entry
        elif message["t"] == "push":
            message["e"] = table.log.entries[message["seq"]]
        guest.send(message)
        assert (await _closed_with(guest)).startswith(reason)
        assert await catching is False
        assert taken == [] and len(behind) == 4

    _run(_pair(scenario))


def test_a_newcomer_claiming_a_huge_history_is_held_no_longer_than_the_cap(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Ten million entries claimed, none sent, pings all along: the door waits the
    handshake's time and :data:`~net.door.CATCH_UP_MOST`, fixed, then turns it away."""
    monkeypatch.setattr(door, "HANDSHAKE_TIMEOUT", 0.2)
    monkeypatch.setattr(door, "CATCH_UP_MOST", 0.2)
    monkeypatch.setattr("net.connection.PING_EVERY", 0.05)
    _, behind = _played(4)

    async def scenario(host: Connection, guest: Connection) -> None:
        started = time.monotonic()
        catching = asyncio.ensure_future(catch_up_from(host, behind, 10_000_000, lambda e: 0))
        for n in range(40):
            guest.send({"t": "ping", "n": n})
            await asyncio.sleep(0.05)
            if catching.done():
                break
        else:
            pytest.fail("the pings kept the catch-up waiting past its deadline")
        with pytest.raises(Closed, match=r"^no answer by the deadline \(timed out\)$"):
            await catching
        assert time.monotonic() - started > 0.35

    _run(_pair(scenario))


def test_a_newcomer_gets_a_little_time_for_each_entry_it_claims_beyond_the_hosts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Four entries claimed beyond the host's four: the deadline counts those four, not
    the eight the newcomer holds in all."""
    monkeypatch.setattr(door, "HANDSHAKE_TIMEOUT", 0.1)
    monkeypatch.setattr(door, "CATCH_UP_PER_ENTRY", 0.1)
    _, behind = _played(4)

    async def scenario(host: Connection, guest: Connection) -> None:
        started = time.monotonic()
        with pytest.raises(Closed, match="no answer by the deadline"):
            await catch_up_from(host, behind, 8, lambda e: None)
        assert 0.45 < time.monotonic() - started < 1.0

    _run(_pair(scenario))


# -- the guest's side: present ------------------------------------------------------------


async def _host_answers(
    host: Connection, answer: Callable[[dict[str, Any]], dict[str, Any] | None]
) -> dict[str, Any]:
    """Take the guest's hello, send ``answer(hello)`` (if any), return the hello."""
    hello = await host.receive(2)
    reply = answer(hello)
    if reply is not None:
        host.send(reply)
    return hello


def _challenge(hello: dict[str, Any], match: str, signer: Identity = HOST) -> dict[str, Any]:
    return {
        "t": "challenge", "match": match, "key": HOST.key, "nonce": bytes(range(32)),
        "sig": signer.sign(host_payload(match, hello["key"], hello["nonce"])),
    }  # fmt: skip


def test_a_guest_says_who_it_is_and_proves_it_to_the_host_it_expects_with_code_and_vote() -> None:
    table = _table()
    log = replay(table.log.entries)
    vote = bytes(range(64))

    async def scenario(host: Connection, guest: Connection) -> None:
        presenting = asyncio.ensure_future(
            present(guest, GUEST, ("Bert", "player", 1), 4000, log, 3, HOST.key, "4711", vote)
        )
        hello = await _host_answers(host, lambda h: _challenge(h, log.match_id))
        assert {k: v for k, v in hello.items() if k != "nonce"} == {
            "t": "hello", "version": PROTOCOL_VERSION, "rules": fingerprint(),
            "key": GUEST.key, "name": "Bert", "role": "player", "seat": 1, "listen": 4000,
            "have": 3, "head": log.heads[2], "code": None, "vote": None,
        }  # fmt: skip
        await presenting
        proof = await host.receive(2)
        wish = join_payload(log.match_id, HOST.key, bytes(range(32)), "Bert", "player", 1)
        assert proof == {"t": "proof", "sig": GUEST.sign(wish), "code": "4711", "vote": vote}
        assert guest.closed is None

    _run(_pair(scenario))


@pytest.mark.parametrize("with_log", [False, True], ids=["no log", "a log it offers none of"])
def test_a_newcomer_offers_no_head_when_it_offers_no_entries(with_log: bool) -> None:
    log = _table().log if with_log else None
    match = log.match_id if log is not None else "cd" * 16

    async def scenario(host: Connection, guest: Connection) -> None:
        presenting = asyncio.ensure_future(present(guest, GUEST, ("Bert", "player", 1), 0, log, 0))
        hello = await _host_answers(host, lambda h: _challenge(h, match))
        assert hello["head"] is None and hello["have"] == 0
        await presenting
        assert (await host.receive(2))["t"] == "proof"

    _run(_pair(scenario))


@pytest.mark.parametrize(
    ("answer", "closing", "raised"),
    [
        (
            "something else",
            "expected the host's challenge",
            "the host answered the hello with something else",
        ),
        (
            "a forged proof",
            "the host's proof of identity does not check out",
            "that host cannot prove who it is",
        ),
        (
            "another key",
            "not the host expected",
            "that host's key is not the one announced, known or given: an impostor?",
        ),
        ("a bye", None, "no thanks"),
    ],
)
def test_a_host_that_does_not_prove_the_key_asked_for_learns_nothing(
    answer: str, closing: str | None, raised: str
) -> None:
    """Whatever the impostor does, the guest says no more than its hello: no proof, no
    code, no vote; and it is :class:`~net.door.Unproven`, so another address may be tried."""
    log = _table().log

    def reply(hello: dict[str, Any]) -> dict[str, Any]:
        if answer == "something else":
            return {"t": "reject", "reason": "no", "kind": "hello"}
        if answer == "a bye":
            return {"t": "bye", "reason": "no thanks"}
        signer = GUEST if answer == "a forged proof" else HOST
        return _challenge(hello, log.match_id, signer)

    expected = GUEST.key if answer == "another key" else HOST.key

    async def scenario(host: Connection, guest: Connection) -> None:
        presenting = asyncio.ensure_future(
            present(guest, GUEST, ("Bert", "player", 1), 4000, log, 1, expected, "4711")
        )
        await _host_answers(host, reply)
        with pytest.raises(Unproven) as unproven:
            await presenting
        assert unproven.value.reason == raised
        if closing is not None:
            assert await _closed_with(host) == closing  # the bye, and not a proof before it

    _run(_pair(scenario))


def test_a_host_that_says_nothing_leaves_the_guest_free_to_try_elsewhere(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(door, "HANDSHAKE_TIMEOUT", 0.3)

    async def scenario(host: Connection, guest: Connection) -> None:
        started = time.monotonic()
        with pytest.raises(Unproven, match="no answer by the deadline"):
            await present(guest, GUEST, ("Bert", "player", 1), 4000, None, 0)
        assert 0.25 < time.monotonic() - started < 3  # its 0.3 s, not the 5 s unpatched

    _run(_pair(scenario))


def test_a_host_of_another_match_is_left_though_it_proved_its_key() -> None:
    """Proven, but not the match this guest's log is of: a plain :class:`Closed` — the key
    is the right one, so no other address under it will do better."""
    log = _table().log

    async def scenario(host: Connection, guest: Connection) -> None:
        presenting = asyncio.ensure_future(
            present(guest, GUEST, ("Bert", "player", 1), 4000, log, 1, HOST.key)
        )
        await _host_answers(host, lambda h: _challenge(h, "cd" * 16))
        with pytest.raises(Closed) as closed:
            await presenting
        assert not isinstance(closed.value, Unproven)
        assert closed.value.reason == "that peer hosts a different match"
        assert await _closed_with(host) == "a different match"

    _run(_pair(scenario))


def test_both_sides_of_the_door_together() -> None:
    log = _table().log

    async def scenario(host: Connection, guest: Connection) -> None:
        notices: list[str] = []
        introducing = asyncio.ensure_future(_introduce(host, log, notices))
        await present(guest, GUEST, ("Bert", "spectator", -1), 4001, None, 0, HOST.key, "12")
        result = await introducing
        assert result is not None
        hello, peer = result
        assert peer == GUEST.peer
        assert (hello["role"], hello["seat"], hello["code"], hello["listen"]) == (
            "spectator",
            -1,
            "12",
            4001,
        )

    _run(_pair(scenario))
