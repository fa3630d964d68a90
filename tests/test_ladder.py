"""The ladder of levels: its names (old saves' names still levels), every rung plays every
game legally and deterministically, and the beginner errs as people do."""

from __future__ import annotations

import random

import pytest

from game.ai import sheet_player, track_player
from game.ai.players import NODES, choose
from game.ai.styles import BOARD
from game.levels import LADDER, LEVELS, RUNGS, canonical, rung
from game.rules import RulesError, Variant, every_setup, new_game, start, variant
from game.rules.chance import random_action
from game.rules.mulino import MulinoState
from game.session.seats import Seat, SeatKind

from . import examples


def test_the_named_levels_are_rungs_of_the_ladder() -> None:
    assert len(LADDER) == RUNGS >= 8
    assert [rung(level) for level in LEVELS] == [2, 5, 8]
    assert all(LADDER[rung(level) - 1] == level for level in LEVELS)
    assert [canonical(str(n)) for n in range(1, RUNGS + 1)] == list(LADDER)
    assert canonical("level-5") == "medium" and canonical("level-1") == "level-1"
    for wrong in ("level-0", "level-9", "9", "wizard", "level-", "level-٣", ""):
        with pytest.raises(ValueError):
            rung(wrong)


def test_a_seat_takes_every_rung_and_an_old_save_s_names() -> None:
    for level in LADDER:
        seat = Seat.from_fields(["computer", level, ""])
        assert seat.level == level
    with pytest.raises(ValueError):
        Seat(SeatKind.COMPUTER, "level-2")  # stored as its name, easy


def test_every_game_has_a_budget_and_a_style_for_every_rung() -> None:
    assert all(len(table) == RUNGS for table in NODES.values())
    assert len(BOARD) == len(sheet_player.STYLES) == len(track_player.STYLES) == RUNGS


def _one_a_family_quick(setups: list[Variant]) -> list[object]:
    """``setups`` as parameters: the first of each family (Dama, Mulino…) in the quick loop,
    the others in the whole suite only (marked slow)."""
    seen: set[str] = set()
    params: list[object] = []
    for setup in setups:
        family = setup.name.split(":")[0]
        quick = family not in seen
        seen.add(family)
        marks = () if quick else (pytest.mark.slow,)
        params.append(pytest.param(setup, marks=marks, id=setup.describe()))
    return params


@pytest.mark.parametrize("setup", _one_a_family_quick([s for s in every_setup() if s.players == 2]))
def test_every_rung_answers_legally_and_the_same_for_the_same_seed(setup: Variant) -> None:
    rng = random.Random(11)
    state = start(setup)
    decisions = 0
    walk = WALK // 4 if examples.quick else WALK  # the quick loop walks a quarter of it
    while not state.is_terminal() and decisions < walk:
        if state.is_chance():
            state = state.apply(random_action(state, rng))
            continue
        for level in LADDER:
            first = choose(state, level, seed=decisions, nodes=NODES_CAP).action
            assert first in state.legal_actions(), (level, state.action_to_str(first))
            assert choose(state, level, seed=decisions, nodes=NODES_CAP).action == first
        state = state.apply(rng.choice(state.legal_actions()))
        decisions += 1


NODES_CAP = 600
"""Nodes per decision in the walk above (a test of legality, not of strength)."""
WALK = 24
"""Decisions of the walk above in the whole suite."""


def test_a_level_is_asked_for_by_name_or_number() -> None:
    state = new_game("mulino:classic")
    assert (
        choose(state, "level-8", 3, nodes=500).action == choose(state, "hard", 3, nodes=500).action
    )
    assert choose(state, "2", 3).level == "easy"
    with pytest.raises(RulesError):
        choose(state, "level-12", 3)


def test_the_beginner_sometimes_misses_the_winning_mill_that_level_3_never_misses() -> None:
    state = MulinoState.setup(variant("mulino:classic"), "a1 d1 g4 c4", "g7 f6 e5", side=0)
    mill = state.parse_action("g4-g1")  # closes a1-d1-g1: Black is left with two men
    assert all(choose(state, "level-3", seed).action == mill for seed in range(10))
    beginner = [choose(state, "level-1", seed).action for seed in range(60)]
    missed = sum(action != mill for action in beginner)
    assert 5 < missed < 55  # sometimes, not always: a person's mistake
