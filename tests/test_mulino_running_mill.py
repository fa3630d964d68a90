"""Issue 32: running mills, and the two games *hard* lost to OpenSpiel's MCTS at 10,000
simulations (``tools/bench.py ai mcts --games 40 --simulations 10000``, games 26 and 20,
*hard* White, before the evaluation knew running mills).

Both were lost on pieces to a running mill (*Zwickmühle*): a Black man swinging between two
mills and taking a man at every swing — in game 26 between a7 (a1–a4–a7) and d7
(d5–d6–d7), in game 20 round c3–d3–e3.  *Hard* scored each as two ordinary mills and let
them form.  Long searches (``AlphaBeta`` with the endgame tables, 1,000,000 nodes, depth
9–10, the evaluation of this change) of White's decisions where the games went wrong:

* game 26, ply 15: d7 −0.32 pieces; c4, the game's move (closing c3–c4–c5 while Black's
  lines form), −2.82; every other move −2.96 or worse.
* game 20, ply 17: e3 −2.38 against c5, the game's, −3.04; ply 22: b4-a4 −5.26 against
  d7-g7, the game's, −6.12.

With the running mill counted *hard* plays d7, e3 and b4-a4 there at its own budget, and
replayed against the same MCTS with the same seeds it won both games (82 and 63 plies).
"""

from __future__ import annotations

import pytest

from game.ai.evaluators import MillEvaluator
from game.ai.players import choose
from game.ai.weights import WEIGHTS
from game.rules import variant
from game.rules.mulino import BLACK, WHITE, MulinoState
from tests.mulino_lines import long_scores, position

CLASSIC = variant("mulino:classic")
RUNNING = WEIGHTS["mulino"]["running_mill"]
WITHOUT = MillEvaluator({**WEIGHTS["mulino"], "running_mill": 0})
WITH = MillEvaluator()

GAME_26 = "d2 b2 b4 a4 c3 d6 d3 a7 e3 xa7 d1 e5 e4 c5 d5"
GAME_20 = "d2 a1 a4 g1 d1 d3 b4 c4 b2 f2 b6 xd3 d3 f6 d6 d7 c3 c5 e3 xf6 a4-a7 e3-e4"

DECISIONS = [
    # (the game's moves before White's decision, the move White played, hard's move now)
    pytest.param(GAME_26, "c4", "d7", id="game 26, ply 15"),
    pytest.param(" ".join(GAME_20.split()[:17]), "c5", "e3", id="game 20, ply 17"),
    pytest.param(GAME_20, "d7-g7", "b4-a4", id="game 20, ply 22"),
]


def running_bonus(state: MulinoState, player: int) -> int:
    """What the running-mill term adds to ``player``'s evaluation of ``state``."""
    return WITH.evaluate(state, player) - WITHOUT.evaluate(state, player)


def swing(white: str, hand: tuple[int, int] = (0, 0)) -> MulinoState:
    """Black's mill b6–d6–f6 and men on a4 and c4: b6 steps to b4 and closes a4–b4–c4, and
    back.  White's men as given."""
    return MulinoState.setup(CLASSIC, white, "b6 d6 f6 a4 c4", hand=hand, side=WHITE)


def test_a_running_mill_counts_for_its_side_and_against_the_other() -> None:
    state = swing("g1 g4 e3 d1")
    assert running_bonus(state, BLACK) == RUNNING
    assert running_bonus(state, WHITE) == -RUNNING


def test_an_enemy_man_beside_the_swing_point_stops_it() -> None:
    # White's b2 can step to b4 when b6 leaves it: an ordinary mill, no more.
    assert running_bonus(swing("g1 g4 e3 b2"), BLACK) == 0


def test_the_swing_point_taken_stops_it() -> None:
    assert running_bonus(swing("g1 g4 e3 b4"), BLACK) == 0


def test_an_enemy_that_can_still_place_or_flies_stops_it() -> None:
    assert running_bonus(swing("g1 g4 e3", hand=(1, 0)), BLACK) == 0  # places on b4
    assert running_bonus(swing("g1 g4 e3"), BLACK) == 0  # three men: flies to b4


def test_a_man_cannot_close_a_mill_it_leaves() -> None:
    # d6 stepping to d7 leaves d5-d6-d7 with two men: an open mill, not a swing.
    state = MulinoState.setup(CLASSIC, "g1 g4 e3 d1", "b6 d6 f6 d5", side=WHITE)
    assert running_bonus(state, BLACK) == 0


def test_the_other_half_of_the_swing_counts_too() -> None:
    # The man on b4 (a4-b4-c4 closed) can step back to b6 and close b6-d6-f6.
    state = MulinoState.setup(CLASSIC, "g1 g4 e3 d1", "b4 d6 f6 a4 c4", side=WHITE)
    assert running_bonus(state, BLACK) == RUNNING


def test_the_running_mill_of_game_26_is_seen() -> None:
    """After ply 24 of game 26 (a7-d7 closing d5-d6-d7) Black's d7 swings to a7 and back,
    no White man beside a7."""
    line = GAME_26 + " c4 xd5 d5 d7 a7 b4-b6 d1-a1 xd7 c4-b4 a7-d7 xc5"
    state = position(line)
    assert state.to_move == WHITE
    assert running_bonus(state, WHITE) == -RUNNING


@pytest.mark.parametrize(("line", "lost", "now"), DECISIONS)
def test_hard_no_longer_plays_the_move_that_let_the_running_mill_form(
    line: str, lost: str, now: str
) -> None:
    state = position(line)
    assert state.to_move == WHITE
    played = state.action_to_str(choose(state, "hard", seed=1).action)
    assert played != lost
    assert played == now


@pytest.mark.slow
@pytest.mark.parametrize(("line", "lost", "now"), DECISIONS)
def test_a_longer_search_prefers_hard_s_move_to_the_game_s(line: str, lost: str, now: str) -> None:
    """Ten times *hard*'s budget, with the endgame tables: *hard*'s move scores at least
    half a piece better than the move the game was lost with."""
    state = position(line)
    scores = long_scores(state)
    assert scores[now] >= scores[lost] + 50, scores
