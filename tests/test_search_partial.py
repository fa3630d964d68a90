"""The search's last iteration, cut short by its budget: with ``partial`` (hard Mulino's
search, issue 32) a move the deeper iteration already scored above the last iteration's
best is played; without, the whole iteration is thrown away."""

from __future__ import annotations

from dataclasses import dataclass

from game.ai.search import AlphaBeta, Budget
from game.rules import Result

A, B, C = 0, 1, 2
VALUE = {(A,): 10, (B,): 0, (C,): -5, (A, 0): -50, (B, 0): 20}
"""What the root's player makes of a position: one ply deep A looks best, two deep B."""
C_REPLIES = 100
"""C's replies: only the last refutes C, so the deeper iteration must look at every one and
runs out of budget among them."""


@dataclass(frozen=True)
class Toy:
    path: tuple[int, ...] = ()

    @property
    def to_move(self) -> int:
        return len(self.path) % 2

    def legal_actions(self) -> tuple[int, ...]:
        if not self.path:
            return (A, B, C)
        return tuple(range(C_REPLIES)) if self.path == (C,) else (0,)

    def result(self) -> Result | None:
        return None

    def _successor(self, action: int) -> Toy:
        return Toy((*self.path, action))


class ToyEvaluator:
    def key(self, state: Toy) -> object:
        return state.path

    def evaluate(self, state: Toy, player: int) -> int:
        path = state.path[:2]  # deeper, a line keeps the value it had two plies in
        if path[:1] == (C,) and len(path) == 2:
            value = -100 if path[1] == C_REPLIES - 1 else 100
        else:
            value = VALUE[path]
        return value if player == 0 else -value

    def noisy(self, state: Toy, action: int) -> bool:
        return False

    def forcing(self, state: Toy) -> bool:
        return False


def _searched(partial: bool, nodes: int, margin: int = 0) -> tuple[int, int]:
    """The move and the last depth finished."""
    search = AlphaBeta(ToyEvaluator(), Budget(nodes))
    search.partial, search.margin = partial, margin
    found = search.best(Toy())
    return found.action, found.depth


# One node a child at depth 1 (3 nodes), then A and B at depth 2 with their replies (4):
# C's hundred replies are where a budget of 20 stops.
def test_a_better_move_from_the_stopped_iteration_is_played() -> None:
    assert _searched(partial=True, nodes=20) == (B, 1)


def test_the_root_s_scores_stay_those_of_the_finished_iteration() -> None:
    search = AlphaBeta(ToyEvaluator(), Budget(20))
    search.partial = True
    found = search.best(Toy())
    assert found.action == B and found.scores == {A: 10, B: 0, C: -5}


def test_without_partial_or_with_a_margin_the_stopped_iteration_counts_for_nothing() -> None:
    assert _searched(partial=False, nodes=20) == (A, 1)
    assert _searched(partial=True, nodes=20, margin=5) == (A, 1)


def test_the_stopped_iteration_is_not_trusted_before_the_last_best_is_rescored() -> None:
    # a budget of 5 stops inside A's depth-2 search: B, not yet searched deeper, stays out
    assert _searched(partial=True, nodes=5) == (A, 1)


def test_a_finished_search_is_the_same_either_way() -> None:
    assert _searched(partial=True, nodes=10_000) == _searched(partial=False, nodes=10_000)
