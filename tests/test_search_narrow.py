"""The search's null windows (``narrow``) and late-move reductions (``reduce``), hard Mulino's
search since issue 32's eighth session.

A null window only proves a move no better than the best so far, so on any tree it must give
the value plain alpha-beta gives, with no more nodes on real positions; a reduction is the one
inexact step, and it must never touch the moves that change the board's balance (mills,
removals), the move the table or a cut-off suggests, nor a move that turns out better."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from hypothesis import given, settings
from hypothesis import strategies as st

from game.ai.evaluators import board_evaluator
from game.ai.search import AlphaBeta, Budget
from game.rules import Result
from tests.mulino_lines import position


@dataclass(frozen=True)
class Tree:
    """A game tree whose shape and leaf values come from ``seed``: two to four moves a
    node, a value for every position."""

    seed: int
    path: tuple[int, ...] = ()

    def _draw(self, what: str, path: tuple[int, ...]) -> int:
        text = f"{self.seed}:{what}:{path}".encode()
        return int.from_bytes(hashlib.blake2b(text, digest_size=4).digest(), "big")

    @property
    def to_move(self) -> int:
        return len(self.path) % 2

    def legal_actions(self) -> tuple[int, ...]:
        return tuple(range(2 + self._draw("width", self.path) % 3))

    def result(self) -> Result | None:
        return None

    def _successor(self, action: int) -> Tree:
        return Tree(self.seed, (*self.path, action))

    def value(self) -> int:
        """The position's value for the side to move, -50..50."""
        return self._draw("value", self.path) % 101 - 50


class TreeEvaluator:
    def __init__(self, noisy_every: int = 0) -> None:
        self.noisy_every = noisy_every
        self.evaluated: list[tuple[int, ...]] = []

    def key(self, state: Tree) -> object:
        return state.path

    def evaluate(self, state: Tree, player: int) -> int:
        self.evaluated.append(state.path)
        return state.value() if player == state.to_move else -state.value()

    def noisy(self, state: Tree, action: int) -> bool:
        return bool(self.noisy_every) and action % self.noisy_every == 0

    def forcing(self, state: Tree) -> bool:
        return False


def _minimax(state: Tree, depth: int) -> int:
    if depth == 0:
        return state.value()
    return max(-_minimax(state._successor(a), depth - 1) for a in state.legal_actions())


def _search(seed: int, depth: int, *, narrow: bool, reduce: int = 0) -> AlphaBeta[Tree]:
    search = AlphaBeta(TreeEvaluator(), Budget(10**9), max_depth=depth)
    search.narrow, search.reduce = narrow, reduce
    return search


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 10**9), st.integers(1, 6))
def test_null_windows_give_the_exact_value_on_any_tree(seed: int, depth: int) -> None:
    tree = Tree(seed)
    found = _search(seed, depth, narrow=True).best(tree)
    assert found.score == _minimax(tree, depth)
    assert found.scores[found.action] == found.score


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 10**9), st.integers(1, 5))
def test_null_windows_choose_a_move_as_good_as_plain_alpha_beta(seed: int, depth: int) -> None:
    tree = Tree(seed)
    narrow = _search(seed, depth, narrow=True).best(tree)
    plain = _search(seed, depth, narrow=False).best(tree)
    assert narrow.score == plain.score
    assert _minimax(tree._successor(narrow.action), depth - 1) == -narrow.score


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 10**9), st.integers(1, 5), st.integers(0, 30))
def test_with_a_margin_every_move_near_the_best_keeps_its_exact_score(
    seed: int, depth: int, margin: int
) -> None:
    # the weaker levels choose among the moves within a margin of the best: null windows at
    # the root would leave those with bounds
    tree, found = Tree(seed), {}
    for narrow in (True, False):
        search = _search(seed, depth, narrow=narrow)
        search.margin = margin
        found[narrow] = search.best(tree).scores
    top = max(found[False].values())
    near = {a: v for a, v in found[False].items() if v >= top - margin}
    assert {a: found[True][a] for a in near} == near


MULINO = [
    "c4 a4 f4 d6 g7 d5 d7 a7 a1 g1 d3 c5 e5 e3 d2 d1 b4 g4 f4-f2 d6-f6 b4-b2 xe3",
    "d5 e4 d2 b4 d7 d6 d1 b6 d3 xd6 d6 f6 b2 xf6 f6 g4",
    "c4 a1 f4 d1 g1 d2 d3 a4",
]


