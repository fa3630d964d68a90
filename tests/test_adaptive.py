"""The adaptive opponent: a person of fixed strength, played by the rule match after match,
ends at the levels around their strength and scores about even over a long series; the
profile keeps each person's rating per game, and a file from before the ladder loads."""

from __future__ import annotations

import json
import random
import statistics
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from game.levels import LADDER, RUNGS, rung
from game.levels.ratings import expected
from game.levels.table import steering
from game.rules import VARIANTS, Outcome
from game.session.adaptive import K_SETTLED, LEAN_BOUND, RUN_LONGEST, RUN_TRUSTED, Standing
from game.session.profiles import FILE, Profiles
from game.session.seats import Seat, SeatKind
from tests.matches import finished

SERIES = 400
"""Matches a simulated person plays; the score is taken over the last :data:`JUDGED`."""
JUDGED = 250


@dataclass
class Series:
    """What a simulated person met over the judged matches of a series."""

    score: float
    """Their score, a match counting one."""
    levels: list[str]
    """The levels they met, in order."""
    ratings: list[float]
    """The rating their profile showed before each."""


def _series(game: str, strength: float, seed: int, start: str) -> Series:
    """A simulated person rated ``strength`` (who scores against each level as Elo's
    model says, a draw one time in ten) plays the adaptive opponent at ``game``."""
    rng = random.Random(seed)
    standing = Standing.starting(game, start)
    points, levels, ratings = 0.0, [], []
    for match in range(SERIES):
        level = standing.level
        p = expected(strength, steering(game, rung(level)))
        roll = rng.random()
        # a draw one time in ten, taken evenly from both sides' chances
        score = 0.5 if roll > 0.9 else float(roll < 0.9 * p)
        if match >= SERIES - JUDGED:
            points += score
            levels.append(level)
            ratings.append(standing.rating)
        after = standing.after(game, level, score)
        if abs(after.lean) < LEAN_BOUND:  # the mix counts the level chosen, no other
            chosen = expected(after.rating, steering(game, rung(after.level))) - 0.5
            assert after.lean == pytest.approx(standing.lean + chosen)
        standing = after
    return Series(points / JUDGED, levels, ratings)


@pytest.mark.parametrize("game", VARIANTS)
@pytest.mark.parametrize("lower", range(1, RUNGS))
def test_a_person_of_fixed_strength_ends_about_even(game: str, lower: int) -> None:
    """Every game's ladder as measured — Mulino's is far from even: level 1 is rated 1000,
    *easy* 1921, and no level is a fair match for a person between them — and people of
    strengths from one rung to the next."""
    low, high = steering(game, lower), steering(game, lower + 1)
    for between in (0.0, 0.25, 0.5, 0.75):
        strength = low + between * (high - low)
        for seed in range(3):
            seen = _series(game, strength, seed, start=LADDER[(lower + 3) % RUNGS])
            assert 0.40 <= seen.score <= 0.60, (strength, seed, seen.score)
            # the profile's rating comes to their strength
            assert abs(statistics.fmean(seen.ratings) - strength) < 150, (strength, seed)
            # and the level they meet most is a fair match, or one of the two around them
            most = max(set(seen.levels), key=seen.levels.count)
            fair = 0.35 <= expected(strength, steering(game, rung(most))) <= 0.65
            assert fair or rung(most) in (lower, lower + 1), (strength, seed, most)


def test_between_two_rungs_far_apart_the_two_are_mixed_toward_even() -> None:
    """Mulino's level 1 (1000) and *easy* (1921): a person rated 1460 scores 91 % against
    the one and 9 % against the other; they meet each about half the time."""
    seen = _series("mulino:classic", 1460, 0, start="easy")
    mixed = {level: seen.levels.count(level) / JUDGED for level in set(seen.levels)}
    assert set(mixed) <= {"level-1", "easy", "level-3"}
    assert 0.35 <= mixed["level-1"] <= 0.65 and 0.35 <= mixed["easy"] <= 0.65, mixed


@pytest.mark.parametrize("game", VARIANTS)
def test_beyond_the_ladder_s_ends_a_person_meets_its_end_rung(game: str) -> None:
    weak = _series(game, steering(game, 1) - 300, 0, start="medium")
    assert set(weak.levels) == {"level-1"}
    strong = _series(game, steering(game, RUNGS) + 300, 0, start="medium")
    assert set(strong.levels) == {"hard"}
    owed = Standing(steering(game, 1) - 100, 100, "level-1", lean=0.4)  # however the mix leans
    assert owed.after(game, "level-1", 1.0).level == "level-1"


