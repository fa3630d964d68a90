"""The messages peers exchange, each checked field by field before anything acts on it.

A message is a map with a string ``"t"`` (its type) and the fields :data:`SCHEMAS` lists
for that type, each of a given kind and within bounds; a missing, extra or ill-typed field,
or an unknown type, is refused with :class:`MessageError` naming it.  What the fields mean
and when each message is sent is the protocol's business (the peers); here only their shape.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

PROTOCOL_VERSION = 1
HEX_DIGEST = 32  # characters of a state digest (BLAKE2b-128 in hex)


class MessageError(ValueError):
    """A message that is not of the protocol; the text says which field and why."""


@dataclass(frozen=True, slots=True)
class Field:
    kind: str
    check: Callable[[object], bool]
    optional: bool = False


def _int(low: int, high: int) -> Field:
    return Field(f"whole number {low}–{high}", lambda v: type(v) is int and low <= v <= high)


def _text(longest: int) -> Field:
    return Field(
        f"text of at most {longest} characters", lambda v: isinstance(v, str) and len(v) <= longest
    )


def _bytes(size: int) -> Field:
    return Field(f"{size} bytes", lambda v: isinstance(v, bytes) and len(v) == size)


def _hex(size: int) -> Field:
    return Field(
        f"{size} hex digits",
        lambda v: isinstance(v, str) and len(v) == size and all(c in "0123456789abcdef" for c in v),
    )


def _optional(field: Field) -> Field:
    return Field(f"{field.kind} or nil", lambda v: v is None or field.check(v), optional=True)


SEQ = _int(0, 2**31)
SEAT = _int(-1, 3)  # -1: a spectator
SCHEMAS: dict[str, dict[str, Field]] = {
    "hello": {
        "version": _int(1, 2**16),
        "rules": _hex(HEX_DIGEST),
        "peer": _hex(32),
        "name": _text(40),
        "code": _optional(_text(32)),
    },
    "welcome": {
        "match": _hex(32),
        "variant": _text(40),
        "players": _int(2, 4),
        "options": _text(200),
        "seat": SEAT,
    },
    "refuse": {"reason": _text(300)},
    "seat": {"seat": SEAT},
    "ready": {"ready": Field("true or false", lambda v: isinstance(v, bool))},
    "start": {"first_event": _int(1, 2**31)},
    "commit": {"peer": _hex(32), "commitment": _bytes(32), "first_event": _int(1, 2**31)},
    "reveal": {"peer": _hex(32), "event": _int(1, 2**31), "value": _bytes(32)},
    "action": {"seq": SEQ, "action": _text(120), "digest": _hex(HEX_DIGEST)},
    "reject": {"seq": SEQ, "reason": _text(300)},
    "sync": {
        "record": Field(
            "a record of at most 60000 bytes", lambda v: isinstance(v, bytes) and len(v) <= 60_000
        )
    },
    "ping": {"n": SEQ},
    "pong": {"n": SEQ},
    "bye": {"reason": _text(300)},
}


def validate(message: dict) -> dict:
    """``message`` if it has exactly the fields of its type, each well formed."""
    kind = message.get("t")
    schema = SCHEMAS.get(kind) if isinstance(kind, str) else None
    if schema is None:
        raise MessageError(f"unknown message type {kind!r}")
    extra = set(message) - set(schema) - {"t"}
    if extra:
        raise MessageError(f"{kind}: unexpected field {sorted(extra)[0]!r}")
    for name, field in schema.items():
        if name not in message:
            if field.optional:
                continue
            raise MessageError(f"{kind}: missing field {name!r}")
        if not field.check(message[name]):
            raise MessageError(f"{kind}: field {name!r} must be {field.kind}")
    return message
