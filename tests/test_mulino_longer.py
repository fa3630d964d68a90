"""Issue 32: *hard* Mulino against itself thinking four times as long.

Two runs of ``tools/bench.py ai longer --games 20 --scale 4``, their lost games replayed and
every decision of *hard*'s in the first 30 plies scored by a long plain search with the
endgame tables (the judge); a decision half a man or more below the judge's best is a
regression position: *hard* must now play one of the moves the judge scores within a fifth
of a man of its best.

- The sixth session's run (*hard* at 30,000 nodes; 5 · 9 · 6; ``SIXTH``), judged in the
  seventh by 300,000 nodes: eleven decisions.  *Hard* at 60,000 nodes, keeping a better
  move from its stopped iteration, fixed nine.
- The seventh session's run (*hard* at 60,000 nodes; 3 · 10 · 7; ``SEVENTH``), judged by
  1,000,000 nodes: fourteen decisions, none of which *hard* then played as the judge does.
  With null windows and late-move reductions (eighth session: the same nodes reach a ply or
  two further) it plays eleven of them and the earlier run's two open ones — and loses one
  of the nine it had (game 19, ply 5).  The four it misses are expected failures: if *hard*
  starts playing them right, the test says so and they join the others.
"""

from __future__ import annotations

import pytest

from game.ai.players import choose
from tests.mulino_lines import JUDGE, LONG, long_scores, position

SIXTH = {
    1: "d5 e4 d2 b4 d7 d6 d1 b6 d3 xd6 d6 f6 b2 xf6 f6 g4 f4",
    3: "g7 e5 d1 e4 e3 d5 g4 c5 xe3 e3 g1 d3 d2 c3 xd2 d2 a7 d7 d6",
    5: "c4 a1 f4 d1 g1 d2 d3 a4 a7",
    9: "c4 a4 f4 d6 g7 d5 d7 a7 a1 g1 d3 c5 e5 e3 d2 d1 b4 g4 f4-f2 d6-f6 b4-b2 xe3",
    10: "d5 d6 d2 f6 b6 b2 e5 c5 f4 e4 a1 c4 c3 a4 d3 b4 xd3 d3 g7 a1-d1 xd6 a4-a1 d3-e3 "
    "a1-a4 xf4 e3-d3",
    19: "b4 f4 d2 d7 b2 f2 b6 xf2 f2 f6 d6 d5 g4 e4 g1 g7 a1 d1 a4 b4-c4 d7-a7 xf6 c4-b4 xd6",
}
"""The run of the sixth session: each lost game's actions up to its last decision below,
the first two at random."""

SEVENTH = {
    1: "d5 e4 f4 d2 c4 c5 d7",
    4: "a7 c5 d1 d2 a1 g1 a4 xg1 g1 g7 d7 d6 e5",
    5: "c4 a1 b4 a4 a7 d6 e5 c5 e4 e3 g4 d3 f4 xe3 e3 g7 c3 xa7 g1 xa4 d7 e5-d5 d3-d2 g1-d1 "
    "d2-d3 xd1 f4-f2",
    7: "f4 c5 d2 e5 d5 c3 f2 c4 xf2 f2 f6 b2 xf6",
    9: "c4 a4 f4 d6 e4 g4 d2 b6 f6 f2 d3 d7 d1 xd7 d7 d5 a7 g7 a1 xg7 c4-b4 g4-g7",
    11: "e5 e3 c5 d5 b4 c3 d3 d6 d7 f4 d2 g4 d1 xf4 f4 e4",
    14: "a7 e3 a4 a1 d1 b4 d6 d5 d3 d2 g7 d7 e4 f4 b6 f6 f2 c3 g7-g4 d5-c5",
}
"""The run of the seventh session (*hard* at 60,000 nodes against 240,000), the same way."""

RUNS = {"30k": (SIXTH, LONG), "60k": (SEVENTH, JUDGE)}
"""Each run's lost games and the nodes of the search that judged them."""


def _still_open(why: str) -> pytest.MarkDecorator:
    return pytest.mark.xfail(strict=True, reason=f"still open (docs/PERFORMANCE.md): {why}")


