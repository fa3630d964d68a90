"""Perfect play in small endgames: tables of every Mulino position after placing with
3 against 3, 4 against 3 and 3 against 4 pieces, and of every Dama and Mangia la dama position
with at most four pieces, solved by retrograde analysis (``python tools/build_endgames.py``)
and shipped lzma-compressed under ``assets/ai/``.

:func:`probe` answers the value of a position with the side to act's :class:`Verdict`, or
None when no table covers it.  The search asks it at every node (``AlphaBeta(endgames=...)``),
so *hard* converts a won endgame in the fewest plies and drags a lost one out, and the review
judges endgame moves by their true value.

What the tables leave out: the draw rules that depend on a position's history.  A win they
report is a win under the repetition rule too (the winner's fastest line never repeats a
position), but the quiet-ply rules (100 plies without a removal in Mulino, 80 without a
capture or a man move in Dama) can turn a long win into a draw when the counter has already
run.  The result is certain whenever the quiet plies so far plus the table's distance stay
under the limit (the longest distances are 35 plies in Mulino and 65 in Dama); when they do
not, :func:`probe` answers None and leaves the position to the search, which sees the rule.
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
    the quiet-ply rule could overturn it)."""
    if isinstance(state, MulinoState):
        verdict, limit = mulino.probe(state), mulino_rules.QUIET_PLY_LIMIT
    elif isinstance(state, DamaState):
        verdict, limit = dama.probe(state), dama_rules.QUIET_PLY_LIMIT
    else:
        return None
    if verdict is not None and verdict.outcome and state.quiet + verdict.plies >= limit:
        return None
    return verdict
