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
from typing import TYPE_CHECKING, ClassVar

import msgpack

if TYPE_CHECKING:
    from collections.abc import Sequence

    from game.rules.variants import Variant

CHANCE = -1
"""``State.to_move`` at a chance node: the next action is an outcome of dice or a lot."""
TERMINAL = -2
"""``State.to_move`` when the game is over."""

AGREED_DRAW = -1
"""The action that ends a running game as a draw by agreement of the players."""
_RESIGN_BASE = -10

ENCODING_VERSION = 1
"""Leads every canonical encoding; bumped whenever the layout of any state changes."""


def resign_action(seat: int) -> int:
    """The action by which ``seat`` resigns: the game ends and every other seat wins."""
    return _RESIGN_BASE - seat


def resigning_seat(action: int) -> int | None:
    """The seat that resigns with ``action``, or None if it is no resignation."""
    return _RESIGN_BASE - action if action <= _RESIGN_BASE else None


class RulesError(ValueError):
    """Base class of every error the rules engine raises on bad input."""


class IllegalActionError(RulesError):
    """An action that is malformed, or well-formed but not legal in the state it was meant for.

    ``action`` is the action as given (its text or number), ``reason`` says why in plain words.
    """

    def __init__(self, action: object, reason: str) -> None:
        self.action = action
        self.reason = reason
        super().__init__(f"illegal action {action!r}: {reason}")


class DecodeError(RulesError):
    """Bytes that are not the canonical encoding of a state, an action or a record."""


class Outcome(enum.Enum):
    """How a game ended for one seat."""

    WIN = "win"
    LOSS = "loss"
    DRAW = "draw"


@dataclass(frozen=True, slots=True)
class Result:
    """The end of a game: the outcome of each seat, the scores where the game keeps them, and
    a reason code (``"connected"``, ``"no_moves"``, ``"repetition"`` …, listed in
    ``docs/NOTATION.md``) that the client translates for the players."""

    outcomes: tuple[Outcome, ...]
    reason: str
    scores: tuple[int, ...] | None = None

    @classmethod
    def win_for(cls, winner: int, players: int, reason: str) -> Result:
        return cls(
            tuple(Outcome.WIN if s == winner else Outcome.LOSS for s in range(players)), reason
        )

    @classmethod
    def draw(cls, players: int, reason: str) -> Result:
        return cls((Outcome.DRAW,) * players, reason)

    def winners(self) -> tuple[int, ...]:
        return tuple(s for s, o in enumerate(self.outcomes) if o is Outcome.WIN)

    def to_fields(self) -> list:
        return [[o.value for o in self.outcomes], self.reason, self.scores and list(self.scores)]

    @classmethod
    def from_fields(cls, fields: Sequence) -> Result:
        outcomes, reason, scores = fields
        return cls(
            tuple(Outcome(o) for o in outcomes),
            str(reason),
            None if scores is None else tuple(int(s) for s in scores),
        )

    def __str__(self) -> str:
        parts = [f"seat {s + 1}: {o.value}" for s, o in enumerate(self.outcomes)]
        if self.scores is not None:
            parts = [f"{p} ({score} points)" for p, score in zip(parts, self.scores, strict=True)]
        return f"{', '.join(parts)} [{self.reason}]"


