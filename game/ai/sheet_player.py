"""Ausgeblockt: which dice to roll again, exactly; where to mark, by connection distance.

**Rolling** (*hard*). Every throw ``D`` of five dice has a value ``V(D)``: the best mark
it allows on the board as it stands (plus a bonus for a quad mark, which brings another
turn); the player keeps what maximises the expected value under best play after
(:mod:`game.ai.rerolls`, exact over the 462 kept sets and 252 throws).

**Marking.** A player's *connection distance* is how many more cells they need to join
their three starts: free cells cost 1, their own 0, the opponent's are walls; for three
starts it is the cheapest meeting cell x of the three shortest paths (a Steiner point).  A
cell is worth what marking it takes off one's own distance plus (at the higher levels) what
it adds to the opponent's — which is how the player also blocks.

The ladder's rungs (:mod:`game.levels`) differ by these decisions (:data:`STYLES`): how
they roll — keeping the commonest face as a beginner does, aiming at one symbol as a good
casual player does (*medium*), or exactly — whether they block, and how often they slip to
another of their three best cells.
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass
from typing import Literal

from game.ai.rerolls import Dice, plan_roll, throws
from game.levels import rung
from game.rules.ausgeblockt import (
    CELLS,
    FULL,
    MARK,
    PASS,
    REROLL_BASE,
    STOP,
    AusgeblocktState,
    dice_code,
    mark_options,
    neighbourhood,
)

BLOCKED = 99
WIN_VALUE = 50.0
QUAD_BONUS = 0.8
_NEAR = tuple(
    tuple(c for c in range(CELLS) if neighbourhood(1 << cell) >> c & 1 and c != cell)
    for cell in range(CELLS)
)


# -- connection distance ------------------------------------------------------------------


def _distances(start: int, own: int, walls: int) -> list[int]:
    """0-1 BFS: cost to reach each cell from ``start`` (own cells free, walls impassable)."""
    cost = [BLOCKED] * CELLS
    cost[start] = 0
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        here = cost[cell]
        for near in _NEAR[cell]:
            if walls >> near & 1:
                continue
            step = 0 if own >> near & 1 else 1
            if here + step < cost[near]:
                cost[near] = here + step
                if step:
                    queue.append(near)
                else:
                    queue.appendleft(near)
    return cost


def connection(starts: tuple[int, ...], own: int, walls: int) -> int:
    """Cells still needed to join the starts (``BLOCKED`` if they cannot be joined)."""
    maps = [_distances(s, own, walls) for s in starts]
    best = BLOCKED
    for x in range(CELLS):
        if walls >> x & 1:
            continue
        total = maps[0][x] + maps[1][x] + maps[2][x] - (0 if own >> x & 1 else 2)
        best = min(best, total)
    return min(best, BLOCKED)


def cell_values(state: AusgeblocktState, seat: int, blocking: bool) -> dict[int, float]:
    """What marking each free cell is worth to ``seat``."""
    me, other = state.cells[seat], state.cells[1 - seat]
    mine, theirs = state.starts(seat), state.starts(1 - seat)
    free = FULL ^ me ^ other
    now_me = connection(mine, me, other)
    now_them = connection(theirs, other, me) if blocking else 0
    values = {}
    for cell in range(CELLS):
        if not free >> cell & 1:
            continue
        after_me = connection(mine, me | 1 << cell, other)
        value = float(min(now_me, 20) - min(after_me, 20))
        if after_me == 0:
            value += WIN_VALUE
        if blocking and now_them < BLOCKED:
            after_them = connection(theirs, other, me | 1 << cell)
            value += 0.8 * (min(after_them, 20) - now_them)
            if after_them >= BLOCKED:
                value += 5.0
        values[cell] = value
    return values


# -- the dice -----------------------------------------------------------------------------


def throw_values(state: AusgeblocktState, values: dict[int, float]) -> dict[Dice, float]:
    """V(D) for every throw: the best mark it allows here, with the quad bonus."""
    allowed = FULL ^ state.cells[0] ^ state.cells[1]
    if state.chain >= 0:
        allowed &= neighbourhood(1 << state.chain)
    best_by_symbol: dict[int, float] = {}
    symbols = state.sheet.symbols
    for cell, value in values.items():
        if allowed >> cell & 1:
            symbol = symbols[cell]
            best_by_symbol[symbol] = max(best_by_symbol.get(symbol, -1e9), value)
    result: dict[Dice, float] = {}
    for dice in throws():
        best = 0.0
        for symbol, quad in mark_options(dice).items():
            if symbol in best_by_symbol:
                best = max(best, best_by_symbol[symbol] + (QUAD_BONUS if quad else 0.0))
        result[dice] = best
    return result


# -- the player ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SheetStyle:
    """One rung's decisions."""

    rolls: Literal["commonest", "aim", "exact"]
    """Keep the commonest face (and often stop once any mark is possible), aim at the
    symbol of the best cell within reach, or plan the rerolls exactly."""
    slip: float = 0.0
    """The chance of marking one of the three best cells at random instead of the best."""
    blocking: bool = False
    """Whether a cell is also worth what it costs the opponent."""


