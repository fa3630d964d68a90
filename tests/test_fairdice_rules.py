"""The fair dice against docs/PROTOCOL.md §7 written out again here from the text: every peer
must compute the same roll from the same reveals, to the bit, so the functions are checked
against that independent reading over many inputs (hypothesis), and every refusal with its
words.  Each would fail with any one comparison, bound or step of net/fairdice.py changed
(issue 28: every rule pinned by a test that fails without it; docs/TESTING.md)."""

from __future__ import annotations

import hashlib
from fractions import Fraction
from math import lcm

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from net.fairdice import (
    CHAIN_LENGTH,
    DiceError,
    HashChain,
    check_reveal,
    combine,
    digest,
    pick,
    uniform,
)

from .examples import examples

FAST = settings(max_examples=examples(60), deadline=None, derandomize=True)


def h(data: bytes) -> bytes:
    """``H``: BLAKE2b with 32-byte digests (§7)."""
    return hashlib.blake2b(data, digest_size=32).digest()


def spec_uniform(randomness: bytes, bound: int) -> int:
    """§7, 5: for j = 0, 1, … ``B_j = H(R ‖ j)`` read as four 64-bit numbers in order; the
    first ``x < ⌊2^64 / D⌋·D`` gives ``x mod D``."""
    limit = 2**64 // bound * bound
    j = 0
    while True:
        block = h(randomness + j.to_bytes(8, "big"))
        for x in (int.from_bytes(block[i : i + 8], "big") for i in (0, 8, 16, 24)):
            if x < limit:
                return x % bound
        j += 1


