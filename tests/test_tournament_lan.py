"""Tournaments over real sockets on loopback (net/tournament_director.py,
net/tournament_player.py): ``python -m net tournament host`` and ``join`` processes play
whole tournaments, each game an ordinary LAN match between the two players' own processes;
every participant ends with the same standings and digest and a record that verifies; a
dishonest director's invented results are refused by every player; a director killed
mid-round resumes from its saved log, and a player who leaves is withdrawn."""

from __future__ import annotations

import asyncio
import random
import signal
import socket
import time
from functools import partial
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import msgpack
import pytest

from game.rules import variant
from net import records, tournament_records
from net.connection import Connection
from net.framing import FrameDecoder, decode_body, encode
from net.identity import Identity
from net.messages import MessageError
from net.signing import tournament_match
from net.testing.peer_process import PeerProcess
from net.tournament_director import Director, DirectorConfig
from net.tournament_door import Untrusted, enter
from net.tournament_log import joined, record_digest, replay_tournament, seal
from net.tournament_messages import Parts, record_frames, validate
from net.tournament_player import PlayerConfig, TournamentPlayer
from tests.net_helpers import Table

HANG = 240.0
"""Seconds after which a process that has not ended is taken for hung (not a bound on the
time a tournament takes: a guard against waiting for ever)."""


def director(tmp: Path, game: str, *extra: str) -> tuple[PeerProcess, int]:
    process = PeerProcess.net(
        "tournament", "host", game, "--interface", "127.0.0.1", "--no-advertise",
        "--record", str(tmp / "director"), *extra, cwd=tmp,
    )  # fmt: skip
    return process, process.wait_for("listening")["port"]


def player(tmp: Path, port: int, name: str, *extra: str) -> PeerProcess:
    return PeerProcess.net(
        "tournament", "join", f"127.0.0.1:{port}", "--ai", "easy", "--interface", "127.0.0.1",
        "--name", name, "--identity", str(tmp / f"{name}.id"), "--record", str(tmp / f"{name}.rec"),
        *extra, cwd=tmp,
    )  # fmt: skip


def verified(path: Path) -> dict[str, Any]:
    """The report of ``python -m net verify`` (the function behind it) on a record."""
    report = tournament_records.verify(*tournament_records.load(path))
    assert report["ok"], report
    return report


def one_tournament(tmp: Path, boss: PeerProcess, players: dict[str, PeerProcess]) -> dict[str, Any]:
    """Every process ended well with the same digest and standings, and every record
    verifies to that digest; the director's ``over``."""
    for name, process in players.items():
        assert process.finish(HANG) == 0, (name, process.tail())
    assert boss.finish(HANG) == 0, boss.tail()
    over = boss.last("over")
    for process in players.values():
        assert process.last("over")["digest"] == over["digest"]
        assert process.last("over")["standings"] == over["standings"]
    for path in [tmp / "director" / "tournament.rec", *(tmp / f"{n}.rec" for n in players)]:
        report = verified(path)
        assert report["head"] == over["digest"] and report["over"]
        assert report["standings"] == over["standings"]
    return over


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


# -- whole tournaments --------------------------------------------------------------------


@pytest.mark.slow
def test_a_round_robin_of_mulino_between_four_computers_runs_to_the_end(tmp_path: Path) -> None:
    boss, port = director(tmp_path, "mulino", "--players", "4", "--format", "round-robin")
    players = {name: player(tmp_path, port, name) for name in ("anna", "bruno", "carla", "dario")}
    over = one_tournament(tmp_path, boss, players)
    assert len(over["standings"]) == 4
    results = [e for e in boss.events if e["event"] == "result"]
    assert len(results) == 6 and all(r["record"] for r in results)  # every game played
    rounds = [e["round"] for e in boss.events if e["event"] == "round"]
    assert rounds == [1, 2, 3]
    report = verified(tmp_path / "anna.rec")
    assert report["matches"] == 6 and report["unscored"] == []


