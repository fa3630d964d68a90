"""The tournament log (net/tournament_log.py) and its record (net/tournament_records.py):
a 4-player round robin of Mulino played in process — every match a real signed match log
whose id is bound to its pairing —, written by the director, saved, verified; and every way
of inventing a result, a player or a round refused with its reason."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.rules import Outcome, variant
from game.tournament import Format, Pairing, Player, Result, Tournament
from net import records, tournament_records
from net.__main__ import main as net_main
from net.fairdice import digest
from net.identity import Identity
from net.signing import join_payload, order_payload, tournament_match
from net.tournament_log import (
    Rejected,
    TournamentLog,
    joined,
    judge_record,
    record_digest,
    replay_tournament,
    seal,
)
from tests.net_helpers import Table

from .examples import examples

TOURNAMENT = "7e" * 16
GAME = variant("mulino", 2)
DIRECTOR = Identity(bytes([100]) * 32)
PLAYERS = [Identity(bytes([n + 1]) * 32) for n in range(6)]
NAMES = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio"]


class Match(Table):
    """A match of two players over a log of its own, its join nonces derived from the match
    (the same match every run)."""

    def join_entry(
        self, identity: Identity, name: str, role: str = "player", seat: int = -1
    ) -> dict[str, Any]:
        match = self.log.match_id
        nonce = digest(bytes.fromhex(match) + identity.key)
        host_key = self.log.keys[self.log.host]
        proof = identity.sign(join_payload(match, host_key, nonce, name, role, seat))
        return {
            "k": "join", "peer": identity.peer, "key": identity.key, "name": name,
            "role": role, "seat": seat, "addr": "", "nonce": nonce, "proof": proof,
        }  # fmt: skip


def played(white: Identity, black: Identity, match: str, seed: int) -> Match:
    """A match of Mulino between ``white`` (seat 1, hosting) and ``black``, by random legal
    moves to its end."""
    table = Match(GAME, identities=[white, black], match=match, logs=1)
    table.start()
    table.play_out(random.Random(seed))
    return table


def result_of(table: Match) -> Result:
    """The result as the board gave it, read here apart from the code under test."""
    ended = table.log.state.result()
    assert ended is not None
    if ended.outcomes[0] is Outcome.WIN:
        return Result.WHITE_WINS
    return Result.BLACK_WINS if ended.outcomes[1] is Outcome.WIN else Result.DRAW


class Night:
    """A tournament directed in process: the director's log, every entry sealed by the
    director and applied as every participant applies it."""

    def __init__(
        self,
        players: int = 4,
        format_: str = "round-robin",
        level: str = "",
        name: str = "Sera",
        seconds: int = 0,
    ) -> None:
        self.identities = {p.peer: p for p in PLAYERS[:players]}
        opening = {
            "k": "open", "id": TOURNAMENT, "director": DIRECTOR.key, "game": GAME.describe(),
            "format": format_, "double": False, "rounds": 0, "name": name,
            "time": seconds, "level": level,
        }  # fmt: skip
        self.log = TournamentLog(seal(None, DIRECTOR, opening))
        self.records: dict[bytes, bytes] = {}
        self.tables: dict[tuple[int, int], Match] = {}

    def put(self, content: dict[str, Any], record: bytes | None = None) -> dict[str, Any]:
        entry = seal(self.log, DIRECTOR, content)
        self.log.apply(entry, record)
        return entry

    def enter_all(self) -> None:
        for n, identity in enumerate(self.identities.values()):
            self.put(joined(identity, self.log, NAMES[n], computer=False))

    def pair(self) -> dict[str, Any]:
        return self.put(self.log.next_round())

    def play(self, number: int, board: int, seed: int | None = None) -> tuple[Match, bytes]:
        """The match of ``board`` of round ``number``, played by its pairing's players."""
        assert self.log.tournament is not None
        white, black = self.log.tournament.rounds[number - 1].pairings[board].players
        match = tournament_match(TOURNAMENT, number, board)
        seed = number * 10 + board if seed is None else seed
        table = played(self.identities[white], self.identities[black], match, seed)
        self.tables[number, board] = table
        return table, records.encode(table.log)

    def score(self, number: int, board: int, data: bytes, result: Result) -> dict[str, Any]:
        entry = self.put(result_content(number, board, result, data), data)
        self.records[record_digest(data)] = data
        return entry

    def play_round(self) -> None:
        self.pair()
        assert self.log.tournament is not None
        number = len(self.log.tournament.rounds)
        for board in range(len(self.log.tournament.rounds[-1].pairings)):
            table, data = self.play(number, board)
            self.score(number, board, data, result_of(table))

    def run(self) -> None:
        self.enter_all()
        assert self.log.tournament is None
        while self.log.tournament is None or not self.log.tournament.over:
            self.play_round()
        self.put({"k": "over"})

    def refused(self, content: dict[str, Any], record: bytes | None = None) -> str:
        """The reason every participant refuses ``content`` sealed by the director next."""
        with pytest.raises(Rejected) as refusal:
            self.log.apply(seal(self.log, DIRECTOR, content), record)
        return refusal.value.reason


