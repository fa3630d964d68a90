"""The guest's side (net/following.py) in process: the answer to its proof, then every entry
its host relays — applied, or the host caught breaking the log and no longer followed
(docs/PROTOCOL.md §4.2, §6.5) — on logs made by :class:`tests.net_helpers.Table`, lines fed
by hand and a clock turned by hand.  The hello and the proofs are net/door.py's
(tests/test_door_rules.py)."""

from __future__ import annotations

import asyncio
import types
from typing import Any

import pytest

import net.door
import net.following
from net.connection import HANDSHAKE_TIMEOUT, Closed
from net.door import CATCH_UP_PER_ENTRY
from net.following import FORK_LINGER, Untrustworthy
from net.matchlog import MatchLog, placed, replay, signed
from net.role import Role
from net.witness import Fork, head_at
from tests.net_helpers import Table
from tests.role_fakes import Clock, Line, peer_at


def _run(coroutine: Any) -> Any:
    return asyncio.run(asyncio.wait_for(coroutine, 20))


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    clock = Clock()
    monkeypatch.setattr(net.following, "time", clock.namespace())
    monkeypatch.setattr(net.door, "time", clock.namespace())
    return clock


@pytest.fixture
def presented(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, ...]]:
    """net.door.present as the guest side calls it: recorded, the host taken as proven."""
    calls: list[tuple[Any, ...]] = []

    async def present(*args: Any) -> None:
        calls.append(args)

    monkeypatch.setattr(net.following, "present", present)
    return calls


def _welcome(table: Table, seq: int) -> dict[str, Any]:
    return {"t": "welcome", "match": table.log.match_id, "you": table.peers[1],
            "host": table.peers[0], "seq": seq}  # fmt: skip


# -- the handshake ----------------------------------------------------------------------


def test_a_newcomer_presents_its_wish_and_takes_the_welcome(
    clock: Clock, presented: list[tuple[Any, ...]]
) -> None:
    table = Table("dama")
    guest, seen = peer_at(table, 1, role=Role.IDLE)
    guest.log = None
    guest.config.name = "n" * 50
    guest.config.code = "4711"
    guest.listen_port = 7777
    line = Line()
    line.inbox = [{"t": "wait", "reason": "2 of 3"}, _welcome(table, 4)]
    _run(guest.guest_side.handshake(line, b"k" * 32, b"v" * 64))  # type: ignore[arg-type]
    (args,) = presented
    assert args[1:] == (
        guest.identity, ("n" * 40, "player", -1), 7777, None, 0, b"k" * 32, "4711", b"v" * 64,
    )  # fmt: skip
    assert seen.of("voted") == [{"count": "2 of 3"}]
    assert guest.guest_side.upstream is line and line.peer == table.peers[0]
    assert guest.guest_side.history_until == 4
    assert guest.guest_side._history_by == clock.now + HANDSHAKE_TIMEOUT + 4 * CATCH_UP_PER_ENTRY


def test_a_member_says_how_much_it_holds_and_catches_the_host_up_when_asked(
    clock: Clock, presented: list[tuple[Any, ...]]
) -> None:
    table = Table("dama")
    guest, _ = peer_at(table, 1)
    held = len(table.log)
    line = Line()
    line.inbox = [{"t": "want", "from": 2}, _welcome(table, held + 3)]
    _run(guest.guest_side.handshake(line))  # type: ignore[arg-type]
    assert presented[0][4] is guest.log and presented[0][5] == held  # its log, and how much
    assert line.sent == [
        {"t": "push", "seq": seq, "e": table.log.entries[seq]} for seq in range(2, held)
    ]
    # only the entries beyond its own are owed by the deadline
    assert guest.guest_side._history_by == clock.now + HANDSHAKE_TIMEOUT + 3 * CATCH_UP_PER_ENTRY
    _run(guest.guest_side.handshake(Line(), rebase=True) if False else asyncio.sleep(0))
    line = Line()
    line.inbox = [_welcome(table, held)]
    _run(guest.guest_side.handshake(line, rebase=True))  # type: ignore[arg-type]
    assert presented[1][5] == 0  # rebasing: it takes the host's log from the start


def test_a_host_that_answers_the_proof_with_anything_but_a_welcome_is_left(
    clock: Clock, presented: list[tuple[Any, ...]]
) -> None:
    table = Table("dama")
    guest, _ = peer_at(table, 1)
    line = Line()
    line.inbox = [{"t": "ping"}]
    with pytest.raises(Closed) as caught:
        _run(guest.guest_side.handshake(line))  # type: ignore[arg-type]
    assert caught.value.reason == "the host answered the proof with something else"
    assert line.closed == "expected a welcome" and guest.guest_side.upstream is None


