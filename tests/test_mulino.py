"""Mulino: classic, misto and ceylonese (RULES.md §4)."""

from __future__ import annotations

import random

import pytest

from game.rules import IllegalActionError, Outcome, decode_state, new_game, perft, variant
from game.rules.mulino import ADJACENT, EXTRA, MILLS, NORMAL, POINTS, REMOVE, MulinoState

from .helpers import legal, play

CLASSIC = variant("mulino:classic")
MISTO = variant("mulino:misto")
CEYLONESE = variant("mulino:ceylonese")


def test_board_has_24_points_32_lines_and_the_16_mills_of_the_rules() -> None:
    assert len(POINTS) == 24
    assert sum(a.bit_count() for a in ADJACENT) == 2 * 32
    listed = (
        "a1-d1-g1 b2-d2-f2 c3-d3-e3 a4-b4-c4 e4-f4-g4 c5-d5-e5 b6-d6-f6 a7-d7-g7 "
        "a1-a4-a7 b2-b4-b6 c3-c4-c5 d1-d2-d3 d5-d6-d7 e3-e4-e5 f2-f4-f6 g1-g4-g7"
    )
    expected = {sum(1 << POINTS.index(p) for p in mill.split("-")) for mill in listed.split()}
    assert set(MILLS) == expected


@pytest.mark.parametrize(
    ("depth", "count"), [(1, 24), (2, 552), (3, 12144), (4, 255024), (5, 5100480)]
)
def test_perft_from_the_start(depth: int, count: int) -> None:
    # No mill can close before ply 5, so these are 24·23·22·…; ply 6 is in docs/PERFORMANCE.md.
    assert perft(new_game("mulino"), depth) == count


def test_perft_of_hand_reasoned_flying_position() -> None:
    # White flies (3 pieces): 3 × 18 empty points = 54 moves; only b4-g1 closes a mill, and
    # then any of Black's 3 pieces (none in a mill) goes: 53 · 54 (Black flies too) + 3.
    state = MulinoState.setup(CLASSIC, "a1 d1 b4", "g7 f6 e5")
    assert perft(state, 1) == 54
    assert perft(state, 2) == 53 * 54 + 3


def test_perft_of_hand_reasoned_sliding_position() -> None:
    # Four white midpoints of the outer square against four black ones of the middle square:
    # each white piece has 2 steps; each then frees a point for exactly one black piece,
    # which gives Black 4 + 3 + 3 + 3 steps; no step closes a mill.
    state = MulinoState.setup(CLASSIC, "d1 a4 g4 d7", "d2 b4 f4 d6")
    assert perft(state, 1) == 8
    assert perft(state, 2) == 8 * 13


def test_ceylonese_perft_around_the_first_placing_mill() -> None:
    # White a1 d1, Black g7 f6, White to place: 20 empty points, of which only g1 closes a
    # mill (a1-d1-g1). Depth 2: the 19 other placements leave Black 19 points; g1 grants an
    # extra placement, 19 points or pass. Depth 3: after the 19 · 19 quiet lines White has
    # 18 points (Black's two pieces share no mill, so Black cannot close one with a third);
    # after g1, pass leaves Black 19 points and each of the 19 extra placements (none closes
    # a second mill: a4, a7, d2, d3, g4 are free or Black's) leaves Black 18.
    state = play(new_game("mulino:ceylonese"), "a1 g7 d1 f6")
    assert perft(state, 1) == 20
    assert perft(state, 2) == 19 * 19 + 20
    assert perft(state, 3) == 19 * 19 * 18 + 19 + 19 * 18


def test_ceylonese_perft_around_a_mill_with_the_last_piece_in_hand() -> None:
    # White a1 d1 c4, Black a7 g7 d6, one piece each in hand, White to place: 18 empty points,
    # only g1 closes a mill. Depth 2: the 17 other placements leave Black 17 points; g1, the
    # last White piece, grants an extra move — a1-a4, d1-d2, g1-g4, c4-b4/c3/c5 — or pass.
    # After g1, depth 2: none of the six moves closes a mill, so each, like pass, leaves
    # Black its last piece to place on one of 17 points.
    state = MulinoState.setup(CEYLONESE, "a1 d1 c4", "a7 g7 d6", hand=(1, 1))
    assert perft(state, 1) == 18
    assert perft(state, 2) == 17 * 17 + 7
    assert perft(play(state, "g1"), 2) == 7 * 17


def test_placing_alternates_white_first_then_moving() -> None:
    state = new_game("mulino")
    for ply in range(18):
        assert state.to_move == ply % 2 and all(a in POINTS for a in legal(state))
        state = next(
            after for a in state.legal_actions() if (after := state.apply(a)).stage == 0
        )  # place without closing a mill
    assert state.hand == (0, 0) and state.to_move == 0
    assert all("-" in a for a in legal(state))


