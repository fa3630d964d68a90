"""The witness's judgement, pure: a signed head against a log (docs/PROTOCOL.md §6.7).

Logs are made in process (:class:`tests.net_helpers.Table`); a fork is a host placing two
different entries at one position of two copies, a take-over is a ``host`` entry with the
votes of a majority.  Nothing here opens a socket but the last tests, which feed datagrams to
a :class:`Witness` by hand."""

from __future__ import annotations

import msgpack
import pytest

from net import records
from net.__main__ import main
from net.matchlog import MatchLog, replay
from net.witness import BURST, MAX_DATAGRAM, Fork, Head, Witness, check_proof, head_at, judge
from tests.net_helpers import Table, forked_lobby


def test_two_heads_the_host_signed_at_one_position_are_a_fork_either_way() -> None:
    table, first, second, seq = forked_lobby()
    for ours, theirs in ((first, second), (second, first)):
        fork = judge(ours, head_at(theirs, seq))
        assert isinstance(fork, Fork)
        assert fork.seq == seq and fork.key == table.identities[0].key
        assert fork.ours == head_at(ours, seq) and fork.theirs == head_at(theirs, seq)
        assert check_proof(fork.to_record()) is None
        assert f"entry {seq + 1}" in fork.reason


def test_the_same_head_an_earlier_one_or_one_not_held_yet_is_no_fork() -> None:
    _, first, second, seq = forked_lobby()
    assert judge(first, head_at(first, seq)) is None
    assert judge(first, head_at(second, seq - 1)) is None  # before the fork: the same
    ahead = Head(len(first), head_at(second, seq).head, head_at(second, seq).hs, 0, "00" * 16)
    assert judge(first, ahead) is None  # the caller keeps it until the entry arrives


def test_a_head_not_signed_by_the_placing_host_proves_nothing() -> None:
    table, first, second, seq = forked_lobby()
    theirs = head_at(second, seq)
    guest = table.identities[1]
    from net.signing import order_payload

    by_a_guest = guest.sign(order_payload(first.match_id, seq, bytes.fromhex(theirs.head)))
    moved = head_at(second, seq - 1)  # a real host signature, of another position
    for forged in (
        Head(seq, theirs.head, by_a_guest, theirs.since, theirs.root),
        Head(seq, theirs.head, moved.hs, theirs.since, theirs.root),
        Head(seq, theirs.head, bytes(64), theirs.since, theirs.root),
        Head(seq, "ab" * 16, theirs.hs, theirs.since, theirs.root),
        Head(seq, theirs.head, theirs.hs, seq + 1, theirs.root),  # a reign after it
    ):
        assert judge(first, forged) is None


def _deposed_and_reelected() -> tuple[Table, MatchLog, MatchLog, int, int]:
    """The host (p1) is cut off and places six entries the others never see (``stale``);
    the others vote p2 in (a ``host`` entry), p1 rejoins, and is voted in again: from then
    on p1 places entries at positions where its stale ones lie, with other heads."""
    table = Table("numeri", 3)
    main_log, stale = table.logs[0], table.logs[1]
    p1, p2, p3 = table.peers
    cut = len(main_log)
    for n in range(6):
        stale.apply(table.seal({"k": "ready", "peer": p2, "ready": n % 2 == 0}, stale))
    takeover = {"k": "host", "peer": p2, "addr": "", "votes": [table.vote(1, 1), table.vote(2, 1)]}
    sealed = table.seal(takeover, main_log)
    for log in (main_log, table.logs[2]):
        log.apply(dict(sealed))
    main_log.apply(table.seal(table.join_entry(table.identities[0], "p1"), main_log))
    back = {"k": "host", "peer": p1, "addr": "", "votes": [table.vote(0, 0), table.vote(2, 0)]}
    main_log.apply(table.seal(back, main_log))
    reelected = len(main_log) - 1
    for n in range(3):
        main_log.apply(table.seal({"k": "ready", "peer": p3, "ready": n % 2 == 1}, main_log))
    return table, main_log, stale, cut, reelected