def test_a_want_with_no_log_pushes_nothing() -> None:
    table = Table("dama")
    guest, _ = peer_at(table, 1)
    guest.log = None
    line = Line()
    guest.guest_side._push_from(line, 0)  # type: ignore[arg-type]
    assert line.sent == []


# -- following --------------------------------------------------------------------------


def _fresh_guest(table: Table, clock: Clock) -> tuple[Any, Any, Line]:
    """Peer p2 that has just been welcomed with the table's whole log owed to it."""
    guest, seen = peer_at(table, 1)
    guest.log = None
    guest.guest_side.history_until = len(table.log)
    guest.guest_side._history_by = clock.now + 100
    line = Line(table.peers[0])
    guest.guest_side.upstream = line  # type: ignore[assignment]
    guest.sought = []  # type: ignore[attr-defined]

    async def seek() -> None:  # the election's: tests/test_election_side.py
        guest.sought.append(True)  # type: ignore[attr-defined]

    guest.election.seek = seek  # type: ignore[method-assign]
    return guest, seen, line


def _entries(table: Table, start: int = 0) -> list[dict[str, Any]]:
    return [
        {"t": "entry", "seq": s, "e": table.log.entries[s]} for s in range(start, len(table.log))
    ]


def test_a_guest_applies_what_the_host_relays_and_stops_when_the_match_is_over(
    clock: Clock,
) -> None:
    table = Table("dama")
    table.start()
    for peer in table.peers:
        table.put({"k": "offer", "peer": peer, "ply": 0})
    guest, seen, line = _fresh_guest(table, clock)
    line.inbox = [*_entries(table), {"t": "want", "from": len(table.log) - 1},
                  {"t": "reject", "kind": "act", "reason": "no"}]  # fmt: skip
    _run(guest.guest_side.follow(line))  # type: ignore[arg-type]
    assert guest.log is not None and guest.log.heads == table.log.heads
    assert seen.of("match") == [{"match": table.log.match_id}]
    pushes = [m for m in line.sent if m["t"] == "push"]
    assert pushes == [{"t": "push", "seq": len(table.log) - 1, "e": table.log.entries[-1]}]
    assert seen.of("rejected") == [{"kind": "act", "reason": "no"}]
    assert guest.finished.is_set() and guest.failure is None
    assert guest.guest_side.upstream is None


def test_a_guest_that_never_got_the_match_says_so(clock: Clock) -> None:
    table = Table("dama")
    guest, seen, line = _fresh_guest(table, clock)
    guest.guest_side._history_by = clock.now + 1
    line.closed = "the host went away"
    line.inbox = []
    clock.now += 0.5
    _run(guest.guest_side.follow(line))  # type: ignore[arg-type]
    assert guest.failure == "no match from the host: the host went away"
    assert seen.of("error") == [{"text": guest.failure}] and guest.finished.is_set()


def test_a_guest_that_loses_its_host_mid_match_seeks_it(clock: Clock) -> None:
    table = Table("dama")
    guest, seen = peer_at(table, 1)
    line = Line(table.peers[0])
    line.closed = "connection reset"
    guest.guest_side.upstream = line  # type: ignore[assignment]
    sought: list[bool] = []

    async def seek() -> None:
        sought.append(True)

    guest.election.seek = seek  # type: ignore[method-assign]
    _run(guest.guest_side.follow(line))  # type: ignore[arg-type]
    assert sought == [True] and seen.of("notice") == [{"text": "lost the host: connection reset"}]
    assert guest.guest_side.upstream is None and not guest.finished.is_set()
    other = Line()
    guest.guest_side.upstream = other  # type: ignore[assignment]
    _run(guest.guest_side.follow(line))  # type: ignore[arg-type]
    assert guest.guest_side.upstream is other  # an old line's end leaves the new one


@pytest.mark.parametrize("why", ["finished", "fork"])
def test_a_guest_that_finished_or_caught_a_fork_does_not_seek(why: str, clock: Clock) -> None:
    table = Table("dama")
    guest, seen = peer_at(table, 1)
    if why == "finished":
        guest.finished.set()
    else:
        guest.witness.proof = object()  # type: ignore[assignment]

    async def seek() -> None:
        raise AssertionError("sought")

    guest.election.seek = seek  # type: ignore[method-assign]
    _run(guest.guest_side.follow(Line()))  # type: ignore[arg-type]
    assert seen.events == []


