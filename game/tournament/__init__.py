"""Tournaments: pairing (round robin, Swiss, knockout), results and standings — pure.

No clock, no randomness, no I/O: the same tournament gives the same next round and the same
standings on every machine, so the director's pairings can be checked by every player
(:func:`check_round`). docs/PROTOCOL.md (TOURNAMENT) states every rule.
"""

from game.tournament.model import Colour, Format, Pairing, Player, Result, Round
from game.tournament.standings import TIE_BREAKS, CrossTable, Standing, cross_table_csv
from game.tournament.swiss import PairingImpossibleError
from game.tournament.tournament import (
    Tournament,
    TournamentError,
    check_round,
    check_tournament,
)

__all__ = [
    "TIE_BREAKS",
    "Colour",
    "CrossTable",
    "Format",
    "Pairing",
    "PairingImpossibleError",
    "Player",
    "Result",
    "Round",
    "Standing",
    "Tournament",
    "TournamentError",
    "check_round",
    "check_tournament",
    "cross_table_csv",
]
