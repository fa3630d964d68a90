"""The rules of Tavolo's games: pure, immutable, deterministic.

>>> from game.rules import new_game
>>> state = new_game("dama")
>>> state = state.apply(state.parse_action("22-18"))
>>> [state.action_to_str(a) for a in state.legal_actions()][:3]
['9-14', '9-13', '10-15']

Legal actions come as a tuple: nobody can change what a state knows.

>>> state.legal_actions().clear()
Traceback (most recent call last):
    ...
AttributeError: 'tuple' object has no attribute 'clear'

Text that cannot be played raises an error that says why, one kind for each way it can fail
(all are :class:`RulesError`):

>>> state.parse_action("18-14")
Traceback (most recent call last):
    ...
game.rules.core.IllegalActionError: illegal action '18-14': no Black piece on 18
>>> state.parse_action("hello")  # doctest: +ELLIPSIS
Traceback (most recent call last):
    ...
game.rules.core.MalformedActionError: malformed action 'hello': not in the notation of ...

Dice are chance events whose outcomes, with exact probabilities, come from outside:

>>> game = new_game("numeri", players=2, first=1)
>>> game.is_chance(), game.chance_outcomes()[0]
(True, (1, Fraction(1, 6)))
>>> game = game.apply(4)  # the die shows 4
>>> game.to_move, [game.action_to_str(a) for a in game.legal_actions()]
(0, ['4'])

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
    Action,
    ActionError,
    AmbiguousActionError,
    DecodeError,
    IllegalActionError,
    MalformedActionError,
    Outcome,
    Reason,
    Result,
    RulesError,
    Seat,
    State,
    resign_action,
)
from game.rules.perft import perft
from game.rules.record import MatchRecord, ReplayError
from game.rules.registry import VARIANTS, every_setup, find_variant, new_game, start, variant
from game.rules.variants import HighScore, Rule, Variant

__all__ = [
    "AGREED_DRAW",
    "CHANCE",
    "TERMINAL",
    "VARIANTS",
    "Action",
    "ActionError",
    "AmbiguousActionError",
    "DecodeError",
    "HighScore",
    "IllegalActionError",
    "MalformedActionError",
    "MatchRecord",
    "Outcome",
    "Reason",
    "ReplayError",
    "Result",
    "Rule",
    "RulesError",
    "Seat",
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
