"""The Swiss: a small tournament worked by hand, the director's faults refused, late
joiners and withdrawals, and the matching beneath it checked against brute force."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.rules import variant
from game.tournament import (
    Format,
    Pairing,
    Player,
    Result,
    Round,
    Tournament,
    TournamentError,
    check_round,
    check_tournament,
)
from game.tournament.matching import has_perfect_matching, maximum_matching
from game.tournament.swiss import Entrant, pair_round

from .examples import examples

MULINO = variant("mulino", 2)


def five() -> Tournament:
    people = [Player(seed, id_, id_.upper()) for seed, id_ in enumerate("abcde", 1)]
    return Tournament.create(MULINO, Format.SWISS, people, rounds=3)


def games(t: Tournament) -> list[str]:
    return [str(p) for p in t.rounds[-1].pairings]


def test_five_players_three_rounds_worked_by_hand() -> None:
    """Worked by hand from the rules in docs/PROTOCOL.md (TOURNAMENT):

    Round 1: all on 0; the bye to e, the lowest. S1 = a b, S2 = c d: a–c, b–d; nobody has
    a colour yet, so the higher player has White on board 1, Black on board 2: a-c, d-b.
    a wins, d-b is drawn.

    Round 2: a 1, e 1 (bye), b ½, d ½, c 0. The bye to c (lowest, none yet; a e b d can
    still all be paired). Bracket 1 (a e) cannot pair a–e: b and d below have met, so both
    float. Bracket ½ is a e b d: S1 a e, S2 b d; a (had White, prefers Black) takes b (had
    Black), e takes d. Colours: b-a (both their wish), e-d (e has none, d wants Black).
    a and e win.

    Round 3: a 2, e 2, c 1, b ½, d ½. The bye to d. a–e (a wants White, e Black): a-e;
    c floats to b: c (one Black, wants White) against b (mild wish for Black): c-b.
    """
    t = five().pair_next_round()
    assert (games(t), t.rounds[0].byes) == (["a-c", "d-b"], ("e",))
    t = t.record(1, 0, Result.WHITE_WINS).record(1, 1, Result.DRAW).pair_next_round()
    assert (games(t), t.rounds[1].byes) == (["b-a", "e-d"], ("c",))
    t = t.record(2, 0, Result.BLACK_WINS).record(2, 1, Result.WHITE_WINS).pair_next_round()
    assert (games(t), t.rounds[2].byes) == (["a-e", "c-b"], ("d",))
    t = t.record(3, 0, Result.DRAW).record(3, 1, Result.WHITE_WINS)
    assert t.over
    # Buchholz by hand: a met c (2), b (½), e (2½) = 5; e met d (1½), a (2½) and had a bye = 4
    lines = t.standings()
    assert [(s.rank, s.player.id, s.half_points) for s in lines] == [
        (1, "a", 5), (2, "e", 5), (3, "c", 4), (4, "d", 3), (5, "b", 1),
    ]  # fmt: skip
    by_id = {s.player.id: s for s in lines}
    assert by_id["a"].tie_breaks == (Fraction(5), Fraction(9, 2))
    assert by_id["e"].tie_breaks == (Fraction(4), Fraction(4))  # cut 1 takes away the bye's 0
    assert by_id["b"].tie_breaks == (Fraction(6), Fraction(9, 2))  # d (1½), a (2½), c (2), less d


def test_the_number_of_rounds_defaults_to_log2_plus_one() -> None:
    def rounds(n: int) -> int:
        ps = [Player(s, f"p{s}", "") for s in range(1, n + 1)]
        return Tournament.create(MULINO, Format.SWISS, ps).planned_rounds

    assert [rounds(n) for n in (2, 3, 4, 5, 8, 9, 16, 17, 32, 64)] == [1, 3, 3, 4, 4, 5, 5, 6, 6, 7]


def test_a_director_repeating_a_pair_is_refused() -> None:
    t = five().pair_next_round().record(1, 0, Result.WHITE_WINS).record(1, 1, Result.DRAW)
    again = Round(2, (Pairing("c", "a"), Pairing("e", "d")), ("b",))
    faults = check_round(t, again)
    assert "a and c meet 2 times" in faults


def test_a_director_giving_a_second_bye_or_leaving_someone_out_is_refused() -> None:
    t = five().pair_next_round().record(1, 0, Result.WHITE_WINS).record(1, 1, Result.DRAW)
    assert "e has had a bye already" in check_round(
        t, Round(2, (Pairing("b", "a"), Pairing("c", "d")), ("e",))
    )
    assert "e is left out" in check_round(t, Round(2, (Pairing("b", "a"), Pairing("c", "d"))))
    assert "a is paired 2 times" in check_round(
        t, Round(2, (Pairing("b", "a"), Pairing("a", "d")), ("c",))
    )


def test_a_director_denying_an_absolute_colour_is_refused() -> None:
    """After White twice, a player must have Black: the proposal that swaps that game's
    colours is refused for the colour rule and as not the system's pairing."""
    people = [Player(s, f"p{s}", "") for s in range(1, 9)]
    t = Tournament.create(MULINO, Format.SWISS, people)
    for number in (1, 2):  # White wins everywhere: the winners all want Black in round 2
        t = t.pair_next_round()
        for board in range(4):
            t = t.record(number, board, Result.WHITE_WINS)
    expected = t.expected_round()
    twice_white = [
        p.id for p in people
        if all(p.id == g.white for r in t.rounds for g in r.pairings if p.id in g.players)
    ]  # fmt: skip
    assert twice_white, "someone had White twice"
    who = twice_white[0]
    swapped = tuple(Pairing(g.black, g.white) if who in g.players else g for g in expected.pairings)
    faults = check_round(t, Round(3, swapped, expected.byes))
    assert f"{who} cannot have White (colour rule)" in faults
    assert any(f.startswith("the system pairs round 3") for f in faults)
    assert check_round(t, expected) == []