def test_a_guest_whose_match_is_over_stops_when_its_host_goes(clock: Clock) -> None:
    table = Table("dama")
    table.start()
    for peer in table.peers:
        table.put({"k": "offer", "peer": peer, "ply": 0})
    guest, seen = peer_at(table, 1)
    _run(guest.guest_side.follow(Line()))  # type: ignore[arg-type]
    assert guest.finished.is_set() and guest.failure is None and seen.events == []


def _stopped(guest: Any, seen: Any, line: Line, reason: str) -> None:
    _run(guest.guest_side.follow(line))  # type: ignore[arg-type]
    assert guest.failure == reason
    assert seen.of("error")[-1] == {"text": reason}
    assert line.closed == reason and guest.finished.is_set()


def test_a_host_that_announces_history_and_sends_it_late_is_not_followed(clock: Clock) -> None:
    table = Table("dama")
    guest, seen, _line = _fresh_guest(table, clock)
    guest.guest_side.history_until = len(table.log) + 5
    guest.guest_side._history_by = clock.now + 10

    class Late(Line):
        async def receive_by(self, deadline: float) -> dict[str, Any]:
            assert deadline == guest.guest_side._history_by
            if self.inbox:
                return await self.receive()
            clock.now = deadline
            raise Closed("timed out")

    late = Late(table.peers[0])
    late.inbox = _entries(table)
    _stopped(guest, seen, late,
             f"the host announced {len(table.log) + 5} log entries and sent {len(table.log)} in "
             "time: it cannot be trusted")  # fmt: skip


def test_a_host_that_announces_history_and_sends_none_of_it_is_not_followed(clock: Clock) -> None:
    table = Table("dama")
    guest, seen, _ = _fresh_guest(table, clock)
    guest.guest_side.history_until = 4

    class Silent(Line):
        async def receive_by(self, deadline: float) -> dict[str, Any]:
            clock.now = deadline
            raise Closed("timed out")

    reason = "the host announced 4 log entries and sent 0 in time: it cannot be trusted"
    _stopped(guest, seen, Silent(table.peers[0]), reason)


def test_a_line_lost_before_the_deadline_is_a_lost_host_not_a_lie(clock: Clock) -> None:
    table = Table("dama")
    guest, _, line = _fresh_guest(table, clock)
    guest.guest_side.history_until = 99
    guest.guest_side._history_by = clock.now + 10
    line.inbox = _entries(table)
    clock.now += 9.99
    with pytest.raises(Closed):
        _run(guest.guest_side._relayed(line))  # type: ignore[arg-type]
        _run(guest.guest_side._relayed(Line()))  # type: ignore[arg-type]
    assert guest.failure is None


def test_a_guest_caught_up_reads_without_a_deadline(clock: Clock) -> None:
    table = Table("dama")
    guest, _ = peer_at(table, 1)

    class NoDeadline(Line):
        async def receive_by(self, deadline: float) -> dict[str, Any]:
            raise AssertionError("a deadline")

    line = NoDeadline()
    line.inbox = [{"t": "ping"}]
    assert _run(guest.guest_side._relayed(line)) == {"t": "ping"}  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("case", "reason"),
    [
        ("no match first", "the host's log does not begin with the match"),
        ("skipped", "the host skipped log entries (2 to 2)"),
        ("bad entry", "the host relayed an entry that does not check out (entry 2, ready): "),
        ("bad match", "the host's match cannot be played here: "),
    ],
)
def test_a_host_that_breaks_the_log_is_not_followed(case: str, reason: str, clock: Clock) -> None:
    table = Table("dama")
    guest, _seen, line = _fresh_guest(table, clock)
    entries = _entries(table)
    if case == "no match first":
        line.inbox = entries[1:]
    elif case == "skipped":
        line.inbox = entries[:2] + entries[3:]
    elif case == "bad entry":
        forged = {**table.log.entries[2], "k": "ready", "ready": True}
        line.inbox = [*entries[:2], {"t": "entry", "seq": 2, "e": forged}]
    else:
        line.inbox = [{"t": "entry", "seq": 0, "e": {**table.log.entries[0], "chain": 0}}]
    _run(guest.guest_side.follow(line))  # type: ignore[arg-type]
    assert guest.failure is not None and guest.failure.startswith(reason)
    assert len(guest.failure) > len(reason) or not reason.endswith(": ")
    assert line.closed == guest.failure and guest.finished.is_set()


