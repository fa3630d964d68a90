"""The choice of a new host (net/election.py) in process: the guest that lost its host tries
it first, then votes once for its candidate or stands; the candidate takes votes and hosts
with more than half; a host cut off asks the others whether they moved on; a peer that finds
nobody gives up (docs/PROTOCOL.md §6.3–§6.6).  On logs made by
:class:`tests.net_helpers.Table`, with lines, a clock and sleeps of the test's own."""

from __future__ import annotations

import asyncio
import types
from collections.abc import Callable
from typing import Any

import pytest

import net.election
import net.hosting
from net.connection import Closed
from net.door import DIVERGED
from net.election import RETRY_EVERY, SAME_HOST_FIRST
from net.identity import verify
from net.role import Role
from net.signing import vote_payload
from tests.net_helpers import Table
from tests.role_fakes import Clock, Line, peer_at


def _run(coroutine: Any) -> Any:
    return asyncio.run(asyncio.wait_for(coroutine, 20))


class _Time:
    """``time`` and ``asyncio`` for net/election.py: a sleep turns the clock, nothing waits;
    a read with a timeout that nothing answers at once times out."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.slept: list[float] = []
        self.timeouts: list[float] = []
        self.monotonic = clock.monotonic
        self.shield = asyncio.shield

    async def wait_for(self, awaitable: Any, timeout: float) -> Any:
        self.timeouts.append(timeout)
        future = asyncio.ensure_future(awaitable)
        for _ in range(5):
            await asyncio.sleep(0)
            if future.done():
                return future.result()
        future.cancel()
        raise TimeoutError

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.clock.now += seconds
        await asyncio.sleep(0)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> _Time:
    fake = _Time(Clock())
    monkeypatch.setattr(net.election, "time", fake)
    monkeypatch.setattr(net.election, "asyncio", fake)
    monkeypatch.setattr(net.hosting, "time", fake.clock.namespace())
    return fake


def _addressed(table: Table) -> Table:
    for n, member in enumerate(table.log.members.values()):
        member.addr = f"10.0.0.{n + 1}:{7000 + n}"
    for log in table.logs[1:]:
        for n, member in enumerate(log.members.values()):
            member.addr = f"10.0.0.{n + 1}:{7000 + n}"
    return table


def _playing(players: int = 3) -> Table:
    table = Table("numeri", players)
    table.start()
    table.settle_dice()
    return _addressed(table)


# -- the guest that lost its host -------------------------------------------------------


class _Reach:
    """``Election.reach`` played by the test: the targets tried, and who answers."""

    def __init__(self, answers: dict[str, bool] | None = None) -> None:
        self.tried: list[tuple[str, str | None]] = []
        self.answers = answers or {}

    async def __call__(
        self, target: str, vote_against: str | None = None, stepping_down: bool = False
    ) -> bool:
        self.tried.append((target, vote_against))
        return self.answers.get(target, False)


def test_a_guest_that_lost_its_host_tries_it_first_for_six_seconds(clock: _Time) -> None:
    table = _playing()
    guest, seen = peer_at(table, 2)
    reach = _Reach({table.peers[0]: False, table.peers[1]: True})
    guest.election.reach = reach  # type: ignore[method-assign]
    _run(guest.election.seek())
    old, candidate = table.peers[0], table.peers[1]
    tries = int(SAME_HOST_FIRST // RETRY_EVERY)
    assert reach.tried == [(old, None)] * tries + [(candidate, old)]
    assert clock.slept == [RETRY_EVERY] * tries
    assert guest.role is Role.SEEKING and seen.of("paused")


def test_a_guest_that_reaches_its_host_again_goes_no_further(clock: _Time) -> None:
    table = _playing()
    guest, _ = peer_at(table, 2)
    reach = _Reach({table.peers[0]: True})
    guest.election.reach = reach  # type: ignore[method-assign]
    _run(guest.election.seek())
    assert reach.tried == [(table.peers[0], None)] and clock.slept == []


def test_a_voter_whose_candidate_does_not_answer_tries_the_old_host_again_until_cast(
    clock: _Time,
) -> None:
    table = _playing()
    guest, _ = peer_at(table, 2, rejoin_grace=1.0, drop_timeout=1.0, on_drop="end")
    reach = _Reach()
    guest.election.reach = reach  # type: ignore[method-assign]
    _run(guest.election.seek())
    old, candidate = table.peers[0], table.peers[1]
    after = reach.tried[int(SAME_HOST_FIRST // RETRY_EVERY) :]
    assert after[:2] == [(candidate, old), (old, None)]
    guest.election._voted_for = candidate  # the vote went out: never another, and no old host
    reach.tried.clear()
    guest.finished.clear()
    guest._role = Role.FOLLOWING
    _run(guest.election.seek())
    assert (old, None) not in reach.tried[int(SAME_HOST_FIRST // RETRY_EVERY) :]


def test_the_candidate_is_the_first_present_player_in_join_order_but_the_old_host() -> None:
    table = _playing(4)
    guest, _ = peer_at(table, 3)
    election = guest.election
    p1, p2, p3, p4 = table.peers
    assert election._candidate(p1) == p2
    table.put({"k": "leave", "peer": p2, "reason": "gone"})
    assert election._candidate(p1) == p3
    assert election._candidate(p3) == p1
    for p in (p3, p4):
        table.put({"k": "leave", "peer": p, "reason": "gone"})
    assert election._candidate(p1) is None


def test_a_spectator_is_never_a_candidate() -> None:
    table = Table("numeri", 2, seated=False)
    table.put(table.join_entry(table.identities[0], "p1", seat=0))
    table.put(table.join_entry(table.identities[1], "p2", role="spectator"))
    guest, _ = peer_at(table, 1)
    assert guest.election._candidate(table.peers[0]) is None


def test_with_no_candidate_a_guest_keeps_calling_its_old_host(clock: _Time) -> None:
    table = _playing(2)
    table.put({"k": "leave", "peer": table.peers[1], "reason": "x"})  # only the host is present
    guest, _ = peer_at(table, 1)
    tries = int(SAME_HOST_FIRST // RETRY_EVERY)
    reach = _Reach()

    async def answer_late(target: str, vote_against: str | None = None, **_: Any) -> bool:
        reach.tried.append((target, vote_against))
        return len(reach.tried) > tries + 2

    guest.election.reach = answer_late  # type: ignore[method-assign]
    _run(guest.election.seek())
    assert reach.tried == [(table.peers[0], None)] * (tries + 3)


def test_a_guest_that_is_its_own_candidate_stands_and_hosts_once_voted_in(clock: _Time) -> None:
    table = _playing(3)
    guest, seen = peer_at(table, 1)
    reach = _Reach()
    calls = 0

    async def old_host(target: str, vote_against: str | None = None, **_: Any) -> bool:
        nonlocal calls
        calls += 1
        reach.tried.append((target, vote_against))
        if guest.role is Role.STANDING:  # the third player's vote comes in meanwhile
            guest.election._votes[table.peers[2]] = table.vote(2, 1)
            guest.election._count_votes()
        return False

    guest.election.reach = old_host  # type: ignore[method-assign]
    _run(guest.election.seek())
    assert seen.of("standing") == [{"against": table.peers[0]}]
    assert (guest.role is Role.HOSTING and table.log.host == table.peers[1]) or (
        guest.log is not None and guest.log.host == table.peers[1]
    )
    assert guest.log is not None and guest.log.entries[-1]["k"] == "host"
    standing = reach.tried[int(SAME_HOST_FIRST // RETRY_EVERY) :]
    assert standing == [(table.peers[0], None)]  # a candidate still calls the old host


def test_a_guest_that_finds_nobody_gives_up_with_the_reason(clock: _Time) -> None:
    table = _playing()
    guest, seen = peer_at(table, 2, rejoin_grace=3.0, drop_timeout=4.5, on_drop="end")
    guest.election.reach = _Reach()  # type: ignore[method-assign]
    began = clock.clock.now
    _run(guest.election.seek())
    alone = clock.clock.now - began
    assert guest.election.alone_limit() == SAME_HOST_FIRST + 3.0 + 4.5
    assert alone == guest.election.alone_limit()  # a multiple of the retry: exactly then
    assert guest.failure == "found none of the others for 14 s after losing the host"
    assert seen.of("error") == [{"text": guest.failure}] and guest.finished.is_set()


def test_a_guest_told_to_wait_says_once_that_it_found_nobody_and_waits(clock: _Time) -> None:
    table = _playing()
    guest, seen = peer_at(table, 2, rejoin_grace=1.0, drop_timeout=1.0, on_drop="wait")
    reach = _Reach()

    async def never(target: str, vote_against: str | None = None, **_: Any) -> bool:
        if clock.clock.now > 1100:
            guest.finished.set()
        return await reach(target, vote_against)

    guest.election.reach = never  # type: ignore[method-assign]
    _run(guest.election.seek())
    notices = [n["text"] for n in seen.of("notice")]
    assert len(notices) == 1 and notices[0].startswith("found none of the others for 9 s")
    assert guest.failure is None
    assert clock.clock.now > 1100  # it went on calling after it said so


def test_someone_answering_the_call_or_on_a_voters_line_is_company(clock: _Time) -> None:
    table = _playing()
    guest, _ = peer_at(table, 1)
    election = guest.election
    now = clock.clock.now
    assert election._alone_for(now - 10) == 10
    election._answered_at = now - 4
    assert election._alone_for(now - 10) == 4
    election.voters[table.peers[2]] = Line(heard_at=now - 1)  # type: ignore[assignment]
    assert election._alone_for(now - 10) == 1


# -- reaching a peer --------------------------------------------------------------------


class _Net:
    """Connection.open for net/election.py: the addresses tried, what each gives."""

    def __init__(self, handshakes: list[Closed | None] | None = None) -> None:
        self.opened: list[tuple[str, int, float]] = []
        self.lines: list[Line] = []
        self.handshakes = handshakes or []
        self.refuse: Exception | None = None

    async def open(self, host: str, port: int, timeout: float = 5.0) -> Line:
        self.opened.append((host, port, timeout))
        if self.refuse is not None:
            raise self.refuse
        line = Line()
        self.lines.append(line)
        return line


def _reaching(
    monkeypatch: pytest.MonkeyPatch, table: Table, index: int, outcomes: list[Closed | None]
) -> tuple[Any, Any, _Net, list[tuple[Any, ...]], list[Any]]:
    guest, seen = peer_at(table, index)
    net_ = _Net()
    monkeypatch.setattr(net.election, "Connection", net_)
    shakes: list[tuple[Any, ...]] = []

    async def handshake(connection: Any, host_key: Any = None, vote: Any = None,
                        rebase: bool = False) -> None:  # fmt: skip
        shakes.append((connection, host_key, vote, rebase))
        outcome = outcomes.pop(0) if outcomes else None
        if outcome is not None:
            raise outcome

    followed: list[Any] = []

    async def follow(connection: Any) -> None:
        followed.append(connection)

    guest.guest_side.handshake = handshake  # type: ignore[method-assign]
    guest.guest_side.follow = follow  # type: ignore[method-assign]
    return guest, seen, net_, shakes, followed


def test_reaching_the_old_host_again_rejoins_it_where_it_was_last_reached(
    clock: _Time, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def scenario() -> None:
        table = _playing()
        guest, seen, net_, shakes, followed = _reaching(monkeypatch, table, 2, [])
        guest._role = Role.SEEKING
        guest.guest_side.host_address = ("192.168.1.9", "4000")
        guest.election._voted_for = table.peers[1]
        assert await guest.election.reach(table.peers[0])
        assert net_.opened == [("192.168.1.9", 4000, 2.0)]
        assert shakes == [(net_.lines[0], table.identities[0].key, None, False)]
        assert guest.role is Role.FOLLOWING
        assert seen.of("rejoined") == [{"peer": table.peers[0], "name": "p1"}]
        assert guest.guest_side.host_address == ("192.168.1.9", "4000")
        assert guest.election._voted_for is None  # the vote is released
        await asyncio.sleep(0)
        assert followed == [net_.lines[0]]
        assert guest.election._answered_at == clock.clock.now

    _run(scenario())


def test_a_member_at_an_ipv6_address_is_reached_there(
    clock: _Time, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def scenario() -> None:
        table = _playing()
        guest, _, net_, _, _ = _reaching(monkeypatch, table, 2, [])
        guest._role = Role.SEEKING
        guest.log.members[table.peers[1]].addr = "fe80::1:7001"
        assert await guest.election.reach(table.peers[1])
        assert net_.opened == [("fe80::1", 7001, 2.0)]

    _run(scenario())


def test_a_vote_for_the_candidate_is_signed_over_the_whole_log_and_cast_once_sent(
    clock: _Time, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def scenario() -> None:
        table = _playing()
        guest, seen, net_, shakes, _ = _reaching(
            monkeypatch, table, 2, [Closed("connection refused")]
        )
        guest._role = Role.SEEKING
        old, candidate = table.peers[0], table.peers[1]
        assert not await guest.election.reach(candidate, vote_against=old)
        assert net_.opened == [("10.0.0.2", 7001, 2.0)]
        vote = shakes[0][2]
        log = table.log
        payload = vote_payload(log.match_id, old, candidate, len(log), log.head_bytes(len(log)))
        assert verify(table.identities[2].key, payload, vote)
        assert guest.election._voted_for == candidate  # cast: never another
        assert guest.role is Role.SEEKING
        assert await guest.election.reach(candidate, vote_against=old)
        assert seen.of("host") == [{"peer": candidate, "name": "p2"}]

    _run(scenario())


@pytest.mark.parametrize(
    "reason", ["released: the host is back, reconnect to it", "this peer is not hosting the match"]
)
def test_a_vote_the_candidate_gives_back_may_go_elsewhere(
    reason: str, clock: _Time, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def scenario() -> None:
        table = _playing()
        guest, _, _, _, _ = _reaching(monkeypatch, table, 2, [Closed(reason)])
        guest._role = Role.SEEKING
        assert not await guest.election.reach(table.peers[1], vote_against=table.peers[0])
        assert guest.election._voted_for is None

    _run(scenario())


def test_a_vote_refused_for_another_reason_stays_cast(
    clock: _Time, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def scenario() -> None:
        table = _playing()
        guest, _, _, _, _ = _reaching(monkeypatch, table, 2, [Closed("timed out")])
        guest._role = Role.SEEKING
        assert not await guest.election.reach(table.peers[1], vote_against=table.peers[0])
        assert guest.election._voted_for == table.peers[1]

    _run(scenario())


def test_a_log_that_diverged_is_taken_from_the_new_host_in_place_of_ones_own(
    clock: _Time, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def scenario() -> None:
        table = _playing()
        guest, _seen, net_, shakes, _followed = _reaching(
            monkeypatch, table, 2, [Closed(f"refused: {DIVERGED}")]
        )
        guest._role = Role.SEEKING
        own = guest.log
        assert await guest.election.reach(table.peers[1])
        assert [s[3] for s in shakes] == [False, True] and len(net_.opened) == 2
        assert guest.guest_side.rebasing is own and guest.log is None

    _run(scenario())


def test_a_log_that_diverged_twice_is_given_up(
    clock: _Time, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def scenario() -> None:
        table = _playing()
        guest, _, _, shakes, _ = _reaching(monkeypatch, table, 2, [Closed(DIVERGED)] * 2)
        guest._role = Role.SEEKING
        assert not await guest.election.reach(table.peers[1])
        assert len(shakes) == 2 and guest.log is not None and guest.role is Role.SEEKING

    _run(scenario())


def test_nobody_unknown_or_oneself_or_at_a_bad_address_is_reached(
    clock: _Time, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def scenario() -> None:
        table = _playing()
        guest, _, net_, _, _ = _reaching(monkeypatch, table, 2, [])
        assert not await guest.election.reach("ab" * 16)
        assert not await guest.election.reach(guest.me)
        assert net_.opened == []
        guest.log.members[table.peers[1]].addr = "10.0.0.2:port"
        assert not await guest.election.reach(table.peers[1])
        net_.refuse = ValueError("bad port")
        guest.log.members[table.peers[1]].addr = "10.0.0.2:7001"
        assert not await guest.election.reach(table.peers[1])

    _run(scenario())


def test_a_peer_voted_in_while_it_called_another_stays_the_host(
    clock: _Time, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def scenario() -> None:
        table = _playing()
        guest, _, net_, _, followed = _reaching(monkeypatch, table, 1, [])
        guest._role = Role.CUT_OFF
        assert not await guest.election.reach(table.peers[0])
        assert net_.lines[0].closed == "this peer is the host now" and followed == []
        assert guest.role is Role.CUT_OFF
        assert await guest.election.reach(table.peers[2], stepping_down=True)
        assert guest.role is Role.FOLLOWING

    _run(scenario())


# -- the candidate ----------------------------------------------------------------------


def test_a_candidate_votes_for_itself_and_is_voted_in_by_more_than_half(clock: _Time) -> None:
    table = _playing(4)
    cand, seen = peer_at(table, 1, role=Role.SEEKING)
    old = table.peers[0]
    cand.election._stand(old)
    assert cand.role is Role.STANDING and seen.of("standing") == [{"against": old}]
    (own,) = cand.election._votes.values()
    log = cand.log
    assert own[:2] == [cand.me, len(log)]
    assert verify(cand.identity.key,
                  vote_payload(log.match_id, old, cand.me, len(log), log.head_bytes(len(log))),
                  own[2])  # fmt: skip
    cand.election._votes[table.peers[2]] = table.vote(2, 1)
    cand.election._count_votes()
    assert cand.role is Role.STANDING  # 2 of 4 is not more than half
    cand.election._votes[table.peers[3]] = table.vote(3, 1)
    cand.election._count_votes()
    assert cand.role is Role.CUT_OFF  # hosting, until its watch finds the voters in touch
    host_entry = log.entries[-1]
    assert host_entry["k"] == "host" and host_entry["peer"] == cand.me
    assert host_entry["addr"] == "127.0.0.1:7001"
    assert [v[0] for v in host_entry["votes"]] == [cand.me, table.peers[2], table.peers[3]]
    assert log.host == cand.me and cand.election._against is None
    assert seen.of("host") == [{"peer": cand.me, "name": "p2"}]
    assert cand.host_side._gone_since[old] == clock.clock.now


def test_votes_are_counted_only_while_standing(clock: _Time) -> None:
    table = _playing(3)
    cand, _ = peer_at(table, 1, role=Role.SEEKING)
    cand.election._votes = {p: table.vote(n, 1) for n, p in enumerate(table.peers)}
    cand.election._against = table.peers[0]
    cand.election._count_votes()
    assert cand.role is Role.SEEKING and cand.log.host == table.peers[0]


def _hello(table: Table, voter: int, vote: bytes, at: int | None = None) -> dict[str, Any]:
    log = table.log
    at = len(log) if at is None else at
    return {"key": table.identities[voter].key, "have": at,
            "head": log.heads[at - 1] if at else None, "vote": vote}  # fmt: skip


def _signed_vote(table: Table, voter: int, old: int, cand: int, at: int | None = None) -> bytes:
    log = table.log
    at = len(log) if at is None else at
    payload = vote_payload(log.match_id, table.peers[old], table.peers[cand], at,
                           log.head_bytes(at))  # fmt: skip
    return table.identities[voter].sign(payload)


def _standing(table: Table, index: int = 1) -> Any:
    cand, seen = peer_at(table, index, role=Role.SEEKING)
    cand.election._stand(table.peers[0])
    return cand, seen


def _slot(peer: Any) -> Any:
    return peer.host_side.gate.admit("10.0.0.9", lambda: None)


def test_a_vote_carries_the_candidate_in_and_the_voter_waits_till_then(clock: _Time) -> None:
    async def scenario() -> None:
        table = _playing(4)
        cand, _ = _standing(table)
        first, second = Line(), Line()
        first.inbox, first.hold = [{"t": "request", "e": {}}], True
        hello = _hello(table, 2, _signed_vote(table, 2, 0, 1))
        task = asyncio.get_running_loop().create_task(
            cand.election.take_vote(first, hello, table.peers[2], _slot(cand))  # type: ignore[arg-type]
        )
        for _ in range(30):
            await asyncio.sleep(0)
        assert first.sent[0] == {"t": "wait", "reason": "2 of 4"}
        assert {"t": "wait", "reason": "the host is still being chosen"} in first.sent
        assert cand.election.voters == {table.peers[2]: first}
        assert not task.done()
        hello3 = _hello(table, 3, _signed_vote(table, 3, 0, 1))
        assert await cand.election.take_vote(second, hello3, table.peers[3], _slot(cand))  # type: ignore[arg-type]
        assert second.sent == [{"t": "wait", "reason": "3 of 4"}]
        assert await task
        assert cand.role is Role.CUT_OFF and cand.election.voters == {}
        # a voter's line is looked at every second: its candidate may have stopped standing
        assert clock.timeouts and set(clock.timeouts) == {1.0}
        assert [v[0] for v in cand.log.entries[-1]["votes"]] == [cand.me, *table.peers[2:]]

    _run(scenario())


def test_a_voter_is_released_when_its_candidate_stops_standing(clock: _Time) -> None:
    async def scenario() -> None:
        table = _playing(4)
        cand, _ = _standing(table)
        line = Line()
        line.hold = True
        hello = _hello(table, 2, _signed_vote(table, 2, 0, 1))
        task = asyncio.get_running_loop().create_task(
            cand.election.take_vote(line, hello, table.peers[2], _slot(cand))  # type: ignore[arg-type]
        )
        await asyncio.sleep(0)
        cand._role = Role.FOLLOWING
        assert not await task
        assert line.closed == "released: the host is back, reconnect to it"
        assert cand.election.voters == {}

    _run(scenario())


@pytest.mark.parametrize(
    ("case", "reason"),
    [
        ("no vote", "this peer has no vote in the match"),
        ("ahead", DIVERGED),
        ("other head", DIVERGED),
        ("at zero", "the vote does not check out"),
        ("against another", "the vote does not check out"),
        ("for another", "the vote does not check out"),
        ("short", "the vote does not check out"),
        ("bad push", "expected the missing log entries"),
    ],
)
def test_a_vote_that_does_not_hold_is_refused(case: str, reason: str, clock: _Time) -> None:
    table = Table("numeri", 4, seated=False)
    for n in range(3):
        table.put(table.join_entry(table.identities[n], f"p{n + 1}", seat=n))
    table.put(table.join_entry(table.identities[3], "p4", role="spectator"))
    table = _addressed(table)
    cand, _ = _standing(table)
    voter = 3 if case == "no vote" else 2
    vote = _signed_vote(table, voter, 0, 1)
    hello = _hello(table, voter, vote)
    line = Line()
    if case == "ahead":
        hello = {**hello, "have": len(table.log) + 1}
    elif case == "other head":
        hello = {**hello, "head": "ab" * 16}
    elif case == "at zero":
        hello = {**hello, "have": 0, "head": None, "vote": _signed_vote(table, 2, 0, 1, 0)}
    elif case == "against another":
        hello["vote"] = _signed_vote(table, 2, 2, 1)
    elif case == "for another":
        hello["vote"] = _signed_vote(table, 2, 0, 2)
    elif case == "bad push":  # claims more than this log, then sends something else
        hello = {**hello, "have": len(table.log) + 1}
        line.inbox = [{"t": "ping"}]
    elif case == "short":
        at = len(table.log) - 1
        hello = {**_hello(table, 2, _signed_vote(table, 2, 0, 1), at)}

    async def scenario() -> bool:
        try:
            return await cand.election.take_vote(line, hello, table.peers[voter], _slot(cand))  # type: ignore[arg-type]
        except Closed:  # what it claims beyond this log is asked for, and never comes
            return False

    assert not _run(scenario())
    if case in ("ahead", "bad push"):
        assert line.sent == [{"t": "want", "from": len(table.log)}]
        assert line.closed == (None if case == "ahead" else reason)
    else:
        assert line.closed == reason
    assert table.peers[voter] not in cand.election._votes


def test_a_vote_held_over_part_of_the_log_counts(clock: _Time) -> None:
    table = _playing(3)
    cand, _ = _standing(table)
    at = len(table.log) - 2
    hello = _hello(table, 2, _signed_vote(table, 2, 0, 1, at), at)
    assert _run(cand.election.take_vote(Line(), hello, table.peers[2], _slot(cand)))  # type: ignore[arg-type]
    assert cand.role is Role.CUT_OFF


# -- the host cut off -------------------------------------------------------------------


def test_a_host_cut_off_asks_the_others_in_turn_and_follows_one_that_moved_on(
    clock: _Time,
) -> None:
    table = _playing(4)
    host, _ = peer_at(table, 0, role=Role.CUT_OFF)
    members = sorted(set(table.peers[1:]))
    client = Line(table.peers[1], heard_at=0.0)
    host.host_side.clients = {table.peers[1]: client}  # type: ignore[dict-item]
    tried: list[tuple[str, bool]] = []

    async def reach(target: str, vote_against: str | None = None,
                    stepping_down: bool = False) -> bool:  # fmt: skip
        tried.append((target, stepping_down))
        return target == members[1]

    host.election.reach = reach  # type: ignore[method-assign]
    _run(host.election.look_for_a_new_host())
    assert tried == [(members[0], True), (members[1], True)]
    assert client.closed == "this peer is no longer the host"


def test_a_host_back_in_touch_or_no_longer_hosting_stops_asking(clock: _Time) -> None:
    table = _playing(3)
    host, _ = peer_at(table, 0, role=Role.CUT_OFF)
    host.host_side.clients = {table.peers[1]: Line(table.peers[1], heard_at=clock.clock.now)}  # type: ignore[dict-item]
    host.election.reach = _Reach()  # type: ignore[method-assign]
    _run(host.election.look_for_a_new_host())
    assert host.election.reach.tried == []  # type: ignore[attr-defined]
    host.host_side.clients = {}
    host._role = Role.FOLLOWING
    _run(host.election.look_for_a_new_host())
    assert host.election.reach.tried == []  # type: ignore[attr-defined]


def test_a_host_cut_off_that_reaches_nobody_waits_then_ends_its_copy(clock: _Time) -> None:
    table = _playing(3)
    host, seen = peer_at(table, 0, role=Role.CUT_OFF, rejoin_grace=2.0, drop_timeout=2.0,
                         on_drop="end")  # fmt: skip
    host.election.reach = _Reach()  # type: ignore[method-assign]
    host.host_side.cut_off_at = clock.clock.now
    _run(host.election.look_for_a_new_host())
    assert clock.slept == [RETRY_EVERY] and host.log.phase == "playing"
    limit = host.election.alone_limit()
    assert limit == SAME_HOST_FIRST + 4.0
    clock.clock.now = host.host_side.cut_off_at + limit - 0.01
    _run(host.election.look_for_a_new_host())
    assert host.log.phase == "playing"
    clock.clock.now = host.host_side.cut_off_at + limit
    _run(host.election.look_for_a_new_host())
    log = host.log
    reason = "the host found none of the others for 10 s after losing touch"
    assert log.phase == "abandoned" and log.end_reason == reason
    assert [(e["k"], e["peer"]) for e in log.entries[-3:]] == [
        ("leave", table.peers[1]), ("leave", table.peers[2]), ("end", host.me),
    ]  # fmt: skip
    assert all(e["reason"] == reason for e in log.entries[-3:])
    assert seen.of("notice")[0] == {"text": reason}
    assert seen.of("over") and host.failure is None


class _Ticks:
    """``asyncio`` for net/hosting.py's watch: each ``sleep`` turns the clock by its seconds
    and lets the tasks the watch spawned (its probes) run; it stops the watch once ``over()``
    or after ``most`` sleeps."""

    def __init__(self, clock: Clock, over: Callable[[], bool], most: int = 100) -> None:
        self.clock, self.over, self.most = clock, over, most

    async def sleep(self, seconds: float) -> None:
        if self.over() or not self.most:
            raise asyncio.CancelledError
        self.most -= 1
        self.clock.now += seconds
        for _ in range(5):
            await asyncio.sleep(0)


async def _pause(seconds: float) -> None:
    """A probe's pause between two rounds of calls: only the watch's ticks turn the clock."""
    await asyncio.sleep(0)


def test_a_host_woken_cut_off_with_its_reveal_owed_ends_once_it_found_nobody_long_enough(
    clock: _Time, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The host froze between the entry that opened a chance event and its own reveal of
    it; the others ended the match and left meanwhile.  Woken, its watch finds it cut off
    and asks for what it owes, its reveal among it, which it refuses itself — once: before,
    each refusal asked again within itself until the stack ran out, the watch died of it and
    the host waited for ever.  It ends its copy after :meth:`alone_limit`, to the tick."""
    table = Table("numeri", 3)
    table.start()
    table = _addressed(table)
    for n in (1, 2):
        for request in table.agents[n].dice_requests(table.log):
            table.put({**request, "peer": table.peers[n]})
    (commit,) = table.agents[0].dice_requests(table.log)
    table.put({**commit, "peer": table.peers[0]})
    host, seen = peer_at(table, 0, rejoin_grace=1.0, drop_timeout=1.0, on_drop="end")
    assert table.log.needs_reveal(host.me)
    silent = clock.clock.now - net.hosting.IN_TOUCH - 13  # the last bytes before the freeze
    host.host_side.clients = {p: Line(p, heard_at=silent) for p in table.peers[1:]}  # type: ignore[misc]
    host.election.reach = _Reach()  # type: ignore[method-assign]  # nobody answers
    monkeypatch.setattr(net.election, "asyncio", types.SimpleNamespace(sleep=_pause))
    monkeypatch.setattr(
        net.hosting, "asyncio", _Ticks(clock.clock, lambda: table.log.phase != "playing")
    )

    async def scenario() -> None:
        with pytest.raises(asyncio.CancelledError):
            await host.host_side.watch()

    _run(scenario())
    cut_off = "the host is cut off from most of the players: the match waits"
    assert seen.of("touch") == [{"lost": True}]
    assert seen.of("rejected") == [{"kind": "reveal", "reason": cut_off}]
    assert table.log.phase == "abandoned"
    assert table.log.end_reason.startswith("the host found none of the others for 8 s")
    assert clock.clock.now - host.host_side.cut_off_at == host.election.alone_limit()
    assert [e["k"] for e in table.log.entries[-4:]] == ["leave", "leave", "reveal", "end"]