def result_content(
    number: int, board: int, result: Result, data: bytes | None, match: str | None = None
) -> dict[str, Any]:
    return {
        "k": "result", "round": number, "board": board, "result": result.value,
        "match": match or tournament_match(TOURNAMENT, number, board),
        "record": None if data is None else record_digest(data),
    }  # fmt: skip


@cache
def _finished() -> Night:
    night = Night()
    night.run()
    return night


@cache
def saved_bytes() -> bytes:
    night = _finished()
    return tournament_records.encode(night.log.entries, list(night.records.values()))


def paired_night() -> Night:
    """Four players entered and round 1 paired: 1-4 and 2-3 (Berger)."""
    night = Night()
    night.enter_all()
    night.pair()
    return night


# -- the honest night ------------------------------------------------------------------


def test_a_round_robin_night_is_written_saved_and_verified(tmp_path: Path) -> None:
    night = _finished()
    tournament = night.log.tournament
    assert tournament is not None and night.log.over
    assert len(tournament.rounds) == 3 and len(night.records) == 6
    path = tmp_path / "night.tournament"
    tournament_records.save(path, night.log, list(night.records.values()))
    report = tournament_records.verify(*tournament_records.load(path))
    assert report["ok"], report
    assert report["head"] == night.log.head and report["over"]
    assert report["matches"] == 6 and report["unscored"] == [] and report["players"] == 4
    # The standings are the pure layer's for the same results, apart from the log.
    again = Tournament.create(
        GAME,
        Format.ROUND_ROBIN,
        [Player(n + 1, p.peer, NAMES[n]) for n, p in enumerate(PLAYERS[:4])],
    )
    for number in (1, 2, 3):
        again = again.pair_next_round()
        for board in range(2):
            again = again.record(number, board, result_of(night.tables[number, board]))
    assert [(s["rank"], s["player"], s["points"]) for s in report["standings"]] == [
        (s.rank, s.player.id, float(s.points)) for s in again.standings()
    ]


def test_every_participant_replaying_the_log_holds_the_same_head() -> None:
    night = _finished()
    again = replay_tournament([dict(e) for e in night.log.entries], night.records)
    assert again.head == night.log.head and again.over
    assert again.standings() == night.log.standings()


