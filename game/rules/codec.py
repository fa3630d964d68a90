"""Decoding the canonical encodings of states and actions (encoding is :meth:`State.encode`).

Everything here validates: bytes from a save file or a peer may be corrupt or hostile, and
are refused with a :class:`DecodeError` that says what is wrong.
"""

from __future__ import annotations

import msgpack

from game.rules.concluded import Concluded
from game.rules.core import ENCODING_VERSION, DecodeError, RulesError, State, check_int, check_list
from game.rules.registry import VARIANTS, find_variant
from game.rules.variants import Variant, variant_from_fields

MAX_ENCODING = 1 << 20
"""No state encodes to more than this; longer input is refused before it is unpacked."""


def unpack(data: bytes, what: str) -> object:
    """msgpack ``data`` unpacked with tight limits, or a :class:`DecodeError`."""
    if not isinstance(data, bytes | bytearray | memoryview) or len(data) > MAX_ENCODING:
        raise DecodeError(f"{what}: not a byte string of at most {MAX_ENCODING} bytes")
    try:
        return msgpack.unpackb(bytes(data), raw=False, strict_map_key=True)
    except (msgpack.UnpackException, ValueError, TypeError) as error:
        raise DecodeError(f"{what}: not valid msgpack ({error})") from error


def decode_state(data: bytes) -> State:
    """The state whose :meth:`State.encode` gave ``data``."""
    fields = unpack(data, "state")
    if not isinstance(fields, list) or len(fields) != 3 or fields[0] != ENCODING_VERSION:
        raise DecodeError(f"state: not a version {ENCODING_VERSION} state encoding")
    chosen = variant_from_fields(fields[1], VARIANTS)
    return state_from_fields(chosen, fields[2])


def state_from_fields(chosen: Variant, fields: object) -> State:
    """The state of ``chosen`` written by :meth:`State.to_fields`."""
    try:
        if isinstance(fields, list) and fields[:1] == ["concluded"]:
            _, action, before = fields
            inner = state_from_fields(chosen, before)
            check_int(action, -20, -1, "concluding action")
            concluded = inner.apply(action)
            if not isinstance(concluded, Concluded):
                raise DecodeError("not a concluding action")
            return concluded
        cls = chosen.spec.state_class
        return cls.from_fields(chosen, check_list(fields, None, f"state of {chosen.name}"))
    except DecodeError:
        raise
    except (RulesError, TypeError, ValueError, KeyError, IndexError) as error:
        raise DecodeError(f"state of {chosen.name}: {error}") from error


def action_field(action: int) -> int | bytes:
    """An action as a msgpack value: its number, or, from 2**64 on (a Dama king taking twelve
    pieces), a bin of its big-endian bytes."""
    if action >= 1 << 64:
        return action.to_bytes((action.bit_length() + 7) // 8, "big")
    return action


def action_from_field(value: object) -> int:
    """The action :func:`action_field` wrote, or a :class:`DecodeError`."""
    if isinstance(value, bytes) and 8 < len(value) <= 16 and value[0]:
        return int.from_bytes(value, "big")
    if type(value) is not int or not -20 <= value < 1 << 64:
        raise DecodeError(f"action: not an action number: {value!r}")
    return value


def encode_action(action: int) -> bytes:
    """The canonical encoding of an action (see :func:`action_field`)."""
    return msgpack.packb(action_field(action))


def decode_action(data: bytes) -> int:
    return action_from_field(unpack(data, "action"))


__all__ = ["decode_action", "decode_state", "encode_action", "find_variant"]
