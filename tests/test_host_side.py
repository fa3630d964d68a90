"""The host's side (net/hosting.py) in process: the newcomer let in after its proof, the
requests it places or refuses, the majority it needs (docs/PROTOCOL.md §6.4), the members it
logs as gone, the dice withheld past the drop timeout (§6.2) and its watch — on logs made by
:class:`tests.net_helpers.Table`, lines that record what is sent on them and a clock turned
by hand.  The door itself (hello, proof, catch-up) is net/door.py's, tested over sockets in
tests/test_door_rules.py; one join here goes the whole way over loopback."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

import net.hosting
from net.connection import Closed
from net.door import DIVERGED
from net.gate import Gate
from net.hosting import IN_TOUCH, WITHHOLD_GRACE
from net.matchlog import Rejected, replay
from net.role import Role
from tests.lan import RawGuest, joined
from tests.net_helpers import Table
from tests.role_fakes import Clock, Line, config, peer_at


def _run(coroutine: Any) -> Any:
    return asyncio.run(asyncio.wait_for(coroutine, 20))


def _in_a_loop(test: Any) -> Any:
    """``test`` run on an event loop (the host spawns tasks: the end, a close)."""

    def wrapped(*args: Any, **kwargs: Any) -> None:
        async def body() -> None:
            test(*args, **kwargs)

        _run(body())

    wrapped.__name__ = test.__name__
    wrapped.__signature__ = __import__("inspect").signature(test)  # type: ignore[attr-defined]
    return wrapped


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    clock = Clock()
    monkeypatch.setattr(net.hosting, "time", clock.namespace())
    return clock


def _hello(table: Table, index: int, **changes: Any) -> dict[str, Any]:
    """A proven newcomer's hello as the door hands it on (net/door.py ``introduce``)."""
    identity = table.identities[index]
    return {
        "t": "hello", "key": identity.key, "name": f"p{index + 1}", "role": "player",
        "seat": -1, "listen": 7100 + index, "have": 0, "head": None, "code": None,
        "vote": None, "challenge": bytes([index]) * 32, "proof": b"", **changes,
    }  # fmt: skip


def _lobby_with_host(players: int = 2, game: str = "dama") -> Table:
    table = Table(game, players, seated=False)
    table.put(table.join_entry(table.identities[0], "p1", seat=0))
    return table


def _slot(host: Any) -> Any:
    slot = host.host_side.gate.admit("10.0.0.2", lambda: None)
    assert slot is not None
    return slot


# -- the newcomer, proven ---------------------------------------------------------------


def _proven(host: Any, table: Table, index: int, **changes: Any) -> dict[str, Any]:
    """Peer ``index``'s hello with a proof that holds, as the door passes it on."""
    from net.signing import join_payload

    hello = _hello(table, index, **changes)
    payload = join_payload(table.log.match_id, host.identity.key, hello["challenge"],
                           hello["name"], hello["role"], hello["seat"])  # fmt: skip
    hello["proof"] = table.identities[index].sign(payload)
    return hello


def _admit(host: Any, table: Table, index: int, line: Line, **changes: Any) -> str | None:
    """``_admit`` of peer ``index`` with a proof that holds, as the door passes it on."""
    identity = table.identities[index]
    hello = _proven(host, table, index, **changes)

    async def scenario() -> str | None:
        return await host.host_side._admit(line, hello, identity.peer, _slot(host))

    return _run(scenario())  # type: ignore[no-any-return]


def test_an_admitted_newcomers_join_carries_its_wish_and_the_address_it_listens_on(
    clock: Clock,
) -> None:
    table = _lobby_with_host()
    host, _ = peer_at(table, 0)
    line = Line(address="10.0.0.7")
    assert _admit(host, table, 1, line, seat=1, name="bert") == table.peers[1]
    (join,) = [e for e in table.log.entries if e["k"] == "join" and e["peer"] == table.peers[1]]
    assert (join["name"], join["role"], join["seat"], join["addr"]) == (
        "bert", "player", 1, "10.0.0.7:7101",
    )  # fmt: skip
    assert join["key"] == table.identities[1].key
    assert table.log.seats[1].owner == table.peers[1]
    assert line.sent[0]["seq"] == 2 and "join" in line.kinds()[3:]  # the log, then its join


def test_a_member_back_from_a_lost_line_is_not_joined_again_while_present(clock: Clock) -> None:
    table = Table("dama")
    host, seen = peer_at(table, 0)
    host.host_side._gone_since[table.peers[1]] = 1.0
    line = Line()
    before = len(table.log)
    hello = _hello(table, 1, have=before, head=table.log.heads[-1])
    assert _run(host.host_side._admit(line, hello, table.peers[1], _slot(host))) == table.peers[1]
    assert [e["k"] for e in table.log.entries].count("join") == 2
    assert line.sent[0] == {
        "t": "welcome", "match": table.log.match_id, "you": table.peers[1], "host": host.me,
        "seq": before,
    }  # fmt: skip
    assert "join" not in line.kinds()
    assert seen.of("notice") == []  # no second join for the log to refuse
    assert host.host_side._connected_at == {table.peers[1]: clock.now}
    assert host.host_side._gone_since == {}  # back: no longer counted as gone


