"""Dama and Mangia la dama (RULES.md §3a, §3b)."""

from __future__ import annotations

import pytest

from game.rules import (
    TERMINAL,
    AmbiguousActionError,
    IllegalActionError,
    MalformedActionError,
    Outcome,
    RulesError,
    new_game,
    perft,
    variant,
)
from game.rules.checkerboard import parse_square
from game.rules.dama import DamaState

from .helpers import legal, play

CLASSIC = variant("dama:classic")
HUFFING = variant("dama:classic", options={"huffing": True})
MANGIA = variant("dama:mangia")


def n(name: str) -> int:
    """The PDN number of a square given by name: n("a1") == 29."""
    square = parse_square(name)
    assert square is not None, name
    return square + 1


def mv(*names: str) -> str:
    return f"{n(names[0])}-{n(names[1])}"


def cap(*names: str) -> str:
    return "x".join(str(n(name)) for name in names)


def mask(names: str) -> int:
    return sum(1 << (n(name) - 1) for name in names.split())


def position(
    white_men: str = "",
    black_men: str = "",
    white_kings: str = "",
    black_kings: str = "",
    side: int = 0,
    chosen=CLASSIC,
) -> DamaState:
    return DamaState.from_pieces(
        chosen, (mask(white_men), mask(black_men)), (mask(white_kings), mask(black_kings)), side
    )


@pytest.mark.slow
@pytest.mark.parametrize(
    ("depth", "count"),
    [(1, 7), (2, 49), (3, 302), (4, 1469), (5, 7361), (6, 36768), (7, 179740), (8, 845931)],
)
def test_perft_from_the_start_matches_checkers(depth: int, count: int) -> None:
    assert perft(new_game("dama:classic"), depth) == count


def test_setup_and_numbering() -> None:
    start = new_game("dama")
    assert start.to_move == 0  # White moves first
    assert (n("b8"), n("h8"), n("a7"), n("a1"), n("c1"), n("g1")) == (1, 4, 5, 29, 30, 32)
    assert start.men == (
        mask("a1 c1 e1 g1 b2 d2 f2 h2 a3 c3 e3 g3"),
        mask("b8 d8 f8 h8 a7 c7 e7 g7 b6 d6 f6 h6"),
    )
    assert sorted(legal(start)) == sorted(
        ["21-17", "22-17", "22-18", "23-18", "23-19", "24-19", "24-20"]
    )


def test_men_move_forward_only_and_never_capture_backwards() -> None:
    state = position(white_men="c3", black_men="b2 h8")
    assert sorted(legal(state)) == sorted([mv("c3", "b4"), mv("c3", "d4")])


def test_man_captures_a_king_and_capture_is_compulsory() -> None:
    state = position(white_men="c3 g1", black_kings="d4")
    assert legal(state) == [cap("c3", "e5")]
    with pytest.raises(IllegalActionError, match="capturing is compulsory"):
        state.parse_action(mv("g1", "h2"))


def test_multiple_capture_must_be_completed() -> None:
    state = position(white_men="c3", black_men="d4 f6 a7")
    assert legal(state) == [cap("c3", "e5", "g7")]
    with pytest.raises(IllegalActionError):
        state.parse_action(cap("c3", "e5"))
    after = play(state, cap("c3", "e5", "g7"))
    assert after.men == (mask("g7"), mask("a7"))


def test_short_capture_notation_when_unambiguous() -> None:
    state = position(white_men="c3", black_men="d4 f6 a7")
    assert state.parse_action(cap("c3", "g7")) == state.parse_action(cap("c3", "e5", "g7"))


def test_short_capture_notation_that_fits_two_routes_is_ambiguous() -> None:
    state = position(white_men="c1", black_men="b2 b4 d2 d4")
    routes = {cap("c1", "a3", "c5"), cap("c1", "e3", "c5")}
    assert routes <= set(legal(state))
    with pytest.raises(AmbiguousActionError, match="write every landing square") as raised:
        state.parse_action(cap("c1", "c5"))
    assert all(route in str(raised.value) for route in routes)


def test_promotion_at_the_far_row() -> None:
    state = position(white_men="c7", black_men="a5")
    after = play(state, mv("c7", "d8"))
    assert after.kings[0] == mask("d8") and after.men[0] == 0
    black = play(position(white_men="h4", black_men="b2", side=1), mv("b2", "a1"))
    assert black.kings[1] == mask("a1")


def test_flying_king_moves_and_lands_directly_behind() -> None:
    quiet = position(white_kings="a1", black_men="h6")
    assert sorted(legal(quiet)) == sorted(
        mv("a1", s) for s in ("b2", "c3", "d4", "e5", "f6", "g7", "h8")
    )
    capture = position(white_kings="a1", black_men="e5")
    assert legal(capture) == [cap("a1", "f6")]  # never g7 or h8


def test_captured_pieces_stay_until_the_end_and_are_jumped_once() -> None:
    # From e5 the diagonal back through d4 is blocked by the captured man there, so the
    # king cannot go on over b2; and the shorter capture may be chosen freely.
    state = position(white_kings="e1", black_men="d2 d4 f4 b2")
    assert sorted(legal(state)) == sorted([cap("e1", "c3", "e5", "g3"), cap("e1", "c3", "a1")])
    after = play(state, cap("e1", "c3", "a1"))
    assert after.men[1] == mask("d4 f4") and after.kings[0] == mask("a1")


def test_king_multicapture_changes_direction() -> None:
    state = position(white_kings="c1", black_men="d2 d4 b4", black_kings="h8")
    assert cap("c1", "e3", "c5", "a3") in legal(state)