DECISIONS = [
    # (run, game, ply, the move *hard* played and lost with, the moves the judge scores
    # within 20 hundredths of its best)
    pytest.param("30k", 1, 15, "g4", ("c3", "c5", "f4"), id="30k game 1, ply 15"),
    pytest.param("30k", 1, 17, "f2", ("e3", "e5", "g1", "g7"), id="30k game 1, ply 17"),
    pytest.param("30k", 3, 5, "d5", ("g4",), id="30k game 3, ply 5"),
    pytest.param("30k", 3, 19, "b2", ("f6",), id="30k game 3, ply 19"),
    pytest.param("30k", 5, 9, "f2", ("d5", "d6", "d7", "e4", "g4", "g7"), id="30k game 5, ply 9"),
    pytest.param("30k", 9, 13, "e3", ("e4",), id="30k game 9, ply 13"),
    pytest.param("30k", 9, 22, "g4-f4", ("a4-b4",), id="30k game 9, ply 22"),
    pytest.param("30k", 10, 25, "e3-d3", ("d5-d6",), id="30k game 10, ply 25"),
    pytest.param("30k", 10, 26, "xb2", ("xe4",), id="30k game 10, ply 26"),
    pytest.param(
        "30k",
        19,
        5,
        "f2",
        ("b6",),
        id="30k game 19, ply 5",
        marks=_still_open("fixed by the kept iteration, lost again with the reductions"),
    ),
    pytest.param("30k", 19, 24, "f4-f6", ("a7-d7",), id="30k game 19, ply 24"),
    pytest.param("60k", 1, 5, "c5", ("b2", "b4", "d1", "e3", "f2"), id="60k game 1, ply 5"),
    pytest.param("60k", 1, 7, "d1", ("d6",), id="60k game 1, ply 7"),
    pytest.param("60k", 4, 11, "d6", ("d5",), id="60k game 4, ply 11"),
    pytest.param(
        "60k",
        4,
        13,
        "b4",
        ("d5",),
        id="60k game 4, ply 13",
        marks=_still_open("e4 now, 240,000 nodes play f4"),
    ),
    pytest.param("60k", 5, 7, "c5", ("c3", "d1", "d7", "e4", "g1"), id="60k game 5, ply 7"),
    pytest.param("60k", 5, 11, "d3", ("f4",), id="60k game 5, ply 11"),
    pytest.param("60k", 5, 27, "d3-d2", ("a1-d1",), id="60k game 5, ply 27"),
    pytest.param("60k", 7, 13, "e3", ("f6",), id="60k game 7, ply 13"),
    pytest.param("60k", 9, 7, "b6", ("a1", "a7", "d5", "d7", "g1", "g7"), id="60k game 9, ply 7"),
    pytest.param("60k", 9, 22, "xd5", ("xb4", "xf4", "xf6"), id="60k game 9, ply 22"),
    pytest.param("60k", 11, 11, "g4", ("b6", "f2", "f6"), id="60k game 11, ply 11"),
    pytest.param("60k", 11, 16, "f2", ("f6", "g1", "g7"), id="60k game 11, ply 16"),
    pytest.param(
        "60k",
        14,
        2,
        "a4",
        ("a1", "d1", "g1", "g4", "g7"),
        id="60k game 14, ply 2",
        marks=_still_open("the second placement: the judge scores a4 0.54 below a corner"),
    ),
    pytest.param(
        "60k",
        14,
        20,
        "g4-g1",
        ("e4-e5", "g4-g7"),
        id="60k game 14, ply 20",
        marks=_still_open("a slide of the moving phase, seen at 240,000 nodes"),
    ),
]


def _before(run: str, game: int, ply: int) -> str:
    return " ".join(RUNS[run][0][game].split()[:ply])


@pytest.mark.parametrize(("run", "game", "ply", "lost", "best"), DECISIONS)
def test_hard_now_plays_what_the_judge_plays(
    run: str, game: int, ply: int, lost: str, best: tuple[str, ...]
) -> None:
    state = position(_before(run, game, ply))
    played = state.action_to_str(choose(state, "hard", seed=game).action)
    assert played != lost
    assert played in best


JUDGED = [pytest.param(*p.values, id=p.id) for p in DECISIONS]
"""The decisions without their expected failures: the judge's verdict holds for all."""


@pytest.mark.slow
@pytest.mark.parametrize(("run", "game", "ply", "lost", "best"), JUDGED)
def test_the_judge_has_the_lost_move_half_a_man_below_these(
    run: str, game: int, ply: int, lost: str, best: tuple[str, ...]
) -> None:
    scores = long_scores(position(_before(run, game, ply)), nodes=RUNS[run][1])
    top = max(scores.values())
    assert sorted(a for a, v in scores.items() if v >= top - 20) == sorted(best)
    assert scores[lost] <= top - 50, scores