def test_a_takeover_is_no_fork_not_even_once_the_deposed_host_is_voted_in_again() -> None:
    """The deposed host's dropped entries (§6.5) and the new host's differ at every position
    after the ``host`` entry; after its re-election the old host signs the same positions
    again.  Another reign, never a fork — without the reign in the witness it would be."""
    table, main_log, stale, cut, reelected = _deposed_and_reelected()
    assert main_log.host == stale.host == table.peers[0]
    for seq in range(cut, len(stale)):
        assert judge(main_log, head_at(stale, seq)) is None
        assert judge(stale, head_at(main_log, seq)) is None
    clash = reelected + 1  # both signed by p1, different heads
    theirs = head_at(stale, clash)
    assert theirs.head != main_log.heads[clash]
    lying = Head(clash, theirs.head, theirs.hs, head_at(main_log, clash).since,
                 head_at(main_log, clash).root)  # fmt: skip
    assert judge(main_log, lying) is not None  # what the reign alone rules out (§11.2)


def test_a_record_with_a_fork_proof_does_not_verify_and_says_why(tmp_path) -> None:
    _, first, second, seq = forked_lobby()
    fork = judge(first, head_at(second, seq))
    assert fork is not None
    report = records.verify(first.entries, fork=fork.to_record())
    assert not report["ok"] and report["fork"]["entry"] == seq + 1
    assert report["fork"]["here"] == first.heads[seq]
    assert report["fork"]["other"] == second.heads[seq]
    assert f"two different logs at entry {seq + 1}" in report["error"]
    bad = {**fork.to_record(), "hs": [fork.ours.hs, fork.ours.hs]}
    assert "does not hold" in records.verify(first.entries, fork=bad)["error"]
    assert records.verify(first.entries)["ok"]  # the log alone is valid: that is the trap


def test_verify_two_records_names_the_fork(tmp_path, capsys) -> None:
    table, first, second, seq = forked_lobby()
    a, b = tmp_path / "a.tavolo-net", tmp_path / "b.tavolo-net"
    records.save(a, first)
    records.save(b, second)
    assert main(["verify", str(a)]) == 0
    assert main(["verify", str(a), str(b)]) == 1
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert f"a fork at entry {seq + 1}" in last and table.identities[0].fingerprint in last
    assert f"{a} holds {first.heads[seq]}" in last and f"{b} holds {second.heads[seq]}" in last
    records.save(b, first)
    assert main(["verify", str(a), str(b)]) == 0


def test_verify_two_records_of_a_takeover_finds_no_fork(tmp_path, capsys) -> None:
    _, main_log, stale, cut, _ = _deposed_and_reelected()
    a, b = tmp_path / "a.tavolo-net", tmp_path / "b.tavolo-net"
    records.save(a, main_log)
    records.save(b, stale)
    assert main(["verify", str(a), str(b)]) == 0
    assert f"part at entry {cut + 1}, where a new host took over" in capsys.readouterr().out


class _Sent:
    def __init__(self) -> None:
        self.datagrams: list[tuple[bytes, tuple[str, int]]] = []

    def sendto(self, data: bytes, address: tuple[str, int]) -> None:
        self.datagrams.append((data, address))


def _witness(log: MatchLog, me: str, clock: list[float]) -> tuple[Witness, list[Fork]]:
    found: list[Fork] = []
    witness = Witness(me, lambda: log, found.append, clock=lambda: clock[0])
    witness._transport = _Sent()  # type: ignore[assignment]
    return witness, found


def _datagram(log: MatchLog, head: Head) -> bytes:
    return msgpack.packb(head.message(log.match_id), use_bin_type=True)


def test_a_witness_finds_the_fork_in_one_datagram_and_sends_both_heads_on() -> None:
    table, first, second, seq = forked_lobby()
    witness, found = _witness(first, table.peers[1], [0.0])
    for number, member in enumerate(first.members.values()):
        member.addr = f"127.0.0.1:{5000 + number}"  # the Table's joins name no address
    witness.received(_datagram(second, head_at(second, seq)), ("127.0.0.1", 4000))
    assert len(found) == 1 and found[0].seq == seq
    sent = witness._transport.datagrams  # type: ignore[union-attr]
    heads = {msgpack.unpackb(data)["head"] for data, _ in sent}
    assert heads == {first.heads[seq], second.heads[seq]}  # to the others, to judge too


