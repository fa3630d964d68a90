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
JUDGE = 1_000_000
"""The judge of the losses to *hard*'s own four-times search (240,000 nodes)."""


def position(line: str) -> MulinoState:
    """The classic position after ``line``'s actions, from the empty board."""
    state = new_game("mulino:classic")
    assert isinstance(state, MulinoState)
    for text in line.split():
        state = successor(state, state.parse_action(text))
    return state


def long_scores(
    state: MulinoState, evaluator: MillEvaluator | None = None, nodes: int = LONG
) -> dict[str, int]:
    """Every move's exact score by a plain search of ``nodes`` with the endgame tables and
    *hard*'s few-moves extension (``evaluator``: *hard*'s own unless given) — no null
    windows, no reductions, so that the judge does not share *hard*'s shortcuts."""
    search = AlphaBeta(
        evaluator or board_evaluator(state), Budget(nodes), endgames=probe, few_moves=2
    )
    search.margin = 10**9  # every move's exact score, not only the best's
    return {state.action_to_str(a): v for a, v in search.best(state).scores.items()}