class State:
    """One position of a game, with everything needed to go on from it.

    Subclasses set ``__slots__`` and implement the hooks below; the public methods here give
    every game the same checked interface.  ``variant`` describes the game and its options.
    """

    __slots__ = ("_legal", "variant")

    variant: Variant
    _legal: list[int] | None

    #: Short example of the action notation, quoted in error messages.
    NOTATION_HINT: ClassVar[str] = ""

    # -- hooks each game implements -------------------------------------------------------

    @property
    def to_move(self) -> int:
        """The seat to act, :data:`CHANCE` or :data:`TERMINAL`."""
        raise NotImplementedError

    def _generate_legal(self) -> list[int]:
        """The legal actions of the seat to move (called once, then cached)."""
        raise NotImplementedError

    def chance_outcomes(self) -> list[tuple[int, Fraction]]:
        """At a chance node: every outcome with its exact probability (they sum to 1)."""
        return []

    def result(self) -> Result | None:
        """The result once the game is over, else None."""
        raise NotImplementedError

    def _successor(self, action: int) -> State:
        """The state after a legal action or chance outcome (no checking)."""
        raise NotImplementedError

    def _action_text(self, action: int) -> str:
        raise NotImplementedError

    def _parse(self, text: str) -> int | None:
        """The action ``text`` names in this state, or None if it is not of the notation."""
        raise NotImplementedError

    def _describe(self) -> tuple[str, str]:
        """A text diagram of the position and a line saying who is to do what."""
        raise NotImplementedError

    def to_fields(self) -> list:
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

    def legal_actions(self) -> list[int]:
        """The actions open to the seat to move ([] at a chance node or at the end)."""
        legal = self._legal
        if legal is None:
            # Games that must look at the moves to know whose turn it is fill the cache there.
            legal = [] if self.to_move < 0 else self._legal
            if legal is None:
                legal = self._generate_legal()
            self._legal = legal
        return legal

    def apply(self, action: int) -> State:
        """The state after ``action`` (a legal action, a chance outcome, a draw by agreement or
        a resignation).  The state itself is left unchanged.

        Raises :class:`IllegalActionError` for anything else.
        """
        if action < 0:
            return self._conclude(action)
        to_move = self.to_move
        if to_move == CHANCE:
            if any(action == outcome for outcome, _ in self.chance_outcomes()):
                return self._successor(action)
            raise IllegalActionError(action, "not a possible outcome of this chance event")
        if to_move == TERMINAL:
            raise IllegalActionError(action, "the game is over")
        if action in self.legal_actions():
            return self._successor(action)
        raise IllegalActionError(action, "not a legal action here")

    def _conclude(self, action: int) -> State:
        from game.rules.concluded import Concluded

        if self.is_terminal():
            raise IllegalActionError(self._meta_text(action), "the game is over")
        seat = resigning_seat(action)
        if action == AGREED_DRAW:
            return Concluded(self, action, Result.draw(self.players, "agreement"))
        if seat is not None and 0 <= seat < self.players:
            outcomes = tuple(
                Outcome.LOSS if s == seat else Outcome.WIN for s in range(self.players)
            )
            return Concluded(self, action, Result(outcomes, "resignation"))
        raise IllegalActionError(action, "no such action")

    def action_to_str(self, action: int) -> str:
        """The notation of ``action`` as played in this state."""
        if action < 0:
            return self._meta_text(action)
        return self._action_text(action)

    def _meta_text(self, action: int) -> str:
        if action == AGREED_DRAW:
            return "draw"
        seat = resigning_seat(action)
        return f"resign{seat + 1}" if seat is not None else f"?{action}"

    def parse_action(self, text: str) -> int:
        """The action written ``text`` in this state, checked for legality.

        Raises :class:`IllegalActionError` naming the text and why it cannot be played.
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
            raise IllegalActionError(text, hint)
        if self.to_move == CHANCE:
            outcomes = [a for a, _ in self.chance_outcomes()]
            if action not in outcomes:
                raise IllegalActionError(
                    text, "not a possible outcome here; possible: " + self._listing(outcomes)
                )
            return action
        legal = self.legal_actions()
        if action not in legal:
            raise IllegalActionError(text, self._why_illegal(action, legal))
        return action

    def _why_illegal(self, action: int, legal: list[int]) -> str:
        """Why a well-formed ``action`` is not legal; games refine this."""
        return "not legal here; legal: " + self._listing(legal)

    def _listing(self, actions: list[int], most: int = 16) -> str:
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


def _parse_meta(word: str, players: int) -> int | None:
    if word == "draw":
        return AGREED_DRAW
    if word.startswith("resign") and word[6:].isdigit():
        seat = int(word[6:]) - 1
        if 0 <= seat < players:
            return resign_action(seat)
    return None


def check_int(value: object, low: int, high: int, what: str) -> int:
    """``value`` if it is an int in [low, high]; else a :class:`DecodeError` naming ``what``."""
    if type(value) is not int or not low <= value <= high:
        raise DecodeError(f"{what} must be a whole number from {low} to {high}, not {value!r}")
    return value


def check_list(value: object, length: int | None, what: str) -> list:
    if not isinstance(value, list | tuple) or (length is not None and len(value) != length):
        size = "a list" if length is None else f"a list of {length}"
        raise DecodeError(f"{what} must be {size}, not {value!r}")
    return list(value)
