"""The review of a finished match (game/ai/review.py): hand-made blunders are blunders with
the engine's reason, the better move is best, and the advantage follows the match."""

from __future__ import annotations

import pytest

from game.ai.review import LABELS, REVIEW_VERSION, review, review_from_bytes, review_to_bytes
from game.names import review_reason
from game.rules import MatchRecord, variant


def _record(name: str, moves: str) -> MatchRecord:
    return MatchRecord.from_notation(variant(name), tuple(moves.split()))


@pytest.mark.slow
def test_a_dama_move_that_hangs_a_piece_to_a_double_capture_is_a_blunder() -> None:
    hanging = review(_record("dama:classic", "24-19 10-14 27-24 6-10 19-16"), {0, 1})
    judged = hanging.decisions[-1]
    assert (judged.ply, judged.played, judged.label) == (4, "19-16", "blunder")
    assert judged.reason == "allows_capture" and judged.reason_move == "11x20x27"
    assert judged.best != "19-16"
    better = review(_record("dama:classic", f"24-19 10-14 27-24 6-10 {judged.best}"), {0})
    assert better.decisions[-1].label == "best" and better.decisions[-1].loss == 0


@pytest.mark.slow
def test_a_mulino_placing_that_lets_a_mill_in_is_a_blunder() -> None:
    # White has a1 and g1: Black must block d1; b2 lets the mill a1-d1-g1 close.
    careless = review(_record("mulino:classic", "a1 d7 g1 b2"), {1})
    judged = careless.decisions[-1]
    assert (judged.ply, judged.played, judged.label) == (3, "b2", "blunder")
    assert judged.best == "d1"
    assert judged.reason == "allows_mill" and judged.reason_move == "d1"
    blocked = review(_record("mulino:classic", "a1 d7 g1 d1"), {1})
    assert blocked.decisions[-1].label == "best"


@pytest.mark.slow
def test_only_the_people_asked_for_are_judged_and_the_advantage_covers_every_state() -> None:
    record = _record("mulino:classic", "a1 d7 g1 b2 d1 xb2")
    both, white = review(record, {0, 1}), review(record, {0})
    assert [j.seat for j in white.decisions] == [0, 0, 0, 0]  # a1, g1, d1 and the removal
    assert len(both.decisions) == 6 and {j.label for j in both.decisions} <= set(LABELS)
    assert len(both.advantage) == len(record.actions) + 1
    # White is a piece up after the mill: better than before it was threatened (from b2
    # on the search sees it coming, by how much depends on its depth)
    assert both.advantage[-1] > max(both.advantage[:3])
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


@pytest.mark.slow
def test_the_review_screen_judges_shows_the_better_move_and_is_kept_with_the_save(
    tmp_path, monkeypatch
) -> None:
    import pygame

    from game.client.scenes.results import ResultsScene
    from game.rules import resign_action
    from game.session.match import Match
    from game.session.seats import Seat, SeatKind
    from tests.client_driver import Driver

    drive = Driver(tmp_path, size=(1280, 720))
    seats = [Seat(), Seat(SeatKind.COMPUTER, "easy")]
    match = Match.new(variant("dama:classic"), seats, 11)
    for text in ["24-19", "10-14", "27-24", "6-10", "19-16", "11x20x27"]:
        match.play(match.state.parse_action(text))
    match.play(resign_action(0))
    drive.app.saves.store.save(match)  # as the autosave keeps a finished match
    drive.app.push(ResultsScene(drive.app, match))
    drive.press("review")
    screen = drive.scene
    assert screen.working
    drive.settle()
    assert [j.seat for j in screen.review.decisions] == [0, 1, 0, 1, 0, 1]  # the computer too
    screen.go(0)
    drive.press("next mistake")  # straight to the first move judged a mistake or worse
    judged = screen.judged()
    assert screen.step == 4 and judged is not None
    assert (judged.played, judged.label, judged.reason_move) == ("19-16", "blunder", "11x20x27")
    assert screen.current() == 4 and screen._move_line(4).endswith("19-16 ??")  # beside its move
    assert screen._line_colour(4) == screen.palette.warning
    drive.frame()
    assert screen.cache_path().exists()
    # The graph: a tap at its right end goes to the last judged move.
    drive.tap((screen.graph.right - 1, screen.graph.centery))
    assert screen.step == max(j.ply for j in screen.review.decisions)
    assert screen.judged() is not None
    drive.key(pygame.K_ESCAPE)
    # Opened again: the kept review, no work for the worker.
    monkeypatch.setattr(drive.app.thinker, "review", lambda *a: pytest.fail("reviewed again"))
    drive.press("review")
    screen = drive.scene
    assert screen.review is not None and not screen.working
    screen.go(4)
    drive.press("try again")  # from the position before the blunder, against the computer
    again = drive.scene
    assert type(again).__name__ == "PlayScene"
    assert again.match.record.actions == match.record.actions[:4]
    assert again.match.seats[0].is_human and not again.match.seats[1].is_human
    drive.app.close()


