"""Computer players: legal, deterministic, able to find what must be found."""

from __future__ import annotations

import random
from functools import cache

import pytest

from game.ai.lupo_table import lookup
from game.ai.players import choose
from game.ai.rerolls import plan_roll
from game.ai.sheet_player import connection
from game.ai.track_player import judged_best
from game.ai.weights import WEIGHTS
from game.levels import LEVELS
from game.rules import Variant, every_setup, new_game, start, variant
from game.rules.chance import random_action
from game.rules.checkerboard import NEIGHBOURS, STEPS, WHITE, coords, squares_of
from game.rules.lupo import LupoState
from game.rules.mulino import MulinoState
from game.rules.numeri import OFF, STAR

from .helpers import play
from .test_dama import cap, position
from .test_numeri import setup as numeri_position

FAST = 1_500  # nodes for "hard" where a test walks through many positions


@pytest.mark.slow
@pytest.mark.parametrize("setup", every_setup(), ids=Variant.describe)
def test_every_level_answers_legally_throughout_a_game(setup: Variant) -> None:
    rng = random.Random(3)
    state = start(setup)
    decisions = 0
    while not state.is_terminal() and decisions < 150:
        if state.is_chance():
            state = state.apply(random_action(state, rng))
            continue
        for level in LEVELS:
            nodes = FAST if level == "hard" else None
            action = choose(state, level, seed=decisions, nodes=nodes).action
            assert action in state.legal_actions(), (level, state.action_to_str(action))
        state = state.apply(choose(state, LEVELS[decisions % 3], seed=1, nodes=FAST).action)
        decisions += 1


@pytest.mark.parametrize(
    "name", ["mulino:classic", "dama:classic", "numeri", "ausgeblockt", "dama:lupo"]
)
def test_same_seed_same_move(name: str) -> None:
    rng = random.Random(5)
    state = new_game(name)
    for _ in range(12):
        state = state.apply(random_action(state, rng))
    while state.is_chance():
        state = state.apply(random_action(state, rng))
    for level in LEVELS:
        first = choose(state, level, seed=42, nodes=FAST).action
        assert all(choose(state, level, seed=42, nodes=FAST).action == first for _ in range(3))


def test_dama_takes_the_double_capture_that_wins() -> None:
    state = position(white_men="c3 h2", black_men="d4 f6")
    for level in ("medium", "hard"):
        action = choose(state, level, seed=1).action
        assert state.action_to_str(action) == cap("c3", "e5", "g7")
        assert state.apply(action).result().winners() == (0,)


def test_dama_sees_a_shot_two_moves_deep() -> None:
    # White gives a man on 18 so that the recapture lines up a double jump for the win.
    state = position(white_men="e3 g3", black_men="d6 h6 b6", side=0)
    found = choose(state, "hard", seed=1)
    assert found.action in state.legal_actions() and found.depth >= 3


def test_mulino_closes_the_mill_that_wins_and_takes_a_piece() -> None:
    state = MulinoState.setup(variant("mulino:classic"), "a1 d1 g4 c4", "g7 f6 e5", side=0)
    for level in ("medium", "hard"):
        action = choose(state, level, seed=1).action
        assert state.action_to_str(action) == "g4-g1"
        after = state.apply(action)
        removal = choose(after, level, seed=1).action
        assert after.apply(removal).result().winners() == (0,)


@pytest.mark.slow
def test_mulino_runs_a_double_mill_to_the_win() -> None:
    # d1 swings between a1-d1-g1 and b2-d2-f2: every move closes a mill.
    state = MulinoState.setup(variant("mulino:classic"), "a1 d1 g1 b2 f2", "g7 d7 f6 e5 b6", side=0)
    first = choose(state, "hard", seed=1).action
    assert state.apply(first).stage == 1  # the first move already closes a mill
    rng = random.Random(2)
    for _ in range(40):
        if state.is_terminal():
            break
        if state.to_move == 0:
            state = state.apply(choose(state, "hard", seed=1).action)
        else:
            state = state.apply(rng.choice(state.legal_actions()))
    assert state.result() is not None and state.result().winners() == (0,)


