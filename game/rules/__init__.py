"""The rules of Tavolo's games: pure, immutable, deterministic.

>>> from game.rules import new_game
>>> state = new_game("dama")
>>> state = state.apply(state.parse_action("22-18"))
>>> [state.action_to_str(a) for a in state.legal_actions()][:3]
['9-13', '9-14', '10-14']

A state says whose turn it is (``to_move``: a seat, :data:`CHANCE` or :data:`TERMINAL`),
lists the legal actions or, at a chance node, the outcomes with exact probabilities, and
returns a new state from ``apply``.  The engine never draws random numbers, reads a clock or
does I/O beyond reading its constant board data: dice come from outside.  ``encode`` and
``digest`` give the canonical bytes and fingerprint of a state; a :class:`MatchRecord`
replays a whole match.  ``docs/NOTATION.md`` documents every game's notation.
"""

from game.rules.codec import decode_action, decode_state, encode_action
from game.rules.core import (
    AGREED_DRAW,
    CHANCE,
    TERMINAL,
    DecodeError,
    IllegalActionError,
    Outcome,
    Result,
    RulesError,
    State,
    resign_action,
)
from game.rules.perft import perft
from game.rules.record import MatchRecord, ReplayError
from game.rules.registry import VARIANTS, every_setup, find_variant, new_game, start, variant
from game.rules.variants import Variant

__all__ = [
    "AGREED_DRAW",
    "CHANCE",
    "TERMINAL",
    "VARIANTS",
    "DecodeError",
    "IllegalActionError",
    "MatchRecord",
    "Outcome",
    "ReplayError",
    "Result",
    "RulesError",
    "State",
    "Variant",
    "decode_action",
    "decode_state",
    "encode_action",
    "every_setup",
    "find_variant",
    "new_game",
    "perft",
    "resign_action",
    "start",
    "variant",
]
