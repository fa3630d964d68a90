"""Drawing lots among the seats: who begins (Ausgeblockt, Numeri) or who plays the wolf
(Lupo e pecore) — set in the setup, or a chance event at the start with every seat equally
likely, written ``first2`` or ``wolf1``.

>>> from game.rules import variant
>>> seat_chosen(variant("numeri", 3, {"first": 2}), "first"), lot_outcomes(3)[0]
(1, (0, Fraction(1, 3)))
>>> lot_text("wolf", 0), parse_lot("wolf", "wolf2"), parse_lot("wolf", "wolves")
('wolf1', 1, None)
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from game.rules.core import Action, Seat

if TYPE_CHECKING:
    from game.rules.variants import Variant


def seat_chosen(chosen: Variant, option: str) -> Seat | None:
    """The seat the setup's ``option`` names, or None when it is left to the lot."""
    value = chosen.option(option)
    return None if value == "lot" else int(value) - 1


def lot_outcomes(players: int) -> list[tuple[Action, Fraction]]:
    """The lot's outcomes: every seat, equally likely."""
    return [(seat, Fraction(1, players)) for seat in range(players)]


def lot_text(word: str, seat: Seat) -> str:
    """The notation of the lot falling on ``seat``: ``first2``."""
    return f"{word}{seat + 1}"


def parse_lot(word: str, text: str) -> Seat | None:
    """The seat ``text`` names as the lot's outcome (whether the table has that seat is the
    engine's check), or None if it is not a lot's notation."""
    number = text[len(word) :]
    if not text.startswith(word) or not number.isdecimal() or len(number) > 3 or int(number) < 1:
        return None
    return int(number) - 1