def spec_pick(randomness: bytes, outcomes: list[tuple[int, Fraction]]) -> int:
    """The first outcome whose cumulative numerator over ``D`` exceeds ``u``."""
    d = lcm(*(p.denominator for _, p in outcomes))
    u = spec_uniform(randomness, d)
    total = 0
    for outcome, p in outcomes:
        total += p.numerator * (d // p.denominator)
        if total > u:
            return outcome
    raise AssertionError("the probabilities do not add up to 1")


# -- the chain --------------------------------------------------------------------------------


@FAST
@given(st.binary(min_size=32, max_size=32), st.integers(1, 40))
def test_a_chain_is_its_seed_hashed_down_to_the_commitment(seed: bytes, length: int) -> None:
    chain = HashChain(seed=seed, length=length)
    value = seed
    for event in range(length, 0, -1):
        assert chain.reveal(event) == value
        value = h(value)
    assert chain.commitment == value and len(chain.values) == length + 1


def test_a_chain_covers_its_events_and_no_others() -> None:
    chain = HashChain(seed=bytes(32), length=5)
    for event in (0, 6, -1):
        with pytest.raises(DiceError) as refused:
            chain.reveal(event)
        assert str(refused.value) == f"this chain covers events 1 to 5, not {event}"
    assert HashChain().length == CHAIN_LENGTH
    assert HashChain().seed != HashChain().seed  # a secret seed of its own each


@pytest.mark.parametrize("size", [0, 31, 33])
def test_a_chain_seed_has_32_bytes(size: int) -> None:
    with pytest.raises(DiceError) as refused:
        HashChain(seed=bytes(size), length=3)
    assert str(refused.value) == "a chain seed has 32 bytes"


# -- a reveal against what it opens ----------------------------------------------------------


@FAST
@given(st.binary(min_size=32, max_size=32), st.integers(1, 12), st.integers(1, 12))
def test_a_reveal_checks_against_the_value_any_number_of_events_before(
    seed: bytes, steps: int, wrong: int
) -> None:
    """§7, 3: ``v`` hashed (event − a) times gives the value revealed at event a: a peer that
    sat out events (not present when they opened) skips them, and no other count fits."""
    chain = HashChain(seed=seed, length=steps)
    check_reveal(chain.commitment, chain.reveal(steps), steps)
    if wrong != steps:
        with pytest.raises(DiceError) as refused:
            check_reveal(chain.commitment, chain.reveal(steps), wrong)
        assert str(refused.value) == "the revealed value does not hash to the previous one"


def test_a_reveal_is_one_event_on_at_least() -> None:
    chain = HashChain(seed=bytes(32), length=2)
    for steps in (0, -1):
        with pytest.raises(DiceError) as refused:
            check_reveal(chain.commitment, chain.commitment, steps)
        assert str(refused.value) == "a reveal is for an event after the one it is checked against"
    check_reveal(chain.commitment, chain.reveal(1))  # one event on, by default


@pytest.mark.parametrize("value", [b"", b"short", bytes(31), bytes(33), bytes(64)])
def test_a_reveal_of_another_length_is_refused_even_if_it_hashes(value: bytes) -> None:
    with pytest.raises(DiceError, match=r"^the revealed value does not hash to the previous one$"):
        check_reveal(h(value), value)


# -- combine ---------------------------------------------------------------------------------


@FAST
@given(st.integers(1, 2**63), st.lists(st.binary(min_size=32, max_size=32), min_size=1, max_size=5))
def test_combine_is_the_hash_of_the_domain_the_event_and_every_reveal(
    event: int, reveals: list[bytes]
) -> None:
    expected = h(b"tavolo-dice" + event.to_bytes(8, "big") + b"".join(reveals))
    assert combine(event, reveals) == expected
    assert digest(b"tavolo-dice") == h(b"tavolo-dice")


@pytest.mark.parametrize("reveals", [[], [bytes(31)], [bytes(32), bytes(33)], [b""]])
def test_combine_takes_one_32_byte_value_per_peer(reveals: list[bytes]) -> None:
    with pytest.raises(DiceError) as refused:
        combine(1, reveals)
    assert str(refused.value) == "reveals are 32-byte values, one per peer"


# -- map ---------------------------------------------------------------------------------------


@FAST
@given(
    st.binary(min_size=1, max_size=40),
    st.one_of(st.integers(1, 100), st.integers(2**62, 2**64), st.sampled_from([6, 36, 2**63 + 1])),
)
@example(b"r", 2**63 + 1)  # most 64-bit numbers fall past the limit: later blocks decide
@example(b"r", 2**64)  # none does: every number is its own outcome
@example(b"r", 1)
def test_uniform_reads_the_blocks_as_the_protocol_says(randomness: bytes, bound: int) -> None:
    assert uniform(randomness, bound) == spec_uniform(randomness, bound)


def test_uniform_skips_every_number_past_the_limit_in_order() -> None:
    """Bound 2^63 + 1: the limit is 2^63 + 1, so about half of the numbers are skipped; over
    many draws some need a second block or its later numbers."""
    bound = 2**63 + 1
    seen_later = 0
    for n in range(200):
        randomness = n.to_bytes(4, "big")
        value = uniform(randomness, bound)
        assert value == spec_uniform(randomness, bound)
        first = int.from_bytes(h(randomness + bytes(8))[:8], "big")
        seen_later += first >= bound
    assert seen_later > 50


@pytest.mark.parametrize("bound", [0, -1])
def test_uniform_needs_a_positive_bound(bound: int) -> None:
    with pytest.raises(DiceError) as refused:
        uniform(b"r", bound)
    assert str(refused.value) == "the bound must be positive"


OUTCOMES = st.lists(st.integers(1, 9), min_size=1, max_size=6).map(
    lambda weights: [(n, Fraction(w, sum(weights))) for n, w in enumerate(weights)]
)


@FAST
@given(st.binary(min_size=32, max_size=32), OUTCOMES)
def test_pick_is_the_outcome_whose_shares_hold_the_uniform_point(
    randomness: bytes, outcomes: list[tuple[int, Fraction]]
) -> None:
    assert pick(randomness, outcomes) == spec_pick(randomness, outcomes)


def test_pick_refuses_a_distribution_that_is_not_one() -> None:
    with pytest.raises(DiceError, match="do not add up to 1"):
        pick(bytes(32), [(0, Fraction(1, 3)), (1, Fraction(1, 3))])