@pytest.mark.parametrize(
    ("case", "reason"),
    [
        ("connected", "a peer with this identity is already connected"),
        ("itself", "a peer with this identity is already connected"),
        ("diverged", DIVERGED),
        ("diverged at the first", DIVERGED),
        ("diverged at the last", DIVERGED),
    ],
)
def test_a_newcomer_is_refused_with_the_reason_and_the_host_told(
    case: str, reason: str, clock: Clock
) -> None:
    table = Table("dama")
    host, seen = peer_at(table, 0)
    index = 0 if case == "itself" else 1
    if case == "connected":
        host.host_side.clients[table.peers[1]] = Line(table.peers[1])  # type: ignore[assignment]
    have = {"diverged": 2, "diverged at the first": 1, "diverged at the last": len(table.log)}
    changes = {"have": have[case], "head": "ab" * 16} if case in have else {}
    line = Line()
    hello = _hello(table, index, **changes)
    assert _run(host.host_side._admit(line, hello, table.peers[index], _slot(host))) is None
    assert line.closed == reason
    assert seen.of("notice") == [{"text": f"refused p{index + 1}: {reason}"}]


def test_a_newcomer_holding_the_whole_log_or_none_of_it_does_not_diverge(clock: Clock) -> None:
    table = Table("dama")
    host, _ = peer_at(table, 0)
    whole = _hello(table, 1, have=len(table.log), head=table.log.heads[-1])
    assert _run(host.host_side._admit(Line(), whole, table.peers[1], _slot(host))) is not None
    host.host_side.clients.clear()
    first = _hello(table, 1, have=1, head=table.log.heads[0])
    assert _run(host.host_side._admit(Line(), first, table.peers[1], _slot(host))) is not None


def test_a_join_code_is_asked_of_newcomers_only_and_a_wrong_one_is_summarised(
    clock: Clock,
) -> None:
    table = _lobby_with_host(3, "numeri")
    host, seen = peer_at(table, 0)
    host.code = "4711"
    host.host_side.gate = Gate(clock=clock.monotonic)
    wrong = Line()
    assert _admit(host, table, 1, wrong, code="1234") is None
    assert wrong.closed is not None and wrong.closed.startswith("wrong join code")
    summary = "1 wrong join code from 1 address: each address waits longer after every wrong code"
    assert seen.of("notice") == [{"text": summary}]  # summarised, never "refused p2: …"
    again = Line()
    assert _admit(host, table, 1, again, code="4711") is None  # too soon: not even checked
    assert again.closed is not None and again.closed.startswith(
        "too many wrong join codes from this address: try again in "
    )
    assert seen.of("notice") == [{"text": summary}]
    clock.now += 3600
    right = Line()
    assert _admit(host, table, 1, right, code="4711") == table.peers[1]
    # A member coming back (say, after losing its line) is not asked for the code again.
    host.host_side.clients.clear()
    back = Line()
    hello = _hello(table, 1, have=len(table.log), head=table.log.heads[-1])
    assert _run(host.host_side._admit(back, hello, table.peers[1], _slot(host))) is not None


def test_a_peer_that_is_not_hosting_turns_newcomers_away_and_takes_only_votes(
    clock: Clock,
) -> None:
    table = Table("dama")
    guest, _ = peer_at(table, 1)
    line = Line()
    assert (
        _run(guest.host_side._admit(line, _hello(table, 0), table.peers[0], _slot(guest))) is None
    )
    assert line.closed == "this peer is not hosting the match"
    guest._role = Role.STANDING
    line = Line()
    assert (
        _run(guest.host_side._admit(line, _hello(table, 0), table.peers[0], _slot(guest))) is None
    )
    assert line.closed == "this peer is not hosting the match"  # a hello without a vote

    taken: list[Any] = []

    async def take_vote(*args: Any) -> bool:
        taken.append(args)
        return False

    guest.election.take_vote = take_vote  # type: ignore[method-assign]
    hello = _hello(table, 0, vote=b"v" * 64)
    line, slot = Line(), _slot(guest)
    assert _run(guest.host_side._admit(line, hello, table.peers[0], slot)) is None
    assert taken == [(line, hello, table.peers[0], slot)]


def test_the_hosts_own_join_and_a_guests_join(clock: Clock) -> None:
    table = Table("dama", seated=False)
    host, _ = peer_at(table, 0)
    host.config.name = "x" * 50
    host.config.seat = 1
    entry = host.host_side.join_entry(host.me, host.identity.key, b"n" * 32, "1.2.3.4:5")
    assert {k: entry[k] for k in ("k", "peer", "key", "addr", "nonce", "name", "role", "seat")} == {
        "k": "join", "peer": host.me, "key": host.identity.key, "addr": "1.2.3.4:5",
        "nonce": b"n" * 32, "name": "x" * 40, "role": "player", "seat": 1,
    }  # fmt: skip
    host._make(entry)  # its proof holds: the log takes it
    assert table.log.seats[1].owner == host.me
    wish = host.host_side.join_entry("g", b"k", b"c", "a:1", name="n", role="spectator",
                                     seat=-1, proof=b"p")  # fmt: skip
    assert wish == {"k": "join", "peer": "g", "key": b"k", "addr": "a:1", "nonce": b"c",
                    "name": "n", "role": "spectator", "seat": -1, "proof": b"p"}  # fmt: skip


def _cut_off_lobby() -> tuple[Table, Any]:
    """Numeri of four in the lobby: the host, p3 and p4 joined, p3 and p4 not connected —
    the host is in touch with 1 of its 3 people."""
    table = _lobby_with_host(4, "numeri")
    for n in (2, 3):
        table.put(table.join_entry(table.identities[n], f"p{n + 1}", seat=n))
    host, _ = peer_at(table, 0)
    assert not host.host_side.holds_majority()
    return table, host


