"""How each rung of the ladder (:mod:`game.levels`) plays the searched games: Mulino, Dama,
Mangia and Lupo e pecore.

A level is a search budget and a way of choosing among the moves the search scored.  The
lower rungs err as people do rather than as a broken machine: they see few plies ahead,
choose among moves near the best — at random within a ``margin``, or by a softmax over the
scores with a ``temperature``, so a much worse move is rarely but sometimes played — and the
beginner now and then does not notice a capture or a mill it could make (``overlook``).
*Easy*, *medium* and *hard* play exactly as they did before the ladder.

>>> [s.tables for s in BOARD]
[False, False, False, False, False, False, False, True]
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SearchStyle:
    """One rung's way of searching and choosing."""

    max_depth: int = 64
    """The deepest iteration searched (the node budget usually stops it first)."""
    margin: int = 0
    """Choose at random among the root moves within this many hundredths of a piece of the
    best (0: the best)."""
    temperature: int = 0
    """If not 0, choose by a softmax over the root scores, ``exp((score - best) / t)``."""
    overlook: float = 0.0
    """The chance of not seeing each capture, removal or mill-closing move at the root
    (one such move is always seen if nothing else is legal)."""
    tables: bool = False
    """The endgame tables, and Mulino's extension for a side left with few moves."""


BOARD: tuple[SearchStyle, ...] = (
    SearchStyle(max_depth=1, temperature=60, overlook=0.35),  # 1, a beginner
    SearchStyle(max_depth=2, margin=60),  # 2, easy
    SearchStyle(max_depth=3, margin=40),  # 3
    SearchStyle(margin=25),  # 4
    SearchStyle(margin=12),  # 5, medium
    SearchStyle(margin=5),  # 6
    SearchStyle(),  # 7
    SearchStyle(tables=True),  # 8, hard
)
"""Mulino, Dama and Mangia, by rung (margins in the evaluators' hundredths of a piece)."""

LUPO: tuple[SearchStyle, ...] = (
    SearchStyle(max_depth=1, temperature=15),
    SearchStyle(max_depth=2, margin=15),  # easy
    SearchStyle(max_depth=3, margin=10),
    SearchStyle(max_depth=4, margin=6),
    SearchStyle(max_depth=6, margin=3),  # medium
    SearchStyle(max_depth=8, margin=1),
    SearchStyle(max_depth=12),
    SearchStyle(tables=True),  # hard: the solved game
)
"""Lupo e pecore, by rung (its evaluator counts in smaller units than a piece)."""
