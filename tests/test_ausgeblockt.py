"""Ausgeblockt (RULES.md §1)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from game.rules import CHANCE, IllegalActionError, Outcome, new_game, variant
from game.rules.ausgeblockt import (
    DECIDE,
    MARK,
    ROLL,
    AusgeblocktState,
    parse_cell,
    roll_outcomes,
)
from game.rules.boards import COW, default_sheet

from .helpers import legal, play

AUSGEBLOCKT = variant("ausgeblockt")
RULES_SHEET = """\
2 X 3 2 O 3 2
4 5 4 C 1 C 5
1 C 1 3 5 4 1
O 3 2 C 2 3 X
1 4 5 3 1 C 1
5 C 1 C 4 5 4
2 3 X 2 3 O 2"""


def cells(names: str) -> int:
    return sum(1 << parse_cell(name) for name in names.split())


def position(x: str = "", o: str = "", side: int = 0) -> AusgeblocktState:
    """A position at the start of ``side``'s turn with extra X and O marks."""
    start = new_game("ausgeblockt", first=1)
    marks = [start.cells[0] | cells(x), start.cells[1] | cells(o)]
    return AusgeblocktState.from_fields(AUSGEBLOCKT, [marks, side, ROLL, [], [], 0, -1, None])


def test_sheet_is_the_one_of_the_rules() -> None:
    letters = {1: "1", 2: "2", 3: "3", 4: "4", 5: "5", COW: "C", 7: "X", 8: "O"}
    symbols = default_sheet().symbols
    rows = [" ".join(letters[symbols[r * 7 + c]] for c in range(7)) for r in range(6, -1, -1)]
    assert "\n".join(rows) == RULES_SHEET
    state = new_game("ausgeblockt")
    assert state.starts(0) == tuple(sorted(parse_cell(c) for c in ("b7", "g4", "c1")))
    assert state.starts(1) == tuple(sorted(parse_cell(c) for c in ("e7", "a4", "f1")))


def test_sheet_is_point_symmetric_so_both_sides_have_equal_chances() -> None:
    symbols = default_sheet().symbols
    mirror = {7: 8, 8: 7}
    assert all(mirror.get(symbols[c], symbols[c]) == symbols[48 - c] for c in range(49))


def test_who_begins_is_a_lot_and_five_dice_roll_with_exact_probabilities() -> None:
    start = new_game("ausgeblockt")
    assert start.to_move == CHANCE and legal(start) == ["first1", "first2"]
    rolling = play(start, "first2")
    assert rolling.to_move == CHANCE and rolling.side == 1
    outcomes = dict(rolling.chance_outcomes())
    assert len(outcomes) == 252 and sum(outcomes.values()) == 1
    assert outcomes[rolling.parse_action("=CCCCC")] == Fraction(1, 6**5)
    assert outcomes[rolling.parse_action("=1234C")] == Fraction(120, 6**5)
    assert [len(roll_outcomes(k)) for k in range(1, 6)] == [6, 21, 56, 126, 252]


def test_emilio_marks_a_4_after_three_4s_on_his_third_attempt() -> None:
    state = play(new_game("ausgeblockt"), "first2 =12344")
    assert state.stage == DECIDE and state.to_move == 1
    state = play(state, "r12 =45")  # the 3, 4 and 4 stay; dice 3 4 4 4 5
    state = play(state, "r35 =12")  # third attempt: 1 2 4 4 4
    assert state.stage == MARK and state.to_move == 1
    fours = sorted(c for c in legal(state) if c != "pass")
    assert fours == sorted(c for c in ("a6", "c6", "f5", "b3", "e2", "g2"))
    after = play(state, "c6")
    assert after.to_move == CHANCE and after.side == 0 and after.chain == -1


def test_dice_put_aside_may_be_rolled_again_later() -> None:
    state = play(new_game("ausgeblockt", first=1), "=11223 r3 =4")
    assert state.dice == (1, 1, 2, 2, 4)
    state = play(state, "r1122")  # the 1s and 2s kept before are rolled now
    assert state.kept == (4,)


