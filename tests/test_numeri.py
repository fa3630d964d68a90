"""Numeri (RULES.md §2)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from game.rules import CHANCE, IllegalActionError, Outcome, new_game, variant
from game.rules.boards import default_track
from game.rules.numeri import OFF, NumeriState

from .helpers import legal, play

TRACK_VALUES = [
    -3,
    -3,
    -3,
    -2,
    -2,
    -1,
    -1,
    0,
    1,
    0,
    2,
    0,
    3,
    4,
    0,
    5,
    6,
    0,
    7,
    8,
    9,
    0,
    10,
    11,
    12,
    0,
    13,
    14,
    15,
    0,
    16,
    17,
    18,
    0,
    20,
    25,
    30,
]


def setup(
    pawns: list[list[int]], side: int = 0, unlocked: bool = False, die: int | None = None
) -> NumeriState:
    """A position by hand: pawns 1–5 of each seat (-1 off the track), then maybe a die."""
    chosen = variant("numeri", len(pawns))
    stage, face = (2, die) if die else (1, 0)
    return NumeriState.from_fields(chosen, [pawns, side, stage, face, unlocked, None])


def test_track_and_barriers_are_the_decided_ones() -> None:
    track = default_track()
    assert list(track.values) == TRACK_VALUES
    assert [track.barrier(p) for p in (2, 3, 4)] == [9, 12, 15]


def test_lot_and_die_are_chance_events_with_exact_probabilities() -> None:
    start = new_game("numeri", players=4)
    assert start.to_move == CHANCE
    assert start.chance_outcomes() == [(s, Fraction(1, 4)) for s in range(4)]
    rolling = play(start, "first3")
    assert rolling.to_move == CHANCE and rolling.side == 2
    assert legal(rolling) == ["d1", "d2", "d3", "d4", "d5", "d*"]
    assert sum(p for _, p in rolling.chance_outcomes()) == 1
    assert new_game("numeri", players=3, first=2).side == 1


def test_leaflet_entry_example_a_to_d() -> None:
    # Yellow (seat 1) rolls 2: pawn 2 onto the start (A); Blue rolls 4: next free space (B);
    # Green rolls 1 (C); Yellow's 2 again jumps the occupied spaces (D); Blue's 3 enters on
    # the start space, free again (A).
    state = play(new_game("numeri", players=3), "first1 d2 2 d4 4 d1 1")
    assert (state.pawns[0][1], state.pawns[1][3], state.pawns[2][0]) == (0, 1, 2)
    state = play(state, "d2 2")
    assert state.pawns[0][1] == 3
    state = play(state, "d3 3")
    assert state.pawns[1][2] == 0


def test_leaflet_score_example_is_52() -> None:
    track = default_track()
    green = [7, track.values.index(25), track.values.index(9), OFF, 5]
    state = setup([green, [OFF] * 5])
    assert state.scores()[0] == 52


def test_star_moves_any_one_pawn() -> None:
    state = setup([[OFF, 3, OFF, OFF, 20], [0, 1, 2, 4, 5]], die=6)
    assert legal(state) == ["1", "2", "3", "4", "5"]


def test_die_names_the_pawn_and_the_move_is_compulsory() -> None:
    state = setup([[OFF, 3, OFF, OFF, 20], [0, 1, 2, 4, 5]], die=4)
    assert legal(state) == ["4"]
    with pytest.raises(IllegalActionError, match="it moves pawn 4"):
        state.parse_action("2")
    after = play(state, "4")
    assert after.pawns[0][3] == 6  # spaces 0–5 are all taken


def test_turn_passes_when_nothing_can_move() -> None:
    state = setup([[36, 0, 1, 2, 3], [34, 35, 4, 5, 6]])
    after = play(state, "d1")
    assert after.to_move == CHANCE and after.side == 1


def test_split_only_after_the_barrier_in_either_order() -> None:
    locked = setup([[0, 1, 2, 3, 4], [5, 6, 7, 8, 9]], die=5)
    assert legal(locked) == ["5"]
    with pytest.raises(IllegalActionError, match="barrier"):
        locked.parse_action("1+4")
    unlocked = setup([[0, 1, 2, 3, 4], [5, 6, 7, 8, 9]], unlocked=True, die=5)
    assert legal(unlocked) == ["5", "1+4", "4+1", "2+3", "3+2"]
    assert legal(setup([[0, 1, 2, 3, 4], [5, 6, 7, 8, 9]], unlocked=True, die=2)) == ["2"]
    after = play(unlocked, "4+1")  # pawn 4 jumps to 10, then pawn 1 takes the space it left
    assert after.pawns[0][3] == 10 and after.pawns[0][0] == 3


def test_passing_the_barrier_unlocks_splitting_for_everyone() -> None:
    state = setup([[OFF, OFF, OFF, OFF, 9], [0, 1, 2, 3, 4]], die=5)
    after = play(state, "5")
    assert after.unlocked and after.pawns[0][4] == 10
    three = setup([[OFF, OFF, OFF, OFF, 9], [0, 1, 2, 3, 4], [5, 6, 7, 8, 10]], die=5)
    assert not play(three, "5").unlocked  # with 3 players the barrier is after 12


def test_an_entering_pawn_can_pass_the_barrier() -> None:
    state = setup([[10, 11, 12, OFF, OFF], [0, 1, 2, 3, 4], [5, 6, 7, 8, 9]], die=5)
    after = play(state, "5")  # spaces 0–12 are taken: pawn 5 enters on 13
    assert after.pawns[0][4] == 13 and after.unlocked


def test_split_needs_both_pawns_to_move_in_that_order() -> None:
    # Pawn 4 on 34 can only go to 36; after it pawn 1 on 35 has nowhere left to go.  The
    # other way round pawn 1 goes to 36 and pawn 4 then takes the 35 it left.
    state = setup([[35, 0, 1, 34, 2], [3, 4, 5, 6, 7]], unlocked=True, die=5)
    assert "4+1" not in legal(state) and "1+4" in legal(state)


def test_new_chain_of_three_earns_an_extra_roll() -> None:
    state = setup([[10, 11, OFF, 30, OFF], [0, 1, 2, 3, 4]], die=3)
    after = play(state, "3")  # pawn 3 enters on 5 — no chain
    assert after.side == 1
    chain = setup([[20, 21, 18, OFF, OFF], [0, 1, 2, 3, 19]], die=3)
    after = play(chain, "3")  # 18 → 22 (19–21 taken): 20 21 22 is a new chain
    assert after.side == 0 and after.to_move == CHANCE


def test_unchanged_chain_earns_nothing() -> None:
    state = setup([[20, 21, 22, OFF, 30], [0, 1, 2, 3, 4]], die=5)
    assert play(state, "5").side == 1


def test_game_ends_when_the_end_spaces_fill_and_the_extra_roll_is_not_taken() -> None:
    state = setup([[32, 33, 34, 35, 10], [0, 1, 2, 3, 4]], die=5)
    # Pawn 5 cannot reach 36 directly (it lands on 11); the star lets pawn 4 to 36.
    star = setup([[32, 33, 34, 35, 10], [0, 1, 2, 3, 4]], die=6)
    ended = play(star, "2")
    assert ended.is_terminal() and ended.result().reason == "end_spaces"
    assert ended.result().scores == ended.scores()
    assert not play(state, "5").is_terminal()


def test_first_pawn_of_a_split_filling_the_last_end_space_stops_the_second() -> None:
    state = setup([[33, 5, 20, 34, 35], [0, 1, 2, 3, 4]], unlocked=True, die=4)
    ended = play(state, "1+3")
    assert ended.is_terminal()
    assert ended.pawns[0][0] == 36 and ended.pawns[0][2] == 20  # pawn 3 did not move


def test_highest_total_wins_and_equal_totals_share() -> None:
    state = setup([[33, OFF, OFF, OFF, OFF], [34, 35, OFF, OFF, OFF]], die=1)
    ended = play(state, "1")  # 30 − 70 = −40 against 20 + 50 − 60 = 10
    assert ended.result().scores == (-40, 10)
    assert ended.result().outcomes == (Outcome.LOSS, Outcome.WIN)
    even = setup([[33, 34, OFF, OFF, OFF], [35, OFF, OFF, OFF, 16]], die=1)
    shared = play(even, "1")  # 30 + 40 − 60 = 10 and 25 − 45 + 30 = 10
    assert shared.result().scores == (10, 10)
    assert shared.result().outcomes == (Outcome.WIN, Outcome.WIN)


def test_leaflet_extra_roll_example_the_order_of_a_split_matters() -> None:
    # Yellow rolls a 4: 3 then 1 makes the row 20-21-22 and earns a roll; 1 then 3, or
    # pawn 4 alone, leaves no new row of three and the turn passes.
    state = setup([[17, 18, 21, 20, OFF], [10, 19, 13, OFF, OFF]], unlocked=True, die=4)
    assert sorted(legal(state)) == ["1+3", "3+1", "4"]
    assert play(state, "3+1").side == 0
    assert play(state, "1+3").side == 1
    assert play(state, "4").side == 1