def test_a_kept_review_of_another_record_or_a_broken_one_is_not_used() -> None:
    from game.ai.review import review_from_bytes, review_to_bytes

    record = _record("mulino:classic", "a1 d7 g1 b2")
    found = review(record, {0, 1})
    data = review_to_bytes(found, record)
    assert review_from_bytes(data, record) == found
    assert review_from_bytes(data, _record("mulino:classic", "a1 d7 g1 d1")) is None
    assert review_from_bytes(data[:-3], record) is None
    assert review_from_bytes(b"\x93\x01\x02", record) is None


@pytest.mark.slow
def test_a_numeri_move_is_judged_by_the_winning_chance_it_gave_up() -> None:
    import random as rnd

    from game.ai.players import choose
    from game.ai.review import CHANCE_THRESHOLDS, PLAYOUTS
    from game.session.match import Match
    from game.session.seats import Seat

    match = Match.new(variant("numeri", 2), [Seat(), Seat()], 2)
    rng = rnd.Random(2)
    while not match.state.is_terminal():
        state = match.state
        if state.is_chance():
            match.roll()
        else:
            level = "easy" if state.to_move else "medium"
            match.play(choose(state, level, rng.randrange(99)).action)
    found = review(match.record, {0, 1})
    costly = [j for j in found.decisions if j.chances]
    assert costly and PLAYOUTS >= 48
    for judged in found.decisions:
        if judged.played == judged.best:
            assert judged.label == "best" and judged.chances is None
        else:
            assert judged.chances is not None and judged.chances >= 0
            good, inaccuracy, mistake = CHANCE_THRESHOLDS
            expected = ("good" if judged.chances <= good else "inaccuracy"
                        if judged.chances <= inaccuracy else "mistake"
                        if judged.chances <= mistake else "blunder")  # fmt: skip
            assert judged.label == expected


def _ausgeblockt_until_a_choice_of_cells() -> tuple[list[str], object]:
    """A seeded match of *hard* against itself up to a marking with a real choice: several
    cells, one of them clearly better than passing (the actions so far and the state)."""
    import random as rnd

    from game.ai.players import choose
    from game.ai.sheet_chances import win_chance
    from game.rules import start
    from game.rules.ausgeblockt import MARK, PASS
    from game.rules.chance import random_action

    state = start(variant("ausgeblockt", options={"first": "1"}))
    rng, actions = rnd.Random(5), []
    while not state.is_terminal():
        if state.is_chance():
            action = random_action(state, rng)
        else:
            if state.stage == MARK and len(state.legal_actions()) > 3:
                seat = state.to_move
                gains = [win_chance(state.apply(a), seat) for a in state.legal_actions()]
                if max(gains) - win_chance(state.apply(PASS), seat) > 0.05:
                    return actions, state
            action = choose(state, "hard", seed=1).action
        actions.append(state.action_to_str(action))
        state = state.apply(action)
    raise AssertionError("the match ended without such a marking")


