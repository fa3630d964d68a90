"""What the search knows of each board game: position keys, evaluations, noisy actions.

Weights are in hundredths of a piece.  Their values come from ``WEIGHTS`` in
``game/ai/weights.py``, which ``tools/tune_weights.py`` adjusts by self-play.
"""

from __future__ import annotations

from typing import TypeVar, overload

from game.ai.weights import WEIGHTS
from game.rules.checkerboard import FAR_ROW, NEIGHBOURS, SQUARES, coords, squares_of
from game.rules.dama import DamaState
from game.rules.lupo import LupoState
from game.rules.mulino import (
    ADJACENT,
    FLIES_WITH,
    FULL,
    MILLS,
    MILLS_AT,
    MOVE_BASE,
    PASS,
    REMOVE,
    REMOVE_BASE,
    MulinoState,
    points_of,
)
from game.rules.variants import Rule

_ROW = tuple(coords(s)[1] for s in range(SQUARES))
_CENTRE = sum(1 << s for s in range(SQUARES) if 2 <= coords(s)[0] <= 5 and 2 <= _ROW[s] <= 5)
_BACK = (FAR_ROW[1], FAR_ROW[0])  # each side's own back row (the other's crowning row)


def _swings() -> dict[int, tuple[tuple[int, int, int], ...]]:
    """For each mill, every way one of its men can step out to close another mill: the
    point stepped to, the other two points of the mill it closes and the points beside the
    one stepped to (each a mask)."""
    swings = {}
    for mill in MILLS:
        found = []
        for point in points_of(mill):
            for to in points_of(ADJACENT[point] & ~mill):
                for other in MILLS_AT[to]:
                    if not other >> point & 1:
                        found.append((1 << to, other & ~(1 << to), ADJACENT[to]))
        swings[mill] = tuple(found)
    return swings


_SWINGS = _swings()

ROOM = 4
"""A side with fewer free points than this beside its men — less the men the enemy still
has in hand, each of which can fill one — is charged the square of the shortfall (capped
at ``ROOM``, the weight ``cramped``): a blockade needs an enemy man on every free point,
so the fewer there are the nearer it is, and the nearer the faster.  Self-play chose 4
among 3 to 8 (issue 32)."""


class MillEvaluator:
    """Material, closed and open mills, and mobility — from the first placement on.

    Mobility counts while placing too: a man placed where the other side can wall it in
    (a corner has two neighbours, a middle-ring midpoint four) is a man that cannot move
    when the men move, and the first player left without a move loses.  Counted only once
    the hands were empty, every placement looked alike to the evaluation and the search
    fell back on its order, the lowest point first: *hard* opened a1, g1, g7, a7 — the four
    outer corners — and against OpenSpiel's MCTS five of its nine men stood walled in by
    the end of the placing, a blockade no search could then escape (issue 32).

    A running mill (*Zwickmühle*) counts besides: a closed mill one of whose men can step
    to an empty point that closes another mill, where no enemy man stands beside that point
    to step in and the enemy can neither place nor fly there — the man swings to and fro
    and takes a man at every swing.  Against OpenSpiel's MCTS at 10,000 simulations *hard*
    lost both its lost games to one, built up over a dozen plies it scored as two ordinary
    mills (issue 32).

    A side short of room pays besides (:data:`ROOM`): the free points beside its men,
    each counted once, less the men the enemy still holds to place on them.  Mobility
    counted linearly, seven walled-in men with two moves left were half a man down, and
    *hard* lost 10 of 20 games to itself searching four times its nodes, six of them
    blocked; placing against room, a quarter of *hard*'s nodes outscored the whole budget
    of the evaluation before (issue 32).

    In ceylonese a mill closed while placing removes nothing, so the board ends the placing
    with 18 men on 24 points: there mobility weighs more (``ceylonese=True``, its own
    weights).
    """

    def __init__(
        self, weights: dict[str, int] | None = None, ceylonese: bool = False,
        flies_with: int = FLIES_WITH,
    ) -> None:  # fmt: skip
        w = weights or WEIGHTS["ceylonese" if ceylonese else "mulino"]
        self.flies_with = flies_with
        self.piece, self.mill, self.open = w["piece"], w["mill"], w["open_mill"]
        self.mobility, self.blocked = w["mobility"], w["blocked"]
        self.running, self.cramped = w["running_mill"], w["cramped"]

    def key(self, state: MulinoState) -> object:
        return state.men, state.hand, state.side, state.stage

    def evaluate(self, state: MulinoState, player: int) -> int:
        own, opp = state.men[player], state.men[1 - player]
        empty = FULL ^ own ^ opp
        score = self.piece * (
            own.bit_count() + state.hand[player] - opp.bit_count() - state.hand[1 - player]
        )
        for mill in MILLS:
            mine, theirs = own & mill, opp & mill
            if not theirs:
                if mine == mill:
                    score += self.mill
                    if self._runs(mill, own, opp, empty, state.hand[1 - player]):
                        score += self.running
                elif mine.bit_count() == 2:
                    score += self.open
            elif not mine:
                if theirs == mill:
                    score -= self.mill
                    if self._runs(mill, opp, own, empty, state.hand[player]):
                        score -= self.running
                elif theirs.bit_count() == 2:
                    score -= self.open
        score += self._mobility(own, empty, state.hand[player], state.hand[1 - player])
        score -= self._mobility(opp, empty, state.hand[1 - player], state.hand[player])
        return score

    def _runs(self, mill: int, men: int, enemy: int, empty: int, enemy_hand: int) -> bool:
        """True if one of ``mill``'s men (all ``men``'s) can step to an empty point that
        closes another mill of ``men``, no ``enemy`` man beside that point — and the enemy
        can neither place a man there nor fly to it."""
        if enemy_hand or enemy.bit_count() <= self.flies_with:
            return False
        return any(
            to & empty and men & rest == rest and not enemy & beside
            for to, rest, beside in _SWINGS[mill]
        )

    def _mobility(self, men: int, empty: int, hand: int, enemy_hand: int) -> int:
        """Each man's free neighbours, less a charge for each man with none and one for a
        side short of room (:data:`ROOM`: its free points less the men the enemy still has
        in hand to fill them); nothing for a side that flies (its hand empty and its men
        down to ``flies_with``) — a side still placing its first men does not fly, it is
        merely early."""
        if not hand and men.bit_count() <= self.flies_with:
            return 0  # flying: free to go anywhere
        score = 0
        room = 0
        for point in points_of(men):
            free = ADJACENT[point] & empty
            room |= free
            moves = free.bit_count()
            score += self.mobility * moves if moves else -self.blocked
        short = min(ROOM, ROOM + enemy_hand - room.bit_count())
        if short > 0:
            score -= self.cramped * short * short
        return score

    def noisy(self, state: MulinoState, action: int) -> bool:
        if action == PASS:  # declining a ceylonese extra action changes nothing on the board
            return False
        if action >= REMOVE_BASE:
            return True
        own = state.men[state.side]
        if action >= MOVE_BASE:
            a, to = divmod(action - MOVE_BASE, 24)
            own ^= 1 << a | 1 << to
        else:
            to, own = action, own | 1 << action
        first, second = MILLS_AT[to]
        return own & first == first or own & second == second

    def forcing(self, state: MulinoState) -> bool:
        return state.stage == REMOVE