def test_a_head_ahead_of_the_log_waits_for_its_entry() -> None:
    table, first, second, seq = forked_lobby()
    behind = MatchLog(first.entries[0])
    for entry in first.entries[1:seq]:
        behind.apply(entry)
    witness, found = _witness(behind, table.peers[1], [0.0])
    witness.received(_datagram(second, head_at(second, seq)), ("127.0.0.1", 4000))
    assert not found
    behind.apply(first.entries[seq])
    witness._transport = None  # nothing to send (that needs a loop): judging is tested
    witness.changed()
    assert len(found) == 1


def test_junk_floods_and_other_matches_change_nothing() -> None:
    table, first, second, seq = forked_lobby()
    clock = [0.0]
    witness, found = _witness(first, table.peers[1], clock)
    good = head_at(second, seq)
    other = {**good.message(first.match_id), "match": "ab" * 16}
    junk = [
        b"", b"\xc1", b"\x00" * (MAX_DATAGRAM + 1), msgpack.packb({"t": "heads"}),
        msgpack.packb({"t": "bye", "reason": "x"}), msgpack.packb([1, 2, 3]),
        msgpack.packb({**good.message(first.match_id), "seq": -1}),
        msgpack.packb({**good.message(first.match_id), "extra": 1}),
        msgpack.packb(other, use_bin_type=True),
    ]  # fmt: skip
    for data in junk:
        witness.received(data, ("10.0.0.9", 1))
    assert not found
    for _ in range(int(BURST) * 3):  # a flood spends the address's tokens
        witness.received(junk[-1], ("10.0.0.9", 1))
    witness.received(_datagram(second, good), ("10.0.0.9", 2))
    assert not found  # dropped unread: over the rate
    witness.received(_datagram(second, good), ("10.0.0.10", 2))
    assert len(found) == 1  # another address is heard


@pytest.mark.parametrize("heads", [1, 3])
def test_a_proof_with_heads_that_do_not_differ_is_refused(heads: int) -> None:
    proof = {"match": "5a" * 16, "seq": 3, "key": bytes(32), "heads": ["ab" * 16] * heads,
             "hs": [bytes(64)] * heads}  # fmt: skip
    assert check_proof(proof) == "a fork proof holds two different heads"


def test_a_member_that_never_heard_the_other_side_stops_on_the_proof_sent_on() -> None:
    """Carla follows Anna's branch and hears nothing from Bert; Bert caught the fork from
    Anna's head and sends both heads on: Carla finds the fork in them herself."""
    table, first, second, seq = forked_lobby()
    third = replay(list(first.entries))
    bert, found = _witness(second, table.peers[2], [0.0])
    for number, member in enumerate(second.members.values()):
        member.addr = f"127.0.0.1:{5000 + number}"
    bert.received(_datagram(first, head_at(first, seq)), ("127.0.0.1", 4000))
    assert found
    carla, carla_found = _witness(third, table.peers[0], [0.0])
    for data, _ in bert._transport.datagrams:  # type: ignore[union-attr]
        carla.received(data, ("127.0.0.1", 4002))
    assert len(carla_found) == 1 and carla_found[0].theirs.head == second.heads[seq]


def test_a_heads_message_is_checked_field_by_field() -> None:
    from net.messages import MessageError, validate

    _, first, _, seq = forked_lobby()
    good = head_at(first, seq).message(first.match_id)
    assert validate(dict(good)) == good
    for field, bad in (("seq", -1), ("head", "AB" * 16), ("hs", bytes(63)), ("since", True),
                       ("root", None), ("match", "5a" * 15)):  # fmt: skip
        with pytest.raises(MessageError, match=field):
            validate({**good, field: bad})
    with pytest.raises(MessageError, match="missing field 'root'"):
        validate({k: v for k, v in good.items() if k != "root"})
