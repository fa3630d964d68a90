"""The review of a finished match (game/ai/review.py): hand-made blunders are blunders with
the engine's reason, the better move is best, and the advantage follows the match."""

from __future__ import annotations

from game.ai.review import LABELS, review
from game.rules import MatchRecord, variant


def _record(name: str, moves: str) -> MatchRecord:
    return MatchRecord(variant(name), tuple(moves.split()))


def test_a_dama_move_that_hangs_a_piece_to_a_double_capture_is_a_blunder() -> None:
    hanging = review(_record("dama:classic", "24-19 10-14 27-24 6-10 19-16"), {0, 1})
    judged = hanging.decisions[-1]
    assert (judged.ply, judged.played, judged.label) == (4, "19-16", "blunder")
    assert judged.reason == "allows_capture" and judged.reason_move == "11x20x27"
    assert judged.best != "19-16"
    better = review(_record("dama:classic", f"24-19 10-14 27-24 6-10 {judged.best}"), {0})
    assert better.decisions[-1].label == "best" and better.decisions[-1].loss == 0


def test_a_mulino_placing_that_lets_a_mill_in_is_a_blunder() -> None:
    # White has a1 and g1: Black must block d1; b2 lets the mill a1-d1-g1 close.
    careless = review(_record("mulino:classic", "a1 d7 g1 b2"), {1})
    judged = careless.decisions[-1]
    assert (judged.ply, judged.played, judged.label) == (3, "b2", "blunder")
    assert judged.best == "d1"
    assert judged.reason == "allows_mill" and judged.reason_move == "d1"
    blocked = review(_record("mulino:classic", "a1 d7 g1 d1"), {1})
    assert blocked.decisions[-1].label == "best"


def test_only_the_people_asked_for_are_judged_and_the_advantage_covers_every_state() -> None:
    record = _record("mulino:classic", "a1 d7 g1 b2 d1 xb2")
    both, white = review(record, {0, 1}), review(record, {0})
    assert [j.seat for j in white.decisions] == [0, 0, 0, 0]  # a1, g1, d1 and the removal
    assert len(both.decisions) == 6 and {j.label for j in both.decisions} <= set(LABELS)
    assert len(both.advantage) == len(record.actions) + 1
    assert both.advantage[-1] > both.advantage[3]  # White is a piece up after the mill
    assert (
        white.label_counts(0)["best"]
        + sum(n for label, n in white.label_counts(0).items() if label != "best")
        == 4
    )


def test_a_review_can_be_cancelled_and_reports_its_progress() -> None:
    record = _record("dama:classic", "24-19 10-14 27-24 6-10 19-16 11x20x27 31x24")
    seen: list[tuple[int, int]] = []
    assert review(record, {0, 1}, lambda done, of: seen.append((done, of)),
                  lambda: len(seen) >= 2) is None  # fmt: skip
    assert seen == [(1, 7), (2, 7)]
