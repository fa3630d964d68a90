"""A review of a finished match: each decision of each person judged by *hard*, with the
better move and, where the engine can tell, a reason; and the advantage along the match.

Each decision is scored with :func:`game.ai.analysis.analyse` (every legal action, exact
scores); its *loss* is the best score less the played one, in the game's units, and gives
its label — ``best`` (no loss), ``good``, ``inaccuracy``, ``mistake``, ``blunder``
(:data:`THRESHOLDS`).  Turning a forced win into less, or walking into a forced loss, is a
blunder whatever the units.  A mistake or a blunder gets the first reason that explains it
(:data:`REASONS`): an endgame result the tables give changed for the worse (``won_to_drawn``,
``won_to_lost``, ``drawn_to_lost``), the forced win missed (``misses_win``), the forced loss
met (``loses``), what the move lets the opponent do at once that the best one would not — a
capture (``allows_capture``), a mill (``allows_mill``) — or, where the loss comes later, the
pieces it loses against the best move over the lines the search expects (``loses_material``,
with the count and the reply that starts the line), or in Dama the kings it costs, a crowning
allowed or missed (``costs_kings``).

An only move is scored like any other, by what follows it (the next position's analysis, one
ply further), so the advantage does not drop to 0 at a forced capture.

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
from typing import TYPE_CHECKING, overload

import msgpack

from game.ai import sheet_chances
from game.ai.analysis import analyse
from game.ai.analysis import analysed as analysed_by
from game.ai.endgames import Verdict, probe
from game.ai.endgames.codes import verdict_of
from game.ai.evaluators import Board, board_evaluator
from game.ai.players import nodes_for
from game.ai.search import WIN, successor
from game.ai.track_player import judge, play_out
from game.ai.weights import WEIGHTS
from game.rules import MatchRecord, Outcome, State
from game.rules.ausgeblockt import AusgeblocktState
from game.rules.dama import DamaState
from game.rules.mulino import MulinoState
from game.rules.numeri import NumeriState

if TYPE_CHECKING:
    from game.ai.analysis import BoardSearched

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
REASONS = ("won_to_drawn", "won_to_lost", "drawn_to_lost", "misses_win", "loses",
           "allows_capture", "allows_mill", "loses_material", "costs_kings")  # fmt: skip
"""Every reason a review gives, most telling first (see the module's docstring)."""
LINE_PLIES = 12
"""How far :func:`_material_lost` follows the search's expected line."""


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
    pieces: int = 0
    """``loses_material``: how many pieces the move loses against the better one;
    ``costs_kings``: how many kings."""


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
    analysed: dict[int, dict[int, int]] = {}
    judged: dict[int, Judged] = {}
    only_moves = []
    players = record.variant.players
    for done, index in enumerate(decisions):
        if cancelled is not None and cancelled():
            return None
        state = states[index]
        if _nodes(state) is not None and len(state.legal_actions()) == 1:
            only_moves.append(index)  # scored below, from the position it leads to
        else:
            ranked, searched = analysed_by(state, _nodes(state))
            analysed[index] = {s.action: s.score for s in ranked}
            if state.to_move in people:
                played = record.actions[index]
                judged[index] = _judge(
                    state, played, analysed[index], index, game, players, searched
                )
        if progress is not None:
            progress(done + 1, len(decisions))
    for index in reversed(only_moves):
        analysed[index] = {record.actions[index]: _only_move_score(states, index, analysed)}
        if states[index].to_move in people:
            judged[index] = _judge(states[index], record.actions[index], analysed[index], index,
                                   game, players)  # fmt: skip
    best_scores = {index: max(scores.values()) for index, scores in analysed.items()}
    judged_in_order = tuple(judged[index] for index in sorted(judged))
    return Review(judged_in_order, tuple(_advantages(states, best_scores)))


def _only_move_score(states: list[State], index: int, analysed: dict[int, dict[int, int]]) -> int:
    """The score of the only move of ``states[index]``: the value of the position it leads
    to — the game's end, or its analysis (made here if the review has none) — one ply
    further, for the side that makes it."""
    state, after = states[index], states[index + 1]
    result = after.result()
    if result is not None:
        outcome = result.outcomes[state.to_move]
        return 0 if outcome is Outcome.DRAW else WIN - 1 if outcome is Outcome.WIN else 1 - WIN
    if index + 1 in analysed:
        value = max(analysed[index + 1].values())
    else:
        value = analyse(after, _nodes(after))[0].score
    if after.to_move != state.to_move:
        value = -value
    if abs(value) >= FORCED:  # a forced result one ply further away
        value -= 1 if value > 0 else -1
    return value


def _nodes(state: State) -> int | None:
    """A search game's budget per decision: half *hard*'s (full windows cost more)."""
    if isinstance(state, DamaState | MulinoState):
        return nodes_for(state, "hard") // 2
    return None


def _judge(
    state: State,
    played: int,
    scores: dict[int, int],
    ply: int,
    game: str,
    players: int,
    searched: BoardSearched | None = None,
) -> Judged:
    """One decision judged from its analysis (``searched``: the search that made it, whose
    table holds the lines expected after each move)."""
    best = max(scores, key=lambda a: (scores[a], a == played))
    loss = scores[best] - scores[played]
    reason, move, pieces = "", "", 0
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
    if label in ("mistake", "blunder"):
        changed = _endgame_changed(state, played)
        if changed:
            reason, move = changed, state.action_to_str(best)
    if label in ("mistake", "blunder") and not reason:
        reason, move = _punishing_reply(state, played, best)
    if label in ("mistake", "blunder") and not reason:
        reason, pieces, move = _material_lost(state, played, best, searched)
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
                  max(0, loss), label, reason, move, chances, pieces)  # fmt: skip


