"""Frames: whole messages from bytes in any pieces; everything else refused with a reason."""

from __future__ import annotations

import random
import struct

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from net.framing import MAX_FRAME, FrameDecoder, FrameError, encode

from .examples import examples

MESSAGES = [
    {"t": "hello", "version": 1, "name": "Anna"},
    {"t": "action", "seq": 7, "action": "22x15x6", "digest": "ab" * 16},
    {"t": "reveal", "event": 3, "value": bytes(32)},
]


def test_messages_survive_any_split() -> None:
    stream = b"".join(encode(m) for m in MESSAGES)
    rng = random.Random(1)
    for _ in range(200):
        decoder, got, at = FrameDecoder(), [], 0
        while at < len(stream):
            step = rng.randint(1, 9)
            got += decoder.feed(stream[at : at + step])
            at += step
        assert got == MESSAGES and decoder.pending == 0


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (struct.pack(">I", MAX_FRAME + 1), "over the"),
        (struct.pack(">I", 1) + b"\xc1", "not valid msgpack"),
        (struct.pack(">I", 1) + b"\x01", "string 't'"),
        (struct.pack(">I", 4) + msgpack.packb({"x": 1}), "string 't'"),
        (struct.pack(">I", 5) + msgpack.packb({1: "a", "t": "x"})[:5], "not valid msgpack"),
    ],
)
def test_bad_frames_are_refused_with_a_reason(data: bytes, reason: str) -> None:
    with pytest.raises(FrameError, match=reason):
        FrameDecoder().feed(data)


def test_oversized_messages_are_not_sent() -> None:
    with pytest.raises(FrameError, match="over the"):
        encode({"t": "chat", "text": "x" * (MAX_FRAME + 1)})
    with pytest.raises(FrameError):
        encode({"type": "no t"})


@settings(max_examples=examples(500), deadline=None, derandomize=True)
@given(st.binary(max_size=300))
def test_arbitrary_bytes_never_crash_the_decoder(data: bytes) -> None:
    try:
        for message in FrameDecoder().feed(data):
            assert isinstance(message["t"], str)
    except FrameError:
        pass


@settings(max_examples=examples(300), deadline=None, derandomize=True)
@given(st.integers(0, len(b"".join(encode(m) for m in MESSAGES)) - 1), st.integers(0, 255))
def test_single_byte_corruption_is_caught_or_harmless(position: int, value: int) -> None:
    stream = bytearray(b"".join(encode(m) for m in MESSAGES))
    stream[position] = value
    try:
        messages = FrameDecoder().feed(bytes(stream))
    except FrameError:
        return
    assert all(isinstance(m.get("t"), str) for m in messages)