def test_a_host_cut_off_told_to_wait_says_so_once_and_logs_nothing(clock: _Time) -> None:
    table = _playing(3)
    host, seen = peer_at(table, 0, role=Role.CUT_OFF, rejoin_grace=2.0, drop_timeout=2.0)
    host.election.reach = _Reach()  # type: ignore[method-assign]
    before = len(table.log)
    host.host_side.cut_off_at = clock.clock.now
    clock.clock.now += 100
    _run(host.election.look_for_a_new_host())
    _run(host.election.look_for_a_new_host())
    assert len(table.log) == before and host.failure is None and not host.finished.is_set()
    assert [n["text"] for n in seen.of("notice")] == [
        "found none of the others for 100 s after losing touch"
    ]


def test_a_host_cut_off_in_the_lobby_stops_and_says_why(clock: _Time) -> None:
    table = _addressed(Table("numeri", 3, seated=False))
    for n in range(3):
        table.put(table.join_entry(table.identities[n], f"p{n + 1}", seat=n))
    host, _seen = peer_at(table, 0, role=Role.CUT_OFF, rejoin_grace=1.0, drop_timeout=1.0,
                         on_drop="end")  # fmt: skip
    before = len(table.log)
    host.election._end_alone(12.0)
    assert len(table.log) == before  # the lobby cannot be ended: the peer stops
    assert host.failure == "found none of the others for 12 s after losing touch"
    assert host.finished.is_set()


