"""Exact odds for the dice games.

**Numeri**: before a roll, the chance that it earns an extra roll (a chain of three of one's
own pawns with a pawn just moved, for the best move the face allows: six faces, counted
exactly); once the die shows, the moves that earn one.

**Ausgeblockt**: the chance of ending the turn with a mark the sheet can take,
and with a quad mark (which brings another turn), for each choice of dice to keep.

A throw *marks* when one of its marks (three of a number, two cows) names a symbol with a free
cell the player may mark — next to the chain's last cell in chain mode — and is a *quad* when
such a mark is a quad (four or five of a number, four or five cows).  With those as the
value of the last throw (1 or 0), the reroll programme of :mod:`game.ai.rerolls` gives each
choice's probability under the best play after it: exact sums over the multisets of the dice,
in floating point.  The odds depend on the board only through which symbols can still be
marked, so the tables are kept per set of those (at most 64 of them).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from game.ai.rerolls import Dice, expectations, keep_values, throws
from game.ai.search import successor
from game.rules.ausgeblockt import (
    ATTEMPTS,
    DECIDE,
    FULL,
    ROLL,
    AusgeblocktState,
    mark_options,
    neighbourhood,
)
from game.rules.numeri import CHOOSE, NumeriState
from game.rules.numeri import ROLL as NUMERI_ROLL


@dataclass(frozen=True, slots=True)
class Chances:
    """The chance of ending the turn with a mark, and with a quad mark."""

    mark: float
    quad: float


@dataclass(frozen=True, slots=True)
class TurnOdds:
    """The odds of the turn in a state where dice are to be rolled or kept.

    ``by_keep``: for each multiset that can be kept (all the dice: stopping), its chances.
    ``best``: the highest chance of a mark and of a quad any choice gives, with the choices
    that give them (``best_keep_for_mark``, ``best_keep_for_quad``; before the first roll,
    the empty multiset)."""

    by_keep: dict[Dice, Chances]
    best: Chances
    best_keep_for_mark: Dice
    best_keep_for_quad: Dice

    def of(self, kept: Dice) -> Chances:
        """The chances of keeping ``kept`` (in any order)."""
        return self.by_keep[tuple(sorted(kept))]


@dataclass(frozen=True, slots=True)
class RollOdds:
    """Numeri, before a roll: the chance it earns an extra roll, and for each face of the
    die the moves it would allow that earn one."""

    extra: float
    by_face: dict[int, tuple[int, ...]]


def extra_roll_moves(state: NumeriState) -> tuple[int, ...]:
    """The moves the die in ``state`` allows that earn an extra roll."""
    if state.stage != CHOOSE or state.is_terminal():
        return ()
    side = state.side
    earning = []
    for action in state.legal_actions():
        after = successor(state, action)
        if not after.is_terminal() and after.side == side:
            earning.append(action)
    return tuple(earning)


def roll_odds(state: NumeriState) -> RollOdds | None:
    """The odds of the roll ``state`` waits for (None when it waits for no roll)."""
    if state.stage != NUMERI_ROLL or state.is_terminal() or not state.is_chance():
        return None
    by_face, chance = {}, Fraction(0)
    for face, probability in state.chance_outcomes():
        moves = extra_roll_moves(state._successor(face))  # an outcome the state lists
        by_face[face] = moves
        if moves:
            chance += probability
    return RollOdds(float(chance), by_face)


def markable_symbols(state: AusgeblocktState) -> frozenset[int]:
    """The symbols with a free cell the player to move may mark now."""
    free = FULL ^ state.cells[0] ^ state.cells[1]
    if state.chain >= 0:
        free &= neighbourhood(1 << state.chain)
    symbols = state.sheet.symbols
    return frozenset(symbols[cell] for cell in range(len(symbols)) if free >> cell & 1)


def turn_odds(state: AusgeblocktState) -> TurnOdds | None:
    """The odds for each choice, when the player is to roll (before the first roll of the
    turn) or to keep dice; None at any other moment."""
    symbols = markable_symbols(state)
    dice: Dice
    if state.stage == ROLL and state.attempts == 0 and not state.kept:
        dice, rolls_left = (), ATTEMPTS
    elif state.stage == DECIDE:
        dice, rolls_left = state.dice, ATTEMPTS - state.attempts
    else:
        return None
    marks = _keep_values(symbols, False, dice, rolls_left)
    quads = _keep_values(symbols, True, dice, rolls_left)
    by_keep = {kept: Chances(marks[kept], quads[kept]) for kept in marks}
    for_mark = max(marks, key=lambda k: (round(marks[k], 12), k == dice, k))
    for_quad = max(quads, key=lambda k: (round(quads[k], 12), k == dice, k))
    return TurnOdds(by_keep, Chances(marks[for_mark], quads[for_quad]), for_mark, for_quad)


def _keep_values(
    symbols: frozenset[int], quad: bool, dice: Dice, rolls_left: int
) -> dict[Dice, float]:
    value, tables = _tables(symbols, quad)
    if not dice:  # before the first roll: only "roll them all"
        return {(): tables[rolls_left - 1][()]}
    return keep_values(dice, rolls_left, value, tables)


@cache
def _tables(
    symbols: frozenset[int], quad: bool
) -> tuple[dict[Dice, float], list[dict[Dice, float]]]:
    """The last throw's value (1 if it marks, or marks a quad) and its expectations."""
    value = {dice: float(_succeeds(dice, symbols, quad)) for dice in throws()}
    return value, expectations(value, ATTEMPTS)


def _succeeds(dice: Dice, symbols: frozenset[int], quad: bool) -> bool:
    return any(
        symbol in symbols and (is_quad or not quad)
        for symbol, is_quad in mark_options(dice).items()
    )
