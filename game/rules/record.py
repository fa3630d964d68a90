"""A match record: the variant and every action in notation, chance outcomes included.

Replaying a record from the variant's start reproduces the match exactly, which is how
matches are saved, resumed, exported and checked between peers.  The text form is PDN-like::

    [Variant "dama:classic"]
    [Players "2"]
    [Option "huffing=off"]

    22-18 11-15 18x11 8x15
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import msgpack

from game.rules.codec import unpack
from game.rules.core import ActionError, DecodeError, RulesError, State
from game.rules.registry import VARIANTS, start, variant
from game.rules.variants import Variant, variant_from_fields

RECORD_VERSION = 1


class ReplayError(RulesError):
    """A record whose actions cannot be replayed: names the action, its place and why."""


@dataclass(frozen=True, slots=True)
class MatchRecord:
    variant: Variant
    actions: tuple[str, ...] = ()

    @classmethod
    def start(cls, chosen: Variant) -> MatchRecord:
        return cls(chosen)

    def initial_state(self) -> State:
        return start(self.variant)

    def then(self, state: State, action: int) -> MatchRecord:
        """This record with ``action``, as played in ``state`` (the record's last state)."""
        return MatchRecord(self.variant, (*self.actions, state.action_to_str(action)))

    def states(self) -> Iterator[State]:
        """Every state of the match, from the start to the last action."""
        state = self.initial_state()
        yield state
        for number, text in enumerate(self.actions, 1):
            try:
                state = state.apply(state.parse_action(text))
            except ActionError as error:
                raise ReplayError(f"action {number} ({text!r}): {error.reason}") from error
            yield state

    def replay(self) -> State:
        """The state after every action of the record."""
        *_, last = self.states()
        return last

    # -- text -----------------------------------------------------------------------------

    def to_text(self) -> str:
        headers = [f'[Variant "{self.variant.name}"]', f'[Players "{self.variant.players}"]']
        headers += [f'[Option "{k}={str(v).lower()}"]' for k, v in self.variant.options]
        lines = [" ".join(self.actions[i : i + 12]) for i in range(0, len(self.actions), 12)]
        return "\n".join([*headers, "", *lines]) + "\n"

    @classmethod
    def from_text(cls, text: str) -> MatchRecord:
        name, players, options, actions = None, None, {}, []
        for number, raw in enumerate(text.splitlines(), 1):
            line = raw.strip()
            if line.startswith("["):
                key, _, rest = line.strip("[]").partition(" ")
                value = rest.strip().strip('"')
                if key == "Variant":
                    name = value
                elif key == "Players" and value.isdigit():
                    players = int(value)
                elif key == "Option" and "=" in value:
                    k, _, v = value.partition("=")
                    options[k] = v
                else:
                    raise RulesError(f"record line {number}: unknown header {line!r}")
            elif line and not line.startswith("#"):
                actions += line.split()
        if name is None:
            raise RulesError('a record starts with a [Variant "..."] header')
        return cls(variant(name, players, options), tuple(actions))

    # -- binary ---------------------------------------------------------------------------

    def encode(self) -> bytes:
        return msgpack.packb([RECORD_VERSION, self.variant.to_fields(), list(self.actions)])

    @classmethod
    def decode(cls, data: bytes) -> MatchRecord:
        fields = unpack(data, "record")
        if not isinstance(fields, list) or len(fields) != 3 or fields[0] != RECORD_VERSION:
            raise DecodeError(f"record: not a version {RECORD_VERSION} record")
        actions = fields[2]
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise DecodeError("record: the actions are a list of notation strings")
        return cls(variant_from_fields(fields[1], VARIANTS), tuple(actions))
