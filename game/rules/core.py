"""What every game state has in common: turns, actions, results and their errors.

A state is immutable.  Whose turn it is, ``state.to_move``, is a seat number (0, 1, …), the
constant :data:`CHANCE` when the next step is decided by dice or a lot, or :data:`TERMINAL`
when the game is over.  Actions are small non-negative integers whose meaning each game
defines; :meth:`State.action_to_str` and :meth:`State.parse_action` translate them to and from
the text notation of ``docs/NOTATION.md``.  At a chance node :meth:`State.chance_outcomes`
lists every outcome with its exact probability, and the chosen outcome is applied like any
other action: the engine never draws a random number itself.

Two conclusions are open to the players at any moment of a running game and are not listed
among the legal actions: a draw by agreement (:data:`AGREED_DRAW`, notation ``draw``) and a
resignation (:func:`resign_action`, notation ``resign1`` … ``resign4``).
"""

from __future__ import annotations

import enum
import hashlib
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar, TypeAlias

import msgpack

if TYPE_CHECKING:
    from collections.abc import Sequence

    from game.rules.variants import Variant

Action: TypeAlias = int
"""An action, a chance outcome or a conclusion: a small integer whose meaning each game
defines (negative for a draw by agreement or a resignation)."""
Seat: TypeAlias = int
"""A seat at the table: 0 for the first player, 1 for the second …"""

CHANCE = -1
"""``State.to_move`` at a chance node: the next action is an outcome of dice or a lot."""
TERMINAL = -2
"""``State.to_move`` when the game is over."""

AGREED_DRAW = -1
"""The action that ends a running game as a draw by agreement of the players."""
_RESIGN_BASE = -10

ENCODING_VERSION = 1
"""Leads every canonical encoding; bumped whenever the layout of any state changes."""


def resign_action(seat: Seat) -> Action:
    """The action by which ``seat`` resigns: the game ends and every other seat wins."""
    return _RESIGN_BASE - seat


def resigning_seat(action: Action) -> Seat | None:
    """The seat that resigns with ``action``, or None if it is no resignation."""
    return _RESIGN_BASE - action if action <= _RESIGN_BASE else None


class RulesError(ValueError):
    """Base class of every error the rules engine raises on bad input."""


class ActionError(RulesError):
    """An action that cannot be played: the base of the three errors below.

    ``action`` is the action as given (its text or number), ``reason`` says why in plain words.
    """

    def __init__(self, action: object, reason: str) -> None:
        self.action = action
        self.reason = reason
        super().__init__(f"{self._kind} {action!r}: {reason}")

    _kind = "action"


class MalformedActionError(ActionError):
    """Text that is not an action in the notation of the game at all."""

    _kind = "malformed action"


class IllegalActionError(ActionError):
    """A well-formed action that is not legal in the state it was meant for."""

    _kind = "illegal action"


class AmbiguousActionError(ActionError):
    """Text that names more than one legal action (a shortened capture, say)."""

    _kind = "ambiguous action"


class DecodeError(RulesError):
    """Bytes that are not the canonical encoding of a state, an action or a record."""


class Reason(enum.StrEnum):
    """Why a game ended; ``game.names.reason_text`` says it in the player's language."""

    CONNECTED = "connected"
    """Ausgeblockt: a player's marks join the three start cells."""
    BOTH_BLOCKED = "both_blocked"
    """Ausgeblockt: neither player can mark any more."""
    END_SPACES = "end_spaces"
    """Numeri: the three end spaces are taken."""
    NO_MOVES = "no_moves"
    """The player to move has no legal move."""
    NO_PIECES = "no_pieces"
    """The player to move has no piece left."""
    BREAKTHROUGH = "breakthrough"
    """Lupo e pecore: the wolf is past every sheep."""
    PIECES = "pieces"
    """Mulino: a player has fewer than three pieces."""
    REPETITION = "repetition"
    """The same position with the same player to move came up a third time."""
    QUIET_PLIES = "quiet_plies"
    """Too many plies in a row without a capture, removal or man move."""
    AGREEMENT = "agreement"
    """The players agreed a draw."""
    RESIGNATION = "resignation"
    """A player resigned."""


class Outcome(enum.Enum):
    """How a game ended for one seat."""

    WIN = "win"
    LOSS = "loss"
    DRAW = "draw"


