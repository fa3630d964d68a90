"""Issue 32: room — the free points beside a side's men, which a blockade must fill.

*Hard* against itself with four times its nodes (``tools/bench.py ai longer --games 20
--scale 4``, before this term) scored 32.5 %: ten losses, six of them blocked, four of those
as White within 38 plies.  The evaluation counted mobility linearly — seven walled-in men and
two moves left were half a man down — and *hard* placed its men where the other side could
wall them in.  The evaluation now charges a side with fewer than :data:`ROOM` free points
beside its men (each point once, less the men the enemy still has in hand to fill them) the
square of the shortfall.

Positions from those lost games (*hard* White, seeded openings of two random placements):
where *hard* now plays otherwise, and a long search that does not count room at all (the
evaluation before this change, 300,000 nodes, the endgame tables) agrees with the change
(*hard* had 30,000 nodes then, 60,000 since the seventh session):

* game 2, ply 6: b6 −0.18 against b2 +0.10; ply 12: e5 −1.12 against f4 −0.42;
* game 12, ply 6: d7 −0.24 against b6 +0.06.
"""

from __future__ import annotations

import pytest

from game.ai.evaluators import ROOM, MillEvaluator
from game.ai.players import choose
from game.ai.weights import WEIGHTS
from game.rules import variant
from game.rules.mulino import BLACK, WHITE, MulinoState
from tests.mulino_lines import long_scores, position

CLASSIC = variant("mulino:classic")
CRAMPED = WEIGHTS["mulino"]["cramped"]
WITHOUT = MillEvaluator({**WEIGHTS["mulino"], "cramped": 0})
WITH = MillEvaluator()

GAME_2 = "d5 a4 b4 d7 a1 g4 b6 b2 f6 d6 g1 d1 e5 c5 e4 e3 f2 f4"
GAME_12 = "g4 f6 f4 e4 a7 d6 d7 b6 xa7 g7 a7 g1 xa7 a7 a1 d1 b4 d2 d3 e3"

DECISIONS = [
    # (the game's actions before White's decision, the move White played, hard's moves now:
    # d2 and f4 at ply 12 score alike in the long search, with room or without)
    pytest.param(" ".join(GAME_2.split()[:6]), "b6", ("b2",), id="game 2, ply 6"),
    pytest.param(" ".join(GAME_2.split()[:12]), "e5", ("f4", "d2"), id="game 2, ply 12"),
    pytest.param(" ".join(GAME_12.split()[:6]), "d7", ("b6",), id="game 12, ply 6"),
]


def charge(state: MulinoState, player: int) -> int:
    """What the room term takes from ``player``'s evaluation of ``state``."""
    return WITHOUT.evaluate(state, player) - WITH.evaluate(state, player)


def walled(white: str, black: str, hand: tuple[int, int] = (0, 0)) -> MulinoState:
    return MulinoState.setup(CLASSIC, white, black, hand=hand, side=WHITE)


def test_a_side_walled_in_pays_the_whole_charge_and_the_other_side_gains_it() -> None:
    # White's a1 d1 g1 d7 have no free point; Black's men have eight.
    state = walled("a1 d1 g1 d7", "a4 d2 g4 a7 g7 d6")
    assert charge(state, WHITE) == CRAMPED * ROOM**2
    assert charge(state, BLACK) == -CRAMPED * ROOM**2


def test_a_free_point_beside_two_men_is_room_for_one() -> None:
    # a1 and g1 both have d1 free, and nothing else: one point of room, three short.
    state = walled("a1 g1 d7 b6", "a4 g4 d2 a7 g7 d6 b4")
    assert charge(state, WHITE) == CRAMPED * 3**2


def test_each_man_the_enemy_still_holds_fills_a_point() -> None:
    # d1 and g7 free: two short; with one Black man in hand, three; with three, capped.
    white, black = "a1 g1 d7 b6", "a4 g4 d2 a7 d6 b4"
    assert charge(walled(white, "a4 g4 d2 d6 b4"), WHITE) == CRAMPED * 1**2  # a7 free too
    assert charge(walled(white, black), WHITE) == CRAMPED * 2**2
    assert charge(walled(white, black, hand=(0, 1)), WHITE) == CRAMPED * 3**2
    assert charge(walled(white, black, hand=(0, 3)), WHITE) == CRAMPED * ROOM**2


def test_sides_with_room_to_spare_pay_nothing() -> None:
    state = walled("b2 d2 f2 f4", "b6 d6 f6 b4")
    assert charge(state, WHITE) == charge(state, BLACK) == 0


def test_a_side_that_flies_is_never_walled_in() -> None:
    state = walled("a1 d1 g1", "a4 d2 g4 a7 g7 d6")
    assert charge(state, WHITE) == 0


@pytest.mark.parametrize(("line", "lost", "now"), DECISIONS)
def test_hard_no_longer_places_where_it_was_walled_in(
    line: str, lost: str, now: tuple[str, ...]
) -> None:
    state = position(line)
    assert state.to_move == WHITE
    played = state.action_to_str(choose(state, "hard", seed=1).action)
    assert played != lost
    assert played in now


@pytest.mark.slow
@pytest.mark.parametrize(("line", "lost", "now"), DECISIONS)
def test_a_longer_search_blind_to_room_still_prefers_hard_s_move(
    line: str, lost: str, now: tuple[str, ...]
) -> None:
    """Ten times the budget *hard* had then, with the tables, and the evaluation without
    room: the change is not the evaluation agreeing with itself."""
    state = position(line)
    scores = long_scores(state, WITHOUT)
    assert all(scores[move] >= scores[lost] + 25 for move in now), scores
