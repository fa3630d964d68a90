"""Standings, tie-breaks and the cross table, from the rounds played.

The order: points (half-points, exact), then the format's tie-breaks, then the direct
encounter (the points each of the players still level scored in their games against the
others of them), then the starting rank. Players level on everything but the starting rank
share a rank.

- Round robin: Sonneborn–Berger (for each game, the opponent's final score times what the
  player scored against them: 1, ½ or 0).
- Swiss: Buchholz (the sum of the final scores of every opponent paired, a forfeit or a
  game not scored included; a bye adds nothing), then Buchholz cut 1 (the same less the
  lowest of those scores, a bye counting as a score of 0 among them).
- Knockout: matches won (byes included) come before points.

A bye scores a win in a Swiss and a knockout, nothing in a round robin, where every player
rests once when their number is odd. A withdrawn player keeps the score they had.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from game.tournament.knockout import decision
from game.tournament.model import DRAW, LOSS, WIN, Format, Player, Round

TIE_BREAKS = {
    Format.ROUND_ROBIN: ("Sonneborn–Berger",),
    Format.DOUBLE_ROUND_ROBIN: ("Sonneborn–Berger",),
    Format.SWISS: ("Buchholz", "Buchholz cut 1"),
    Format.KNOCKOUT: ("matches won",),
}
"""The names of each format's tie-breaks, in order (the direct encounter comes after)."""


def bye_half_points(format_: Format) -> int:
    return 0 if format_ in (Format.ROUND_ROBIN, Format.DOUBLE_ROUND_ROBIN) else WIN


@dataclass(frozen=True)
class Standing:
    """One line of the standings."""

    rank: int
    player: Player
    half_points: int
    tie_breaks: tuple[Fraction, ...]
    """The values of the format's :data:`TIE_BREAKS`, in points."""
    direct_encounter: Fraction
    """Points scored against the players level with this one on points and tie-breaks."""

    @property
    def points(self) -> Fraction:
        return Fraction(self.half_points, 2)


@dataclass(frozen=True)
class _Game:
    opponent: str
    scored: int  # half-points
    round: int


def _games(rounds: Sequence[Round]) -> dict[str, list[_Game]]:
    games: dict[str, list[_Game]] = {}
    for round_ in rounds:
        for pairing, result in round_.games():
            for player in pairing.players:
                scored = result.half_points(pairing.colour_of(player))
                games.setdefault(player, []).append(
                    _Game(pairing.opponent_of(player), scored, round_.number)
                )
    return games


def scores(players: Sequence[Player], rounds: Sequence[Round], format_: Format) -> dict[str, int]:
    """Each player's half-points."""
    games = _games(rounds)
    bye = bye_half_points(format_)
    return {
        p.id: sum(g.scored for g in games.get(p.id, [])) + bye * sum(p.id in r.byes for r in rounds)
        for p in players
    }


def _matches_won(player: str, rounds: Sequence[Round], seed_of: Callable[[str], int]) -> int:
    """Knockout: the rounds a player went on from (a bye, or a match won)."""
    won = 0
    for round_ in rounds:
        if player in round_.byes:
            won += 1
            continue
        opponents = {p.opponent_of(player) for p in round_.pairings if player in p.players}
        for opponent in opponents:
            winner, _ = decision(player, opponent, round_, seed_of)
            won += winner == player
    return won


def tie_breaks(
    players: Sequence[Player], rounds: Sequence[Round], format_: Format
) -> dict[str, tuple[Fraction, ...]]:
    """Each player's values of the format's :data:`TIE_BREAKS`."""
    score = scores(players, rounds, format_)
    games = _games(rounds)
    values: dict[str, tuple[Fraction, ...]] = {}
    for p in players:
        mine = games.get(p.id, [])
        if format_ is Format.SWISS:
            opponents = [score.get(g.opponent, 0) for g in mine]
            buchholz = sum(opponents)
            counted = opponents + [0] * sum(p.id in r.byes for r in rounds)
            cut = buchholz - min(counted) if counted else 0
            values[p.id] = (Fraction(buchholz, 2), Fraction(cut, 2))
        elif format_ is Format.KNOCKOUT:
            seed = {q.id: q.seed for q in players}
            values[p.id] = (Fraction(_matches_won(p.id, rounds, seed.__getitem__)),)
        else:
            berger = sum(g.scored * score.get(g.opponent, 0) for g in mine)
            values[p.id] = (Fraction(berger, 4),)
    return values


