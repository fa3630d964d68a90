"""Set-up positions of the Dama games in PDN's FEN: ``W:W18,22,K5:B11,15`` — the side to
move, then each side's pieces (``K`` before a king), squares numbered as in
:mod:`checkerboard` (``c5`` names are read too), ranges ``21-32`` as PDN 3.0 allows.

White stands on 21–32 and moves up, as in Tavolo's Dama (PDN's ``W``).  A set-up position
starts with no quiet plies counted and no earlier position seen.

>>> from game.rules import variant
>>> state = position_from_fen(variant("dama"), "W:W18,22:B11,15")
>>> fen_of(state), [state.action_to_str(a) for a in state.legal_actions()][:2]
('W:W18,22:B11,15', ['18-14', '22-17'])
>>> position_from_fen(variant("dama"), "W:W35:B1")
Traceback (most recent call last):
    ...
game.rules.fen.FenError: FEN 'W:W35:B1': square 35 is not on the 8×8 board (1–32)
"""

from __future__ import annotations

import re

from game.rules.checkerboard import BLACK, SQUARES, WHITE, parse_square, squares_of
from game.rules.core import DecodeError, RulesError, State
from game.rules.dama import DamaState
from game.rules.registry import start
from game.rules.variants import Variant

SET_UP_GAMES = ("dama:classic", "dama:mangia")
"""The variants a match may start in from a set-up position."""
_SIDES = {"W": WHITE, "B": BLACK}
_LETTER = {WHITE: "W", BLACK: "B"}


class FenError(RulesError):
    """A FEN that is not a position of the board, with the reason."""

    def __init__(self, fen: str, reason: str) -> None:
        super().__init__(f"FEN {fen!r}: {reason}")
        self.fen = fen
        self.reason = reason


def fen_squares(fen: str) -> list[int]:
    """Every square number a FEN names (1-based, as written; ranges spelled out): how a reader
    tells a 10×10 position (squares up to 50) from an 8×8 one."""
    return [int(n) for n in re.findall(r"\d{1,4}", fen.split(":H", 1)[0].split(":F", 1)[0])]


def position_from_fen(chosen: Variant, fen: str) -> State:
    """The position ``fen`` describes, in ``chosen``; :class:`FenError` says why not."""
    text = fen.strip().strip('"').rstrip(".").strip()
    if chosen.name not in SET_UP_GAMES:
        raise FenError(fen, f"{chosen.name} has no set-up positions")
    sections = [s.strip() for s in text.split(":")]
    if not sections or sections[0].upper() not in _SIDES:
        raise FenError(fen, "it must begin with the side to move, W or B")
    side = _SIDES[sections[0].upper()]
    men, kings, seen = [0, 0], [0, 0], set()
    for section in sections[1:]:
        if not section:
            continue
        letter = section[0].upper()
        if letter in "HF" and section[1:].isdecimal():  # move clock and number: not kept
            continue
        if letter not in _SIDES:
            raise FenError(fen, f"{section!r}: a side's pieces begin with W or B")
        if letter in seen:
            raise FenError(fen, f"the pieces of {letter} are given twice")
        seen.add(letter)
        owner = _SIDES[letter]
        for item in filter(None, (i.strip() for i in section[1:].split(","))):
            king = item[0].upper() == "K"
            for square in _squares(fen, item[1:] if king else item):
                bit = 1 << square
                if (men[0] | men[1] | kings[0] | kings[1]) & bit:
                    raise FenError(fen, f"two pieces on square {square + 1}")
                if king:
                    kings[owner] |= bit
                else:
                    men[owner] |= bit
    try:
        return DamaState.from_pieces(chosen, (men[0], men[1]), (kings[0], kings[1]), side)
    except DecodeError as error:
        raise FenError(fen, str(error)) from error


def _squares(fen: str, item: str) -> list[int]:
    """The squares (0-based) of one item of a side's list: ``18``, ``c5`` or ``21-32``."""
    first, dash, last = item.partition("-")
    if dash and first.isdecimal() and last.isdecimal():
        low, high = int(first[:4]), int(last[:4])
        if low > high:
            raise FenError(fen, f"the range {item!r} runs backwards")
        for number in (low, high):
            if not 1 <= number <= SQUARES:
                raise FenError(fen, f"square {number} is not on the 8×8 board (1–{SQUARES})")
        return list(range(low - 1, high))
    if item.isdecimal() and not 1 <= int(item[:4]) <= SQUARES:
        raise FenError(fen, f"square {item[:4]} is not on the 8×8 board (1–{SQUARES})")
    square = parse_square(item.lower())
    if square is None:
        raise FenError(fen, f"{item!r} is not a square")
    return [square]


def fen_of(state: State) -> str:
    """The FEN of a Dama position (the side to move, then White's and Black's pieces)."""
    if not isinstance(state, DamaState):
        raise RulesError(f"{state.variant.name} has no FEN")
    parts = [_LETTER[state.side]]
    for side in (WHITE, BLACK):
        pieces = sorted(
            [(s, "") for s in squares_of(state.men[side])]
            + [(s, "K") for s in squares_of(state.kings[side])]
        )
        parts.append(_LETTER[side] + ",".join(f"{king}{s + 1}" for s, king in pieces))
    return ":".join(parts)


def setup_of(chosen: Variant, fen: str) -> str | None:
    """``fen`` as a match keeps a set-up start (a record, the LAN log's opening): written the
    one way :func:`fen_of` writes it, None for the variant's own start, which is no set-up;
    :class:`FenError` for a FEN that is no position of ``chosen``."""
    written = fen_of(position_from_fen(chosen, fen))
    return None if written == fen_of(start(chosen)) else written
