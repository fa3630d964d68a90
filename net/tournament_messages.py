"""The messages between a tournament's director and its players (docs/PROTOCOL.md §14.6),
each checked field by field before anything acts on it, in the framing of a match's
(:mod:`net.framing`).

A match record is larger than a msgpack binary may be (16 KiB), so it travels in parts:
``record`` messages of one game, numbered, each at most :data:`PART` bytes, put together
again by :class:`Parts`.  The log entries travel whole in ``entry`` (their shape is checked
by :mod:`net.tournament_log` when they are applied).
"""

from __future__ import annotations

import re
from typing import Any

from net.framing import encode
from net.messages import (
    BOOL,
    COUNT,
    ID,
    KEY,
    NONCE,
    REASON,
    SIGNATURE,
    Field,
    MessageError,
)
from net.records import MAX_RECORD

TOURNAMENT_VERSION = 2
"""2: the live boards (``board``) and watchers (``entrant.watch``)."""
PART = 15_000
"""Bytes of a match record a ``record`` message carries at most."""
MOST_PARTS = MAX_RECORD // PART + 1

_ROUND = Field("whole number 1–1024", lambda v: type(v) is int and 1 <= v <= 1024)
_BOARD = Field("whole number 0–64", lambda v: type(v) is int and 0 <= v <= 64)
_PORT = Field("whole number 1–65535", lambda v: type(v) is int and 1 <= v <= 65535)
_NAME = Field(
    "text of at most 40 characters",
    lambda v: isinstance(v, str) and len(v) <= 40 and v.isprintable(),
)
_ADDRESS = Field(
    "text of at most 64 characters",
    lambda v: isinstance(v, str) and 0 < len(v) <= 64 and v.isprintable(),
)
_MAP = Field("a map", lambda v: isinstance(v, dict))
_CODE = Field(
    "16 hex digits", lambda v: isinstance(v, str) and re.fullmatch("[0-9a-f]{16}", v) is not None
)
_PART_NUMBER = Field(
    f"whole number 0–{MOST_PARTS}", lambda v: type(v) is int and 0 <= v <= MOST_PARTS
)
_DATA = Field(f"at most {PART} bytes", lambda v: isinstance(v, bytes) and 0 < len(v) <= PART)
_OPTIONAL_HEAD = Field(
    "16 bytes or nil", lambda v: v is None or (isinstance(v, bytes) and len(v) == 16)
)
_OPTIONAL_PROOF = Field("64 bytes or nil", lambda v: v is None or SIGNATURE.check(v))
_STATE = Field("1–4096 bytes", lambda v: isinstance(v, bytes) and 0 < len(v) <= 4096)
_PLY = Field("whole number 0–100000", lambda v: type(v) is int and 0 <= v <= 100_000)
_JOIN_CODE = Field(
    "at most 16 digits, or nil",
    lambda v: v is None or (isinstance(v, str) and 0 < len(v) <= 16 and v.isdigit()),
)

SCHEMAS: dict[str, dict[str, Field]] = {
    "enter": {
        "version": Field("whole number 1–65536", lambda v: type(v) is int and 1 <= v <= 65536),
        "rules": ID,
        "key": KEY,
        "nonce": NONCE,
        "have": COUNT,
        "head": _OPTIONAL_HEAD,
    },
    "director": {"key": KEY, "sig": SIGNATURE, "nonce": NONCE, "open": _MAP},
    "entrant": {
        "sig": SIGNATURE,
        "name": _NAME,
        "computer": BOOL,
        "proof": _OPTIONAL_PROOF,
        "code": _JOIN_CODE,
        "watch": BOOL,
    },
    "admitted": {"entries": COUNT},
    "entry": {"e": _MAP},
    "record": {
        "round": _ROUND,
        "board": _BOARD,
        "part": _PART_NUMBER,
        "parts": _PART_NUMBER,
        "data": _DATA,
    },
    "hosting": {"round": _ROUND, "board": _BOARD, "port": _PORT, "code": _CODE},
    "table": {"round": _ROUND, "board": _BOARD, "address": _ADDRESS, "port": _PORT, "code": _CODE},
    "board": {"round": _ROUND, "board": _BOARD, "ply": _PLY, "state": _STATE},
    "notice": {"text": REASON},
    "ping": {"n": COUNT},
    "pong": {"n": COUNT},
    "bye": {"reason": REASON},
}
"""Tournament messages by type (``"t"``); see docs/PROTOCOL.md §14.6 for when each goes."""


def validate(message: dict[str, Any]) -> dict[str, Any]:
    """``message`` if it has exactly the fields of its type, each well formed; else
    :class:`MessageError` naming the first that is not."""
    kind = message.get("t")
    schema = SCHEMAS.get(kind) if isinstance(kind, str) else None
    if schema is None:
        raise MessageError(f"unknown message type {kind!r}")
    extra = set(message) - set(schema) - {"t"}
    if extra:
        raise MessageError(f"{kind}: unexpected field {sorted(map(str, extra))[0]!r}")
    for name, field in schema.items():
        if name not in message:
            raise MessageError(f"{kind}: missing field {name!r}")
        if not field.check(message[name]):
            raise MessageError(f"{kind}: field {name!r} must be {field.kind}")
    return message


def record_frames(number: int, board: int, data: bytes) -> list[bytes]:
    """The framed ``record`` messages carrying the match record ``data`` of game ``board``
    of round ``number``, in order."""
    pieces = [data[at : at + PART] for at in range(0, len(data), PART)] or [b""]
    return [
        encode({"t": "record", "round": number, "board": board, "part": n,
                "parts": len(pieces), "data": piece})
        for n, piece in enumerate(pieces)
    ]  # fmt: skip


class Parts:
    """Puts a match record together from its ``record`` messages, which come in order."""

    def __init__(self) -> None:
        self._game: tuple[int, int, int] | None = None
        self._pieces: list[bytes] = []

    def add(self, message: dict[str, Any]) -> tuple[int, int, bytes] | None:
        """Take one ``record`` message; the round, board and record once it is whole.
        A message out of order (not the next part of the record under way, nor the first
        of a new one) raises :class:`MessageError`."""
        game = (message["round"], message["board"], message["parts"])
        if message["part"] >= message["parts"]:
            raise MessageError("record: a part beyond the parts announced")
        if message["part"] == 0:
            self._game, self._pieces = game, []
        if game != self._game or message["part"] != len(self._pieces):
            raise MessageError("record: a part out of order")
        self._pieces.append(message["data"])
        if len(self._pieces) < game[2]:
            return None
        self._game = None
        data = b"".join(self._pieces)
        if len(data) > MAX_RECORD:
            raise MessageError("record: larger than a match record may be")
        return game[0], game[1], data
