"""The peer itself (net/peer.py): the match it opens, the join, the requests it signs, what it
tells its screen of each entry, whom the match waits for, and its closing — in process, a
host and a guest on loopback where a socket is needed, logs of
:class:`tests.net_helpers.Table` elsewhere."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

import net.peer
from game.rules import variant
from net.door import Unproven
from net.identity import Identity
from net.matchlog import replay
from net.peer import REJOIN_GRACE, Peer, PeerConfig
from net.role import IllegalMoveError, Role
from tests.net_helpers import Table
from tests.role_fakes import Line, Seen, config, peer_at


def _run(coroutine: Any) -> Any:
    return asyncio.run(asyncio.wait_for(coroutine, 20))


def test_the_defaults_of_a_peer() -> None:
    c = PeerConfig("anna")
    assert (c.role, c.seat, c.level, c.code, c.interface) == ("player", -1, None, None, "")
    assert (c.drop_timeout, c.on_drop, c.drop_level, c.rejoin_grace) == (
        60.0, "wait", "medium", REJOIN_GRACE,
    )  # fmt: skip
    assert (c.think_seconds, c.pace, c.autostart, c.allow_coaching) == (1.0, 0.0, False, False)
    peer = Peer(Identity.fresh(), c)
    assert peer.role is Role.IDLE and not peer.hosting and not peer.lost_touch
    assert peer.log is None and peer.code is None and peer.failure is None
    peer.observe("anything", {})  # observed by nobody: nothing happens


def test_a_host_opens_its_match_joins_it_and_listens() -> None:
    async def scenario() -> None:
        seen = Seen()
        host = Peer(Identity.fresh(), config("h" * 50, seat=1), seen)
        port = await host.host(variant("numeri", 3), {2: "easy"}, code="4711", chain_length=99)
        log = host.log
        assert log is not None and host.role is Role.HOSTING
        opening = log.entries[0]
        assert (opening["k"], opening["seats"], opening["code"], opening["host"]) == (
            "match", ["", "", "easy"], True, host.me,
        )  # fmt: skip
        assert opening["name"] == "h" * 40 and opening["chain"] == 99
        assert opening["key"] == host.identity.key and "start" not in opening
        assert len(bytes.fromhex(opening["id"])) == 16 and opening["n"] == 1
        assert opening["setup"] == variant("numeri", 3).to_fields()
        join = log.entries[1]
        assert join["k"] == "join" and join["peer"] == host.me and join["n"] == 2
        assert join["addr"] == f"127.0.0.1:{port}" and len(join["nonce"]) == 32
        assert log.seats[1].owner == host.me and host.code == "4711"
        assert seen.of("listening") == [{"port": port, "match": log.match_id}]
        assert port == host.listen_port and port > 0
        other = Peer(Identity.fresh(), config("o"))
        await other.host(variant("dama", 2), name="Corner table", code="", start=None)
        assert other.log is not None and other.log.entries[0]["name"] == "Corner table"
        assert other.code is None and other.log.entries[0]["code"] is False
        assert other.log.seats[0].owner == other.me
        await host.close()
        await other.close()

    _run(scenario())


def test_a_guest_joins_over_loopback_and_follows_the_host() -> None:
    async def scenario() -> None:
        host = Peer(Identity.fresh(), config("host"))
        port = await host.host(variant("dama", 2))
        seen = Seen()
        guest = Peer(Identity.fresh(), config("anna"), seen)
        await guest.join("127.0.0.1", port)
        assert guest.role is Role.FOLLOWING and guest.listen_port > 0
        assert guest.guest_side.host_address == ("127.0.0.1", str(port))
        for _ in range(200):
            if guest.log is not None and len(guest.log) == len(host.log or ()):
                break
            await asyncio.sleep(0.01)
        assert guest.log is not None and guest.log.heads == host.log.heads  # type: ignore[union-attr]
        assert not guest.catching_up
        guest.request({"k": "ready", "ready": True})
        for _ in range(200):
            if host.log is not None and host.log.members[guest.me].ready:
                break
            await asyncio.sleep(0.01)
        assert host.log is not None and host.log.members[guest.me].ready
        await guest.close("bye now")
        await host.close()
        assert guest.finished.is_set() and host.finished.is_set()

    _run(scenario())


def test_a_join_to_nobody_is_unproven_with_the_reason() -> None:
    async def scenario() -> None:
        guest = Peer(Identity.fresh(), config("anna"))
        await guest.listen()
        port = guest.listen_port
        await guest.close()
        with pytest.raises(Unproven) as caught:
            await guest.join("127.0.0.1", port)
        assert caught.value.reason.startswith(f"cannot reach 127.0.0.1:{port}: ")
        assert guest.role is Role.IDLE

    _run(scenario())


def test_a_guest_joins_the_address_it_is_given() -> None:
    """A host listening on 127.0.0.2 only: reached there, not at the default address."""

    async def scenario() -> None:
        host = Peer(Identity.fresh(), config("host", interface="127.0.0.2"))
        port = await host.host(variant("dama", 2))
        guest = Peer(Identity.fresh(), config("anna"))
        await guest.join("127.0.0.2", port)
        assert guest.role is Role.FOLLOWING
        await guest.close()
        await host.close()

    _run(scenario())


def test_a_guest_joins_only_a_host_that_proves_the_key_asked_for() -> None:
    async def scenario() -> None:
        host = Peer(Identity.fresh(), config("host"))
        port = await host.host(variant("dama", 2))
        wrong = Peer(Identity.fresh(), config("anna"))
        with pytest.raises(Unproven):
            await wrong.join("127.0.0.1", port, Identity.fresh().key)
        assert wrong.role is Role.IDLE
        await wrong.close()
        right = Peer(Identity.fresh(), config("bert"))
        await right.join("127.0.0.1", port, host.identity.key)
        assert right.role is Role.FOLLOWING
        await right.close()
        await host.close()

    _run(scenario())


def test_a_peer_that_listens_already_joins_on_that_socket(monkeypatch: pytest.MonkeyPatch) -> None:
    async def scenario() -> None:
        host = Peer(Identity.fresh(), config("host"))
        port = await host.host(variant("dama", 2))
        guest = Peer(Identity.fresh(), config("anna"))
        own = await guest.listen()
        await guest.join("127.0.0.1", port)
        assert guest.listen_port == own
        await guest.close()
        await host.close()

    _run(scenario())


# -- requests ---------------------------------------------------------------------------


def test_a_guests_request_is_signed_and_sent_to_its_host() -> None:
    table = Table("dama")
    guest, _ = peer_at(table, 1)
    guest.request({"k": "ready", "ready": False})  # no line to a host: nothing
    line = Line()
    guest.guest_side.upstream = line  # type: ignore[assignment]
    guest.request({"k": "ready", "ready": False})
    (sent,) = line.sent
    entry = sent["e"]
    assert sent["t"] == "request" and entry["peer"] == guest.me and entry["k"] == "ready"
    table.logs[0].place(entry, table.identities[0])  # signed by the guest: the log takes it
    guest.log = None
    guest.request({"k": "ready", "ready": True})
    assert len(line.sent) == 1


def test_a_peers_entries_are_numbered_past_every_one_it_made() -> None:
    table = Table("dama")
    host, _ = peer_at(table, 0)
    own = table.log.next_n(host.me)
    host._n = 0
    assert host._signed({"k": "ready", "peer": host.me, "ready": True})["n"] == own
    host._n = own + 5
    assert host._signed({"k": "ready", "peer": host.me, "ready": True})["n"] == own + 6


def test_the_hosts_own_request_is_placed_and_relayed_to_all_its_author_last() -> None:
    table = Table("dama")
    table.start()
    host, seen = peer_at(table, 0)
    lines = {p: Line(p, heard_at=1e12) for p in ("a", "b")}
    host.host_side.clients = dict(lines)  # type: ignore[arg-type]
    host.request({"k": "offer", "ply": 0})
    seq = next(s for s, e in enumerate(table.log.entries) if e["k"] == "offer")
    assert all({"t": "entry", "seq": seq, "e": table.log.entries[seq]} in line.sent
               for line in lines.values())  # fmt: skip
    assert {"seq": seq, "kind": "offer"} in seen.of("entry")


def test_a_decision_with_no_turn_waiting_is_ignored_even_in_the_lobby() -> None:
    table = Table("dama", logs=1)
    host, seen = peer_at(table, 0)
    host.decide("a1-b2")
    assert seen.events == []


def test_a_person_decides_only_when_asked() -> None:
    table = Table("dama")
    table.start()
    host, seen = peer_at(table, 0)
    state = table.log.state
    host.decide(state.action_to_str(state.legal_actions()[0]))  # not asked yet
    assert table.log.ply == 0
    host._after_change()
    host.decide(state.action_to_str(state.legal_actions()[0]))
    assert table.log.ply == 1
    text = state.action_to_str(state.legal_actions()[0])
    assert seen.of("action") == [{"ply": 0, "seat": 0, "action": text}]


def test_every_roll_is_told_once() -> None:
    table = Table("numeri", 3)
    table.start()
    log = replay(table.log.entries[:])
    table.settle_dice()
    host, seen = peer_at(table, 0, log=log)
    for entry in table.log.entries[len(log) :]:
        log.apply(entry)
        host._entry_applied(entry)
    assert seen.of("roll") == [
        {"number": roll.event, "outcome": roll.outcome} for roll in table.log.rolls
    ] and seen.of("roll")
    assert [e["kind"] for e in seen.of("entry")] == [
        e["k"] for e in table.log.entries[len(table.log.entries) - len(seen.of("entry")) :]
    ]


# -- whom the match waits for -----------------------------------------------------------


def test_a_guest_catches_up_until_it_holds_what_the_welcome_announced() -> None:
    table = Table("dama")
    guest, _ = peer_at(table, 1)
    guest.guest_side.history_until = len(table.log) + 1
    assert guest.catching_up
    guest.guest_side.history_until = len(table.log)
    assert not guest.catching_up
    guest.log = None
    assert guest.catching_up
    host, _ = peer_at(table, 0)
    host.guest_side.history_until = 99
    assert not host.catching_up


def test_the_match_waits_for_the_missing_and_a_side_cut_off_for_those_it_cannot_reach() -> None:
    table = Table("numeri", 3)
    table.start()
    table.settle_dice()
    host, _ = peer_at(table, 0)
    guest, _ = peer_at(table, 1)
    assert host.waiting_for() == [] and guest.waiting_for() == []
    table.put({"k": "leave", "peer": table.peers[2], "reason": "x"})
    assert host.waiting_for() == [table.peers[2]]
    guest._role = Role.SEEKING
    assert guest.waiting_for() == sorted({table.peers[0], table.peers[2]})
    host._role = Role.CUT_OFF
    host.host_side.clients = {table.peers[1]: Line(table.peers[1], heard_at=-1e9)}  # type: ignore[dict-item]
    assert host.waiting_for() == sorted(table.peers[1:])
    host.host_side.clients[table.peers[1]].heard_at = 1e12
    assert host.waiting_for() == [table.peers[2]]
    host.log = None
    assert host.waiting_for() == []


def test_the_missing_are_handed_over_or_the_match_ended_through_the_seat_agent() -> None:
    table = Table("numeri", 3)
    table.start()
    table.settle_dice()
    table.put({"k": "leave", "peer": table.peers[2], "reason": "x"})
    guest, _ = peer_at(table, 1)
    line = Line()
    guest.guest_side.upstream = line  # type: ignore[assignment]
    assert guest.can_hand_over()
    guest.hand_over_the_missing("hard")
    guest.end_for_the_missing()
    assert [(e["k"], e.get("level")) for e in line.requests()] == [
        ("computer", "hard"),
        ("end", None),
    ]


# -- the role ---------------------------------------------------------------------------


def test_a_peer_moves_only_along_its_roles_moves() -> None:
    peer = Peer(Identity.fresh(), config("p"))
    with pytest.raises(IllegalMoveError):
        peer._become(Role.SEEKING)
    peer._become(Role.FOLLOWING)
    assert peer.role is Role.FOLLOWING and not peer.hosting
    peer._become(Role.SEEKING)
    assert peer.lost_touch
    peer._become(Role.STANDING)
    peer._become(Role.CUT_OFF)
    assert peer.hosting and peer.lost_touch


def test_a_peer_names_its_own_address_by_its_interface_or_its_first_lan_address(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    peer = Peer(Identity.fresh(), config("p"))
    peer.listen_port = 4242
    assert peer._own_address() == "127.0.0.1:4242"
    peer.config.interface = ""
    monkeypatch.setattr(net.peer, "lan_addresses", lambda: ["192.168.0.5", "10.0.0.1"])
    assert peer._own_address() == "192.168.0.5:4242"


def test_closing_says_goodbye_on_every_line_and_stops_everything() -> None:
    async def scenario() -> None:
        peer = Peer(Identity.fresh(), config("p"))
        await peer.listen()
        lines = [Line("a"), Line("b")]
        peer.host_side.clients = {"a": lines[0]}  # type: ignore[dict-item]
        peer.guest_side.upstream = lines[1]  # type: ignore[assignment]
        forever = peer._spawn(asyncio.sleep(100))
        assert forever in peer._tasks
        await peer.close()
        for _ in range(3):
            await asyncio.sleep(0)
        assert [line.closed for line in lines] == ["leaving", "leaving"]
        assert forever.cancelled() and peer._tasks == set()
        assert peer.finished.is_set() and peer._server is not None
        assert not peer._server.is_serving()
        assert peer.witness._transport is not None and peer.witness._transport.is_closing()
        bare = Peer(Identity.fresh(), config("q"))
        await bare.close()
        assert bare.finished.is_set()

    _run(scenario())


def test_a_peer_listens_where_it_is_told() -> None:
    async def scenario() -> None:
        peer = Peer(Identity.fresh(), config("p"))
        port = await peer.listen()
        assert peer._server is not None
        assert peer._server.sockets[0].getsockname() == ("127.0.0.1", port)
        await peer.close()

    _run(scenario())


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_peers_on_one_computer_each_listen_and_hear_heads_where_they_listen() -> None:
    async def scenario() -> None:
        first, second = Peer(Identity.fresh(), config("a")), Peer(Identity.fresh(), config("b"))
        ports = [await first.listen(), await second.listen()]  # the default: any free port
        assert ports[0] != ports[1]
        for peer in (first, second):
            transport = peer.witness._transport
            assert transport is not None
            assert transport.get_extra_info("sockname") == ("127.0.0.1", peer.listen_port)
            await peer.close()

    _run(scenario())


def test_a_peer_listens_on_the_port_it_is_given() -> None:
    async def scenario() -> None:
        port = _free_port()
        host = Peer(Identity.fresh(), config("h"))
        assert await host.host(variant("dama", 2), port=port) == port
        await host.close()
        port = _free_port()
        peer = Peer(Identity.fresh(), config("p"))
        assert await peer.listen(port) == port
        await peer.close()

    _run(scenario())


def test_a_peer_without_an_interface_listens_on_every_one() -> None:
    async def scenario() -> None:
        peer = Peer(Identity.fresh(), config("p", interface=""))
        await peer.listen()
        assert peer._server is not None
        assert peer._server.sockets[0].getsockname()[0] == "0.0.0.0"
        await peer.close()

    _run(scenario())


def test_a_host_short_of_descriptors_says_so_on_its_screen() -> None:
    import errno

    async def scenario() -> None:
        seen = Seen()
        peer = Peer(Identity.fresh(), config("p"), seen)
        await peer.listen()
        loop = asyncio.get_running_loop()
        loop.call_exception_handler({"message": "accept", "exception": OSError(errno.EMFILE, "")})
        assert len(seen.of("notice")) == 1
        await peer.close()

    _run(scenario())


def test_a_match_from_a_set_up_position_carries_its_start() -> None:
    async def scenario() -> None:
        from tests.test_lan_setup import FEN

        host = Peer(Identity.fresh(), config("h"))
        await host.host(variant("dama", 2), start=FEN)
        assert host.log is not None and host.log.entries[0]["start"] == FEN
        await host.close()

    _run(scenario())


def test_a_candidate_waits_for_everyone_else_until_it_hosts() -> None:
    table = Table("numeri", 3)
    table.start()
    table.settle_dice()
    cand, _ = peer_at(table, 1, role=Role.STANDING)
    cand.election.voters[table.peers[2]] = Line(table.peers[2], heard_at=1e12)  # type: ignore[assignment]
    assert cand.waiting_for() == sorted({table.peers[0], table.peers[2]})


def test_a_host_cut_off_waits_for_a_member_back_on_its_line_until_its_join_is_logged() -> None:
    table = Table("numeri", 3)
    table.start()
    table.settle_dice()
    table.put({"k": "leave", "peer": table.peers[2], "reason": "x"})
    host, _ = peer_at(table, 0, role=Role.CUT_OFF)
    host.host_side.clients = {table.peers[2]: Line(table.peers[2], heard_at=1e12)}  # type: ignore[dict-item]
    assert host.waiting_for() == sorted(table.peers[1:])  # p3 is connected, not logged back


def test_a_peers_witness_sends_its_heads_to_the_others_not_to_itself() -> None:
    table = Table("numeri", 3)
    peer, _ = peer_at(table, 1)
    for n, member in enumerate(peer.log.members.values()):  # type: ignore[union-attr]
        member.addr = f"127.0.0.{n + 1}:{5000 + n}"
    sent: list[tuple[str, int]] = []

    class Transport:
        def sendto(self, data: bytes, address: tuple[str, int]) -> None:
            sent.append(address)

    peer.witness._transport = Transport()  # type: ignore[assignment]
    peer.witness.send()
    assert sent == [("127.0.0.1", 5000), ("127.0.0.3", 5002)]


def test_a_fork_the_peers_witness_finds_stops_the_peer() -> None:
    """The host told p2 that p3 left and p3 that p2 left: p3's signed head reaches p2's
    witness, and p2 stops following the host, with the reason on its screen."""
    import msgpack

    from net.witness import head_at

    table = Table("numeri", 3)
    first, second = table.logs[1], table.logs[2]
    seq = len(first)
    first.apply(table.seal({"k": "leave", "peer": table.peers[2], "reason": "x"}, first))
    second.apply(table.seal({"k": "leave", "peer": table.peers[1], "reason": "x"}, second))

    async def scenario() -> None:
        peer, seen = peer_at(table, 1, log=first)
        upstream = Line(table.peers[0])
        peer.guest_side.upstream = upstream  # type: ignore[assignment]
        datagram = msgpack.packb(head_at(second, seq).message(first.match_id), use_bin_type=True)
        peer.witness.received(datagram, ("127.0.0.3", 5002))
        (fork,) = seen.of("fork")
        assert fork["entry"] == seq + 1 and fork["theirs"] == second.heads[seq]
        assert peer.failure == fork["text"] and peer.witness.proof is not None
        await asyncio.sleep(0)
        assert upstream.closed == fork["text"]

    _run(scenario())
