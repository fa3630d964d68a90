"""The witness (net/witness.py) beyond its judgement (tests/test_witness.py): the reign of a
position, the proof a record keeps, what a member sends and to whom, what it keeps waiting,
the rate it takes datagrams at, and its socket — heads sent to a recording transport or over
UDP on loopback, a clock turned by hand."""

from __future__ import annotations

import asyncio
import socket
from typing import Any

import msgpack
import pytest

from net.identity import fingerprint
from net.matchlog import MatchLog, placed, replay, signed
from net.witness import (
    BURST,
    EVERY,
    MAX_DATAGRAM,
    MAX_SOURCES,
    RATE,
    SOON,
    WAITING_PER_SOURCE,
    Fork,
    Head,
    Witness,
    check_proof,
    head_at,
    judge,
    reign,
)
from tests.net_helpers import Table, forked_lobby


def _taken_over() -> tuple[Table, int]:
    """p2 voted in after the lobby: a ``host`` entry at position ``at``."""
    table = Table("numeri", 3)
    votes = [table.vote(1, 1), table.vote(2, 1)]
    at = len(table.log)
    table.put({"k": "host", "peer": table.peers[1], "addr": "", "votes": votes})
    table.put({"k": "ready", "peer": table.peers[2], "ready": False})
    return table, at


def test_a_positions_reign_is_its_latest_host_entry_and_that_hosts_peer() -> None:
    table, at = _taken_over()
    log = table.log
    assert reign(log, at - 1) == (0, table.peers[0])
    assert reign(log, 1) == (0, table.peers[0])
    assert reign(log, 0) == (0, table.peers[0])
    assert reign(log, at) == (at, table.peers[1])
    assert reign(log, at + 1) == (at, table.peers[1])
    head = head_at(log, at + 1)
    assert head == Head(at + 1, log.heads[at + 1], log.entries[at + 1]["hs"], at, log.heads[at])
    assert head_at(log, 2).since == 0 and head_at(log, 2).root == log.heads[0]


def test_a_fork_in_a_later_reign_is_signed_by_that_reigns_host() -> None:
    table, at = _taken_over()
    log = table.log
    twin = replay(list(log.entries[:-1]))
    new_host = table.identities[1]
    entry = {"k": "ready", "peer": table.peers[2], "ready": True}
    made = signed(twin, table.identities[2], entry, twin.next_n(table.peers[2]))
    twin.apply(placed(twin, new_host, made))
    fork = judge(log, head_at(twin, at + 1))
    assert fork is not None and fork.key == new_host.key and fork.seq == at + 1


def test_a_head_from_an_unknown_placer_proves_nothing() -> None:
    table, first, second, seq = forked_lobby()
    del first.keys[table.peers[0]]
    assert judge(first, head_at(second, seq)) is None


def test_a_head_whose_reign_starts_after_it_or_at_it_is_judged_by_its_reign() -> None:
    _table, first, second, seq = forked_lobby()
    theirs = head_at(second, seq)
    assert judge(first, Head(seq, theirs.head, theirs.hs, seq, theirs.root)) is None
    assert judge(first, Head(seq, theirs.head, theirs.hs, 0, "ab" * 16)) is None
    assert judge(first, Head(seq, theirs.head, theirs.hs, 0, theirs.root)) is not None


def test_what_the_screen_and_the_record_are_told_of_a_fork() -> None:
    table, first, second, seq = forked_lobby()
    fork = judge(first, head_at(second, seq))
    assert fork is not None
    assert fork.reason == (
        f"the host showed another player a different match at entry {seq + 1}: the match is "
        "stopped, it cannot be trusted (both records hold the proof)"
    )
    assert fork.event() == {
        "entry": seq + 1, "key": fingerprint(table.identities[0].key),
        "ours": first.heads[seq], "theirs": second.heads[seq], "text": fork.reason,
    }  # fmt: skip
    assert fork.to_record() == {
        "match": first.match_id, "seq": seq, "key": table.identities[0].key,
        "heads": [first.heads[seq], second.heads[seq]],
        "hs": [first.entries[seq]["hs"], second.entries[seq]["hs"]],
    }  # fmt: skip
    assert check_proof(fork.to_record()) is None


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"heads": None}, "the fork proof is malformed"),
        ({"seq": "x"}, "the fork proof is malformed"),  # raised AttributeError before
        ({"seq": -1}, "the fork proof is malformed"),  # and OverflowError
        ({"seq": 1.5}, "the fork proof is malformed"),
        ({"heads": ["zz", "yy"]}, "the fork proof is malformed"),
        ({"hs": [b"", b"", b""]}, "a fork proof holds two different heads"),
        ({"heads": ["ab" * 16]}, "a fork proof holds two different heads"),
    ],
)
def test_a_proof_that_does_not_hold_says_why(change: dict[str, Any], reason: str) -> None:
    _, first, second, seq = forked_lobby()
    fork = judge(first, head_at(second, seq))
    assert fork is not None
    assert check_proof({**fork.to_record(), **change}) == reason
    record = fork.to_record()
    del record["key"]
    assert check_proof(record) == "the fork proof is malformed"