def test_withdrawn_players_are_not_paired_and_late_ones_enter_with_nothing() -> None:
    t = five().pair_next_round().record(1, 0, Result.WHITE_WINS).record(1, 1, Result.DRAW)
    t = t.withdraw("a").add_player("f", "F")
    late = t.player("f")
    assert (late.joined, late.seed) == (2, 6)
    r2 = t.expected_round()
    assert "a" not in r2.paired() and "f" in r2.paired()
    proposed = Round(2, (*r2.pairings[:-1], Pairing("a", "f")), r2.byes)
    assert "a is paired but has withdrawn" in check_round(t, proposed)
    with_a = Round(2, r2.pairings, (*r2.byes, "a"))
    assert "a is paired but has withdrawn" in check_round(t, with_a)
    assert {s.player.id: s.half_points for s in t.standings()}["f"] == 0
    late_pair = Round(1, t.rounds[0].pairings, t.rounds[0].byes)
    assert "round 1 proposed, round 2 is next" in check_round(t, late_pair)


def test_a_round_is_not_paired_before_the_last_one_is_finished() -> None:
    t = five().pair_next_round()
    try:
        t.pair_next_round()
    except TournamentError as error:
        assert "without a result" in str(error)
    else:
        raise AssertionError("paired over an unfinished round")
    assert "round 1 is not finished" in check_round(t, Round(2, ()))


def test_pairing_thirty_two_players_is_fast() -> None:
    people = [Player(s, f"p{s:02}", "") for s in range(1, 33)]
    t = Tournament.create(MULINO, Format.SWISS, people)
    outcomes = (Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW)
    slowest = 0.0
    for number in range(1, t.planned_rounds + 1):
        start = time.perf_counter()
        t = t.pair_next_round()
        slowest = max(slowest, time.perf_counter() - start)
        for board in range(len(t.rounds[-1].pairings)):
            t = t.record(number, board, outcomes[(board * 7 + number) % 3])
    assert slowest < 0.1, f"{slowest:.3f} s"


def _brute_force_perfect(n: int, edges: set[frozenset[int]]) -> bool:
    def solve(left: tuple[int, ...]) -> bool:
        if not left:
            return True
        first = left[0]
        return any(
            frozenset((first, other)) in edges and solve(tuple(x for x in left[1:] if x != other))
            for other in left[1:]
        )

    return solve(tuple(range(n)))


