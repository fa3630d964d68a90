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
from typing import Generic, TypeAlias, overload

from game.ai import sheet_player
from game.ai.endgames import probe
from game.ai.evaluators import Board, board_evaluator
from game.ai.lupo_table import lookup
from game.ai.players import nodes_for
from game.ai.rerolls import keep_values
from game.ai.search import WIN, AlphaBeta, Budget, successor
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
from game.rules.dama import DamaState
from game.rules.lupo import LupoState
from game.rules.mulino import MulinoState
from game.rules.numeri import NumeriState

WIDE = 3
"""An analysis searches this many times *hard*'s nodes: every root move gets a full window."""


@dataclass(frozen=True, slots=True)
class Scored:
    action: int
    score: int


@dataclass(frozen=True, slots=True)
class Searched(Generic[Board]):
    """A position of Mulino or Dama and the search that analysed it: the search's
    transposition table holds the line it expects after each move."""

    state: Board
    search: AlphaBeta[Board]

    def expected_line(self, action: int, plies: int) -> tuple[list[str], Board]:
        """The line the search expects after ``action`` — its table's best actions, at most
        ``plies`` of them, and where the table has none but a capture or removal is due, the
        one taking most — in notation, with the position at its end."""
        state = successor(self.state, action)
        evaluator, table = self.search.evaluator, self.search.table
        line: list[str] = []
        for _ in range(plies):
            if state.is_terminal():
                break
            entry = table.get(evaluator.key(state))
            if entry is not None and entry[3] is not None:
                chosen = entry[3]
            elif evaluator.forcing(state):  # a capture or removal due: the one taking most
                chosen = max(state.legal_actions(),
                             key=lambda a: (state.action_to_str(a).count("x"), -a))  # fmt: skip
            else:
                break
            line.append(state.action_to_str(chosen))
            state = successor(state, chosen)
        return line, state


BoardSearched: TypeAlias = "Searched[MulinoState] | Searched[DamaState]"


def analyse(state: State, nodes: int | None = None) -> list[Scored]:
    """Every legal action of ``state`` with its score, best first (ties: lower action)."""
    return analysed(state, nodes)[0]


def analysed(state: State, nodes: int | None = None) -> tuple[list[Scored], BoardSearched | None]:
    """:func:`analyse`'s answer with the search that made it (None in the games scored
    without one): its transposition table holds the line it expects after each move, which
    the review reads rather than searching again."""
    searched: BoardSearched | None = None
    scores: dict[int, int]
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
    elif isinstance(state, MulinoState | DamaState):
        scores, searched = _searched(state, nodes)
    else:
        raise RulesError(f"no analysis of {state.variant.name}")
    ranked = sorted((Scored(a, s) for a, s in scores.items()), key=lambda x: (-x.score, x.action))
    return ranked, searched


@overload
def _searched(
    state: MulinoState, nodes: int | None
) -> tuple[dict[int, int], Searched[MulinoState]]: ...
@overload
def _searched(
    state: DamaState, nodes: int | None
) -> tuple[dict[int, int], Searched[DamaState]]: ...
def _searched(state: Board, nodes: int | None) -> tuple[dict[int, int], Searched[Board]]:
    budget = Budget(nodes if nodes is not None else WIDE * nodes_for(state, "hard"), None, None)
    search = AlphaBeta(board_evaluator(state), budget, endgames=probe)
    search.margin = 2 * WIN  # every root move's exact value, not a bound beneath the best
    found = search.best(state)
    if len(found.scores) < len(state.legal_actions()):
        legal = state.legal_actions()
        return {a: found.score if a == found.action else -WIN for a in legal}, Searched(
            state, search
        )
    return dict(found.scores), Searched(state, search)


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