def test_a_join_waits_while_the_host_is_cut_off_and_is_logged_once_it_is_back(
    clock: Clock,
) -> None:
    table, host = _cut_off_lobby()
    line = Line(heard_at=clock.now)
    assert _admit(host, table, 1, line, seat=1) == table.peers[1]
    assert table.peers[1] not in table.log.members  # cut off: not logged
    host.host_side.clients[table.peers[2]] = Line(table.peers[2], heard_at=clock.now)  # type: ignore[assignment]
    host._role = Role.FOLLOWING
    host.host_side._log_joins()
    assert table.peers[1] not in table.log.members  # not hosting: not logged
    host._role = Role.HOSTING
    host.host_side._log_joins()
    assert table.log.members[table.peers[1]].present
    host.host_side._log_joins()  # once
    assert [e["k"] for e in table.log.entries].count("join") == 4


def test_a_waiting_join_of_a_peer_gone_meanwhile_is_not_logged(clock: Clock) -> None:
    table, host = _cut_off_lobby()
    line = Line(heard_at=clock.now)
    _admit(host, table, 1, line, seat=1)
    host.host_side.drop(line)  # type: ignore[arg-type]
    host.host_side.clients[table.peers[2]] = Line(table.peers[2], heard_at=clock.now)  # type: ignore[assignment]
    host.host_side._log_joins()
    assert table.peers[1] not in table.log.members


def test_a_waiting_join_the_log_refuses_is_told(clock: Clock) -> None:
    table = _lobby_with_host()
    host, seen = peer_at(table, 0)
    host.host_side.clients[table.peers[1]] = Line(table.peers[1])  # type: ignore[assignment]
    bad = {**table.join_entry(table.identities[1], "p2"), "proof": bytes(64)}
    host.host_side._unlogged_joins[table.peers[1]] = bad
    host.host_side._log_joins()
    assert seen.of("notice") == [
        {"text": "join refused: forged join: the proof is not the peer's own"}
    ] or seen.of("notice")[0]["text"].startswith("join refused: ")
    assert host.host_side._unlogged_joins == {}


# -- touch ------------------------------------------------------------------------------


def test_a_line_heard_within_five_seconds_is_in_touch(clock: Clock) -> None:
    table = Table("numeri", 3)
    host, _ = peer_at(table, 0)
    side = host.host_side
    side.clients = {table.peers[1]: Line(table.peers[1], heard_at=clock.now - IN_TOUCH)}  # type: ignore[dict-item]
    side.clients[table.peers[2]] = Line(table.peers[2], heard_at=clock.now - IN_TOUCH - 0.01)  # type: ignore[assignment]
    assert side.in_touch() == {host.me, table.peers[1]}
    host.election.voters[table.peers[2]] = Line(heard_at=clock.now)  # type: ignore[assignment]
    assert side.in_touch() == set(table.peers)


def test_the_host_holds_the_match_with_half_of_its_people_and_not_with_fewer(
    clock: Clock,
) -> None:
    table = Table("numeri", 4)
    table.start()
    host, _ = peer_at(table, 0)
    side = host.host_side
    assert not side.holds_majority()  # 1 of 4
    side.clients = {table.peers[1]: Line(table.peers[1], heard_at=clock.now)}  # type: ignore[dict-item]
    assert side.holds_majority()  # 2 of 4: no other side can have more than half
    side.clients = {"outsider": Line("outsider", heard_at=clock.now)}  # type: ignore[dict-item]
    assert not side.holds_majority()  # only the match's people count
    host.log = None
    assert not side.holds_majority()


# -- requests ---------------------------------------------------------------------------


def _request(table: Table, index: int, entry: dict[str, Any]) -> dict[str, Any]:
    from net.matchlog import signed

    log = table.log
    peer = table.peers[index]
    return signed(log, table.identities[index], {**entry, "peer": peer}, log.next_n(peer))


def test_a_members_request_is_placed_and_relayed_to_every_member_the_author_last(
    clock: Clock,
) -> None:
    table = Table("dama")
    table.start()
    host, _ = peer_at(table, 0)
    anna, bert = Line(table.peers[1], heard_at=clock.now), Line("x", heard_at=clock.now)
    host.host_side.clients = {table.peers[1]: anna, "x": bert}  # type: ignore[dict-item]
    order: list[str] = []
    anna.send_frame = lambda frame: order.append("anna")  # type: ignore[method-assign]
    bert.send_frame = lambda frame: order.append("bert")  # type: ignore[method-assign]
    host.host_side.handle_request(
        table.peers[1], _request(table, 1, {"k": "offer", "ply": 0}), anna
    )  # type: ignore[arg-type]
    assert "offer" in [e["k"] for e in table.log.entries[-3:]]
    assert order[:2] == ["bert", "anna"]


def test_broadcast_to_every_line_and_the_last_only_if_connected() -> None:
    table = Table("dama")
    host, _ = peer_at(table, 0)
    lines = {p: Line(p) for p in ("a", "b", "c")}
    host.host_side.clients = dict(lines)  # type: ignore[arg-type]
    host.host_side.broadcast({"t": "ping"}, last="b")
    host.host_side.broadcast({"t": "pong"}, last="nobody")
    host.host_side.broadcast({"t": "bye", "reason": "x"})
    assert all(line.kinds() == ["ping", "pong", "bye"] for line in lines.values())