@dataclass(frozen=True, slots=True)
class Result:
    """The end of a game: the outcome of each seat, the scores where the game keeps them, and
    why it ended (a :class:`Reason`, also listed in ``docs/NOTATION.md``)."""

    outcomes: tuple[Outcome, ...]
    reason: Reason
    scores: tuple[int, ...] | None = None

    @classmethod
    def win_for(cls, winner: Seat, players: int, reason: Reason) -> Result:
        return cls(
            tuple(Outcome.WIN if s == winner else Outcome.LOSS for s in range(players)), reason
        )

    @classmethod
    def draw(cls, players: int, reason: Reason) -> Result:
        return cls((Outcome.DRAW,) * players, reason)

    def winners(self) -> tuple[Seat, ...]:
        return tuple(s for s, o in enumerate(self.outcomes) if o is Outcome.WIN)

    def to_fields(self) -> list[Any]:
        return [[o.value for o in self.outcomes], self.reason, self.scores and list(self.scores)]

    @classmethod
    def from_fields(cls, fields: Sequence[Any]) -> Result:
        outcomes, reason, scores = fields
        try:
            return cls(
                tuple(Outcome(o) for o in outcomes),
                Reason(reason),
                None if scores is None else tuple(int(s) for s in scores),
            )
        except (TypeError, ValueError) as error:
            raise DecodeError(f"not a valid result: {fields!r} ({error})") from error

    def __str__(self) -> str:
        parts = [f"seat {s + 1}: {o.value}" for s, o in enumerate(self.outcomes)]
        if self.scores is not None:
            parts = [f"{p} ({score} points)" for p, score in zip(parts, self.scores, strict=True)]
        return f"{', '.join(parts)} [{self.reason.value}]"


