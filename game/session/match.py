"""A match in progress: the record, every state along it, the seats and the dice."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

import msgpack

from game.rules import DecodeError, MatchRecord, RulesError, State, Variant
from game.rules.chance import random_action
from game.rules.codec import unpack
from game.session.dice import LocalDice
from game.session.seats import Seat, SeatKind

if TYPE_CHECKING:
    import random
    from collections.abc import Sequence

log = logging.getLogger(__name__)

MATCH_VERSION = 3
"""Version 2 added the hints, version 3 the seat each hint was for; saves of versions 1
and 2 are still read (:func:`_hints_of_version_2`)."""


class Hint(NamedTuple):
    """A hint a person at this screen saw: the decision it was asked at (the index of the
    state before it, in the record) and the seat it was asked for.

    A hint is never unseen.  When its decision is undone it goes back with the undo to the
    decision the person returns to, and stays with its seat: it counts for that seat, and
    the review shows it at that move.  So every hint always stands at a decision of the
    record as it is (:meth:`Match.hint_error` is the one rule, for the match and its save).
    """

    decision: int
    seat: int


class Match:
    """The one mutable object around the immutable states of a match.

    ``states[i]`` is the state before ``record.actions[i]``; the last state is the current one.
    Listeners in ``on_change`` are called after every action and every undo (the client
    redraws, the save store writes the autosave).
    """

    def __init__(self, record: MatchRecord, seats: Sequence[Seat], seed: int) -> None:
        if len(seats) != record.variant.players:
            raise RulesError(
                f"{record.variant.name} for {record.variant.players} needs as many seats, "
                f"not {len(seats)}"
            )
        self.record = record
        self.seats = tuple(seats)
        self.seed = seed
        self.dice = LocalDice(seed)
        self._states: list[State] = list(record.states())
        self.hints: list[Hint] = []
        """The hints people here saw, in the order they asked: the results and the review
        count them for their seats and show where."""
        self.on_change: list[Callable[[Match], None]] = []

    @classmethod
    def new(cls, variant: Variant, seats: Sequence[Seat], seed: int) -> Match:
        return cls(MatchRecord(variant), seats, seed)

    # -- where the match stands ----------------------------------------------------------

    @property
    def state(self) -> State:
        return self._states[-1]

    @property
    def states(self) -> tuple[State, ...]:
        return tuple(self._states)

    def state_at(self, index: int) -> State:
        """The state before action ``index`` (``len(record.actions)``: the current one)."""
        return self._states[index]

    @property
    def variant(self) -> Variant:
        return self.record.variant

    @property
    def chance_events(self) -> int:
        """How many chance outcomes have been applied so far."""
        return sum(1 for s in self._states[:-1] if s.is_chance())

    @property
    def begun(self) -> bool:
        """Whether anyone has decided anything yet (a lot or a die alone is no move): a
        match nobody has played in is not worth keeping."""
        return len(self.record.actions) > self.chance_events

    def turn_numbers(self) -> tuple[int, ...]:
        """For each action of the record, the turn it belongs to, counted from 1 as people
        count them: a seat's throws and decisions until another seat's (a Numeri roll, its
        move and extra rolls; a Mulino move and its removal; a whole Ausgeblockt turn); 0
        for a lot drawn before anyone's turn."""
        numbers: list[int] = []
        turn, last = 0, None
        for state in self._states[:-1]:
            seat = state.to_move if state.to_move >= 0 else state.roller
            if seat is not None and seat != last:
                turn, last = turn + 1, seat
            numbers.append(turn)
        return tuple(numbers)

    @property
    def turns(self) -> int:
        """How many turns have been played (see :meth:`turn_numbers`)."""
        return self.turn_numbers()[-1] if self.record.actions else 0

    # -- acting ---------------------------------------------------------------------------

    def play(self, action: int) -> State:
        """Apply ``action`` (checked by the rules; an illegal one raises and changes nothing)."""
        state = self.state
        after = state.apply(action)
        self.record = self.record.then(action)
        self._states.append(after)
        self._changed()
        return after

    def play_randomly(self, rng: random.Random, plies: int | None = None) -> None:
        """Play on at random (dice thrown with the match's own, decisions drawn with
        ``rng``) to the end, or until the record holds ``plies`` actions: for pictures,
        benchmarks and tests that need a match under way or over."""
        while not self.state.is_terminal() and (plies is None or len(self.record.actions) < plies):
            if self.state.is_chance():
                self.roll()
            else:
                self.play(random_action(self.state, rng))

    def roll(self) -> int:
        """Decide the pending chance event with the match's dice and apply the outcome."""
        if not self.state.is_chance():
            raise RulesError("no chance event is pending")
        outcome = self.dice.outcome(self.state, self.chance_events)
        self.play(outcome)
        return outcome

    def undo_point(self) -> int | None:
        """The number of actions to keep when undoing: back to the last decision of a person
        at this screen, never across a chance outcome already revealed; None if none, and
        once the match is over (its result is kept with the finished matches)."""
        if self.state.is_terminal():
            return None
        for index in range(len(self._states) - 2, -1, -1):
            state = self._states[index]
            if state.is_chance():
                return None
            if self.seats[state.to_move].is_human:
                return index
        return None

    def undo(self) -> bool:
        """Take back the actions after :meth:`undo_point`; the hints seen for the decisions
        taken back go back with them to the decision at that point (see :class:`Hint`)."""
        point = self.undo_point()
        if point is None:
            return False
        del self._states[point + 1 :]
        self.record = self.record.first(point)
        self.hints = [Hint(min(h.decision, point), h.seat) for h in self.hints]
        self._changed()
        return True

    def note_hint(self) -> None:
        """A person asked for a hint for the decision at hand: noted once per decision and
        seat (asking again shows the same hint)."""
        hint = Hint(len(self.record.actions), self.state.to_move)
        if hint in self.hints:
            return
        if (error := self.hint_error(hint)) is not None:
            raise RulesError(f"no hint can be noted now: {error}")
        self.hints.append(hint)
        self._changed()

    def hint_error(self, hint: Hint) -> str | None:
        """Why ``hint`` cannot belong to this match, or None if it can: it stands at a
        decision of the record (not a chance event, not the end) and is for a seat of a
        person, never the computer's."""
        decision, seat = hint
        if not 0 <= decision <= len(self.record.actions):
            return f"decision {decision} is not in the record of {len(self.record.actions)}"
        state = self._states[decision]
        if state.is_terminal() or state.is_chance():
            return f"there is no decision before action {decision}"
        if not 0 <= seat < len(self.seats) or self.seats[seat].kind is SeatKind.COMPUTER:
            return f"seat {seat} is not a person's"
        return None

    def hints_by_seat(self) -> dict[int, int]:
        """How many hints each seat used."""
        counts: dict[int, int] = {}
        for hint in self.hints:
            counts[hint.seat] = counts.get(hint.seat, 0) + 1
        return counts

    def __eq__(self, other: object) -> bool:
        """Matches are equal when everything a save keeps is: the record (and so every
        state and the result), the seats, the seed and the hints."""
        if not isinstance(other, Match):
            return NotImplemented
        return (self.record, self.seats, self.seed, self.hints) == (
            other.record,
            other.seats,
            other.seed,
            other.hints,
        )

    __hash__ = None  # type: ignore[assignment]  # mutable

    def _changed(self) -> None:
        for listener in self.on_change:
            listener(self)

    # -- saving ---------------------------------------------------------------------------

    def to_bytes(self) -> bytes:
        return msgpack.packb(
            [MATCH_VERSION, self.record.encode(), [s.to_fields() for s in self.seats], self.seed,
             [list(hint) for hint in self.hints]]
        )  # fmt: skip

    @classmethod
    def from_bytes(cls, data: bytes) -> Match:
        """The match saved by :meth:`to_bytes`; raises :class:`RulesError` for anything else."""
        fields = unpack(data, "match")
        if not isinstance(fields, list):
            raise DecodeError(f"match: not a match of version 1 to {MATCH_VERSION}")
        try:
            version, record, seats, seed, *rest = fields
            known = rest == [] if version == 1 else version in (2, MATCH_VERSION) and len(rest) == 1
            if not known:
                raise DecodeError(f"match: not a match of version 1 to {MATCH_VERSION}")
            if type(seed) is not int or not 0 <= seed < 2**64:
                raise DecodeError("match: the seed must be a whole number of 64 bits at most")
            match = cls(MatchRecord.decode(record), [Seat.from_fields(s) for s in seats], seed)
            if version == 2:
                match.hints = _hints_of_version_2(match, rest[0])
            elif version == MATCH_VERSION:
                match.hints = _hints(match, rest[0])
            return match
        except RulesError:
            raise
        except (TypeError, ValueError, KeyError) as error:
            raise DecodeError(f"match: {error}") from error


