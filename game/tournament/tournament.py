"""A tournament's whole state, immutable: who plays, the format, the rounds paired and their
results, who withdrew. Every change gives a new ``Tournament``; the next round's pairing is
a function of the state alone, so every peer can work it out and check the director's.

>>> from game.rules import variant
>>> players = [Player(seed, f"p{seed}", f"Player {seed}") for seed in range(1, 5)]
>>> t = Tournament.create(variant("mulino", 2), Format.ROUND_ROBIN, players)
>>> t = t.pair_next_round()
>>> [str(p) for p in t.rounds[0].pairings]
['p1-p4', 'p2-p3']
>>> t = t.record(1, 0, Result.WHITE_WINS).record(1, 1, Result.DRAW)
>>> [(s.rank, s.player.id, s.points) for s in t.standings()][:2]
[(1, 'p1', Fraction(1, 1)), (2, 'p2', Fraction(1, 2))]
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cached_property

from game.rules import Variant
from game.tournament import knockout, round_robin
from game.tournament.colours import Strength, preference
from game.tournament.model import Colour, Format, Pairing, Player, Result, Round
from game.tournament.standings import CrossTable, Standing, cross_table, scores, standings
from game.tournament.swiss import Entrant, PairingImpossibleError, SwissRound, pair_round


class TournamentError(ValueError):
    """A change the tournament's rules do not allow (the message says which)."""


def default_rounds(format_: Format, players: int) -> int:
    """Round robin and knockout: as many as the format needs. Swiss: ⌈log2 n⌉ + 1, but never
    more than a round robin of the same players would have (no pair may meet twice)."""
    if format_ is Format.KNOCKOUT:
        return knockout.rounds_needed(players)
    if format_ is Format.SWISS:
        return min(math.ceil(math.log2(players)) + 1, round_robin.rounds_needed(players))
    return round_robin.rounds_needed(players, double=format_ is Format.DOUBLE_ROUND_ROBIN)