def _endgame_changed(state: State, played: int) -> str:
    """The endgame result ``played`` gives away by the tables (``won_to_drawn``,
    ``won_to_lost``, ``drawn_to_lost``), or "" where they do not tell both results."""
    before = probe(state)
    if before is None:
        return ""
    child, side = state.apply(played), state.to_move
    result = child.result()
    if result is not None:
        after: Verdict | None = verdict_of(result, side, 1)
    else:
        found = probe(child)
        after = (
            None if found is None else found.later() if child.to_move == side else found.flipped()
        )
    if after is None or after.outcome >= before.outcome:
        return ""
    names = {1: "won", 0: "drawn", -1: "lost"}
    return f"{names[before.outcome]}_to_{names[after.outcome]}"


def _material_lost(
    state: State, played: int, best: int, searched: BoardSearched | None
) -> tuple[str, int, str]:
    """What ``played`` loses against ``best`` over the lines the search that analysed
    ``state`` expects after each (:data:`LINE_PLIES` plies at most, with the captures or
    removal due at their end made): ``loses_material`` and how many pieces, or else, in Dama,
    ``costs_kings`` and how many kings (a crowning allowed or missed); with the opponent's
    reply that starts the line.  ("", 0, "") if neither or no search."""
    if searched is None:
        return "", 0, ""
    seat = state.to_move
    played_line, played_end = searched.expected_line(played, LINE_PLIES)
    _, best_end = searched.expected_line(best, LINE_PLIES)
    pieces, kings = _material(played_end, seat)
    best_pieces, best_kings = _material(best_end, seat)
    if not played_line:
        return "", 0, ""
    if best_pieces > pieces:
        return "loses_material", best_pieces - pieces, played_line[0]
    if best_pieces == pieces and best_kings > kings:
        return "costs_kings", best_kings - kings, played_line[0]
    return "", 0, ""


def _material(state: State, seat: int) -> tuple[int, int]:
    """``seat``'s pieces (on the board and in hand) less the opponent's, and its kings less
    the opponent's (Dama)."""
    if isinstance(state, MulinoState):
        own = state.men[seat].bit_count() + state.hand[seat]
        return own - state.men[1 - seat].bit_count() - state.hand[1 - seat], 0
    if isinstance(state, DamaState):
        own, other = (
            state.men[seat] | state.kings[seat],
            state.men[1 - seat] | state.kings[1 - seat],
        )
        kings = state.kings[seat].bit_count() - state.kings[1 - seat].bit_count()
        return own.bit_count() - other.bit_count(), kings
    return 0, 0


def _chances_lost(state: NumeriState, played: int, best: int, ply: int) -> int:
    """Per cent of winning chance ``played`` gives up against ``best``: both played out
    :data:`PLAYOUTS` times on the same dice (a tie for first counts its share)."""
    seat = state.to_move
    won = {played: 0.0, best: 0.0}
    for playout in range(PLAYOUTS):
        for action in won:
            scores = play_out(successor(state, action), random.Random(f"{ply}:{playout}"), None)
            top = max(scores)
            if scores[seat] == top:
                won[action] += 1 / scores.count(top)
    return round(100 * (won[best] - won[played]) / PLAYOUTS)


def _punishing_reply(state: State, played: int, best: int) -> tuple[str, str]:
    """What ``played`` lets the opponent do that ``best`` would not: a capture (the one
    taking most) in Dama, a mill in Mulino — as (reason, the reply) — or ("", "")."""
    if not isinstance(state, DamaState | MulinoState):
        return "", ""
    reason = "allows_mill" if isinstance(state, MulinoState) else "allows_capture"
    allowed = _allowed(state, played, best)
    if not allowed:
        return "", ""
    return reason, max(allowed, key=lambda text: (text.count("x"), text))


@overload
def _allowed(state: MulinoState, played: int, best: int) -> dict[str, int]: ...
@overload
def _allowed(state: DamaState, played: int, best: int) -> dict[str, int]: ...
def _allowed(state: Board, played: int, best: int) -> dict[str, int]:
    """The opponent's noisy replies — captures, mills — that ``played`` allows and ``best``
    would not, by their notation."""
    evaluator = board_evaluator(state)

    def punishing(after: Board) -> dict[str, int]:
        if after.is_terminal() or after.is_chance() or after.to_move == state.to_move:
            return {}
        return {after.action_to_str(a): a for a in after.legal_actions()
                if evaluator.noisy(after, a)}  # fmt: skip

    allowed = punishing(successor(state, played))
    for text in punishing(successor(state, best)):
        allowed.pop(text, None)
    return allowed


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


REVIEW_VERSION = 4
"""3: endgames judged by the tables, Ausgeblockt's winning chances; 4: only moves scored,
reasons for endgame results given away and material lost (``pieces``)."""


def review_to_bytes(found: Review, record: MatchRecord) -> bytes:
    """``found`` as kept beside its match: tied to ``record`` by the record's digest."""
    return msgpack.packb([
        REVIEW_VERSION, _record_digest(record),
        [[j.ply, j.seat, j.played, j.best, j.loss, j.label, j.reason, j.reason_move, j.chances,
          j.pieces] for j in found.decisions],
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
