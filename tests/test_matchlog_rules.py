"""Every rule of the match log pinned by a dishonest member pushing the entry it forbids
(issue 28: "every rule of the log and every limit has a test that fails without it").

Each test is the attack an outside review found the suite blind to: the rule taken out of
``net/matchlog.py`` by hand (or by ``mutmut``, docs/TESTING.md) and every other test still
passed.  Each entry here is signed by its author and placed by an honest host, so that the
log's own rule, not a signature, is what refuses it; and each test then shows what the rule
protects (a seat left without its person, a draw nobody agreed to, a host change on votes
for no log).
"""

from __future__ import annotations

import pytest

from net.fairdice import HashChain
from net.identity import Identity
from net.matchlog import MatchLog, Rejected, placed, replay, signed
from net.messages import PROTOCOL_VERSION
from net.records import verify
from net.signing import vote_payload
from tests.net_helpers import MATCH, Table


def _refused_everywhere(table: Table, entry: dict, reason: str) -> None:
    """``entry`` (bare: sealed here by its author and the host) refused by every log of
    ``table`` for ``reason``, each log unchanged."""
    sealed = table.seal(entry)
    for log in table.logs:
        head, length = log.heads[-1], len(log)
        with pytest.raises(Rejected, match=reason):
            log.apply(dict(sealed))
        assert (log.heads[-1], len(log)) == (head, length)


def _owners(log: MatchLog) -> list[str | None]:
    return [seat.owner for seat in log.seats]


# -- seats only before the start ------------------------------------------------------------


def _four_with_a_computer(seat: int = 3) -> Table:
    """Numeri for four in the lobby: three persons seated and ready, seat ``seat`` + 1
    given to the computer by the host."""
    table = Table("numeri", 4)
    table.put({"k": "seat", "peer": table.peers[3], "seat": -1})
    table.put({"k": "computer", "peer": table.peers[0], "seat": seat, "level": "hard"})
    return table


@pytest.mark.parametrize("wanted", [-1, 0, 2, 3])
def test_a_player_cannot_stand_up_or_change_seats_once_the_match_has_started(wanted: int) -> None:
    """Mid-match, a guest that stands up (-1) would leave her seat with nobody to play it
    and the match stuck; one that moves to another's seat (0, 2) or the computer's (3)
    would play a seat nobody gave her.  Every log refuses each; the seats stay as they
    started, each person's with its person."""
    table = _four_with_a_computer()
    table.start()
    guest = table.peers[1]
    owners = _owners(table.log)
    entry = {"k": "seat", "peer": guest, "seat": wanted}
    _refused_everywhere(table, entry, "seats are chosen before the match starts")
    for log in table.logs:
        assert _owners(log) == owners
        assert log.seat_of(guest) == 1 and log.actor(1) == guest
        assert all(seat.owner is not None for seat in log.seats if seat.human)


def test_a_player_cannot_stand_up_after_the_match_is_over() -> None:
    table = Table("dama")
    table.start()
    table.put(table.act_entry("resign2", seat=1))
    assert table.log.phase == "over"
    _refused_everywhere(
        table, {"k": "seat", "peer": table.peers[1], "seat": -1}, "before the match starts"
    )
    assert table.log.seat_of(table.peers[1]) == 1


def test_in_the_lobby_a_player_may_stand_up_and_sit_down_again() -> None:
    """The same entries before the start: accepted (the refusal above is the phase's)."""
    table = _four_with_a_computer()
    guest = table.peers[1]
    table.put({"k": "seat", "peer": guest, "seat": -1})
    assert table.log.seat_of(guest) is None and not table.log.members[guest].ready
    table.put({"k": "seat", "peer": guest, "seat": 1})
    assert table.log.seat_of(guest) == 1


# -- a draw offer counts at its own ply only ------------------------------------------------


def _dama_after_two_moves() -> Table:
    table = Table("dama")
    table.start()
    table.act("22-18")
    table.act("11-15")
    return table


@pytest.mark.parametrize("ply", [0, 1, 3, 4])
def test_a_stale_or_early_draw_offer_is_refused_and_agrees_no_draw(ply: int) -> None:
    """White offers a draw at ply 2; black, losing nothing by it, pushes an offer made for
    another position (an earlier ply, or one ahead): were it counted, the two offers would
    agree a draw white offered for this position and black for another one."""
    table = _dama_after_two_moves()
    white, black = table.peers
    table.put({"k": "offer", "peer": white, "ply": 2})
    _refused_everywhere(
        table, {"k": "offer", "peer": black, "ply": ply}, f"offer at ply {ply}, ply 2 is next"
    )
    for log in table.logs:
        assert log.phase == "playing" and log.ply == 2
    table.put({"k": "offer", "peer": black, "ply": 2})  # the offer at this ply agrees it
    assert table.log.phase == "over" and table.log.record.notation()[-1] == "draw"


