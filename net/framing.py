"""Frames on a stream socket: a 4-byte big-endian length, then that many bytes of msgpack.

Every frame holds one message: a msgpack map with string keys whose ``"t"`` entry names the
message type.  The decoder is fed whatever bytes arrive, in any pieces, and hands back whole
messages; anything else — a frame over :data:`MAX_FRAME`, bytes that are not msgpack, a
value that is not a typed map, containers or strings past the limits — raises
:class:`FrameError` with the reason, and the connection is then to be closed.
"""

from __future__ import annotations

import struct
from typing import Any

import msgpack

MAX_FRAME = 64 * 1024
"""The largest frame body accepted, in bytes (a whole match record fits many times)."""
LIMITS = {
    "max_str_len": 16 * 1024,
    "max_bin_len": 16 * 1024,
    "max_array_len": 8192,
    "max_map_len": 64,
    "max_ext_len": 0,
}
_HEADER = struct.Struct(">I")


class FrameError(ValueError):
    """Bytes from a peer that are not a valid frame; the message says why."""


def encode(message: dict[str, Any]) -> bytes:
    """One frame carrying ``message`` (which must have a string ``"t"``)."""
    if not isinstance(message.get("t"), str):
        raise FrameError("a message is a map with a string 't' (its type)")
    body = msgpack.packb(message, use_bin_type=True)
    if len(body) > MAX_FRAME:
        raise FrameError(f"message of {len(body)} bytes is over the {MAX_FRAME}-byte limit")
    return _HEADER.pack(len(body)) + body


def decode_body(body: bytes) -> dict[str, Any]:
    """The message in one frame body."""
    try:
        message = msgpack.unpackb(body, raw=False, strict_map_key=True, **LIMITS)
    except (msgpack.UnpackException, ValueError, TypeError) as error:
        raise FrameError(f"not valid msgpack: {error}") from error
    if not isinstance(message, dict) or not isinstance(message.get("t"), str):
        raise FrameError("a message is a map with a string 't' (its type)")
    return message


class FrameDecoder:
    """Collects bytes as they arrive and returns the whole messages among them."""

    def __init__(self) -> None:
        self._buffer = bytearray()

    def feed(self, data: bytes) -> list[dict[str, Any]]:
        self._buffer += data
        messages = []
        while len(self._buffer) >= _HEADER.size:
            (length,) = _HEADER.unpack_from(self._buffer)
            if length > MAX_FRAME:
                raise FrameError(f"frame of {length} bytes is over the {MAX_FRAME}-byte limit")
            end = _HEADER.size + length
            if len(self._buffer) < end:
                break
            body = bytes(self._buffer[_HEADER.size : end])
            del self._buffer[:end]
            messages.append(decode_body(body))
        return messages

    @property
    def pending(self) -> int:
        """Bytes received that do not make a whole frame yet."""
        return len(self._buffer)
