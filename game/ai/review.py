"""A review of a finished match: each decision of each person judged by *hard*, with the
better move and, where the engine can tell, a reason; and the advantage along the match.

Each decision is scored with :func:`game.ai.analysis.analyse` (every legal action, exact
scores); its *loss* is the best score less the played one, in the game's units, and gives
its label — ``best`` (no loss), ``good``, ``inaccuracy``, ``mistake``, ``blunder``
(:data:`THRESHOLDS`).  Turning a forced win into less, or walking into a forced loss, is a
blunder whatever the units.  The reason is the opponent's best answer when it captures or
closes a mill (``allows``), or the forced result missed or met.

The advantage is the computer's view of the position before each action, for the first seat,
in the analysis's units (chance events keep the value before them): what the graph draws.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from game.ai.analysis import analyse
from game.ai.evaluators import DamaEvaluator, MillEvaluator
from game.ai.search import WIN
from game.ai.sheet_player import connection
from game.ai.track_player import judge
from game.ai.weights import WEIGHTS
from game.rules import MatchRecord, State
from game.rules.ausgeblockt import AusgeblocktState
from game.rules.numeri import NumeriState

LABELS = ("best", "good", "inaccuracy", "mistake", "blunder")
THRESHOLDS = {"dama": (25, 75, 200), "mulino": (25, 75, 200), "numeri": (50, 150, 400),
              "ausgeblockt": (60, 150, 400)}  # fmt: skip
"""Largest loss of a good move, an inaccuracy, a mistake (more is a blunder), by game."""
FORCED = WIN - 1000
"""Scores beyond this are forced results."""
REPLY_NODES = 4_000
"""Nodes of the search for the opponent's best answer to a move that lost."""


@dataclass(frozen=True, slots=True)
class Judged:
    """One decision: ``ply`` (its index among the record's actions), the seat, the move
    played and the best one (notation), the loss, the label, and the reason — a kind
    (``allows``, ``misses_win``, ``loses``, or "") with the move it names."""

    ply: int
    seat: int
    played: str
    best: str
    loss: int
    label: str
    reason: str = ""
    reason_move: str = ""


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
    is told (done, of) after each; None if ``cancelled`` says so on the way."""
    states = list(record.states())
    game = record.variant.game
    decisions = [
        i for i, s in enumerate(states[:-1])
        if not s.is_chance() and s.to_move in people and record.actions[i] not in ("draw",)
        and not record.actions[i].startswith("resign")
    ]  # fmt: skip
    judged: list[Judged] = []
    for done, index in enumerate(decisions):
        if cancelled is not None and cancelled():
            return None
        judged.append(_judge(states[index], states[index].parse_action(record.actions[index]),
                             index, game))  # fmt: skip
        if progress is not None:
            progress(done + 1, len(decisions))
    return Review(tuple(judged), tuple(_advantages(states)))


def _judge(state: State, played: int, ply: int, game: str) -> Judged:
    scores = {s.action: s.score for s in analyse(state)}
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
        reply = _punishing_reply(state.apply(played), state.to_move)
        if reply:
            reason, move = "allows", reply
    return Judged(ply, state.to_move, state.action_to_str(played), state.action_to_str(best),
                  max(0, loss), label, reason, move)  # fmt: skip


def _punishing_reply(after: State, mover: int) -> str:
    """The opponent's best answer to ``after`` when it captures or closes a mill (with the
    removal that follows, as one line), else ""."""
    if after.is_terminal() or after.is_chance() or after.to_move == mover:
        return ""
    family = after.variant.game
    if family == "dama" and after.variant.name != "dama:lupo":
        evaluator = DamaEvaluator(losing=after.variant.name == "dama:mangia")
    elif family == "mulino":
        evaluator = MillEvaluator(ceylonese=after.variant.name == "mulino:ceylonese")
    else:
        return ""
    reply = analyse(after, REPLY_NODES)[0].action
    if not evaluator.noisy(after, reply):
        return ""
    text = after.action_to_str(reply)
    answered = after.apply(reply)
    if family == "mulino" and answered.to_move == after.to_move and not answered.is_terminal():
        text += " " + answered.action_to_str(analyse(answered, REPLY_NODES)[0].action)
    return text


def _advantages(states: list[State]) -> list[int]:
    """The first seat's advantage before each action and at the end."""
    values: list[int] = []
    for state in states:
        result = state.result()
        if result is not None:
            values.append(WIN if result.winners() == (0,) else -WIN if result.winners() else 0)
        elif state.is_chance() or state.to_move < 0:
            values.append(values[-1] if values else 0)
        else:
            values.append(_value_for_first_seat(state))
    return values


def _value_for_first_seat(state: State) -> int:
    if isinstance(state, NumeriState):
        return round(100 * judge(state, 0, WEIGHTS["numeri"]))
    if isinstance(state, AusgeblocktState):  # how many cells fewer the first seat needs
        mine = connection(state.starts(0), state.cells[0], state.cells[1])
        theirs = connection(state.starts(1), state.cells[1], state.cells[0])
        return 100 * (min(theirs, 20) - min(mine, 20))
    best = analyse(state)[0].score
    return best if state.to_move == 0 else -best