@dataclass(frozen=True)
class Tournament:
    game: Variant
    """The one game and variant every match of the tournament plays."""
    format: Format
    players: tuple[Player, ...]
    rounds_asked: int | None = None
    """A Swiss's number of rounds as the director set it; None: :func:`default_rounds`."""
    rounds: tuple[Round, ...] = ()
    withdrawals: tuple[tuple[str, int], ...] = ()
    """Each withdrawn player and the first round they are not paired in."""

    @classmethod
    def create(
        cls, game: Variant, format_: Format, players: Sequence[Player], rounds: int | None = None
    ) -> Tournament:
        if game.players != 2:
            raise TournamentError("a tournament's games are for two players")
        if len(players) < 2:
            raise TournamentError("a tournament needs two players at least")
        if len({p.id for p in players}) != len(players):
            raise TournamentError("two players have the same id")
        if len({p.seed for p in players}) != len(players):
            raise TournamentError("two players have the same starting rank")
        planned = default_rounds(format_, len(players))
        if rounds is not None:
            if format_ is not Format.SWISS and rounds != planned:
                raise TournamentError(f"a {format_.value} of {len(players)} has {planned} rounds")
            if not 1 <= rounds <= round_robin.rounds_needed(len(players)):
                raise TournamentError("a Swiss has fewer rounds than a round robin would")
        ordered = tuple(sorted(replace(p, joined=1) for p in players))
        return cls(game, format_, ordered, rounds if format_ is Format.SWISS else None)

    @property
    def planned_rounds(self) -> int:
        """The rounds to play: the director's number for a Swiss, else the default for the
        players there from round 1 (late joiners change it no more)."""
        if self.rounds_asked is not None:
            return self.rounds_asked
        return default_rounds(self.format, sum(p.joined == 1 for p in self.players))

    # -- who is in ------------------------------------------------------------------

    @cached_property
    def _by_id(self) -> dict[str, Player]:
        return {p.id: p for p in self.players}

    def player(self, id_: str) -> Player:
        try:
            return self._by_id[id_]
        except KeyError:
            raise TournamentError(f"no player {id_!r}") from None

    def seed_of(self, id_: str) -> int:
        return self.player(id_).seed

    def withdrawn_from(self, id_: str) -> int | None:
        """The first round ``id_`` is not paired in, if they withdrew."""
        return next((r for p, r in self.withdrawals if p == id_), None)

    def active(self, round_number: int) -> list[Player]:
        """The players to pair in ``round_number``: joined by then and not withdrawn."""
        return [
            p
            for p in self.players
            if p.joined <= round_number
            and (self.withdrawn_from(p.id) or round_number + 1) > round_number
        ]

    def due(self, round_number: int) -> set[str]:
        """Who must have a game or a bye in ``round_number``: the active players (in a
        knockout, those still in it)."""
        if self.format is Format.KNOCKOUT:
            return {s for s in self._knockout_slots(round_number) if s is not None}
        return {p.id for p in self.active(round_number)}

    @property
    def next_round(self) -> int:
        return len(self.rounds) + 1

    # -- changes ------------------------------------------------------------------

    def add_player(self, id_: str, name: str) -> Tournament:
        """A player joins: before the first round in every format, later only in a Swiss,
        where they enter the next round with no points (and the lowest starting rank)."""
        if id_ in self._by_id:
            raise TournamentError(f"{id_!r} is in the tournament already")
        if self.rounds and self.format is not Format.SWISS:
            raise TournamentError(f"a {self.format.value} takes no player once it has begun")
        seed = max(p.seed for p in self.players) + 1
        players = (*self.players, Player(seed, id_, name, joined=self.next_round))
        return replace(self, players=players)

    def withdraw(self, id_: str) -> Tournament:
        """``id_`` is paired no more from the next round on (a game of theirs already
        paired is theirs to play or forfeit: its result is recorded as any other)."""
        self.player(id_)
        if self.withdrawn_from(id_) is not None:
            raise TournamentError(f"{id_!r} has withdrawn already")
        return replace(self, withdrawals=(*self.withdrawals, (id_, self.next_round)))

    def record(self, round_number: int, board: int, result: Result) -> Tournament:
        """The result of game ``board`` (from 0) of a round. In a knockout a drawn match
        gets its decider here, appended to the round."""
        if not 1 <= round_number <= len(self.rounds):
            raise TournamentError(f"round {round_number} has not been paired")
        round_ = self.rounds[round_number - 1]
        if not 0 <= board < len(round_.pairings):
            raise TournamentError(f"round {round_number} has no game {board}")
        if round_.outcomes[board] is not None:
            raise TournamentError(f"game {board} of round {round_number} has its result")
        round_ = round_.with_result(board, result)
        if self.format is Format.KNOCKOUT and result.undecided:
            white, black = round_.pairings[board].players
            _, decider = knockout.decision(white, black, round_, self.seed_of)
            if decider is not None:
                round_ = round_.with_game(decider)
        rounds = (*self.rounds[: round_number - 1], round_, *self.rounds[round_number:])
        return replace(self, rounds=rounds)

    def pair_next_round(self) -> Tournament:
        """The tournament with its next round paired by the system."""
        return replace(self, rounds=(*self.rounds, self.expected_round()))

    def start_round(self, proposed: Round) -> Tournament:
        """The tournament with a round someone else paired (the director's), if it is the
        system's; :class:`TournamentError` with every fault otherwise."""
        faults = check_round(self, proposed)
        if faults:
            raise TournamentError("; ".join(faults))
        return replace(self, rounds=(*self.rounds, Round(proposed.number, proposed.pairings,
                                                        proposed.byes)))  # fmt: skip

    # -- the system's pairing -------------------------------------------------------

    @property
    def over(self) -> bool:
        """Whether no round is left to play: every planned round played (a knockout: its
        final), fewer than two players left, or (a Swiss) no pairing left without a pair
        meeting twice."""
        if self.rounds and not self.rounds[-1].complete:
            return False
        if self.format is Format.KNOCKOUT:
            slots = self._knockout_slots(self.next_round)
            return len(slots) == 1 or not any(slots)
        if len(self.active(self.next_round)) < 2 or len(self.rounds) >= self.planned_rounds:
            return True
        return self.format is Format.SWISS and self._swiss_next is None

    def expected_round(self) -> Round:
        """The next round as the system pairs it."""
        if self.rounds and not self.rounds[-1].complete:
            raise TournamentError(f"round {len(self.rounds)} has games without a result")
        if self.over:
            raise TournamentError("the tournament is over")
        number = self.next_round
        if self.format is Format.SWISS:
            paired = self.swiss_pairing()
            return Round(number, paired.pairings, () if paired.bye is None else (paired.bye,))
        if self.format is Format.KNOCKOUT:
            games, byes = knockout.pair(self._knockout_slots(number), self.seed_of)
            return Round(number, tuple(games), tuple(byes))
        return self._round_robin(number)

    def swiss_pairing(self) -> SwissRound:
        """The next Swiss round, with whether its colours had to be relaxed."""
        if self._swiss_next is None:
            raise PairingImpossibleError("no pairing avoids meeting an opponent again")
        return self._swiss_next

    @cached_property
    def _swiss_next(self) -> SwissRound | None:
        number = self.next_round
        half_points = scores(self.players, self.rounds, self.format)
        opponents: dict[str, set[str]] = {p.id: set() for p in self.players}
        colours: dict[str, list[Colour]] = {p.id: [] for p in self.players}
        for round_ in self.rounds:
            for pairing, result in zip(round_.pairings, round_.outcomes, strict=True):
                for player in pairing.players:
                    opponents[player].add(pairing.opponent_of(player))
                    if result is not None and result.played:
                        colours[player].append(pairing.colour_of(player))
        had_bye = {b for r in self.rounds for b in r.byes}
        entrants = [
            Entrant(p.id, p.seed, half_points[p.id], frozenset(opponents[p.id]),
                    tuple(colours[p.id]), p.id in had_bye)
            for p in self.active(number)
        ]  # fmt: skip
        try:
            return pair_round(entrants)
        except PairingImpossibleError:
            return None

    def _round_robin(self, number: int) -> Round:
        double = self.format is Format.DOUBLE_ROUND_ROBIN
        table = round_robin.schedule(len(self.players), double)[number - 1]
        playing = {p.id for p in self.active(number)}
        games, byes = [], []
        for white, black in table:
            ids = [self.players[n - 1].id if n <= len(self.players) else None
                   for n in (white, black)]  # fmt: skip
            present = [i for i in ids if i is not None and i in playing]
            if len(present) == 2:
                games.append(Pairing(present[0], present[1]))
            byes += present if len(present) == 1 else []
        return Round(number, tuple(games), tuple(byes))

    def _knockout_slots(self, number: int) -> list[str | None]:
        """The bracket's slots of round ``number`` (a withdrawn player's slot empty)."""
        slots = knockout.first_slots([p.id for p in self.players])
        for r in range(1, number + 1):
            gone = {p for p, start in self.withdrawals if start <= r}
            slots = [None if s in gone else s for s in slots]
            if r == number or r > len(self.rounds) or len(slots) == 1:
                break
            slots = knockout.next_slots(slots, self.rounds[r - 1], self.seed_of)
        return slots

    # -- what people see ------------------------------------------------------------

    def standings(self) -> list[Standing]:
        return standings(self.players, self.rounds, self.format)

    def cross_table(self) -> CrossTable:
        return cross_table(self.players, self.rounds, self.format)


