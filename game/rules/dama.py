"""Dama (checkers with flying kings) and Mangia la dama (the losing game).

Each side has a 32-bit mask of men and one of kings (see :mod:`checkerboard` for the squares).
Actions are move numbers made by :func:`checkerboard.path_code`, plus 0–31 for *huffing*
(removing the opponent piece on that square that failed to capture), with the option on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from game.rules.checkerboard import (
    BLACK,
    FAR_ROW,
    JUMPS,
    RAYS,
    SIDE_NAMES,
    SQUARES,
    STEPS,
    WHITE,
    decode_path,
    draw_board,
    parse_path,
    parse_square,
    path_code,
    path_text,
    squares_of,
)
from game.rules.core import (
    TERMINAL,
    DecodeError,
    Reason,
    Result,
    State,
    check_int,
    check_list,
)
from game.rules.draws import with_draw_rules
from game.rules.variants import Rule

if TYPE_CHECKING:
    from collections.abc import Sequence

    from game.rules.variants import Variant

QUIET_PLY_LIMIT = 80
MISERE = Rule.MISERE
FULL = (1 << SQUARES) - 1


def _start_men() -> tuple[int, int]:
    return (FULL ^ ((1 << 20) - 1), (1 << 12) - 1)


class DamaState(State):
    """A position of Dama or Mangia la dama.

    ``huff`` holds, with huffing on, the squares of the pieces of the side that just moved
    which could have captured but did not: the side to move may remove one of them first.
    """

    __slots__ = (
        "_capturers",
        "_moves",
        "_result",
        "history",
        "huff",
        "kings",
        "men",
        "quiet",
        "side",
    )

    NOTATION_HINT = "move 22-18, capture 22x15 or 22x15x6, huff h22"

    men: tuple[int, int]
    kings: tuple[int, int]
    side: int
    huff: int
    quiet: int
    history: tuple[int, ...]
    _result: Result | None
    _moves: dict[int, tuple[int, int, int]] | None
    _capturers: int

    @classmethod
    def initial(cls, variant: Variant) -> DamaState:
        men = _start_men()
        return _make(variant, men, (0, 0), WHITE, 0, 0, (_key(men, (0, 0), WHITE, 0),), None)

    @classmethod
    def from_pieces(
        cls,
        variant: Variant,
        men: tuple[int, int],
        kings: tuple[int, int],
        side: int = WHITE,
    ) -> DamaState:
        """A position set up by hand (for tests, puzzles and analysis)."""
        if (men[0] | kings[0]) & (men[1] | kings[1]) or men[0] & kings[0] or men[1] & kings[1]:
            raise DecodeError("two pieces on one square")
        if men[0] & FAR_ROW[WHITE] or men[1] & FAR_ROW[BLACK]:
            raise DecodeError("a man on its crowning row")
        return _make(variant, men, kings, side, 0, 0, (_key(men, kings, side, 0),), None)

    @property
    def mangia(self) -> bool:
        return self.variant.has(MISERE)

    @property
    def huffing(self) -> bool:
        return dict(self.variant.options).get("huffing") is True

    # -- turn and result ------------------------------------------------------------------

    @property
    def to_move(self) -> int:
        if self._result is not None:
            return TERMINAL
        if self._legal is None:
            self._legal = self._generate_legal()
            if not self._legal:
                loser = self.side
                winner = loser if self.mangia else 1 - loser
                has_pieces = self.men[loser] | self.kings[loser]
                self._result = Result.win_for(
                    winner, 2, Reason.NO_MOVES if has_pieces else Reason.NO_PIECES
                )
                return TERMINAL
        return self.side

    def result(self) -> Result | None:
        return self._result if self.to_move == TERMINAL else None

    # -- legal actions --------------------------------------------------------------------

    def _generate_legal(self) -> tuple[int, ...]:
        side = self.side
        moves, self._capturers = moves_of(
            side,
            self.men[side],
            self.kings[side],
            self.men[1 - side] | self.kings[1 - side],
            quiet_too=self.huffing,
        )
        self._moves = moves
        if self.huff:
            return (*squares_of(self.huff), *moves)
        return tuple(moves)

    # -- applying -------------------------------------------------------------------------

    def _successor(self, action: int) -> DamaState:
        side, other = self.side, 1 - self.side
        men, kings = list(self.men), list(self.kings)
        if action < SQUARES:  # huffing: the piece that failed to capture is removed
            bit = ~(1 << action)
            men[other] &= bit
            kings[other] &= bit
            men_t, kings_t = (men[0], men[1]), (kings[0], kings[1])
            return _make(
                self.variant, men_t, kings_t, side, 0, 0, (_key(men_t, kings_t, side, 0),), None
            )
        start, to, captured = self._moves[action]  # type: ignore[index]
        start_bit, to_bit = 1 << start, 1 << to
        man_move = bool(men[side] & start_bit)
        if man_move:
            men[side] ^= start_bit
            if to_bit & FAR_ROW[side]:
                kings[side] |= to_bit
            else:
                men[side] |= to_bit
        else:
            kings[side] ^= start_bit ^ to_bit  # a ring capture ends where it began
        if captured:
            men[other] &= ~captured
            kings[other] &= ~captured
        huff = 0
        if not captured and self._capturers and self.huffing:
            huff = self._capturers
            if huff & start_bit:
                huff ^= start_bit | to_bit
        men_t, kings_t = (men[0], men[1]), (kings[0], kings[1])
        key = _key(men_t, kings_t, other, huff)
        if captured or man_move:
            return _make(self.variant, men_t, kings_t, other, huff, 0, (key,), None)
        history = (*self.history, key)
        quiet = self.quiet + 1
        state = _make(self.variant, men_t, kings_t, other, huff, quiet, history, None)
        return with_draw_rules(state, quiet, QUIET_PLY_LIMIT)

    # -- notation -------------------------------------------------------------------------

    def _action_text(self, action: int) -> str:
        return f"h{action + 1}" if action < SQUARES else path_text(action)

    def _parse(self, text: str) -> int | None:
        if text[:1].lower() == "h":
            square = parse_square(text[1:].lower())
            return None if square is None else square
        parsed = parse_path(text)
        if parsed is None:
            return None
        path, capture = parsed
        return path_code(path, capture)

    def _readings(self, action: int) -> tuple[int, ...]:
        """``22x6`` for the capture from 22 that ends on 6 through squares left out, as PDN
        allows."""
        if action < SQUARES:
            return ()
        path, capture = decode_path(action)
        if not capture or len(path) != 2:
            return ()
        return tuple(
            a
            for a in self.legal_actions()
            if a >= SQUARES
            and a & 1
            and decode_path(a)[0][0] == path[0]
            and decode_path(a)[0][-1] == path[1]
        )

    def _why_illegal(self, action: int, legal: Sequence[int]) -> str:
        if action < SQUARES:
            return "no piece here may be huffed"
        path, capture = decode_path(action)
        own = self.men[self.side] | self.kings[self.side]
        if not own >> path[0] & 1:
            return f"no {SIDE_NAMES[self.side]} piece on {path[0] + 1}"
        if not capture and any(a & 1 for a in legal if a >= SQUARES) and not self.huffing:
            captures = [a for a in legal if a >= SQUARES and a & 1]
            return "capturing is compulsory: " + self._listing(captures)
        return super()._why_illegal(action, legal)

    # -- encoding and display -------------------------------------------------------------

    def to_fields(self) -> list[Any]:
        ended = self.result()
        result = None if ended is None else ended.to_fields()
        history = [key.to_bytes(_KEY_BYTES, "big") for key in self.history]
        return [list(self.men), list(self.kings), self.side, self.huff, self.quiet, history, result]

    @classmethod
    def from_fields(cls, variant: Variant, fields: list[Any]) -> DamaState:
        men, kings, side, huff, quiet, history, result = check_list(fields, 7, "dama state")
        men = tuple(check_int(m, 0, FULL, "men") for m in check_list(men, 2, "men"))
        kings = tuple(check_int(k, 0, FULL, "kings") for k in check_list(kings, 2, "kings"))
        side = check_int(side, 0, 1, "side")
        state = cls.from_pieces(variant, men, kings, side)
        state.huff = check_int(huff, 0, FULL, "huff")
        if state.huff & ~(men[1 - side] | kings[1 - side]):
            raise DecodeError("huffing names a square without an opponent piece")
        state.quiet = check_int(quiet, 0, QUIET_PLY_LIMIT, "quiet plies")
        history = check_list(history, None, "history")
        if not all(isinstance(k, bytes) and len(k) == _KEY_BYTES for k in history):
            raise DecodeError("history entries are position keys")
        state.history = tuple(int.from_bytes(k, "big") for k in history)
        state._result = None if result is None else Result.from_fields(result)
        return state

    def _describe(self) -> tuple[str, str]:
        letters: dict[int, str] = {}
        for side, (man, king) in enumerate((("w", "W"), ("b", "B"))):
            letters |= dict.fromkeys(squares_of(self.men[side]), man)
            letters |= dict.fromkeys(squares_of(self.kings[side]), king)
        status = f"{SIDE_NAMES[self.side]} to move"
        if self.huff:
            status += ", may huff " + " ".join(str(s + 1) for s in squares_of(self.huff))
        return draw_board(letters), status


def moves_of(
    side: int, own_men: int, own_kings: int, opp: int, quiet_too: bool = False
) -> tuple[dict[int, tuple[int, int, int]], int]:
    """The moves of ``side`` with these pieces against the pieces ``opp``: a map from each
    move's number to (start, end, captured squares), and the squares of the pieces that can
    capture.  Quiet moves are left out when a capture exists, unless ``quiet_too`` (huffing).

    This is the whole move generator on bare masks: the states use it, and so does the
    endgame-table builder, which cannot afford a state per position.
    """
    occupied = own_men | own_kings | opp
    moves: dict[int, tuple[int, int, int]] = {}
    capturers = 0
    jumps = JUMPS[side]
    for start in squares_of(own_men):
        for over, land in jumps[start]:
            if opp >> over & 1 and not occupied >> land & 1:
                _man_captures(
                    jumps,
                    start,
                    land,
                    1 << over,
                    opp,
                    occupied & ~(1 << start),
                    (start + 1) + 33 * (land + 1),
                    33 * 33,
                    moves,
                )
                capturers |= 1 << start
    for start in squares_of(own_kings):
        before = len(moves)
        _king_captures(start, start, 0, opp, occupied & ~(1 << start), start + 1, 33, moves)
        if len(moves) > before:
            capturers |= 1 << start
    if not moves or quiet_too:
        empty = FULL ^ occupied
        steps = STEPS[side]
        for start in squares_of(own_men):
            for to in steps[start]:
                if empty >> to & 1:
                    moves[((start + 1) + 33 * (to + 1)) << 1] = (start, to, 0)
        for start in squares_of(own_kings):
            for ray in RAYS[start]:
                for to in ray:
                    if not empty >> to & 1:
                        break
                    moves[((start + 1) + 33 * (to + 1)) << 1] = (start, to, 0)
    return moves, capturers


def _man_captures(
    jumps: tuple[tuple[tuple[int, int], ...], ...],
    start: int,
    at: int,
    captured: int,
    opp: int,
    occupied: int,
    code: int,
    weight: int,
    moves: dict[int, tuple[int, int, int]],
) -> None:
    """Every way a man on ``at`` can go on capturing (it came from ``start`` and has taken
    ``captured``, which stay on the board until the move ends); ``jumps`` is its side's jump
    table."""
    extended = False
    for over, land in jumps[at]:
        if opp >> over & 1 and not captured >> over & 1 and not occupied >> land & 1:
            extended = True
            _man_captures(
                jumps,
                start,
                land,
                captured | 1 << over,
                opp,
                occupied,
                code + (land + 1) * weight,
                weight * 33,
                moves,
            )
    if not extended:
        moves[code * 2 + 1] = (start, at, captured)


def _king_captures(
    start: int,
    at: int,
    captured: int,
    opp: int,
    occupied: int,
    code: int,
    weight: int,
    moves: dict[int, tuple[int, int, int]],
) -> None:
    """Every way a king on ``at`` can go on capturing: along each diagonal over empty squares
    to one uncaptured opponent piece, landing on the square right behind it."""
    extended = False
    for ray in RAYS[at]:
        for k, square in enumerate(ray):
            if occupied >> square & 1:
                if (
                    opp >> square & 1
                    and not captured >> square & 1
                    and k + 1 < len(ray)
                    and not occupied >> ray[k + 1] & 1
                ):
                    land = ray[k + 1]
                    extended = True
                    _king_captures(
                        start,
                        land,
                        captured | 1 << square,
                        opp,
                        occupied,
                        code + (land + 1) * weight,
                        weight * 33,
                        moves,
                    )
                break
    if not extended and captured:
        moves[code * 2 + 1] = (start, at, captured)


_KEY_BYTES = 21  # a position key has 161 bits


def _key(men: tuple[int, int], kings: tuple[int, int], side: int, huff: int) -> int:
    return men[0] | men[1] << 32 | kings[0] << 64 | kings[1] << 96 | side << 128 | huff << 129


def _make(
    variant: Variant,
    men: tuple[int, int],
    kings: tuple[int, int],
    side: int,
    huff: int,
    quiet: int,
    history: tuple[int, ...],
    result: Result | None,
) -> DamaState:
    state = object.__new__(DamaState)
    state.variant = variant
    state._legal = None
    state._moves = None
    state._capturers = 0
    state.men = men
    state.kings = kings
    state.side = side
    state.huff = huff
    state.quiet = quiet
    state.history = history
    state._result = result
    return state