def test_a_proof_with_a_head_its_key_did_not_sign_names_that_head() -> None:
    _, first, second, seq = forked_lobby()
    fork = judge(first, head_at(second, seq))
    assert fork is not None
    record = fork.to_record()
    record["hs"] = [record["hs"][0], record["hs"][0]]
    assert check_proof(record) == (
        f"the head {second.heads[seq]} is not signed by the key the proof names"
    )
    record["hs"] = [bytes(64), fork.to_record()["hs"][1]]
    assert check_proof(record) == (
        f"the head {first.heads[seq]} is not signed by the key the proof names"
    )


# -- sending --------------------------------------------------------------------------


class _Sent:
    def __init__(self, error: Exception | None = None) -> None:
        self.datagrams: list[tuple[bytes, tuple[str, int]]] = []
        self.error = error
        self.closed = False

    def close(self) -> None:
        self.closed = True

    def sendto(self, data: bytes, address: tuple[str, int]) -> None:
        if self.error is not None:
            raise self.error
        self.datagrams.append((data, address))


def _witness(
    log: MatchLog | None, me: str, clock: list[float] | None = None
) -> tuple[Witness, list[Fork], _Sent]:
    found: list[Fork] = []
    now = clock or [0.0]
    witness = Witness(me, lambda: log, found.append, clock=lambda: now[0])
    sent = _Sent()
    witness._transport = sent  # type: ignore[assignment]
    return witness, found, sent


def _address(log: MatchLog) -> None:
    for number, member in enumerate(log.members.values()):
        member.addr = f"127.0.0.{number + 1}:{5000 + number}"


def test_a_member_sends_its_latest_head_to_every_other_member_present_or_not() -> None:
    table = Table("numeri", 3)
    log = table.logs[1]
    _address(log)
    table.put({"k": "leave", "peer": table.peers[2], "reason": "x"})
    witness, _, sent = _witness(log, table.peers[1])
    witness.send()
    assert [address for _, address in sent.datagrams] == [("127.0.0.1", 5000), ("127.0.0.3", 5002)]
    for data, _ in sent.datagrams:
        assert msgpack.unpackb(data) == msgpack.unpackb(
            msgpack.packb(head_at(log, len(log) - 1).message(log.match_id), use_bin_type=True)
        )


def test_a_member_without_a_port_or_a_log_of_one_entry_is_sent_nothing() -> None:
    table = Table("numeri", 3)
    log = table.logs[1]
    _address(log)
    log.members[table.peers[0]].addr = ""
    log.members[table.peers[2]].addr = "127.0.0.3:x"
    witness, _, sent = _witness(log, table.peers[1])
    witness.send()
    assert sent.datagrams == []
    short = MatchLog(table.log.entries[0])
    witness, _, sent = _witness(short, table.peers[1])
    witness.send()
    assert sent.datagrams == []
    witness, _, sent = _witness(None, table.peers[1])
    witness.send()
    witness._transport = None
    witness.send()
    assert sent.datagrams == []
    two = replay(table.log.entries[:2])
    two.members[table.peers[0]].addr = "127.0.0.1:5000"
    witness, _, sent = _witness(two, table.peers[1])
    witness.send()
    assert len(sent.datagrams) == 1


def test_a_send_that_fails_is_left_for_the_next() -> None:
    table = Table("numeri", 3)
    log = table.logs[1]
    _address(log)
    for error in (OSError("unreachable"), ValueError("bad address")):
        witness, _, _ = _witness(log, table.peers[1])
        witness._transport = _Sent(error)  # type: ignore[assignment]
        witness.send()


