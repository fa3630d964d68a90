"""A game ended by the players rather than by the rules: a draw by agreement or a resignation."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from game.rules.core import TERMINAL, State

if TYPE_CHECKING:
    from game.rules.core import Result


class Concluded(State):
    """The position ``before`` the players ended the game, with how they ended it.

    ``before`` keeps the board for the client to draw; the state itself is terminal.
    """

    __slots__ = ("_result", "action", "before")

    def __init__(self, before: State, action: int, result: Result) -> None:
        self.variant = before.variant
        self._legal = ()
        self.before = before
        self.action = action
        self._result = result

    @property
    def to_move(self) -> int:
        return TERMINAL

    def result(self) -> Result:
        return self._result

    @property
    def last_position(self) -> State:
        return self.before

    def to_fields(self) -> list[Any]:
        return ["concluded", self.action, self.before.to_fields()]

    def _action_text(self, action: int) -> str:
        return self.before.action_to_str(action)

    def _describe(self) -> tuple[str, str]:
        diagram, _ = self.before._describe()
        return diagram, ""