def test_an_ausgeblockt_pass_that_gives_up_a_good_mark_costs_winning_chances() -> None:
    from game.ai.review import CHANCE_THRESHOLDS
    from game.ai.sheet_chances import win_chance

    actions, state = _ausgeblockt_until_a_choice_of_cells()
    record = MatchRecord.from_notation(state.variant, (*actions, "pass"))
    judged = review(record, {state.to_move}).decisions[-1]
    assert judged.played == "pass" and judged.best != "pass"
    best = state.parse_action(judged.best)
    seat = state.to_move
    expected = round(
        100 * (win_chance(state.apply(best), seat) - win_chance(state.apply(49), seat))
    )
    assert judged.chances == expected > CHANCE_THRESHOLDS[0]
    assert judged.label in ("inaccuracy", "mistake", "blunder")


def test_the_ausgeblockt_chance_model_prefers_the_side_nearer_its_goal() -> None:
    from game.ai.sheet_chances import win_chance
    from game.rules import start

    opening = start(variant("ausgeblockt", options={"first": "1"}))
    first, second = win_chance(opening, 0), win_chance(opening, 1)
    assert abs(first + second - 1) < 1e-9 and 0.5 <= first < 0.65  # the turn helps a little
    fields = opening.to_fields()
    fields[0][0] |= 1 << 36 | 1 << 30  # b6 and c5: X two cells on from b7 towards c1
    ahead = type(opening).from_fields(opening.variant, fields)
    assert win_chance(ahead, 0) > first > win_chance(ahead, 1) + 0.01


def test_a_move_that_loses_two_men_to_a_shot_is_a_blunder_with_that_reason() -> None:
    """22-18 allows no capture at once: Black's 16-20 gives a man and takes three (18x9
    6x13x22x31 …).  The review says what the move costs: two pieces, after 16-20."""
    record = _record("dama:classic", "22-17 11-16 26-22 9-14 31-26 7-11 22-18")
    reviewed = review(record, {0})
    judged = reviewed.decisions[-1]
    assert (judged.ply, judged.played, judged.label) == (6, "22-18", "blunder")
    assert (judged.reason, judged.reason_move, judged.pieces) == ("loses_material", "16-20", 2)
    assert review_reason(judged.reason, judged.reason_move, judged.pieces) == (
        "loses 2 pieces after 16-20"
    )
    kept = review_from_bytes(review_to_bytes(reviewed, record), record)
    assert kept is not None and kept.decisions[-1] == judged and REVIEW_VERSION == 4


def test_every_reason_has_words() -> None:
    from game.ai.review import REASONS

    assert all(review_reason(reason, "22-18", 1) for reason in REASONS)
    assert review_reason("", "", 0) == "" and review_reason("a later one", "x", 0) == ""


@pytest.mark.slow
def test_a_dama_move_that_lets_the_other_side_crown_costs_a_king() -> None:
    """A match between the medium and easy computers (tools/benchmarks/review.py, seed 2):
    Black's 11-15 gives nothing away at once and loses no piece, but along the line the
    search expects White crowns where after 23-27 Black would."""
    moves = (
        "24-20 11-15 22-17 15-18 23x14 9x18 27-23 18x27 31x24 10-14 17x10 7x14 25-22 6-10 "
        "22-17 8-11 26-22 12-16 17-13 2-6 29-25 3-8 22-17 8-12 25-22 5-9 30-25 4-8 32-27 "
        "16-19 24x15 10x19 17x10 6x15 13x6 1x10 27-24 19-23 24-19 15x24 28x19 11-15"
    )
    judged = review(_record("dama:classic", moves), {1}).decisions[-1]
    assert (judged.ply, judged.played, judged.label) == (41, "11-15", "blunder")
    assert (judged.reason, judged.pieces) == ("costs_kings", 1)
    assert review_reason(judged.reason, judged.reason_move, 1).startswith("costs 1 king after")