@pytest.mark.slow
def test_a_swiss_of_numeri_between_six_computers_runs_to_the_end(tmp_path: Path) -> None:
    boss, port = director(tmp_path, "numeri", "--players", "6", "--format", "swiss")
    names = ("anna", "bruno", "carla", "dario", "elena", "fabio")
    players = {name: player(tmp_path, port, name) for name in names}
    over = one_tournament(tmp_path, boss, players)
    assert len(over["standings"]) == 6
    # Four rounds (⌈log2 6⌉ + 1), or three when the pairs not yet met after round 3 make
    # two triangles and no round 4 avoids a pair meeting twice (§14.2; verify checks it).
    rounds = [e["round"] for e in boss.events if e["event"] == "round"]
    assert rounds in ([1, 2, 3], [1, 2, 3, 4])
    met = [frozenset(e["players"]) for e in boss.events if e["event"] == "pairing"]
    assert len(met) == 3 * len(rounds) == len(set(met))  # three games a round, no pair twice


@pytest.mark.slow
def test_a_knockout_of_three_gives_the_top_seed_a_bye_and_ends_with_its_final(
    tmp_path: Path,
) -> None:
    boss, port = director(tmp_path, "mulino", "--players", "3", "--format", "knockout")
    players = {name: player(tmp_path, port, name) for name in ("anna", "bruno", "carla")}
    over = one_tournament(tmp_path, boss, players)
    rounds = [e for e in boss.events if e["event"] == "round"]
    assert [(r["round"], r["games"], len(r["byes"])) for r in rounds] == [(1, 1, 1), (2, 1, 0)]
    finals = [e for e in boss.events if e["event"] == "pairing" and e["round"] == 2]
    assert rounds[0]["byes"][0] in (finals[0]["white"], finals[0]["black"])
    assert len(over["standings"]) == 3


# -- a dishonest director -------------------------------------------------------------------


class Dishonest(Director):
    """A director that, once round 1 is paired, sends every player a result it invented
    (sealed with its own key, so only the checks of the log can catch it)."""

    def __init__(self, forge: str, identities: list[Identity], observe: Any) -> None:
        config = DirectorConfig(
            variant("mulino", 2), "round-robin", 2, interface="127.0.0.1", drop_timeout=60.0
        )
        super().__init__(config, observe)
        self.forge = forge
        self.identities = {identity.peer: identity for identity in identities}

    def _put(self, content: dict[str, Any], record: bytes | None = None) -> None:
        super()._put(content, record)
        if content["k"] == "round":
            self._send_forged()

    def _send_forged(self) -> None:
        log = self.log
        assert log is not None and log.tournament is not None
        white, black = log.tournament.rounds[0].pairings[0].players
        match = tournament_match(log.id, 1, 0)
        board = 0
        if self.forge == "wrong players":
            data = _played([Identity.fresh(), Identity.fresh()], match)
        elif self.forge == "does not verify":
            data = _tampered(_played([self.identities[white], self.identities[black]], match))
        else:  # a result for a pairing never made: board 2 of a round of one game
            data = _played([self.identities[white], self.identities[black]], match)
            board = 2
        content = {
            "k": "result", "round": 1, "board": board, "result": "1-0", "match": match,
            "record": record_digest(data),
        }  # fmt: skip
        entry = seal(log, self.identity, content)  # placed next, never applied here
        frames = [*record_frames(1, board, data), encode({"t": "entry", "e": entry})]
        for connection in self.clients.values():
            for frame in frames:
                connection.send_frame(frame)


def _played(identities: list[Identity], match: str) -> bytes:
    """A whole signed match of Mulino between ``identities`` (White first) under ``match``."""
    table = Table(variant("mulino", 2), identities=identities, match=match, logs=1)
    table.start()
    table.play_out(random.Random(7))
    return records.encode(table.log)


def _tampered(data: bytes) -> bytes:
    """``data`` with the last move's signature broken."""
    content = msgpack.unpackb(data, raw=False)
    last = next(e for e in reversed(content["entries"]) if e["k"] == "act")
    last["sig"] = bytes(64)
    return bytes(msgpack.packb(content, use_bin_type=True))


@pytest.mark.slow
@pytest.mark.parametrize(
    ("forge", "reason"),
    [
        ("wrong players", "the record's players are not the pairing's"),
        ("does not verify", "the match record does not verify"),
        ("never paired", "is no pairing the system made"),
    ],
)
def test_every_player_refuses_a_result_the_director_invented(
    tmp_path: Path, forge: str, reason: str
) -> None:
    identities = [Identity.fresh(), Identity.fresh()]
    for name, identity in zip(("anna", "bruno"), identities, strict=True):
        identity.save(tmp_path / f"{name}.id")

    async def night() -> list[PeerProcess]:
        boss = Dishonest(forge, identities, lambda kind, data: None)
        port = await boss.start()
        players = [player(tmp_path, port, name) for name in ("anna", "bruno")]
        try:
            for process in players:
                await asyncio.to_thread(process.finish, HANG)
        finally:
            await boss.close()
        return players

    for process in asyncio.run(night()):
        assert process.popen.returncode == 1, process.tail()
        refused = process.last("refused")["reason"]
        assert "(entry 5, result)" in refused and reason in refused, refused
        assert not [e for e in process.events if e["event"] == "result"]


