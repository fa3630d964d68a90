"""Random positions of the tables' sizes, for the tests and the benchmark that check and
measure the tables (the game itself never needs them)."""

from __future__ import annotations

import random

from game.rules import variant
from game.rules.checkerboard import FAR_ROW
from game.rules.dama import DamaState
from game.rules.mulino import POINTS, MulinoState


def random_mulino(name: str, rng: random.Random, mover: int, other: int) -> MulinoState:
    """A position after placing, not over, the side to move holding ``mover`` pieces."""
    while True:
        points = [POINTS[p] for p in rng.sample(range(24), mover + other)]
        side = rng.randrange(2)
        mine, theirs = " ".join(points[:mover]), " ".join(points[mover:])
        white, black = (mine, theirs) if side == 0 else (theirs, mine)
        state = MulinoState.setup(variant(name), white, black, side=side)
        if state.result() is None:
            return state


def random_dama(name: str, rng: random.Random, signature: tuple[int, int, int, int]) -> DamaState:
    """A position not over with the side to move's men and kings and the other side's as
    ``signature`` counts them."""
    while True:
        side = rng.randrange(2)
        squares = rng.sample(range(32), sum(signature))
        sets = []
        for count in signature:
            sets.append(sum(1 << s for s in squares[:count]))
            squares = squares[count:]
        mover_men, mover_kings, other_men, other_kings = sets
        men = (mover_men, other_men) if side == 0 else (other_men, mover_men)
        kings = (mover_kings, other_kings) if side == 0 else (other_kings, mover_kings)
        if men[0] & FAR_ROW[0] or men[1] & FAR_ROW[1]:
            continue  # a man on its crowning row
        state = DamaState.from_pieces(variant(name), men, kings, side)
        if state.result() is None:
            return state
