"""Match sessions: seats, reproducible dice, undo, and the match's own encoding."""

from __future__ import annotations

import pytest

from game.rules import IllegalActionError, RulesError, resign_action, variant
from game.session.match import Hint, Match
from game.session.seats import Seat, SeatKind

HUMAN = Seat()
COMPUTER = Seat(SeatKind.COMPUTER, "easy")


def test_seats_are_checked() -> None:
    with pytest.raises(ValueError, match="needs a level"):
        Seat(SeatKind.COMPUTER)
    with pytest.raises(RulesError, match="seats"):
        Match.new(variant("numeri", 3), [HUMAN, HUMAN], seed=1)


def test_play_records_and_an_illegal_action_changes_nothing() -> None:
    match = Match.new(variant("dama"), [HUMAN, HUMAN], seed=1)
    seen = []
    match.on_change.append(lambda m: seen.append(len(m.record.actions)))
    match.play(match.state.parse_action("22-18"))
    before = match.state.digest()
    with pytest.raises(IllegalActionError):
        match.play(12345)
    assert match.state.digest() == before and match.record.notation() == ("22-18",)
    assert seen == [1]


def rolls(seed: int, count: int = 6) -> list[int]:
    match = Match.new(variant("ausgeblockt"), [HUMAN, HUMAN], seed=seed)
    outcomes = []
    for _ in range(count):
        outcomes.append(match.roll())
        while not match.state.is_chance():
            match.play(match.state.legal_actions()[-1])
    return outcomes


def test_dice_depend_only_on_seed_and_event_number() -> None:
    assert rolls(42) == rolls(42)
    assert len({tuple(rolls(seed)) for seed in range(5)}) == 5
    with pytest.raises(RulesError, match="no chance event"):
        Match.new(variant("dama"), [HUMAN, HUMAN], seed=1).roll()


def test_undo_goes_back_to_the_last_human_decision() -> None:
    match = Match.new(variant("dama"), [HUMAN, COMPUTER], seed=1)
    match.play(match.state.parse_action("22-18"))
    match.play(match.state.parse_action("11-15"))  # the computer's reply
    assert match.undo()
    assert match.record.notation() == () and match.state.to_move == 0
    assert not match.undo()


def test_undo_never_crosses_a_revealed_chance_event() -> None:
    match = Match.new(variant("numeri", 2, {"first": 1}), [HUMAN, HUMAN], seed=5)
    match.roll()
    pawn = match.state.legal_actions()[0]
    match.play(pawn)
    assert match.undo()  # back to choosing with the same die
    assert match.state.to_move == 0 and match.state.legal_actions()
    assert not match.undo()  # the die is revealed: no going back past it
    match.play(pawn)
    match.roll()  # the next seat's die: revealed, so that move stays too
    assert not match.undo()


def test_undo_at_hotseat_takes_back_one_action() -> None:
    match = Match.new(variant("mulino"), [HUMAN, HUMAN], seed=1)
    for text in ("a1", "g7", "d1"):
        match.play(match.state.parse_action(text))
    assert match.undo() and match.record.notation() == ("a1", "g7")


def test_resignation_and_encoding_round_trip() -> None:
    match = Match.new(variant("numeri", 3), [HUMAN, COMPUTER, Seat(SeatKind.REMOTE)], seed=9)
    match.roll()
    match.play(resign_action(1))
    copy = Match.from_bytes(match.to_bytes())
    assert copy.state.digest() == match.state.digest()
    assert copy.seats == match.seats and copy.seed == 9
    assert copy.state.result().reason == "resignation"


def test_hints_are_saved_once_per_decision_and_seat_and_older_saves_still_load() -> None:
    import msgpack

    match = Match.new(variant("mulino"), [HUMAN, HUMAN], seed=3)
    match.note_hint()
    match.play(match.state.parse_action("a1"))
    match.note_hint()
    match.note_hint()  # the same decision: once
    assert match.hints == [Hint(0, 0), Hint(1, 1)] and match.hints_by_seat() == {0: 1, 1: 1}
    assert Match.from_bytes(match.to_bytes()) == match
    fields = msgpack.unpackb(match.to_bytes())
    assert Match.from_bytes(msgpack.packb([1, *fields[1:4]])).hints == []
    assert Match.from_bytes(msgpack.packb([2, *fields[1:4], [0, 1]])).hints == match.hints
    for broken in ([3, *fields[1:4]], [1, *fields[1:]], [3, *fields[1:4], [[5, 0]]],
                   [3, *fields[1:4], [[0, 2]]], [3, *fields[1:4], [[0]]],
                   [3, *fields[1:4], [["a", 0]]], [3, *fields[1:4], [1]],
                   [2, *fields[1:4], ["a"]], [4, *fields[1:]], [3, *fields[1:3], -1, []],
                   [3, *fields[1:3], 1.5, []]):  # fmt: skip
        with pytest.raises(RulesError):
            Match.from_bytes(msgpack.packb(broken))


def test_a_hint_for_the_computer_or_a_throw_of_the_dice_is_refused() -> None:
    match = Match.new(variant("mulino"), [HUMAN, COMPUTER], seed=3)
    match.play(match.state.parse_action("a1"))
    with pytest.raises(RulesError, match="not a person's"):
        match.note_hint()
    numeri = Match.new(variant("numeri", 2, {"first": 1}), [HUMAN, HUMAN], seed=5)
    assert numeri.state.is_chance()
    assert numeri.hint_error(Hint(0, 0)) == "there is no decision before action 0"
    assert numeri.hints == []


def test_hint_then_undo_keeps_the_hint_at_the_decision_returned_to_and_the_save_loads() -> None:
    """The café visitor's sequence (Play, place a7, the computer replies, Hint, Undo, Leave)
    once set the match aside as damaged: the hint stood past the record."""
    match = Match.new(variant("mulino"), [HUMAN, COMPUTER], seed=3)
    match.play(match.state.parse_action("a7"))
    match.play(match.state.parse_action("g7"))  # the computer's reply
    match.note_hint()
    assert match.hints == [Hint(2, 0)]
    assert match.undo() and len(match.record.actions) == 0
    assert match.hints == [Hint(0, 0)]  # seen, so still counted, at the move played again
    copy = Match.from_bytes(match.to_bytes())
    assert copy == match and copy.hints_by_seat() == {0: 1}
    match.note_hint()  # asked again for the same decision: the same hint
    assert match.hints_by_seat() == {0: 1}


def test_a_version_2_save_with_a_hint_past_its_record_opens() -> None:
    """Saves the older version wrote after Hint and Undo, which it then refused."""
    import msgpack

    match = Match.new(variant("dama"), [HUMAN, COMPUTER], seed=8)
    fields = msgpack.unpackb(match.to_bytes())
    opened = Match.from_bytes(msgpack.packb([2, *fields[1:4], [2]]))
    assert opened.hints == [Hint(0, 0)] and opened.record.actions == ()