def check_round(tournament: Tournament, proposed: Round) -> list[str]:
    """What is wrong with ``proposed`` as the tournament's next round (nothing: []).

    The round must be the next, its games without results, every player in it known, paired
    at most once, not withdrawn and already joined, every player due to play in it, no pair
    meeting more often than the format allows, no second bye in a Swiss, no absolute colour
    preference denied (unless the system itself had to), and the games and byes those the
    system makes (board order aside)."""
    faults: list[str] = []
    number = tournament.next_round
    if proposed.number != number:
        faults.append(f"round {proposed.number} proposed, round {number} is next")
    if tournament.rounds and not tournament.rounds[-1].complete:
        faults.append(f"round {len(tournament.rounds)} is not finished")
    elif tournament.over:
        faults.append("the tournament is over")
    if any(r is not None for r in proposed.outcomes):
        faults.append("a new round's games have no results yet")
    seen: Counter[str] = Counter()
    for pairing in proposed.pairings:
        if pairing.white == pairing.black:
            faults.append(f"{pairing.white} is paired with themselves")
        seen.update(pairing.players)
    seen.update(proposed.byes)
    for player, count in sorted(seen.items()):
        if player not in tournament._by_id:
            faults.append(f"{player} is not in the tournament")
        elif count > 1:
            faults.append(f"{player} is paired {count} times")
    due = tournament.due(number) if not faults else {p.id for p in tournament.active(number)}
    for player in sorted(set(seen) - due):
        if player in tournament._by_id:
            gone = tournament.withdrawn_from(player)
            why = "has withdrawn" if gone is not None and gone <= number else "has not joined yet"
            if (gone is None or gone > number) and tournament.player(player).joined <= number:
                why = "is out of the knockout"
            faults.append(f"{player} is paired but {why}")
    faults += [f"{player} is left out" for player in sorted(due - set(seen))]
    faults += _repeats(tournament, proposed)
    if tournament.format is Format.SWISS:
        if len(proposed.byes) > 1:
            faults.append("a Swiss round has one bye at most")
        for player in proposed.byes:
            if any(player in r.byes for r in tournament.rounds):
                faults.append(f"{player} has had a bye already")
    if faults:
        return faults
    expected = tournament.expected_round()
    if tournament.format is Format.SWISS and not tournament.swiss_pairing().colours_relaxed:
        faults += _colour_faults(tournament, proposed)
    missing = set(expected.pairings) - set(proposed.pairings)
    extra = set(proposed.pairings) - set(expected.pairings)
    if missing or extra or set(expected.byes) != set(proposed.byes):
        shown = " ".join(map(str, expected.pairings))
        bye = f", bye {' '.join(expected.byes)}" if expected.byes else ""
        faults.append(f"the system pairs round {number} as {shown}{bye}")
    return faults