# -- faults ------------------------------------------------------------------------------------


@pytest.mark.slow
def test_a_director_killed_mid_round_resumes_from_its_saved_log(tmp_path: Path) -> None:
    """Its computer player (the fourth seat), whose matches died with it, plays again from
    the restarted director: hosting its game again as White, or joining White's again."""
    port = free_port()
    setup = ("mulino", "--players", "3", "--format", "round-robin", "--ai", "easy")
    first, _ = director(tmp_path, *setup, "--port", str(port))
    names = ("anna", "bruno", "carla")
    players = {name: player(tmp_path, port, name, "--pace", "0.02") for name in names}
    first.wait_for("round", round=2, timeout=HANG)
    # Seeded last, the computer has White in round 2 (Berger): its match dies with the
    # director once its opponent has joined it.
    opponent = first.wait_for("pairing", round=2, white="Computer 1")["black"]
    players[opponent].wait_for("playing", round=2, timeout=HANG)
    first.popen.send_signal(signal.SIGKILL)
    first.finish()
    again, again_port = director(tmp_path, *setup, "--port", str(port))
    assert again_port == port
    assert again.events[0]["entries"] >= 9  # open, 4 joined, 2 rounds, round 1's 2 results
    over = one_tournament(tmp_path, again, players)
    assert len(over["standings"]) == 4 and sum(s["computer"] for s in over["standings"]) == 1
    assert len([e for e in again.events if e["event"] == "result"]) >= 4  # rounds 2 and 3
    for process in players.values():
        assert any(e["event"] == "notice" and "director was lost" in e["text"]
                   for e in process.events)  # fmt: skip
    again_played = [e for e in players[opponent].events if e["event"] == "playing"]
    assert [(e["round"], e["colour"]) for e in again_played].count((2, "black")) == 2


@pytest.mark.slow
def test_a_tv_that_only_watches_follows_to_the_end_and_is_never_entered(tmp_path: Path) -> None:
    """``join --watch`` (any Tavolo's TV): refused without the join code; with it, it sees
    the live boards move, ends with the players' digest and standings, and is nobody's
    opponent — the tournament has its two players only."""
    boss, port = director(
        tmp_path, "mulino", "--players", "2", "--format", "round-robin", "--code", "4711"
    )
    nosy = player(tmp_path, port, "tv", "--watch")
    assert nosy.finish(HANG) == 1
    assert (
        nosy.last("refused")["reason"] == "the director refused: this tournament needs a join code"
    )
    tv = player(tmp_path, port, "tv", "--watch", "--code", "4711")
    tv.wait_for("joined", timeout=HANG)
    boss.wait_for("watching", timeout=HANG)
    players = {
        name: player(tmp_path, port, name, "--code", "4711", "--pace", "0.05")
        for name in ("anna", "bruno")
    }
    over = one_tournament(tmp_path, boss, players)
    assert tv.finish(HANG) == 0, tv.tail()
    assert tv.last("over")["digest"] == over["digest"]
    assert tv.last("over")["standings"] == over["standings"] and len(over["standings"]) == 2
    plies = [e["ply"] for e in tv.events if e["event"] == "board"]
    assert len(plies) >= 3 and plies == sorted(plies)
    assert [e["name"] for e in boss.events if e["event"] == "entered"] in (
        ["anna", "bruno"], ["bruno", "anna"],
    )  # fmt: skip