def test_mill_removes_a_piece_not_in_a_mill() -> None:
    state = play(new_game("mulino"), "a1 b2 d1 d2 b4 f2")  # Black closes b2-d2-f2
    assert state.to_move == 1 and sorted(legal(state)) == ["xa1", "xb4", "xd1"]
    with pytest.raises(IllegalActionError, match="remove an opponent piece first"):
        state.parse_action("g1")
    removed = play(state, "xd1")
    assert removed.to_move == 0 and removed.hand == (6, 6)


def test_any_piece_may_go_when_all_are_in_mills() -> None:
    all_in_mills = MulinoState.setup(CLASSIC, "a1 d1 g1 c3 c4 c5", "a7 d7 g4 e5", side=1)
    after = play(all_in_mills, "g4-g7")  # a7-d7-g7
    assert sorted(legal(after)) == ["xa1", "xc3", "xc4", "xc5", "xd1", "xg1"]
    partly = MulinoState.setup(CLASSIC, "a1 d1 g1 c4", "a7 d7 g4 e5", side=1)
    assert legal(play(partly, "g4-g7")) == ["xc4"]


def test_two_mills_at_once_remove_one_piece() -> None:
    state = MulinoState.setup(CLASSIC, "a1 g1 d2 d3 b6", "a7 g7 f6 e5", hand=(1, 0))
    state = MulinoState.from_fields(CLASSIC, [list(state.men), [1, 0], 0, 0, 0, [], None])
    double = play(state, "d1")  # closes a1-d1-g1 and d1-d2-d3
    assert double.stage == 1 and double.to_move == 0
    after = play(double, "xa7")
    assert after.to_move == 1 and after.stage == 0


def test_reopened_mill_closes_anew() -> None:
    state = MulinoState.setup(CLASSIC, "a1 d1 g1 c3", "a7 d7 f6 e5 b6")
    opened = play(state, "g1-g4 b6-b4")
    closed = play(opened, "g4-g1")
    assert closed.stage == 1


def test_three_pieces_fly() -> None:
    state = MulinoState.setup(CLASSIC, "a1 d1 b4", "g7 f6 e5 d5")
    assert "a1-c5" in legal(state)
    four = MulinoState.setup(CLASSIC, "a1 d1 b4 c3", "g7 f6 e5 d5")
    with pytest.raises(IllegalActionError, match="only 3 pieces may fly"):
        four.parse_action("a1-c5")


def test_fewer_than_three_pieces_loses() -> None:
    state = MulinoState.setup(CLASSIC, "a1 d1 b4", "g7 f6 e5", side=1)
    state = play(state, "g7-g1")
    after = play(state, "b4-c4")  # no mill
    assert not after.is_terminal()
    closing = play(MulinoState.setup(CLASSIC, "a1 d1 b4", "g7 f6 e5"), "b4-g1")
    won = play(closing, "xg7")
    assert won.result().outcomes == (Outcome.WIN, Outcome.LOSS)
    assert won.result().reason == "pieces"


def test_no_legal_move_loses() -> None:
    blocked = MulinoState.setup(CLASSIC, "a1 d1 g1 a4", "d2 b4 g4 a7 d7 b2", side=0)
    assert blocked.result().outcomes == (Outcome.LOSS, Outcome.WIN)
    assert blocked.result().reason == "no_moves"


def test_threefold_repetition_draws() -> None:
    state = MulinoState.setup(CLASSIC, "a1 d1 b4 c3", "g7 f6 e5 d5")
    once = play(state, "b4-b6 g7-g4 b6-b4 g4-g7")
    twice = play(once, "b4-b6 g7-g4 b6-b4")
    assert not twice.is_terminal()
    third = play(twice, "g4-g7")
    assert third.result().reason == "repetition"


def test_hundred_plies_without_removal_draw() -> None:
    state = MulinoState.setup(CLASSIC, "a1 d1 b4 c3", "g7 f6 e5 d5")
    fields = state.to_fields()
    fields[4] = 99
    state = MulinoState.from_fields(CLASSIC, fields)
    assert play(state, "b4-b6").result().reason == "quiet_plies"


