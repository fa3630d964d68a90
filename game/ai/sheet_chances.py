"""Ausgeblockt's winning chances, as the review shows them: a logistic model of how many
cells each side still needs and whose turn it is, fitted to games of *hard* against *hard*
(``python tools/fit_sheet_chances.py``; its figures are in docs/PERFORMANCE.md).

Playing the game out from each decision, as the review does for Numeri, would take minutes
per decision here (every turn of a playout solves the reroll plan); the model answers at
once, and a decision's cost is the difference between the chances after the better move and
after the one played.  A choice of dice to roll again changes no cell yet: its cost is the
expected worth it gives up (in cells, from the reroll plan) times what one cell is worth in
winning chance at that moment.
"""

from __future__ import annotations

import math

from game.ai.search import successor
from game.ai.sheet_player import BLOCKED, connection
from game.rules.ausgeblockt import DECIDE, MARK, AusgeblocktState

COEFFICIENTS = (0.2943, 2.5184, 0.3513)
"""Weights of the features of :func:`features`: the lead in cells, the lead as a share of
the cells both still need, and the turn (+1 for the seat's own, −1 for the other's).  The
sheet is point-symmetric, so there is no constant: level distances with the turn unknown are
an even game."""


def features(state: AusgeblocktState, seat: int, seat_to_move: bool) -> list[float] | None:
    """The model's inputs for ``seat``; None when the connection distances already decide
    (a side joined or blocked)."""
    mine = connection(state.starts(seat), state.cells[seat], state.cells[1 - seat])
    theirs = connection(state.starts(1 - seat), state.cells[1 - seat], state.cells[seat])
    if not 0 < mine < BLOCKED or not 0 < theirs < BLOCKED:
        return None
    return _features(mine, theirs, seat_to_move)


def _features(mine: int, theirs: int, seat_to_move: bool | None) -> list[float]:
    lead = theirs - mine
    turn = 0.0 if seat_to_move is None else 1.0 if seat_to_move else -1.0
    return [float(lead), lead / (mine + theirs), turn]


def _logistic(x: list[float]) -> float:
    return 1 / (1 + math.exp(-sum(w * v for w, v in zip(COEFFICIENTS, x, strict=True))))


def win_chance(state: AusgeblocktState, seat: int, turn: bool = True) -> float:
    """The chance that ``seat`` wins from ``state`` (a draw counts half); with ``turn`` off,
    whose turn it is left out — steady from turn to turn, as the review's graph wants it."""
    result = state.result()
    if result is not None:
        winners = result.winners()
        return 1.0 if winners == (seat,) else 0.5 if len(winners) > 1 else 0.0
    mine = connection(state.starts(seat), state.cells[seat], state.cells[1 - seat])
    theirs = connection(state.starts(1 - seat), state.cells[1 - seat], state.cells[seat])
    if mine >= BLOCKED or theirs >= BLOCKED:
        return 0.5 if mine >= BLOCKED and theirs >= BLOCKED else float(theirs >= BLOCKED)
    return _logistic(_features(mine, theirs, state.side == seat if turn else None))


def chances_lost(state: AusgeblocktState, played: int, best: int, worth_lost: float) -> int:
    """Per cent of winning chance ``played`` gives up against ``best`` for the seat deciding
    in ``state``; ``worth_lost`` is the analysis's difference of their worth, in cells."""
    seat = state.to_move
    if state.stage == MARK:
        after_best, after_played = successor(state, best), successor(state, played)
        return round(100 * (win_chance(after_best, seat) - win_chance(after_played, seat)))
    assert state.stage == DECIDE
    mine = connection(state.starts(seat), state.cells[seat], state.cells[1 - seat])
    theirs = connection(state.starts(1 - seat), state.cells[1 - seat], state.cells[seat])
    if not 1 < mine < BLOCKED or not 0 < theirs < BLOCKED:
        return 0  # a cell more or less changes nothing the model can tell
    one_cell = _logistic(_features(mine - 1, theirs, False)) - _logistic(
        _features(mine, theirs, False)
    )
    return round(100 * worth_lost * one_cell)
