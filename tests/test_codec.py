"""Canonical encoding, digests, decoding of hostile bytes, records and conclusions."""

from __future__ import annotations

import contextlib
import random

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.rules import (
    AGREED_DRAW,
    VARIANTS,
    DecodeError,
    IllegalActionError,
    MatchRecord,
    Outcome,
    Reason,
    ReplayError,
    RulesError,
    Variant,
    decode_action,
    decode_state,
    encode_action,
    every_setup,
    new_game,
    resign_action,
    start,
    variant,
)
from game.rules.chance import random_action
from game.rules.core import check_int

from .examples import examples
from .helpers import play

# The digest after 60 actions of a seeded playout: the same on every machine and Python
# version.  If a change alters one on purpose, bump ENCODING_VERSION and update these.
GOLDEN = {
    "ausgeblockt players=2 first=lot": "181f16818eccd6bdf24250420e83d6fd",
    "numeri players=2 first=lot": "195c0e5a994a2623f2026ca2a09a1a4e",
    "numeri players=3 first=lot": "ab213ed1297b49a8724e07027f9c4c02",
    "numeri players=4 first=lot": "64fb692275f59ae4cc0d028bd608088b",
    "dama:classic players=2 huffing=false": "cb82a44abf5dadf7106732e6048dc39b",
    "dama:classic players=2 huffing=true": "15c2ea8b6be97d8b1468f40da30e4194",
    "dama:mangia players=2": "3718b71ec7d1fb7d713286733be696db",
    "dama:lupo players=2 wolf=lot": "20f400299d117db5a7d2a1d9ca74326f",
    "mulino:classic players=2": "825b505b390cb9cf556af0daec4cd696",
    "mulino:misto players=2": "42f5347a2d91e43eba5a4676dbac85ab",
    "mulino:ceylonese players=2": "29d82b1c1bed4d2d26d0ee1c9e75d935",
}


def seeded_playout(setup: Variant, seed: int = 2026, steps: int = 60):
    rng = random.Random(seed)
    state = start(setup)
    for _ in range(steps):
        if state.is_terminal():
            break
        state = state.apply(random_action(state, rng))
    return state


@pytest.mark.parametrize("setup", every_setup(), ids=Variant.describe)
def test_digests_are_stable_across_machines(setup: Variant) -> None:
    assert seeded_playout(setup).digest() == GOLDEN[setup.describe()]


@pytest.mark.parametrize("setup", every_setup(), ids=Variant.describe)
def test_encoding_is_canonical_msgpack(setup: Variant) -> None:
    state = seeded_playout(setup)
    version, variant_fields, _ = msgpack.unpackb(state.encode())
    assert version == 1 and variant_fields == setup.to_fields()
    assert decode_state(state.encode()).encode() == state.encode()


def test_actions_encode_and_decode() -> None:
    for action in (0, 1, 624, 2**63, 2**64 + 5, 2**100, AGREED_DRAW, resign_action(3)):
        assert decode_action(encode_action(action)) == action
    with pytest.raises(DecodeError):
        decode_action(msgpack.packb("22-18"))


@settings(max_examples=examples(300), deadline=None, derandomize=True)
@given(data=st.binary(max_size=200))
def test_arbitrary_bytes_never_crash_the_decoders(data: bytes) -> None:
    for decode in (decode_state, decode_action, MatchRecord.decode):
        with contextlib.suppress(DecodeError):
            decode(data)


@pytest.mark.parametrize("setup", every_setup(), ids=Variant.describe)
def test_corrupted_encodings_are_refused_or_decode_to_a_valid_state(setup: Variant) -> None:
    encoded = bytearray(seeded_playout(setup).encode())
    rng = random.Random(7)
    for _ in range(300):
        corrupt = bytearray(encoded)
        for _ in range(rng.randint(1, 3)):
            corrupt[rng.randrange(len(corrupt))] = rng.randrange(256)
        try:
            state = decode_state(bytes(corrupt))
        except DecodeError:
            continue
        state.legal_actions()  # a state that decodes is one the engine can play on
        state.chance_outcomes()
        state.digest()


@pytest.mark.slow
@settings(max_examples=examples(200), deadline=None, derandomize=True)
@given(
    fields=st.recursive(
        st.none()
        | st.booleans()
        | st.integers(-(2**63), 2**64 - 1)
        | st.text(max_size=5)
        | st.binary(max_size=5),
        lambda inner: st.lists(inner, max_size=8),
        max_leaves=30,
    )
)
def test_well_formed_msgpack_with_wrong_fields_is_refused(fields) -> None:
    """Fields of any shape either are refused with a DecodeError (nothing else escapes) or
    are exactly a state's own fields: no other bytes decode to a state."""
    for name in ("mulino:classic", "dama:classic", "numeri", "ausgeblockt", "dama:lupo"):
        data = msgpack.packb([1, [name, 2, []], fields])
        try:
            state = decode_state(data)
        except DecodeError:
            continue
        assert msgpack.unpackb(state.encode())[2] == fields


