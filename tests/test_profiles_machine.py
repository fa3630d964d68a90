"""A person's profile under any sequence of what people do with it — matches against the
computer at any level, won, lost or drawn, the adaptive level turned off and on, the game
closed and opened again: every standing stays one the file can hold, a restart reads back
exactly what was kept, and the next level is never more than one rung from the last one
played."""

from __future__ import annotations

import tempfile
from functools import cache
from pathlib import Path

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from game.levels import LADDER, rung
from game.rules import Outcome
from game.session.adaptive import LEAN_BOUND, RUN_LONGEST
from game.session.match import Match
from game.session.profiles import Profiles
from game.session.seats import Seat, SeatKind
from tests.matches import finished

GAMES = ("mulino:classic", "numeri")
OUTCOMES = {
    "won": lambda r: r.outcomes[0] is Outcome.WIN and len(r.winners()) == 1,
    "lost": lambda r: r.outcomes[0] is Outcome.LOSS,
}


@cache
def _match(game: str, level: str, how: str) -> Match:
    return finished(game, [Seat(name="Ada"), Seat(SeatKind.COMPUTER, level)], OUTCOMES[how])


class ProfileMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.folder = Path(tempfile.mkdtemp())
        self.profiles = Profiles(self.folder)
        self.profiles.add("Ada")
        self.played: dict[str, str] = {}

    @rule(game=st.sampled_from(GAMES), level=st.sampled_from(LADDER),
          how=st.sampled_from(sorted(OUTCOMES)), follow=st.booleans())  # fmt: skip
    def play(self, game: str, level: str, how: str, follow: bool) -> None:
        ada = self.profiles.get("Ada")
        assert ada is not None
        offered = ada.next_level(game)
        played = offered if follow and offered is not None else level
        self.profiles.record(_match(game, played, how))
        self.played[game] = played

    @rule()
    def flip_adaptive(self) -> None:
        ada = self.profiles.get("Ada")
        assert ada is not None
        self.profiles.set_adaptive("Ada", not ada.adaptive)

    @rule()
    def restart(self) -> None:
        before = self.profiles.get("Ada")
        again = Profiles(self.folder)
        after = again.get("Ada")
        assert again.problem is None and before is not None and after is not None
        assert after.adaptive == before.adaptive
        for game, kept in before.standings.items():
            read = after.standings[game]
            assert (read.matches, read.level, read.run) == (kept.matches, kept.level, kept.run)
            assert read.rating == pytest.approx(kept.rating, abs=0.05)
            assert read.lean == pytest.approx(kept.lean, abs=1e-4)
        self.profiles = again

    @invariant()
    def standings_are_ones_a_file_holds_and_move_one_rung(self) -> None:
        ada = self.profiles.get("Ada")
        assert ada is not None
        for game, standing in ada.standings.items():
            assert abs(standing.lean) <= LEAN_BOUND and abs(standing.run) <= RUN_LONGEST
            assert abs(rung(standing.level) - rung(self.played[game])) <= 1
            assert ada.next_level(game) == (standing.level if ada.adaptive else None)


ProfileMachine.TestCase.settings = settings(max_examples=30, stateful_step_count=20,
                                            deadline=None)  # fmt: skip
test_a_profile_under_any_sequence_of_matches_and_restarts = ProfileMachine.TestCase