def test_the_head_of_a_new_entry_goes_out_soon_once_for_a_burst() -> None:
    async def scenario() -> None:
        table = Table("numeri", 3)
        log = table.logs[1]
        _address(log)
        witness, _, sent = _witness(log, table.peers[1])
        witness.changed()
        handle = witness._soon
        assert handle is not None
        witness.changed()
        assert witness._soon is handle  # a burst: one send
        loop = asyncio.get_running_loop()
        assert handle.when() - loop.time() <= SOON and handle.when() - loop.time() > SOON / 2
        witness._soon.cancel()
        witness._send_soon()
        assert witness._soon is None and len(sent.datagrams) == 2
        witness.close()
        nothing, _, _ = _witness(None, table.peers[1])
        nothing.changed()
        assert nothing._soon is None

    asyncio.run(scenario())


def test_a_member_that_found_a_fork_sends_both_heads_and_hears_no_more() -> None:
    table, first, second, seq = forked_lobby()
    _address(first)
    witness, found, sent = _witness(first, table.peers[1])
    witness.received(msgpack.packb(head_at(second, seq).message(first.match_id),
                                   use_bin_type=True), ("127.0.0.9", 1))  # fmt: skip
    assert len(found) == 1
    sent.datagrams.clear()
    witness.send()
    heads = [msgpack.unpackb(d)["head"] for d, _ in sent.datagrams]
    assert heads == [first.heads[seq], second.heads[seq]] * 2  # to both others
    witness.changed()  # the log grew: nothing judged, nothing scheduled
    assert witness._soon is None
    witness.received(msgpack.packb(head_at(second, seq).message(first.match_id),
                                   use_bin_type=True), ("127.0.0.10", 1))  # fmt: skip
    witness._judge(first, head_at(second, seq))
    assert len(found) == 1


# -- receiving ------------------------------------------------------------------------


def _datagram(log: MatchLog, head: Head) -> bytes:
    return msgpack.packb(head.message(log.match_id), use_bin_type=True)


def test_a_datagram_of_exactly_the_size_limit_is_read() -> None:
    table, first, second, seq = forked_lobby()
    witness, found, _ = _witness(first, table.peers[1])
    data = _datagram(second, head_at(second, seq))
    padded = msgpack.packb({**head_at(second, seq).message(first.match_id)}, use_bin_type=True)
    assert len(padded) <= MAX_DATAGRAM
    witness.received(data + b"", ("127.0.0.1", 1))
    assert len(found) == 1


def test_heads_ahead_of_the_log_wait_the_latest_few_per_sender() -> None:
    table, first, second, seq = forked_lobby()
    behind = replay(first.entries[:seq])
    witness, found, _ = _witness(behind, table.peers[1])
    ahead = head_at(second, seq)
    for n in range(WAITING_PER_SOURCE + 2):
        witness.received(_datagram(second, Head(seq + n, ahead.head, ahead.hs, 0, ahead.root)),
                         ("127.0.0.1", 1))  # fmt: skip
    witness.received(_datagram(second, ahead), ("127.0.0.1", 2))
    assert [h.seq for h in witness._sources[("127.0.0.1", 1)]] == [
        seq + n for n in range(2, WAITING_PER_SOURCE + 2)
    ]
    behind.apply(first.entries[seq])
    witness._transport = None
    witness.changed()
    assert len(found) == 1 and found[0].theirs == ahead  # the one from port 2: kept till then
    assert not witness._sources  # a fork found: nothing waits any more


def test_the_senders_tracked_are_the_latest_few_hundred() -> None:
    table, first, second, seq = forked_lobby()
    behind = replay(first.entries[:seq])
    witness, _, _ = _witness(behind, table.peers[1])
    ahead = _datagram(second, head_at(second, seq))
    for port in range(MAX_SOURCES + 3):
        witness.received(ahead, (f"10.0.{port // 200}.{port % 200}", port))
    assert len(witness._sources) == MAX_SOURCES
    assert next(iter(witness._sources)) == ("10.0.0.3", 3)
    witness.received(ahead, ("10.0.0.3", 3))  # heard again: the latest
    assert list(witness._sources)[-1] == ("10.0.0.3", 3)


def test_an_address_gets_a_burst_then_its_rate() -> None:
    table, first, _, _ = forked_lobby()
    clock = [0.0]
    witness, _, _ = _witness(first, table.peers[1], clock)
    taken = sum(witness._take("a") for _ in range(int(BURST) + 10))
    assert taken == BURST
    clock[0] += 1.0
    assert sum(witness._take("a") for _ in range(int(RATE) + 10)) == RATE
    clock[0] += 1000.0
    assert sum(witness._take("a") for _ in range(int(BURST) + 10)) == BURST  # capped
    clock[0] += 0.5 / RATE
    assert not witness._take("a")
    clock[0] += 0.5 / RATE
    assert witness._take("a")


