"""The adaptive opponent: a person of fixed strength, played by the rule match after match,
ends at the levels around their strength and scores about even over a long series; the
profile keeps each person's rating per game, and a file from before the ladder loads."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from game.levels import LADDER, RUNGS, rung
from game.levels.ratings import expected
from game.levels.table import steering
from game.rules import Outcome
from game.session.adaptive import Standing
from game.session.profiles import FILE, Profiles
from game.session.seats import Seat, SeatKind
from tests.matches import finished

GAME = "mulino:classic"
SERIES = 400
"""Matches a simulated person plays; the score is taken over the last :data:`JUDGED`."""
JUDGED = 250


def _series(strength: float, seed: int, start: str = "easy") -> tuple[float, list[str]]:
    """A simulated person rated ``strength`` (who scores against each level as Elo's
    model says, a draw one time in ten) plays the adaptive opponent: their score over the
    judged matches, and the levels they met, in order."""
    rng = random.Random(seed)
    standing = Standing.starting(GAME, start)
    points, met = 0.0, []
    for match in range(SERIES):
        level = standing.level
        met.append(level)
        p = expected(strength, steering(GAME, rung(level)))
        roll = rng.random()
        # a draw one time in ten, taken evenly from both sides' chances: still p on average
        score = 0.5 if roll > 0.9 else float(roll < 0.9 * p)
        if match >= SERIES - JUDGED:
            points += score
        standing = standing.after(GAME, level, score)
    return points / JUDGED, met


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("between", [0.0, 0.25, 0.5, 0.75])
@pytest.mark.parametrize("lower", range(1, RUNGS))
def test_a_person_of_fixed_strength_ends_about_even(lower: int, between: float, seed: int) -> None:
    low, high = steering(GAME, lower), steering(GAME, lower + 1)
    strength = low + between * (high - low)
    score, met = _series(strength, seed, start=LADDER[(lower + 3) % RUNGS])
    assert 0.40 <= score <= 0.60, (strength, score)
    settled = met[-JUDGED:]
    most = max(set(settled), key=settled.count)
    assert rung(most) in (lower, lower + 1), (strength, most)  # the rungs around them
    if between in (0.0, 0.25):  # close to a rung: it is the level they mostly meet, ...
        assert rung(most) == lower
        # ... and their score against it is even enough
        assert 0.40 <= expected(strength, low) <= 0.60


def test_one_match_moves_the_level_at_most_one_rung() -> None:
    standing = Standing.starting(GAME, "level-1")
    for _ in range(100):
        after = standing.after(GAME, standing.level, 1.0)
        assert rung(after.level) - rung(standing.level) in (0, 1)
        assert after.rating > standing.rating
        standing = after
    assert standing.level == "hard"  # a person who always wins climbs to the top
    for _ in range(100):
        standing = standing.after(GAME, standing.level, 0.0)
    assert standing.level == "level-1"  # and one who always loses to the bottom


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
    assert again.standings["dama:classic"].rating == pytest.approx(standing.rating, abs=0.05)


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
