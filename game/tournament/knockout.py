"""Knockout: a seeded bracket, winners go on, a drawn match is decided by deciders.

The bracket has room for the next power of two of players; its slots are in the standard
seeding order (for 8: 1 8 4 5 2 7 3 6), so round 1 is 1 v N, 2 v N−1 … and the first two
seeds can meet only in the final. Seeds beyond the players are missing, so the top seeds
have the byes. In each round the slots pair off two by two; the higher seed has White in
the first game; a player whose opponent's slot is empty (a bye, or a withdrawal) goes on.

A match is decided by its first decisive game (a forfeit included). A draw is followed by
a decider between the same two in the same round, the colours reversed from the game
before, up to :data:`MOST_DECIDERS`; when the last of those is drawn too, the higher seed
goes on.

>>> seeding_order(8)
[1, 8, 4, 5, 2, 7, 3, 6]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from game.tournament.model import Pairing, Round

MOST_DECIDERS = 2
"""Deciders a match may have after its first game; the higher seed goes on after that."""

Slot = str | None


def seeding_order(size: int) -> list[int]:
    """Seed numbers (from 1) in bracket order for a bracket of ``size``, a power of two."""
    if size < 1 or size & (size - 1):
        raise ValueError("a bracket's size is a power of two")
    order = [1]
    while len(order) < size:
        order = [seed for s in order for seed in (s, 2 * len(order) + 1 - s)]
    return order


def bracket_size(players: int) -> int:
    size = 1
    while size < players:
        size *= 2
    return size


def first_slots(ids_by_seed: Sequence[str]) -> list[Slot]:
    """Round 1's slots: the players (best seed first) in bracket order, None for a bye."""
    size = bracket_size(len(ids_by_seed))
    return [
        ids_by_seed[seed - 1] if seed <= len(ids_by_seed) else None for seed in seeding_order(size)
    ]


def rounds_needed(players: int) -> int:
    return bracket_size(players).bit_length() - 1


@dataclass(frozen=True)
class Match:
    """Two slots of a round: a game to play, a player going on alone, or nobody."""

    first: Slot
    second: Slot


def matches(slots: Sequence[Slot]) -> list[Match]:
    return [Match(slots[i], slots[i + 1]) for i in range(0, len(slots), 2)]


def pair(slots: Sequence[Slot], seed_of: Callable[[str], int]) -> tuple[list[Pairing], list[str]]:
    """A round's first games (the higher seed White) and its byes."""
    games, byes = [], []
    for match in matches(slots):
        if match.first is not None and match.second is not None:
            high, low = sorted((match.first, match.second), key=seed_of)
            games.append(Pairing(high, low))
        elif match.first is not None or match.second is not None:
            byes.append(match.first if match.first is not None else match.second)
    return games, [b for b in byes if b is not None]


def decision(
    a: str, b: str, round_: Round, seed_of: Callable[[str], int]
) -> tuple[str | None, Pairing | None]:
    """The winner of the match of ``a`` and ``b`` in ``round_`` so far, or the decider to
    play next (both None: a game of theirs still has no result)."""
    games = [
        (p, r)
        for p, r in zip(round_.pairings, round_.outcomes, strict=True)
        if set(p.players) == {a, b}
    ]
    if not games:
        raise ValueError(f"{a} and {b} have no game in round {round_.number}")
    for pairing, result in games:
        if result is None:
            return None, None
        if not result.undecided:
            return (pairing.white if result.white_half_points > result.black_half_points
                    else pairing.black), None  # fmt: skip
    if len(games) - 1 < MOST_DECIDERS:
        last = games[-1][0]
        return None, Pairing(last.black, last.white)
    return min((a, b), key=seed_of), None


def next_slots(slots: Sequence[Slot], round_: Round, seed_of: Callable[[str], int]) -> list[Slot]:
    """The slots of the round after ``round_``, whose slots (withdrawals taken out) were
    ``slots``: each match's winner, a player alone, or None."""
    following: list[Slot] = []
    for match in matches(slots):
        if match.first is not None and match.second is not None:
            winner, _ = decision(match.first, match.second, round_, seed_of)
            if winner is None:
                raise ValueError(f"round {round_.number} is not decided yet")
            following.append(winner)
        else:
            following.append(match.first if match.first is not None else match.second)
    return following