def test_a_record_keeps_action_numbers_and_reads_the_first_format_of_notation() -> None:
    """Saves written before records kept numbers (version 1, notation) still open."""
    record = MatchRecord.from_notation(variant("dama"), ("22-18", "11-15", "18x11"))
    assert all(isinstance(a, int) for a in record.actions)
    assert record.notation() == ("22-18", "11-15", "18x11")
    old = msgpack.packb([1, record.variant.to_fields(), ["22-18", "11-15", "18x11"]])
    assert MatchRecord.decode(old) == record
    with pytest.raises(DecodeError, match="action 3"):
        MatchRecord.decode(
            msgpack.packb([1, record.variant.to_fields(), ["22-18", "11-15", "9-5"]])
        )
    king = new_game("dama")  # a number past 2**64 survives the binary form
    assert MatchRecord.decode(MatchRecord(king.variant, (1 << 70,)).encode()).actions == (1 << 70,)


def test_record_text_round_trip_and_replay_errors() -> None:
    state = new_game("dama", huffing=True)
    record = MatchRecord(state.variant)
    for text in ("22-18", "11-15", "18x11", "8x15"):
        action = state.parse_action(text)
        record = record.then(action)
        state = state.apply(action)
    text = record.to_text()
    assert text.startswith('[Variant "dama:classic"]\n[Players "2"]\n[Option "huffing=true"]')
    assert MatchRecord.from_text(text).replay().digest() == state.digest()
    with pytest.raises(ReplayError, match=r"action 3 \('18-10'\)"):
        MatchRecord.from_notation(record.variant, ("22-18", "11-15", "18-10"))
    opening = MatchRecord.from_notation(record.variant, ("22-18", "11-15"))
    with pytest.raises(ReplayError, match=r"action 3 \(12345\)"):
        opening.then(12345).replay()  # a number no move has: refused when replayed
    with pytest.raises(RulesError):
        MatchRecord.from_text("22-18 11-15")
    with pytest.raises(RulesError):
        MatchRecord.from_text('[Variant "chess"]\n')


def test_resignation_ends_any_running_game_and_an_agreed_draw_those_that_have_it() -> None:
    state = play(new_game("numeri", players=3), "first2 d3")
    resigned = play(state, "resign2")
    assert resigned.result().outcomes == (Outcome.WIN, Outcome.LOSS, Outcome.WIN)
    assert resigned.result().reason is Reason.RESIGNATION
    agreed = play(new_game("mulino"), "a1 draw")
    assert agreed.result().outcomes == (Outcome.DRAW, Outcome.DRAW)
    assert agreed.last_position.men[0] == 1  # the board stays for display
    assert decode_state(agreed.encode()).digest() == agreed.digest()
    with pytest.raises(IllegalActionError, match="game is over"):
        agreed.parse_action("d1")
    with pytest.raises(IllegalActionError):
        agreed.apply(resign_action(0))
    with pytest.raises(IllegalActionError):
        new_game("dama").parse_action("resign3")
    record = MatchRecord.from_notation(new_game("dama").variant, ("22-18", "draw"))
    assert record.replay().result().reason is Reason.AGREEMENT


@pytest.mark.parametrize("name", list(VARIANTS))
def test_a_draw_is_agreed_only_where_the_rules_have_one(name: str) -> None:
    """RULES.md: Dama, Mangia la dama and the three Mulino have draws by agreement; the dice
    games and Lupo e pecore, which always end in a result, do not."""
    state = new_game(name)
    while state.is_chance():
        state = state.apply(state.chance_outcomes()[0][0])
    assert VARIANTS[name].agreed_draws == (
        name.startswith(("dama", "mulino")) and name != "dama:lupo"
    )
    if VARIANTS[name].agreed_draws:
        assert state.apply(state.parse_action("draw")).result().reason is Reason.AGREEMENT
    else:
        with pytest.raises(IllegalActionError, match="no draw by agreement"):
            state.apply(state.parse_action("draw"))
        with pytest.raises(ReplayError, match="no draw by agreement"):
            MatchRecord.from_notation(state.variant, ("draw",)).replay()


@pytest.mark.parametrize(
    ("value", "fits"),
    [(3, True), (7, True), (5, True), (2, False), (8, False), (True, False), (5.0, False)],
)
def test_check_int_takes_exactly_the_whole_numbers_of_its_range(value: object, fits: bool) -> None:
    """Both ends belong to the range, one past either does not; a bool or a float is not a
    whole number here (decoded data never means 1 by True)."""
    if fits:
        assert check_int(value, 3, 7, "a count") == value
    else:
        with pytest.raises(DecodeError, match="a count must be a whole number from 3 to 7"):
            check_int(value, 3, 7, "a count")
