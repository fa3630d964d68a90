"""One entry point for every computer player: :func:`choose`.

The same state, level and seed always give the same action: randomness comes from a
generator seeded with the seed and the state's digest, and searches are bounded by node
budgets rather than by the clock (a time cap exists for safety and is off unless asked for).
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, overload

from game.ai import sheet_player, track_player
from game.ai.endgames import probe as endgames_probe
from game.ai.evaluators import Board, LupoEvaluator, board_evaluator
from game.ai.lupo_table import lookup
from game.ai.search import AlphaBeta, Budget, CancelFlag, S
from game.ai.styles import BOARD, LUPO, SearchStyle
from game.levels import RUNGS, canonical, rung
from game.rules import RulesError
from game.rules.ausgeblockt import AusgeblocktState
from game.rules.checkerboard import squares_of
from game.rules.core import State
from game.rules.dama import DamaState
from game.rules.lupo import PLACE, LupoState
from game.rules.mulino import MulinoState
from game.rules.numeri import NumeriState

if TYPE_CHECKING:
    from collections.abc import Callable

    from game.ai.endgames import Verdict


NODES: dict[type[State], tuple[int, ...]] = {
    MulinoState: (100, 300, 800, 1_500, 3_000, 8_000, 16_000, 60_000),
    DamaState: (100, 200, 600, 1_200, 2_500, 6_000, 10_000, 16_000),
    LupoState: (50, 200, 600, 1_200, 2_000, 4_000, 8_000, 0),
    NumeriState: (0, 0, 0, 0, 0, 0, 10_000, 50_000),
    AusgeblocktState: (0,) * RUNGS,
}
"""Search nodes per decision, by the kind of game searched (its state's class) and the rung
of the ladder (:mod:`game.levels`): hard stays under a second on the project's machine.
*Hard* Mulino's 60,000 (30,000 until issue 32's seventh session): at half of it, eleven
decisions of the games it lost to a search four times as long were each half a man or
more below the best; at the whole, nine are not (tests/test_mulino_longer.py)."""


def nodes_for(state: State, level: str) -> int:
    """The search nodes ``level`` may spend on a decision in ``state``'s game."""
    at = rung(level) - 1
    return next(table[at] for kind, table in NODES.items() if isinstance(state, kind))


FEW_MOVES = 2
"""*Hard* Mulino searches a position a ply deeper where the side to move has at most this
many moves (a blockade's threat, like a check)."""

LATE_MOVES = 3
"""*Hard* Mulino searches a quiet move a ply shallower from a position's fourth move on
(:class:`AlphaBeta`'s ``reduce``), with null windows after the first: of sixteen decisions
of its losses to its own four-times search that a million-node search scores half a man or
more below the best, it then plays the best in thirteen (none before; issue 32)."""


@dataclass(frozen=True, slots=True)
class Decision:
    action: int
    level: str
    nodes: int = 0
    depth: int = 0
    score: int = 0
    seconds: float = 0.0


def choose(
    state: State,
    level: str,
    seed: int,
    *,
    cancel: CancelFlag | None = None,
    max_seconds: float | None = None,
    nodes: int | None = None,
    scale: float = 1.0,
    endgames: bool = True,
    scored: bool = False,
) -> Decision:
    """The action a computer player of ``level`` takes in ``state``; ``scale`` multiplies
    the level's search budget (the player's thinking-time setting).  *Hard* plays the
    endgame tables where they reach, unless ``endgames`` is off (to measure what they add).

    An only move is played at once, unsearched, with score 0 — unless ``scored`` asks for
    its true score (the engine protocol's ``go`` reports it), which the search then finds."""
    try:
        level = canonical(level)
    except ValueError as error:
        raise RulesError(str(error)) from None
    if state.to_move < 0:
        raise RulesError("nobody is to act: the game is over or a chance event is pending")
    began = time.monotonic()
    rng = random.Random(f"tavolo-ai:{seed}:{level}:{state.digest()}")
    allowed = nodes if nodes is not None else round((nodes_for(state, level) or 1_000_000) * scale)
    budget = Budget(
        allowed,
        None if max_seconds is None else began + max_seconds,
        cancel,
    )
    if isinstance(state, AusgeblocktState):
        decision = Decision(sheet_player.choose(state, level, rng), level)
    elif isinstance(state, NumeriState):
        action = track_player.choose(state, level, rng, budget)
        decision = Decision(action, level, budget.used)
    elif len(state.legal_actions()) == 1 and not scored:
        decision = Decision(state.legal_actions()[0], level)
    elif isinstance(state, LupoState):
        decision = _lupo(state, level, rng, budget)
    elif isinstance(state, MulinoState | DamaState):
        probe = endgames_probe if endgames and BOARD[rung(level) - 1].tables else None
        decision = _board(state, level, rng, budget, probe)
    else:
        raise RulesError(f"no computer player plays {state.variant.name}")
    return Decision(
        decision.action,
        level,
        decision.nodes,
        decision.depth,
        decision.score,
        time.monotonic() - began,
    )


