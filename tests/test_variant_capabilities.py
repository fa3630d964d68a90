"""What a variant can do, asked instead of its name (issue 30): each capability of
:class:`~game.rules.variants.VariantSpec` agrees with what the engine actually plays."""

from __future__ import annotations

import pytest

from game.rules import VARIANTS, variant
from game.rules.mulino import MOVE_BASE, POINT_INDEX, MulinoState
from game.rules.variants import Rule

MILL_GAMES = [name for name, spec in VARIANTS.items() if spec.state_class is MulinoState]


def test_the_mill_games_fly_with_three_and_no_other_game_flies() -> None:
    """RULES.md §4: a player left with three pieces may move one to any free point."""
    assert MILL_GAMES == ["mulino:classic", "mulino:misto", "mulino:ceylonese"]
    assert {name: spec.flies_with for name, spec in VARIANTS.items()} == {
        name: 3 if name in MILL_GAMES else 0 for name in VARIANTS
    }


@pytest.mark.parametrize("name", MILL_GAMES)
def test_a_side_down_to_its_flying_count_flies_and_one_more_piece_does_not(name: str) -> None:
    chosen = variant(name)
    flying = VARIANTS[name].flies_with
    white = "a1 d1 g1 g4 g7 a7"
    black = "b2 d2 f2 f4 f6 d6"
    for pieces, flies in ((flying, True), (flying + 1, False)):
        state = MulinoState.setup(chosen, " ".join(white.split()[:pieces]), black)
        far = MOVE_BASE + 24 * POINT_INDEX["a1"] + POINT_INDEX["e4"]  # e4: free, far from a1
        assert (far in state.legal_actions()) is flies, (name, pieces)


def test_the_rules_that_set_a_variant_apart_are_the_ones_its_engine_plays() -> None:
    assert {name: spec.rules for name, spec in VARIANTS.items() if spec.rules} == {
        "dama:mangia": frozenset({Rule.MISERE}),
        "mulino:misto": frozenset({Rule.MOVE_WHILE_PLACING}),
        "mulino:ceylonese": frozenset({Rule.EXTRA_ACTION_FOR_A_MILL_PLACED}),
    }
    for name, spec in VARIANTS.items():
        chosen = variant(name)
        assert all(chosen.has(rule) == (rule in spec.rules) for rule in Rule)


def test_who_can_play_each_variant() -> None:
    """RULES.md: Numeri for 2 to 4, every other game for 2."""
    assert {name: spec.players for name, spec in VARIANTS.items()} == {
        name: (2, 3, 4) if name == "numeri" else (2,) for name in VARIANTS
    }