@pytest.mark.parametrize("game", VARIANTS)
def test_one_match_moves_the_level_at_most_one_rung(game: str) -> None:
    standing = Standing.starting(game, "level-1")
    for _ in range(60):
        after = standing.after(game, standing.level, 1.0)
        assert rung(after.level) - rung(standing.level) in (0, 1)
        assert after.rating > standing.rating
        standing = after
    assert standing.level == "hard"  # a person who always wins climbs to the top
    for _ in range(60):
        standing = standing.after(game, standing.level, 1.0)  # and stays there, ...
    assert standing.level == "hard" and abs(standing.lean) <= LEAN_BOUND  # ... owing no mix
    for _ in range(60):
        standing = standing.after(game, standing.level, 0.0)
    assert standing.level == "level-1"  # and one who always loses to the bottom


def test_a_run_of_surprises_one_way_speeds_the_rating_up_and_one_the_other_way_ends_it() -> None:
    standing = Standing(2575.0, 100, "medium")  # settled: the usual step is K_SETTLED
    steps = []
    for _ in range(8):
        after = standing.after("mulino:classic", standing.level, 1.0)
        steps.append(after.rating - standing.rating)
        standing = after
    assert standing.run == RUN_LONGEST  # counted no further
    assert steps[RUN_TRUSTED] > 1.5 * steps[RUN_TRUSTED - 1]  # the run doubles the step
    played = steering("mulino:classic", rung(standing.level))
    lost = standing.after("mulino:classic", standing.level, 0.0)
    assert lost.run == -1  # a surprise the other way ends it, at the usual step
    assert lost.rating - standing.rating == pytest.approx(
        -K_SETTLED * expected(standing.rating, played)
    )


def test_an_expected_result_counts_toward_no_run() -> None:
    """A person far above *hard* winning again, or a draw where even was expected: no run,
    so no doubled step (which once pushed such ratings up by 30–80 points)."""
    top = Standing(steering("mulino:classic", RUNGS) + 400, 100, "hard", run=3)
    assert top.after("mulino:classic", "hard", 1.0).run == 0
    first = Standing.starting("mulino:classic", "medium")
    assert first.after("mulino:classic", "medium", 0.5).run == 0


def test_a_thousand_losses_in_a_row_leave_a_standing_that_saves() -> None:
    """The run is bounded (once, the step's power of two overflowed after 1,028 losses)."""
    standing = Standing.starting("mulino:classic", "level-1")
    for _ in range(1_100):
        standing = standing.after("mulino:classic", standing.level, 0.0)
    assert abs(standing.run) <= RUN_LONGEST and standing.level == "level-1"
    at_even = steering("mulino:classic", 5)
    for score, run in ((0.0, -RUN_LONGEST), (1.0, RUN_LONGEST)):  # a surprise at the end
        longest = Standing(at_even, 100, "medium", run=run)
        assert longest.after("mulino:classic", "medium", score).run == run


def test_the_mix_counts_the_level_played_not_the_one_offered() -> None:
    """The person set the computer to *hard* where the mix offered *medium*."""
    game = "mulino:classic"
    offered = Standing(2575.0, 100, "medium", lean=0.4)
    after = offered.after(game, "hard", 0.0)

    def surplus(rating: float, level: str) -> float:
        return expected(rating, steering(game, rung(level))) - 0.5

    owed = 0.4 + surplus(2575.0, "hard") - surplus(2575.0, "medium")
    assert after.lean == pytest.approx(owed + surplus(after.rating, after.level))


def test_the_profile_keeps_each_person_s_rating_and_next_level_per_game(tmp_path: Path) -> None:
    profiles = Profiles(tmp_path)
    ada = profiles.add("Ada")
    assert ada.adaptive and ada.next_level("dama:classic") is None  # nothing played yet
    won = finished("dama:classic", [Seat(name="Ada"), Seat(SeatKind.COMPUTER, "level-4")],
                   lambda r: r.outcomes[0] is Outcome.WIN)  # fmt: skip
    profiles.record(won)
    standing = ada.standings["dama:classic"]
    assert standing.matches == 1 and standing.rating > steering("dama:classic", 4)
    assert ada.next_level("dama:classic") == standing.level
    assert ada.tally("dama:classic", "level-4").won == 1
    people = finished("dama:classic", [Seat(name="Ada"), Seat()])
    profiles.record(people)  # against people: no rating moves
    three = finished("numeri", [Seat(name="Ada"), Seat(SeatKind.COMPUTER, "easy"),
                                Seat(SeatKind.COMPUTER, "easy")])  # fmt: skip
    profiles.record(three)  # the ladder is rated two by two: three seats do not count
    assert list(ada.standings) == ["dama:classic"] and ada.standings["dama:classic"] == standing
    profiles.set_adaptive("Ada", False)
    assert ada.next_level("dama:classic") is None
    again = Profiles(tmp_path).get("Ada")  # a restart keeps all of it
    assert again is not None and not again.adaptive
    assert again.standings["dama:classic"].level == standing.level
    kept = again.standings["dama:classic"]
    assert kept.rating == pytest.approx(standing.rating, abs=0.05)
    assert (kept.lean, kept.run) == (pytest.approx(standing.lean, abs=1e-4), standing.run)


