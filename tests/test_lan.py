"""LAN play over real sockets on loopback: peers in separate processes play whole matches,
survive a killed guest and a killed host, and refuse whatever breaks the rules."""

from __future__ import annotations

import asyncio
import json
import secrets
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from game.rules import every_setup
from net.framing import encode
from net.testing.peer_process import ROOT
from tests.lan import RawGuest, guest, host, joined

TWO_PLAYER = sorted({v.name for v in every_setup() if v.players == 2 and v.name != "numeri"})


def _verified(tmp: Path, name: str) -> dict:
    result = subprocess.run(
        [sys.executable, "-m", "net", "verify", str(tmp / f"{name}.rec")],
        capture_output=True, text=True, cwd=ROOT, check=False,
    )  # fmt: skip
    report = json.loads(result.stdout)
    assert result.returncode == 0 and report["ok"], report
    return report


@pytest.mark.slow
@pytest.mark.parametrize("game", [*TWO_PLAYER, "numeri"])
def test_two_peers_play_a_whole_match_and_agree(tmp_path: Path, game: str) -> None:
    server, port = host(tmp_path, game, "--ai", "easy")
    other = guest(tmp_path, port, "anna", "--ai", "easy")
    assert other.finish() == 0, other.tail()
    assert server.finish() == 0, server.tail()
    assert server.last("over")["digest"] == other.last("over")["digest"]
    first, second = _verified(tmp_path, "host"), _verified(tmp_path, "anna")
    assert first["digest"] == second["digest"] == other.last("over")["digest"]
    assert first["moves"] == second["moves"]


@pytest.mark.slow
@pytest.mark.parametrize("players", [3, 4])
def test_numeri_with_three_and_four_peers(tmp_path: Path, players: int) -> None:
    server, port = host(tmp_path, "numeri", "--players", str(players), "--ai", "medium")
    others = [guest(tmp_path, port, f"g{n}", "--ai", "easy") for n in range(1, players)]
    for process in [*others, server]:
        assert process.finish() == 0, process.tail()
    digests = {p.last("over")["digest"] for p in [server, *others]}
    assert len(digests) == 1
    report = _verified(tmp_path, "g1")
    assert report["rolls"] > 20 and report["digest"] in digests


@pytest.mark.slow
def test_a_guest_killed_mid_match_rejoins_and_the_match_completes(tmp_path: Path) -> None:
    server, port = host(tmp_path, "dama", "--ai", "easy", "--pace", "0.02")
    anna = guest(tmp_path, port, "anna", "--ai", "easy", "--pace", "0.02")
    server.wait_for("action", ply=12)
    anna.popen.send_signal(signal.SIGKILL)
    anna.finish()
    waiting = server.wait_for("paused")
    assert waiting["waiting"] == ["anna"]
    back = guest(tmp_path, port, "anna", "--ai", "easy", "--pace", "0.02")
    server.wait_for("resumed")
    assert back.finish() == 0, back.tail()
    assert server.finish() == 0, server.tail()
    assert back.last("over")["digest"] == server.last("over")["digest"]
    assert _verified(tmp_path, "anna")["plies"] > 12


@pytest.mark.slow
def test_the_host_killed_mid_match_and_the_others_go_on(tmp_path: Path) -> None:
    drop = ("--drop-timeout", "0.5", "--on-drop", "computer", "--pace", "0.01")
    server, port = host(tmp_path, "numeri", "--players", "3", "--ai", "easy", *drop)
    anna = guest(tmp_path, port, "anna", "--ai", "easy", *drop)
    bert = guest(tmp_path, port, "bert", "--ai", "easy", *drop)
    server.wait_for("action", ply=20)
    server.popen.send_signal(signal.SIGKILL)
    server.finish()
    new_host = anna.wait_for("host")["name"]
    assert new_host in ("anna", "bert")  # whoever joined first
    assert bert.wait_for("host")["name"] == new_host
    assert anna.finish() == 0, anna.tail()
    assert bert.finish() == 0, bert.tail()
    over = anna.last("over")
    assert over["digest"] == bert.last("over")["digest"]
    report = _verified(tmp_path, "bert")
    if report["phase"] == "abandoned":  # the host died owing a die: only it could reveal it
        assert over["forfeit"] == ["host"]
    else:
        assert report["phase"] == "over"


