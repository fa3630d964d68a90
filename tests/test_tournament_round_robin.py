"""Round robin by Berger tables: the published tables, every pair once, colours balanced,
one rest each for an odd count, the double round robin's reversed colours."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from game.rules import variant
from game.tournament import Format, Pairing, Player, Result, Round, Tournament, check_round
from game.tournament.round_robin import berger_table, schedule

# FIDE's Berger tables (Handbook C.05, Annex 1), White first.
BERGER_4 = [[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]
BERGER_6 = [
    [(1, 6), (2, 5), (3, 4)],
    [(6, 4), (5, 3), (1, 2)],
    [(2, 6), (3, 1), (4, 5)],
    [(6, 5), (1, 4), (2, 3)],
    [(3, 6), (4, 2), (5, 1)],
]


def players(n: int) -> list[Player]:
    return [Player(seed, f"p{seed}", f"Player {seed}") for seed in range(1, n + 1)]


def test_the_tables_are_the_published_ones() -> None:
    assert berger_table(4) == BERGER_4
    assert berger_table(6) == BERGER_6


def test_five_players_use_the_table_of_six_and_whoever_meets_six_rests() -> None:
    t = Tournament.create(variant("mulino", 2), Format.ROUND_ROBIN, players(5))
    seen = []
    while not t.over:
        t = t.pair_next_round()
        number = len(t.rounds)
        for board in range(len(t.rounds[-1].pairings)):
            t = t.record(number, board, Result.DRAW)
        seen.append(([str(p) for p in t.rounds[-1].pairings], t.rounds[-1].byes))
    assert seen == [
        (["p2-p5", "p3-p4"], ("p1",)),
        (["p5-p3", "p1-p2"], ("p4",)),
        (["p3-p1", "p4-p5"], ("p2",)),
        (["p1-p4", "p2-p3"], ("p5",)),
        (["p4-p2", "p5-p1"], ("p3",)),
    ]
    # a rest scores nothing in a round robin: four draws each, two points
    assert {s.points for s in t.standings()} == {2}


@pytest.mark.parametrize("n", range(2, 21))
def test_every_pair_meets_once_and_colours_are_balanced(n: int) -> None:
    rounds = berger_table(n)
    games = [g for r in rounds for g in r if max(g) <= n]
    assert Counter(frozenset(g) for g in games) == {
        frozenset(pair): 1 for pair in combinations(range(1, n + 1), 2)
    }
    for r in rounds:  # nobody twice in a round
        numbers = [x for g in r for x in g]
        assert len(numbers) == len(set(numbers))
    rests = Counter(x for r in rounds for g in r if max(g) > n for x in g if x <= n)
    if n % 2:
        assert rests == dict.fromkeys(range(1, n + 1), 1)
    else:
        whites = Counter(w for w, _ in games)
        blacks = Counter(b for _, b in games)
        assert all(abs(whites[p] - blacks[p]) <= 1 for p in range(1, n + 1))


def test_a_double_round_robin_plays_the_table_again_colours_reversed() -> None:
    both = schedule(4, double=True)
    assert both[:3] == BERGER_4
    assert both[3:] == [[(b, w) for w, b in r] for r in BERGER_4]
    t = Tournament.create(variant("dama", 2), Format.DOUBLE_ROUND_ROBIN, players(4))
    assert t.planned_rounds == 6


def test_a_withdrawn_player_is_not_paired_and_their_opponent_rests() -> None:
    t = Tournament.create(variant("mulino", 2), Format.ROUND_ROBIN, players(4)).pair_next_round()
    t = t.record(1, 0, Result.WHITE_WINS).record(1, 1, Result.DRAW).withdraw("p4")
    t = t.pair_next_round()
    assert t.rounds[1].pairings == (Pairing("p1", "p2"),)
    assert t.rounds[1].byes == ("p3",)


def test_a_round_off_the_table_is_refused() -> None:
    t = Tournament.create(variant("mulino", 2), Format.ROUND_ROBIN, players(4))
    swapped = Round(1, (Pairing("p4", "p1"), Pairing("p2", "p3")))
    assert check_round(t, swapped) == ["the system pairs round 1 as p1-p4 p2-p3"]
    assert check_round(t, t.expected_round()) == []


def test_late_players_join_a_round_robin_only_before_it_begins() -> None:
    t = Tournament.create(variant("mulino", 2), Format.ROUND_ROBIN, players(3))
    t = t.add_player("late", "Late")
    assert t.planned_rounds == 3
    with pytest.raises(ValueError, match="takes no player"):
        t.pair_next_round().add_player("later", "Later")