@pytest.mark.parametrize(
    ("index", "entry", "reason"),
    [
        (1, {"k": "offer", "ply": 0, "peer": "someone else"}, "a request must be its sender's own"),
        (1, {"k": "leave", "reason": "x"}, "a peer cannot ask for a 'leave' entry"),
        (1, {"k": "host", "addr": "", "votes": []}, "a peer cannot ask for a 'host' entry"),
        (1, {"k": "join"}, "a peer cannot ask for a 'join' entry"),
        (2, {"k": "offer", "ply": 0}, "spectators only watch"),
        (1, {"k": "offer", "ply": 5}, "out of sequence: offer at ply 5, ply 0 is next"),
    ],
)
def test_a_request_the_host_will_not_place_is_refused_to_its_sender_with_the_reason(
    index: int, entry: dict[str, Any], reason: str, clock: Clock
) -> None:
    table = Table("dama", seated=False)
    table.put(table.join_entry(table.identities[0], "p1", seat=0))
    table.put(table.join_entry(table.identities[1], "p2", seat=1))
    table.put({"k": "ready", "peer": table.peers[1], "ready": True})
    spectator = table.by_peer[table.peers[0]].__class__(bytes([9]) * 32)
    table.identities.append(spectator)
    table.peers.append(spectator.peer)
    table.by_peer[spectator.peer] = spectator
    table.put(table.join_entry(spectator, "s", role="spectator"))
    table.start()
    host, _seen = peer_at(table, 0)
    line = Line(table.peers[index], heard_at=clock.now)
    request = _request(table, index, entry) if "peer" not in entry else entry
    before = len(table.log)
    host.host_side.handle_request(table.peers[index], request, line)  # type: ignore[arg-type]
    assert len(table.log) == before
    assert line.sent == [{"t": "reject", "reason": reason, "kind": entry["k"]}]


def test_a_refusal_names_at_most_twelve_characters_of_the_kind_and_300_of_the_reason(
    clock: Clock,
) -> None:
    table = Table("dama")
    host, _ = peer_at(table, 0)
    line = Line(table.peers[1])
    entry = {"k": "x" * 400, "peer": table.peers[1]}
    host.host_side.handle_request(table.peers[1], entry, line)  # type: ignore[arg-type]
    (reject,) = line.sent
    assert reject["kind"] == "x" * 12
    assert reject["reason"] == f"a peer cannot ask for a {'x' * 400!r} entry"[:300]
    host._role = Role.FOLLOWING
    line.sent.clear()
    host.host_side.handle_request(table.peers[1], entry, line)  # type: ignore[arg-type]
    assert line.sent == [
        {"t": "reject", "reason": "this peer is no longer the host", "kind": "x" * 12}
    ]
    host.host_side.handle_request(table.peers[1], entry, None)  # its own: nobody to tell
    host.log = None
    host._role = Role.HOSTING
    host.host_side.handle_request(table.peers[1], entry, line)  # type: ignore[arg-type]
    assert line.sent[-1]["reason"] == "this peer is no longer the host"


def test_a_host_cut_off_from_most_of_the_match_places_nothing(clock: Clock) -> None:
    table = Table("numeri", 3)
    table.start()
    host, _seen = peer_at(table, 0)
    line = Line(table.peers[1], heard_at=clock.now - IN_TOUCH - 1)
    host.host_side.clients = {table.peers[1]: line}  # type: ignore[dict-item]
    before = len(table.log)
    host.host_side.handle_request(
        table.peers[1], _request(table, 1, {"k": "ready", "ready": True}), line
    )  # type: ignore[arg-type]
    assert len(table.log) == before
    reason = "the host is cut off from most of the players: the match waits"
    assert line.sent == [{"t": "reject", "kind": "ready", "reason": reason}]


def test_the_hosts_own_refused_request_goes_to_its_seat_agent(clock: Clock) -> None:
    table = Table("dama")
    table.start()
    host, seen = peer_at(table, 0)
    host.request({"k": "offer", "ply": 3})
    assert seen.of("rejected") == [
        {"kind": "offer", "reason": "out of sequence: offer at ply 3, ply 0 is next"}
    ]


def _gone_third(clock: Clock) -> tuple[Table, Any, Any]:
    table = Table("numeri", 3)
    table.start()
    table.settle_dice()
    host, seen = peer_at(table, 0, drop_timeout=30.0)
    host.host_side.clients = {table.peers[1]: Line(table.peers[1], heard_at=clock.now)}  # type: ignore[dict-item]
    line = Line(table.peers[2])
    host.host_side.clients[table.peers[2]] = line  # type: ignore[assignment]
    host.host_side.drop(line)  # type: ignore[arg-type]
    assert table.log.entries[-1]["k"] == "leave" and table.log.paused
    return table, host, seen