def _run(coroutine) -> None:
    asyncio.run(asyncio.wait_for(coroutine, 60))


def _their_turn(raw: RawGuest):
    def check(message: dict) -> bool:
        log = raw.log
        return (
            message["t"] == "entry"
            and log is not None
            and log.phase == "playing"
            and log.state.to_move == log.seat_of(_peer(raw))
        )

    return check


def _peer(raw: RawGuest) -> str:
    from net.identity import peer_id

    return peer_id(raw.key)


async def _bad_then_good_actions(raw: RawGuest, seat: int) -> None:
    """At this guest's turn: an illegal action, a wrong digest and a replayed ply, each
    refused with its reason and applied nowhere; then the right one."""
    log = raw.log
    assert log is not None
    state = log.state
    legal = state.legal_actions()
    text = state.action_to_str(legal[0])
    after = state.apply(legal[0]).digest()
    illegal = next((str(p) for p in range(1, 6) if p not in legal), "9")
    raw.request({"k": "act", "seat": seat, "ply": log.ply, "a": illegal, "d": after})
    refused = (await raw.until(lambda m: m["t"] == "reject"))["reason"]
    assert refused.startswith(("illegal action", "malformed action")), refused  # "9": no pawn
    raw.request({"k": "act", "seat": seat, "ply": log.ply, "a": text, "d": "f" * 32})
    reject = await raw.until(lambda m: m["t"] == "reject")
    assert f"digest mismatch after ply {log.ply}" in reject["reason"]
    raw.request({"k": "act", "seat": seat, "ply": log.ply - 1, "a": text, "d": after})
    assert "out of sequence" in (await raw.until(lambda m: m["t"] == "reject"))["reason"]
    assert log.state == state  # nothing of it was applied anywhere
    raw.request({"k": "act", "seat": seat, "ply": log.ply, "a": text, "d": after})
    await raw.until(lambda m: m["t"] == "entry" and m["e"]["k"] == "act")


def test_bad_actions_and_forged_reveals_are_rejected_and_reported(tmp_path: Path) -> None:
    server, port = host(tmp_path, "numeri", "--ai", "easy", "--pace", "0.2")

    async def scenario() -> None:
        raw = await RawGuest.join(port)
        await raw.until(joined(raw))
        raw.request({"k": "ready", "ready": True})
        await raw.until(lambda m: m["t"] == "entry" and m["e"]["k"] == "start")
        log = raw.log
        assert log is not None
        me = _peer(raw)
        chain_seed = secrets.token_bytes(32)
        from net.fairdice import HashChain

        chain = HashChain(chain_seed, 4096)
        raw.request({"k": "commit", "first": 1, "c": chain.commitment})
        seat = log.seat_of(me)
        revealed: set[int] = set()
        checked: set[str] = set()
        while checked != {"forged", "out of turn", "own turn"}:
            message = await raw.next()
            if log.needs_reveal(me) and log.next_event not in revealed:
                revealed.add(log.next_event)
                event = log.next_event
                if "forged" not in checked:  # a forged reveal first, then the real one
                    checked.add("forged")
                    raw.request({"k": "reveal", "event": event, "v": bytes(32)})
                    reject = await raw.until(lambda m: m["t"] == "reject")
                    assert "forged dice reveal" in reject["reason"]
                raw.request({"k": "reveal", "event": event, "v": chain.reveal(event)})
            elif message["t"] != "entry" or log.state.to_move < 0:
                continue
            elif log.state.to_move != seat and "out of turn" not in checked:
                checked.add("out of turn")
                raw.request({"k": "act", "seat": seat, "ply": log.ply, "a": "1", "d": "0" * 32})
                reject = await raw.until(lambda m: m["t"] == "reject")
                assert "out of turn" in reject["reason"] or "out of sequence" in reject["reason"]
            elif log.state.to_move == seat:
                checked.add("own turn")
                await _bad_then_good_actions(raw, seat)
        await raw.connection.close("test over")

    _run(scenario())
    server.kill()


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"version": 99}, "protocol version mismatch"),
        ({"rules": "0" * 32}, "rules mismatch"),
        ({"code": "wrong"}, "wrong join code"),
    ],
)
def test_incompatible_peers_are_refused_with_a_reason_both_sides_show(
    tmp_path: Path, changes: dict, reason: str
) -> None:
    server, port = host(tmp_path, "dama", "--code", "1234")

    async def scenario() -> None:
        raw = await RawGuest.join(port, prove="code" in changes, **changes)
        assert reason in await raw.closed_reason()

    _run(scenario())
    assert reason in server.wait_for("notice")["text"]
    server.kill()


