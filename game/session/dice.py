"""The local source of chance outcomes: reproducible from the match's seed.

Outcome number *n* of a match depends only on the seed and *n*, never on what happened
before: undoing a move and playing it again meets the same dice (no rerolling luck by undo),
and a resumed match goes on with the dice it would have had.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

from game.rules.chance import draw_outcome

if TYPE_CHECKING:
    from game.rules import State


@dataclass(frozen=True, slots=True)
class LocalDice:
    seed: int

    def outcome(self, state: State, index: int) -> int:
        """The outcome of ``state``'s chance event, the ``index``-th of the match."""
        rng = random.Random(f"tavolo-dice:{self.seed}:{index}")
        return draw_outcome(state.chance_outcomes(), rng)
