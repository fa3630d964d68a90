"""Iterative-deepening alpha-beta (negamax) for the two-player games without dice.

The search is bounded by a node budget, not a clock, so the same position, level and seed
give the same move on every machine — what lockstep LAN play needs.  A time cap (off by
default) and a cancel flag can stop it early; it then answers with the best move of the
last depth it finished.

An action that leaves the same player to act (a Mulino removal, a Dama huff) is part of
that player's move: the search neither flips sides nor spends depth on it.  At the horizon
a quiescence search follows the *noisy* actions — captures, removals, mills — so that no
exchange is cut in half.

With ``endgames`` (a probe such as :func:`game.ai.endgames.probe`) every position the
search reaches where the turn has passed is first looked up: a win or a loss the tables know
is exact, scored by the plies to the end like a finished game, not searched further, and
counted as one node of the budget.  A known draw is searched
as usual, so that among drawing moves the one that sets the opponent problems is chosen;
no losing move can outscore it.

With ``few_moves`` (Mulino's *hard*: 2) a position where the side to move has at most that
many moves is searched one ply deeper, like a check in chess: a player reduced to one or two
moves is one or two blocking moves from losing, and a blockade closes over many quiet moves
that a fixed depth cuts off half-way.  The extension stops at twice the iteration's depth,
so a long forced line cannot run away with the budget.

With ``narrow`` (Mulino's *hard*) the moves after a position's first are searched with a null
window — a search that only proves a move no better than the best so far, re-searched in
full when it is better — and with ``reduce`` a late quiet move (neither a mill, a removal,
the table's move nor a recent cut-off) is first searched a ply shallower.  The same nodes
then reach a ply or two further; the reduction is the one step that can overlook a move,
one that reads badly a ply short (``tests/test_search_narrow.py``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Generic, Protocol, Self, TypeVar

from game.rules.core import IllegalActionError

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from game.ai.endgames import Verdict
    from game.rules import Result

WIN = 100_000
INFINITY = 10 * WIN
EXACT, LOWER, UPPER = 0, 1, 2
QUIESCENCE_LIMIT = 8


class Stopped(Exception):  # noqa: N818 - a signal, not an error
    """The budget, the time cap or a cancel request ended the search."""


class CancelFlag(Protocol):
    """What the search asks a cancel request: a :class:`threading.Event`, or the worker's
    flag that watches a counter shared with the window."""

    def is_set(self) -> bool: ...


@dataclass
class Budget:
    nodes: int
    deadline: float | None = None
    cancel: CancelFlag | None = None
    used: int = 0

    def spend(self) -> None:
        self.used += 1
        if self.used >= self.nodes:
            raise Stopped
        if self.used & 511 == 0:
            if self.cancel is not None and self.cancel.is_set():
                raise Stopped
            if self.deadline is not None and time.monotonic() > self.deadline:
                raise Stopped


class Searchable(Protocol):
    """What the search asks of a position: a game state whose successors are states of the
    same game (a :class:`~game.rules.mulino.MulinoState` leads to one, and so on)."""

    @property
    def to_move(self) -> int: ...

    def legal_actions(self) -> tuple[int, ...]: ...

    def result(self) -> Result | None: ...

    def _successor(self, action: int) -> Self: ...


S = TypeVar("S", bound=Searchable)
"""The kind of position one search looks at."""
S_contra = TypeVar("S_contra", bound=Searchable, contravariant=True)


def successor(state: S, action: int) -> S:
    """``state.apply(action)`` for a move (no chance outcome, no conclusion), typed as the
    position of the same game it is."""
    if action not in state.legal_actions():
        raise IllegalActionError(action, "not a legal action here")
    return state._successor(action)


class Evaluator(Protocol[S_contra]):
    """What the search needs to know about a game whose positions are ``S_contra``."""

    def key(self, state: S_contra) -> object:
        """A hashable key of the position (for the transposition table)."""

    def evaluate(self, state: S_contra, player: int) -> int:
        """How good the position is for ``player``, in hundredths of a piece."""

    def noisy(self, state: S_contra, action: int) -> bool:
        """Whether the action must be followed past the horizon."""

    def forcing(self, state: S_contra) -> bool:
        """Whether the side to act may not stand pat (a capture or removal is due)."""


@dataclass
class Outcome:
    action: int
    score: int
    depth: int
    nodes: int
    scores: dict[int, int] = field(default_factory=dict)
    """Root actions with the scores of the last finished depth (for the weaker levels)."""


Entry = tuple[int, int, int, int | None]
"""A transposition table's entry: the depth searched, the value, whether it is exact or a
lower or upper bound, and the best action found (None when every action failed low)."""


class AlphaBeta(Generic[S]):
    def __init__(
        self,
        evaluator: Evaluator[S],
        budget: Budget,
        max_depth: int = 64,
        endgames: Callable[[S], Verdict | None] | None = None,
        few_moves: int = 0,
    ) -> None:
        self.evaluator = evaluator
        self.budget = budget
        self.max_depth = max_depth
        self.endgames = endgames
        self.few_moves = few_moves
        """A side to move with at most this many moves is searched a ply deeper (0: never)."""
        self._depth = 0
        """The depth of the iteration under way (extensions stop at twice it)."""
        self.margin = 0
        """Root moves within this of the best get exact scores (for the weaker levels)."""
        self.table: dict[object, Entry] = {}
        self.history: dict[int, int] = {}
        self.partial = False
        """Whether an iteration the budget stops may still change the move: the root
        searches the last iteration's best first, so once that one has its deeper score,
        any move scored above it is better at the deeper depth too."""
        self._scores: dict[int, int] = {}
        """The root's scores so far in the iteration under way."""
        self.narrow = False
        """Principal-variation search: after a node's first move, the others are searched
        with a null window (one only proving it is no better), re-searched only when it is."""
        self.reduce = 0
        """Late quiet moves searched a ply shallower from this many moves on (0: never)."""
        self.killers: dict[int, tuple[int, ...]] = {}
        """Per ply, the last two quiet moves that cut a search off."""

    def best(self, state: S) -> Outcome:
        """The best action and its score, with the root actions' scores.  An only move is
        searched like any other (its score is what follows it); a player that needs no
        score skips the search itself (:func:`game.ai.players.choose`)."""
        legal = state.legal_actions()
        done = Outcome(legal[0], 0, 0, 0)
        for depth in range(1, self.max_depth + 1):
            try:
                scores = self._root(state, depth)
            except Stopped:
                done = self._interrupted(done)
                break
            action = max(scores, key=lambda a: scores[a])
            done = Outcome(action, scores[action], depth, self.budget.used, scores)
            if abs(scores[action]) >= WIN - 1000:
                break  # a forced result is found: deeper adds nothing
        done.nodes = self.budget.used
        return done

    def _interrupted(self, done: Outcome) -> Outcome:
        """The outcome of a search whose next iteration the budget stopped: with
        ``partial``, its best move if that scored above the last finished iteration's best
        (rescored first); the root's scores stay the finished iteration's, since the
        stopped one's are a mixture of exact values and bounds.  Not with a margin, whose
        moves near the best need the scores of one depth."""
        scores = self._scores
        if not self.partial or self.margin or done.action not in scores:
            return done
        action = max(scores, key=lambda a: scores[a])
        if scores[action] <= scores[done.action]:
            return done
        return Outcome(action, scores[action], done.depth, self.budget.used, done.scores)

    def _root(self, state: S, depth: int) -> dict[int, int]:
        self._depth = depth
        player = state.to_move
        scores: dict[int, int] = {}
        self._scores = scores
        best = -INFINITY
        for action in self._ordered(state, self.table.get(self.evaluator.key(state)), 0):
            # The window's floor sits ``margin`` below the best so far, so that every move
            # within the margin gets its exact value; the others only a bound beneath it.
            floor = best - self.margin - 1 if best > -INFINITY else -INFINITY
            if self.narrow and not self.margin and best > -INFINITY:
                value = self._child(state, action, player, depth, best, best + 1, 1)
                if value > best:
                    scores[action] = value  # at least this: enough for ``partial``
                    value = self._child(state, action, player, depth, best, INFINITY, 1)
            else:
                value = self._child(state, action, player, depth, floor, INFINITY, 1)
            scores[action] = value
            best = max(best, value)
        best = max(scores, key=lambda a: scores[a])
        self.table[self.evaluator.key(state)] = (depth, scores[best], EXACT, best)
        return scores

    def _child(
        self, state: S, action: int, player: int, depth: int, alpha: int, beta: int, ply: int
    ) -> int:
        """The value for ``player`` of playing ``action`` in ``state``."""
        child = state._successor(action)
        result = child.result()
        if result is not None:
            return _terminal(result, player, ply)
        if child.to_move == player:  # a removal or a huff to come: the tables ask past it
            return self._negamax(child, depth, alpha, beta, ply)
        if self.endgames is not None:
            verdict = self.endgames(child)
            if verdict is not None and verdict.outcome:
                self.budget.spend()  # a position looked up is a node like one searched
                return -verdict.outcome * (WIN - ply - verdict.plies)
        few = self.few_moves  # 0: never, and no moves worked out here for it
        if few and ply < 2 * self._depth and len(child.legal_actions()) <= few:
            return -self._negamax(child, depth, -beta, -alpha, ply)  # cramped: one ply more
        return -self._negamax(child, depth - 1, -beta, -alpha, ply)

    def _negamax(self, state: S, depth: int, alpha: int, beta: int, ply: int) -> int:
        self.budget.spend()
        if depth <= 0:
            return self._quiesce(state, alpha, beta, ply, 0)
        key = self.evaluator.key(state)
        entry = self.table.get(key)
        if entry is not None and entry[0] >= depth:
            _, value, flag, _ = entry
            if (
                flag == EXACT
                or (flag == LOWER and value >= beta)
                or (flag == UPPER and value <= alpha)
            ):
                return value
        player = state.to_move
        original_alpha, best, best_action = alpha, -INFINITY, None
        noisy = self.evaluator.noisy
        for index, action in enumerate(self._ordered(state, entry, ply)):
            if not self.narrow or best_action is None:
                value = self._child(state, action, player, depth, alpha, beta, ply + 1)
            else:
                value = self._scout(state, action, player, depth, alpha, beta, ply, index)
            if value > best:
                best, best_action = value, action
            alpha = max(alpha, value)
            if alpha >= beta:
                self.history[action] = self.history.get(action, 0) + depth * depth
                if self.narrow and not noisy(state, action):
                    self._remember_killer(ply, action)
                break
        flag = UPPER if best <= original_alpha else LOWER if best >= beta else EXACT
        self.table[key] = (depth, best, flag, best_action)
        return best

    def _remember_killer(self, ply: int, action: int) -> None:
        """The last two quiet moves that cut off at ``ply`` (one move twice when it cut off
        both times: the measured scheme, issue 32)."""
        self.killers[ply] = (action, *self.killers.get(ply, ())[:1])

    def _scout(
        self,
        state: S,
        action: int,
        player: int,
        depth: int,
        alpha: int,
        beta: int,
        ply: int,
        index: int,
    ) -> int:
        """A move after the first, with a null window: shallower if it is a late quiet one,
        searched again in full only if it beats ``alpha``."""
        late = (
            self.reduce
            and index >= self.reduce
            and depth >= 3
            and not self.evaluator.noisy(state, action)
            and action not in self.killers.get(ply, ())
        )
        if late:
            value = self._child(state, action, player, depth - 1, alpha, alpha + 1, ply + 1)
            if value <= alpha:
                return value
        value = self._child(state, action, player, depth, alpha, alpha + 1, ply + 1)
        if alpha < value < beta:
            value = self._child(state, action, player, depth, alpha, beta, ply + 1)
        return value

    def _quiesce(self, state: S, alpha: int, beta: int, ply: int, level: int) -> int:
        player = state.to_move
        evaluator = self.evaluator
        forced = evaluator.forcing(state)
        actions: Sequence[int]
        if not forced:
            stand = evaluator.evaluate(state, player)
            if stand >= beta or level >= QUIESCENCE_LIMIT:
                return stand
            alpha = max(alpha, stand)
            actions = [a for a in state.legal_actions() if evaluator.noisy(state, a)]
            best = stand
        else:
            if level >= QUIESCENCE_LIMIT:
                return evaluator.evaluate(state, player)
            actions = state.legal_actions()
            best = -INFINITY
        for action in actions:
            self.budget.spend()
            child = state._successor(action)
            result = child.result()
            if result is not None:
                value = _terminal(result, player, ply + 1)
            elif child.to_move == player:
                value = self._quiesce(child, alpha, beta, ply + 1, level + 1)
            else:
                value = -self._quiesce(child, -beta, -alpha, ply + 1, level + 1)
            best = max(best, value)
            alpha = max(alpha, value)
            if alpha >= beta:
                break
        return best

    def _ordered(self, state: S, entry: Entry | None, ply: int) -> list[int]:
        legal = state.legal_actions()
        first = entry[3] if entry is not None else None
        evaluator, history = self.evaluator, self.history
        killers = self.killers.get(ply, ())

        def rank(action: int) -> tuple[int, int, int, int]:
            return (
                action != first,
                not evaluator.noisy(state, action),
                action not in killers,
                -history.get(action, 0),
            )

        return sorted(legal, key=rank)


def _terminal(result: Result, player: int, ply: int) -> int:
    """A finished game's value for ``player``: sooner wins and later losses are better."""
    outcome = result.outcomes[player].value
    if outcome == "win":
        return WIN - ply
    if outcome == "loss":
        return -WIN + ply
    return 0