STYLES: tuple[SheetStyle, ...] = (
    SheetStyle("commonest", slip=0.8),
    SheetStyle("commonest", slip=0.4),  # easy
    SheetStyle("aim", slip=0.4),
    SheetStyle("aim", slip=0.15),
    SheetStyle("aim"),  # medium
    SheetStyle("aim", blocking=True),
    SheetStyle("exact"),
    SheetStyle("exact", blocking=True),  # hard
)
"""Ausgeblockt by rung, weakest first."""


def choose(state: AusgeblocktState, level: str, rng: random.Random) -> int:
    seat = state.to_move
    legal = state.legal_actions()
    style = STYLES[rung(level) - 1]
    if style.rolls == "commonest":
        return _casual(state, seat, legal, rng, style.slip)
    values = cell_values(state, seat, blocking=style.blocking)
    if state.stage == MARK:
        cells = [a for a in legal if a < CELLS]
        if not cells:
            return PASS
        ranked = sorted(cells, key=lambda c: (-values.get(c, 0.0), c))
        return rng.choice(ranked[:3]) if style.slip and rng.random() < style.slip else ranked[0]
    value = throw_values(state, values)
    if style.rolls == "exact":
        kept = plan_roll(state.dice, 3 - state.attempts, value)
    else:
        kept = _aim(state, values, value)
    if kept == state.dice:
        return STOP
    rolled = list(state.dice)
    for face in kept:
        rolled.remove(face)
    return REROLL_BASE + dice_code(tuple(rolled))


def _aim(state: AusgeblocktState, values: dict[int, float], value: dict[Dice, float]) -> Dice:
    """How a good casual player rolls: aim at the symbol of the best cell within reach, keep
    those dice, stop once the throw already marks nearly as well."""
    allowed = FULL ^ state.cells[0] ^ state.cells[1]
    if state.chain >= 0:
        allowed &= neighbourhood(1 << state.chain)
    best: dict[int, float] = {}
    for cell, worth in values.items():
        if allowed >> cell & 1:
            symbol = state.sheet.symbols[cell]
            best[symbol] = max(best.get(symbol, -1e9), worth)
    if not best:
        return state.dice
    target = max(best, key=lambda s: (best[s], s))
    if value[state.dice] >= 0.8 * best[target]:
        return state.dice
    return tuple(f for f in state.dice if f == target)


def _casual(
    state: AusgeblocktState, seat: int, legal: tuple[int, ...], rng: random.Random, slip: float
) -> int:
    """A casual player: keeps the commonest face, marks a cell that helps, not always the
    best one."""
    if state.stage == MARK:
        cells = [a for a in legal if a < CELLS]
        if not cells:
            return PASS
        values = cell_values(state, seat, blocking=False)
        ranked = sorted(cells, key=lambda c: -values.get(c, 0.0))
        return ranked[0] if rng.random() < 1 - slip else rng.choice(ranked[:3])
    if mark_options(state.dice) and rng.random() < 0.5:
        return STOP
    counts = {f: state.dice.count(f) for f in set(state.dice)}
    keep_face = max(counts, key=lambda f: (counts[f] + (0.6 if f == 6 else 0), f))
    rolled = tuple(f for f in state.dice if f != keep_face)
    return REROLL_BASE + dice_code(rolled) if rolled else STOP