@pytest.mark.parametrize("kind", ["computer", "end"])
@_in_a_loop
def test_the_missing_are_decided_for_only_after_the_drop_timeout(kind: str, clock: Clock) -> None:
    table, host, _ = _gone_third(clock)
    entry = {"k": "computer", "seat": 2, "level": "easy"} if kind == "computer" else {
        "k": "end", "reason": "a player left"}  # fmt: skip
    anna = host.host_side.clients[table.peers[1]]
    clock.now += 29.95
    anna.heard_at = clock.now
    host.host_side.handle_request(table.peers[1], _request(table, 1, entry), anna)
    assert (
        anna.sent[-1]
        == {
            "t": "reject",
            "kind": kind,
            "reason": "p3 has been gone 29.9 s; the others can decide after 30.0 s",
        }
        or anna.sent[-1]["reason"] == "p3 has been gone 30.0 s; the others can decide after 30.0 s"
    )
    clock.now += 0.05
    host.host_side.handle_request(table.peers[1], _request(table, 1, entry), anna)
    assert table.log.entries[-1]["k"] == kind


@_in_a_loop
def test_the_drop_timeout_counts_from_the_dice_first_owed_if_earlier(clock: Clock) -> None:
    table, host, _ = _gone_third(clock)
    side = host.host_side
    side._gone_since[table.peers[2]] = clock.now
    side._owing_since[table.peers[2]] = clock.now - 30.0
    anna = side.clients[table.peers[1]]
    side.handle_request(table.peers[1], _request(table, 1, {"k": "end", "reason": "r"}), anna)
    assert table.log.phase == "abandoned"


def test_a_computer_for_a_seat_held_by_nobody_or_out_of_range_is_left_to_the_log(
    clock: Clock,
) -> None:
    table, host, _ = _gone_third(clock)
    anna = host.host_side.clients[table.peers[1]]
    for seat in (3,):
        host.host_side.handle_request(
            table.peers[1], _request(table, 1, {"k": "computer", "seat": seat, "level": "easy"}),
            anna,
        )  # fmt: skip
    reasons = [m["reason"] for m in anna.sent if m["t"] == "reject"]
    assert reasons == ["this match has 3 seats"]  # the log's reason, not a drop timeout


def test_in_the_lobby_a_computer_seat_is_set_at_once(clock: Clock) -> None:
    table = _lobby_with_host(3, "numeri")
    host, _ = peer_at(table, 0)
    host.request({"k": "computer", "seat": 2, "level": "easy"})
    assert table.log.seats[2].computer == "easy"


def _last(table: Table, kind: str) -> dict[str, Any]:
    return [e for e in table.log.entries if e["k"] == kind][-1]


# -- members lost -----------------------------------------------------------------------


def test_a_lost_line_is_logged_as_a_leave_with_its_reason(clock: Clock) -> None:
    table = Table("dama")
    host, _ = peer_at(table, 0)
    line = Line(table.peers[1], heard_at=clock.now)
    host.host_side.clients = {table.peers[1]: line}  # type: ignore[dict-item]
    host.host_side.drop(Line(table.peers[1]))  # type: ignore[arg-type]  # not its line: nothing
    host.host_side.drop(Line(None))  # type: ignore[arg-type]
    assert table.peers[1] in host.host_side.clients
    line.closed = "x" * 400
    host.host_side.drop(line)  # type: ignore[arg-type]
    leave = _last(table, "leave")
    assert (leave["peer"], leave["reason"]) == (table.peers[1], "x" * 300)
    assert host.host_side.clients == {}
    assert host.host_side._gone_since[table.peers[1]] == clock.now


def test_a_line_lost_without_a_reason_is_a_connection_lost(clock: Clock) -> None:
    table = Table("dama")
    host, _ = peer_at(table, 0)
    line = Line(table.peers[1])
    host.host_side.clients = {table.peers[1]: line}  # type: ignore[dict-item]
    host.host_side.drop(line)  # type: ignore[arg-type]
    assert _last(table, "leave")["reason"] == "connection lost"


def test_members_not_connected_are_logged_gone_only_by_a_host_in_touch_after_its_grace(
    clock: Clock,
) -> None:
    table = Table("numeri", 3)
    table.start()
    table.settle_dice()
    host, _ = peer_at(table, 0, rejoin_grace=15.0)
    side = host.host_side
    side.clients = {table.peers[1]: Line(table.peers[1], heard_at=clock.now)}  # type: ignore[dict-item]
    side.take_over(table.peers[2])
    assert side._gone_since[table.peers[2]] == clock.now
    before = len(table.log)
    clock.now += 14.9
    side.clients[table.peers[1]].heard_at = clock.now
    side._leave_the_gone()
    assert len(table.log) == before  # the others have 15 s to reconnect
    clock.now += 0.1
    side._leave_the_gone()
    assert [(e["k"], e["peer"]) for e in table.log.entries[before:]] == [("leave", table.peers[2])]
    assert side._gone_since[table.peers[2]] == clock.now - 15.0  # counted from the take-over
    side._leave_the_gone()
    assert len(table.log) == before + 1


def test_a_host_cut_off_or_stepping_down_logs_nobody_gone(clock: Clock) -> None:
    table = Table("numeri", 3)
    table.start()
    host, _ = peer_at(table, 0)
    before = len(table.log)
    host.host_side._leave_the_gone()  # alone: 1 of 3
    host.host_side.clients = {table.peers[1]: Line(table.peers[1], heard_at=clock.now)}  # type: ignore[dict-item]
    host._role = Role.FOLLOWING
    host.host_side._leave_the_gone()
    host._role = Role.HOSTING
    host.log = None
    host.host_side._leave_the_gone()
    assert len(table.log) == before


