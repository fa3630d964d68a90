"""Properties every variant keeps along random playouts (hypothesis picks the seeds)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.dice import random_action
from game.rules import MatchRecord, State, Variant, decode_state, every_setup, start

ACTION_BOUND = 20_000
"""No random playout of any variant may take more actions than this."""


def check_state(state: State) -> None:
    """Invariants of one non-terminal state and of every action open in it."""
    before = state.encode()
    if state.is_chance():
        outcomes = state.chance_outcomes()
        assert outcomes and sum(p for _, p in outcomes) == 1
        assert all(p > 0 for _, p in outcomes)
        actions = [a for a, _ in outcomes]
    else:
        actions = state.legal_actions()
        assert actions, "a non-terminal state offers an action"
    assert len(set(actions)) == len(actions)
    texts = [state.action_to_str(a) for a in actions]
    assert len(set(texts)) == len(texts), "two actions share a notation"
    for action, text in zip(actions, texts, strict=True):
        assert state.parse_action(text) == action
        state.apply(action)  # every legal action applies
    assert state.encode() == before, "apply changed the state it was called on"


@pytest.mark.parametrize("setup", every_setup(), ids=Variant.describe)
@settings(max_examples=12, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**64 - 1))
def test_random_playouts_keep_every_invariant(setup: Variant, seed: int) -> None:
    rng = random.Random(seed)
    state = start(setup)
    record = MatchRecord(state.variant)
    for step in range(ACTION_BOUND):
        if state.is_terminal():
            break
        check_state(state)
        action = random_action(state, rng)
        record = record.then(state, action)
        state = state.apply(action)
        if step % 7 == 0:
            copy = decode_state(state.encode())
            assert copy.digest() == state.digest() and copy.to_move == state.to_move
    else:
        pytest.fail(f"no end within {ACTION_BOUND} actions")
    result = state.result()
    assert result is not None and len(result.outcomes) == state.players
    assert state.legal_actions() == () and state.chance_outcomes() == []
    assert record.replay().digest() == state.digest()
    assert MatchRecord.from_text(record.to_text()) == record
    assert MatchRecord.decode(record.encode()) == record
    assert decode_state(state.encode()).result() == result