def test_garbage_from_the_network_closes_only_that_connection(tmp_path: Path) -> None:
    server, port = host(tmp_path, "dama", "--ai", "easy")

    async def scenario() -> None:
        for garbage in (b"\x00\x00\x00\x05hello", b"\xff\xff\xff\xff", encode({"t": "fly"})):
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(garbage)
            await writer.drain()
            data = await asyncio.wait_for(reader.read(4096), 10)
            assert b"bye" in data
            writer.close()
        raw = await RawGuest.join(port, name="fine")
        await raw.until(joined(raw))

    _run(scenario())
    server.kill()


@pytest.mark.slow
def test_a_spectator_watches_but_cannot_act(tmp_path: Path) -> None:
    server, port = host(tmp_path, "dama", "--ai", "easy", "--pace", "0.05")
    anna = guest(tmp_path, port, "anna", "--ai", "easy", "--pace", "0.05")
    server.wait_for("action", ply=2)

    async def scenario() -> None:
        raw = await RawGuest.join(port, name="watcher", role="spectator")
        await raw.until(lambda m: m["t"] == "entry" and m["e"]["k"] == "join"
                        and m["e"]["name"] == "watcher")  # fmt: skip
        log = raw.log
        assert log is not None and log.members[_peer(raw)].role == "spectator"
        raw.request({"k": "act", "seat": 0, "ply": log.ply, "a": "22-18", "d": "0" * 32})
        assert "spectators only watch" in (await raw.until(lambda m: m["t"] == "reject"))["reason"]
        await raw.until(lambda m: m["t"] == "entry" and m["e"]["k"] == "act")

    _run(scenario())
    assert anna.finish() == 0 and server.finish() == 0


async def _welcome_as_host(connection, host, match: str, seq: int) -> tuple[dict, bytes, dict]:
    """A dishonest host's side of the handshake, with ``host``'s real key: the guest's hello,
    the challenge's nonce and the guest's proof; the welcome announces ``seq`` entries."""
    from net.identity import peer_id
    from net.signing import host_payload

    hello = await connection.receive()
    nonce = secrets.token_bytes(32)
    connection.send(
        {
            "t": "challenge",
            "match": match,
            "key": host.key,
            "nonce": nonce,
            "sig": host.sign(host_payload(match, hello["key"], hello["nonce"])),
        }
    )
    proof = await connection.receive()
    connection.send({"t": "welcome", "match": match, "you": peer_id(hello["key"]),
                     "host": host.peer, "seq": seq})  # fmt: skip
    return hello, nonce, proof


def _opening(host, match: str) -> dict:
    """The first entry of a Dama match ``host`` opens, signed and placed by it."""
    from game.rules import variant
    from net.matchlog import placed, signed

    opening = {"k": "match", "id": match, "setup": variant("dama").to_fields(),
               "seats": ["", ""], "code": False, "host": host.peer, "name": "Host",
               "chain": 64, "key": host.key}  # fmt: skip
    return placed(None, host, signed(None, host, opening, 1))