def test_an_offer_lapses_with_the_move_after_it() -> None:
    """Black offered at ply 1 and white moved instead of taking it: black's offer is gone,
    so white's offer at ply 2 alone agrees nothing."""
    table = Table("dama")
    table.start()
    white, black = table.peers
    table.act("22-18")
    table.put({"k": "offer", "peer": black, "ply": 1})
    table.act("11-15")
    table.put({"k": "offer", "peer": white, "ply": 2})
    assert table.log.phase == "playing"


# -- a vote holds at least one entry of the log --------------------------------------------


def _vote_at(table: Table, voter: int, candidate: int, at: int) -> list:
    log = table.log
    payload = vote_payload(MATCH, log.host, table.peers[candidate], at, log.head_bytes(at))
    return [table.peers[voter], at, table.identities[voter].sign(payload)]


def test_a_vote_that_holds_no_entry_of_the_log_is_refused() -> None:
    """A vote at position 0 signs no head: it names no log, so it would hold for every
    branch a dishonest host shows and for every later host of the match id.  A guest that
    signed such a vote (or whoever kept one) cannot use it to change the host."""
    table = Table("numeri", 3)
    table.start()
    zero = _vote_at(table, 2, 1, 0)
    entry = {"k": "host", "peer": table.peers[1], "addr": "", "votes": [table.vote(1, 1), zero]}
    _refused_everywhere(table, entry, "host: a vote holding 0 entries")
    assert table.log.host == table.peers[0]
    beyond = [*_vote_at(table, 2, 1, len(table.log))[:1], len(table.log) + 1, bytes(64)]
    entry = {"k": "host", "peer": table.peers[1], "addr": "", "votes": [table.vote(1, 1), beyond]}
    _refused_everywhere(table, entry, "more than this log")
    first = _vote_at(table, 2, 1, 1)  # the least a vote may hold: the match entry
    table.put({"k": "host", "peer": table.peers[1], "addr": "", "votes": [table.vote(1, 1), first]})
    assert all(log.host == table.peers[1] for log in table.logs)


def test_a_vote_at_position_zero_alone_cannot_replace_a_lobby_host() -> None:
    """In the lobby, with a signed-at-zero vote the only one besides the candidate's."""
    table = Table("numeri", 3)
    entry = {
        "k": "host", "peer": table.peers[1], "addr": "",
        "votes": [_vote_at(table, 1, 1, len(table.log)), _vote_at(table, 2, 1, 0)],
    }  # fmt: skip
    _refused_everywhere(table, entry, "a vote holding 0 entries")


# -- who is where after a drop or a host change ---------------------------------------------

NEWCOMER = Identity(b"\x73" * 32)


def _host_change(table: Table, candidate: int, voters: tuple[int, ...]) -> None:
    votes = [table.vote(voter, candidate) for voter in voters]
    addr = "10.0.0.7:5000"
    table.put({"k": "host", "peer": table.peers[candidate], "addr": addr, "votes": votes})
    assert all(log.host == table.peers[candidate] for log in table.logs)
    assert all(log.members[table.peers[candidate]].addr == addr for log in table.logs)


def test_a_player_who_drops_in_the_lobby_frees_her_seat_and_only_hers() -> None:
    table = Table("numeri", 3)
    gone = table.peers[1]
    table.put({"k": "leave", "peer": gone, "reason": "connection lost"})
    log = table.log
    assert _owners(log) == [table.peers[0], None, table.peers[2]]
    assert log.free_seats() == 1 and not log.members[gone].ready
    assert log.start_problem() == "seat 2 is still free"
    table.put(table.join_entry(NEWCOMER, "new", seat=-1))
    assert log.seat_of(NEWCOMER.peer) == 1


def test_a_host_replaced_in_the_lobby_loses_its_seat_and_only_its_seat() -> None:
    table = Table("numeri", 3)
    old = table.peers[0]
    _host_change(table, 1, (1, 2))
    log = table.log
    assert _owners(log) == [None, table.peers[1], table.peers[2]]
    assert not log.members[old].present and log.dice_group == set()
    table.put(table.join_entry(NEWCOMER, "new", seat=-1))
    assert log.seat_of(NEWCOMER.peer) == 0


