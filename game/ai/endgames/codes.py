"""The one byte a table stores per position: who wins from there, and in how many plies.

Plies count every action, a Mulino removal included, with the winner hurrying and the loser
delaying.  ``DRAW`` means that neither side can force a win: with best play the game goes on
until a draw rule ends it.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.rules.core import Outcome, Result

DRAW = 0
WIN_BASE = 1
LOSS_BASE = 128
ABSENT = 255
"""An index that names no position (two pieces on one square); never looked up."""
MAX_PLIES = 126

WIN, LOSS = 1, -1


@dataclass(frozen=True, slots=True, order=True)
class Verdict:
    """The value of a position for the side to act: ``outcome`` is ``WIN``, 0 (a draw) or
    ``LOSS``; ``plies`` how long the game lasts with best play (0 for a draw)."""

    outcome: int
    plies: int = 0

    @property
    def preference(self) -> tuple[int, int]:
        """Larger is better for the side to act: wins soonest, losses latest."""
        return (self.outcome, -self.plies if self.outcome == WIN else self.plies)

    def flipped(self, plies: int = 1) -> Verdict:
        """The verdict for the other side, ``plies`` earlier (a move that leads here)."""
        return Verdict(-self.outcome, self.plies + plies if self.outcome else 0)

    def later(self, plies: int = 1) -> Verdict:
        """The verdict for the same side, ``plies`` earlier (its own action leads here)."""
        return Verdict(self.outcome, self.plies + plies if self.outcome else 0)


def decode(code: int) -> Verdict:
    if code == DRAW:
        return Verdict(0)
    if code < LOSS_BASE:
        return Verdict(WIN, code - WIN_BASE)
    if code == ABSENT:
        raise ValueError("the table holds no position at this index")
    return Verdict(LOSS, code - LOSS_BASE)


def verdict_of(result: Result, side: int, plies: int) -> Verdict:
    """The verdict for ``side`` of a game that ended ``plies`` from now."""
    outcome = result.outcomes[side]
    if outcome is Outcome.DRAW:
        return Verdict(0)
    return Verdict(WIN if outcome is Outcome.WIN else LOSS, plies)