def test_entries_already_held_are_skipped(clock: Clock) -> None:
    table = Table("dama")
    guest, _ = peer_at(table, 1)
    held = len(guest.log)
    guest.guest_side._apply_relayed(1, table.log.entries[1])
    guest.guest_side._apply_relayed(0, table.log.entries[0])
    assert len(guest.log) == held


def _leave_me(table: Table) -> dict[str, Any]:
    log = table.log
    host = table.identities[0]
    leave = {"k": "leave", "peer": table.peers[1], "reason": "connection lost"}
    return placed(log, host, signed(log, host, leave, log.next_n(host.peer)))


def test_a_host_that_logs_this_guest_gone_while_it_listens_is_not_followed(clock: Clock) -> None:
    table = Table("dama")
    guest, seen, line = _fresh_guest(table, clock)
    line.inbox = [*_entries(table), {"t": "entry", "seq": len(table.log), "e": _leave_me(table)}]
    _stopped(guest, seen, line, "the host logged this player as gone while it was connected: "
             "it cannot be trusted with this match")  # fmt: skip


def test_a_leave_in_the_history_or_before_the_guests_join_is_no_lie(clock: Clock) -> None:
    table = Table("dama")
    history = Table("dama")
    history.put(_strip(_leave_me(history)))
    history.put(_strip(history.join_entry(history.identities[1], "p2")))
    # the history: p2 left and came back; announced at the welcome
    guest, _seen, line = _fresh_guest(history, clock)
    line.inbox = _entries(history)
    _run(guest.guest_side.follow(line))  # type: ignore[arg-type]
    assert guest.failure is None and guest.log is not None and len(guest.log) == len(history.log)
    # after the welcome, a leave of an earlier join of this peer relayed live is a lie
    guest2, _, line2 = _fresh_guest(table, clock)
    guest2.guest_side.history_until = 0
    line2.inbox = [*_entries(table), {"t": "entry", "seq": len(table.log), "e": _leave_me(table)}]
    _run(guest2.guest_side.follow(line2))  # type: ignore[arg-type]
    assert guest2.failure is not None and "gone while it was connected" in guest2.failure
    del table


def _strip(entry: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in entry.items() if k not in ("sig", "hs", "n", "at")}


def test_the_guests_own_join_after_the_welcome_marks_where_a_leave_would_be_a_lie(
    clock: Clock,
) -> None:
    """Joined (entry 3 of 4 at the welcome), left and back during the history: live, a host
    may log a leave of its old line no more; the position of its latest join is kept."""
    table = Table("dama")
    table.put(_strip(_leave_me(table)))
    guest, _seen, line = _fresh_guest(table, clock)
    guest.guest_side.history_until = len(table.log)
    line.inbox = _entries(table)
    _run(guest.guest_side.follow(line))  # type: ignore[arg-type]
    assert guest.failure is None
    rejoin = table.join_entry(table.identities[1], "p2")
    table.put(rejoin)
    guest.guest_side._apply_relayed(len(table.log) - 1, table.log.entries[-1])
    assert guest.guest_side._joined_seq == len(table.log) - 1


def test_relayed_entries_are_told_and_acted_on(clock: Clock) -> None:
    table = Table("dama")
    table.start()
    guest, _seen = peer_at(table, 1, role=Role.FOLLOWING)
    log = replay(table.log.entries[:-1])
    guest.log = log
    applied: list[str] = []
    guest._entry_applied = lambda e: applied.append(e["k"])  # type: ignore[method-assign]
    acted: list[bool] = []
    guest._after_change = lambda: acted.append(True)  # type: ignore[method-assign]
    guest.guest_side._apply_relayed(len(log), table.log.entries[-1])
    assert applied == ["start"] and acted == [True]


def test_nothing_the_host_relays_is_taken_once_it_was_caught_forking(clock: Clock) -> None:
    table = Table("dama")
    table.start()
    guest, _ = peer_at(table, 1)
    guest.log = replay(table.log.entries[:-1])
    guest.witness.proof = object()  # type: ignore[assignment]
    guest.guest_side._apply_relayed(len(guest.log), table.log.entries[-1])
    assert len(guest.log) == len(table.log) - 1


# -- taking a new host's log in place of one's own (§6.5) -----------------------------------