def test_a_host_ending_alone_reveals_what_it_owes_before_the_end(clock: _Time) -> None:
    table = Table("numeri", 3)
    table.start()
    table = _addressed(table)
    for n in (1, 2):
        for request in table.agents[n].dice_requests(table.log):
            table.put({**request, "peer": table.peers[n]})
    for request in table.agents[0].dice_requests(table.log):
        if request["k"] == "commit":
            table.put({**request, "peer": table.peers[0]})
    host, _seen = peer_at(table, 0, role=Role.CUT_OFF, on_drop="end")

    async def scenario() -> None:
        host.election._end_alone(30.0)

    _run(scenario())
    assert table.log.phase == "abandoned"
    assert [e["k"] for e in table.log.entries[-4:]] == ["leave", "leave", "reveal", "end"]


def test_a_host_ending_alone_logs_only_the_members_still_present_as_gone(clock: _Time) -> None:
    table = _playing(4)
    table.put({"k": "leave", "peer": table.peers[3], "reason": "went home"})
    host, seen = peer_at(table, 0, role=Role.CUT_OFF, on_drop="end")
    before = len(table.log)

    async def scenario() -> None:
        host.election._end_alone(30.0)

    _run(scenario())
    assert [(e["k"], e["peer"]) for e in table.log.entries[before:]] == [
        ("leave", table.peers[1]),
        ("leave", table.peers[2]),
        ("end", host.me),
    ]
    assert [n["text"] for n in seen.of("notice")] == [
        "the host found none of the others for 30 s after losing touch"
    ]


def test_an_entry_the_log_refuses_while_ending_alone_is_told_and_the_rest_go_in(
    clock: _Time,
) -> None:
    table = _playing(3)
    host, seen = peer_at(table, 0, role=Role.CUT_OFF, on_drop="end")
    bogus = {"k": "reveal", "event": 999, "v": bytes(32)}
    owed = [[bogus]]
    host.agent.dice_requests = lambda log: owed.pop() if owed else []  # type: ignore[method-assign]

    async def scenario() -> None:
        host.election._end_alone(30.0)

    _run(scenario())
    notices = [n["text"] for n in seen.of("notice")]
    assert notices[1] == "could not log reveal: no chance event is pending"
    assert table.log.phase == "abandoned"
