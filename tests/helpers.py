"""Small helpers shared by the rules tests."""

from __future__ import annotations

from game.rules import State


def play(state: State, moves: str) -> State:
    """``state`` after the space-separated actions of ``moves``, written in notation."""
    for text in moves.split():
        state = state.apply(state.parse_action(text))
    return state


def legal(state: State) -> list[str]:
    """The legal actions, or the chance outcomes, of ``state`` in notation."""
    if state.is_chance():
        return [state.action_to_str(a) for a, _ in state.chance_outcomes()]
    return [state.action_to_str(a) for a in state.legal_actions()]
