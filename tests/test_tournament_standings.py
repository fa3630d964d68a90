"""Standings and tie-breaks computed by hand for small cross tables; the cross table; the
CSV; the package's purity."""

from __future__ import annotations

import ast
from fractions import Fraction
from pathlib import Path

from game.rules import variant
from game.tournament import Format, Player, Result, Tournament, cross_table_csv

R = Result


def round_robin_of_four(results: list[Result]) -> Tournament:
    """Berger 4: 1-4 2-3 / 4-3 1-2 / 2-4 3-1, the results in that order."""
    people = [Player(s, f"p{s}", f"P{s}") for s in range(1, 5)]
    t = Tournament.create(variant("dama", 2), Format.ROUND_ROBIN, people)
    for number in (1, 2, 3):
        t = t.pair_next_round()
        for board in range(2):
            t = t.record(number, board, results.pop(0))
    return t


def test_sonneborn_berger_and_the_direct_encounter_by_hand() -> None:
    """p1 beats p4, p2 beats p3; 4-3 drawn, 1-2 drawn; p4 beats p2; 3-1 drawn.
    Points: p1 2, p2 1½, p4 1½, p3 1.
    SB: p1 = 1½ (p4) + ½·1½ (p2) + ½·1 (p3) = 2¾; p2 = 1 (p3) + ½·2 (p1) = 2;
    p4 = ½·1 (p3) + 1½ (p2) = 2; p3 = ½·1½ (p4) + ½·2 (p1) = 1¾.
    p2 and p4 level on points and SB: p4 beat p2, so p4 is ahead."""
    t = round_robin_of_four([R.WHITE_WINS, R.WHITE_WINS, R.DRAW, R.DRAW, R.BLACK_WINS, R.DRAW])
    lines = t.standings()
    assert [
        (s.rank, s.player.id, s.points, s.tie_breaks[0], s.direct_encounter) for s in lines
    ] == [
        (1, "p1", Fraction(2), Fraction(11, 4), Fraction(0)),
        (2, "p4", Fraction(3, 2), Fraction(2), Fraction(1)),
        (3, "p2", Fraction(3, 2), Fraction(2), Fraction(0)),
        (4, "p3", Fraction(1), Fraction(7, 4), Fraction(0)),
    ]


def test_players_level_on_everything_share_a_rank() -> None:
    """p1, p2, p3 draw each other and beat p4: 2 points, SB 2, direct encounter 1 each."""
    t = round_robin_of_four([R.WHITE_WINS, R.DRAW, R.BLACK_WINS, R.DRAW, R.WHITE_WINS, R.DRAW])
    assert [(s.rank, s.player.id) for s in t.standings()] == [
        (1, "p1"), (1, "p2"), (1, "p3"), (4, "p4"),
    ]  # fmt: skip


def test_the_cross_table_and_its_csv() -> None:
    t = round_robin_of_four([R.WHITE_WINS, R.WHITE_WINS, R.DRAW, R.DRAW, R.BLACK_FORFEITS, R.DRAW])
    table = t.cross_table()
    assert [p.id for p in table.players] == ["p2", "p1", "p3", "p4"]  # 2½, 2, 1, ½
    assert table.cells == (
        ("×", "½", "1", "+"),
        ("½", "×", "½", "1"),
        ("0", "½", "×", "½"),
        ("-", "0", "½", "×"),
    )
    csv = cross_table_csv(t.players, t.rounds, t.format)
    assert csv.splitlines()[0] == "rank,name,1,2,3,4,points,Sonneborn–Berger,direct encounter"
    # p2's Sonneborn–Berger: 1 (p3) + ½·2 (p1) + ½ (p4, by forfeit) = 2½
    assert csv.splitlines()[1] == "1,P2,×,½,1,+,2.5,2.5,0"
    assert csv.endswith("\r\n")


def test_the_package_is_pure() -> None:
    """Only the standard library's pure modules and the rules engine: no pygame, network,
    clock, randomness or I/O, so every peer computes the same tournament."""
    allowed = {"__future__", "collections", "dataclasses", "enum", "fractions", "functools",
               "itertools", "math", "typing", "game"}  # fmt: skip
    package = Path(__file__).resolve().parent.parent / "game" / "tournament"
    for path in sorted(package.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                assert name.split(".")[0] in allowed, f"{path.name} imports {name}"
                if name.startswith("game."):
                    assert name.startswith(("game.rules", "game.tournament")), name
