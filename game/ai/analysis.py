"""Every legal action of a position with its score as *hard* sees it — the engine's
``analyse`` (and what a review of a match stands on).

Scores are for the player to act, higher is better, in each game's own units:

* Dama and Mulino: hundredths of a piece from a search that scores every root move exactly
  (no move is cut off by the best one), ±100000 less the plies to a forced result;
* Lupo e pecore: the solved table, ±100000 less the plies to the end;
* Numeri: *hard*'s judgement of the position after the move, in hundredths of a point;
* Ausgeblockt: the expected worth of each choice of dice (:mod:`game.ai.rerolls`) or of
  each cell, in hundredths of a cell's worth (0 for passing).
"""

from __future__ import annotations

from dataclasses import dataclass

from game.ai import sheet_player
from game.ai.endgames import probe
from game.ai.evaluators import board_evaluator
from game.ai.lupo_table import lookup
from game.ai.players import nodes_for
from game.ai.rerolls import keep_values
from game.ai.search import WIN, AlphaBeta, Budget
from game.ai.track_player import judge
from game.ai.weights import WEIGHTS
from game.rules import RulesError, State
from game.rules.ausgeblockt import (
    ATTEMPTS,
    DECIDE,
    PASS,
    REROLL_BASE,
    STOP,
    AusgeblocktState,
    dice_code,
)
from game.rules.checkerboard import squares_of
from game.rules.lupo import LupoState
from game.rules.numeri import NumeriState

WIDE = 3
"""An analysis searches this many times *hard*'s nodes: every root move gets a full window."""


@dataclass(frozen=True, slots=True)
class Scored:
    action: int
    score: int


def analyse(state: State, nodes: int | None = None) -> list[Scored]:
    """Every legal action of ``state`` with its score, best first (ties: lower action)."""
    return analysed(state, nodes)[0]


def analysed(state: State, nodes: int | None = None) -> tuple[list[Scored], AlphaBeta | None]:
    """:func:`analyse`'s answer with the search that made it (None in the games scored
    without one): its transposition table holds the line it expects after each move, which
    the review reads rather than searching again."""
    search = None
    if state.is_terminal():
        raise RulesError(f"the game is over: {state.result()}")
    if state.is_chance():
        raise RulesError("a chance event is pending: give its outcome with the moves")
    if isinstance(state, AusgeblocktState):
        scores = _ausgeblockt(state)
    elif isinstance(state, NumeriState):
        seat = state.to_move
        scores = {
            a: round(100 * judge(state._successor(a), seat, WEIGHTS["numeri"]))
            for a in state.legal_actions()
        }
    elif isinstance(state, LupoState):
        scores = {a: _lupo(state, a) for a in state.legal_actions()}
    else:
        scores, search = _searched(state, nodes)
    ranked = sorted((Scored(a, s) for a, s in scores.items()), key=lambda x: (-x.score, x.action))
    return ranked, search


def _searched(state: State, nodes: int | None) -> tuple[dict[int, int], AlphaBeta]:
    budget = Budget(nodes if nodes is not None else WIDE * nodes_for(state, "hard"), None, None)
    search = AlphaBeta(board_evaluator(state.variant), budget, endgames=probe)
    search.margin = 2 * WIN  # every root move's exact value, not a bound beneath the best
    found = search.best(state)
    if found.scores is None or len(found.scores) < len(state.legal_actions()):
        legal = state.legal_actions()
        return {a: found.score if a == found.action else -WIN for a in legal}, search
    return dict(found.scores), search


def _lupo(state: LupoState, action: int) -> int:
    after = state._successor(action)
    result = after.result()
    if result is not None:
        return WIN - 1 if result.winners() == (state.to_move,) else -(WIN - 1)
    they_win, plies = lookup(tuple(squares_of(after.sheep)), after.wolf, after.sheep_turn)
    return -(WIN - plies - 1) if they_win else WIN - plies - 1


def _ausgeblockt(state: AusgeblocktState) -> dict[int, int]:
    seat = state.to_move
    values = sheet_player.cell_values(state, seat, blocking=True)
    if state.stage != DECIDE:  # marking: each cell's worth, passing nothing
        return {
            a: 0 if a == PASS else round(100 * values.get(a, 0.0)) for a in state.legal_actions()
        }
    worth = keep_values(
        state.dice, ATTEMPTS - state.attempts, sheet_player.throw_values(state, values)
    )
    scores = {}
    for kept, value in worth.items():
        if kept == state.dice:
            scores[STOP] = round(100 * value)
            continue
        rolled = list(state.dice)
        for face in kept:
            rolled.remove(face)
        scores[REROLL_BASE + dice_code(tuple(rolled))] = round(100 * value)
    return scores
