"""Issue 32: *hard* Mulino against itself thinking four times as long.

``tools/bench.py ai longer --games 20 --scale 4`` (room code, *hard* at 30,000 nodes) scored
5 wins, 9 draws and 6 losses, all six lost to a blockade, five as Black.  Every decision
*hard* made in the first 30 plies of the six lost games was scored by a search of 300,000
nodes with the endgame tables: eleven fell half a man or more below the best.  *Hard* now
searches 60,000 nodes and keeps a better move found in the iteration its budget stops; nine
of the eleven it now plays as the long search does (within a fifth of a man of its best).
The two it does not — game 3 ply 19 (b2, 0.68 below f6) and game 10 ply 25 (d1-a1, 0.42
below d5-d6; the game's e3-d3 was 0.64 below) — are in docs/PERFORMANCE.md, still open.
"""

from __future__ import annotations

import pytest

from game.ai.players import choose
from tests.mulino_lines import long_scores, position

LINES = {
    1: "d5 e4 d2 b4 d7 d6 d1 b6 d3 xd6 d6 f6 b2 xf6 f6 g4 f4",
    3: "g7 e5 d1 e4 e3 d5 g4 c5 xe3 e3 g1 d3 d2 c3 xd2 d2 a7 d7 d6",
    5: "c4 a1 f4 d1 g1 d2 d3 a4 a7",
    9: "c4 a4 f4 d6 g7 d5 d7 a7 a1 g1 d3 c5 e5 e3 d2 d1 b4 g4 f4-f2 d6-f6 b4-b2 xe3",
    10: "d5 d6 d2 f6 b6 b2 e5 c5 f4 e4 a1 c4 c3 a4 d3 b4 xd3 d3 g7 a1-d1 xd6 a4-a1 d3-e3 "
    "a1-a4 xf4 e3-d3",
    19: "b4 f4 d2 d7 b2 f2 b6 xf2 f2 f6 d6 d5 g4 e4 g1 g7 a1 d1 a4 b4-c4 d7-a7 xf6 c4-b4 xd6",
}
"""Each lost game's actions up to its last decision below, the first two at random."""

DECISIONS = [
    # (game, ply, the move *hard* played and lost with, the moves the long search scores
    # within 20 hundredths of its best)
    pytest.param(1, 15, "g4", ("c3", "c5", "f4"), id="game 1, ply 15"),
    pytest.param(1, 17, "f2", ("e3", "e5", "g1", "g7"), id="game 1, ply 17"),
    pytest.param(3, 5, "d5", ("g4",), id="game 3, ply 5"),
    pytest.param(5, 9, "f2", ("d5", "d6", "d7", "e4", "g4", "g7"), id="game 5, ply 9"),
    pytest.param(9, 13, "e3", ("e4",), id="game 9, ply 13"),
    pytest.param(9, 22, "g4-f4", ("a4-b4",), id="game 9, ply 22"),
    pytest.param(10, 26, "xb2", ("xe4",), id="game 10, ply 26"),
    pytest.param(19, 5, "f2", ("b6",), id="game 19, ply 5"),
    pytest.param(19, 24, "f4-f6", ("a7-d7",), id="game 19, ply 24"),
]


def _before(game: int, ply: int) -> str:
    return " ".join(LINES[game].split()[:ply])


@pytest.mark.parametrize(("game", "ply", "lost", "best"), DECISIONS)
def test_hard_now_plays_what_the_long_search_plays(
    game: int, ply: int, lost: str, best: tuple[str, ...]
) -> None:
    state = position(_before(game, ply))
    played = state.action_to_str(choose(state, "hard", seed=game).action)
    assert played != lost
    assert played in best


@pytest.mark.slow
@pytest.mark.parametrize(("game", "ply", "lost", "best"), DECISIONS)
def test_the_long_search_has_the_lost_move_half_a_man_below_these(
    game: int, ply: int, lost: str, best: tuple[str, ...]
) -> None:
    scores = long_scores(position(_before(game, ply)))
    top = max(scores.values())
    assert sorted(a for a, v in scores.items() if v >= top - 20) == sorted(best)
    assert scores[lost] <= top - 50, scores