def _graphs(n: int) -> st.SearchStrategy[tuple[int, set[tuple[int, int]]]]:
    pairs = list(combinations(range(n), 2)) or [(0, 0)]
    return st.tuples(st.just(n), st.sets(st.sampled_from(pairs)))


@settings(max_examples=examples(150), deadline=None)
@given(st.integers(0, 10).flatmap(_graphs))
def test_the_blossom_matching_agrees_with_brute_force(
    graph: tuple[int, set[tuple[int, int]]],
) -> None:
    n, pairs = graph
    edges = {frozenset(p) for p in pairs if p[0] != p[1]}
    adjacent = [[w for w in range(n) if frozenset((v, w)) in edges] for v in range(n)]
    mate = maximum_matching(adjacent)
    assert all(
        mate[mate[v]] == v and frozenset((v, mate[v])) in edges for v in range(n) if mate[v] >= 0
    )
    assert has_perfect_matching(adjacent) == _brute_force_perfect(n, edges)


def test_colours_are_set_aside_only_when_no_pairing_keeps_them() -> None:
    """Two players both due Black, who can meet nobody else: they are paired all the same
    (the colour rule gives way, the no-rematch rule never does)."""
    from game.tournament.model import Colour

    white = (Colour.WHITE, Colour.WHITE)
    paired = pair_round([Entrant("x", 1, 4, colours=white), Entrant("y", 2, 4, colours=white)])
    assert paired.colours_relaxed and len(paired.pairings) == 1


def test_a_whole_tournament_is_checked_round_by_round() -> None:
    t = five().pair_next_round().record(1, 0, Result.WHITE_WINS).record(1, 1, Result.DRAW)
    t = t.withdraw("b").add_player("f", "F").pair_next_round()
    for board in range(len(t.rounds[1].pairings)):
        t = t.record(2, board, Result.DRAW)
    assert check_tournament(t) == []
    first = t.rounds[1].pairings[0]
    forged = Round(2, (Pairing(first.black, first.white), *t.rounds[1].pairings[1:]),
                   t.rounds[1].byes, t.rounds[1].results)  # fmt: skip
    tampered = replace(t, rounds=(t.rounds[0], forged))
    assert check_tournament(tampered)[0].startswith("round 2: the system pairs round 2 as")
    unrecorded = replace(t, withdrawals=())
    assert check_tournament(unrecorded) == ["round 2: b is left out"]


@pytest.mark.parametrize("n", [32, 64])
@pytest.mark.parametrize(
    "result",
    [
        Result.WHITE_WINS,
        Result.BLACK_WINS,
        Result.DRAW,
        Result.WHITE_FORFEITS,
        Result.BLACK_FORFEITS,
    ],
)
def test_pathological_result_patterns_pair_with_little_work(
    n: int, result: Result, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every game 1-0 once made a bracket try 145,000 sets of floaters (75 s a round);
    the work is counted as maximum matchings computed, not timed."""
    import game.tournament.matching as matching
    import game.tournament.swiss as swiss

    calls = 0
    real = matching.maximum_matching

    def counted(adjacent: Sequence[Sequence[int]]) -> list[int]:
        nonlocal calls
        calls += 1
        return real(adjacent)

    monkeypatch.setattr(matching, "maximum_matching", counted)
    monkeypatch.setattr(swiss, "maximum_matching", counted)
    t = Tournament.create(
        variant("mulino", 2),
        Format.SWISS,
        [Player(s, f"p{s:02}", f"P{s}") for s in range(1, n + 1)],
    )
    while True:
        before = calls
        if t.over:
            break
        t = t.pair_next_round()
        assert calls - before <= 4 * n, f"round {len(t.rounds)}: {calls - before} matchings"
        number = len(t.rounds)
        for board in range(len(t.rounds[-1].pairings)):
            t = t.record(number, board, result)
    assert len(t.rounds) == t.planned_rounds
