"""The match log every LAN peer runs: what it accepts, what it refuses and why, the dice."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.rules import every_setup, variant
from net.fairdice import combine, pick
from net.matchlog import MatchLog, Rejected, replay
from net.messages import ENTRY_SCHEMAS
from net.records import verify
from tests.net_helpers import Table


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
    assert table.log.record.actions[0] == roll.outcome


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


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"a": "23-19"}, "illegal action '23-19'"),
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
    table.put({"k": "join", "peer": guest, "name": "p2", "role": "player", "addr": ""})
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
    assert table.log.phase == "over" and table.log.record.actions[-1] == "draw"


def test_the_lobby_checks_seats_and_readiness() -> None:
    setup = variant("numeri", 3)
    opening = {
        "k": "match", "id": "ab" * 16, "setup": setup.to_fields(), "seats": ["", "", "hard"],
        "code": False, "host": "01" * 16, "name": "m", "chain": 64,
    }  # fmt: skip
    log = MatchLog(opening)
    log.apply({"k": "join", "peer": "01" * 16, "name": "host", "role": "player", "addr": ""})
    log.apply({"k": "join", "peer": "02" * 16, "name": "anna", "role": "player", "addr": ""})
    log.apply({"k": "seat", "peer": "01" * 16, "seat": 0})
    with pytest.raises(Rejected, match="seat 1 is taken by host"):
        log.apply({"k": "seat", "peer": "02" * 16, "seat": 0})
    with pytest.raises(Rejected, match="seat 3 is the computer's"):
        log.apply({"k": "seat", "peer": "02" * 16, "seat": 2})
    with pytest.raises(Rejected, match="seat 2 is still free"):
        log.apply({"k": "start", "peer": "01" * 16})
    log.apply({"k": "seat", "peer": "02" * 16, "seat": 1})
    with pytest.raises(Rejected, match="anna is not ready"):
        log.apply({"k": "start", "peer": "01" * 16})
    log.apply({"k": "ready", "peer": "02" * 16, "ready": True})
    with pytest.raises(Rejected, match="only the host starts"):
        log.apply({"k": "start", "peer": "02" * 16})
    log.apply({"k": "start", "peer": "01" * 16})
    assert log.phase == "playing" and log.dice_group == {"01" * 16, "02" * 16}
    with pytest.raises(Rejected, match="newcomers can only watch"):
        log.apply({"k": "join", "peer": "03" * 16, "name": "late", "role": "player", "addr": ""})
    log.apply({"k": "join", "peer": "03" * 16, "name": "late", "role": "spectator", "addr": ""})


def test_a_new_host_takes_over_the_computer_seats() -> None:
    table = Table("numeri", 3)
    table.put({"k": "seat", "peer": table.peers[2], "seat": -1})
    table.put({"k": "computer", "peer": table.peers[0], "seat": 2, "level": "hard"})
    table.start()
    table.put({"k": "host", "peer": table.peers[1], "addr": "127.0.0.1:1"})
    assert table.log.host == table.peers[1] and table.log.actor(2) == table.peers[1]
    assert table.log.waiting_for() == [table.peers[0]]  # the old host's own seat waits


def test_verify_names_the_first_entry_that_does_not_check_out() -> None:
    table = Table("numeri", 2)
    table.start()
    table.play_out(random.Random(1))
    entries = [dict(e) for e in table.log.entries]
    index = next(i for i, e in enumerate(entries) if e["k"] == "reveal" and e["event"] == 5)
    entries[index]["v"] = bytes(32)
    report = verify(entries)
    assert not report["ok"]
    assert report["error"].startswith(f"entry {index + 1} (reveal): forged dice reveal")


def test_tampering_with_an_action_is_caught_by_its_digest() -> None:
    table = Table("dama")
    table.start()
    table.play_out(random.Random(2))
    entries = [dict(e) for e in table.log.entries]
    index = next(i for i, e in enumerate(entries) if e["k"] == "act" and e["ply"] == 3)
    state = replay(entries[:index]).state
    other = next(a for a in state.legal_actions() if state.action_to_str(a) != entries[index]["a"])
    entries[index]["a"] = state.action_to_str(other)
    assert "digest mismatch" in verify(entries)["error"]


_ENTRY = st.fixed_dictionaries(
    {"k": st.sampled_from(sorted(ENTRY_SCHEMAS))},
    optional={
        "peer": st.sampled_from(["01" * 16, "02" * 16, "zz", 5]),
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


@settings(max_examples=300, deadline=None)
@given(st.lists(_ENTRY, max_size=12))
def test_any_entries_are_applied_or_refused_never_a_crash(entries: list[dict]) -> None:
    table = Table("dama")
    table.start()
    for entry in entries:
        before = table.log.heads[-1]
        try:
            table.log.apply(entry)
        except Rejected as rejected:
            assert rejected.reason
            assert table.log.heads[-1] == before