def test_a_seated_host_replaced_in_play_keeps_its_seat_and_its_place_in_the_dice() -> None:
    """Its seat waits for it (it may come back), so its dice still count."""
    table = Table("numeri", 3)
    table.start()
    _host_change(table, 1, (1, 2))
    log = table.log
    assert log.seat_of(table.peers[0]) == 0 and log.dice_group == set(table.peers)
    assert log.waiting_for() == [table.peers[0]]


def _host_without_a_seat() -> Table:
    """Numeri for three: the host has handed its own seat to the computer; two guests."""
    table = Table("numeri", 3)
    table.put({"k": "seat", "peer": table.peers[0], "seat": -1})
    table.put({"k": "computer", "peer": table.peers[0], "seat": 0, "level": "easy"})
    table.start()
    assert table.log.dice_group == set(table.peers)
    return table


def test_a_host_without_a_seat_leaves_the_dice_when_it_is_replaced() -> None:
    table = _host_without_a_seat()
    _host_change(table, 1, (1, 2))
    assert table.log.dice_group == set(table.peers[1:])
    assert table.log.actor(0) == table.peers[1]  # the new host plays the computer's seat


def test_a_new_host_joins_the_dice_only_when_nobody_else_would_roll() -> None:
    """Both guests gone and their seats the computer's: the old host was the dice group
    alone, and its replacement takes its place (some peer must reveal for the dice)."""
    table = _host_without_a_seat()
    for guest in table.peers[1:]:
        table.put({"k": "leave", "peer": guest, "reason": "connection lost"})
    for seat in (1, 2):
        table.put({"k": "computer", "peer": table.peers[0], "seat": seat, "level": "easy"})
    assert table.log.dice_group == {table.peers[0]}
    _host_change(table, 1, (1, 2))
    assert all(log.dice_group == {table.peers[1]} for log in table.logs)


def test_a_new_host_whose_seat_the_computer_plays_does_not_join_a_dice_group_of_others() -> None:
    table = Table("numeri", 3)
    table.start()
    table.put({"k": "leave", "peer": table.peers[1], "reason": "connection lost"})
    table.put({"k": "computer", "peer": table.peers[0], "seat": 1, "level": "easy"})
    assert table.log.dice_group == {table.peers[0], table.peers[2]}
    _host_change(table, 1, (1, 2))  # her vote shows she is back; her seat stays the computer's
    assert table.log.dice_group == {table.peers[0], table.peers[2]}


def test_a_connected_candidate_needs_no_vote_of_her_own() -> None:
    table = Table("numeri", 3)
    table.start()
    _host_change(table, 1, (0, 2))


def test_in_the_lobby_a_spectator_has_no_vote() -> None:
    table = Table("numeri", 3)
    table.put(table.join_entry(NEWCOMER, "watcher", role="spectator"))
    table.by_peer[NEWCOMER.peer] = NEWCOMER
    log = table.log
    assert log.voters() == frozenset(table.peers)
    payload = vote_payload(MATCH, log.host, table.peers[1], len(log), log.head_bytes(len(log)))
    votes = [table.vote(1, 1), [NEWCOMER.peer, len(log), NEWCOMER.sign(payload)]]
    entry = {"k": "host", "peer": table.peers[1], "addr": "", "votes": votes}
    _refused_everywhere(
        table, entry, f"^host: {NEWCOMER.peer[:8]} has no vote here, or voted twice$"
    )


def test_in_the_lobby_a_player_who_dropped_takes_no_seat() -> None:
    """A dishonest host places a seat request of a guest who is gone (signed before she
    dropped, or made up with her): a seat for somebody who is not there to play it."""
    table = Table("numeri", 3)
    gone = table.peers[2]
    table.put({"k": "leave", "peer": gone, "reason": "connection lost"})
    assert table.log.members[gone].role == "player"
    _refused_everywhere(table, {"k": "seat", "peer": gone, "seat": 2}, "^spectators have no seat$")
    assert table.log.seat_of(gone) is None


def test_a_player_may_move_to_the_first_seat_when_it_is_free() -> None:
    table = Table("numeri", 3)
    table.put({"k": "seat", "peer": table.peers[0], "seat": -1})
    table.put({"k": "seat", "peer": table.peers[2], "seat": 0})
    assert _owners(table.log) == [table.peers[2], table.peers[1], None]


# -- what each peer owes the dice ------------------------------------------------------------