def _ninety_nine_quiet_plies() -> MulinoState:
    """A real match from a set-up position after placing: 99 plies without a removal (no
    mill closed, no position a third time), chosen by a seeded walk, leaving the side to
    move a mill to close with the 100th."""
    for seed in range(100):
        rng = random.Random(seed)
        state = MulinoState.setup(CLASSIC, "a1 d1 a4 b6 f4 e3", "g7 d7 d6 c4 e5 f2")
        for _ in range(99):
            quiet = [
                a
                for a in state.legal_actions()
                if state.apply(a).stage == NORMAL and not state.apply(a).is_terminal()
            ]
            if not quiet:
                break
            state = state.apply(rng.choice(quiet))
        else:
            if any(state.apply(a).stage == REMOVE for a in state.legal_actions()):
                return state
    raise AssertionError("no walk of 99 quiet plies ending before a mill")


def test_a_mill_closed_on_the_hundredth_quiet_ply_still_removes() -> None:
    """RULES.md rev. 3: the quiet-ply draw is judged when a turn ends, so the mill closed
    on the 100th ply without a removal takes its removal, which resets the count."""
    state = _ninety_nine_quiet_plies()
    assert state.quiet == 99 and not state.is_terminal()
    closing = next(a for a in state.legal_actions() if state.apply(a).stage == REMOVE)
    closed = state.apply(closing)
    assert not closed.is_terminal() and closed.quiet == 100
    assert closed.to_move == state.to_move and legal(closed)
    removed = closed.apply(closed.legal_actions()[0])
    assert not removed.is_terminal() and removed.quiet == 0
    assert removed.to_move == 1 - state.to_move
    # The same 100th ply without a mill ends the game in a draw.
    quiet = next(a for a in state.legal_actions() if state.apply(a).stage == NORMAL)
    assert state.apply(quiet).result().reason == "quiet_plies"


def test_misto_places_or_moves_while_pieces_remain() -> None:
    state = play(new_game("mulino:misto"), "a1 g7")
    moves = legal(state)
    assert "d1" in moves and "a1-d1" in moves and "a1-a4" in moves
    assert "a1-c5" not in moves  # no flying with pieces in hand
    assert "a1-d1" not in legal(play(new_game("mulino"), "a1 g7"))


def test_ceylonese_mill_while_placing_places_again_without_removal() -> None:
    state = play(new_game("mulino:ceylonese"), "a1 g7 d1 f6 g1")
    assert state.to_move == 0 and state.stage == EXTRA
    empty = [p for p in POINTS if p not in ("a1", "g7", "d1", "f6", "g1")]
    assert legal(state) == [*empty, "pass"]
    assert play(state, "b2").to_move == 1


def test_ceylonese_extra_placement_may_be_declined() -> None:
    state = play(new_game("mulino:ceylonese"), "a1 g7 d1 f6 g1")
    declined = play(state, "pass")
    assert declined.to_move == 1 and declined.stage == NORMAL
    assert declined.hand == (6, 7) and declined.men == state.men
    assert "pass" not in legal(declined)
    with pytest.raises(IllegalActionError, match="only a ceylonese extra placement or move"):
        declined.parse_action("pass")


def test_ceylonese_mill_with_the_last_piece_in_hand_grants_a_move_that_may_pass() -> None:
    state = MulinoState.setup(CEYLONESE, "a1 d1 c4", "a7 g7 d6", hand=(1, 1))
    extra = play(state, "g1")  # White's last piece closes a1-d1-g1; Black has one to place
    assert extra.to_move == 0 and extra.stage == EXTRA and extra.hand == (0, 1)
    assert legal(extra) == ["a1-a4", "d1-d2", "g1-g4", "c4-b4", "c4-c3", "c4-c5", "pass"]
    moved = play(extra, "c4-c5")
    assert moved.to_move == 1 and moved.hand == (0, 1)
    assert moved.men[0] == extra.men[0] ^ 1 << POINTS.index("c4") ^ 1 << POINTS.index("c5")
    assert play(extra, "pass").to_move == 1
    with pytest.raises(IllegalActionError, match="only 3 pieces may fly"):
        extra.parse_action("c4-e4")


def test_ceylonese_extra_move_flies_with_three_pieces() -> None:
    extra = play(MulinoState.setup(CEYLONESE, "a1 d1", "a7 g7 d6", hand=(1, 1)), "g1")
    assert len(legal(extra)) == 3 * (24 - 6) + 1  # any piece to any empty point, or pass


def test_ceylonese_extra_move_mill_while_the_other_places_removes_nothing() -> None:
    state = MulinoState.setup(CEYLONESE, "a1 d1 b2 f2", "a7 g7 d6", hand=(1, 1))
    again = play(state, "g1 d1-d2")  # the extra move closes b2-d2-f2: Black is still placing
    assert again.to_move == 0 and again.stage == EXTRA and again.hand == (0, 1)
    assert again.men[1] == state.men[1] and "pass" in legal(again)
    assert not any(a.startswith("x") for a in legal(again))
    assert play(again, "d2-d3").to_move == 1