def test_a_draw_and_a_loss_against_the_computer_are_rated_too(tmp_path: Path) -> None:
    """A match nobody won (a draw: no winners) moves the rating toward the level's, a loss
    below it — recording either once crashed the profile (a division by the winners)."""
    profiles = Profiles(tmp_path)
    ada = profiles.add("Ada")
    seats = [Seat(name="Ada"), Seat(SeatKind.COMPUTER, "level-4")]
    drawn = finished("mulino:classic", seats, lambda r: not r.winners())
    profiles.record(drawn)
    after_draw = ada.standings["mulino:classic"]
    lost = finished("mulino:classic", seats, lambda r: r.outcomes[0] is Outcome.LOSS)
    profiles.record(lost)
    after_loss = ada.standings["mulino:classic"]
    assert after_loss.matches == 2 and after_loss.rating < after_draw.rating
    assert ada.tally("mulino:classic", "level-4").drawn == 1


def test_a_profiles_file_from_before_the_ladder_loads_adaptive(tmp_path: Path) -> None:
    (tmp_path / FILE).write_text(json.dumps({"version": 1, "profiles": {"Ada": {
        "records": {"numeri": {"easy": [2, 1, 1, 0], "people": [1, 1, 0, 0]}},
        "best_numeri": 40, "fastest_ausgeblockt": None}}}))  # fmt: skip
    profiles = Profiles(tmp_path)
    ada = profiles.get("Ada")
    assert profiles.problem is None and ada is not None
    assert ada.adaptive and ada.standings == {} and ada.tally("numeri", "easy").played == 2


def _profiles_file(ladder: dict) -> str:
    return json.dumps({"version": 1, "profiles": {"Ada": {
        "records": {}, "best_numeri": None, "fastest_ausgeblockt": None,
        "adaptive": True, "ladder": ladder}}})  # fmt: skip


def test_a_standing_from_before_the_mix_loads_with_none_owed(tmp_path: Path) -> None:
    (tmp_path / FILE).write_text(_profiles_file({"mulino:classic": [1460.0, 12, "easy"]}))
    ada = Profiles(tmp_path).get("Ada")
    assert ada is not None
    assert ada.standings["mulino:classic"] == Standing(1460.0, 12, "easy", 0.0, 0)


@pytest.mark.parametrize("standing", [
    [1460.0, 12, "easy", 3.0, 0],  # a lean no mix can owe
    [float("nan"), 12, "easy", 0.0, 0],
    [1460.0, 12, "easy", 0.0, "2"],
    [1460.0, 12, "easy", 0.0],
    [1460.0, 12, "easy", 0.0, 10**6],  # a run no series makes
    [1460.0, 12, "level-9", 0.0, 0],
])  # fmt: skip
def test_a_damaged_standing_sets_the_file_aside(tmp_path: Path, standing: list) -> None:
    (tmp_path / FILE).write_text(_profiles_file({"mulino:classic": standing}))
    profiles = Profiles(tmp_path)
    assert profiles.problem == "broken" and profiles.names() == []


def test_the_adaptive_bench_compares_the_rule_with_the_one_before() -> None:
    bench = Path(__file__).resolve().parents[1] / "tools" / "bench.py"
    done = subprocess.run(
        [sys.executable, str(bench), "ai", "adaptive", "--matches", "60", "--judged", "30"],
        capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    report = json.loads(done.stdout)
    assert set(report["games"]) == set(VARIANTS)
    mulino = report["games"]["mulino:classic"]
    assert set(mulino) == {"shipped", "nearest"} and mulino["shipped"]["people"] == 84
    # Mulino's uneven ladder: the rule before strands people far from even; the mix does not
    assert mulino["nearest"]["outside_40_60"] > mulino["shipped"]["outside_40_60"]
    refused = subprocess.run(
        [sys.executable, str(bench), "ai", "adaptive", "--judged", "500"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert refused.returncode == 2 and "--judged" in refused.stderr