@pytest.mark.slow
@pytest.mark.parametrize("frozen", ["white", "black"])
def test_a_player_frozen_for_30_s_mid_game_comes_back_to_its_match(
    tmp_path: Path, frozen: str
) -> None:
    """The computer of one player of a game stops dead for 30 s (SIGSTOP: no goodbye, its
    sockets open), then wakes: the game is played to its end between the two of them —
    scored from its record, nobody withdrawn, no computer standing in — and every
    participant ends with one digest."""
    boss, port = director(tmp_path, "mulino", "--players", "2", "--format", "round-robin")
    players = {name: player(tmp_path, port, name, "--pace", "0.15") for name in ("anna", "bruno")}
    pairing = boss.wait_for("pairing", round=1, timeout=HANG)
    sleeper = players[pairing[frozen]]
    for process in players.values():
        process.wait_for("playing", round=1, timeout=HANG)
    time.sleep(2)  # a few moves in
    sleeper.popen.send_signal(signal.SIGSTOP)
    time.sleep(30)
    sleeper.popen.send_signal(signal.SIGCONT)
    over = one_tournament(tmp_path, boss, players)
    result = boss.last("result")
    assert result["record"] and result["result"] in ("1-0", "0-1", "½-½"), result
    assert not [e for e in boss.events if e["event"] == "withdrawn"]
    assert len(over["standings"]) == 2
    data = next(iter(tournament_records.load(tmp_path / "director" / "tournament.rec")[1].values()))
    _version, entries, _fork = records.parse(data, "the game's record")
    assert not [e for e in entries if e["k"] in ("computer", "host")]  # no stand-in, no takeover
    for n, entry in enumerate(entries):  # a line that timed out while it slept: it came back
        if entry["k"] == "leave":
            assert any(e["k"] == "join" and e["peer"] == entry["peer"] for e in entries[n:])


@pytest.mark.slow
def test_a_player_who_leaves_is_withdrawn_and_a_computer_takes_the_odd_seat(
    tmp_path: Path,
) -> None:
    quick = ("--drop-timeout", "1")
    boss, port = director(
        tmp_path, "mulino", "--players", "4", "--format", "swiss", "--ai", "easy", *quick
    )
    names = ("anna", "bruno", "carla", "dario")
    players = {name: player(tmp_path, port, name, *quick, "--pace", "0.02") for name in names}
    boss.wait_for("round", round=1, timeout=HANG)
    players["dario"].popen.send_signal(signal.SIGKILL)
    players.pop("dario").finish()
    withdrawn = boss.wait_for("withdrawn", timeout=HANG)
    assert withdrawn["name"] == "dario"
    over = one_tournament(tmp_path, boss, players)
    computer = [s for s in over["standings"] if s["computer"]]
    assert len(computer) == 1 and len(over["standings"]) == 5
    later = [e for e in boss.events if e["event"] == "pairing" and e["round"] > 1]
    assert later and all("dario" not in (e["white"], e["black"]) for e in later)
    assert any(computer[0]["player"] in e["players"] for e in later)


# -- the door ------------------------------------------------------------------------------


def honest(players: int) -> Director:
    config = DirectorConfig(variant("mulino", 2), "round-robin", players, interface="127.0.0.1")
    return Director(config, lambda kind, data: None)


@pytest.mark.slow
def test_a_round_robin_under_way_takes_no_newcomer(tmp_path: Path) -> None:
    async def night() -> PeerProcess:
        boss = honest(2)
        port = await boss.start()
        first = [player(tmp_path, port, name) for name in ("anna", "bruno")]
        try:
            await asyncio.to_thread(first[0].wait_for, "round", HANG)
            late = player(tmp_path, port, "carla")
            await asyncio.to_thread(late.finish, HANG)
        finally:
            await boss.close()
            for process in first:
                process.kill()
        return late

    late = asyncio.run(night())
    assert late.popen.returncode == 1, late.tail()
    refused = late.last("refused")["reason"]
    assert refused == "the director refused: the round-robin has begun: it takes no player now"


def test_a_player_entering_from_the_lan_list_refuses_a_director_of_another_key() -> None:
    """The list said which key directs the tournament; whoever answers at that address
    holding another key (an announcement copied to lure players) gets nothing: the player
    stops before sending its entry, and the director enters nobody."""
    seen: list[tuple[str, dict[str, Any]]] = []

    async def night() -> tuple[int, Director]:
        boss = honest(2)
        port = await boss.start()
        config = PlayerConfig(name="anna", level="easy", interface="127.0.0.1",
                              director=Identity.fresh().key, reconnect=1.0)  # fmt: skip
        someone = TournamentPlayer(Identity.fresh(), config, lambda k, d: seen.append((k, d)))
        try:
            code = await asyncio.wait_for(someone.run("127.0.0.1", port), HANG)
        finally:
            await boss.close()
        return code, boss

    code, boss = asyncio.run(night())
    assert code == 1
    assert (
        "refused",
        {"reason": "the director there holds another key than the one announced"},
    ) in seen
    assert boss.log is not None and not boss.log.entrants