def test_who_owes_the_dice_what_and_when() -> None:
    """A commitment first, from every peer of the event; then, once all are in, a reveal
    from each; nothing from a spectator, nor from a peer that has revealed."""
    table = Table("numeri", 3)
    table.put(table.join_entry(NEWCOMER, "watcher", role="spectator"))
    table.start()
    log, (host, anna, bert) = table.log, table.peers
    assert log.pending_event == 1
    assert [log.owes_dice(p) for p in (host, anna, bert, NEWCOMER.peer)] == [1, 1, 1, 0]
    assert log.commitment_of(anna, 1) is None and log.commitment_of(NEWCOMER.peer, 1) is None
    assert not log.committed_to(1) and log.committed_to(1, [])  # the dice group by default
    for request in table.agents[0].dice_requests(log):
        table.put({**request, "peer": host})
    # The host has committed and waits for the others before it may reveal.
    assert [log.owes_dice(p) for p in (host, anna, bert)] == [0, 1, 1]
    assert not log.needs_reveal(host)
    assert log.commitment_of(host, 1) == (1, table.log.entries[-1]["c"])
    assert not log.committed_to(1) and log.committed_to(1, [host])
    table.settle_dice()  # the guests' commitments, then every reveal...
    assert log.committed_to(1) and log.committed_to(2, table.peers)
    assert log.rolls and log.rolls[0].event == 1
    while not log.state.is_chance():
        table.put({"k": "act", **_first_move(table)})
    assert log.pending_event == len(log.rolls) + 1 and log.needs_reveal(anna)
    # ...until the next event: the host reveals first, the others still owe theirs.
    for request in table.agents[0].dice_requests(log):
        table.put({**request, "peer": host})
    assert log.reveals.keys() == {host}
    assert [log.owes_dice(p) for p in (host, anna, bert)] == [0, 1, 1]


def _first_move(table: Table) -> dict:
    state = table.log.state
    entry = table.act_entry(state.action_to_str(state.legal_actions()[0]))
    entry["peer"] = table.log.actor(entry["seat"])  # the host for a computer's seat
    return {k: v for k, v in entry.items() if k != "k"}


def test_a_player_back_after_sitting_out_events_reveals_down_her_own_chain() -> None:
    """Bert reveals the lot and drops before the others do: the dice of the next events open
    without him (his seat the computer's), and his chain stays where he left it.  Back, he
    reveals the value for the event of the moment, which hashes down to his last revealed
    value over every event he sat out — and is accepted by every log."""
    table = Table("numeri", 3)
    table.start()
    host, _, bert = table.peers
    table.dice()  # the commitments
    for request in table.agents[2].dice_requests(table.log):
        table.put({**request, "peer": bert})
    table.put({"k": "leave", "peer": bert, "reason": "connection lost"})
    table.put({"k": "computer", "peer": host, "seat": 2, "level": "easy"})
    table.settle_dice()
    log = table.log
    assert log.rolls[0].peers == tuple(sorted(table.peers))
    while len(log.rolls) < 4:  # events he sits out
        table.settle_dice()
        if log.state.to_move >= 0:
            table.put({"k": "act", **_first_move(table)})
    assert all(bert not in roll.peers for roll in log.rolls[1:])
    table.put(table.join_entry(table.identities[2], "p3"))  # back: his seat and his dice
    rolls = len(log.rolls)
    while len(log.rolls) == rolls or bert not in log.rolls[-1].peers:
        table.settle_dice()
        if log.state.to_move >= 0:
            table.put({"k": "act", **_first_move(table)})
    mine = [e for e in log.entries if e["k"] == "reveal" and e["peer"] == bert]
    assert len(mine) == 2 and mine[1]["event"] - mine[0]["event"] >= 4
    assert all(lg.heads == log.heads for lg in table.logs)


# -- a reveal counts under the commitments its author had seen (§7.1, rule 2) ---------------


