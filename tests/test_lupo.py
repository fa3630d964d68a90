"""Lupo e pecore (RULES.md §3c)."""

from __future__ import annotations

from game.rules import CHANCE, Outcome, new_game, variant
from game.rules.lupo import LupoState

from .helpers import legal, play
from .test_dama import mask, mv, n

LUPO = variant("dama:lupo", options={"wolf": 2})


def test_wolf_side_by_lot_then_wolf_placed_then_sheep_first() -> None:
    start = new_game("dama:lupo")
    assert start.to_move == CHANCE
    assert legal(start) == ["wolf1", "wolf2"]
    placing = play(start, "wolf2")
    assert placing.to_move == 1
    assert len(placing.legal_actions()) == 28  # any dark square but the sheep's
    playing = play(placing, f"@{n('d8')}")
    assert playing.to_move == 0 and playing.sheep == mask("a1 c1 e1 g1")
    assert sorted(legal(playing)) == sorted(
        [
            mv("a1", "b2"),
            mv("c1", "b2"),
            mv("c1", "d2"),
            mv("e1", "d2"),
            mv("e1", "f2"),
            mv("g1", "f2"),
            mv("g1", "h2"),
        ]
    )


def test_wolf_steps_both_ways_sheep_only_forward() -> None:
    state = LupoState.from_pieces(LUPO, mask("a1 c1 e1 g1"), n("d4") - 1, 1, sheep_turn=False)
    assert sorted(legal(state)) == sorted(mv("d4", s) for s in ("c5", "e5", "c3", "e3"))


def test_wolf_wins_by_breaking_through() -> None:
    state = LupoState.from_pieces(LUPO, mask("a3 c3 g3 h4"), n("e3") - 1, 1, sheep_turn=False)
    after = play(state, mv("e3", "f2"))
    assert after.result().outcomes == (Outcome.LOSS, Outcome.WIN)
    assert after.result().reason == "breakthrough"


def test_sheep_win_when_the_wolf_is_trapped() -> None:
    cornered = LupoState.from_pieces(LUPO, mask("g7 a1 c1 e1"), n("h8") - 1, 1, sheep_turn=False)
    assert cornered.result().outcomes == (Outcome.WIN, Outcome.LOSS)


def test_wolf_wins_when_the_sheep_cannot_move() -> None:
    state = LupoState.from_pieces(LUPO, mask("b8 d8 f8 h8"), n("a1") - 1, 1, sheep_turn=True)
    assert state.result().outcomes == (Outcome.LOSS, Outcome.WIN)
