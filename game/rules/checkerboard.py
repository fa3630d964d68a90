"""The 8×8 board of Dama and Lupo e pecore: its 32 dark squares, their numbers and the
diagonals through them, as tables built once.

Square ``i`` (0–31) is the square numbered ``i + 1`` in the draughts (PDN) manner: b8 = 1,
d8 = 2, …, g1 = 32.  White stands at the bottom (rows 1–3) and moves up.

Moves are numbered by their path: the squares ``s0, s1, … sk`` give
``Σ (s_j + 1)·33^j``, doubled, plus 1 for a capture.  Every path of at least two squares
gets a number of 68 or more, which leaves 0–31 free for actions on a single square.
"""

from __future__ import annotations

from game.rules.bits import bit_table

SQUARES = 32
NE, NW, SE, SW = 0, 1, 2, 3
DIRECTIONS = ((1, 1), (-1, 1), (1, -1), (-1, -1))
FORWARD = ((NE, NW), (SE, SW))
"""The directions a man of White (side 0) or Black (side 1) moves in."""
FAR_ROW = (0xF, 0xF << 28)
"""The squares on which a man of White or of Black is crowned."""
WHITE, BLACK = 0, 1
SIDE_NAMES = ("White", "Black")


def coords(square: int) -> tuple[int, int]:
    """Column and row of a square, both 0–7, (0, 0) being a1."""
    row = 7 - square // 4
    return 2 * (square % 4) + (row % 2), row


def square_at(col: int, row: int) -> int | None:
    """The square at column and row 0–7, or None off the board or on a light square."""
    if 0 <= col < 8 and 0 <= row < 8 and (col + row) % 2 == 0:
        return (7 - row) * 4 + col // 2
    return None


def _ray(square: int, direction: int) -> tuple[int, ...]:
    (col, row), (dc, dr) = coords(square), DIRECTIONS[direction]
    ray = []
    while (nxt := square_at(col + dc, row + dr)) is not None:
        ray.append(nxt)
        col, row = col + dc, row + dr
    return tuple(ray)


RAYS = tuple(tuple(_ray(s, d) for d in range(4)) for s in range(SQUARES))
"""``RAYS[s][d]``: the squares from ``s`` outwards in direction ``d``."""
STEPS = tuple(
    tuple(tuple(RAYS[s][d][0] for d in FORWARD[side] if RAYS[s][d]) for s in range(SQUARES))
    for side in (WHITE, BLACK)
)
"""``STEPS[side][s]``: the squares a man of ``side`` on ``s`` can step to."""
JUMPS = tuple(
    tuple(
        tuple((RAYS[s][d][0], RAYS[s][d][1]) for d in FORWARD[side] if len(RAYS[s][d]) > 1)
        for s in range(SQUARES)
    )
    for side in (WHITE, BLACK)
)
"""``JUMPS[side][s]``: (jumped square, landing square) of each capture a man could make."""
NEIGHBOURS = tuple(tuple(RAYS[s][d][0] for d in range(4) if RAYS[s][d]) for s in range(SQUARES))

_BYTE_0, _BYTE_1, _BYTE_2, _BYTE_3 = (bit_table(8, 8 * k) for k in range(4))


def squares_of(mask: int) -> tuple[int, ...]:
    """The squares of a 32-bit mask, in order."""
    return (
        _BYTE_0[mask & 255]
        + _BYTE_1[mask >> 8 & 255]
        + _BYTE_2[mask >> 16 & 255]
        + _BYTE_3[mask >> 24]
    )


def path_code(path: list[int] | tuple[int, ...], capture: bool) -> int:
    code, weight = 0, 1
    for square in path:
        code += (square + 1) * weight
        weight *= 33
    return code * 2 + capture


def decode_path(code: int) -> tuple[list[int], bool]:
    """The squares and the capture flag of a move number made by :func:`path_code`."""
    capture = bool(code & 1)
    code >>= 1
    path = []
    while code:
        code, digit = divmod(code, 33)
        path.append(digit - 1)
    return path, capture


def path_text(code: int) -> str:
    path, capture = decode_path(code)
    return ("x" if capture else "-").join(str(s + 1) for s in path)


def parse_path(text: str) -> tuple[list[int], bool] | None:
    """Squares and capture flag of ``22-18`` or ``22x15x6``; None if it is not of that form."""
    capture = "x" in text.lower()
    parts = text.lower().split("x" if capture else "-")
    if len(parts) < 2 or (not capture and len(parts) != 2):
        return None
    if not all(p.isdecimal() and len(p) < 4 and 1 <= int(p) <= SQUARES for p in parts):
        return None
    return [int(p) - 1 for p in parts], capture


def parse_square(text: str) -> int | None:
    """Square index from its number (``18``) or its name (``c5``)."""
    if text.isdecimal() and len(text) < 4:
        return int(text) - 1 if 1 <= int(text) <= SQUARES else None
    if len(text) == 2 and text[0] in "abcdefgh" and text[1] in "12345678":
        return square_at("abcdefgh".index(text[0]), int(text[1]) - 1)
    return None


def draw_board(pieces: dict[int, str]) -> str:
    """A text diagram of the board, White at the bottom; ``pieces`` maps squares to letters."""
    lines = []
    for row in range(7, -1, -1):
        cells = []
        for col in range(8):
            square = square_at(col, row)
            cells.append(" " if square is None else pieces.get(square, "."))
        lines.append(f"{row + 1} " + " ".join(cells))
    lines.append("  a b c d e f g h")
    return "\n".join(lines)