def test_a_reveal_made_before_a_commitment_that_decides_its_event_is_void_from_version_3() -> None:
    """Anna commits and signs her reveal; the host, holding it, places a commitment of its
    own and then her reveal.  From protocol version 3 (the first that freezes the dice, as
    records of version 3 are still read) every log refuses it, naming the commitment; a
    version 2 log, as its peers ran it, accepts it and notes the doubt on the entry."""
    table = Table("numeri", 2, chain=32)
    lobby = table.log.entries
    table.logs = [replay([dict(e) for e in lobby], v) for v in (2, 3, PROTOCOL_VERSION)]
    table.start()
    host, anna = table.identities
    log = table.log
    table.put({"k": "commit", "peer": anna.peer, "first": 1, "c": _chain(table, anna).commitment})
    value = _chain(table, anna).reveal(1)
    request = {"k": "reveal", "peer": anna.peer, "event": 1, "v": value}
    made = signed(log, anna, request, log.next_n(anna.peer))  # after len(log) entries
    seen = len(log)
    table.put({"k": "commit", "peer": host.peer, "first": 1, "c": _chain(table, host).commitment})
    reveal = placed(log, host, made)
    reason = (
        "a reveal counts only under the commitments its author had seen: p1's commitment to "
        f"event 1 (entry {seen + 1}) came after the {seen} entries this reveal was made after"
    )
    for later in table.logs[1:]:
        with pytest.raises(Rejected) as refused:
            later.apply(dict(reveal))
        assert refused.value.reason == reason and not later.doubts
    old = table.logs[0]
    old.apply(dict(reveal))
    assert old.reveals == {anna.peer: value}
    assert old.doubts == [f"entry {seen + 2} (reveal): {reason}"]


def _chain(table: Table, identity: Identity) -> HashChain:
    return identity.chain(table.log.match_id, 1, table.log.chain_length)


# -- when each peer commits ----------------------------------------------------------------------


def test_in_the_lobby_the_host_and_the_seated_players_commit_once_and_nobody_else() -> None:
    table = Table("numeri", 3)
    table.put({"k": "seat", "peer": table.peers[2], "seat": -1})
    table.put(table.join_entry(NEWCOMER, "watcher", role="spectator"))
    log, (host, anna, bert) = table.log, table.peers
    assert [log.commit_due(p) for p in (host, anna, bert, NEWCOMER.peer)] == [1, 1, None, None]
    table.put(
        {
            "k": "commit",
            "peer": anna,
            "first": 1,
            "c": _chain(table, table.identities[1]).commitment,
        }
    )
    assert [log.commit_due(p) for p in (host, anna, bert, NEWCOMER.peer)] == [1, None, None, None]


def test_a_chain_is_renewed_when_fewer_than_sixteen_of_its_values_are_left() -> None:
    table = Table("numeri", 2, chain=32)
    table.start()
    log, host = table.log, table.peers[0]
    seen: dict[int, int | None] = {}
    while log.next_event < 20:
        seen.setdefault(log.next_event, log.commit_due(host))
        table.settle_dice()
        if log.state.to_move >= 0:
            table.put({"k": "act", **_first_move(table)})
    assert seen[17] is None  # 17 … 32 left: sixteen
    assert seen[18] == 33  # 18 … 32: fifteen, and the next chain begins where this one ends


def test_a_player_back_in_the_middle_of_an_event_holds_up_nobody() -> None:
    """Bert drops (his seat the computer's, so he leaves the dice) and his chain of 32 runs
    out while he is away.  He comes back while event 33 or later is open, decided by the
    host and Anna: their reveals need no commitment of his, and his new chain begins after
    every event already revealed."""
    table = Table("numeri", 3, chain=32)
    table.start()
    log, (host, anna, bert) = table.log, table.peers
    table.settle_dice()
    table.put({"k": "leave", "peer": bert, "reason": "connection lost"})
    table.put({"k": "computer", "peer": host, "seat": 2, "level": "easy"})
    while not (log.next_event > 33 and log.pending_event is not None and not log.reveals):
        table.settle_dice()
        if log.state.to_move >= 0:
            table.put({"k": "act", **_first_move(table)})
    event = log.next_event
    assert log.commitment_of(bert, event) is None
    table.put(table.join_entry(table.identities[2], "p3"))
    assert bert in log.dice_group and log.event_group == {host, anna}
    assert log.needs_reveal(host) and log.needs_reveal(anna) and not log.owes_dice(bert)
    assert log.commit_due(bert) == event
    for request in table.agents[0].dice_requests(log):
        table.put({**request, "peer": host})
    assert log.commit_due(bert) == event + 1  # the host has shown its value of this event
    for request in table.agents[1].dice_requests(log):
        table.put({**request, "peer": anna})
    assert log.rolls[-1].event == event and log.rolls[-1].peers == tuple(sorted((host, anna)))
    (commit,) = table.agents[2].dice_requests(log)
    assert commit["first"] == log.next_event
    table.put({**commit, "peer": bert})