def test_the_addresses_whose_rate_is_tracked_are_the_latest_few_hundred() -> None:
    table, first, _, _ = forked_lobby()
    clock = [0.0]
    witness, _, _ = _witness(first, table.peers[1], clock)
    for _ in range(int(BURST)):
        witness._take("first")
    assert not witness._take("first")
    for n in range(MAX_SOURCES):
        witness._take(f"other {n}")
    assert len(witness._buckets) == MAX_SOURCES
    assert witness._take("first")  # forgotten: a full bucket again


def test_a_datagram_over_the_rate_is_dropped_unread() -> None:
    table, first, second, seq = forked_lobby()
    clock = [0.0]
    witness, found, _ = _witness(first, table.peers[1], clock)
    for _ in range(int(BURST)):
        witness._take("127.0.0.1")
    witness.received(_datagram(second, head_at(second, seq)), ("127.0.0.1", 1))
    assert not found
    clock[0] += 1 / RATE
    witness.received(_datagram(second, head_at(second, seq)), ("127.0.0.1", 1))
    assert found


def test_a_datagram_before_the_match_is_known_is_dropped() -> None:
    table, _first, second, seq = forked_lobby()
    witness, found, _ = _witness(None, table.peers[1])
    witness.received(_datagram(second, head_at(second, seq)), ("127.0.0.1", 1))
    assert not found and not witness._sources


# -- the socket -----------------------------------------------------------------------


def test_a_witness_listens_on_the_listening_sockets_port_and_sends_every_half_second() -> None:
    async def scenario() -> None:
        table, first, second, seq = forked_lobby()
        found: list[Fork] = []
        listener = Witness(table.peers[1], lambda: first, found.append)
        probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
        probe.close()
        await listener.start("127.0.0.1", port)
        assert listener._transport is not None
        assert listener._transport.get_extra_info("sockname")[1] == port
        for number, member in enumerate(second.members.values()):
            member.addr = f"127.0.0.1:{port if number == 1 else 1}"
        sender = Witness(table.peers[2], lambda: second, lambda f: None)
        await sender.start("127.0.0.1", port)  # taken: it sends from another port
        assert sender._transport is not None
        fallback = sender._transport.get_extra_info("sockname")[1]
        assert fallback != port
        third = Witness(table.peers[0], lambda: first, lambda f: None)
        await third.start("127.0.0.1", port)  # a third member whose port is taken starts too
        assert third._transport is not None
        probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        probe.sendto(_datagram(second, head_at(second, seq)), ("127.0.0.1", fallback))
        probe.close()
        for _ in range(200):  # the send-only socket still takes what comes to it
            if sender._buckets:
                break
            await asyncio.sleep(0.01)
        assert list(sender._buckets) == ["127.0.0.1"]
        third.close()
        for _ in range(200):
            if found:
                break
            await asyncio.sleep(0.01)
        assert found and found[0].seq == seq
        sender.close()
        listener.close()
        await asyncio.sleep(0)
        assert sender._task is not None and sender._task.cancelled()
        assert listener._transport.is_closing()
        Witness("x", lambda: None, lambda f: None).close()  # never started: nothing to close

    asyncio.run(asyncio.wait_for(scenario(), 20))


def test_the_periodic_send_repeats_every_half_second(monkeypatch: pytest.MonkeyPatch) -> None:
    import net.witness

    slept: list[float] = []

    class Stop(Exception):  # noqa: N818 - ends the loop
        pass

    async def sleep(seconds: float) -> None:
        slept.append(seconds)
        if len(slept) == 3:
            raise Stop

    async def scenario() -> None:
        table = Table("numeri", 3)
        log = table.logs[1]
        _address(log)
        witness, _, sent = _witness(log, table.peers[1])
        monkeypatch.setattr(net.witness.asyncio, "sleep", sleep)
        with pytest.raises(Stop):
            await witness._every()
        monkeypatch.undo()
        assert slept == [EVERY] * 3 and len(sent.datagrams) == 3 * 2

    asyncio.run(scenario())