def _repeats(tournament: Tournament, proposed: Round) -> list[str]:
    most = 2 if tournament.format is Format.DOUBLE_ROUND_ROBIN else 1
    met: Counter[frozenset[str]] = Counter()
    for round_ in (*tournament.rounds, proposed):  # a knockout's deciders: the same meeting
        met.update({frozenset(p.players) for p in round_.pairings})
    return [
        f"{' and '.join(sorted(pair))} meet {count} times"
        for pair, count in sorted(met.items(), key=lambda item: sorted(item[0]))
        if count > most
    ]


def _colour_faults(tournament: Tournament, proposed: Round) -> list[str]:
    faults = []
    for pairing in proposed.pairings:
        for player in pairing.players:
            colours = [
                p.colour_of(player)
                for r in tournament.rounds
                for p, result in r.games()
                if player in p.players and result.played
            ]
            wish = preference(colours)
            given = pairing.colour_of(player)
            if wish.strength is Strength.ABSOLUTE and wish.colour is not given:
                what = "White" if given is Colour.WHITE else "Black"
                faults.append(f"{player} cannot have {what} (colour rule)")
    return faults


def check_tournament(tournament: Tournament) -> list[str]:
    """What is wrong with a whole tournament as recorded (nothing: []): it is played again
    from its first players, each late joiner and withdrawal at its round, each round
    checked by :func:`check_round` and its results recorded in order, and must come out
    the same, a knockout's deciders included. What ``python -m net verify`` asks."""
    faults: list[str] = []
    first = [p for p in tournament.players if p.joined == 1]
    try:
        again = Tournament.create(
            tournament.game, tournament.format, first, tournament.rounds_asked
        )
    except TournamentError as error:
        return [str(error)]
    for round_ in tournament.rounds:
        number = round_.number
        for late in sorted(p for p in tournament.players if p.joined == number > 1):
            again = again.add_player(late.id, late.name)
        for gone, start in tournament.withdrawals:
            if start == number:
                again = again.withdraw(gone)
        games = len(again.expected_round().pairings) if not again.over else 0
        proposed = Round(number, round_.pairings[:games], round_.byes)
        wrong = check_round(again, proposed)
        if wrong:
            return faults + [f"round {number}: {fault}" for fault in wrong]
        again = again.start_round(proposed)
        for board, result in enumerate(round_.outcomes):
            if board >= len(again.rounds[-1].pairings):
                return [f"round {number}: game {board} is no pairing the system made"]
            if result is not None:
                again = again.record(number, board, result)
        if again.rounds[-1] != round_:
            return [f"round {number}: its games are not the system's (deciders)"]
    for late in sorted(p for p in tournament.players if p.joined == again.next_round > 1):
        again = again.add_player(late.id, late.name)
    for gone, start in tournament.withdrawals:
        if start == again.next_round:
            again = again.withdraw(gone)
    if again.players != tournament.players or again.withdrawals != tournament.withdrawals:
        faults.append("the players or the withdrawals differ from the rounds' history")
    return faults