def test_a_commitment_that_would_replace_another_is_refused_from_version_3() -> None:
    """The host, having seen the dice of event 2 open, commits afresh from event 2: a log of
    version 3 (records of version 3 are still read) refuses it as today's does; version 2's
    rules took it."""
    table = Table("numeri", 2, chain=32)
    lobby = table.log.entries
    table.logs = [replay([dict(e) for e in lobby], v) for v in (3, PROTOCOL_VERSION)]
    table.start()
    table.dice()
    table.dice()  # the commitments, then the lot: event 2 is open
    host = table.identities[0]
    fresh = Identity(bytes([7]) * 32).chain(table.log.match_id, 2, 32)
    entry = {"k": "commit", "peer": host.peer, "first": 2, "c": fresh.commitment}
    reason = (
        "^a commitment never replaces another: this peer's chain from event 1 covers the "
        "events up to 32; a new one begins at 33 or later$"
    )
    _refused_everywhere(table, entry, reason)
    old = replay([dict(e) for e in table.log.entries], 2)
    old.apply(table.seal(entry, old))
    assert old.chain_start(host.peer, 2) == 2


def test_a_match_started_cannot_be_started_again() -> None:
    table = Table("dama")
    assert table.log.start_problem() is None
    table.start()
    assert table.log.start_problem() == "the match has already started"


def test_the_report_of_a_record_of_a_match_still_playing_has_no_result_yet() -> None:
    """``python -m net verify`` on a record saved mid-match (a peer that crashed): its
    result is the empty text, as a string for the report's readers, until the match ends."""
    table = Table("dama")
    table.start()
    table.act("22-18")
    report = verify(table.log.entries)
    assert report["ok"] and report["phase"] == "playing" and report["result"] == ""
    table.put({"k": "leave", "peer": table.peers[1], "reason": "connection lost"})
    table.put({"k": "end", "peer": table.peers[0], "reason": "p2 left"})
    assert verify(table.log.entries)["result"] == "p2 left"


def test_the_match_entry_stays_the_first_hosts_after_a_host_change() -> None:
    table = Table("numeri", 3)
    table.start()
    first = table.peers[0]
    _host_change(table, 1, (1, 2))
    log = table.log
    assert log.author(log.entries[0]) == first
    leave = {"k": "leave", "peer": first, "reason": "x"}
    assert log.author(leave) == table.peers[1]  # the host of the moment logs the others
    assert log.author({"k": "offer", "peer": table.peers[2], "ply": 0}) == table.peers[2]


# -- who comes in, and where -----------------------------------------------------------------


def test_a_newcomer_takes_the_free_seat_she_wished_for_else_the_first_free_one() -> None:
    table = Table("numeri", 4, seated=False)
    host, anna, bert, carla = table.identities
    table.put(table.join_entry(host, "host", seat=0))
    table.put({**table.join_entry(anna, "anna", seat=2), "addr": "10.0.0.2:7000"})
    log = table.log
    assert log.seat_of(anna.peer) == 2 and log.members[anna.peer].addr == "10.0.0.2:7000"
    table.put(table.join_entry(bert, "bert", seat=2))  # taken: the first free one instead
    assert log.seat_of(bert.peer) == 1
    table.put(table.join_entry(carla, "carla", seat=-1))
    assert log.seat_of(carla.peer) == 3
    late = Identity(b"\x74" * 32)
    table.put(table.join_entry(late, "late", seat=1))  # every seat taken: she watches
    assert log.members[late.peer].role == "spectator" and log.seat_of(late.peer) is None
    assert _owners(log) == [host.peer, bert.peer, anna.peer, carla.peer]


def test_a_player_back_in_play_takes_back_her_seat_and_no_computers_seat() -> None:
    """Anna drops, her seat goes to the computer, she comes back at a new address: her seat
    is hers again, and the seat the host gave the computer in the lobby stays its."""
    table = _four_with_a_computer()
    table.start()
    anna = table.peers[1]
    table.put({"k": "leave", "peer": anna, "reason": "connection lost"})
    table.put({"k": "computer", "peer": table.peers[0], "seat": 1, "level": "easy"})
    assert anna not in table.log.dice_group
    table.put({**table.join_entry(table.identities[1], "p2"), "addr": "10.0.0.9:7001"})
    log = table.log
    assert [s.computer for s in log.seats] == ["", "", "", "hard"]
    assert log.actor(1) == anna and log.actor(3) == table.peers[0] and anna in log.dice_group
    assert log.members[anna].addr == "10.0.0.9:7001" and log.members[anna].present