@pytest.mark.slow
def test_python_m_net_verify_checks_a_tournament_record(tmp_path: Path) -> None:
    path = tmp_path / "night.tournament"
    path.write_bytes(saved_bytes())
    done = subprocess.run(
        [sys.executable, "-m", "net", "verify", str(path)],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["ok"] and report["tournament"] and report["head"] == _finished().log.head
    assert len(report["standings"]) == 4


def test_verify_still_reads_a_match_record_and_fails_a_bad_tournament(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    match = tmp_path / "match.record"
    match.write_bytes(records.encode(_finished().tables[1, 0].log))
    assert net_main(["verify", str(match)]) == 0
    assert json.loads(capsys.readouterr().out)["match"] == tournament_match(TOURNAMENT, 1, 0)
    night = _finished()
    short = tmp_path / "short.tournament"
    entries = night.log.entries[:3] + night.log.entries[4:]  # one entry taken out
    short.write_bytes(tournament_records.encode(entries, list(night.records.values())))
    assert net_main(["verify", str(short)]) == 1
    report = json.loads(capsys.readouterr().out)
    assert not report["ok"] and report["tournament"]
    assert report["error"].startswith("entry 4 (joined): ")


def test_a_forfeit_against_a_withdrawn_player_needs_no_record_and_a_present_one_does() -> None:
    night = paired_night()
    one, four = PLAYERS[0].peer, PLAYERS[3].peer
    assert "forfeit without a record against a player still in" in night.refused(
        result_content(1, 0, Result.BLACK_FORFEITS, None)
    )
    night.put({"k": "withdrawn", "player": four, "reason": "went home"})
    night.put(result_content(1, 0, Result.BLACK_FORFEITS, None))
    assert night.log.tournament is not None
    assert night.log.tournament.rounds[0].pairings[0] == Pairing(one, four)


def test_an_abandoned_match_scores_a_forfeit_against_the_side_that_left() -> None:
    night = paired_night()
    table = Match(GAME, identities=PLAYERS[1:3], match=tournament_match(TOURNAMENT, 1, 1), logs=1)
    table.start()
    table.act(table.log.state.action_to_str(table.log.state.legal_actions()[0]))
    table.put({"k": "leave", "peer": PLAYERS[2].peer, "reason": "connection lost"})
    table.put({"k": "end", "peer": PLAYERS[1].peer, "reason": "Carla did not come back"})
    data = records.encode(table.log)
    why = night.refused(result_content(1, 1, Result.WHITE_WINS, data), data)
    assert "is entered 1-0, its record says +/-" in why
    night.score(1, 1, data, Result.BLACK_FORFEITS)


# -- forged results --------------------------------------------------------------------


def test_a_record_signed_by_the_wrong_players_is_refused() -> None:
    night = paired_night()
    match = tournament_match(TOURNAMENT, 1, 0)  # Anna v Dario's, played by Bruno and Carla
    data = records.encode(played(PLAYERS[1], PLAYERS[2], match, 1).log)
    why = night.refused(result_content(1, 0, Result.WHITE_WINS, data), data)
    assert "players are not the pairing's" in why


def test_a_record_with_the_colours_the_wrong_way_round_is_refused() -> None:
    night = paired_night()
    match = tournament_match(TOURNAMENT, 1, 0)
    table = played(PLAYERS[3], PLAYERS[0], match, 1)  # Dario took White
    data = records.encode(table.log)
    why = night.refused(result_content(1, 0, result_of(table), data), data)
    assert "players are not the pairing's, White in seat 1" in why


def test_a_record_that_does_not_verify_is_refused() -> None:
    night = paired_night()
    _, data = night.play(1, 0)
    _, entries, _ = records.parse(data)
    entries[-1] = {**entries[-1], "a": entries[-2].get("a", "a1")}  # the last move changed
    forged = msgpack_record(entries)
    why = night.refused(result_content(1, 0, Result.WHITE_WINS, forged), forged)
    assert "the match record does not verify" in why


def msgpack_record(entries: list[dict[str, Any]], fork: dict[str, Any] | None = None) -> bytes:
    import msgpack

    content: dict[str, Any] = {"tavolo-net-record": records.RECORD_VERSION, "entries": entries}
    if fork is not None:
        content["fork"] = fork
    return bytes(msgpack.packb(content, use_bin_type=True))


def _forked(night: Night, signer: Identity) -> tuple[Match, bytes]:
    """Round 1 board 1's match, its record holding a proof that ``signer`` signed another
    head at entry 6 for someone else."""
    table, data = night.play(1, 0)
    _, entries, _ = records.parse(data)
    seq, match = 5, table.log.match_id
    other = bytes(range(16))
    fork = {
        "match": match, "seq": seq, "key": signer.key,
        "heads": [table.log.heads[seq], other.hex()],
        "hs": [entries[seq]["hs"], signer.sign(order_payload(match, seq, other))],
    }  # fmt: skip
    return table, msgpack_record(entries, fork)


def test_a_match_that_forked_is_shown_and_not_scored() -> None:
    """A fork proof that holds, by one of the two players: the game cannot be decided.
    Every participant takes it as a double forfeit (nothing to either, no colour, the pair
    met) and nothing else — not the result the board showed, not without its record."""
    night = paired_night()
    table, forked = _forked(night, PLAYERS[0])
    why = night.refused(result_content(1, 0, result_of(table), forked), forked)
    assert f"is entered {result_of(table).value}, its record says -/-" in why
    assert "has no match record" in night.refused(result_content(1, 0, Result.DOUBLE_FORFEIT, None))
    night.score(1, 0, forked, Result.DOUBLE_FORFEIT)
    tournament = night.log.tournament
    assert tournament is not None and tournament.rounds[0].outcomes[0] is Result.DOUBLE_FORFEIT
    anna, dario = PLAYERS[0].peer, PLAYERS[3].peer
    assert night.log.standings()[0].points == 0 and tournament.rounds[0].pairings[0] == Pairing(
        anna, dario
    )
    table_ = tournament.cross_table()
    row = [p.id for p in table_.players]
    assert table_.cells[row.index(anna)][row.index(dario)] == "-"
    assert table_.cells[row.index(dario)][row.index(anna)] == "-"


def test_a_fork_proof_signed_by_someone_outside_the_pairing_is_refused() -> None:
    night = paired_night()
    _, forked = _forked(night, PLAYERS[5])
    why = night.refused(result_content(1, 0, Result.DOUBLE_FORFEIT, forked), forked)
    assert "does not verify" in why or "forked by neither of its players" in why


def test_a_result_for_a_pairing_never_made_is_refused() -> None:
    night = paired_night()
    _, data = night.play(1, 0)
    assert "round 1 board 3 is no pairing the system made" in night.refused(
        result_content(1, 2, Result.WHITE_WINS, data), data
    )
    assert "round 2 has not been paired" in night.refused(
        result_content(2, 0, Result.WHITE_WINS, data), data
    )


def test_a_record_reused_from_another_board_is_refused() -> None:
    night = paired_night()
    table, data = night.play(1, 0)
    night.score(1, 0, data, result_of(table))
    # Under board 2's match id: the record is of board 1's match.
    why = night.refused(result_content(1, 1, result_of(table), data), data)
    assert "the record is of another match" in why
    # Under board 1's match id, named for board 2: the entry's match id is refused.
    board_one = tournament_match(TOURNAMENT, 1, 0)
    why = night.refused(result_content(1, 1, result_of(table), data, match=board_one), data)
    assert "is not round 1 board 2's match id" in why
    # The same board twice.
    assert "already scored" in night.refused(result_content(1, 0, result_of(table), data), data)


def test_a_result_contradicting_its_record_is_refused() -> None:
    night = paired_night()
    table, data = night.play(1, 0)
    honest = result_of(table)
    wrong = Result.BLACK_WINS if honest is Result.WHITE_WINS else Result.WHITE_WINS
    why = night.refused(result_content(1, 0, wrong, data), data)
    assert f"is entered {wrong.value}, its record says {honest.value}" in why


def test_a_result_without_its_record_is_refused() -> None:
    night = paired_night()
    table, data = night.play(1, 0)
    assert "has no match record" in night.refused(result_content(1, 0, Result.DRAW, None))
    assert "match record is missing" in night.refused(result_content(1, 0, Result.DRAW, data))
    _, other = night.play(1, 1)
    why = night.refused(result_content(1, 0, result_of(table), data), other)
    assert "not the one round 1 board 1's result names" in why


# -- forged entries, players and rounds -----------------------------------------------------


def test_an_entry_not_signed_by_the_director_is_refused() -> None:
    night = paired_night()
    impostor = PLAYERS[5]
    with pytest.raises(Rejected, match="not signed by the director"):
        night.log.apply(seal(night.log, impostor, {"k": "withdrawn", "player": PLAYERS[0].peer,
                                                   "reason": "forged"}))  # fmt: skip
    entry = seal(night.log, DIRECTOR, {"k": "withdrawn", "player": PLAYERS[0].peer, "reason": "x"})
    with pytest.raises(Rejected, match="not signed by the director"):
        night.log.apply({**entry, "reason": "changed after signing"})


def test_a_joined_entry_without_the_players_signature_is_refused() -> None:
    night = Night(level="easy")
    player = PLAYERS[0]
    entry = joined(player, night.log, "Anna", computer=False)
    forged = {**entry, "proof": DIRECTOR.sign(b"anything")}
    assert "the player did not sign the entry" in night.refused(forged)
    renamed = {**entry, "name": "Someone else"}
    assert "the player did not sign the entry" in night.refused(renamed)
    as_computer = {**entry, "computer": True}
    assert "the player did not sign the entry" in night.refused(as_computer)
    other_key = {**entry, "key": PLAYERS[1].key}
    assert "the player id is not its key's" in night.refused(other_key)
    # Another tournament's proof (same director, same player) does not carry over.
    elsewhere = Night(level="easy", name="Another night")
    assert "the player did not sign" in night.refused(joined(player, elsewhere.log, "Anna", False))
    night.put(entry)
    assert "in the tournament already" in night.refused(entry)


def test_a_computer_player_is_the_directors_identity_and_needs_a_level() -> None:
    computer = Identity(bytes([77]) * 32)
    plain = Night()
    assert "fills no seat with the computer" in plain.refused(
        joined(computer, plain.log, "Computer", computer=True)
    )
    filled = Night(level="easy")
    filled.put(joined(computer, filled.log, "Computer", computer=True))
    assert filled.log.entrants[computer.peer].computer


def test_a_round_that_is_not_the_systems_is_refused() -> None:
    night = Night()
    night.enter_all()
    system = night.log.next_round()
    swapped = {**system, "pairings": [[b, w] for w, b in system["pairings"]]}
    assert "not the system's pairing" in night.refused(swapped)
    reordered = {**system, "pairings": system["pairings"][::-1]}
    assert "not the system's board order" in night.refused(reordered)
    a, b, c, d = (p.peer for p in PLAYERS[:4])
    other = {**system, "pairings": [[a, b], [c, d]]}
    assert "the system pairs round 1 as" in night.refused(other)
    left_out = {**system, "pairings": system["pairings"][:1]}
    assert "is left out" in night.refused(left_out)
    assert "round 2 proposed, round 1 is next" in night.refused({**system, "round": 2})


def test_a_round_that_repeats_a_pair_is_refused() -> None:
    night = paired_night()
    first = night.log.entries[-1]
    for board in range(2):
        table, data = night.play(1, board)
        night.score(1, board, data, result_of(table))
    why = night.refused({"k": "round", "round": 2, "pairings": first["pairings"], "byes": []})
    assert "meet 2 times" in why


def test_a_round_before_the_last_has_its_results_is_refused() -> None:
    night = paired_night()
    assert "round 1 is not finished" in night.refused(
        {"k": "round", "round": 2, "pairings": [], "byes": []}
    )
    assert "rounds or results to come" in night.refused({"k": "over"})


def test_a_broken_chain_is_refused() -> None:
    night = paired_night()
    content = {"k": "withdrawn", "player": PLAYERS[0].peer, "reason": "ill"}
    honest = seal(night.log, DIRECTOR, content)
    # Signed by the director, but after another head, or at another place: not this log.
    from net.signing import tournament_payload

    for changes in ({"prev": bytes(16)}, {"at": len(night.log) + 1}):
        moved = {k: v for k, v in {**honest, **changes}.items() if k != "sig"}
        moved["sig"] = DIRECTOR.sign(
            tournament_payload(TOURNAMENT, moved["at"], moved["prev"], moved)
        )
        with pytest.raises(Rejected, match=r"broken chain|placed at"):
            night.log.apply(moved)
    # A whole record with an entry taken out of its middle.
    finished = _finished()
    cut = finished.log.entries[:6] + finished.log.entries[7:]
    with pytest.raises(Rejected, match="entry 7"):
        replay_tournament(cut, finished.records)


def test_nothing_follows_the_end() -> None:
    night = _finished()
    again = replay_tournament(list(night.log.entries), night.records)
    with pytest.raises(Rejected, match="the tournament is over"):
        again.apply(seal(again, DIRECTOR, {"k": "withdrawn", "player": PLAYERS[0].peer,
                                           "reason": "late"}))  # fmt: skip


def test_malformed_entries_are_refused_by_their_shape() -> None:
    night = paired_night()
    with pytest.raises(Rejected, match="unknown tournament entry kind"):
        night.log.apply({"k": "bribe"})
    entry = seal(night.log, DIRECTOR, {"k": "over"})
    with pytest.raises(Rejected, match="unexpected field 'extra'"):
        night.log.apply({**entry, "extra": 1})
    with pytest.raises(Rejected, match="field 'result' must be one of"):
        night.log.apply(seal(night.log, DIRECTOR, {**result_content(1, 0, Result.DRAW, None),
                                                   "result": "2-0"}))  # fmt: skip


def test_the_opening_is_checked() -> None:
    base = {
        "k": "open", "id": TOURNAMENT, "director": DIRECTOR.key, "game": GAME.describe(),
        "format": "swiss", "double": False, "rounds": 3, "name": "x", "time": 0, "level": "",
    }  # fmt: skip
    TournamentLog(seal(None, DIRECTOR, base))
    for changes, why in (
        ({"game": variant("numeri", 3).describe()}, "for two players"),
        ({"game": "mulino:classic players=2 extra=1"}, "no game of Tavolo"),
        ({"game": "scacchi players=2"}, "no game of Tavolo"),
        ({"double": True}, "only a round robin is played double"),
        ({"format": "knockout"}, "only a Swiss sets its number of rounds"),
    ):
        with pytest.raises(Rejected, match=why):
            TournamentLog(seal(None, DIRECTOR, {**base, **changes}))
    with pytest.raises(Rejected, match="not signed by the director"):
        TournamentLog({**seal(None, DIRECTOR, base), "director": PLAYERS[0].key})


# -- the record file -----------------------------------------------------------------------


def test_a_record_kept_under_another_digest_is_refused(tmp_path: Path) -> None:
    night = _finished()
    data = list(night.records.values())
    swapped = tournament_records.encode(night.log.entries, data)
    first = record_digest(data[0]).hex().encode()
    second = record_digest(data[1]).hex().encode()
    swapped = swapped.replace(first, b"X" * 64).replace(second, first).replace(b"X" * 64, second)
    with pytest.raises(tournament_records.TournamentRecordError, match="not its digest's"):
        tournament_records.parse(swapped)


@settings(
    max_examples=examples(80),
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(st.data())
def test_any_byte_changed_in_a_saved_record_fails_verify_cleanly(data: st.DataObject) -> None:
    saved = saved_bytes()
    log_part = len(tournament_records.encode(_finished().log.entries, []))  # the entries first
    anywhere = st.one_of(st.integers(0, log_part - 1), st.integers(0, len(saved) - 1))
    at = data.draw(anywhere, label="at")
    value = data.draw(st.integers(0, 255).filter(lambda v: v != saved[at]), label="value")
    changed = saved[:at] + bytes([value]) + saved[at + 1 :]
    try:
        entries, kept = tournament_records.parse(changed)
    except tournament_records.TournamentRecordError:
        return  # NotATournament included: verify then reads it as a match record, and fails
    report = tournament_records.verify(entries, kept)
    assert not report["ok"], at


# -- other formats ---------------------------------------------------------------------------


def drawn(white: Identity, black: Identity, match: str) -> Match:
    """A match of Mulino drawn by agreement after one move each."""
    table = Match(GAME, identities=[white, black], match=match, logs=1)
    table.start()
    for _ in range(2):
        state = table.log.state
        table.act(state.action_to_str(state.legal_actions()[0]))
    for peer in table.peers:
        table.put({"k": "offer", "peer": peer, "ply": table.log.ply})
    assert table.log.phase == "over"
    return table


def test_a_knockout_draw_gets_its_decider_on_the_next_board_colours_reversed() -> None:
    night = Night(players=2, format_="knockout")
    night.enter_all()
    night.pair()
    anna, bruno = PLAYERS[0], PLAYERS[1]
    table = drawn(anna, bruno, tournament_match(TOURNAMENT, 1, 0))
    night.score(1, 0, records.encode(table.log), Result.DRAW)
    assert night.log.tournament is not None
    decider = night.log.tournament.rounds[0].pairings[1]
    assert decider == Pairing(bruno.peer, anna.peer)
    # The first game's record does not stand for the decider: its match id is board 1's.
    first = records.encode(table.log)
    assert "the record is of another match" in night.refused(
        result_content(1, 1, Result.DRAW, first), first
    )
    table, data = night.play(1, 1)
    night.score(1, 1, data, result_of(table))
    assert night.log.tournament.over
    night.put({"k": "over"})
    report = tournament_records.verify(list(night.log.entries), night.records)
    assert report["ok"] and report["format"] == "knockout" and report["matches"] == 2


@pytest.mark.slow  # six players over four rounds of real match records: seconds
def test_a_swiss_with_a_bye_a_computer_and_a_late_joiner_verifies() -> None:
    night = Night(players=5, format_="swiss", level="easy")
    night.enter_all()
    computer = Identity(bytes([77]) * 32)  # the director holds it
    night.identities[computer.peer] = computer
    night.put(joined(computer, night.log, "Computer", computer=True))
    night.play_round()  # six players: three games
    late = PLAYERS[5]
    night.identities[late.peer] = late
    night.put(joined(late, night.log, "Fabio", computer=False))
    night.play_round()  # seven: three games and a bye
    night.put({"k": "withdrawn", "player": PLAYERS[4].peer, "reason": "left early"})
    while night.log.tournament is None or not night.log.tournament.over:
        night.play_round()  # six again
    night.put({"k": "over"})
    rounds = [e for e in night.log.entries if e["k"] == "round"]
    assert [len(r["byes"]) for r in rounds] == [0, 1, 0, 0]
    assert all(len(r["pairings"]) == 3 for r in rounds)
    report = tournament_records.verify(list(night.log.entries), night.records)
    assert report["ok"], report
    assert report["players"] == 7 and len(report["standings"]) == 7
    assert [s["name"] for s in report["standings"] if s["computer"]] == ["Computer"]
    assert set(report["standings"][0]["tie_breaks"]) == {"Buchholz", "Buchholz cut 1"}


def test_a_round_robin_takes_no_late_joiner() -> None:
    night = paired_night()
    why = night.refused(joined(PLAYERS[4], night.log, "Elena", computer=False))
    assert "takes no player once it has begun" in why


def test_a_numeri_game_of_equal_totals_is_scored_as_a_draw() -> None:
    """RULES: equal totals share the win — between two players, half a point each.  (This
    match id's dice give the two random players 111 points each; a tournament that refused
    the record waited for ever for the game's result.)"""
    numeri = variant("numeri", 2)
    match = "0015" * 8
    table = Match(numeri, identities=PLAYERS[:2], match=match, logs=1)
    table.start()
    table.play_out(random.Random(1))
    ended = table.log.state.result()
    assert ended is not None and ended.outcomes == (Outcome.WIN, Outcome.WIN)
    pairing = Pairing(PLAYERS[0].peer, PLAYERS[1].peer)
    data = records.encode(table.log)
    assert judge_record(data, numeri, pairing, match) is Result.DRAW


def test_a_draw_without_a_record_is_taken_only_where_a_round_has_a_time() -> None:
    """A round's time running out draws its unfinished games (the director's word, as a
    withdrawal is); without a time per round no result comes without its record."""
    untimed = Night(seconds=0)
    untimed.enter_all()
    untimed.pair()
    assert "has no match record" in untimed.refused(result_content(1, 0, Result.DRAW, None))
    timed = Night(seconds=1800)
    timed.enter_all()
    timed.pair()
    timed.put(result_content(1, 0, Result.DRAW, None))
    assert timed.log.scored[1, 0] is None
    assert "has no match record" in timed.refused(result_content(1, 1, Result.WHITE_WINS, None))
