"""Fair dice: commitments bind, reveals check, and the mapping onto outcomes is exact."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.rules import new_game
from net.fairdice import (
    DIGEST,
    DiceError,
    HashChain,
    check_reveal,
    combine,
    digest,
    pick,
    uniform,
)

from .examples import examples


def test_a_chain_reveals_preimages_of_its_commitment_in_turn() -> None:
    chain = HashChain(seed=bytes(range(32)), length=10)
    previous = chain.commitment
    for event in range(1, 11):
        revealed = chain.reveal(event)
        check_reveal(previous, revealed)
        previous = revealed
    assert chain.reveal(10) == bytes(range(32))
    with pytest.raises(DiceError):
        chain.reveal(11)


def test_a_forged_or_replayed_reveal_is_refused() -> None:
    chain = HashChain(length=5)
    with pytest.raises(DiceError, match="does not hash"):
        check_reveal(chain.commitment, bytes(DIGEST))  # forged
    with pytest.raises(DiceError, match="does not hash"):
        check_reveal(chain.reveal(1), chain.reveal(1))  # the same value twice
    with pytest.raises(DiceError):
        check_reveal(chain.commitment, b"short")


def test_combined_randomness_depends_on_every_peer_and_the_event() -> None:
    a, b = HashChain(length=3), HashChain(length=3)
    both = combine(1, [a.reveal(1), b.reveal(1)])
    assert both != combine(1, [a.reveal(1), bytes(DIGEST)])
    assert both != combine(2, [a.reveal(1), b.reveal(1)])
    assert both == combine(1, [a.reveal(1), b.reveal(1)])  # the same on every machine


def test_uniform_rejects_the_biased_tail(monkeypatch: pytest.MonkeyPatch) -> None:
    # For bound 3 the largest multiple of 3 below 2**64 is 2**64 - 1: that number itself
    # would favour 0, so it is skipped and the next 64 bits decide (5 mod 3 = 2).
    from net import fairdice

    block = (2**64 - 1).to_bytes(8, "big") + (5).to_bytes(8, "big") + bytes(16)
    monkeypatch.setattr(fairdice, "digest", lambda data: block)
    assert fairdice.uniform(b"r", 3) == 2
    assert fairdice.uniform(b"r", 2) == 1  # for 2, 2**64 - 1 is fine: it is odd


@pytest.mark.slow
def test_pick_follows_the_exact_probabilities() -> None:
    state = new_game("ausgeblockt", first=1)
    outcomes = state.chance_outcomes()
    counts = Counter(pick(digest(n.to_bytes(4, "big")), outcomes) for n in range(20_000))
    probability = dict(outcomes)
    for outcome, seen in counts.items():
        expected = float(probability[outcome]) * 20_000
        assert abs(seen - expected) < 6 * max(1.0, expected) ** 0.5 + 3


@settings(max_examples=examples(200), deadline=None, derandomize=True)
@given(st.binary(min_size=1, max_size=40), st.integers(1, 10**6))
def test_uniform_stays_in_range(randomness: bytes, bound: int) -> None:
    assert 0 <= uniform(randomness, bound) < bound


def test_pick_checks_the_distribution() -> None:
    with pytest.raises(DiceError):
        pick(bytes(32), [(0, Fraction(1, 3)), (1, Fraction(1, 3))])