def _mulino(line: str, depth: int, narrow: bool, reduce: int = 0) -> tuple[int, int]:
    state = position(line)
    search = AlphaBeta(board_evaluator(state), Budget(10**9), max_depth=depth)
    search.narrow, search.reduce = narrow, reduce
    found = search.best(state)
    return found.score, found.nodes


def test_null_windows_reach_the_same_value_with_fewer_nodes_on_mulino_positions() -> None:
    for line in MULINO:
        narrow, plain = _mulino(line, 6, True), _mulino(line, 6, False)
        assert narrow[0] == plain[0], line
        assert narrow[1] < plain[1], line


def test_reductions_reach_a_depth_for_fewer_nodes() -> None:
    # measured at depth 7: 11,897 · 15,296 · 48,140 nodes against 12,439 · 18,585 · 83,910
    reduced = [_mulino(line, 7, True, 3)[1] for line in MULINO]
    narrow = [_mulino(line, 7, True)[1] for line in MULINO]
    assert all(r < n for r, n in zip(reduced, narrow, strict=True))
    assert sum(reduced) < 0.75 * sum(narrow)


@dataclass(frozen=True)
class Fork:
    """The root has one move, to a position where the other side has five; whatever follows
    has one.  Every position's value (for the root's side) is 0 unless ``VALUES`` says."""

    values: tuple[tuple[tuple[int, ...], int], ...]
    path: tuple[int, ...] = ()

    @property
    def to_move(self) -> int:
        return len(self.path) % 2

    def legal_actions(self) -> tuple[int, ...]:
        return tuple(range(5)) if self.path == (0,) else (0,)

    def result(self) -> Result | None:
        return None

    def _successor(self, action: int) -> Fork:
        return Fork(self.values, (*self.path, action))


class ForkEvaluator:
    def __init__(self, noisy: frozenset[int] = frozenset()) -> None:
        self.noisy_moves = noisy

    def key(self, state: Fork) -> object:
        return state.path

    def evaluate(self, state: Fork, player: int) -> int:
        value = dict(state.values).get(state.path, 0)
        return value if player == 0 else -value

    def noisy(self, state: Fork, action: int) -> bool:
        return state.path == (0,) and action in self.noisy_moves

    def forcing(self, state: Fork) -> bool:
        return False


def _fork(
    late: int,
    shallow: int,
    deep: int,
    reduce: int,
    noisy: frozenset[int] = frozenset(),
    killer: int | None = None,
) -> int:
    """The root's score at depth 4, where the other side's moves 0–4 lead to 10 for the
    root, except ``late``, which reads ``shallow`` two plies on and ``deep`` three plies on
    (the depth of a reduced search and of a full one).  Three plies deep the others read
    -60, so that the iteration before keeps move 0 first."""
    values = [((0, a, 0, 0), 10) for a in range(5) if a != late]
    values += [((0, a, 0), -60) for a in range(5) if a != late]
    values += [((0, late, 0), shallow), ((0, late, 0, 0), deep)]
    search = AlphaBeta(ForkEvaluator(noisy), Budget(10**9), max_depth=4)
    search.narrow, search.reduce = True, reduce
    if killer is not None:
        search.killers[1] = (killer,)  # the other side's position is at ply 1
    return search.best(Fork(tuple(values))).score


def test_a_reduction_can_miss_a_late_move_that_is_only_good_deeper() -> None:
    # the one inexact step, by design: a late quiet move that reads badly a ply short
    assert _fork(late=3, shallow=50, deep=-50, reduce=3) == 10
    assert _fork(late=3, shallow=50, deep=-50, reduce=0) == -50


def test_early_moves_noisy_moves_and_killers_are_never_reduced() -> None:
    assert _fork(late=3, shallow=50, deep=-50, reduce=4) == -50
    assert _fork(late=3, shallow=50, deep=-50, reduce=3, noisy=frozenset({3})) == -50
    # moves 1–3 noisy, so the killer 4 is ordered fourth, where reductions begin
    noisy = frozenset({1, 2, 3})
    assert _fork(late=4, shallow=50, deep=-50, reduce=3, noisy=noisy) == 10
    assert _fork(late=4, shallow=50, deep=-50, reduce=3, noisy=noisy, killer=4) == -50


def test_a_reduced_move_that_beats_the_best_is_searched_again_in_full() -> None:
    # a ply short it looks best for the other side; at full depth it is the worst
    assert _fork(late=3, shallow=-50, deep=50, reduce=3) == 10