class DamaEvaluator:
    def __init__(self, weights: dict[str, int] | None = None, losing: bool = False) -> None:
        w = weights or WEIGHTS["mangia" if losing else "dama"]
        self.man, self.king = w["man"], w["king"]
        self.advance, self.back, self.centre = w["advance"], w["back_row"], w["centre"]
        self.mobility = w["mobility"]

    def key(self, state: DamaState) -> object:
        return state.men, state.kings, state.side, state.huff

    def evaluate(self, state: DamaState, player: int) -> int:
        return self._side(state, player) - self._side(state, 1 - player)

    def _side(self, state: DamaState, side: int) -> int:
        men, kings = state.men[side], state.kings[side]
        score = self.man * men.bit_count() + self.king * kings.bit_count()
        rows = sum(_ROW[s] for s in squares_of(men))
        advance = rows if side == 0 else 7 * men.bit_count() - rows
        score += self.advance * advance
        score += self.back * (men & _BACK[side]).bit_count()
        score += self.centre * ((men | kings) & _CENTRE).bit_count()
        if side == state.side:
            score += self.mobility * len(state.legal_actions())
        return score

    def noisy(self, state: DamaState, action: int) -> bool:
        return action < SQUARES or bool(action & 1)

    def forcing(self, state: DamaState) -> bool:
        legal = state.legal_actions()
        return bool(legal) and not state.huffing and legal[0] >= SQUARES and bool(legal[0] & 1)


class LupoEvaluator:
    """For the searching levels below the solved table: the wolf wants to get low and free,
    the sheep want it high and hemmed in."""

    def key(self, state: LupoState) -> object:
        return state.sheep, state.wolf, state.sheep_turn

    def evaluate(self, state: LupoState, player: int) -> int:
        wolf_row = _ROW[state.wolf]
        lowest = min(_ROW[s] for s in squares_of(state.sheep))
        free = sum(1 for s in NEIGHBOURS[state.wolf] if not state.sheep >> s & 1)
        for_wolf = 40 * (7 - wolf_row) + 25 * free - 30 * max(0, wolf_row - lowest)
        return for_wolf if player == state.wolf_seat else -for_wolf

    def noisy(self, state: LupoState, action: int) -> bool:
        return False

    def forcing(self, state: LupoState) -> bool:
        return False


Board = TypeVar("Board", MulinoState, DamaState)
"""A position of a board game the search plays with :func:`board_evaluator` (Lupo e pecore,
which is solved, has its own evaluator for the weaker levels)."""


@overload
def board_evaluator(state: MulinoState) -> MillEvaluator: ...
@overload
def board_evaluator(state: DamaState) -> DamaEvaluator: ...
def board_evaluator(state: MulinoState | DamaState) -> MillEvaluator | DamaEvaluator:
    """The evaluator *hard* searches ``state``'s variant with."""
    variant = state.variant
    if isinstance(state, MulinoState):
        return MillEvaluator(
            ceylonese=variant.has(Rule.EXTRA_ACTION_FOR_A_MILL_PLACED),
            flies_with=variant.spec.flies_with,
        )
    return DamaEvaluator(losing=variant.has(Rule.MISERE))
