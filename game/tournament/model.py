"""The nouns of a tournament: players, pairings, results, rounds.

Points are kept as whole *half-points* (a win 2, a draw 1, a loss 0) so that sums and
comparisons stay exact on every machine; people see them halved (``1½``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

WIN, DRAW, LOSS = 2, 1, 0
"""Half-points for a game won, drawn and lost."""


class Format(Enum):
    """How the players are paired."""

    ROUND_ROBIN = "round-robin"
    DOUBLE_ROUND_ROBIN = "double-round-robin"
    SWISS = "swiss"
    KNOCKOUT = "knockout"


class Colour(Enum):
    """A side of a pairing: White begins. In a game whose seats are not White and Black
    (``VariantSpec.two_colours`` false) White is simply the first seat, who begins."""

    WHITE = "w"
    BLACK = "b"

    @property
    def other(self) -> Colour:
        return Colour.BLACK if self is Colour.WHITE else Colour.WHITE


class Result(Enum):
    """How a pairing ended: a game played (won by either side or drawn), a forfeit, where
    one side did not play (absent, or withdrawn after the pairing) and the other wins, or a
    double forfeit — a game that could not be decided (its match forked, or was abandoned
    by both): not scored, nothing to either side, no colour, the pair met all the same; in
    a knockout it is played again, as a decider."""

    WHITE_WINS = "1-0"
    BLACK_WINS = "0-1"
    DRAW = "½-½"
    WHITE_FORFEITS = "-/+"
    BLACK_FORFEITS = "+/-"
    DOUBLE_FORFEIT = "-/-"

    @property
    def played(self) -> bool:
        """Whether the game was played over the board (forfeits count for no colour)."""
        return self not in (Result.WHITE_FORFEITS, Result.BLACK_FORFEITS, Result.DOUBLE_FORFEIT)

    @property
    def undecided(self) -> bool:
        """Whether nobody won it: a draw, or a game not scored (a knockout's decider is due)."""
        return self in (Result.DRAW, Result.DOUBLE_FORFEIT)

    @property
    def white_half_points(self) -> int:
        return _HALF_POINTS[self][0]

    @property
    def black_half_points(self) -> int:
        return _HALF_POINTS[self][1]

    def half_points(self, colour: Colour) -> int:
        """What the side playing ``colour`` scored."""
        return self.white_half_points if colour is Colour.WHITE else self.black_half_points


_HALF_POINTS = {
    Result.WHITE_WINS: (WIN, LOSS),
    Result.BLACK_WINS: (LOSS, WIN),
    Result.DRAW: (DRAW, DRAW),
    Result.WHITE_FORFEITS: (LOSS, WIN),
    Result.BLACK_FORFEITS: (WIN, LOSS),
    Result.DOUBLE_FORFEIT: (LOSS, LOSS),
}
"""What White and Black score, in half points."""


@dataclass(frozen=True, order=True)
class Player:
    """A participant. ``seed`` is the starting rank (1 the strongest): it orders the
    Swiss pairing within a score, seats the round-robin table and the knockout bracket, and
    breaks the last tie of the standings."""

    seed: int
    id: str
    """The player's identity as the network knows it (e.g. a public key's text)."""
    name: str
    joined: int = 1
    """The first round the player can be paired in (a late joiner of a Swiss: a later one)."""


@dataclass(frozen=True)
class Pairing:
    """Two players who meet, White (who begins) first."""

    white: str
    black: str

    @property
    def players(self) -> tuple[str, str]:
        return (self.white, self.black)

    def colour_of(self, player: str) -> Colour:
        return Colour.WHITE if player == self.white else Colour.BLACK

    def opponent_of(self, player: str) -> str:
        return self.black if player == self.white else self.white

    def __str__(self) -> str:
        return f"{self.white}-{self.black}"


@dataclass(frozen=True)
class Round:
    """A round as paired: its games (a knockout's deciders appended as they are needed),
    the players given a bye, and the result of each game so far (None: not yet played)."""

    number: int
    pairings: tuple[Pairing, ...]
    byes: tuple[str, ...] = ()
    results: tuple[Result | None, ...] | None = None

    def __post_init__(self) -> None:
        if self.results is None:
            object.__setattr__(self, "results", (None,) * len(self.pairings))
        if len(self.outcomes) != len(self.pairings):
            raise ValueError("a round needs one result (or None) for each pairing")

    @property
    def outcomes(self) -> tuple[Result | None, ...]:
        """The results, one a pairing (typed without the None of construction)."""
        assert self.results is not None
        return self.results

    @property
    def complete(self) -> bool:
        """Whether every game of the round has its result."""
        return all(r is not None for r in self.outcomes)

    def games(self) -> list[tuple[Pairing, Result]]:
        """The games with a result."""
        return [(p, r) for p, r in zip(self.pairings, self.outcomes, strict=True) if r]

    def paired(self) -> set[str]:
        """Everyone with a game or a bye in this round."""
        return {p for pairing in self.pairings for p in pairing.players} | set(self.byes)

    def with_result(self, board: int, result: Result) -> Round:
        outcomes = list(self.outcomes)
        outcomes[board] = result
        return Round(self.number, self.pairings, self.byes, tuple(outcomes))

    def with_game(self, pairing: Pairing) -> Round:
        """The round with one more game (a knockout's decider)."""
        return Round(self.number, (*self.pairings, pairing), self.byes, (*self.outcomes, None))