def test_a_connected_member_that_withholds_its_dice_past_the_drop_timeout_is_closed(
    clock: Clock,
) -> None:
    async def scenario() -> None:
        table = Table("numeri", 3)
        table.start()
        host, _ = peer_at(table, 0, drop_timeout=30.0)
        side = host.host_side
        lines = {p: Line(p, heard_at=clock.now) for p in table.peers[1:]}
        side.clients = dict(lines)  # type: ignore[arg-type]
        side._connected_at = dict.fromkeys(table.peers[1:], clock.now)
        for request in table.agents[0].dice_requests(table.log):
            table.put({**request, "peer": table.peers[0]})
        for request in table.agents[1].dice_requests(table.log):
            table.put({**request, "peer": table.peers[1]})
        withholder = table.peers[2]
        assert table.log.owes_dice(withholder) and not table.log.owes_dice(table.peers[1])
        side._withholders()
        assert side._owing_since == {withholder: clock.now}
        clock.now += 30.0
        for line in lines.values():
            line.heard_at = clock.now
        side._withholders()
        assert withholder in side.clients  # exactly the timeout: not yet
        clock.now += 0.5
        side._withholders()
        await asyncio.sleep(0)
        assert lines[withholder].closed == "withheld its dice for 30 s"
        assert withholder not in side.clients
        assert table.log.entries[-1]["k"] == "leave"

    _run(scenario())


@_in_a_loop
def test_a_member_that_just_connected_has_its_grace_to_send_its_dice(clock: Clock) -> None:
    table = Table("numeri", 3)
    table.start()
    host, _ = peer_at(table, 0, drop_timeout=1.0)
    side = host.host_side
    side.clients = {p: Line(p, heard_at=clock.now) for p in table.peers[1:]}  # type: ignore[misc]
    side._owing_since = {table.peers[2]: clock.now - 100}
    side._connected_at = dict.fromkeys(table.peers[1:], clock.now - WITHHOLD_GRACE)
    side._withholders()
    assert table.peers[2] in side.clients  # exactly its grace: still settling
    clock.now += 0.01
    for line in side.clients.values():
        line.heard_at = clock.now
    side._withholders()
    assert table.peers[2] not in side.clients


def test_a_member_that_owes_nothing_any_more_is_no_longer_counted_as_owing(clock: Clock) -> None:
    table = Table("dama")
    table.start()
    host, _ = peer_at(table, 0)
    host.host_side.clients = {table.peers[1]: Line(table.peers[1])}  # type: ignore[dict-item]
    host.host_side._owing_since = {table.peers[1]: 1.0}
    host.host_side._withholders()
    assert host.host_side._owing_since == {}


# -- the watch --------------------------------------------------------------------------


class _Sleeps:
    """``asyncio`` for net/hosting.py: each ``sleep`` records and runs the next step."""

    def __init__(self, steps: list[Any]) -> None:
        self.steps = steps
        self.slept: list[float] = []

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        if not self.steps:
            raise asyncio.CancelledError
        self.steps.pop(0)()