def test_a_datagram_is_taken_from_the_address_and_port_it_came_from() -> None:
    from net.witness import _Receiver

    table, first, second, seq = forked_lobby()
    behind = replay(first.entries[:seq])
    witness, _, _ = _witness(behind, table.peers[1])
    _Receiver(witness).datagram_received(_datagram(second, head_at(second, seq)), ("127.0.0.5", 99))
    assert list(witness._sources) == [("127.0.0.5", 99)]
    assert list(witness._buckets) == ["127.0.0.5"]
    _Receiver(witness).error_received(OSError("unreachable"))  # nothing to do: sent again later


def test_a_datagram_over_the_size_limit_costs_nothing_one_at_it_a_token() -> None:
    table, first, _, _ = forked_lobby()
    witness, found, _ = _witness(first, table.peers[1])
    witness.received(b"\x00" * (MAX_DATAGRAM + 1), ("10.0.0.1", 1))
    assert not witness._buckets  # dropped unread, before the rate
    witness.received(b"\x00" * MAX_DATAGRAM, ("10.0.0.2", 1))
    assert list(witness._buckets) == ["10.0.0.2"] and not found  # read (junk: dropped)


def test_a_head_waits_until_its_own_entry_is_in_and_is_judged_then() -> None:
    """Two entries behind: the first entry in leaves the head waiting (its position is not
    held yet), the second has it judged; a sender's waiting heads survive the judging."""
    table, first, second, seq = forked_lobby()
    behind = replay(first.entries[: seq - 1])
    witness, found, _ = _witness(behind, table.peers[1])
    witness._transport = None
    theirs = head_at(second, seq)
    later = Head(seq + 5, theirs.head, theirs.hs, 0, theirs.root)
    witness.received(_datagram(second, theirs), ("127.0.0.1", 1))
    witness.received(_datagram(second, later), ("127.0.0.1", 1))
    behind.apply(first.entries[seq - 1])
    witness.changed()
    assert not found and [h.seq for h in witness._sources[("127.0.0.1", 1)]] == [seq, seq + 5]
    behind.apply(first.entries[seq])
    witness.changed()
    assert len(found) == 1 and found[0].theirs == theirs


def test_a_sender_whose_heads_were_judged_is_still_heard() -> None:
    table, first, second, seq = forked_lobby()
    behind = replay(first.entries[: seq - 1])
    witness, found, _ = _witness(behind, table.peers[1])
    witness._transport = None
    witness.received(_datagram(second, head_at(second, seq - 1)), ("127.0.0.1", 1))
    behind.apply(first.entries[seq - 1])
    witness.changed()  # judged: the same head, no fork
    assert witness._sources[("127.0.0.1", 1)] == []
    behind.apply(first.entries[seq])
    witness.received(_datagram(second, head_at(second, seq)), ("127.0.0.1", 1))
    assert len(found) == 1


def test_a_member_at_an_ipv6_address_is_sent_its_heads_there() -> None:
    table = Table("numeri", 3)
    log = table.logs[1]
    _address(log)
    log.members[table.peers[0]].addr = "fe80::1:5000"
    witness, _, sent = _witness(log, table.peers[1])
    witness.send()
    assert [address for _, address in sent.datagrams] == [("fe80::1", 5000), ("127.0.0.3", 5002)]


def test_a_head_at_the_next_position_keeps_waiting_while_an_earlier_one_is_judged() -> None:
    table, first, second, seq = forked_lobby()
    behind = replay(first.entries[: seq - 1])
    witness, found, _ = _witness(behind, table.peers[1])
    witness._transport = None
    for position in (seq - 1, seq):
        witness.received(_datagram(second, head_at(second, position)), ("127.0.0.1", 1))
    behind.apply(first.entries[seq - 1])
    witness.changed()  # seq - 1 judged (the same), seq still waits for its entry
    assert [h.seq for h in witness._sources[("127.0.0.1", 1)]] == [seq]
    behind.apply(first.entries[seq])
    witness.changed()
    assert len(found) == 1


def test_the_head_of_a_new_entry_is_sent_when_the_timer_fires(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import types

    import net.witness

    later: list[tuple[float, Any]] = []

    class Loop:
        def call_later(self, delay: float, callback: Any) -> object:
            later.append((delay, callback))
            return object()

    table = Table("numeri", 3)
    log = table.logs[1]
    _address(log)
    witness, _, sent = _witness(log, table.peers[1])
    monkeypatch.setattr(net.witness, "asyncio", types.SimpleNamespace(get_running_loop=Loop))
    witness.changed()
    ((delay, callback),) = later
    assert delay == SOON and sent.datagrams == []
    callback()
    assert len(sent.datagrams) == 2 and witness._soon is None
