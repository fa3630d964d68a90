"""Perfect play in small endgames: tables of every Mulino position after placing with
3 against 3, 4 against 3 and 3 against 4 pieces, and of every Dama and Mangia la dama position
with at most four pieces, solved by retrograde analysis (``python tools/build_endgames.py``)
and shipped lzma-compressed under ``assets/ai/``.

:func:`probe` answers the value of a position with the side to act's :class:`Verdict`, or
None when no table covers it.  The search asks it at every node (``AlphaBeta(endgames=...)``),
so *hard* converts a won endgame in the fewest plies and drags a lost one out, and the review
judges endgame moves by their true value.

What the tables leave out: the draw rules that depend on a position's history, which
:func:`probe` checks before it answers.

* The quiet-ply rules (RULES.md rev. 3: 100 plies without a removal in Mulino, 80 without a
  capture or a man move in Dama), judged when a turn ends.  Along the winner's fastest line
  every ply takes the distance one nearer the end, and the last ply decides the game before
  any draw is called (a capture or removal resets the count, a move that leaves no reply
  wins first); in Mulino, where a side with three pieces flies and cannot be blocked, a win
  over three pieces ends with a removal, and the mill closed just before it is not judged
  either.  So the result is certain when the quiet plies so far plus the distance less those
  one or two last plies stay under the limit (the longest distances are 35 plies in Mulino
  and 65 in Dama); when they do not, :func:`probe` answers None and leaves the position to
  the search, which sees the rule.
* The repetition rule (RULES.md rev. 3: it counts positions of the whole match).  The
  winner's fastest line never repeats a position of its own, but it may meet one the match
  has already seen twice, and the third occurrence is a draw.  The history since the last
  irreversible move holds every position that can come again; a position of it seen twice
  is a threat when the tables put it on the winner's side nearer the end than here (only
  such positions lie on the winner's fastest lines).  With a threat :func:`probe` answers
  None, and the search, whose states carry the history, plays the line out.

Tables hold nothing for Dama with huffing on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.ai.endgames import dama, mulino
from game.ai.endgames.codes import LOSS, WIN, Verdict
from game.rules import dama as dama_rules
from game.rules import mulino as mulino_rules
from game.rules.dama import DamaState
from game.rules.mulino import MulinoState

if TYPE_CHECKING:
    from game.rules import State

__all__ = ["LOSS", "WIN", "Verdict", "probe"]


def probe(state: State) -> Verdict | None:
    """The tables' verdict on ``state`` for the side to act, or None outside them (or where
    the match's history — its quiet plies, its repeated positions — could overturn it)."""
    if isinstance(state, MulinoState):
        verdict = mulino.probe(state)
    elif isinstance(state, DamaState):
        verdict = dama.probe(state)
    else:
        return None
    if verdict is None or not verdict.outcome:
        return verdict
    if not quiet_plies_allow(state, verdict) or repetition_threatens(state, verdict):
        return None
    return verdict


def quiet_plies_allow(state: DamaState | MulinoState, verdict: Verdict) -> bool:
    """Whether the quiet-ply rule, judged at the end of each turn (RULES.md rev. 3), leaves
    ``verdict`` — a win or a loss in ``verdict.plies`` — standing whatever the loser does."""
    if isinstance(state, MulinoState):
        limit = mulino_rules.QUIET_PLY_LIMIT
        # A removal due now resets the count at once: the plies after it start from 0.
        quiet = -1 if state.stage == mulino_rules.REMOVE else state.quiet
        loser = state.side if verdict.outcome == LOSS else 1 - state.side
        # A loser down to flying is never blocked: the win ends with a removal, and the mill
        # closed just before it is not the end of a turn.
        unjudged = 2 if state.men[loser].bit_count() == state.variant.spec.flies_with else 1
    else:
        limit, quiet, unjudged = dama_rules.QUIET_PLY_LIMIT, state.quiet, 1
    return quiet + verdict.plies - unjudged < limit


def repetition_threatens(state: DamaState | MulinoState, verdict: Verdict) -> bool:
    """Whether a position the match has seen twice could come again on the winner's fastest
    lines from ``state`` (its third occurrence would be a draw)."""
    if isinstance(state, MulinoState) and state.stage == mulino_rules.REMOVE:
        return False  # the removal is irreversible: no earlier position comes again
    history = state.history
    if len(set(history)) == len(history):
        return False  # the common case: nothing seen twice
    winner = state.side if verdict.outcome == WIN else 1 - state.side
    name = state.variant.name
    seen_twice = {key for key in history if history.count(key) >= 2}
    for key in seen_twice:
        if isinstance(state, MulinoState):
            side, found = mulino.probe_key(name, key)
        else:
            side, found = dama.probe_key(name, key)
        if found is None or not found.outcome:
            continue  # a draw (or untabled) there: the winner's fastest lines never go there
        if (found.outcome == WIN) == (side == winner) and found.plies < verdict.plies:
            return True
    return False