def test_the_watch_finds_the_host_cut_off_and_back_and_says_so(
    clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def scenario() -> None:
        table = Table("numeri", 3)
        table.start()
        table.settle_dice()
        host, seen = peer_at(table, 0)
        side = host.host_side
        line = Line(table.peers[1], heard_at=clock.now)
        side.clients = {table.peers[1]: line}  # type: ignore[dict-item]
        side._connected_at = {table.peers[1]: clock.now}
        probes: list[str] = []

        async def look() -> None:
            probes.append("look")

        host.election.look_for_a_new_host = look  # type: ignore[method-assign]

        def silent() -> None:
            clock.now += IN_TOUCH + 1

        def heard() -> None:
            clock.now += 1
            line.heard_at = clock.now

        sleeps = _Sleeps([silent, lambda: None, heard])
        monkeypatch.setattr(net.hosting, "asyncio", sleeps)
        with pytest.raises(asyncio.CancelledError):
            await side.watch()
        assert sleeps.slept == [0.5] * 4
        assert seen.of("touch") == [{"lost": True}, {"lost": False}]
        await asyncio.sleep(0)
        assert probes == ["look"]  # one probe at a time: the first is done, and one more
        assert host.role is Role.HOSTING and side.cut_off_at == clock.now
        assert table.log.entries[-1]["k"] == "leave"  # p3 was not connected: logged gone

    _run(scenario())


def test_the_watch_leaves_a_guest_and_an_ended_match_alone(
    clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def scenario() -> None:
        table = Table("numeri", 3)
        table.start()
        guest, seen = peer_at(table, 1)
        host, hseen = peer_at(table, 0)
        host.log.phase = "over"
        monkeypatch.setattr(net.hosting, "asyncio", _Sleeps([lambda: None]))
        for peer in (guest, host):
            with pytest.raises(asyncio.CancelledError):
                await peer.host_side.watch()
        assert seen.events == [] and hseen.events == []
        host.log = None
        monkeypatch.setattr(net.hosting, "asyncio", _Sleeps([lambda: None]))
        with pytest.raises(asyncio.CancelledError):
            await host.host_side.watch()

    _run(scenario())


def test_the_watch_tells_the_wrong_codes_summary(
    clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def scenario() -> None:
        table = Table("dama")
        host, seen = peer_at(table, 0)
        host.host_side.gate.summary = lambda: "3 wrong join codes"  # type: ignore[method-assign]
        monkeypatch.setattr(net.hosting, "asyncio", _Sleeps([lambda: None]))
        with pytest.raises(asyncio.CancelledError):
            await host.host_side.watch()
        assert seen.of("notice")[:1] == [{"text": "3 wrong join codes"}]

    _run(scenario())


# -- over loopback ----------------------------------------------------------------------


def test_a_member_is_served_over_a_real_line_and_logged_gone_when_it_hangs_up() -> None:
    """The whole way: the door, the join, a request placed, a push refused, the leave."""

    async def scenario() -> None:
        from game.rules import variant
        from net.identity import Identity
        from net.peer import Peer

        host = Peer(Identity.fresh(), config("host"))
        port = await host.host(variant("dama", 2))
        raw = await RawGuest.join(port, "anna")
        await raw.until(joined(raw))
        assert host.log is not None and raw.peer in host.log.members
        raw.request({"k": "ready", "ready": True})
        await raw.until(lambda m: m["t"] == "entry" and m["e"]["k"] == "ready")
        raw.request({"k": "offer", "ply": 0})  # refused: to this sender, with the reason
        reject = await raw.until(lambda m: m["t"] == "reject")
        assert reject == {"t": "reject", "kind": "offer", "reason": "the match is not being played"}
        raw.connection.send({"t": "push", "seq": 0, "e": host.log.entries[0]})
        assert await raw.closed_reason() == "pushing entries is only for catching up"
        for _ in range(100):
            if host.log.entries[-1]["k"] == "leave":
                break
            await asyncio.sleep(0.01)
        assert host.log.entries[-1]["k"] == "leave"
        assert not host.host_side.clients
        await host.close()

    _run(scenario())


def test_a_host_whose_serving_fails_hangs_the_line_up_with_the_reason() -> None:
    async def scenario() -> None:
        from game.rules import variant
        from net.identity import Identity
        from net.peer import Peer

        host = Peer(Identity.fresh(), config("host"))
        port = await host.host(variant("dama", 2))

        def broken(*args: Any) -> None:
            raise Rejected("not this")

        raw = await RawGuest.join(port, "anna")
        await raw.until(joined(raw))
        host.host_side.handle_request = broken  # type: ignore[method-assign]
        raw.request({"k": "ready", "ready": True})
        assert await raw.closed_reason() == "the host stopped serving this line"
        await host.close()

    _run(scenario())


async def _closed(line: Any) -> str:
    try:
        while True:
            await line.receive(10)
    except Closed as closed:
        return closed.reason


async def _until(condition: Any) -> None:
    for _ in range(500):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("never")


def test_a_stranger_over_the_limits_of_the_door_is_told_why_it_is_turned_away() -> None:
    """The ninth stranger of one address is hung up on at once; a stranger is turned out,
    the oldest first, when every place at the door is taken."""

    async def scenario() -> None:
        from game.rules import variant
        from net.connection import Connection
        from net.gate import MAX_STRANGERS, MAX_STRANGERS_PER_ADDRESS, address_key
        from net.identity import Identity
        from net.peer import Peer

        host = Peer(Identity.fresh(), config("host"))
        port = await host.host(variant("dama", 2))
        gate = host.host_side.gate
        held = [gate.admit("127.0.0.1", lambda: None) for _ in range(MAX_STRANGERS_PER_ADDRESS)]
        ninth = await Connection.open("127.0.0.1", port)
        assert await _closed(ninth) == "too many connections from this address"
        for slot in held:
            assert slot is not None
            slot.release()
        stranger = await Connection.open("127.0.0.1", port)
        await _until(lambda: gate._per_key.get(address_key("127.0.0.1")) == 1)
        for n in range(MAX_STRANGERS):
            gate.admit(f"10.1.{n // 200}.{n % 200}", lambda: None)
        assert await _closed(stranger) == "too many strangers"
        await host.close()

    _run(scenario())


def test_a_host_tells_its_screen_whom_the_door_refused() -> None:
    async def scenario() -> None:
        from game.rules import variant
        from net.identity import Identity
        from net.peer import Peer
        from tests.role_fakes import Seen

        seen = Seen()
        host = Peer(Identity.fresh(), config("host"), seen)
        port = await host.host(variant("dama", 2))
        raw = await RawGuest.join(port, "mallory", prove=False, version=1)
        await raw.closed_reason()
        await _until(lambda: bool(seen.of("notice")))
        assert seen.of("notice")[0]["text"].startswith("refused mallory: protocol version")
        await host.close()

    _run(scenario())


def test_a_newcomer_that_heard_more_of_the_old_host_catches_this_host_up(clock: Clock) -> None:
    table = Table("dama", logs=2)
    table.put({"k": "ready", "peer": table.peers[1], "ready": False})
    behind = replay(table.log.entries[:-1])
    host, seen = peer_at(table, 0, log=behind)
    other = Line("x")
    host.host_side.clients = {"x": other}  # type: ignore[dict-item]
    line = Line()
    line.inbox = [{"t": "push", "seq": len(behind), "e": table.log.entries[-1]}]
    hello = _hello(table, 1, have=len(table.log), head=table.log.heads[-1])
    assert _run(host.host_side._admit(line, hello, table.peers[1], _slot(host))) is not None
    assert behind.heads[: len(table.log)] == table.log.heads
    assert line.sent[0] == {"t": "want", "from": len(table.log) - 1}
    assert line.sent[1]["t"] == "welcome" and line.sent[1]["seq"] == len(table.log)
    assert {"seq": len(table.log) - 1, "kind": "ready"} in seen.of("entry")
    relayed = {"t": "entry", "seq": len(table.log) - 1, "e": table.log.entries[-1]}
    assert other.sent[0] == relayed  # each entry taken is relayed to the members at once


def test_a_newly_connected_member_owing_dice_has_its_grace_from_its_connection(
    clock: Clock,
) -> None:
    async def scenario() -> None:
        table = Table("numeri", 3, logs=1)
        table.start()
        host, _ = peer_at(table, 0, drop_timeout=1.0)
        side = host.host_side
        for n in (1,):
            side.clients[table.peers[n]] = Line(table.peers[n], heard_at=clock.now)  # type: ignore[assignment]
        table.put({"k": "leave", "peer": table.peers[2], "reason": "x"})
        line = Line(heard_at=clock.now)
        hello = _proven(host, table, 2, have=len(table.log), head=table.log.heads[-1])
        assert await side._admit(line, hello, table.peers[2], _slot(host)) is not None  # type: ignore[arg-type]
        joined = len(table.log)
        assert table.log.members[table.peers[2]].present
        assert table.log.owes_dice(table.peers[2])
        side._withholders()
        clock.now += WITHHOLD_GRACE  # past the drop timeout, within its grace
        for other in side.clients.values():
            other.heard_at = clock.now
        side._withholders()
        assert table.peers[2] in side.clients
        clock.now += 0.5
        for other in side.clients.values():
            other.heard_at = clock.now
        side._withholders()
        await asyncio.sleep(0)
        assert table.peers[2] not in side.clients and line.closed == "withheld its dice for 6 s"
        assert [e["k"] for e in table.log.entries[joined:]][-1] == "leave"

    _run(scenario())


def test_a_request_whose_signature_is_not_its_senders_is_refused(clock: Clock) -> None:
    """The host checks every member's signature before it places a request (only its own
    entries, signed a moment ago, go in unchecked): a forged one is refused to the sender."""
    table = Table("dama")
    table.start()
    host, _ = peer_at(table, 0)
    line = Line(table.peers[1], heard_at=clock.now)
    host.host_side.clients = {table.peers[1]: line}  # type: ignore[dict-item]
    forged = {**_request(table, 1, {"k": "offer", "ply": 0}), "sig": bytes(64)}
    before = len(table.log)
    host.host_side.handle_request(table.peers[1], forged, line)  # type: ignore[arg-type]
    assert len(table.log) == before
    assert line.sent == [
        {"t": "reject", "kind": "offer",
         "reason": "forged entry: the offer's signature is not its author's"}
    ]  # fmt: skip


def test_a_new_host_counts_the_drop_timeout_of_the_missing_from_when_it_learnt(
    clock: Clock,
) -> None:
    """Voted in, a host knows nothing of when the missing left: they are gone from now on
    for its drop timeout, whether it logs them gone itself or finds them gone in the log."""
    table = Table("numeri", 3, logs=1)
    table.start()
    table.settle_dice()
    table.put({"k": "leave", "peer": table.peers[2], "reason": "x"})
    host, _ = peer_at(table, 0, drop_timeout=30.0)
    anna = Line(table.peers[1], heard_at=clock.now)
    host.host_side.clients = {table.peers[1]: anna}  # type: ignore[dict-item]
    computer = {"k": "computer", "seat": 2, "level": "easy"}
    host.host_side.handle_request(table.peers[1], _request(table, 1, computer), anna)  # type: ignore[arg-type]
    assert anna.sent[-1]["reason"] == "p3 has been gone 0.0 s; the others can decide after 30.0 s"


def test_members_logged_gone_by_the_watch_are_gone_from_then_for_the_drop_timeout(
    clock: Clock,
) -> None:
    table = Table("numeri", 3, logs=1)
    table.start()
    table.settle_dice()
    host, _ = peer_at(table, 0, drop_timeout=30.0)
    anna = Line(table.peers[1], heard_at=clock.now)
    host.host_side.clients = {table.peers[1]: anna}  # type: ignore[dict-item]
    host.host_side._leave_the_gone()  # p3 never connected to this host
    leave = _last(table, "leave")
    assert (leave["peer"], leave["reason"]) == (table.peers[2], "connection lost")
    clock.now += 29.9
    anna.heard_at = clock.now
    computer = {"k": "computer", "seat": 2, "level": "easy"}
    host.host_side.handle_request(table.peers[1], _request(table, 1, computer), anna)  # type: ignore[arg-type]
    assert anna.sent[-1]["reason"] == "p3 has been gone 29.9 s; the others can decide after 30.0 s"
    clock.now += 0.1
    host.host_side.handle_request(table.peers[1], _request(table, 1, computer), anna)  # type: ignore[arg-type]
    assert table.log.seats[2].computer == "easy"


def test_other_requests_go_on_while_a_player_is_missing(clock: Clock) -> None:
    """Only a ``computer`` or an ``end`` waits for the drop timeout: the rest of the match
    (a draw offered, say) is placed as ever."""
    table = Table("dama", logs=1)
    table.start()
    host, seen = peer_at(table, 0, drop_timeout=30.0)
    line = Line(table.peers[1])
    host.host_side.clients = {table.peers[1]: line}  # type: ignore[dict-item]
    host.host_side.drop(line)  # type: ignore[arg-type]
    assert table.log.paused
    host.request({"k": "offer", "ply": 0})
    assert _last(table, "offer")["peer"] == host.me and seen.of("rejected") == []
