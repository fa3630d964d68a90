"""The adaptive opponent: after each match against the computer, a person's rating at that
game moves by Elo's rule, and the computer's next level is the rung rated nearest to it —
at most one rung from the last, so one lucky match does not jump the ladder.  Facing the
rung nearest their rating, a person scores about even.

The ratings of the rungs are the game's measured ladder (:mod:`game.levels.table`).  A
person new to a game starts at the rating of the level they first play; the step ``K``
starts large, so that the first matches find the person's strength quickly, and settles to
:data:`K_SETTLED`, so that one result moves the level less once the rating is known.

>>> first = Standing.starting("numeri", "medium")
>>> won = first.after("numeri", "medium", 1.0)
>>> won.matches, won.rating > first.rating, won.level in ("medium", "level-6")
(1, True, True)
"""

from __future__ import annotations

from dataclasses import dataclass

from game.levels import LADDER, RUNGS, rung
from game.levels.ratings import expected
from game.levels.table import steering

K_FIRST = 120.0
"""Elo's step for a person's first match at a game."""
K_SETTLED = 32.0
"""The step once the rating is settled (after about thirty matches)."""


@dataclass(frozen=True, slots=True)
class Standing:
    """A person's place on one game's ladder."""

    rating: float
    """Their own rating at the game, on the ladder's scale."""
    matches: int
    """Matches against the computer counted in it."""
    level: str
    """The computer's level for their next match (as :data:`game.levels.LADDER` names it)."""

    @classmethod
    def starting(cls, variant: str, level: str) -> Standing:
        """A person's standing before their first match at ``variant``, against ``level``."""
        return cls(steering(variant, rung(level)), 0, LADDER[rung(level) - 1])

    def after(self, variant: str, level: str, score: float) -> Standing:
        """The standing after a match against the computer at ``level`` in which the person
        scored ``score`` (1 a win, ½ a draw or a shared win, 0 a loss)."""
        played = rung(level)
        step = max(K_SETTLED, K_FIRST / (1 + self.matches / 10))
        rating = self.rating + step * (score - expected(self.rating, steering(variant, played)))
        nearest = min(range(1, RUNGS + 1), key=lambda n: abs(steering(variant, n) - rating))
        moved = played + max(-1, min(1, nearest - played))
        return Standing(rating, self.matches + 1, LADDER[moved - 1])
