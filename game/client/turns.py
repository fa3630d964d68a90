"""Who acts in a position, and which actions make up the turn played last — the screen
keeps that turn visible (the match screen and replay alike)."""

from __future__ import annotations

from game.client.views.base import Step
from game.rules import State
from game.session.match import Match


def actor(state: State) -> int | None:
    """The seat whose decision or throw ``state`` waits for (None: a lot, or the end)."""
    return state.to_move if state.to_move >= 0 else state.roller


def step_at(match: Match, index: int) -> Step:
    """Action ``index`` of ``match`` with the states around it."""
    before = match.state_at(index)
    action = match.record.actions[index]
    return Step(before, action, match.state_at(index + 1))


def last_turn(match: Match, shown: int) -> tuple[Step, ...]:
    """Of the first ``shown`` actions, those of the seat that acted last, back to another
    seat's action or a lot: a Mulino move and its removal, a whole Ausgeblockt turn, a
    Numeri roll, move and extra rolls.  Resignations and agreed draws move nothing and are
    left out."""
    steps: list[Step] = []
    seat = None
    for index in range(shown - 1, -1, -1):
        step = step_at(match, index)
        who = actor(step.before)
        if who is None or (seat is not None and who != seat):
            break
        seat = who
        if step.action >= 0:
            steps.append(step)
    return tuple(reversed(steps))
