"""Every refusal of the match log gives its reason word for word (docs/PROTOCOL.md §5.1 and
§7 quote many of them): the reason is what a guest's screen shows when the host turns down what
she asked, what the host's own log says when a guest's request breaks a rule, and what
``python -m net verify`` prints for a record that does not check out.

Each case is a member (or an outsider) pushing the entry the rule forbids, signed by its
author and placed by the host unless the case is about the signatures; the log refuses it
with exactly the reason and is left unchanged.  The reasons are compared whole, so a rule
that refuses for another reason than its own (or a check that lets the entry through, to be
refused by a later one) fails here too.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from game.rules import variant
from net.identity import Identity
from net.matchlog import MatchLog, Rejected, placed, replay, signed
from net.signing import vote_payload
from tests.net_helpers import MATCH, Table

WATCHER = Identity(b"\x71" * 32)
"""A spectator, let in after the start (or in the lobby, as a spectator)."""
STRANGER = Identity(b"\x72" * 32)
"""Nobody the match knows."""

Case = Callable[[], tuple[Table, dict, str]]
CASES: dict[str, Case] = {}


def case(function: Case) -> Case:
    CASES[function.__name__.lstrip("_")] = function
    return function


# -- tables ---------------------------------------------------------------------------------


def _with_watcher(table: Table) -> Table:
    table.put(table.join_entry(WATCHER, "w", role="spectator"))
    table.by_peer[WATCHER.peer] = WATCHER
    return table


def _dama() -> Table:
    table = Table("dama")
    table.start()
    return table


def _dama_over() -> Table:
    table = _dama()
    table.put(table.act_entry("resign2", seat=1))  # black resigns
    assert table.log.phase == "over"
    return table


def _numeri() -> Table:
    table = Table("numeri", 3)
    table.start()
    return table


def _numeri_committed() -> Table:
    table = _numeri()
    table.dice()  # every commitment to event 1; nobody has revealed yet
    assert all(table.log.needs_reveal(peer) for peer in table.peers)
    return table


def _third_gone() -> Table:
    table = _numeri()
    table.put({"k": "leave", "peer": table.peers[2], "reason": "connection lost"})
    return table


def _value(table: Table, seat: int, event: int) -> bytes:
    return table.identities[seat].chain(MATCH, 1, table.log.chain_length).reveal(event)


def _vote(table: Table, voter: Identity, candidate: int, at: int | None = None) -> list:
    log = table.log
    at = len(log) if at is None else at
    payload = vote_payload(MATCH, log.host, table.peers[candidate], at, log.head_bytes(at))
    return [voter.peer, at, voter.sign(payload)]


def _host(table: Table, candidate: str, votes: list) -> dict:
    return table.seal({"k": "host", "peer": candidate, "addr": "", "votes": votes})


# -- membership -----------------------------------------------------------------------------


@case
def _join_while_connected() -> tuple[Table, dict, str]:
    table = _dama()
    return table, table.seal(table.join_entry(table.identities[1], "p2")), "p2 is already connected"


@case
def _join_under_another_key() -> tuple[Table, dict, str]:
    table = _dama()
    entry = {**table.join_entry(STRANGER, "s"), "key": table.identities[1].key}
    return table, table.seal(entry), "join: the peer id is not its key's"


@case
def _join_replayed() -> tuple[Table, dict, str]:
    table = _dama()
    table.put({"k": "leave", "peer": table.peers[1], "reason": "connection lost"})
    joined = next(e for e in table.log.entries if e["k"] == "join" and e["peer"] == table.peers[1])
    bare = {k: v for k, v in joined.items() if k not in ("n", "at", "sig", "hs")}
    reason = "join: a replayed proof (this challenge was answered before)"
    return table, table.seal(bare), reason


@case
def _join_with_anothers_proof() -> tuple[Table, dict, str]:
    table = _dama()
    table.put({"k": "leave", "peer": table.peers[1], "reason": "connection lost"})
    entry = {**table.join_entry(table.identities[1], "p2"), "proof": bytes(64)}
    return table, table.seal(entry), "join: the proof is not signed by the joining peer"


@case
def _leave_of_someone_gone() -> tuple[Table, dict, str]:
    table = _third_gone()
    entry = table.seal({"k": "leave", "peer": table.peers[2], "reason": "again"})
    return table, entry, "p3 is not connected"


# -- host changes ---------------------------------------------------------------------------


@case
def _host_already() -> tuple[Table, dict, str]:
    table = _numeri()
    votes = [_vote(table, table.identities[1], 0), _vote(table, table.identities[2], 0)]
    return table, _host(table, table.peers[0], votes), "p1 is the host already"


@case
def _host_a_spectator() -> tuple[Table, dict, str]:
    table = _with_watcher(_numeri())
    votes = [_vote(table, table.identities[1], 1)]
    entry = _host(table, WATCHER.peer, votes)
    return table, entry, "a new host must be a player of the match"


@case
def _host_a_stranger() -> tuple[Table, dict, str]:
    table = _numeri()
    table.by_peer[STRANGER.peer] = STRANGER
    entry = _host(table, STRANGER.peer, [_vote(table, table.identities[1], 1)])
    return table, entry, f"host: its author {STRANGER.peer[:8]} is not in this match"


@case
def _host_gone_and_not_voting() -> tuple[Table, dict, str]:
    table = _numeri()
    table.put({"k": "leave", "peer": table.peers[1], "reason": "connection lost"})
    votes = [_vote(table, table.identities[0], 1), _vote(table, table.identities[2], 1)]
    entry = _host(table, table.peers[1], votes)
    return table, entry, "a new host must be a connected player of the match"


@case
def _host_by_a_minority() -> tuple[Table, dict, str]:
    table = _numeri()
    entry = _host(table, table.peers[1], [_vote(table, table.identities[1], 1)])
    return (
        table,
        entry,
        "a new host needs the votes of more than half of the match's people (1 of 3)",
    )


@case
def _vote_of_a_spectator() -> tuple[Table, dict, str]:
    table = _with_watcher(_numeri())
    votes = [_vote(table, table.identities[1], 1), _vote(table, WATCHER, 1)]
    entry = _host(table, table.peers[1], votes)
    return table, entry, f"host: {WATCHER.peer[:8]} has no vote here, or voted twice"


@case
def _vote_twice() -> tuple[Table, dict, str]:
    table = _numeri()
    vote = _vote(table, table.identities[1], 1)
    entry = _host(table, table.peers[1], [vote, vote])
    return table, entry, f"host: {table.peers[1][:8]} has no vote here, or voted twice"


@case
def _vote_beyond_the_log() -> tuple[Table, dict, str]:
    table = _numeri()
    beyond = [table.peers[2], len(table.log) + 1, bytes(64)]
    entry = _host(table, table.peers[1], [_vote(table, table.identities[1], 1), beyond])
    return table, entry, f"host: a vote holding {len(table.log) + 1} entries, more than this log"


@case
def _vote_signed_by_another() -> tuple[Table, dict, str]:
    table = _numeri()
    forged = [table.peers[2], *_vote(table, table.identities[1], 1)[1:]]
    entry = _host(table, table.peers[1], [_vote(table, table.identities[1], 1), forged])
    return table, entry, f"host: the vote of {table.peers[2][:8]} is forged or for another log"


# -- the lobby ------------------------------------------------------------------------------


@case
def _seat_after_the_start() -> tuple[Table, dict, str]:
    table = _dama()
    entry = table.seal({"k": "seat", "peer": table.peers[1], "seat": -1})
    return table, entry, "seats are chosen before the match starts"


@case
def _seat_for_a_spectator() -> tuple[Table, dict, str]:
    table = _with_watcher(Table("numeri", 3, seats=["", "", ""], seated=False))
    entry = table.seal({"k": "seat", "peer": WATCHER.peer, "seat": 0})
    return table, entry, "spectators have no seat"


@case
def _seat_past_the_last() -> tuple[Table, dict, str]:
    table = Table("dama")
    return (
        table,
        table.seal({"k": "seat", "peer": table.peers[1], "seat": 2}),
        "this match has 2 seats",
    )


@case
def _seat_of_the_computer() -> tuple[Table, dict, str]:
    table = Table("numeri", 3)
    table.put({"k": "seat", "peer": table.peers[2], "seat": -1})
    table.put({"k": "computer", "peer": table.peers[0], "seat": 2, "level": "easy"})
    entry = table.seal({"k": "seat", "peer": table.peers[1], "seat": 2})
    return table, entry, "seat 3 is the computer's"


@case
def _seat_of_another() -> tuple[Table, dict, str]:
    table = Table("dama")
    return (
        table,
        table.seal({"k": "seat", "peer": table.peers[1], "seat": 0}),
        "seat 1 is taken by p1",
    )


@case
def _ready_after_the_start() -> tuple[Table, dict, str]:
    table = _dama()
    entry = table.seal({"k": "ready", "peer": table.peers[1], "ready": False})
    return table, entry, "the match has already started"


@case
def _ready_without_a_seat() -> tuple[Table, dict, str]:
    table = _with_watcher(Table("dama"))
    entry = table.seal({"k": "ready", "peer": WATCHER.peer, "ready": True})
    return table, entry, "take a seat before getting ready"


@case
def _coach_after_the_start() -> tuple[Table, dict, str]:
    table = _dama()
    entry = table.seal({"k": "coach", "peer": table.peers[1], "allow": True})
    return table, entry, "hints and odds are allowed or not before the start"


@case
def _coach_without_a_seat() -> tuple[Table, dict, str]:
    table = _with_watcher(Table("dama"))
    entry = table.seal({"k": "coach", "peer": WATCHER.peer, "allow": True})
    return table, entry, "only a seated player says so"


@case
def _start_again() -> tuple[Table, dict, str]:
    table = _dama()
    return (
        table,
        table.seal({"k": "start", "peer": table.peers[0]}),
        "the match has already started",
    )


@case
def _start_by_a_guest() -> tuple[Table, dict, str]:
    table = Table("dama")
    return (
        table,
        table.seal({"k": "start", "peer": table.peers[1]}),
        "only the host starts the match",
    )


@case
def _start_with_a_free_seat() -> tuple[Table, dict, str]:
    table = Table("dama")
    table.put({"k": "seat", "peer": table.peers[1], "seat": -1})
    return table, table.seal({"k": "start", "peer": table.peers[0]}), "seat 2 is still free"


@case
def _start_with_a_guest_not_ready() -> tuple[Table, dict, str]:
    table = Table("dama")
    table.put({"k": "ready", "peer": table.peers[1], "ready": False})
    return table, table.seal({"k": "start", "peer": table.peers[0]}), "p2 is not ready"


# -- computer seats -------------------------------------------------------------------------


@case
def _computer_past_the_last_seat_in_the_lobby() -> tuple[Table, dict, str]:
    table = Table("dama")
    entry = {"k": "computer", "peer": table.peers[0], "seat": 2, "level": "easy"}
    return table, table.seal(entry), "this match has 2 seats"


@case
def _computer_past_the_last_seat_in_play() -> tuple[Table, dict, str]:
    table = _dama()
    table.put({"k": "leave", "peer": table.peers[1], "reason": "connection lost"})
    entry = {"k": "computer", "peer": table.peers[0], "seat": 2, "level": "easy"}
    return table, table.seal(entry), "this match has 2 seats"


@case
def _computer_set_up_by_a_guest() -> tuple[Table, dict, str]:
    table = Table("numeri", 3)
    table.put({"k": "seat", "peer": table.peers[2], "seat": -1})
    entry = {"k": "computer", "peer": table.peers[1], "seat": 2, "level": "easy"}
    return table, table.seal(entry), "only the host sets up computer seats"


@case
def _computer_for_a_persons_seat() -> tuple[Table, dict, str]:
    table = Table("dama")
    entry = {"k": "computer", "peer": table.peers[0], "seat": 1, "level": "easy"}
    return table, table.seal(entry), "seat 2 is taken by a person"


@case
def _computer_after_the_end() -> tuple[Table, dict, str]:
    table = _dama_over()
    entry = {"k": "computer", "peer": table.peers[0], "seat": 1, "level": "easy"}
    return table, table.seal(entry), "the match is over"


@case
def _computer_without_a_level() -> tuple[Table, dict, str]:
    table = _third_gone()
    entry = {"k": "computer", "peer": table.peers[0], "seat": 2, "level": ""}
    return table, table.seal(entry), "a seat given to the computer needs a level"


@case
def _computer_by_a_spectator() -> tuple[Table, dict, str]:
    table = _with_watcher(_third_gone())
    entry = {"k": "computer", "peer": WATCHER.peer, "seat": 2, "level": "easy"}
    return table, table.seal(entry), "only a player of the match can hand over a seat"


@case
def _computer_for_a_player_here() -> tuple[Table, dict, str]:
    table = _third_gone()
    entry = {"k": "computer", "peer": table.peers[0], "seat": 1, "level": "easy"}
    return table, table.seal(entry), "seat 2 is not waiting for a missing player"


# -- dice -----------------------------------------------------------------------------------


def _commit(table: Table, seat: int, first: int) -> dict:
    chain = table.identities[seat].chain(MATCH, first, table.log.chain_length)
    return {"k": "commit", "peer": table.peers[seat], "first": first, "c": chain.commitment}


@case
def _commit_by_a_spectator_in_the_lobby() -> tuple[Table, dict, str]:
    table = _with_watcher(Table("numeri", 3))
    entry = {**_commit(table, 1, 1), "peer": WATCHER.peer}
    return table, table.seal(entry), "only a seated player commits before the start"


@case
def _commit_twice_in_the_lobby() -> tuple[Table, dict, str]:
    table = Table("numeri", 3)
    table.put(_commit(table, 1, 1))
    return table, table.seal(_commit(table, 1, 2)), "one commitment before the start"


@case
def _commit_after_the_end() -> tuple[Table, dict, str]:
    table = _dama_over()
    return table, table.seal(_commit(table, 1, 1)), "the match is over"


@case
def _commit_by_a_spectator_in_play() -> tuple[Table, dict, str]:
    table = _with_watcher(_numeri())
    entry = {**_commit(table, 1, 1), "peer": WATCHER.peer}
    return table, table.seal(entry), "this peer does not take part in the dice"


@case
def _commit_to_a_revealed_event() -> tuple[Table, dict, str]:
    table = _numeri_committed()
    table.dice()  # every reveal: event 1 decided
    reason = (
        "a commitment must come before any reveal of its events (event 1 has already been revealed)"
    )
    return table, table.seal(_commit(table, 1, 1)), reason


@case
def _commit_again_from_the_same_event() -> tuple[Table, dict, str]:
    table = _numeri_committed()
    return (
        table,
        table.seal(_commit(table, 1, 1)),
        "a new commitment must start after the previous one",
    )


@case
def _reveal_with_no_event_open() -> tuple[Table, dict, str]:
    table = _dama()
    entry = {"k": "reveal", "peer": table.peers[1], "event": 1, "v": bytes(32)}
    return table, table.seal(entry), "no chance event is pending"


@case
def _reveal_for_a_later_event() -> tuple[Table, dict, str]:
    table = _numeri_committed()
    entry = {"k": "reveal", "peer": table.peers[1], "event": 2, "v": _value(table, 1, 2)}
    return table, table.seal(entry), "the pending chance event is 1, not 2"


@case
def _reveal_by_a_spectator() -> tuple[Table, dict, str]:
    table = _with_watcher(_numeri_committed())
    entry = {"k": "reveal", "peer": WATCHER.peer, "event": 1, "v": bytes(32)}
    return table, table.seal(entry), "this peer has no say in this event"


@case
def _reveal_twice() -> tuple[Table, dict, str]:
    table = _numeri_committed()
    entry = {"k": "reveal", "peer": table.peers[1], "event": 1, "v": _value(table, 1, 1)}
    table.put(entry)
    return table, table.seal(entry), "this peer has already revealed this event"


@case
def _reveal_before_every_commitment() -> tuple[Table, dict, str]:
    table = _numeri()
    table.put(_commit(table, 1, 1))
    entry = {"k": "reveal", "peer": table.peers[1], "event": 1, "v": _value(table, 1, 1)}
    return (
        table,
        table.seal(entry),
        "every peer of the event must have committed before anyone reveals",
    )


@case
def _reveal_forged() -> tuple[Table, dict, str]:
    table = _numeri_committed()
    entry = {"k": "reveal", "peer": table.peers[1], "event": 1, "v": _value(table, 2, 1)}
    reason = "forged dice reveal: the value for event 1 does not hash to the commitment"
    return table, table.seal(entry), reason


# -- play -----------------------------------------------------------------------------------


def _act(table: Table, index: int, text: str, **change: object) -> dict:
    entry = {"k": "act", "peer": table.peers[index], "seat": index, "ply": table.log.ply, "a": text}
    return table.seal({**entry, "d": "0" * 32, **change})


@case
def _act_after_the_end() -> tuple[Table, dict, str]:
    table = _dama_over()
    return table, _act(table, 0, "22-18", ply=1), "the match is not being played"


@case
def _act_replayed_ply() -> tuple[Table, dict, str]:
    table = _dama()
    table.act("22-18")
    reason = "out of sequence: ply 0 sent, ply 1 is next (a replay?)"
    return table, _act(table, 1, "11-15", ply=0), reason


@case
def _act_while_paused() -> tuple[Table, dict, str]:
    table = _dama()
    table.put({"k": "leave", "peer": table.peers[1], "reason": "connection lost"})
    return table, _act(table, 0, "22-18"), "the match is paused"


@case
def _act_for_a_seat_past_the_last() -> tuple[Table, dict, str]:
    table = _dama()
    return table, _act(table, 0, "22-18", seat=2), "this match has 2 seats"


@case
def _act_out_of_turn() -> tuple[Table, dict, str]:
    table = _dama()
    return table, _act(table, 1, "22-18"), "out of turn: seat 2 sent '22-18'"


@case
def _act_out_of_turn_and_illegal() -> tuple[Table, dict, str]:
    table = _dama()
    return table, _act(table, 1, "11-15"), "out of turn: seat 2 sent '11-15'"


@case
def _act_draw() -> tuple[Table, dict, str]:
    table = _dama()
    return table, _act(table, 0, "draw"), "a draw is agreed by offers from every player, not played"


@case
def _act_for_anothers_seat() -> tuple[Table, dict, str]:
    table = _dama()
    return table, _act(table, 0, "22-18", peer=table.peers[1]), "seat 1 is not played by this peer"


@case
def _act_with_another_digest() -> tuple[Table, dict, str]:
    table = _dama()
    mine = table.act_entry("22-18")["d"]
    reason = f"digest mismatch after ply 0 (22-18): sender 000000000000, this peer {mine[:12]}"
    return table, _act(table, 0, "22-18"), reason


@case
def _offer_after_the_end() -> tuple[Table, dict, str]:
    table = _dama_over()
    entry = table.seal({"k": "offer", "peer": table.peers[0], "ply": 1})
    return table, entry, "the match is not being played"


@case
def _offer_by_a_spectator() -> tuple[Table, dict, str]:
    table = _with_watcher(_dama())
    return (
        table,
        table.seal({"k": "offer", "peer": WATCHER.peer, "ply": 0}),
        "only players offer draws",
    )


@case
def _offer_in_numeri() -> tuple[Table, dict, str]:
    table = _numeri()
    entry = table.seal({"k": "offer", "peer": table.peers[1], "ply": 0})
    return table, entry, "this game has no draw by agreement"


@case
def _offer_at_another_ply() -> tuple[Table, dict, str]:
    table = _dama()
    entry = table.seal({"k": "offer", "peer": table.peers[1], "ply": 5})
    return table, entry, "out of sequence: offer at ply 5, ply 0 is next"


@case
def _end_after_the_end() -> tuple[Table, dict, str]:
    table = _dama_over()
    entry = table.seal({"k": "end", "peer": table.peers[0], "reason": "x"})
    return table, entry, "the match is not being played"


@case
def _end_by_a_spectator() -> tuple[Table, dict, str]:
    table = _with_watcher(_third_gone())
    entry = table.seal({"k": "end", "peer": WATCHER.peer, "reason": "x"})
    return table, entry, "only a player of the match can end it"


@case
def _end_with_everyone_here() -> tuple[Table, dict, str]:
    table = _dama()
    entry = table.seal({"k": "end", "peer": table.peers[0], "reason": "x"})
    return table, entry, "a match is ended early only while it waits for a player"


@case
def _end_owing_a_reveal() -> tuple[Table, dict, str]:
    table = _numeri_committed()
    table.put({"k": "leave", "peer": table.peers[2], "reason": "connection lost"})
    entry = table.seal({"k": "end", "peer": table.peers[0], "reason": "x"})
    return table, entry, "a player here still owes the pending chance event its reveal"


# -- the log itself -------------------------------------------------------------------------


@case
def _a_second_match_entry() -> tuple[Table, dict, str]:
    table = Table("dama")
    return table, dict(table.log.entries[0]), "a match log has one match entry, the first"


@case
def _an_entry_of_an_outsider() -> tuple[Table, dict, str]:
    table = _dama()
    entry = placed(table.log, table.identities[0], signed(
        table.log, STRANGER, {"k": "offer", "peer": STRANGER.peer, "ply": 0}, 1
    ))  # fmt: skip
    return table, entry, f"offer: {STRANGER.peer[:8]} is not in this match"


def _signed_at(table: Table, entry: dict, at: int) -> dict:
    log = table.log
    author = table.by_peer[log.author(entry)]
    made = {**signed(log, author, entry, log.next_n(author.peer)), "at": at}
    return placed(log, table.identities[0], made)


@case
def _made_after_more_than_the_log() -> tuple[Table, dict, str]:
    table = Table("dama")
    at = len(table.log) + 1
    entry = _signed_at(table, {"k": "start", "peer": table.peers[0]}, at)
    return table, entry, f"start: made after {at} entries, placed at entry {at}"


@case
def _made_after_nothing() -> tuple[Table, dict, str]:
    table = Table("dama")
    entry = _signed_at(table, {"k": "start", "peer": table.peers[0]}, 0)
    return table, entry, f"start: made after 0 entries, placed at entry {len(table.log) + 1}"


@case
def _a_replayed_number() -> tuple[Table, dict, str]:
    table = Table("dama")
    log, guest = table.log, table.identities[1]
    made = signed(log, guest, {"k": "ready", "peer": guest.peer, "ready": False}, 1)
    entry = placed(log, table.identities[0], made)
    return table, entry, "ready: a replayed or reordered entry (number 1)"


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_refusal_gives_its_reason_word_for_word(name: str) -> None:
    table, entry, reason = CASES[name]()
    for log in table.logs:
        head, length, phase = log.heads[-1], len(log), log.phase
        with pytest.raises(Rejected) as refused:
            log.apply(dict(entry))
        assert refused.value.reason == reason
        assert str(refused.value) == reason
        assert (log.heads[-1], len(log), log.phase) == (head, length, phase)


def _opening(**change: object) -> dict:
    host = Identity(b"\x01" * 32)
    setup = variant("numeri", 3)
    opening = {
        "k": "match", "id": MATCH, "setup": setup.to_fields(), "seats": ["", "", ""],
        "code": False, "host": host.peer, "name": "table", "chain": 64, "key": host.key,
    }  # fmt: skip
    return placed(None, host, signed(None, host, {**opening, **change}, 1))


def test_a_log_begins_with_a_match_entry_of_a_known_setup_and_its_hosts_key() -> None:
    log = MatchLog(_opening())
    assert (len(log), log.name, log.code_required, log.chain_length) == (1, "table", False, 64)
    assert MatchLog(_opening(name="Corner table", code=True)).code_required
    assert MatchLog(_opening(name="Corner table", code=True)).name == "Corner table"
    for field, reason in [
        ("sig", "forged entry: the match's signature is not its author's"),
        ("hs", "forged entry: the match was not placed here by the host"),
    ]:
        with pytest.raises(Rejected) as refused:
            MatchLog({**_opening(), field: bytes(64)})
        assert refused.value.reason == reason
    table = Table("dama")
    for opening, reason in [
        (dict(table.log.entries[1]), "a match log begins with a match entry"),
        (_opening(seats=["", ""]), "numeri needs 3 seats"),
        (_opening(key=Identity(b"\x02" * 32).key), "the match entry's key is not its host's"),
    ]:
        with pytest.raises(Rejected) as refused:
            MatchLog(opening)
        assert refused.value.reason == reason
    with pytest.raises(Rejected) as refused:
        MatchLog(_opening(setup=["scopa", 3, []]))
    assert refused.value.reason.startswith("unknown game setup: ")


def test_a_record_is_replayed_naming_its_first_bad_entry() -> None:
    with pytest.raises(Rejected) as refused:
        replay([])
    assert refused.value.reason == "the record has no entries"
    table = Table("dama")
    for bad, reason in [
        ("not a map", "entry 2 (None): an entry is a map"),
        ({"k": "nothing"}, "entry 2 (nothing): unknown entry kind 'nothing'"),
    ]:
        with pytest.raises(Rejected) as refused:
            replay([table.log.entries[0], bad])
        assert refused.value.reason == reason
    assert replay(table.log.entries).heads == table.log.heads


def test_a_set_up_start_that_is_no_start_is_refused_word_for_word() -> None:
    """The match entry's ``start`` (a Dama position in FEN): refused when it is no position,
    the game's own start, written otherwise than a record writes it, or already over."""
    dama = {"setup": variant("dama").to_fields(), "seats": ["", ""]}
    for fen, reason in [
        (
            "W:W18,18:B11",
            "the start position is no position of dama:classic: two pieces on square 18",
        ),
        ("W:W21-32:B1-12", "the start position is the game's own: the field is left out for it"),
        (
            "W:W22,18,K30:B6,11,12",
            "the start position 'W:W22,18,K30:B6,11,12' is not written as a record writes it",
        ),
        ("B:W18:B", "the game is already over in the start position 'B:W18:B'"),
    ]:
        with pytest.raises(Rejected) as refused:
            MatchLog(_opening(**dama, start=fen))
        assert refused.value.reason == reason