async def _enter_from(address: str, port: int, code: str | None) -> str | None:
    """A newcomer from ``address`` asking to enter with ``code``: None if entered, else the
    director's reason."""
    original = asyncio.open_connection
    asyncio.open_connection = partial(original, local_addr=(address, 0))  # type: ignore[assignment]
    try:
        connection = await Connection.open("127.0.0.1", port, check=validate)
    finally:
        asyncio.open_connection = original  # type: ignore[assignment]
    try:
        await enter(connection, Identity.fresh(), None, "mallory", False, code)
    except Untrusted as refused:
        return refused.reason.removeprefix("the director refused: ")
    finally:
        connection.hang_up("leaving")
    return None


async def _silent_from(
    address: str, port: int
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A connection from ``address`` that never says a word (kept open by its writer)."""
    return await asyncio.open_connection("127.0.0.1", port, local_addr=(address, 0))


def test_the_directors_door_rations_wrong_codes_and_strangers_as_a_matchs_does() -> None:
    """§10 at the director: an address that guessed a wrong join code waits before its next
    guess is even looked at (others come in at once with the right one); nine silent
    connections from one address — the ninth is turned away at once, and a player from
    another address still enters; the director says the wrong codes once, in words."""
    notices: list[str] = []

    async def night() -> tuple[list[str | None], bytes]:
        config = DirectorConfig(
            variant("mulino", 2), "round-robin", 4, interface="127.0.0.1", code="4711"
        )
        boss = Director(config, lambda k, d: notices.append(d["text"]) if k == "notice" else None)
        port = await boss.start()
        try:
            said = [
                await _enter_from("127.0.0.3", port, "0000"),
                await _enter_from("127.0.0.3", port, "0001"),
                await _enter_from("127.0.0.4", port, "4711"),
            ]
            silent = [await _silent_from("127.0.0.5", port) for _ in range(8)]
            ninth, _kept = await _silent_from("127.0.0.5", port)
            turned_away = await asyncio.wait_for(ninth.read(), 2.0)
            said.append(await _enter_from("127.0.0.6", port, "4711"))
            assert all(not reader.at_eof() for reader, _ in silent)  # still waited for
        finally:
            await boss.close()
        return said, turned_away

    said, turned_away = asyncio.run(night())
    assert said == [
        "wrong join code (the next try in 1 s)",
        "too many wrong join codes from this address: try again in 1 s",  # not looked at
        None,
        None,
    ]
    bye = FrameDecoder().feed(turned_away)
    assert [m["reason"] for m in bye] == ["too many connections from this address"]
    assert notices and "wrong join code" in notices[0].lower()


@pytest.mark.slow
def test_every_player_sees_the_others_games_move_and_nobody_else_can_move_them() -> None:
    """The TV's live boards: each White reports its match's position through the director
    to every player; a player sees the game it does not play move on, as positions of the
    tournament's game.  A position said by Black, for a game never paired or for a game
    already scored, is passed over by the director."""

    async def night() -> tuple[dict[tuple[int, int], list[int]], Director]:
        boss = honest(4)
        port = await boss.start()
        players = [
            TournamentPlayer(
                Identity.fresh(),
                PlayerConfig(name=name, level="easy", interface="127.0.0.1", pace=0.05),
                lambda kind, data: None,
            )
            for name in ("anna", "bruno", "carla", "dario")
        ]
        runs = [asyncio.create_task(p.run("127.0.0.1", port)) for p in players]
        seen: dict[tuple[int, int], list[int]] = {}
        try:
            while len(seen) < 2 or min(map(len, seen.values())) < 3:
                await asyncio.sleep(0.05)
                anna = players[0]
                for game, message in anna.boards.items():
                    plies = seen.setdefault(game, [])
                    if not plies or plies[-1] != message["ply"]:
                        plies.append(message["ply"])
            assert boss.log is not None and boss.log.tournament is not None
            pairings = boss.log.tournament.rounds[0].pairings
            black = pairings[0].black
            held = dict(boss.boards)
            forged = {"t": "board", "round": 1, "board": 0, "ply": 99_999, "state": b"x"}
            boss._on_board(black, forged)  # Black's word
            boss._on_board(pairings[0].white, {**forged, "board": 7})  # no such game
            boss._on_board(pairings[0].white, {**forged, "round": 2})  # no such round
            assert boss.boards == held  # none of the three taken (no await between)
        finally:
            for run in runs:
                run.cancel()
            await asyncio.gather(*runs, return_exceptions=True)
            await boss.close()
        return seen, boss

    seen, _boss = asyncio.run(asyncio.wait_for(night(), HANG))
    for plies in seen.values():
        assert plies == sorted(plies) and len(set(plies)) >= 3  # the game moved on, in order


@pytest.mark.slow
def test_a_dozen_players_entering_at_once_from_one_address_all_get_in() -> None:
    """The door takes 8 strangers an address at once (§10); a player turned away for that
    tries again, as for a lost line, instead of giving up (16 players on one machine once
    lost two this way)."""

    async def night() -> Director:
        boss = honest(12)
        port = await boss.start()
        config = PlayerConfig(name="p", level="easy", interface="127.0.0.1")
        players = [TournamentPlayer(Identity.fresh(), config, lambda k, d: None) for _ in range(12)]
        runs = [asyncio.create_task(p.run("127.0.0.1", port)) for p in players]
        try:
            while boss.log is not None and len(boss.log.entrants) < 12:
                assert not any(run.done() for run in runs), [r.result() for r in runs if r.done()]
                await asyncio.sleep(0.05)
        finally:
            for run in runs:
                run.cancel()
            await asyncio.gather(*runs, return_exceptions=True)
            await boss.close()
        return boss

    boss = asyncio.run(asyncio.wait_for(night(), 60))
    assert boss.log is not None and len(boss.log.entrants) == 12


def test_players_refuse_another_director_at_their_directors_address(tmp_path: Path) -> None:
    """A director lost and another (another key, another tournament) answering at its
    address: the players hold their tournament's opening and director, and stop."""

    async def night() -> list[PeerProcess]:
        boss = honest(3)  # two of three: round 1 never comes
        port = await boss.start()
        players = [player(tmp_path, port, name) for name in ("anna", "bruno")]
        try:
            for process in players:
                await asyncio.to_thread(process.wait_for, "joined", HANG)
            await asyncio.to_thread(players[1].wait_for, "entered", HANG, name="bruno")
            await boss.close()
            impostor = honest(3)
            await impostor.start(port)
            for process in players:
                await asyncio.to_thread(process.finish, HANG)
            await impostor.close()
        finally:
            for process in players:
                process.kill()
        return players

    for process in asyncio.run(night()):
        assert process.popen.returncode == 1, process.tail()
        assert process.last("refused")["reason"] == (
            "that director is not the director of this player's tournament"
        )


def test_when_a_rounds_time_runs_out_its_unfinished_games_are_drawn() -> None:
    """A round robin of two with a second a round, its players entered and never playing:
    the round's time runs out, the game is drawn without a record, said in a notice, and
    the tournament ends; every participant's replay of the log takes the draw."""
    notices: list[str] = []

    async def night() -> Director:
        config = DirectorConfig(
            variant("mulino", 2), "round-robin", 2, interface="127.0.0.1", round_seconds=1
        )
        boss = Director(config, lambda k, d: notices.append(d["text"]) if k == "notice" else None)
        await boss.start()
        assert boss.log is not None and boss.log.time == 1
        for name in ("anna", "bruno"):
            boss._put(joined(Identity.fresh(), boss.log, name, computer=False))
        boss._advance()
        began = boss.round_began
        await asyncio.wait_for(boss.finished.wait(), 10)
        assert time.monotonic() - began >= 1.0  # not before its time
        await boss.close()
        return boss

    boss = asyncio.run(night())
    assert boss.log is not None and boss.log.over
    result = next(e for e in boss.log.entries if e["k"] == "result")
    assert (result["result"], result["record"]) == ("½-½", None)
    assert notices == ["round 1 board 1: the round's time is up: drawn"]
    again = replay_tournament(boss.log.entries, {})
    assert again.head == boss.log.head


def test_a_record_the_director_refuses_is_shown_in_every_room_and_not_scored() -> None:
    """A record that does not verify: not scored, and the director says so to every
    participant (here a TV that only watches), whose room shows it."""
    seen: list[tuple[str, dict[str, Any]]] = []

    async def night() -> Director:
        boss = honest(2)
        port = await boss.start()
        assert boss.log is not None
        for name in ("anna", "bruno"):
            boss._put(joined(Identity.fresh(), boss.log, name, computer=False))
        boss._advance()
        config = PlayerConfig(name="tv", interface="127.0.0.1", watch=True)
        tv = TournamentPlayer(Identity.fresh(), config, lambda k, d: seen.append((k, d)))
        run = asyncio.create_task(tv.run("127.0.0.1", port))
        try:
            while not boss.watchers:
                await asyncio.sleep(0.02)
            boss._submitted(1, 0, b"not a record")
            while not any(kind == "notice" for kind, _ in seen):
                await asyncio.sleep(0.02)
        finally:
            run.cancel()
            await asyncio.gather(run, return_exceptions=True)
            await boss.close()
        return boss

    boss = asyncio.run(asyncio.wait_for(night(), HANG))
    assert boss.log is not None and not boss.log.scored
    text = next(data["text"] for kind, data in seen if kind == "notice")
    assert text.startswith("director: round 1 board 1: a record refused: result: ")


def test_the_director_scores_only_a_record_that_replays_as_the_pairings() -> None:
    """The director is a participant too: a record sent to it is judged before any result
    is placed (here in process, its two players entered by hand)."""
    notices: list[str] = []

    async def night() -> Director:
        boss = Director(
            DirectorConfig(variant("mulino", 2), "round-robin", 2),
            lambda kind, data: notices.append(data["text"]) if kind == "notice" else None,
        )
        boss.log = boss._opened()
        pair = [Identity.fresh(), Identity.fresh()]
        for name, identity in zip(("anna", "bruno"), pair, strict=True):
            boss._put(joined(identity, boss.log, name, computer=False))
        boss._advance()
        assert boss.log.tournament is not None
        white, black = boss.log.tournament.rounds[0].pairings[0].players
        seated = [next(i for i in pair if i.peer == p) for p in (white, black)]
        match = tournament_match(boss.log.id, 1, 0)
        boss._submitted(1, 0, _played([Identity.fresh(), Identity.fresh()], match))
        boss._submitted(1, 0, _tampered(_played(seated, match)))
        boss._submitted(1, 0, _played(seated, tournament_match(boss.log.id, 2, 0)))
        assert len(boss.log) == 4  # open, two joined, the round: nothing scored
        boss._submitted(1, 0, _played(seated, match))
        await boss.finished.wait()
        return boss

    boss = asyncio.run(night())
    assert boss.log is not None and boss.log.over and len(boss.log) == 6
    expected = [
        "the record's players are not the pairing's, White in seat 1",
        "the match record does not verify",
        "the record is of another match (another pairing's)",
    ]
    assert len(notices) == 3
    for notice, reason in zip(notices, expected, strict=True):
        assert notice.startswith("round 1 board 1: a record refused: result: ") and reason in notice


# -- the messages ------------------------------------------------------------------------------


def test_a_match_record_travels_in_parts_and_comes_together_whole() -> None:
    data = bytes(range(256)) * 200  # 51,200 bytes: four parts
    frames = record_frames(3, 1, data)
    messages = [decode_body(frame[4:]) for frame in frames]
    assert len(messages) == 4 and all(validate(m) for m in messages)
    parts = Parts()
    assert [parts.add(m) for m in messages] == [None, None, None, (3, 1, data)]
    with pytest.raises(MessageError, match="out of order"):
        Parts().add(messages[1])
    with pytest.raises(MessageError, match="beyond the parts announced"):
        Parts().add({**messages[0], "part": 4})
    with pytest.raises(MessageError, match="'code' must be 16 hex digits"):
        validate({"t": "hosting", "round": 1, "board": 0, "port": 4000, "code": "ABC"})


def test_black_is_told_the_directors_own_address_for_a_white_on_its_machine() -> None:
    """A White that reached the director by loopback (its own computer players do) is on
    the director's machine: Black, elsewhere, is sent to the director's address on its own
    line, never to a loopback address of its own."""
    table = {"t": "table", "round": 1, "board": 0, "address": "127.0.0.1", "port": 4000,
             "code": "0" * 16}  # fmt: skip
    black = SimpleNamespace(local_address="192.168.1.20")
    assert Director._table_for(black, table)["address"] == "192.168.1.20"
    elsewhere = {**table, "address": "192.168.1.33"}
    assert Director._table_for(black, elsewhere) == elsewhere
