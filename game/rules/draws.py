"""The draws the board games call at once (RULES.md §3a, §4a): the third occurrence of a
position with the same player to move, and a run of quiet plies — in Dama 80 without a
capture or a man's move, in Mulino 100 without a removal once every piece is placed.

A move that leaves the other side without a reply decides the game first: a draw is called
only on a position that can still be played.
"""

from __future__ import annotations

from typing import Protocol, TypeVar

from game.rules.core import TERMINAL, Reason, Result


class _Repeatable(Protocol):
    """A state that keeps the positions since the last irreversible move."""

    history: tuple[int, ...]
    _result: Result | None
    _legal: tuple[int, ...] | None

    @property
    def to_move(self) -> int: ...


S = TypeVar("S", bound=_Repeatable)


def with_draw_rules(state: S, quiet: int, quiet_limit: int) -> S:
    """``state``, just made with its position last in its history, drawn if the rules call a
    draw on it: a third occurrence, or ``quiet`` having reached ``quiet_limit``."""
    history = state.history
    if history.count(history[-1]) >= 3:
        reason = Reason.REPETITION
    elif quiet >= quiet_limit:
        reason = Reason.QUIET_PLIES
    else:
        return state
    if state.to_move != TERMINAL:
        state._result = Result.draw(2, reason)
        state._legal = ()
    return state
