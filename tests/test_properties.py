"""Properties every variant keeps along random playouts.

Hypothesis draws the playout's actions itself (``st.data()``), so a failure shrinks to a short
sequence of actions: each of the first ``DRAWN_ACTIONS`` is drawn as an index into the legal
actions or the chance outcomes; a longer game goes on from a drawn seed.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.rules import MatchRecord, State, Variant, decode_state, every_setup, start
from game.rules.chance import random_action

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
    assert all(a >= 0 for a in actions), "the actions below 0 are the draw and resignations"
    texts = [state.action_to_str(a) for a in actions]
    assert len(set(texts)) == len(texts), "two actions share a notation"
    for action, text in zip(actions, texts, strict=True):
        assert state.parse_action(text) == action
        state.apply(action)  # every legal action applies
    assert state.encode() == before, "apply changed the state it was called on"


DRAWN_ACTIONS = 300
"""Actions hypothesis draws one by one (and can shrink); beyond them a seeded playout goes on,
so long games stay within hypothesis's budget of drawn data."""


def drawn_action(state: State, data: st.DataObject) -> int:
    """An action of ``state`` drawn by hypothesis: any legal action, or any chance outcome."""
    if state.is_chance():
        choices = [outcome for outcome, _ in state.chance_outcomes()]
    else:
        choices = list(state.legal_actions())
    return choices[data.draw(st.integers(0, len(choices) - 1), label="choice")]


@pytest.mark.slow
@pytest.mark.parametrize("setup", every_setup(), ids=Variant.describe)
@settings(max_examples=8, deadline=None, derandomize=True)  # about 30 s for every setup
@given(data=st.data())
def test_random_playouts_keep_every_invariant(setup: Variant, data: st.DataObject) -> None:
    state = start(setup)
    record = MatchRecord(state.variant)
    rng: random.Random | None = None
    for step in range(ACTION_BOUND):
        if state.is_terminal():
            break
        check_state(state)
        if step < DRAWN_ACTIONS:
            action = drawn_action(state, data)
        else:
            rng = rng or random.Random(data.draw(st.integers(0, 2**32 - 1), label="seed"))
            action = random_action(state, rng)
        record = record.then(action)
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
