"""A review of a finished match: each decision of each person judged by *hard*, with the
better move and, where the engine can tell, a reason; and the advantage along the match.

Each decision is scored with :func:`game.ai.analysis.analyse` (every legal action, exact
scores); its *loss* is the best score less the played one, in the game's units, and gives
its label — ``best`` (no loss), ``good``, ``inaccuracy``, ``mistake``, ``blunder``
(:data:`THRESHOLDS`).  Turning a forced win into less, or walking into a forced loss, is a
blunder whatever the units.  The reason is what the move lets the opponent do that the best
one would not — a capture (``allows_capture``), a mill (``allows_mill``) — or the forced
win missed (``misses_win``), the forced loss met (``loses``).

In the dice games, where the dice decide as much as the moves, a move other than the
judgement's best is labelled by the winning chance it gave up (:data:`CHANCE_THRESHOLDS`):
in Numeri both moves played out on the same dice, in Ausgeblockt by the model of
:mod:`game.ai.sheet_chances`; the review shows that change.

The advantage is the computer's view of the position before each action, for the first seat,
in the analysis's units — in Ausgeblockt the winning chance, from −1000 (lost) to 1000 (won)
— (chance events keep the value before them): what the graph draws.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from dataclasses import dataclass

import msgpack

from game.ai import sheet_chances
from game.ai.analysis import analyse
from game.ai.evaluators import board_evaluator
from game.ai.players import NODES
from game.ai.search import WIN
from game.ai.track_player import judge, play_out
from game.ai.weights import WEIGHTS
from game.rules import MatchRecord, State
from game.rules.ausgeblockt import AusgeblocktState
from game.rules.numeri import NumeriState

LABELS = ("best", "good", "inaccuracy", "mistake", "blunder")
THRESHOLDS = {"dama": (20, 50, 90), "mulino": (20, 50, 90), "numeri": (50, 150, 400),
              "ausgeblockt": (60, 150, 400)}  # fmt: skip
"""Largest loss of a good move, an inaccuracy, a mistake, by game: more is a blunder — in
Dama and Mulino most of a piece (100)."""
PLAYOUTS = 96
"""Playouts per move compared for Numeri's change of winning chances (on the same dice for
both moves: the difference is about ±4 points at one standard error)."""
CHANCE_THRESHOLDS = (4, 8, 15)
"""The dice games: the most winning chance (per cent) a good move, an inaccuracy, a mistake
give up."""
FORCED = WIN - 1000
"""Scores beyond this are forced results."""


@dataclass(frozen=True, slots=True)
class Judged:
    """One decision: ``ply`` (its index among the record's actions), the seat, the move
    played and the best one (notation), the loss, the label, and the reason — a kind
    (``allows_capture``, ``allows_mill``, ``misses_win``, ``loses``, or "") with the move
    it names."""

    ply: int
    seat: int
    played: str
    best: str
    loss: int
    label: str
    reason: str = ""
    reason_move: str = ""
    chances: int | None = None
    """The dice games: the winning chance (per cent) the move gave up against the better one
    (None where not worked out: the best move, the board games)."""


@dataclass(frozen=True, slots=True)
class Review:
    decisions: tuple[Judged, ...]
    advantage: tuple[int, ...]
    """For each state of the match (before each action, and the last), the first seat's
    advantage as the computer sees it."""

    def label_counts(self, seat: int) -> dict[str, int]:
        counts = dict.fromkeys(LABELS, 0)
        for judged in self.decisions:
            if judged.seat == seat:
                counts[judged.label] += 1
        return counts


def review(
    record: MatchRecord,
    people: set[int],
    progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> Review | None:
    """The review of ``record`` for the decisions of the seats in ``people``; ``progress``
    is told (done, of) after each decision looked at; None if ``cancelled`` says so."""
    states = list(record.states())
    game = record.variant.game
    # An agreed draw or a resignation (a negative action) is no move to judge.
    decisions = [
        i
        for i, s in enumerate(states[:-1])
        if s.to_move >= 0 and not s.is_terminal() and record.actions[i] >= 0
    ]
    judged: list[Judged] = []
    best_scores: dict[int, int] = {}
    for done, index in enumerate(decisions):
        if cancelled is not None and cancelled():
            return None
        state = states[index]
        scores = {s.action: s.score for s in analyse(state, _nodes(state))}
        best_scores[index] = max(scores.values())
        if state.to_move in people:
            played = record.actions[index]
            judged.append(_judge(state, played, scores, index, game, record.variant.players))
        if progress is not None:
            progress(done + 1, len(decisions))
    return Review(tuple(judged), tuple(_advantages(states, best_scores)))


def _nodes(state: State) -> int | None:
    """A search game's budget per decision: half *hard*'s (full windows cost more)."""
    family = state.variant.game
    if family in ("dama", "mulino") and state.variant.name != "dama:lupo":
        return NODES[family]["hard"] // 2
    return None


def _judge(
    state: State, played: int, scores: dict[int, int], ply: int, game: str, players: int
) -> Judged:
    best = max(scores, key=lambda a: (scores[a], a == played))
    loss = scores[best] - scores[played]
    reason, move = "", ""
    if loss <= 0:
        label = "best"
    elif scores[best] >= FORCED and scores[played] < FORCED:
        label, reason, move = "blunder", "misses_win", state.action_to_str(best)
    elif scores[played] <= -FORCED < scores[best]:
        label, reason = "blunder", "loses"
    else:
        good, inaccuracy, mistake = THRESHOLDS[game]
        label = ("good" if loss <= good else "inaccuracy" if loss <= inaccuracy
                 else "mistake" if loss <= mistake else "blunder")  # fmt: skip
    if label in ("mistake", "blunder") and not reason:
        reason, move = _punishing_reply(state, played, best)
    chances = None
    if isinstance(state, NumeriState | AusgeblocktState) and played != best:
        # The judgement names the better move; how much the move cost is the winning chance
        # it gave up — played out in Numeri, by the fitted model in Ausgeblockt — and that
        # labels it (a move found no worse is good).
        if isinstance(state, NumeriState):
            chances = max(0, _chances_lost(state, played, best, ply))
        else:
            chances = max(0, sheet_chances.chances_lost(state, played, best, loss / 100))
        good, inaccuracy, mistake = CHANCE_THRESHOLDS
        label = ("good" if chances <= good else "inaccuracy" if chances <= inaccuracy
                 else "mistake" if chances <= mistake else "blunder")  # fmt: skip
    return Judged(ply, state.to_move, state.action_to_str(played), state.action_to_str(best),
                  max(0, loss), label, reason, move, chances)  # fmt: skip


def _chances_lost(state: NumeriState, played: int, best: int, ply: int) -> int:
    """Per cent of winning chance ``played`` gives up against ``best``: both played out
    :data:`PLAYOUTS` times on the same dice (a tie for first counts its share)."""
    seat = state.to_move
    won = {played: 0.0, best: 0.0}
    for playout in range(PLAYOUTS):
        for action in won:
            scores = play_out(state.apply(action), random.Random(f"{ply}:{playout}"), None)
            top = max(scores)
            if scores[seat] == top:
                won[action] += 1 / scores.count(top)
    return round(100 * (won[best] - won[played]) / PLAYOUTS)


def _punishing_reply(state: State, played: int, best: int) -> tuple[str, str]:
    """What ``played`` lets the opponent do that ``best`` would not: a capture (the one
    taking most) in Dama, a mill in Mulino — as (reason, the reply) — or ("", "")."""
    family, name = state.variant.game, state.variant.name
    if family not in ("dama", "mulino") or name == "dama:lupo":
        return "", ""
    evaluator = board_evaluator(name)
    reason = "allows_mill" if family == "mulino" else "allows_capture"

    def punishing(after: State) -> dict[str, int]:
        if after.is_terminal() or after.is_chance() or after.to_move == state.to_move:
            return {}
        return {after.action_to_str(a): a for a in after.legal_actions()
                if evaluator.noisy(after, a)}  # fmt: skip

    allowed = punishing(state.apply(played))
    for text in punishing(state.apply(best)):
        allowed.pop(text, None)
    if not allowed:
        return "", ""
    return reason, max(allowed, key=lambda text: (text.count("x"), text))


def _advantages(states: list[State], best_scores: dict[int, int]) -> list[int]:
    """The first seat's advantage before each action and at the end."""
    values: list[int] = []
    for index, state in enumerate(states):
        result = state.result()
        if result is not None:
            values.append(WIN if result.winners() == (0,) else -WIN if result.winners() else 0)
        elif index not in best_scores:  # a chance event, a lot: the value before it
            values.append(values[-1] if values else 0)
        elif isinstance(state, NumeriState):
            values.append(round(100 * judge(state, 0, WEIGHTS["numeri"])))
        elif isinstance(state, AusgeblocktState):  # the winning chance, ±1000 for certain
            values.append(round(2000 * (sheet_chances.win_chance(state, 0, turn=False) - 0.5)))
        else:
            best = best_scores[index]
            values.append(best if state.to_move == 0 else -best)
    return values


REVIEW_VERSION = 3
"""3: endgames judged by the tables, Ausgeblockt's winning chances."""


def review_to_bytes(found: Review, record: MatchRecord) -> bytes:
    """``found`` as kept beside its match: tied to ``record`` by the record's digest."""
    return msgpack.packb([
        REVIEW_VERSION, _record_digest(record),
        [[j.ply, j.seat, j.played, j.best, j.loss, j.label, j.reason, j.reason_move, j.chances]
         for j in found.decisions],
        list(found.advantage),
    ])  # fmt: skip


def review_from_bytes(data: bytes, record: MatchRecord) -> Review | None:
    """The review kept for ``record``; None if it is for another record or unreadable."""
    try:
        version, digest, decisions, advantage = msgpack.unpackb(data)
        if version != REVIEW_VERSION or digest != _record_digest(record):
            return None
        judged = tuple(Judged(*fields) for fields in decisions)
        if any(j.label not in LABELS for j in judged) or len(advantage) != len(record.actions) + 1:
            return None
        return Review(judged, tuple(int(v) for v in advantage))
    except (ValueError, TypeError, msgpack.UnpackException):
        return None


def _record_digest(record: MatchRecord) -> str:
    return hashlib.blake2b(record.encode(), digest_size=16).hexdigest()
