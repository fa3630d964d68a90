"""The exact odds of an Ausgeblockt turn (game/ai/odds.py), checked against a brute-force
enumeration written here: every ordered roll of the dice, every choice of dice by position,
exact fractions — nothing of the reroll programme the odds are computed with."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import combinations, product

import pytest

from game.ai.odds import turn_odds
from game.rules import new_game, variant
from game.rules.ausgeblockt import DECIDE, MARK, ROLL, AusgeblocktState, parse_cell
from game.rules.boards import COW

AUSGEBLOCKT = variant("ausgeblockt")


def _state(dice: str, attempts: int, *, taken_by_o: str = "", chain: str = "") -> AusgeblocktState:
    """X to keep dice of the throw ``dice`` (digits, 6 for a cow) after ``attempts`` rolls."""
    start = new_game("ausgeblockt", first=1)
    sheet = start.sheet
    x = start.cells[0] | (1 << parse_cell(chain) if chain else 0)  # a chain starts at a mark
    o = start.cells[1]
    for symbol in taken_by_o:
        wanted = COW if symbol == "C" else int(symbol)
        for cell, shown in enumerate(sheet.symbols):
            if shown == wanted and not x >> cell & 1:
                o |= 1 << cell
    faces = sorted(int(d) for d in dice)
    stage = DECIDE if faces else ROLL
    fields = [[x, o], 0, stage, faces, [], attempts,
              parse_cell(chain) if chain else -1, None]  # fmt: skip
    return AusgeblocktState.from_fields(AUSGEBLOCKT, fields)


def _free_symbols(state: AusgeblocktState) -> frozenset[int]:
    """The symbols X may mark: free cells, next to the chain's cell in chain mode."""
    found = set()
    for cell, symbol in enumerate(state.sheet.symbols):
        if (state.cells[0] | state.cells[1]) >> cell & 1:
            continue
        if state.chain >= 0:
            row, col = divmod(cell, 7)
            chain_row, chain_col = divmod(state.chain, 7)
            if max(abs(row - chain_row), abs(col - chain_col)) != 1:
                continue
        found.add(symbol)
    return frozenset(found)


def _succeeds(throw: tuple[int, ...], symbols: frozenset[int], quad: bool) -> bool:
    counts = Counter(throw)
    for symbol in symbols:
        if symbol not in (1, 2, 3, 4, 5, COW):
            continue
        enough = 2 if symbol == COW else 3
        if counts[symbol] >= enough and (counts[symbol] >= 4 or not quad):
            return True
    return False


@cache
def _keeping(kept: tuple[int, ...], rolls: int, symbols: frozenset[int], quad: bool) -> Fraction:
    """The chance of success keeping ``kept`` with ``rolls`` rolls left, playing best after."""
    others = 5 - len(kept)
    total = Fraction(0)
    for rolled in product(range(1, 7), repeat=others):
        total += _best(tuple(sorted(kept + rolled)), rolls - 1, symbols, quad)
    return total / 6**others


@cache
def _best(throw: tuple[int, ...], rolls: int, symbols: frozenset[int], quad: bool) -> Fraction:
    now = Fraction(int(_succeeds(throw, symbols, quad)))
    if rolls == 0:
        return now
    choices = [
        _keeping(tuple(sorted(throw[i] for i in picked)), rolls, symbols, quad)
        for n in range(5)
        for picked in combinations(range(5), n)
    ]
    return max(now, *choices)


CASES = {
    "first roll of the game, nothing rolled yet": ("", 0, "", ""),
    "three 1s after the first roll": ("11125", 1, "", ""),
    "a cow pair and junk, last reroll": ("66234", 2, "", ""),
    "cows and 5s all taken by O": ("55566", 1, "C5", ""),
    "chain mode around d4, after the second roll": ("33312", 2, "", "d4"),
    "chain mode at a corner, after the first roll": ("44461", 1, "", "a1"),
}


