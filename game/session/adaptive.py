"""The adaptive opponent: after each match against the computer, a person's rating at that
game moves by Elo's rule, and the computer's next level is one of the two rungs rated
either side of it, mixed so that the person's expected score comes out even.

Why a mix: a measured ladder is not even.  Mulino's level 1 is rated 1000 and *easy* 1921,
so a person rated 1460 scores 91 % against the one and 9 % against the other: no single
level is a fair match, but the two taken in turn are.  The mix is kept exact by error
diffusion (as in dithering): :attr:`Standing.lean` is the expected score handed out so far
beyond even, and each next level is the one of the two that brings it nearest nought.  On
an even ladder the same rule meets mostly the rung nearest the person.

The level moves at most one rung a match, so one lucky result does not jump the ladder,
and never against the result: after a win the computer does not get easier.
Below the weakest rung a person meets level 1, above the strongest *hard*: the ladder's
ends are as far as it reaches.

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
RUN_TRUSTED = 4
"""Surprising results one way in a row that the rating takes at the usual step; each one
more doubles the step (up to :data:`K_FIRST`), since a run that long says the rating is
wrong, not unlucky: a person who wins every match climbs the ladder in a few dozen."""
RUN_LONGEST = RUN_TRUSTED + 2
"""A run counts no further: by then the step is :data:`K_FIRST` whatever it was."""
SURPRISING = 0.25
"""How far a result must be from the expected score to count toward a run; a run of
expected results (a person far above *hard* winning again) says nothing, and counting it
would push their rating up by the doubled step and down by the usual one."""
LEAN_BOUND = 0.5
"""The most expected score the mix may owe either way: half a match.  At the ladder's ends,
where there is no second rung to mix with, the lean would otherwise grow without end."""


@dataclass(frozen=True, slots=True)
class Standing:
    """A person's place on one game's ladder."""

    rating: float
    """Their own rating at the game, on the ladder's scale."""
    matches: int
    """Matches against the computer counted in it."""
    level: str
    """The computer's level for their next match (as :data:`game.levels.LADDER` names it)."""
    lean: float = 0.0
    """The person's expected score over the levels chosen so far, less one half a match:
    above nought they have been given the easier rung more than evenness asks."""
    run: int = 0
    """How many matches in a row the person has done clearly better than their rating
    expected (above nought) or worse (below), at most :data:`RUN_LONGEST`."""

    @classmethod
    def starting(cls, variant: str, level: str) -> Standing:
        """A person's standing before their first match at ``variant``, against ``level``."""
        return cls(steering(variant, rung(level)), 0, LADDER[rung(level) - 1])

    def after(self, variant: str, level: str, score: float) -> Standing:
        """The standing after a match against the computer at ``level`` in which the person
        scored ``score`` (1 a win, ½ a draw or a shared win, 0 a loss)."""
        played = rung(level)
        # the mix counted the level it offered; the person may have played another
        owed = self.lean + _surplus(variant, self.rating, played)
        owed -= _surplus(variant, self.rating, rung(self.level))
        surprise = score - expected(self.rating, steering(variant, played))
        run = _continued(self.run, surprise)
        step = max(K_SETTLED, K_FIRST / (1 + self.matches / 10))
        step = min(K_FIRST, step * 2 ** max(0, abs(run) - RUN_TRUSTED))
        rating = self.rating + step * surprise
        wanted = min(_either_side(variant, rating),
                     key=lambda n: abs(owed + _surplus(variant, rating, n)))  # fmt: skip
        moved = played + max(-1, min(1, wanted - played))
        if score != 0.5:  # a win never brings an easier level, a loss never a harder one
            moved = max(moved, played) if score > 0.5 else min(moved, played)
        lean = owed + _surplus(variant, rating, moved)
        lean = max(-LEAN_BOUND, min(LEAN_BOUND, lean))
        return Standing(rating, self.matches + 1, LADDER[moved - 1], lean, run)


def _continued(run: int, surprise: float) -> int:
    """The run of surprising results one way after one more, ``surprise`` beyond what was
    expected; a result near what was expected ends it."""
    if abs(surprise) < SURPRISING:
        return 0
    if surprise > 0:
        return min(RUN_LONGEST, run + 1 if run > 0 else 1)
    return max(-RUN_LONGEST, run - 1 if run < 0 else -1)


def _either_side(variant: str, rating: float) -> tuple[int, ...]:
    """The rungs rated either side of ``rating``: the strongest rated at or below it and
    the next; only one at the ladder's ends."""
    below = [n for n in range(1, RUNGS + 1) if steering(variant, n) <= rating]
    if not below:
        return (1,)
    return (below[-1],) if below[-1] == RUNGS else (below[-1], below[-1] + 1)


def _surplus(variant: str, rating: float, rung_: int) -> float:
    """A person rated ``rating``'s expected score against ``rung_``, beyond even."""
    return expected(rating, steering(variant, rung_)) - 0.5