def test_a_host_that_forges_a_request_in_a_guests_name_is_caught(tmp_path: Path) -> None:
    """A dishonest host (played here by the test, with a real key and a valid log) places
    an entry in the guest's name that the guest never signed: the guest — as every other
    peer would — refuses it, stops following that host and says why."""
    from net.connection import Connection
    from net.identity import Identity, peer_id
    from net.matchlog import MatchLog, placed, signed
    from net.signing import join_payload

    forger = Identity.fresh()
    match = "ab" * 16

    async def scenario() -> None:
        done = asyncio.Event()

        async def serve(reader, writer) -> None:
            connection = Connection(reader, writer)
            hello, nonce, proof = await _welcome_as_host(connection, forger, match, seq=0)
            guest_id = peer_id(hello["key"])
            log = MatchLog(_opening(forger, match))
            own = secrets.token_bytes(32)
            entries = [
                {"k": "join", "peer": forger.peer, "key": forger.key, "name": "Forger",
                 "role": "player", "seat": 0, "addr": "", "nonce": own,
                 "proof": forger.sign(join_payload(match, forger.key, own, "Forger", "player", 0))},
                {"k": "join", "peer": guest_id, "key": hello["key"], "name": hello["name"],
                 "role": "player", "seat": -1, "addr": "", "nonce": nonce, "proof": proof["sig"]},
                {"k": "offer", "peer": guest_id, "ply": 0},  # anna never offered anything
            ]  # fmt: skip
            connection.send({"t": "entry", "seq": 0, "e": log.entries[0]})
            for n, entry in enumerate(entries, 2):
                sealed = placed(log, forger, signed(log, forger, entry, n))
                connection.send({"t": "entry", "seq": len(log), "e": sealed})
                if entry["k"] == "join":
                    log.apply(sealed)
            try:
                while True:
                    await connection.receive(20)
            except Exception:
                done.set()

        server = await asyncio.start_server(serve, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        anna = guest(tmp_path, port, "anna", "--ai", "easy")
        await asyncio.wait_for(done.wait(), 30)
        assert await asyncio.to_thread(anna.finish) == 1
        error = anna.last("error")["text"]
        assert "(entry 3, offer): forged entry: the offer's signature is not its author's" in error
        server.close()

    _run(scenario())


@pytest.mark.slow
def test_a_host_that_announces_history_it_never_sends_loses_the_guest_at_a_deadline(
    tmp_path: Path,
) -> None:
    """A dishonest host welcomes a guest with 500 entries of history, sends the first and
    then only answers pings: the guest (whose screen waits in the room until the history is
    in) gives that host up by the deadline the hosts themselves keep, and says why."""
    from net.connection import Connection
    from net.identity import Identity

    liar = Identity.fresh()
    match = "cd" * 16

    async def scenario() -> None:
        done = asyncio.Event()

        async def serve(reader, writer) -> None:
            connection = Connection(reader, writer)
            await _welcome_as_host(connection, liar, match, seq=500)
            connection.send({"t": "entry", "seq": 0, "e": _opening(liar, match)})
            try:
                while True:
                    await connection.receive(60)  # pings are answered in there
            except Exception:
                done.set()

        server = await asyncio.start_server(serve, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        anna = guest(tmp_path, port, "anna", "--ai", "easy")
        await asyncio.wait_for(done.wait(), 60)  # she leaves: 5 s and 5 ms an entry announced
        assert await asyncio.to_thread(anna.finish) == 1
        assert "announced 500 log entries and sent 1 in time" in anna.last("error")["text"]
        server.close()

    _run(scenario())


def test_a_guest_cannot_decide_for_a_missing_player_before_the_drop_timeout(
    tmp_path: Path,
) -> None:
    """A dishonest guest asks, the moment a player drops, that the computer take her seat
    or that the match end: the host refuses both until the drop timeout is over."""
    server, port = host(tmp_path, "numeri", "--players", "3", "--ai", "easy",
                        "--drop-timeout", "3", "--on-drop", "end")  # fmt: skip
    anna = guest(tmp_path, port, "anna", "--ai", "easy")

    async def scenario() -> None:
        raw = await RawGuest.join(port, name="mallory")
        await raw.until(joined(raw))
        raw.request({"k": "ready", "ready": True})
        await raw.until(lambda m: m["t"] == "entry" and m["e"]["k"] == "start")
        log = raw.log
        assert log is not None
        anna_id = next(p for p, member in log.members.items() if member.name == "anna")
        seat = next(i for i, info in enumerate(log.seats) if info.owner == anna_id)
        anna.kill()
        await raw.until(lambda m: m["t"] == "entry" and m["e"]["k"] == "leave")
        raw.request({"k": "computer", "seat": seat, "level": "easy"})
        reject = await raw.until(lambda m: m["t"] == "reject")
        assert "has been gone" in reject["reason"]
        raw.request({"k": "end", "reason": "she left"})
        reject = await raw.until(lambda m: m["t"] == "reject")
        assert "has been gone" in reject["reason"]
        assert log.phase == "playing" and log.seats[seat].computer == ""
        await raw.connection.close("test over")

    _run(scenario())
    server.kill()
