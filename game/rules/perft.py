"""Perft: the number of action sequences of a given length, the standard check of a move
generator.  Chance nodes branch over their outcomes like any other node."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from game.rules.core import State


def perft(state: State, depth: int) -> int:
    """How many distinct sequences of exactly ``depth`` actions (chance outcomes included)
    lead on from ``state``.  A line on which the game ends sooner adds nothing, as in chess."""
    if depth == 0:
        return 1
    if state.is_chance():
        actions = tuple(outcome for outcome, _ in state.chance_outcomes())
    else:
        actions = state.legal_actions()
    if depth == 1:
        return len(actions)
    successor = state._successor
    return sum(perft(successor(action), depth - 1) for action in actions)