def test_mulino_ceylonese_takes_its_extra_placement() -> None:
    # White's g1 closed a1-d1-g1: placing again is worth more than declining.
    state = play(new_game("mulino:ceylonese"), "a1 b2 d1 f2 a7 c3 g1")
    assert "pass" in [state.action_to_str(a) for a in state.legal_actions()]
    for level in ("medium", "hard"):
        assert state.action_to_str(choose(state, level, seed=1).action) != "pass"


@pytest.mark.slow
def test_mulino_ceylonese_extra_move_does_not_hand_over_a_mill() -> None:
    # White's last piece, g1, closes a1-d1-g1 and grants a move: b4-b2 would let b6-b4
    # close Black's a4-b4-c4; the other moves and passing are safe.
    setup = MulinoState.setup(
        variant("mulino:ceylonese"), "a1 d1 b4 d5 e3", "a4 d2 g4 c4 b6", hand=(1, 0)
    )
    state = play(setup, "g1")
    legal = [state.action_to_str(a) for a in state.legal_actions()]
    assert legal[0] == "b4-b2" and legal[-1] == "pass"
    for level in ("medium", "hard"):
        assert state.action_to_str(choose(state, level, seed=1).action) != "b4-b2"


def test_mulino_ceylonese_runs_its_extra_moves_to_the_win() -> None:
    # White's last piece closes a1-d1-g1; the extra move d1-d2 closes b2-d2-f2, removes and
    # grants another, d2-d1, which removes again: Black is down to two before it moves.
    state = MulinoState.setup(
        variant("mulino:ceylonese"), "a1 d1 b2 f2", "a7 g7 d6 b6", hand=(1, 0)
    )
    for level in LEVELS:
        line = state
        while line.to_move == 0:
            line = line.apply(choose(line, level, seed=1).action)
        assert line.result() is not None and line.result().winners() == (0,), level


def test_numeri_takes_the_end_of_the_game_that_wins() -> None:
    # The star: pawn 1 to the 30 fills the end spaces, the first seat leading 228 to 211.
    state = numeri_position([[33, OFF, 8, 34, 35], [20, 22, 24, 27, 32]], die=STAR)
    for level in ("medium", "hard"):
        for seed in range(4):
            after = state.apply(choose(state, level, seed=seed).action)
            assert after.result() is not None and after.result().winners() == (0,)


def test_numeri_does_not_end_a_game_it_would_lose() -> None:
    # The same move would end it 210 to 211: every other move keeps a chance.
    state = numeri_position([[33, OFF, OFF, 34, 35], [20, 22, 24, 27, 32]], die=STAR)
    assert state.apply(1).result().winners() == (1,)
    for level in ("medium", "hard"):
        for seed in range(4):
            assert state.apply(choose(state, level, seed=seed).action).result() is None


def test_numeri_hard_out_of_budget_plays_its_judgement() -> None:
    rng = random.Random(8)
    state = new_game("numeri", players=3)
    compared = 0
    while not state.is_terminal() and compared < 12:
        if state.is_chance():
            state = state.apply(random_action(state, rng))
            continue
        judged = judged_best(state, WEIGHTS["numeri"])
        cut_short = choose(state, "hard", seed=1, nodes=1)
        assert cut_short.action == judged and cut_short.nodes <= 1
        compared += len(state.legal_actions()) > 1
        state = state.apply(judged)


def test_lupo_hard_sheep_close_the_trap() -> None:
    state = LupoState.from_pieces(
        variant("dama:lupo", options={"wolf": 2}),
        _mask("f6 a1 c1 e1"),
        _square("h8"),
        1,
        sheep_turn=True,
    )
    action = choose(state, "hard", seed=1).action
    after = state.apply(action)
    assert after.result() is not None and after.result().winners() == (0,)