def test_stop_early_and_the_third_attempt_ends_rolling() -> None:
    state = play(new_game("ausgeblockt", first=1), "=4444C stop")
    assert state.stage == MARK
    third = play(new_game("ausgeblockt", first=1), "=12345 r12345 =12345 r12345")
    assert third.stage == ROLL and third.attempts == 2
    assert play(third, "=12345").to_move == CHANCE  # nothing usable: O's turn
    assert play(third, "=12345").side == 1


def test_sara_quad_chain() -> None:
    # Four 3s: a 3 is marked and Sara plays again, now bound to cells touching it.  Four
    # cows on the third attempt: a cow next to the 3.  Then three 1s: a normal mark next
    # to the cow ends the chain.
    state = play(new_game("ausgeblockt", first=1), "=33331 stop d5")
    assert state.side == 0 and state.to_move == CHANCE and state.chain == parse_cell("d5")
    state = play(state, "=12345 r12345 =1123C r1123 =CCC1")
    assert state.stage == MARK
    assert sorted(legal(state)) == ["d4", "d6", "pass"]  # b5 is a cow but not adjacent
    state = play(state, "d6")
    assert state.side == 0 and state.chain == parse_cell("d6")
    state = play(state, "=11123 stop")
    assert sorted(legal(state)) == ["c5", "e6", "pass"]
    with pytest.raises(IllegalActionError, match="must touch d6"):
        state.parse_action("a5")
    after = play(state, "e6")
    assert after.side == 1 and after.chain == -1


def test_two_cows_or_exactly_three_numbers_and_the_player_picks_one() -> None:
    state = play(new_game("ausgeblockt", first=1), "=444CC stop")
    choice = set(legal(state))
    assert {"a6", "d6"} <= choice  # a 4 and a cow
    assert play(state, "d6").side == 1  # only one cell, and the turn ends
    three_cows = play(new_game("ausgeblockt", first=1), "=12CCC stop")
    assert "d6" in legal(three_cows) and "a6" not in legal(three_cows)
    assert play(three_cows, "d6").side == 1  # three cows are a normal mark


def test_quad_of_cows_and_five_of_a_kind_are_quad_marks() -> None:
    assert play(new_game("ausgeblockt", first=1), "=CCCC1 stop d6").side == 0
    assert play(new_game("ausgeblockt", first=1), "=55555 stop b6").side == 0


def test_passing_is_always_allowed_and_a_quad_with_nothing_marked_ends_the_turn() -> None:
    state = play(new_game("ausgeblockt", first=1), "=33331 stop")
    assert "pass" in legal(state)
    after = play(state, "pass")
    assert after.side == 1 and after.chain == -1


def test_chain_ends_when_no_adjacent_cell_matches() -> None:
    state = play(new_game("ausgeblockt", first=1), "=33331 stop d5")
    after = play(state, "=33332 stop")  # no free 3 touches d5
    assert after.side == 1 and after.to_move == CHANCE


def test_connecting_the_three_starts_wins_at_once_diagonals_count() -> None:
    state = position(x="c6 d5 e4 f4 d4 c3")
    state = play(state, "=11123 stop")
    won = play(state, "c2")
    assert won.result().outcomes == (Outcome.WIN, Outcome.LOSS)
    assert won.result().reason == "connected"
    assert won.winning_chain() & cells("c2 c6 b7 g4") == cells("c2 c6 b7 g4")


def test_blocking_is_allowed_and_both_blocked_is_a_draw() -> None:
    walled = position(x="d7 d6 e6 f6 f7", o="a3 b3 c3 e3 f3 g3", side=1)
    assert walled.is_blocked(1) and not walled.is_blocked(0)
    assert not walled.is_terminal()
    state = play(walled, "=33321 stop")
    drawn = play(state, "d3")
    assert drawn.result().outcomes == (Outcome.DRAW, Outcome.DRAW)
    assert drawn.result().reason == "both_blocked"
