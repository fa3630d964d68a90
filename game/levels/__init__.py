"""The computer players' levels, weakest first: one list, so that no layer knows a level
another does not.

The levels form a ladder of :data:`RUNGS` rungs, 1 the weakest.  Three rungs keep the names
the game always had — *easy* (2), *medium* (5) and *hard* (8) — and are written so
wherever a level is stored or sent (seats, saves, settings, the LAN protocol, the engine
protocol): a save or a setting of an older version is a level of the ladder as it stands.
The other rungs are written ``level-N``.  The LAN protocol carries only the named levels
(:data:`LEVELS`) for now.

>>> LADDER
('level-1', 'easy', 'level-3', 'level-4', 'medium', 'level-6', 'level-7', 'hard')
>>> rung("medium"), canonical("level-8"), canonical("3")
(5, 'hard', 'level-3')
"""

from __future__ import annotations

LEVELS = ("easy", "medium", "hard")
"""The named levels, weakest first (and the only ones the LAN protocol carries)."""

RUNGS = 8
"""How many levels the ladder has."""

NAMED = {"easy": 2, "medium": 5, "hard": 8}
"""The rung of each named level."""

LADDER: tuple[str, ...] = tuple(
    next((name for name, at in NAMED.items() if at == n), f"level-{n}") for n in range(1, RUNGS + 1)
)
"""Every level by the name it is stored under, weakest first."""


def rung(level: str) -> int:
    """The rung (1…:data:`RUNGS`) of a level named as stored (``easy``, ``level-3``) or by
    its number (``3``); ValueError for anything else."""
    if level in NAMED:
        return NAMED[level]
    number = level.removeprefix("level-")
    if number.isdigit() and number.isascii() and 1 <= int(number) <= RUNGS:
        return int(number)
    raise ValueError(f"unknown level {level!r} (levels: 1 to {RUNGS}, {', '.join(LEVELS)})")


def canonical(level: str) -> str:
    """The name a level is stored under (``level-2`` and ``2`` are ``easy``)."""
    return LADDER[rung(level) - 1]
