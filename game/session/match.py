"""A match in progress: the record, every state along it, the seats and the dice."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import msgpack

from game.rules import DecodeError, MatchRecord, RulesError, State, Variant
from game.rules.chance import random_action
from game.rules.codec import unpack
from game.session.dice import LocalDice
from game.session.seats import Seat

if TYPE_CHECKING:
    import random
    from collections.abc import Sequence

MATCH_VERSION = 2
"""Version 2 added the hints; version 1 saves are still read (with none)."""


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
        self.hints: list[int] = []
        """The decisions (indices into the record's actions) for which a person asked the
        computer for a hint: the review counts them."""
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
        at this screen, never across a chance outcome already revealed; None if none."""
        for index in range(len(self._states) - 2, -1, -1):
            state = self._states[index]
            if state.is_chance():
                return None
            if self.seats[state.to_move].is_human:
                return index
        return None

    def undo(self) -> bool:
        point = self.undo_point()
        if point is None:
            return False
        del self._states[point + 1 :]
        self.record = MatchRecord(self.variant, self.record.actions[:point])
        self._changed()
        return True

    def note_hint(self) -> None:
        """A person asked for a hint for the decision at hand (counted once per decision,
        kept if the decision is undone: the hint was seen)."""
        ply = len(self.record.actions)
        if ply not in self.hints:
            self.hints.append(ply)
            self._changed()

    def hints_by_seat(self) -> dict[int, int]:
        """How many hints each seat used."""
        counts: dict[int, int] = {}
        for ply in self.hints:
            if ply < len(self._states) and (seat := self._states[ply].to_move) >= 0:
                counts[seat] = counts.get(seat, 0) + 1
        return counts

    def _changed(self) -> None:
        for listener in self.on_change:
            listener(self)

    # -- saving ---------------------------------------------------------------------------

    def to_bytes(self) -> bytes:
        return msgpack.packb(
            [MATCH_VERSION, self.record.encode(), [s.to_fields() for s in self.seats], self.seed,
             self.hints]
        )  # fmt: skip

    @classmethod
    def from_bytes(cls, data: bytes) -> Match:
        """The match saved by :meth:`to_bytes`; raises :class:`RulesError` for anything else."""
        fields = unpack(data, "match")
        try:
            version, record, seats, seed, *rest = fields  # type: ignore[misc]
            if version == 1 and not rest:
                hints = []
            elif version == MATCH_VERSION and len(rest) == 1:
                hints = rest[0]
            else:
                raise DecodeError(f"match: not a version 1 or {MATCH_VERSION} match")
            if type(seed) is not int:
                raise DecodeError("match: the seed must be a whole number")
            match = cls(MatchRecord.decode(record), [Seat.from_fields(s) for s in seats], seed)
            decisions = len(match.record.actions)
            if not isinstance(hints, list) or any(
                type(h) is not int or not 0 <= h <= decisions for h in hints
            ):
                raise DecodeError("match: hints must be decision numbers within the record")
            match.hints = list(hints)
            return match
        except RulesError:
            raise
        except (TypeError, ValueError, KeyError) as error:
            raise DecodeError(f"match: {error}") from error
