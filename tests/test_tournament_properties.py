"""Properties over random results, up to 32 players: the Swiss's guarantees (no pair
twice, colours, byes, everyone paired), the round robin's, sorted standings, and the same
pairing from the same tournament."""

from __future__ import annotations

from collections import Counter
from itertools import combinations, pairwise

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.rules import variant
from game.tournament import (
    Format,
    PairingImpossibleError,
    Player,
    Result,
    Tournament,
    check_round,
    check_tournament,
)

from .examples import examples

MULINO = variant("mulino", 2)
RESULTS = st.sampled_from(list(Result))
FAST = settings(
    max_examples=examples(25),
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)


def people(n: int) -> list[Player]:
    return [Player(s, f"p{s:02}", f"P{s}") for s in range(1, n + 1)]


def play(t: Tournament, data: st.DataObject) -> Tournament:
    number = len(t.rounds)
    board = 0
    while board < len(t.rounds[-1].pairings):  # a knockout's deciders come as they are due
        t = t.record(number, board, data.draw(RESULTS))
        board += 1
    return t


def colours(t: Tournament, player: str) -> list[str]:
    return [
        p.colour_of(player).value
        for r in t.rounds
        for p, result in r.games()
        if player in p.players and result.played
    ]


def check_swiss_guarantees(t: Tournament) -> None:
    met = Counter(frozenset(p.players) for r in t.rounds for p in r.pairings)
    assert max(met.values(), default=1) == 1, "a pair met twice"
    byes = Counter(b for r in t.rounds for b in r.byes)
    assert max(byes.values(), default=1) == 1, "a second bye"
    for r in t.rounds:
        assert len(r.byes) <= 1
        due = {p.id for p in t.active(r.number)}
        listed = [x for p in r.pairings for x in p.players] + list(r.byes)
        assert sorted(listed) == sorted(due), "not everyone due was paired once"
    for p in t.players:
        history = "".join(colours(t, p.id))
        assert "www" not in history and "bbb" not in history, history
        whites, blacks = history.count("w"), history.count("b")
        assert abs(whites - blacks) <= 2, history


@FAST
@given(st.integers(2, 32), st.data())
def test_swiss_guarantees_hold_over_random_results(n: int, data: st.DataObject) -> None:
    t = Tournament.create(MULINO, Format.SWISS, people(n))
    while not t.over:
        proposed = t.expected_round()
        assert check_round(t, proposed) == []
        t = t.pair_next_round()
        assert t.rounds[-1] == proposed, "the same tournament pairs the same round"
        t = play(t, data)
        check_swiss_guarantees(t)
    if len(t.rounds) < t.planned_rounds:  # a small field can run out of new opponents
        with pytest.raises(PairingImpossibleError):
            t.swiss_pairing()


@FAST
@given(st.integers(4, 24), st.data())
def test_swiss_with_withdrawals_and_late_joiners(n: int, data: st.DataObject) -> None:
    t = Tournament.create(MULINO, Format.SWISS, people(n))
    late = 0
    while not t.over:
        t = play(t.pair_next_round(), data)
        if t.over:
            break
        if data.draw(st.booleans()):
            active = [p.id for p in t.active(t.next_round)]
            t = t.withdraw(data.draw(st.sampled_from(active)))
        if data.draw(st.booleans()):
            late += 1
            t = t.add_player(f"late{late}", "Late")
    check_swiss_guarantees(t)
    assert check_tournament(t) == []
    for gone, start in t.withdrawals:
        assert all(gone not in r.paired() for r in t.rounds[start - 1 :])


@FAST
@given(st.integers(2, 16), st.booleans(), st.data())
def test_round_robin_pairs_every_pair_exactly_once(
    n: int, double: bool, data: st.DataObject
) -> None:
    format_ = Format.DOUBLE_ROUND_ROBIN if double else Format.ROUND_ROBIN
    t = Tournament.create(MULINO, format_, people(n))
    while not t.over:
        t = play(t.pair_next_round(), data)
    met = Counter(frozenset(p.players) for r in t.rounds for p in r.pairings)
    times = 2 if double else 1
    assert met == {frozenset(pair): times for pair in combinations([p.id for p in t.players], 2)}
    if double:  # the second cycle has each game's colours reversed
        played = Counter((p.white, p.black) for r in t.rounds for p in r.pairings)
        assert all(count == 1 for count in played.values())
    check_standings_sorted(t)
    assert check_tournament(t) == []


@FAST
@given(st.integers(2, 32), st.data())
def test_knockout_ends_with_one_winner(n: int, data: st.DataObject) -> None:
    t = Tournament.create(MULINO, Format.KNOCKOUT, people(n))
    while not t.over:
        t = play(t.pair_next_round(), data)
    assert len(t.rounds) == t.planned_rounds
    last = t.rounds[-1]
    assert len({x for p in last.pairings for x in p.players}) == 2
    assert check_tournament(t) == []
    winner = t.standings()[0]
    assert winner.rank == 1 and winner.tie_breaks[0] == t.planned_rounds
    check_standings_sorted(t)


def check_standings_sorted(t: Tournament) -> None:
    lines = t.standings()
    keys = []
    for line in lines:
        level = (line.points, *line.tie_breaks)
        if t.format is Format.KNOCKOUT:
            level = (*line.tie_breaks, line.points)
        keys.append((level, line.direct_encounter))
    assert keys == sorted(keys, reverse=True)
    assert [line.rank for line in lines] == sorted(line.rank for line in lines)
    for (before, k1), (after, k2) in pairwise(zip(lines, keys, strict=True)):
        assert (after.rank == before.rank) == (k1 == k2)
        if k1 == k2:
            assert before.player.seed < after.player.seed


@FAST
@given(st.integers(2, 32), st.data())
def test_swiss_standings_are_sorted_by_points_then_tie_breaks(n: int, data: st.DataObject) -> None:
    t = Tournament.create(MULINO, Format.SWISS, people(n))
    while not t.over:
        t = play(t.pair_next_round(), data)
    check_standings_sorted(t)