@pytest.mark.parametrize("chosen", [CLASSIC, MANGIA])
def test_a_king_that_captures_round_to_its_own_square_is_still_there(chosen) -> None:
    """Its square is empty once it has left it, so a king may capture round a ring back to
    where it stood.  The engine moved a king by toggling its start and end squares, which
    for one square took it off the board: a Mangia ladder game found the position
    (3x12x19x10x3), its searching side left with no piece and still to move."""
    state = position(white_kings="e3", black_men="d4 d6 f6 f4 a7", chosen=chosen)
    ring = cap("e3", "c5", "e7", "g5", "e3")
    assert sorted(legal(state)) == sorted([ring, cap("e3", "g5", "e7", "c5", "e3")])
    after = play(state, ring)
    assert after.kings[0] == mask("e3") and after.men == (0, mask("a7"))
    assert after.to_move == 1 and not after.is_terminal()


def test_no_piece_or_no_move_loses() -> None:
    state = position(white_men="c3", black_men="d4")
    after = play(state, cap("c3", "e5"))
    assert after.to_move == TERMINAL
    assert after.result().outcomes == (Outcome.WIN, Outcome.LOSS)
    assert after.result().reason == "no_pieces"
    blocked = position(white_men="a1 c1", black_men="a3 b2 c3 d2 e3", side=0)
    assert blocked.result().outcomes == (Outcome.LOSS, Outcome.WIN)
    assert blocked.result().reason == "no_moves"


def test_mangia_inverts_the_result() -> None:
    state = position(white_men="c3", black_men="d4", chosen=MANGIA)
    after = play(state, cap("c3", "e5"))
    assert after.result().outcomes == (Outcome.LOSS, Outcome.WIN)
    assert new_game("dama:mangia").legal_actions() == new_game("dama").legal_actions()


def test_threefold_repetition_draws_at_once() -> None:
    state = position(white_kings="a1", black_kings="a7")
    shuffle = f"{mv('a1', 'b2')} {mv('a7', 'b8')} {mv('b2', 'a1')} {mv('b8', 'a7')}"
    twice = play(state, shuffle)
    assert not twice.is_terminal()
    nearly = play(twice, f"{mv('a1', 'b2')} {mv('a7', 'b8')} {mv('b2', 'a1')}")
    assert not nearly.is_terminal()
    third = play(nearly, mv("b8", "a7"))
    assert third.result().outcomes == (Outcome.DRAW, Outcome.DRAW)
    assert third.result().reason == "repetition"


def test_eighty_quiet_plies_draw() -> None:
    base = position(white_kings="a1", white_men="g1", black_kings="h8", black_men="a7")
    fields = base.to_fields()
    fields[4] = 79
    state = DamaState.from_fields(CLASSIC, fields)
    drawn = play(state, mv("a1", "b2"))
    assert drawn.result().reason == "quiet_plies"
    reset = play(state, mv("g1", "h2"))  # a man move restarts the count
    assert not reset.is_terminal() and reset.quiet == 0


def test_huffing_off_forbids_and_on_allows_ignoring_a_capture() -> None:
    assert mv("g1", "h2") not in legal(position(white_men="c3 g1", black_men="d4 a7"))
    state = position(white_men="b2 c3 g1", black_men="d4 a7", chosen=HUFFING)
    assert {cap("c3", "e5"), mv("g1", "h2")} <= set(legal(state))
    after = play(state, mv("g1", "h2"))
    assert f"h{n('c3')}" in legal(after)
    huffed = play(after, f"h{n('c3')}")
    assert huffed.men[0] == mask("b2 h2") and huffed.to_move == 1  # and Black still moves
    assert huffed.quiet == 0 and len(huffed.history) == 1
    assert not any(a.startswith("h") for a in legal(huffed))
    expired = play(after, mv("a7", "b6"))
    assert not any(a.startswith("h") for a in legal(expired))


def test_huffing_follows_a_capturer_that_moved() -> None:
    state = position(white_men="c3", black_men="d4 a7", chosen=HUFFING)
    after = play(state, mv("c3", "b4"))
    assert legal(after)[0] == f"h{n('b4')}"


def test_illegal_and_malformed_actions_are_named() -> None:
    state = new_game("dama")
    with pytest.raises(MalformedActionError, match="'zz'"):
        state.parse_action("zz")
    with pytest.raises(RulesError):  # every error of the engine is one
        state.parse_action("zz")
    with pytest.raises(IllegalActionError, match="no White piece on 18"):
        state.parse_action("18-14")
    with pytest.raises(IllegalActionError):
        state.apply(12345)


def test_a_blocking_move_wins_even_on_the_eightieth_quiet_ply() -> None:
    fields = position(white_kings="e5", white_men="c1", black_men="a3").to_fields()
    fields[4] = 79
    state = DamaState.from_fields(CLASSIC, fields)
    blocked = play(state, mv("e5", "b2"))
    assert blocked.result().outcomes == (Outcome.WIN, Outcome.LOSS)
    assert blocked.result().reason == "no_moves"


def test_mangia_a_blocking_move_lets_the_blocked_side_win_even_on_the_eightieth_ply() -> None:
    fields = position(white_kings="e5", white_men="c1", black_men="a3", chosen=MANGIA).to_fields()
    fields[4] = 79
    state = DamaState.from_fields(MANGIA, fields)
    blocked = play(state, mv("e5", "b2"))
    assert blocked.result().outcomes == (Outcome.LOSS, Outcome.WIN)
    assert blocked.result().reason == "no_moves"
