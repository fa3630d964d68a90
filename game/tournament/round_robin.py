"""Round robin by FIDE's Berger tables: every pair meets once (twice in a double round
robin, the second cycle with the colours reversed).

With an even number of players *n*, the table's number *n* sits still and the others turn
round it: in round *r* (from 1) number *n* meets ``a = ((r − 1)·n/2 mod (n − 1)) + 1``,
Black in odd rounds and White in even ones, and for *k* = 1 … n/2 − 1 the number *k* places
after ``a`` (counting round 1 … n − 1) has White against the one *k* places before it.
That is the published table (4 players: 1-4 2-3 / 4-3 1-2 / 2-4 3-1), where every player's
whites and blacks differ by at most one. With an odd number the table for *n* + 1 is used
and whoever meets the missing number *n* + 1 has the round's bye.

>>> berger_table(4)
[[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]
"""

from __future__ import annotations


def berger_table(players: int) -> list[list[tuple[int, int]]]:
    """Each round's games as (White, Black) numbers from 1, for an even count; for an odd
    one, the table of ``players + 1`` (a game with the missing number is a bye)."""
    if players < 2:
        raise ValueError("a round robin needs two players at least")
    n = players + players % 2
    rounds = []
    for r in range(1, n):
        anchor = (r - 1) * (n // 2) % (n - 1) + 1
        games = [(anchor, n) if r % 2 else (n, anchor)]
        for k in range(1, n // 2):
            white = (anchor - 1 + k) % (n - 1) + 1
            black = (anchor - 1 - k) % (n - 1) + 1
            games.append((white, black))
        rounds.append(games)
    return rounds


def schedule(players: int, double: bool = False) -> list[list[tuple[int, int]]]:
    """Every round of the tournament by number: the Berger table, and for a double round
    robin the table again with White and Black exchanged."""
    table = berger_table(players)
    if double:
        table += [[(black, white) for white, black in games] for games in table]
    return table


def rounds_needed(players: int, double: bool = False) -> int:
    return (players + players % 2 - 1) * (2 if double else 1)