def test_lupo_hard_wolf_breaks_through_when_it_can() -> None:
    state = LupoState.from_pieces(
        variant("dama:lupo", options={"wolf": 2}),
        _mask("a3 c3 g3 h4"),
        _square("e3"),
        1,
        sheep_turn=False,
    )
    after = state.apply(choose(state, "hard", seed=1).action)
    assert after.result().reason == "breakthrough"


def test_lupo_hard_plays_perfectly_from_the_start_for_the_sheep() -> None:
    rng = random.Random(9)
    for game in range(6):
        state = play(new_game("dama:lupo", wolf=2), "")
        while not state.is_terminal():
            seat = state.to_move
            if seat == 0:  # sheep: perfect
                state = state.apply(choose(state, "hard", seed=game).action)
            else:  # wolf: any move
                state = state.apply(rng.choice(state.legal_actions()))
        assert state.result().winners() == (0,), "perfect sheep always win"


@cache
def _exact(sheep: tuple[int, ...], wolf: int, sheep_turn: bool) -> tuple[bool, int]:
    """Exhaustive search, independent of the table: (side to move wins, plies)."""
    row = [coords(s)[1] for s in range(32)]
    children = []
    if sheep_turn:
        for s in sheep:
            for to in STEPS[WHITE][s]:
                if to not in sheep and to != wolf:
                    after = tuple(sorted((*(x for x in sheep if x != s), to)))
                    if row[wolf] < min(row[x] for x in after):
                        children.append((True, 0))  # the wolf has got past: it wins
                    else:
                        children.append(_exact(after, wolf, False))
    else:
        for to in NEIGHBOURS[wolf]:
            if to not in sheep:
                if row[to] < min(row[x] for x in sheep):
                    return True, 1
                children.append(_exact(sheep, to, True))
    if not children:
        return False, 0
    wins = [p + 1 for they_win, p in children if not they_win]
    if wins:
        return True, min(wins)
    return False, max(p + 1 for _, p in children)


@pytest.mark.slow
def test_lupo_table_agrees_with_direct_search_on_sampled_positions() -> None:
    rng = random.Random(11)
    checked = 0
    while checked < 40:
        state = new_game("dama:lupo", wolf=2)
        state = state.apply(rng.choice(state.legal_actions()))  # placing
        for _ in range(rng.randrange(10, 40)):
            if state.is_terminal():
                break
            state = state.apply(rng.choice(state.legal_actions()))
        if state.is_terminal():
            continue
        sheep = tuple(squares_of(state.sheep))
        assert lookup(sheep, state.wolf, state.sheep_turn) == _exact(
            sheep, state.wolf, state.sheep_turn
        )
        checked += 1


def test_reroll_plan_is_the_exact_optimum() -> None:
    cows = {d: 1.0 if d.count(6) >= 2 else 0.0 for d in _all_throws()}
    assert plan_roll((1, 2, 3, 4, 6), 1, cows) == (6,)  # keep the cow: 1-(5/6)^4 > 0.196
    assert plan_roll((1, 2, 3, 6, 6), 2, cows) == (1, 2, 3, 6, 6)  # done: stop
    fives = {d: 1.0 if d.count(5) >= 4 else 0.0 for d in _all_throws()}
    assert plan_roll((1, 5, 5, 5, 6), 2, fives) == (5, 5, 5)


def test_connection_distance_counts_cells_still_needed() -> None:
    state = new_game("ausgeblockt", first=1)
    starts = state.starts(0)
    before = connection(starts, state.cells[0], state.cells[1])
    assert 0 < before < 12
    cell = next(
        c
        for c in range(49)
        if not (state.cells[0] | state.cells[1]) >> c & 1
        and connection(starts, state.cells[0] | 1 << c, state.cells[1]) < before
    )
    assert connection(starts, state.cells[0] | 1 << cell, state.cells[1]) == before - 1


def _all_throws():
    from itertools import combinations_with_replacement

    return list(combinations_with_replacement(range(1, 7), 5))


def _mask(names: str) -> int:
    return sum(1 << _square(n) for n in names.split())


def _square(name: str) -> int:
    from game.rules.checkerboard import parse_square

    square = parse_square(name)
    assert square is not None
    return square
