"""The messages peers exchange, each checked field by field before anything acts on it.

A message is a map with a string ``"t"`` (its type) and exactly the fields :data:`SCHEMAS`
lists for that type, each of a given kind and within bounds.  The ``entry``, ``request`` and
``push`` messages carry a match-log entry in ``"e"``: a map whose ``"k"`` names its kind,
checked the same way against :data:`ENTRY_SCHEMAS`.  A missing, extra or ill-typed field, or
an unknown type, is refused with :class:`MessageError` naming it.  What the messages mean and
when each is sent is in docs/PROTOCOL.md; here only their shape.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from game.levels import LEVELS

PROTOCOL_VERSION = 5
"""Version 5: members witness each other's heads (``heads`` datagrams, docs/PROTOCOL.md
§6.7), so a host that shows two of them two logs is caught.  Version 4: the join code and
the vote travel in the ``proof``, after the host proved its key; the ``hello`` keeps their
fields, always nil, for a version 3 host to read it."""
HEX_ID = 32  # characters of a peer id, match id or state digest (16 bytes in hex)
ROLES = ("player", "spectator")


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
        f"text of at most {longest} characters",
        lambda v: isinstance(v, str) and len(v) <= longest and v.isprintable(),
    )


def _bytes(size: int) -> Field:
    return Field(f"{size} bytes", lambda v: isinstance(v, bytes) and len(v) == size)


def _hex(size: int) -> Field:
    digits = re.compile(f"[0-9a-f]{{{size}}}")  # a tenth of a character loop's time
    return Field(
        f"{size} hex digits", lambda v: isinstance(v, str) and digits.fullmatch(v) is not None
    )


def _one_of(*choices: str) -> Field:
    return Field("one of " + ", ".join(choices), lambda v: v in choices)


def _optional(field: Field) -> Field:
    return Field(f"{field.kind} or nil", lambda v: v is None or field.check(v), optional=True)


def _votes() -> Field:
    def check(value: object) -> bool:
        return (
            isinstance(value, list)
            and 1 <= len(value) <= 8
            and all(
                isinstance(v, list)
                and len(v) == 3
                and ID.check(v[0])
                and COUNT.check(v[1])
                and SIGNATURE.check(v[2])
                for v in value
            )
        )

    return Field("a list of 1–8 votes [peer, entries held, signature]", check)


def _map() -> Field:
    return Field("a map", lambda v: isinstance(v, dict))


BOOL = Field("true or false", lambda v: isinstance(v, bool))
COUNT = _int(0, 2**31)
EVENT = _int(1, 2**31)
SEAT = _int(-1, 3)  # -1: no seat
ID = _hex(HEX_ID)
REASON = _text(300)
KEY = _bytes(32)
NONCE = _bytes(32)
SIGNATURE = _bytes(64)
SETUP = Field(
    "a game setup [name, players, [[option, value] …]]",
    lambda v: (
        isinstance(v, list)
        and len(v) == 3
        and isinstance(v[0], str)
        and type(v[1]) is int
        and isinstance(v[2], list)
        and len(v[2]) <= 8
    ),
)
START = Field(
    "a set-up start position in FEN, as a record keeps it (absent: the game's own start)",
    lambda v: isinstance(v, str) and 0 < len(v) <= 200 and v.isprintable(),
    optional=True,
)
SEATS = Field(
    "a list of 2–4 seat levels ('' for a person)",
    lambda v: isinstance(v, list) and 2 <= len(v) <= 4 and all(s == "" or s in LEVELS for s in v),
)

SCHEMAS: dict[str, dict[str, Field]] = {
    "hello": {
        "version": _int(1, 2**16),
        "rules": ID,
        "key": KEY,
        "nonce": NONCE,
        "name": _text(40),
        "role": _one_of(*ROLES),
        "seat": SEAT,
        "listen": _int(0, 65535),
        "have": COUNT,
        "head": _optional(ID),
        "code": _optional(_text(32)),
        "vote": _optional(SIGNATURE),
    },
    "challenge": {"match": ID, "key": KEY, "nonce": NONCE, "sig": SIGNATURE},
    "proof": {"sig": SIGNATURE, "code": _optional(_text(32)), "vote": _optional(SIGNATURE)},
    "wait": {"reason": REASON},
    "welcome": {"match": ID, "you": ID, "host": ID, "seq": COUNT},
    "entry": {"seq": COUNT, "e": _map()},
    "request": {"e": _map()},
    "reject": {"reason": REASON, "kind": _text(12)},
    "want": {"from": COUNT},
    "push": {"seq": COUNT, "e": _map()},
    "ping": {"n": COUNT},
    "pong": {"n": COUNT},
    "bye": {"reason": REASON},
    "heads": {"match": ID, "seq": COUNT, "head": ID, "hs": SIGNATURE, "since": COUNT, "root": ID},
}

ENTRY_SCHEMAS: dict[str, dict[str, Field]] = {
    "match": {
        "id": ID,
        "setup": SETUP,
        "seats": SEATS,
        "code": BOOL,
        "host": ID,
        "name": _text(40),
        "chain": _int(32, 65536),
        "key": KEY,
        "start": START,
    },
    "join": {
        "peer": ID,
        "key": KEY,
        "name": _text(40),
        "role": _one_of(*ROLES),
        "seat": SEAT,
        "addr": _text(64),
        "nonce": NONCE,
        "proof": SIGNATURE,
    },
    "leave": {"peer": ID, "reason": REASON},
    "seat": {"peer": ID, "seat": SEAT},
    "ready": {"peer": ID, "ready": BOOL},
    "coach": {"peer": ID, "allow": BOOL},
    "start": {"peer": ID},
    "commit": {"peer": ID, "first": EVENT, "c": _bytes(32)},
    "reveal": {"peer": ID, "event": EVENT, "v": _bytes(32)},
    "act": {"peer": ID, "seat": _int(0, 3), "ply": COUNT, "a": _text(120), "d": ID},
    "computer": {"peer": ID, "seat": _int(0, 3), "level": _one_of("", *LEVELS)},
    "offer": {"peer": ID, "ply": COUNT},
    "end": {"peer": ID, "reason": REASON},
    "host": {"peer": ID, "addr": _text(64), "votes": _votes()},
}
"""Match-log entries by kind; ``peer`` is the entry's author, but for ``join`` and ``leave``
(by the host) where it is the peer they are about.  Every entry also has :data:`SIGNED`."""
SIGNED: dict[str, Field] = {"n": _int(1, 2**62), "at": COUNT, "sig": SIGNATURE}
"""The author's counter, the log length the author had seen, the author's signature."""
ORDERED: dict[str, Field] = {"hs": SIGNATURE}
"""The host's signature placing the entry in the log (absent from a request)."""


