"""The match log every LAN peer runs: what it accepts, what it refuses and why, the dice."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.rules import every_setup
from net.fairdice import combine, pick
from net.identity import Identity
from net.matchlog import MatchLog, Rejected, replay, signed
from net.messages import ENTRY_SCHEMAS
from net.records import verify
from tests.net_helpers import Table

from .examples import examples


@pytest.mark.slow
@pytest.mark.parametrize("setup", every_setup(), ids=lambda v: v.describe())
def test_every_variant_plays_to_the_end_alike_on_every_peer(setup) -> None:
    table = Table(setup)
    table.start()
    table.play_out(random.Random(setup.describe()))
    assert table.log.phase == "over"
    assert len({log.heads[-1] for log in table.logs}) == 1
    assert len({log.state.digest() for log in table.logs}) == 1
    report = verify(table.log.entries)
    assert report["ok"], report
    assert report["digest"] == table.log.state.digest()


def test_a_roll_is_the_hash_of_every_reveal_mapped_onto_the_outcomes() -> None:
    table = Table("numeri", 3)
    table.start()
    table.settle_dice()
    roll = table.log.rolls[0]
    assert roll.peers == tuple(sorted(table.peers))
    start = MatchLog(table.log.entries[0]).state
    expected = pick(combine(1, list(roll.reveals)), start.chance_outcomes())
    assert roll.outcome == start.action_to_str(expected)
    assert table.log.record.notation()[0] == roll.outcome


def test_nobody_reveals_before_every_commitment_is_in() -> None:
    table = Table("numeri", 2)
    table.start()
    first = table.agents[0].dice_requests(table.log)
    table.put({**first[0], "peer": table.peers[0]})
    assert not table.log.needs_reveal(table.peers[0])
    value = table.identities[0].chain(table.log.match_id, 1, 4096).reveal(1)
    with pytest.raises(Rejected, match="every peer of the event must have committed"):
        table.put({"k": "reveal", "peer": table.peers[0], "event": 1, "v": value})


def test_a_forged_reveal_is_refused_and_changes_nothing() -> None:
    table = Table("numeri", 2)
    table.start()
    table.dice()  # the commitments
    before = table.log.heads[-1]
    with pytest.raises(Rejected, match="forged dice reveal"):
        table.put({"k": "reveal", "peer": table.peers[1], "event": 1, "v": bytes(32)})
    assert table.log.heads[-1] == before and not table.log.reveals


def test_a_commitment_after_its_events_were_revealed_is_refused() -> None:
    table = Table("numeri", 2)
    table.start()
    table.dice()
    table.dice()  # commitments, then one reveal each: event 1 decided
    chain = table.identities[1].chain(table.log.match_id, 1, 4096)
    with pytest.raises(Rejected, match="before any reveal"):
        table.put({"k": "commit", "peer": table.peers[1], "first": 1, "c": chain.commitment})


def test_short_chains_are_renewed_and_the_match_goes_on() -> None:
    table = Table("numeri", 2, chain=32)
    table.start()
    table.play_out(random.Random(4))
    commits = [e for e in table.log.entries if e["k"] == "commit"]
    assert len(table.log.rolls) > 32 and len(commits) > 2
    assert verify(table.log.entries)["ok"]


def test_a_renewed_chain_begins_where_the_old_one_ends() -> None:
    """Each peer has one commitment for any event: a renewal covers only events after its
    current chain (docs/PROTOCOL.md §7.1, rule 1)."""
    table = Table("numeri", 2, chain=32)
    table.start()
    table.play_out(random.Random(4))
    for peer in table.peers:
        firsts = [e["first"] for e in table.log.entries if e["k"] == "commit" and e["peer"] == peer]
        assert firsts == list(range(1, 32 * len(firsts), 32)) and len(firsts) >= 3


def test_a_commitment_that_would_replace_another_is_refused() -> None:
    """The trick of issue 28 in its plainest form: a host that has seen the guest's value
    for event 2 commits to a new chain from event 2 on.  Refused, with the reason, by every
    log — also for any first event the current chain still covers, and for none after."""
    table = Table("numeri", 2, chain=32)
    table.start()
    table.dice()
    table.dice()  # commitments, then the lot: event 2, a die, is open
    assert table.log.pending_event == 2 and not table.log.reveals
    host = table.identities[0]
    for first in (2, 17, 32):
        fresh = Identity(bytes([7]) * 32).chain(table.log.match_id, first, 32)
        with pytest.raises(Rejected, match="a commitment never replaces another: this peer's "
                           "chain from event 1 covers the events up to 32; a new one begins at "
                           "33 or later"):  # fmt: skip
            table.put({"k": "commit", "peer": host.peer, "first": first, "c": fresh.commitment})
    renewal = host.chain(table.log.match_id, 33, 32)
    table.put({"k": "commit", "peer": host.peer, "first": 33, "c": renewal.commitment})
    assert table.log.chain_start(host.peer, 2) == 1 and table.log.chain_start(host.peer, 33) == 33


def test_a_record_of_version_2_is_replayed_by_its_own_rules() -> None:
    """A replacing commitment, refused now, was accepted by version 2: its records verify
    as they were made."""
    table = Table("numeri", 2, chain=32, logs=1)
    lobby = table.log.entries
    table.logs = [MatchLog(dict(lobby[0]), 2)]  # the same lobby, under version 2's rules
    for entry in lobby[1:]:
        table.log.apply(dict(entry))
    table.start()
    table.dice()
    table.dice()
    fresh = Identity(bytes([7]) * 32).chain(table.log.match_id, 2, 32)
    table.put({"k": "commit", "peer": table.peers[0], "first": 2, "c": fresh.commitment})
    assert table.log.chain_start(table.peers[0], 2) == 2
    assert verify(table.log.entries, 2)["ok"]
    assert "never replaces another" in verify(table.log.entries)["error"]


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"a": "23-19"}, "illegal action '23-19'"),
        ({"a": "hello"}, "malformed action 'hello'"),  # a guest's garbage, refused, not raised
        ({"ply": 0}, "out of sequence: ply 0 sent, ply 1 is next"),
        ({"ply": 2}, "out of sequence"),
        ({"d": "0" * 32}, "digest mismatch after ply 1"),
        ({"seat": 0}, "out of turn"),
        ({"k": "act", "a": "draw"}, "a draw is agreed by offers"),
    ],
)
def test_bad_actions_are_refused_with_the_reason(change: dict, reason: str) -> None:
    table = Table("dama")
    table.start()
    table.act("22-18")
    entry = {**table.act_entry("11-15"), **change}
    before = table.log.state.digest()
    with pytest.raises(Rejected, match=reason):
        table.put(entry)
    assert table.log.state.digest() == before and table.log.ply == 1


def test_a_peer_cannot_act_for_a_seat_it_does_not_hold() -> None:
    table = Table("dama")
    table.start()
    entry = {**table.act_entry("22-18"), "peer": table.peers[1]}
    with pytest.raises(Rejected, match="seat 1 is not played by this peer"):
        table.put(entry)


def test_a_replayed_action_is_refused() -> None:
    table = Table("dama")
    table.start()
    entry = table.act_entry("22-18")
    table.put(entry)
    with pytest.raises(Rejected, match="out of sequence"):
        table.put(entry)


def test_a_dropped_player_pauses_the_match_and_gets_the_seat_back_on_rejoin() -> None:
    table = Table("dama")
    table.start()
    guest = table.peers[1]
    table.put({"k": "leave", "peer": guest, "reason": "connection lost"})
    assert table.log.paused and table.log.waiting_for() == [guest]
    with pytest.raises(Rejected, match="paused"):
        table.act("22-18")
    table.put({"k": "computer", "peer": table.peers[0], "seat": 1, "level": "medium"})
    assert not table.log.paused and table.log.actor(1) == table.peers[0]
    table.act("22-18")
    table.put(table.act_entry("11-15", seat=1) | {"peer": table.peers[0]})
    table.put(table.join_entry(table.identities[1], "p2"))
    assert table.log.seats[1].computer == "" and table.log.actor(1) == guest


def test_a_seat_goes_to_the_computer_only_while_its_player_is_missing() -> None:
    table = Table("dama")
    table.start()
    with pytest.raises(Rejected, match="not waiting for a missing player"):
        table.put({"k": "computer", "peer": table.peers[0], "seat": 1, "level": "easy"})


def test_ending_early_needs_a_missing_player() -> None:
    table = Table("dama")
    table.start()
    with pytest.raises(Rejected, match="only while it waits"):
        table.put({"k": "end", "peer": table.peers[0], "reason": "bored"})
    table.put({"k": "leave", "peer": table.peers[1], "reason": "gone"})
    table.put({"k": "end", "peer": table.peers[0], "reason": "p2 left"})
    assert table.log.phase == "abandoned"


def test_a_draw_is_agreed_when_every_player_offers_at_the_same_ply() -> None:
    table = Table("dama")
    table.start()
    table.put({"k": "offer", "peer": table.peers[0], "ply": 0})
    table.act("22-18")  # the offer lapses with the move
    table.put({"k": "offer", "peer": table.peers[0], "ply": 1})
    assert table.log.phase == "playing"
    table.put({"k": "offer", "peer": table.peers[1], "ply": 1})
    assert table.log.phase == "over" and table.log.record.notation()[-1] == "draw"


def test_an_offer_of_a_draw_in_a_game_without_one_is_refused() -> None:
    """A guest cannot end a Numeri match it is losing by offering a draw that the others'
    clients would take for agreed."""
    table = Table("numeri", 2)
    table.start()
    with pytest.raises(Rejected, match="no draw by agreement"):
        table.put({"k": "offer", "peer": table.peers[1], "ply": 0})
    assert table.log.phase == "playing"


def test_the_lobby_checks_seats_and_readiness() -> None:
    table = Table("numeri", 3, seats=["", "", "hard"], seated=False)
    host, anna, late = table.identities
    table.put(table.join_entry(host, "host", seat=0))
    table.put(table.join_entry(anna, "anna", seat=0))  # taken: the first free seat instead
    log = table.log
    assert log.seat_of(anna.peer) == 1
    with pytest.raises(Rejected, match="seat 1 is taken by host"):
        table.put({"k": "seat", "peer": anna.peer, "seat": 0})
    with pytest.raises(Rejected, match="seat 3 is the computer's"):
        table.put({"k": "seat", "peer": anna.peer, "seat": 2})
    table.put({"k": "seat", "peer": anna.peer, "seat": -1})
    with pytest.raises(Rejected, match="seat 2 is still free"):
        table.put({"k": "start", "peer": host.peer})
    table.put({"k": "seat", "peer": anna.peer, "seat": 1})
    with pytest.raises(Rejected, match="anna is not ready"):
        table.put({"k": "start", "peer": host.peer})
    table.put({"k": "ready", "peer": anna.peer, "ready": True})
    with pytest.raises(Rejected, match="only the host starts"):
        table.put({"k": "start", "peer": anna.peer})
    table.put({"k": "start", "peer": host.peer})
    assert log.phase == "playing" and log.dice_group == {host.peer, anna.peer}
    table.put(table.join_entry(late, "late", role="player"))
    assert log.members[late.peer].role == "spectator"  # after the start, newcomers watch


def test_a_new_host_takes_over_the_computer_seats() -> None:
    table = Table("numeri", 4)
    table.put({"k": "seat", "peer": table.peers[3], "seat": -1})
    table.put({"k": "computer", "peer": table.peers[0], "seat": 3, "level": "hard"})
    table.start()
    votes = [table.vote(1, 1), table.vote(2, 1)]
    table.put({"k": "host", "peer": table.peers[1], "addr": "127.0.0.1:1", "votes": votes})
    assert table.log.host == table.peers[1] and table.log.actor(3) == table.peers[1]
    assert table.log.waiting_for() == [table.peers[0]]  # the old host's own seat waits


def test_a_new_host_needs_more_than_half_of_the_people() -> None:
    table = Table("numeri", 4)
    table.start()
    votes = [table.vote(1, 1), table.vote(2, 1)]  # two of four: the other two may go on
    with pytest.raises(Rejected, match=r"more than half of the match's people \(2 of 4\)"):
        table.put({"k": "host", "peer": table.peers[1], "addr": "", "votes": votes})
    forged = [table.vote(1, 1), table.vote(2, 1), [table.peers[3], *table.vote(2, 1)[1:]]]
    with pytest.raises(Rejected, match="is forged"):
        table.put({"k": "host", "peer": table.peers[1], "addr": "", "votes": forged})
    for_another = [table.vote(1, 1), table.vote(2, 1), table.vote(3, 2)]
    with pytest.raises(Rejected, match="is forged"):
        table.put({"k": "host", "peer": table.peers[1], "addr": "", "votes": for_another})
    twice = [table.vote(1, 1), table.vote(2, 1), table.vote(2, 1)]
    with pytest.raises(Rejected, match="voted twice"):
        table.put({"k": "host", "peer": table.peers[1], "addr": "", "votes": twice})
    three = [table.vote(1, 1), table.vote(2, 1), table.vote(3, 1)]
    table.put({"k": "host", "peer": table.peers[1], "addr": "", "votes": three})
    assert table.log.host == table.peers[1]


def test_verify_names_the_first_entry_that_does_not_check_out() -> None:
    table = Table("numeri", 2)
    table.start()
    table.play_out(random.Random(1))
    entries = [dict(e) for e in table.log.entries]
    index = next(i for i, e in enumerate(entries) if e["k"] == "reveal" and e["event"] == 5)
    entries[index]["v"] = bytes(32)
    report = verify(entries)
    assert not report["ok"]
    assert report["error"] == (
        f"entry {index + 1} (reveal): forged entry: the reveal's signature is not its author's"
    )


def test_tampering_with_an_action_is_caught_by_its_digest() -> None:
    table = Table("dama")
    table.start()
    table.play_out(random.Random(2))
    entries = [dict(e) for e in table.log.entries]
    index = next(i for i, e in enumerate(entries) if e["k"] == "act" and e["ply"] == 3)
    state = replay(entries[:index]).state
    other = next(a for a in state.legal_actions() if state.action_to_str(a) != entries[index]["a"])
    entries[index]["a"] = state.action_to_str(other)
    assert "forged entry" in verify(entries)["error"]  # a record cannot be edited
    sealed = Table("dama")  # its author, signing it, is still caught by its digest
    sealed.start()
    for entry in entries[len(sealed.log) : index]:
        sealed.put({k: v for k, v in entry.items() if k not in ("n", "at", "sig", "hs")})
    with pytest.raises(Rejected, match="digest mismatch"):
        sealed.put({k: v for k, v in entries[index].items() if k not in ("n", "at", "sig", "hs")})


_ENTRY = st.fixed_dictionaries(
    {"k": st.sampled_from(sorted(ENTRY_SCHEMAS))},
    optional={
        "peer": st.sampled_from([Identity(b"\x01" * 32).peer, Identity(b"\x02" * 32).peer, "zz"]),
        "seat": st.integers(-2, 5),
        "ply": st.integers(-1, 5),
        "a": st.sampled_from(["22-18", "11-15", "xx", "", "resign1", "draw"]),
        "d": st.text("0123456789abcdef", min_size=32, max_size=32),
        "event": st.integers(0, 3),
        "first": st.integers(0, 3),
        "v": st.binary(min_size=31, max_size=33),
        "c": st.binary(min_size=32, max_size=32),
        "level": st.sampled_from(["", "easy", "hard", "god"]),
        "ready": st.booleans(),
        "reason": st.text(max_size=5),
        "role": st.sampled_from(["player", "spectator", "king"]),
        "name": st.text(max_size=5),
        "addr": st.just(""),
    },
)


@pytest.mark.slow
@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.tuples(_ENTRY, st.booleans()), max_size=12))
def test_any_entries_are_applied_or_refused_never_a_crash(entries: list) -> None:
    """Arbitrary entries, signed and placed as an honest host would or sent as they are."""
    table = Table("dama")
    table.start()
    for entry, sealed in entries:
        before = table.log.heads[-1]
        try:
            if sealed and entry.get("peer") in table.by_peer and entry["k"] != "match":
                entry = table.seal(entry)
            table.log.apply(entry)
        except Rejected as rejected:
            assert rejected.reason
            assert table.log.heads[-1] == before


def test_seated_players_commit_in_the_lobby_so_the_first_roll_waits_only_for_reveals() -> None:
    table = Table("numeri", 3)
    assert table.dice()  # in the lobby: the host and every seated player commit
    assert not table.dice()  # once each
    assert {e["peer"] for e in table.log.entries if e["k"] == "commit"} == set(table.peers)
    table.start()
    assert all(table.log.needs_reveal(peer) for peer in table.peers)
    table.dice()
    assert len(table.log.rolls) == 1
    assert table.log.entries[-1]["k"] == "reveal"
    assert sum(e["k"] == "commit" for e in table.log.entries) == 3


def test_before_the_start_only_seated_players_commit_and_only_once() -> None:
    table = Table("numeri", 2)
    watcher = Identity(bytes([9]) * 32)
    table.by_peer[watcher.peer] = watcher
    table.put(table.join_entry(watcher, "w", role="spectator"))
    chain = watcher.chain(table.log.match_id, 1, 4096)
    with pytest.raises(Rejected, match="only a seated player commits before the start"):
        table.put({"k": "commit", "peer": watcher.peer, "first": 1, "c": chain.commitment})
    table.dice()
    again = table.identities[1].chain(table.log.match_id, 2, 4096)
    with pytest.raises(Rejected, match="one commitment before the start"):
        table.put({"k": "commit", "peer": table.peers[1], "first": 2, "c": again.commitment})


def test_a_reveal_sent_behind_a_move_is_logged_and_one_refused_is_owed_again() -> None:
    table = Table("numeri", 2)
    table.start()
    table.settle_dice()
    mover = table.agents[table.log.state.to_move]
    move = table.act_entry(table.log.state.action_to_str(table.log.state.legal_actions()[0]))
    after = table.log.state.apply(table.log.state.parse_action(move["a"]))
    assert after.is_chance()
    (ahead,) = mover.reveal_ahead(table.log, after)
    assert not mover.reveal_ahead(table.log, after)  # once
    with pytest.raises(Rejected, match="no chance event is pending"):
        table.put({**ahead, "peer": mover.peer})  # as a host would refuse it before the move
    rolls = len(table.log.rolls)
    table.act(move["a"])
    assert not mover.dice_requests(table.log)  # it counts the reveal as sent...
    mover.forget_reveals()  # ...until told it was refused
    (again,) = mover.dice_requests(table.log)
    assert again == ahead
    table.put({**again, "peer": mover.peer})
    table.dice()
    assert len(table.log.rolls) == rolls + 1


def test_the_host_placing_skips_no_check_of_a_guests_signature() -> None:
    table = Table("numeri", 2, logs=2)
    table.start()
    table.dice()
    host, guest = table.identities
    # The host's own placing: the same entries and heads as every peer's full check.
    chain = guest.chain(table.log.match_id, 1, 4096)
    request = signed(
        table.log,
        guest,
        {"k": "reveal", "peer": guest.peer, "event": 1, "v": chain.reveal(1)},
        table.log.next_n(guest.peer),
    )
    forged = {**request, "sig": bytes(64)}
    before = table.log.heads[-1]
    with pytest.raises(Rejected, match="signature is not its author's"):
        table.log.place(forged, host)
    assert table.log.heads[-1] == before
    placed_entry = table.log.place(request, host)
    table.logs[1].apply(dict(placed_entry))
    assert table.logs[0].heads == table.logs[1].heads
    assert verify(table.log.entries)["ok"]


def test_hints_and_odds_only_when_every_seated_person_allowed_them_in_the_lobby() -> None:
    table = Table("numeri", 3, seats=["", "", "hard"], seated=False)
    host, anna, bert = table.identities
    table.put(table.join_entry(host, "host", seat=0))
    table.put(table.join_entry(anna, "anna", seat=1))
    table.put(table.join_entry(bert, "bert", role="spectator"))
    log = table.log
    assert not log.coaching
    table.put({"k": "coach", "peer": anna.peer, "allow": True})
    assert not log.coaching  # the host's person has not said so
    with pytest.raises(Rejected, match="only a seated player says so"):
        table.put({"k": "coach", "peer": bert.peer, "allow": True})  # a spectator has no say
    table.put({"k": "coach", "peer": host.peer, "allow": True})
    assert log.coaching
    table.put({"k": "seat", "peer": anna.peer, "seat": -1})  # stands up: her seat is free
    assert not log.coaching
    table.put({"k": "seat", "peer": anna.peer, "seat": 1})
    table.put({"k": "ready", "peer": anna.peer, "ready": True})
    table.put({"k": "start", "peer": host.peer})
    assert log.coaching
    with pytest.raises(Rejected, match="before the start"):
        table.put({"k": "coach", "peer": anna.peer, "allow": False})  # no change of mind mid-game
    assert log.coaching