@overload
def _board(
    state: MulinoState,
    level: str,
    rng: random.Random,
    budget: Budget,
    endgames: Callable[[State], Verdict | None] | None,
) -> Decision: ...
@overload
def _board(
    state: DamaState,
    level: str,
    rng: random.Random,
    budget: Budget,
    endgames: Callable[[State], Verdict | None] | None,
) -> Decision: ...
def _board(
    state: Board,
    level: str,
    rng: random.Random,
    budget: Budget,
    endgames: Callable[[State], Verdict | None] | None,
) -> Decision:
    """Mulino and Dama: the search with the game's evaluator (and the endgame tables, if
    given).  *Hard* Mulino searches a side left with one or two moves a ply deeper
    (:class:`AlphaBeta`'s ``few_moves``): blockades are how a Mulino game is lost with men
    to spare, and they close beyond a fixed depth (issue 32); and it keeps a better move
    found in the iteration its budget stops (``partial``) rather than throwing that
    iteration away; and it looks a ply further on the same nodes with null windows and
    late-move reductions (``narrow``, ``reduce``)."""
    style = BOARD[rung(level) - 1]
    mulino_hard = style.tables and isinstance(state, MulinoState)
    search = AlphaBeta(board_evaluator(state), budget, endgames=endgames,
                       few_moves=FEW_MOVES if mulino_hard else 0)  # fmt: skip
    search.partial = mulino_hard  # measured for Mulino (issue 32); Dama's hard not yet
    search.narrow = mulino_hard
    search.reduce = LATE_MOVES if mulino_hard else 0
    return _searched(state, level, rng, search, style)


def _searched(
    state: S, level: str, rng: random.Random, search: AlphaBeta[S], style: SearchStyle
) -> Decision:
    """The search's move, or for the weaker rungs a move chosen among those it scored near
    the best (:class:`SearchStyle`)."""
    search.max_depth = min(search.max_depth, style.max_depth)
    search.margin = style.margin or 4 * style.temperature
    found = search.best(state)
    action = found.action
    noisy = search.evaluator.noisy
    seen = {
        a: v
        for a, v in found.scores.items()
        if not (style.overlook and noisy(state, a) and rng.random() < style.overlook)
    } or found.scores
    if seen and (style.margin or style.temperature or action not in seen):
        action = _human_choice(seen, style, rng)
    return Decision(action, level, found.nodes, found.depth, found.score)


def _human_choice(scores: dict[int, int], style: SearchStyle, rng: random.Random) -> int:
    """At random among the moves within the margin of the best, or by a softmax over all."""
    best = max(scores.values())
    if style.temperature:
        ranked = sorted(scores)
        weights = [math.exp((scores[a] - best) / style.temperature) for a in ranked]
        return rng.choices(ranked, weights)[0]
    return rng.choice(sorted(a for a, v in scores.items() if v >= best - style.margin))


def _lupo(state: LupoState, level: str, rng: random.Random, budget: Budget) -> Decision:
    """Hard plays the solved table; the others search a few plies and err like people."""
    legal = state.legal_actions()
    style = LUPO[rung(level) - 1]
    if style.tables:
        return Decision(max(legal, key=lambda a: (_lupo_value(state, a), -a)), level)
    if state.stage == PLACE:  # placing: a casual player puts the wolf somewhere central
        central = [a for a in legal if 2 <= a // 4 <= 5]
        return Decision(rng.choice(central or legal), level)
    search = AlphaBeta(LupoEvaluator(), budget)
    return _searched(state, level, rng, search, style)


def _lupo_value(state: LupoState, action: int) -> tuple[int, int]:
    """How good ``action`` is by the table: winning soonest first, losing latest last."""
    after = state._successor(action)
    result = after.result()
    if result is not None:
        return (2, 0) if result.winners() == (state.to_move,) else (0, 0)
    sheep = tuple(squares_of(after.sheep))
    they_win, plies = lookup(sheep, after.wolf, after.sheep_turn)
    return (0, plies) if they_win else (1, -plies)
