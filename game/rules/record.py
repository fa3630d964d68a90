r"""A match record: the variant and every action, chance outcomes included, as the engine's
action numbers (as OpenSpiel's ``History()``); notation is made from them, or read into them,
only at the edges — for people and files.

Replaying a record from the variant's start reproduces the match exactly, which is how
matches are saved, resumed, exported and checked between peers.  The text form is PDN-like::

    [Variant "dama:classic"]
    [Players "2"]
    [Option "huffing=off"]

    22-18 11-15 18x11 8x15

>>> record = MatchRecord.from_text('[Variant "dama"]\n\n22-18 11-15')
>>> record.notation(), len(record.actions)
(('22-18', '11-15'), 2)
>>> MatchRecord.decode(record.encode()) == record
True
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import msgpack

from game.rules.codec import action_field, action_from_field, unpack
from game.rules.core import Action, ActionError, DecodeError, RulesError, State
from game.rules.fen import FenError, position_from_fen
from game.rules.registry import VARIANTS, start, variant
from game.rules.variants import Variant, variant_from_fields

RECORD_VERSION = 3
"""Version 3 adds the set-up start position (written only for a match that has one: a record
from the variant's start is written as version 2, byte for byte as before, so its digest and
the reviews kept for it stay); version 2 keeps action numbers; version 1, read still, kept
their notation."""


class ReplayError(RulesError):
    """A record whose actions cannot be replayed: names the action, its place and why."""


@dataclass(frozen=True, slots=True)
class MatchRecord:
    variant: Variant
    actions: tuple[Action, ...] = ()
    setup: str | None = None
    """The FEN of the position the match started from (:mod:`game.rules.fen`); None: the
    variant's own start."""

    def __post_init__(self) -> None:
        if self.setup is not None:
            position_from_fen(self.variant, self.setup)  # raises FenError for a bad one

    @classmethod
    def start(cls, chosen: Variant, setup: str | None = None) -> MatchRecord:
        return cls(chosen, (), setup)

    def initial_state(self) -> State:
        if self.setup is not None:
            return position_from_fen(self.variant, self.setup)
        return start(self.variant)

    def then(self, action: Action) -> MatchRecord:
        """This record with ``action`` played next."""
        return MatchRecord(self.variant, (*self.actions, action), self.setup)

    def first(self, count: int) -> MatchRecord:
        """This record up to its first ``count`` actions, from the same start."""
        return MatchRecord(self.variant, self.actions[:count], self.setup)

    def states(self) -> Iterator[State]:
        """Every state of the match, from the start to the last action."""
        state = self.initial_state()
        yield state
        for number, action in enumerate(self.actions, 1):
            try:
                state = state.apply(action)
            except ActionError as error:
                raise ReplayError(f"action {number} ({action}): {error.reason}") from error
            yield state

    def replay(self) -> State:
        """The state after every action of the record."""
        *_, last = self.states()
        return last

    def notation(self) -> tuple[str, ...]:
        """Every action in the notation of ``docs/NOTATION.md``, as played."""
        return tuple(
            state.action_to_str(action)
            for state, action in zip(self.states(), self.actions, strict=False)
        )

    @classmethod
    def from_notation(
        cls, chosen: Variant, texts: Iterable[str], setup: str | None = None
    ) -> MatchRecord:
        """The record of ``texts`` played from ``chosen``'s start (or the position ``setup``),
        each read in its state; a :class:`ReplayError` names the first that cannot be played
        and why."""
        state, actions = cls.start(chosen, setup).initial_state(), []
        for number, text in enumerate(texts, 1):
            try:
                action = state.parse_action(text)
                state = state.apply(action)
            except ActionError as error:
                raise ReplayError(f"action {number} ({text!r}): {error.reason}") from error
            actions.append(action)
        return cls(chosen, tuple(actions), setup)

    # -- text -----------------------------------------------------------------------------

    def to_text(self) -> str:
        headers = [f'[Variant "{self.variant.name}"]', f'[Players "{self.variant.players}"]']
        headers += [f'[Option "{k}={str(v).lower()}"]' for k, v in self.variant.options]
        if self.setup is not None:
            headers += ['[SetUp "1"]', f'[FEN "{self.setup}"]']
        texts = self.notation()
        lines = [" ".join(texts[i : i + 12]) for i in range(0, len(texts), 12)]
        return "\n".join([*headers, "", *lines]) + "\n"

    @classmethod
    def from_text(cls, text: str) -> MatchRecord:
        """The record written by :meth:`to_text`, its actions read along the match (a
        :class:`ReplayError` for one that cannot be played)."""
        name, players, options, actions = None, None, {}, []
        setup: str | None = None
        for number, raw in enumerate(text.splitlines(), 1):
            line = raw.strip()
            if line.startswith("["):
                key, _, rest = line.strip("[]").partition(" ")
                value = rest.strip().strip('"')
                if key == "Variant":
                    name = value
                elif key == "Players" and value.isdecimal() and len(value) < 4:
                    players = int(value)
                elif key == "Option" and "=" in value:
                    k, _, v = value.partition("=")
                    options[k] = v
                elif key == "FEN":
                    setup = value
                elif key == "SetUp":
                    continue
                else:
                    raise RulesError(f"record line {number}: unknown header {line!r}")
            elif line and not line.startswith("#"):
                actions += line.split()
        if name is None:
            raise RulesError('a record starts with a [Variant "..."] header')
        return cls.from_notation(variant(name, players, options), tuple(actions), setup)

    # -- binary ---------------------------------------------------------------------------

    def encode(self) -> bytes:
        actions = [action_field(a) for a in self.actions]
        if self.setup is None:
            return msgpack.packb([2, self.variant.to_fields(), actions])
        return msgpack.packb([RECORD_VERSION, self.variant.to_fields(), actions, self.setup])

    @classmethod
    def decode(cls, data: bytes) -> MatchRecord:
        """The record :meth:`encode` wrote (or a version 1 record, its notation read along
        the match); its actions are checked when it is replayed."""
        fields = unpack(data, "record")
        sizes = {1: 3, 2: 3, RECORD_VERSION: 4}
        if not isinstance(fields, list) or not fields or sizes.get(fields[0]) != len(fields):
            raise DecodeError(f"record: not a record of version 1 to {RECORD_VERSION}")
        chosen = variant_from_fields(fields[1], VARIANTS)
        setup = fields[3] if fields[0] == RECORD_VERSION else None
        if fields[0] == RECORD_VERSION and not isinstance(setup, str):
            raise DecodeError("record: the set-up position is a FEN")
        actions = fields[2]
        if not isinstance(actions, list):
            raise DecodeError("record: the actions are a list")
        if fields[0] == 1:
            if not all(isinstance(a, str) for a in actions):
                raise DecodeError("record: a version 1 record's actions are notation strings")
            try:
                return cls.from_notation(chosen, tuple(actions))
            except ReplayError as error:
                raise DecodeError(f"record: {error}") from error
        try:
            return cls(chosen, tuple(action_from_field(a) for a in actions), setup)
        except FenError as error:
            raise DecodeError(f"record: {error}") from error