@pytest.mark.parametrize("case", CASES)
def test_the_odds_shown_are_the_exact_chances_of_every_choice(case: str) -> None:
    dice, attempts, taken, chain = CASES[case]
    state = _state(dice, attempts, taken_by_o=taken, chain=chain)
    symbols = _free_symbols(state)
    odds = turn_odds(state)
    assert odds is not None
    rolls = 3 - attempts
    throw = tuple(sorted(int(d) for d in dice))
    for kept, chances in odds.by_keep.items():
        for quad, shown in ((False, chances.mark), (True, chances.quad)):
            if kept == throw and throw:  # stopping: this throw is the last
                exact = Fraction(int(_succeeds(throw, symbols, quad)))
            else:
                exact = _keeping(kept, rolls, symbols, quad)
            assert shown == pytest.approx(float(exact), abs=1e-12), (kept, quad)
    every = [_keeping(k, rolls, symbols, False) for k in odds.by_keep if k != throw or not throw]
    if throw:
        every.append(Fraction(int(_succeeds(throw, symbols, False))))
    assert odds.best.mark == pytest.approx(float(max(every)), abs=1e-12)
    assert odds.of(odds.best_keep_for_mark).mark == odds.best.mark
    assert odds.of(odds.best_keep_for_quad).quad == odds.best.quad


def test_a_few_chances_worked_by_hand() -> None:
    # Nothing rolled, last chance: with three 1s in hand and one roll left, keeping them
    # all (stopping) marks for sure; a quad needs a 1 from two dice: 1 - (5/6)^2.
    odds = turn_odds(_state("11125", 2))
    assert odds.of((1, 1, 1, 2, 5)).mark == 1.0
    assert odds.of((1, 1, 1)).quad == pytest.approx(11 / 36)
    # With every 1 on the sheet taken, three 1s mark nothing.
    taken = turn_odds(_state("11125", 2, taken_by_o="1"))
    assert taken.of((1, 1, 1, 2, 5)).mark == 0.0
    # Keeping one cow with one roll left: at least one more cow among four dice.
    assert turn_odds(_state("61234", 2, taken_by_o="12345")).of((6,)).mark == pytest.approx(
        1 - (5 / 6) ** 4
    )


def test_no_odds_while_marking_or_while_the_dice_roll() -> None:
    state = _state("11125", 3)
    marking = AusgeblocktState.from_fields(
        AUSGEBLOCKT, [list(state.cells), 0, MARK, [1, 1, 1, 2, 5], [], 3, -1, None]
    )
    assert turn_odds(marking) is None
    rolling = AusgeblocktState.from_fields(
        AUSGEBLOCKT, [list(state.cells), 0, ROLL, [1, 1, 1, 2, 5], [1, 1, 1], 1, -1, None]
    )
    assert turn_odds(rolling) is None


def _earns_extra_roll(before, after, side: int) -> bool:
    """RULES.md §2: after the move, a chain of three or more of the player's own pawns on
    consecutive spaces that holds a pawn moved in this roll (written here from the rule)."""
    if after.is_terminal():
        return False
    mine = {at for at in after.pawns[side] if at >= 0}
    moved = {at for at, was in zip(after.pawns[side], before.pawns[side], strict=True)
             if at != was}  # fmt: skip
    for at in moved:
        low, high = at, at
        while low - 1 in mine:
            low -= 1
        while high + 1 in mine:
            high += 1
        if high - low + 1 >= 3:
            return True
    return False


@pytest.mark.slow
def test_numeri_odds_of_an_extra_roll_are_counted_over_the_six_faces() -> None:
    import random

    from game.ai.odds import extra_roll_moves, roll_odds
    from game.rules.chance import random_action

    checked = 0
    for seed in range(30):
        state = new_game("numeri", players=2 + seed % 3)
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.is_chance() and state.stage == 1:
                odds = roll_odds(state)
                faces = 0
                for face, _p in state.chance_outcomes():
                    rolled = state.apply(face)
                    earning = tuple(
                        m for m in rolled.legal_actions()
                        if _earns_extra_roll(rolled, rolled.apply(m), rolled.side)
                    )  # fmt: skip
                    assert odds.by_face[face] == earning == extra_roll_moves(rolled)
                    faces += bool(earning)
                assert odds.extra == pytest.approx(faces / 6)
                checked += 1
            state = state.apply(random_action(state, rng))
    assert checked > 500