def _check(
    what: str, message: dict[str, Any], schema: dict[str, Field], tag: str
) -> dict[str, Any]:
    extra = set(message) - set(schema) - {tag}
    if extra:
        raise MessageError(f"{what}: unexpected field {sorted(map(str, extra))[0]!r}")
    for name, field in schema.items():
        if name not in message:
            if field.optional:
                continue
            raise MessageError(f"{what}: missing field {name!r}")
        if not field.check(message[name]):
            raise MessageError(f"{what}: field {name!r} must be {field.kind}")
    return message


def validate(message: dict[str, Any]) -> dict[str, Any]:
    """``message`` if it has exactly the fields of its type, each well formed (and, for the
    messages that carry one, a well-formed entry)."""
    kind = message.get("t")
    schema = SCHEMAS.get(kind) if isinstance(kind, str) else None
    if schema is None or not isinstance(kind, str):
        raise MessageError(f"unknown message type {kind!r}")
    _check(kind, message, schema, "t")
    if "e" in schema:
        validate_entry(message["e"], request=kind == "request")
    return message


def validate_entry(entry: dict[str, Any], request: bool = False) -> dict[str, Any]:
    """``entry`` if it is a well-formed log entry, signed by its author and, unless it is a
    ``request`` not yet placed, by the host."""
    if not isinstance(entry, dict):
        raise MessageError("an entry is a map")
    kind = entry.get("k")
    schema = ENTRY_SCHEMAS.get(kind) if isinstance(kind, str) else None
    if schema is None:
        raise MessageError(f"unknown entry kind {kind!r}")
    schema = {**schema, **SIGNED} if request else {**schema, **SIGNED, **ORDERED}
    return _check(f"{kind} entry", entry, schema, "k")