def _rebasing(clock: Clock) -> tuple[Table, Any, MatchLog]:
    """p2's own log holds two entries the old host placed after the others moved on (its
    stale branch); the table's log is the others': a ``host`` entry for p3 at that position."""
    table = Table("numeri", 3)
    stale = replay(list(table.log.entries))
    cut = len(stale)
    host = table.identities[0]
    for n in range(2):
        entry = {"k": "ready", "peer": table.peers[2], "ready": n == 0}
        made = signed(stale, table.identities[2], entry, stale.next_n(table.peers[2]))
        stale.apply(placed(stale, host, made))
    del host
    votes = [table.vote(1, 2), table.vote(2, 2)]
    table.put({"k": "host", "peer": table.peers[2], "addr": "", "votes": votes})
    guest, _ = peer_at(table, 1)
    guest.log = None
    guest.guest_side.rebasing = stale
    assert table.log.entries[cut]["k"] == "host"
    return table, guest, stale


def test_a_new_hosts_log_may_part_from_ones_own_only_at_its_host_entry(clock: Clock) -> None:
    table, guest, _stale = _rebasing(clock)
    owed: list[bool] = []
    guest.seats.resend_after_host_change = lambda: owed.append(True)  # type: ignore[method-assign]
    for seq in range(len(table.log)):
        guest.guest_side._apply_relayed(seq, table.log.entries[seq])
    assert guest.log is not None and guest.log.heads == table.log.heads
    assert guest.guest_side.rebasing is None
    assert owed == [True]  # what went to the deposed host is owed again, once


def test_a_new_hosts_log_that_parts_anywhere_else_is_a_fork(clock: Clock) -> None:
    table, guest, stale = _rebasing(clock)
    other = Table("numeri", 3)
    cut = len(other.log)
    other.put({"k": "ready", "peer": other.peers[2], "ready": True})
    guest.guest_side.rebasing = replay(list(other.log.entries))  # the same first entries? no
    guest.guest_side.rebasing = stale
    changed = {**table.log.entries[cut], "k": "ready"}
    for seq in range(cut):
        guest.guest_side._apply_relayed(seq, table.log.entries[seq])
    with pytest.raises(Untrustworthy, match=f"forks from this peer's at entry {cut + 1}"):
        guest.guest_side._apply_relayed(cut, changed)


def test_a_new_hosts_log_longer_than_ones_own_ends_the_rebase(clock: Clock) -> None:
    table, guest, _stale = _rebasing(clock)
    short = replay(list(table.log.entries[:3]))
    guest.guest_side.rebasing = short
    for seq in range(3):
        guest.guest_side._apply_relayed(seq, table.log.entries[seq])
    assert guest.guest_side.rebasing is short  # all the same so far: still comparing
    guest.guest_side._apply_relayed(3, table.log.entries[3])
    assert guest.guest_side.rebasing is None


# -- a fork caught by the witness -----------------------------------------------------------


def test_a_fork_stops_the_guest_after_the_proof_went_out(
    clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = Table("numeri", 3)
    twin = replay(list(table.log.entries))
    fork = Fork(table.log.match_id, 1, b"k" * 32, head_at(table.log, 1), head_at(twin, 1))
    later: list[tuple[float, Any]] = []

    class Loop:
        def call_later(self, delay: float, callback: Any) -> None:
            later.append((delay, callback))

    async def scenario() -> None:
        guest, seen = peer_at(table, 1)
        line = Line()
        guest.guest_side.upstream = line  # type: ignore[assignment]
        monkeypatch.setattr(net.following, "asyncio", types.SimpleNamespace(get_running_loop=Loop))
        guest.guest_side.forked(fork)
        assert guest.failure == fork.reason and seen.of("fork") == [fork.event()]
        await asyncio.sleep(0)
        assert line.closed == fork.reason and not guest.finished.is_set()
        assert later == [(FORK_LINGER, guest.finished.set)]
        lone, _ = peer_at(table, 2)
        lone.guest_side.forked(fork)  # no line to the host: only the stop
        assert len(later) == 2

    _run(scenario())


def test_a_guest_back_with_its_own_log_takes_its_leave_and_join_in_the_history(
    clock: Clock,
) -> None:
    """Its line was lost: the host logged it gone, then back; on its return both are in the
    history the welcome announced, never a lie."""
    table = Table("dama")
    guest, _ = peer_at(table, 1, log=replay(list(table.log.entries)))
    held = len(guest.log)
    table.put(_strip(_leave_me(table)))
    table.put(_strip(table.join_entry(table.identities[1], "p2")))
    guest.guest_side.history_until = len(table.log)
    for seq in range(held, len(table.log)):
        guest.guest_side._apply_relayed(seq, table.log.entries[seq])
    assert guest.log.heads == table.log.heads and guest.failure is None