class State:
    """One position of a game, with everything needed to go on from it.

    Subclasses set ``__slots__`` and implement the hooks below; the public methods here give
    every game the same checked interface.  ``variant`` describes the game and its options.
    """

    __slots__ = ("_legal", "variant")

    variant: Variant
    _legal: tuple[Action, ...] | None

    #: Short example of the action notation, quoted in error messages.
    NOTATION_HINT: ClassVar[str] = ""

    # -- hooks each game implements -------------------------------------------------------

    @classmethod
    def initial(cls, variant: Variant) -> State:
        """The starting state of ``variant``."""
        raise NotImplementedError

    @classmethod
    def from_fields(cls, variant: Variant, fields: list[Any]) -> State:
        """The state of ``variant`` written by :meth:`to_fields` (checked: bad fields raise
        :class:`DecodeError` or another :class:`RulesError`)."""
        raise NotImplementedError

    @property
    def to_move(self) -> Seat:
        """The seat to act, :data:`CHANCE` or :data:`TERMINAL`."""
        raise NotImplementedError

    def _generate_legal(self) -> tuple[Action, ...]:
        """The legal actions of the seat to move (called once, then cached)."""
        raise NotImplementedError

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        """At a chance node: every outcome with its exact probability (they sum to 1)."""
        return []

    @property
    def roller(self) -> Seat | None:
        """At a chance node, the seat whose dice these are (it throws them); None for a lot
        drawn on its own (who begins) and when no dice are to be thrown."""
        return None

    @property
    def last_position(self) -> State:
        """The position last played on: the state itself, or for a game the players ended
        (agreed draw, resignation) the position they ended it in, for the board to show."""
        return self

    def result(self) -> Result | None:
        """The result once the game is over, else None."""
        raise NotImplementedError

    def _successor(self, action: Action) -> State:
        """The state after a legal action or chance outcome (no checking)."""
        raise NotImplementedError

    def _action_text(self, action: Action) -> str:
        raise NotImplementedError

    def _parse(self, text: str) -> Action | None:
        """The action ``text`` names in this state, or None if it is not of the notation.
        Never raises: whether the action is legal is :meth:`parse_action`'s to say."""
        raise NotImplementedError

    def _readings(self, action: Action) -> tuple[Action, ...]:
        """The legal actions a well-formed but not legal ``action`` may be short for (Dama's
        ``22x6`` for a capture through several squares); games with shorthands refine this."""
        return ()

    def _describe(self) -> tuple[str, str]:
        """A text diagram of the position and a line saying who is to do what."""
        raise NotImplementedError

    def to_fields(self) -> list[Any]:
        """The whole state as a list of msgpack-able plain values, canonically ordered."""
        raise NotImplementedError

    # -- the common interface -------------------------------------------------------------

    @property
    def players(self) -> int:
        return self.variant.players

    def is_terminal(self) -> bool:
        return self.to_move == TERMINAL

    def is_chance(self) -> bool:
        return self.to_move == CHANCE

    def legal_actions(self) -> tuple[Action, ...]:
        """The actions open to the seat to move (none at a chance node or at the end), in the
        game's own order; a tuple, so that no caller can change what the state knows."""
        legal = self._legal
        if legal is None:
            # Games that must look at the moves to know whose turn it is fill the cache there.
            legal = () if self.to_move < 0 else self._legal
            if legal is None:
                legal = self._generate_legal()
            self._legal = legal
        return legal

    def apply(self, action: Action) -> State:
        """The state after ``action`` (a legal action, a chance outcome, a draw by agreement or
        a resignation).  The state itself is left unchanged.

        Raises :class:`IllegalActionError` for anything else.
        """
        legal = self._legal
        if action in (self.legal_actions() if legal is None else legal):
            return self._successor(action)  # none at a chance event or at the end
        if action < 0:  # no legal action is below 0
            return self._conclude(action)
        to_move = self.to_move
        if to_move == CHANCE:
            if any(action == outcome for outcome, _ in self.chance_outcomes()):
                return self._successor(action)
            raise IllegalActionError(action, "not a possible outcome of this chance event")
        if to_move == TERMINAL:
            raise IllegalActionError(action, "the game is over")
        raise IllegalActionError(action, "not a legal action here")

    def _conclude(self, action: Action) -> State:
        from game.rules.concluded import Concluded

        if self.is_terminal():
            raise IllegalActionError(self._meta_text(action), "the game is over")
        seat = resigning_seat(action)
        if action == AGREED_DRAW:
            if not self.variant.spec.agreed_draws:
                raise IllegalActionError("draw", "this game has no draw by agreement")
            return Concluded(self, action, Result.draw(self.players, Reason.AGREEMENT))
        if seat is not None and 0 <= seat < self.players:
            outcomes = tuple(
                Outcome.LOSS if s == seat else Outcome.WIN for s in range(self.players)
            )
            return Concluded(self, action, Result(outcomes, Reason.RESIGNATION))
        raise IllegalActionError(action, "no such action")

    def action_to_str(self, action: Action) -> str:
        """The notation of ``action`` as played in this state."""
        if action < 0:
            return self._meta_text(action)
        return self._action_text(action)

    def _meta_text(self, action: Action) -> str:
        if action == AGREED_DRAW:
            return "draw"
        seat = resigning_seat(action)
        return f"resign{seat + 1}" if seat is not None else f"?{action}"

    def parse_action(self, text: str) -> Action:
        """The action written ``text`` in this state, checked for legality.

        Raises :class:`MalformedActionError` for text that is not of the game's notation,
        :class:`AmbiguousActionError` for a shorthand that fits several legal actions and
        :class:`IllegalActionError` for an action that cannot be played here; each names the
        text and why.
        """
        word = text.strip()
        meta = _parse_meta(word, self.players)
        if meta is not None:
            if self.is_terminal():
                raise IllegalActionError(text, "the game is over")
            return meta
        if self.is_terminal():
            raise IllegalActionError(text, "the game is over")
        action = self._parse(word)
        if action is None:
            hint = f"not in the notation of this game ({self.NOTATION_HINT})"
            raise MalformedActionError(text, hint)
        if self.to_move == CHANCE:
            outcomes = [a for a, _ in self.chance_outcomes()]
            if action not in outcomes:
                raise IllegalActionError(
                    text, "not a possible outcome here; possible: " + self._listing(outcomes)
                )
            return action
        legal = self.legal_actions()
        if action in legal:
            return action
        readings = self._readings(action)
        if len(readings) == 1:
            return readings[0]
        if readings:
            listing = self._listing(readings)
            raise AmbiguousActionError(text, f"write every landing square ({listing})")
        raise IllegalActionError(text, self._why_illegal(action, legal))

    def _why_illegal(self, action: Action, legal: Sequence[Action]) -> str:
        """Why a well-formed ``action`` is not legal; games refine this."""
        return "not legal here; legal: " + self._listing(legal)

    def _listing(self, actions: Sequence[Action], most: int = 16) -> str:
        shown = [self.action_to_str(a) for a in actions[:most]]
        more = f" … ({len(actions) - most} more)" if len(actions) > most else ""
        return (" ".join(shown) or "none") + more

    def encode(self) -> bytes:
        """The canonical binary encoding: the same state gives the same bytes everywhere."""
        return msgpack.packb(
            [ENCODING_VERSION, self.variant.to_fields(), self.to_fields()], use_bin_type=True
        )

    def digest(self) -> str:
        """A stable fingerprint of the state: BLAKE2b-128 of :meth:`encode`, in hex."""
        return hashlib.blake2b(self.encode(), digest_size=16).hexdigest()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.encode() == other.encode()

    def __hash__(self) -> int:
        return hash(self.encode())

    def __str__(self) -> str:
        diagram, status = self._describe()
        if self.is_terminal():
            status = f"game over: {self.result()}"
        return f"{diagram}\n{status}"

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.variant.name} {self.digest()[:12]}>"


def _parse_meta(word: str, players: int) -> Action | None:
    if word == "draw":
        return AGREED_DRAW
    if word.startswith("resign") and word[6:].isdecimal() and len(word) < 10:
        seat = int(word[6:]) - 1
        if not 0 <= seat < players:
            raise IllegalActionError(word, f"there is no seat {seat + 1} in this game")
        return resign_action(seat)
    return None


def check_int(value: object, low: int, high: int, what: str) -> int:
    """``value`` if it is an int in [low, high]; else a :class:`DecodeError` naming ``what``."""
    if type(value) is not int or not low <= value <= high:
        raise DecodeError(f"{what} must be a whole number from {low} to {high}, not {value!r}")
    return value


def check_list(value: object, length: int | None, what: str) -> list[Any]:
    if not isinstance(value, list | tuple) or (length is not None and len(value) != length):
        size = "a list" if length is None else f"a list of {length}"
        raise DecodeError(f"{what} must be {size}, not {value!r}")
    return list(value)