def standings(
    players: Sequence[Player], rounds: Sequence[Round], format_: Format
) -> list[Standing]:
    """The players in order, ranked (see the module's docstring)."""
    score = scores(players, rounds, format_)
    breaks = tie_breaks(players, rounds, format_)
    games = _games(rounds)

    def level_key(p: Player) -> tuple[Fraction, ...]:
        if format_ is Format.KNOCKOUT:
            return (*breaks[p.id], Fraction(score[p.id], 2))
        return (Fraction(score[p.id], 2), *breaks[p.id])

    ordered = sorted(players, key=lambda p: tuple(-v for v in level_key(p)))
    direct: dict[str, Fraction] = {}
    for p in ordered:
        level = {q.id for q in ordered if level_key(q) == level_key(p)}
        scored = sum(g.scored for g in games.get(p.id, []) if g.opponent in level)
        direct[p.id] = Fraction(scored, 2)

    def full_key(p: Player) -> tuple[Fraction, ...]:
        return (*level_key(p), direct[p.id])

    ordered = sorted(players, key=lambda p: (tuple(-v for v in full_key(p)), p.seed))
    lines: list[Standing] = []
    for place, p in enumerate(ordered, 1):
        same = lines and full_key(lines[-1].player) == full_key(p)
        rank = lines[-1].rank if same else place
        lines.append(Standing(rank, p, score[p.id], breaks[p.id], direct[p.id]))
    return lines


_MARK = {WIN: "1", DRAW: "½", LOSS: "0"}


@dataclass(frozen=True)
class CrossTable:
    """The results of every pair: ``cells[i][j]`` is what ``players[i]`` scored against
    ``players[j]``, game by game in the order played ("1", "½", "0"; "+" and "-" for a
    forfeit won and lost, "-" to both for a game not scored; "" where they did not meet;
    "×" on the diagonal). The players are in the order of the standings."""

    players: tuple[Player, ...]
    cells: tuple[tuple[str, ...], ...]


def cross_table(players: Sequence[Player], rounds: Sequence[Round], format_: Format) -> CrossTable:
    order = [s.player for s in standings(players, rounds, format_)]
    column = {p.id: j for j, p in enumerate(order)}
    cells = [["×" if i == j else "" for j in range(len(order))] for i in range(len(order))]
    for round_ in rounds:
        for pairing, result in round_.games():
            for player in pairing.players:
                if player not in column or pairing.opponent_of(player) not in column:
                    continue
                scored = result.half_points(pairing.colour_of(player))
                mark = _MARK[scored] if result.played else ("+" if scored == WIN else "-")
                i, j = column[player], column[pairing.opponent_of(player)]
                cells[i][j] = f"{cells[i][j]} {mark}".strip()
    return CrossTable(tuple(order), tuple(tuple(row) for row in cells))


def cross_table_csv(players: Sequence[Player], rounds: Sequence[Round], format_: Format) -> str:
    """The standings with the cross table as CSV (RFC 4180: commas, CRLF, quoted fields)."""
    lines = standings(players, rounds, format_)
    table = cross_table(players, rounds, format_)
    header = ["rank", "name", *(str(i) for i in range(1, len(lines) + 1)), "points"]
    header += [*TIE_BREAKS[format_], "direct encounter"]
    rows = [header]
    for line, cells in zip(lines, table.cells, strict=True):
        rows.append([
            str(line.rank), line.player.name, *cells, _number(line.points),
            *(_number(v) for v in line.tie_breaks), _number(line.direct_encounter),
        ])  # fmt: skip
    return "".join(",".join(_quoted(f) for f in row) + "\r\n" for row in rows)


def _number(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else str(float(value))


def _quoted(field: str) -> str:
    if any(c in field for c in ',"\r\n'):
        return '"' + field.replace('"', '""') + '"'
    return field
