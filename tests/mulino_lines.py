"""Mulino positions from a game's moves, and a long search's verdict on every move — the two
halves of a regression position (issue 32)."""

from __future__ import annotations

from game.ai.endgames import probe
from game.ai.evaluators import MillEvaluator, board_evaluator
from game.ai.search import AlphaBeta, Budget, successor
from game.rules import new_game
from game.rules.mulino import MulinoState

LONG = 300_000
"""Five times *hard*'s nodes."""


def position(line: str) -> MulinoState:
    """The classic position after ``line``'s actions, from the empty board."""
    state = new_game("mulino:classic")
    assert isinstance(state, MulinoState)
    for text in line.split():
        state = successor(state, state.parse_action(text))
    return state


def long_scores(state: MulinoState, evaluator: MillEvaluator | None = None) -> dict[str, int]:
    """Every move's exact score by a search of :data:`LONG` nodes with the endgame tables and
    *hard*'s few-moves extension (``evaluator``: *hard*'s own unless given)."""
    search = AlphaBeta(
        evaluator or board_evaluator(state), Budget(LONG), endgames=probe, few_moves=2
    )
    search.margin = 10**9  # every move's exact score, not only the best's
    return {state.action_to_str(a): v for a, v in search.best(state).scores.items()}