def test_ceylonese_extra_moves_to_and_fro_between_two_mills_draw_on_the_third_time() -> None:
    state = MulinoState.setup(CEYLONESE, "a1 d1 b2 f2", "a7 g7 d6", hand=(1, 1))
    twice = play(state, "g1 d1-d2 d2-d1 d1-d2")  # back on d1 once, on d2 twice
    assert not twice.is_terminal() and twice.to_move == 0
    third = play(twice, "d2-d1")
    assert third.result().outcomes == (Outcome.DRAW, Outcome.DRAW)
    assert third.result().reason == "repetition"
    assert decode_state(third.encode()).result() == third.result()


def test_ceylonese_last_placement_of_the_game_grants_a_move_whose_mill_removes() -> None:
    state = MulinoState.setup(CEYLONESE, "a1 d1 b2 f2", "a7 g7 d6 b6", hand=(1, 0))
    extra = play(state, "g1")  # both hands are now empty: the extra move is a moving one
    assert extra.to_move == 0 and extra.stage == EXTRA and extra.hand == (0, 0)
    closed = play(extra, "d1-d2")  # closes b2-d2-f2 in the moving phase
    assert closed.stage == REMOVE and sorted(legal(closed)) == ["xa7", "xb6", "xd6", "xg7"]
    again = play(closed, "xa7")
    assert again.to_move == 0 and again.stage == EXTRA and "pass" in legal(again)


def test_ceylonese_hand_exhausted_early_leaves_the_other_placing() -> None:
    fields = [[0, 0], [1, 3], 0, 0, 0, [], None]
    state = MulinoState.from_fields(CEYLONESE, fields)
    after = play(state, "a1")
    assert after.hand == (0, 3) and after.to_move == 1
    again = play(after, "g7")
    assert again.to_move == 1  # White has nothing to place: Black goes on


def test_ceylonese_moving_mill_removes_then_grants_a_move_that_may_pass() -> None:
    state = MulinoState.setup(CEYLONESE, "a1 d1 g4 c3", "a7 d7 f6 e5 b6")
    closed = play(state, "g4-g1")
    assert sorted(legal(closed)) == ["xa7", "xb6", "xd7", "xe5", "xf6"]
    extra = play(closed, "xb6")
    assert extra.to_move == 0 and "pass" in legal(extra)
    assert play(extra, "pass").to_move == 1
    assert play(extra, "c3-c4").to_move == 1


def test_a_blocking_move_wins_even_on_the_hundredth_quiet_ply() -> None:
    state = MulinoState.setup(CLASSIC, "d2 g4 b4 d7 b2", "a1 d1 g1 a4")
    fields = state.to_fields()
    fields[4] = 99
    state = MulinoState.from_fields(CLASSIC, fields)
    blocked = play(state, "d7-a7")
    assert blocked.result().outcomes == (Outcome.WIN, Outcome.LOSS)
    assert blocked.result().reason == "no_moves"


def test_ceylonese_extra_actions_that_close_mills_grant_again() -> None:
    placing = play(new_game("mulino:ceylonese"), "a1 b2 d1 f2 a7 c3 g1")  # a1-d1-g1
    assert placing.to_move == 0
    again = play(placing, "a4")  # the extra placement closes a1-a4-a7: once more
    assert again.to_move == 0 and again.hand == (4, 6)
    assert play(again, "g7").to_move == 1
    state = MulinoState.setup(CEYLONESE, "a1 d1 g4 a7 b4", "c5 e5 f6 b6 d7")
    moved = play(state, "g4-g1 xc5 b4-a4")  # the extra move closes a1-a4-a7
    assert moved.stage == 1 and moved.to_move == 0
    extra = play(moved, "xe5")
    assert extra.to_move == 0 and "pass" in legal(extra)


def test_misto_a_player_with_an_empty_hand_moves_while_the_other_still_places() -> None:
    fields = [[0b111, 0b111 << 8], [0, 2], 1, 0, 0, [], None]
    state = MulinoState.from_fields(MISTO, fields)  # Black places…
    after = play(state, "c3")
    assert after.to_move == 0 and "a1-a4" in legal(after)  # …and White, with none, moves


def test_misto_repetition_counts_while_pieces_are_still_in_hand() -> None:
    state = play(new_game("mulino:misto"), "a1 g7")
    shuffle = "a1-a4 g7-g4 a4-a1 g4-g7"
    twice = play(state, shuffle)
    assert not twice.is_terminal()
    third = play(twice, "a1-a4 g7-g4 a4-a1 g4-g7")
    assert third.result().reason == "repetition"
