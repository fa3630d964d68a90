"""Knockout: seeded brackets with byes to the top seeds, deciders on a draw."""

from __future__ import annotations

from dataclasses import replace

from game.rules import variant
from game.tournament import (
    Format,
    Pairing,
    Player,
    Result,
    Round,
    Tournament,
    check_round,
    check_tournament,
)
from game.tournament.knockout import MOST_DECIDERS, seeding_order

MULINO = variant("mulino", 2)


def knockout(n: int) -> Tournament:
    people = [Player(s, f"s{s}", f"Seed {s}") for s in range(1, n + 1)]
    return Tournament.create(MULINO, Format.KNOCKOUT, people)


def test_the_bracket_keeps_the_top_seeds_apart() -> None:
    assert seeding_order(2) == [1, 2]
    assert seeding_order(4) == [1, 4, 2, 3]
    assert seeding_order(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]


def test_eight_players() -> None:
    t = knockout(8)
    assert t.planned_rounds == 3
    t = t.pair_next_round()
    assert [str(p) for p in t.rounds[0].pairings] == ["s1-s8", "s4-s5", "s2-s7", "s3-s6"]
    assert t.rounds[0].byes == ()
    # the lower seeds win everywhere: 8 v 5 and 7 v 6 next, 8 (the higher now) White
    for board in range(4):
        t = t.record(1, board, Result.BLACK_WINS)
    t = t.pair_next_round()
    assert [str(p) for p in t.rounds[1].pairings] == ["s5-s8", "s6-s7"]


def test_five_players_the_top_three_seeds_have_byes() -> None:
    t = knockout(5).pair_next_round()
    assert [str(p) for p in t.rounds[0].pairings] == ["s4-s5"]
    assert t.rounds[0].byes == ("s1", "s2", "s3")
    t = t.record(1, 0, Result.BLACK_WINS).pair_next_round()
    assert [str(p) for p in t.rounds[1].pairings] == ["s1-s5", "s2-s3"]
    t = t.record(2, 0, Result.WHITE_WINS).record(2, 1, Result.BLACK_WINS).pair_next_round()
    assert [str(p) for p in t.rounds[2].pairings] == ["s1-s3"]
    t = t.record(3, 0, Result.BLACK_WINS)
    assert t.over
    assert [s.player.id for s in t.standings()][:2] == ["s3", "s1"]


def test_a_drawn_match_has_deciders_colours_reversed_then_the_higher_seed_goes_on() -> None:
    t = knockout(2).pair_next_round()
    assert t.rounds[0].pairings == (Pairing("s1", "s2"),)
    t = t.record(1, 0, Result.DRAW)
    assert t.rounds[0].pairings[1] == Pairing("s2", "s1"), "a decider, colours reversed"
    assert not t.over
    t = t.record(1, 1, Result.DRAW)
    assert t.rounds[0].pairings[2] == Pairing("s1", "s2"), "reversed again"
    t = t.record(1, 2, Result.DRAW)
    assert len(t.rounds[0].pairings) == 1 + MOST_DECIDERS
    assert t.over
    assert t.standings()[0].player.id == "s1"


def test_a_decider_won_decides_the_match() -> None:
    t = knockout(2).pair_next_round().record(1, 0, Result.DRAW)
    t = t.record(1, 1, Result.WHITE_WINS)  # s2 had White in the decider
    assert t.over and t.standings()[0].player.id == "s2"


def test_a_game_not_scored_is_played_again_as_a_decider() -> None:
    """A double forfeit (its match forked) decides nothing: the pair plays a decider, and
    the bracket goes on from its result."""
    t = knockout(2).pair_next_round().record(1, 0, Result.DOUBLE_FORFEIT)
    assert t.rounds[0].pairings[1] == Pairing("s2", "s1") and not t.over
    t = t.record(1, 1, Result.BLACK_WINS)
    assert t.over and t.standings()[0].player.id == "s1"
    assert (
        t.rounds[0].games()[0][1].white_half_points
        == 0
        == t.rounds[0].games()[0][1].black_half_points
    )


def test_a_forfeit_decides_and_a_withdrawn_player_gives_a_walkover() -> None:
    t = knockout(4).pair_next_round()
    t = t.record(1, 0, Result.WHITE_FORFEITS).record(1, 1, Result.WHITE_WINS)
    assert [str(p) for p in t.expected_round().pairings] == ["s2-s4"]
    t = t.withdraw("s4")
    final = t.expected_round()
    assert final.pairings == () and final.byes == ("s2",)
    assert "s4 is paired but has withdrawn" in check_round(t, Round(2, (Pairing("s2", "s4"),)))
    t = t.pair_next_round()
    assert t.over and [s.player.id for s in t.standings()][:2] == ["s2", "s4"]


def test_a_director_pairing_off_the_bracket_is_refused() -> None:
    t = knockout(8)
    wrong = Round(
        1, (Pairing("s1", "s2"), Pairing("s4", "s5"), Pairing("s8", "s7"), Pairing("s3", "s6"))
    )
    faults = check_round(t, wrong)
    assert faults == ["the system pairs round 1 as s1-s8 s4-s5 s2-s7 s3-s6"]


def test_a_decider_nobody_was_due_is_refused_by_the_whole_check() -> None:
    t = knockout(2).pair_next_round().record(1, 0, Result.WHITE_WINS)
    assert check_tournament(t) == []
    extra = t.rounds[0].with_game(Pairing("s2", "s1")).with_result(1, Result.WHITE_WINS)
    assert check_tournament(replace(t, rounds=(extra,))) == [
        "round 1: game 1 is no pairing the system made"
    ]


def test_a_player_knocked_out_is_not_paired_again() -> None:
    t = (
        knockout(4)
        .pair_next_round()
        .record(1, 0, Result.WHITE_WINS)
        .record(1, 1, Result.WHITE_WINS)
    )
    assert "s4 is paired but is out of the knockout" in check_round(
        t, Round(2, (Pairing("s1", "s4"),), ("s2",))
    )
