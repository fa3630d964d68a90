"""Message shapes: every field checked, anything else refused with a reason."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from net.framing import FrameDecoder, FrameError, encode
from net.messages import ENTRY_SCHEMAS, SCHEMAS, MessageError, validate

from .examples import examples

GOOD = {
    "hello": {
        "t": "hello",
        "version": 1,
        "rules": "a" * 32,
        "key": bytes(32),
        "nonce": bytes(32),
        "name": "Anna",
        "role": "player",
        "seat": -1,
        "listen": 40000,
        "have": 0,
        "head": None,
        "code": None,
        "vote": None,
    },
    "request": {"t": "request", "e": {"k": "act", "peer": "c" * 32, "seat": 1, "ply": 4,
                                      "a": "22x15x6", "d": "0123456789abcdef" * 2, "n": 5,
                                      "at": 12, "sig": bytes(64)}},
    "entry": {"t": "entry", "seq": 9, "e": {"k": "reveal", "peer": "c" * 32, "event": 3,
                                            "v": bytes(32), "n": 2, "at": 8, "sig": bytes(64),
                                            "hs": bytes(64)}},
}  # fmt: skip


@pytest.mark.parametrize("kind", sorted(GOOD))
def test_well_formed_messages_pass_and_survive_framing(kind: str) -> None:
    message = GOOD[kind]
    assert validate(message) is message
    assert FrameDecoder().feed(encode(message)) == [message]


def _act(**change) -> dict:
    return {"t": "request", "e": {**GOOD["request"]["e"], **change}}


@pytest.mark.parametrize(
    ("message", "reason"),
    [
        ({"t": "fly"}, "unknown message type"),
        ({**GOOD["hello"], "extra": 1}, "hello: unexpected field 'extra'"),
        (_act(ply=-1), "act entry: field 'ply'"),
        (_act(ply=True), "act entry: field 'ply'"),
        (_act(d="XYZ"), "field 'd' must be 32 hex digits"),
        (_act(a="x" * 121), "field 'a'"),
        (_act(a="22-18\x00"), "field 'a'"),
        (_act(hs=bytes(64)), "act entry: unexpected field 'hs'"),
        (_act(sig=bytes(63)), "field 'sig' must be 64 bytes"),
        ({"t": "request", "e": {"k": "teleport"}}, "unknown entry kind 'teleport'"),
        ({**GOOD["hello"], "role": "king"}, "field 'role' must be one of player, spectator"),
    ],
)
def test_ill_formed_messages_are_refused_by_name(message: dict, reason: str) -> None:
    with pytest.raises(MessageError, match=reason):
        validate(message)


def test_missing_fields_are_named_and_optional_ones_may_be_left_out() -> None:
    with pytest.raises(MessageError, match="missing field 'v'"):
        entry = {k: v for k, v in GOOD["entry"]["e"].items() if k != "v"}
        validate({"t": "entry", "seq": 1, "e": entry})
    with pytest.raises(MessageError, match="missing field 'hs'"):
        entry = {k: v for k, v in GOOD["entry"]["e"].items() if k != "hs"}
        validate({"t": "entry", "seq": 1, "e": entry})
    hello = dict(GOOD["hello"])
    del hello["code"], hello["head"], hello["vote"]
    assert validate(hello) == hello


def test_a_proof_carries_the_code_and_the_vote_since_version_4() -> None:
    """Version 4 moved them from the hello, sent to whoever answers, into the proof, sent
    once the host proved its key: optional, nil, or of the hello's old kinds."""
    bare = {"t": "proof", "sig": bytes(64)}
    full = {**bare, "code": "4711", "vote": bytes(64)}
    for proof in (bare, {**bare, "code": None, "vote": None}, full):
        assert validate(proof) == proof
    with pytest.raises(MessageError, match="field 'code' must be text of at most 32"):
        validate({**full, "code": "4" * 33})
    with pytest.raises(MessageError, match="field 'vote' must be 64 bytes or nil"):
        validate({**full, "vote": bytes(63)})


def test_every_type_has_a_schema_of_checked_fields() -> None:
    assert {"hello", "welcome", "entry", "request", "reject", "bye"} <= set(SCHEMAS)
    assert {"match", "commit", "reveal", "act", "join", "leave", "host"} <= set(ENTRY_SCHEMAS)


@settings(max_examples=examples(300), deadline=None, derandomize=True)
@given(
    st.dictionaries(
        st.sampled_from(["t", "seq", "e", "reason", "x"]),
        st.none() | st.booleans() | st.integers() | st.text(max_size=40) | st.binary(max_size=40),
        max_size=5,
    )
)
def test_arbitrary_maps_are_accepted_only_when_well_formed(message: dict) -> None:
    try:
        validate(message)
    except MessageError:
        return
    assert message["t"] in SCHEMAS


@settings(max_examples=examples(300), deadline=None, derandomize=True)
@given(st.binary(max_size=200))
def test_bytes_from_the_wire_end_as_a_message_or_a_reason(data: bytes) -> None:
    try:
        for message in FrameDecoder().feed(data):
            validate(message)
    except (FrameError, MessageError) as error:
        assert str(error)