def _hints(match: Match, fields: object) -> list[Hint]:
    """The hints of a save, each checked by the rule the match keeps (:meth:`Match.hint_error`)."""
    if not isinstance(fields, list):
        raise DecodeError("match: the hints must be a list")
    hints = []
    for field in fields:
        if not isinstance(field, list) or len(field) != 2 or any(type(n) is not int for n in field):
            raise DecodeError(f"match: a hint must be a decision and a seat, not {field!r}")
        hint = Hint(*field)
        if (error := match.hint_error(hint)) is not None:
            raise DecodeError(f"match: hint {field}: {error}")
        hints.append(hint)
    return hints


def _hints_of_version_2(match: Match, fields: object) -> list[Hint]:
    """The hints of a version 2 save, which kept decision numbers only, and kept them past
    the record after an undo: those go back to the decision at hand, as :meth:`Match.undo`
    now takes them; a hint that fits nowhere (the decision became a throw of the dice) is
    dropped with a word in the log, never the match."""
    if not isinstance(fields, list) or any(type(n) is not int or n < 0 for n in fields):
        raise DecodeError("match: hints must be decision numbers")
    hints = []
    for number in fields:
        decision = min(number, len(match.record.actions))
        hint = Hint(decision, match.state_at(decision).to_move)
        if (error := match.hint_error(hint)) is None:
            hints.append(hint)
        else:
            log.warning("a hint of an older save is dropped: %s", error)
    return hints
