"""Message shapes: every field checked, anything else refused with a reason."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from net.framing import FrameDecoder, FrameError, encode
from net.messages import SCHEMAS, MessageError, validate

GOOD = {
    "hello": {
        "t": "hello",
        "version": 1,
        "rules": "a" * 32,
        "peer": "b" * 32,
        "name": "Anna",
        "code": None,
    },
    "action": {"t": "action", "seq": 4, "action": "22x15x6", "digest": "0123456789abcdef" * 2},
    "reveal": {"t": "reveal", "peer": "c" * 32, "event": 3, "value": bytes(32)},
}


@pytest.mark.parametrize("kind", sorted(GOOD))
def test_well_formed_messages_pass_and_survive_framing(kind: str) -> None:
    message = GOOD[kind]
    assert validate(message) is message
    assert FrameDecoder().feed(encode(message)) == [message]


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"t": "fly"}, "unknown message type"),
        ({"extra": 1}, "unexpected field 'extra'"),
        ({"seq": -1}, "field 'seq'"),
        ({"seq": True}, "field 'seq'"),
        ({"digest": "XYZ"}, "field 'digest' must be 32 hex digits"),
        ({"action": "x" * 121}, "field 'action'"),
    ],
)
def test_ill_formed_actions_are_refused_by_name(change: dict, reason: str) -> None:
    with pytest.raises(MessageError, match=reason):
        validate({**GOOD["action"], **change})


def test_missing_fields_are_named_and_optional_ones_may_be_left_out() -> None:
    with pytest.raises(MessageError, match="missing field 'value'"):
        validate({"t": "reveal", "peer": "c" * 32, "event": 3})
    hello = dict(GOOD["hello"])
    del hello["code"]
    assert validate(hello) == hello


def test_every_type_has_a_schema_of_checked_fields() -> None:
    assert {"hello", "action", "commit", "reveal", "sync", "bye"} <= set(SCHEMAS)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(
    st.dictionaries(
        st.sampled_from(["t", "seq", "action", "digest", "x"]),
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


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.binary(max_size=200))
def test_bytes_from_the_wire_end_as_a_message_or_a_reason(data: bytes) -> None:
    try:
        for message in FrameDecoder().feed(data):
            validate(message)
    except (FrameError, MessageError) as error:
        assert str(error)
