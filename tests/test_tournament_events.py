"""The events every participant prints from the tournament log: a drawn game announces a
pairing again only where it makes one — a knockout's decider — and never in a Swiss or a
round robin, whatever board is still playing (a Swiss once re-announced its last board's
game after a shared Numeri win on an early board: 13 pairings for 12 games)."""

from __future__ import annotations

import pytest

from game.tournament import Result
from net.tournament_events import events_after
from tests.test_tournament_log import Night, result_content, result_of

DRAWN = 2
"""A seed whose game of random moves on the first board ends drawn."""


def _drawn_on_the_first_board(format_: str) -> tuple[Night, list]:
    night = Night(players=4, format_=format_)
    night.enter_all()
    night.pair()
    table, data = night.play(1, 0, seed=DRAWN)
    assert result_of(table) is Result.DRAW
    entry = night.put(result_content(1, 0, Result.DRAW, data), data)
    return night, events_after(night.log, entry)


@pytest.mark.parametrize("format_", ["swiss", "round-robin"])
def test_a_draw_while_the_last_board_plays_announces_no_pairing(format_: str) -> None:
    night, events = _drawn_on_the_first_board(format_)
    assert night.log.tournament is not None
    assert night.log.tournament.rounds[0].outcomes[-1] is None  # the last board still plays
    assert [kind for kind, _ in events] == ["result"]
    assert events[0][1]["result"] == "½-½"


def test_a_knockout_draw_announces_its_decider() -> None:
    night, events = _drawn_on_the_first_board("knockout")
    kinds = [kind for kind, _ in events]
    assert kinds == ["result", "pairing"]
    decider = events[1][1]
    assert night.log.tournament is not None
    played = night.log.tournament.rounds[0]
    assert decider["board"] == len(played.pairings) - 1
    # the decider is the drawn match's two players, colours reversed
    white, black = played.pairings[0].players
    assert decider["players"] == [black, white]
