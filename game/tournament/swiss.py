"""The Swiss pairing of one round, after FIDE's Dutch system (C.04.3), simplified into rules
short enough to state whole (docs/PROTOCOL.md, TOURNAMENT) and check on every peer.

The players are ranked by score, then starting rank (seed). Two may meet if they have not
been paired before and (first attempt) do not share an absolute colour preference
(``colours``). Then:

1. **Bye** (odd count): to the lowest-ranked player without a bye so far whose absence
   leaves the rest pairable.
2. **Brackets**, from the top score down: a bracket is the players floated down from the
   bracket above and the players of the next score. It pairs as many of its players as it
   can while the players left (its floaters and every lower score) can still all be paired;
   the players who float are the lowest-ranked such choice.
3. **Within a bracket** the top half S1 meets the bottom half S2: S1's players in order each
   take the first S2 player (in order) who, of those whose colour preferences the pair can
   both have, leaves S1 × S2 pairable, then of the others likewise (FIDE's transpositions).
   When S1 × S2 cannot be paired whole, the highest unpaired player takes, in the same way,
   the first opponent from S2 then from S1 upwards (the exchanges).
4. **Colours** by ``colours.higher_gets``.

When no pairing meets the colour rules, the round is paired again without them (never a
pair twice); when even that fails, :class:`PairingImpossibleError`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from game.tournament.colours import clash, higher_gets, preference, wants_differ
from game.tournament.matching import has_perfect_matching, maximum_matching
from game.tournament.model import Colour, Pairing


class PairingImpossibleError(ValueError):
    """No pairing of the round keeps the rule that no pair meets twice."""


@dataclass(frozen=True)
class Entrant:
    """What the pairing knows of a player: their rank, score, opponents, colours, bye."""

    id: str
    seed: int
    half_points: int
    opponents: frozenset[str] = frozenset()
    colours: tuple[Colour, ...] = ()
    """Colours of the games played over the board, oldest first."""
    had_bye: bool = False


@dataclass(frozen=True)
class SwissRound:
    """A round's pairing: the games (board 1 first), the bye, and whether the colour rules
    had to be set aside to pair it at all."""

    pairings: tuple[Pairing, ...]
    bye: str | None
    colours_relaxed: bool = False


def ranking_key(entrant: Entrant) -> tuple[int, int]:
    return (-entrant.half_points, entrant.seed)


def pair_round(entrants: Sequence[Entrant]) -> SwissRound:
    """The next round's pairing for these players (withdrawn players left out by the
    caller). Deterministic: the same players give the same pairing on every machine."""
    ranked = sorted(entrants, key=ranking_key)
    if len({e.id for e in ranked}) != len(ranked):
        raise ValueError("a player is listed twice")
    for strict in (True, False):
        found = _Pairer(ranked, strict).pair()
        if found is not None:
            pairs, bye = found
            return SwissRound(_coloured(pairs, ranked), bye, colours_relaxed=not strict)
    raise PairingImpossibleError("no pairing avoids meeting an opponent again")


class _Pairer:
    def __init__(self, ranked: list[Entrant], strict: bool) -> None:
        self.ranked = ranked
        self.index = {e.id: i for i, e in enumerate(ranked)}
        n = len(ranked)
        self.allowed = [[False] * n for _ in range(n)]
        self.happy = [[False] * n for _ in range(n)]
        wish = [preference(e.colours) for e in ranked]
        for i, a in enumerate(ranked):
            for j in range(i + 1, n):
                b = ranked[j]
                ok = b.id not in a.opponents and a.id not in b.opponents
                if strict and ok:
                    ok = not clash(wish[i], wish[j])
                self.allowed[i][j] = self.allowed[j][i] = ok
                happy = ok and wants_differ(wish[i], wish[j])
                self.happy[i][j] = self.happy[j][i] = happy

    def pairable(self, players: Sequence[int]) -> bool:
        return _perfect(players, lambda a, b: self.allowed[a][b])

    def pair(self) -> tuple[list[tuple[int, int]], str | None] | None:
        players = list(range(len(self.ranked)))
        bye = None
        if len(players) % 2:
            for candidate in reversed(players):
                if self.ranked[candidate].had_bye:
                    continue
                rest = [p for p in players if p != candidate]
                if self.pairable(rest):
                    bye, players = candidate, rest
                    break
            else:
                return None
        elif not self.pairable(players):
            return None
        pairs: list[tuple[int, int]] = []
        floaters: list[int] = []
        scores = sorted({self.ranked[p].half_points for p in players}, reverse=True)
        for score in scores:
            bracket = floaters + [p for p in players if self.ranked[p].half_points == score]
            lower = [p for p in players if self.ranked[p].half_points < score]
            made, floaters = self.bracket(bracket, lower)
            pairs += made
        assert not floaters, "the rest was pairable, so the last bracket pairs whole"
        return pairs, None if bye is None else self.ranked[bye].id

    def bracket(
        self, bracket: list[int], lower: list[int]
    ) -> tuple[list[tuple[int, int]], list[int]]:
        """The pairs made in ``bracket`` and the players it floats down.

        Trying every set of floaters in order (as the rule reads) is exponential: a bracket
        of 24 that must float 8 of its top players tries 145,000 sets. So the number of
        pairs is bounded first by two cheap matchings (the bracket cannot make more pairs
        than its own maximum matching, and must float at least as many players as the
        lower players leave unmatched among themselves), and the floaters are then chosen
        by a depth-first search in the rule's order, from the lowest-ranked player up,
        that abandons a branch as soon as the players it keeps cannot make the pairs."""
        size = len(bracket)
        inside = _matched(bracket, self.allowed)
        alone = len(lower) - _matched(lower, self.allowed)
        most = min(inside // 2, (size - alone) // 2)
        for made in range(most, -1, -1):
            found = self._floats(bracket, lower, size - 2 * made)
            if found is not None:
                stay = [p for p in bracket if p not in found]
                return self.within(stay), [p for p in bracket if p in found]
        raise AssertionError("a bracket can always float all its players")

    def _floats(self, bracket: list[int], lower: list[int], count: int) -> set[int] | None:
        """The ``count`` floaters the rule chooses, or None: sets are tried lowest-ranked
        first (compared from the lowest up), as ``combinations`` of the reversed bracket
        would list them, but a choice is dropped when those left to stay (the undecided
        and the chosen stayers) can no longer make the bracket's pairs."""
        size = len(bracket)
        pairs = (size - count) // 2
        floats: list[int] = []

        def search(position: int) -> bool:
            if len(floats) == count:
                stay = [p for p in bracket if p not in floats]
                return self.pairable(stay) and self.pairable(sorted(floats) + lower)
            if position < 0 or position + 1 < count - len(floats):
                return False
            floats.append(bracket[position])
            keep = [p for p in bracket if p not in floats]
            if _matched(keep, self.allowed) >= 2 * pairs and search(position - 1):
                return True
            floats.pop()
            return search(position - 1)

        return set(floats) if search(size - 1) else None

    def within(self, stay: list[int]) -> list[tuple[int, int]]:
        half = len(stay) // 2
        s1, s2 = stay[:half], stay[half:]
        top = set(s1)

        def across(a: int, b: int) -> bool:
            return self.allowed[a][b] and ((a in top) != (b in top))

        if _perfect(stay, across):
            return self.greedy(stay, lambda p: s2, across)
        return self.greedy(stay, lambda p: s2 + s1[::-1], lambda a, b: self.allowed[a][b])

    def greedy(
        self,
        stay: list[int],
        order: Callable[[int], list[int]],
        allowed: Callable[[int, int], bool],
    ) -> list[tuple[int, int]]:
        """From the top, each unpaired player takes the first opponent in ``order`` that
        leaves the rest pairable, preferring one with whom both have their colour."""
        left = list(stay)
        pairs = []
        while left:
            top = left[0]
            options = [q for q in order(top) if q in left and q != top and allowed(top, q)]
            ranked = [q for q in options if self.happy[top][q]]
            ranked += [q for q in options if not self.happy[top][q]]
            for q in ranked:
                rest = [p for p in left if p not in (top, q)]
                if _perfect(rest, allowed):
                    pairs.append((top, q))
                    left = rest
                    break
            else:
                raise AssertionError("the players left were pairable")
        return pairs


def _matched(players: Sequence[int], allowed: list[list[bool]]) -> int:
    """How many of ``players`` a maximum matching among themselves pairs."""
    adjacent = [
        [j for j, b in enumerate(players) if j != i and allowed[a][b]]
        for i, a in enumerate(players)
    ]
    return sum(m != -1 for m in maximum_matching(adjacent))


def _perfect(players: Sequence[int], allowed: Callable[[int, int], bool]) -> bool:
    if len(players) % 2:
        return False
    adjacent = [
        [j for j, b in enumerate(players) if j != i and allowed(a, b)]
        for i, a in enumerate(players)
    ]
    return has_perfect_matching(adjacent)


def _coloured(pairs: list[tuple[int, int]], ranked: list[Entrant]) -> tuple[Pairing, ...]:
    """The pairs as games, board 1 the pair with the highest-ranked player, coloured."""
    games = []
    ordered = sorted((min(a, b), max(a, b)) for a, b in pairs)
    for board, (a, b) in enumerate(ordered, 1):
        high, low = ranked[a], ranked[b]
        if higher_gets(high.colours, low.colours, board) is Colour.WHITE:
            games.append(Pairing(high.id, low.id))
        else:
            games.append(Pairing(low.id, high.id))
    return tuple(games)
