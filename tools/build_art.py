"""Draw the game's sprites into PNG sheets under assets/art/ — no hand-made bitmaps.

    python tools/build_art.py

Each sheet is a row of 256×256 frames, named in ``game/client/sprites.py``.  Shapes are drawn
at twice the size and smoothly scaled down, which anti-aliases every edge.  Change a recipe
here and rerun to restyle the game.
"""

from __future__ import annotations

import math
import os
import random
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
import pygame

FRAME = 256
BIG = FRAME * 2
OUT = Path(__file__).resolve().parent.parent / "assets" / "art"

Colour = tuple[int, int, int]


def shaded_disc(
    surface: pygame.Surface, centre: tuple[int, int], radius: int, base: Colour, rim: Colour
) -> None:
    """A round piece: drop shadow, rim, a face lit from the top left."""
    x, y = centre
    pygame.draw.circle(surface, (0, 0, 0, 90), (x + radius // 14, y + radius // 10), radius)
    pygame.draw.circle(surface, rim, centre, radius)
    steps = 24
    for k in range(steps):
        t = k / steps
        r = round(radius * 0.9 * (1 - t))
        shade = tuple(min(255, round(c * (0.82 + 0.35 * t))) for c in base)
        offset = round(radius * 0.18 * t)
        pygame.draw.circle(surface, shade, (x - offset, y - offset), max(1, r))
    pygame.draw.circle(surface, rim, centre, round(radius * 0.62), width=max(2, radius // 24))


def crown(surface: pygame.Surface, centre: tuple[int, int], size: int, colour: Colour) -> None:
    x, y = centre
    w, h = size, size * 0.62
    points = [
        (x - w / 2, y + h / 2),
        (x - w / 2, y - h / 4),
        (x - w / 4, y + h / 8),
        (x, y - h / 2),
        (x + w / 4, y + h / 8),
        (x + w / 2, y - h / 4),
        (x + w / 2, y + h / 2),
    ]
    pygame.draw.polygon(surface, colour, points)
    pygame.draw.polygon(surface, (90, 60, 10), points, width=max(2, size // 30))
    for px in (x - w / 2, x, x + w / 2):
        py = y - h / 4 if px != x else y - h / 2
        pygame.draw.circle(surface, (250, 240, 200), (round(px), round(py)), size // 12)


def draughts_piece(light: bool, king: bool) -> Callable[[pygame.Surface], None]:
    def paint(surface: pygame.Surface) -> None:
        base, rim = ((236, 224, 196), (150, 130, 100)) if light else ((58, 42, 36), (20, 14, 12))
        shaded_disc(surface, (BIG // 2, BIG // 2), round(BIG * 0.42), base, rim)
        if king:
            crown(surface, (BIG // 2, BIG // 2), round(BIG * 0.42), (232, 180, 40))

    return paint


def stone(light: bool) -> Callable[[pygame.Surface], None]:
    def paint(surface: pygame.Surface) -> None:
        base, rim = ((245, 245, 240), (160, 160, 150)) if light else ((40, 40, 48), (10, 10, 14))
        shaded_disc(surface, (BIG // 2, BIG // 2), round(BIG * 0.44), base, rim)

    return paint


def wolf(surface: pygame.Surface) -> None:
    shaded_disc(surface, (BIG // 2, BIG // 2), round(BIG * 0.42), (70, 70, 80), (20, 20, 26))
    c, s = BIG // 2, BIG * 0.3
    head = [
        (c - s * 0.7, c - s * 0.2),
        (c - s * 0.55, c - s * 0.95),
        (c - s * 0.2, c - s * 0.45),
        (c + s * 0.2, c - s * 0.45),
        (c + s * 0.55, c - s * 0.95),
        (c + s * 0.7, c - s * 0.2),
        (c, c + s * 0.9),
    ]
    pygame.draw.polygon(surface, (150, 150, 160), head)
    for dx in (-0.28, 0.28):
        pygame.draw.circle(
            surface, (250, 210, 60), (round(c + s * dx), round(c - s * 0.05)), round(s * 0.11)
        )
    pygame.draw.circle(surface, (20, 20, 20), (c, round(c + s * 0.6)), round(s * 0.13))


def sheep(surface: pygame.Surface) -> None:
    c = BIG // 2
    rng = random.Random(5)
    pygame.draw.circle(surface, (0, 0, 0, 80), (c + 8, c + 12), round(BIG * 0.42))
    for _ in range(18):
        angle = rng.random() * math.tau
        d = rng.random() * BIG * 0.22
        pygame.draw.circle(
            surface,
            (250, 250, 244),
            (round(c + d * math.cos(angle)), round(c + d * math.sin(angle))),
            round(BIG * (0.14 + rng.random() * 0.06)),
        )
    pygame.draw.ellipse(
        surface, (60, 50, 46), (c - BIG * 0.1, c - BIG * 0.12, BIG * 0.2, BIG * 0.26)
    )
    for dx in (-0.04, 0.04):
        pygame.draw.circle(
            surface,
            (255, 255, 255),
            (round(c + BIG * dx), round(c - BIG * 0.03)),
            round(BIG * 0.02),
        )


def die_face(pips: int | str) -> Callable[[pygame.Surface], None]:
    def paint(surface: pygame.Surface) -> None:
        m = round(BIG * 0.08)
        body = pygame.Rect(m, m, BIG - 2 * m, BIG - 2 * m)
        pygame.draw.rect(surface, (0, 0, 0, 90), body.move(10, 14), border_radius=BIG // 7)
        pygame.draw.rect(surface, (250, 248, 240), body, border_radius=BIG // 7)
        pygame.draw.rect(surface, (180, 175, 160), body, width=6, border_radius=BIG // 7)
        if pips == "cow":
            cow(surface, body.center, body.width * 0.8)
        elif pips == "star":
            star(surface, body.center, body.width * 0.38, (230, 170, 30))
        else:
            spots = {
                1: [(0, 0)],
                2: [(-1, -1), (1, 1)],
                3: [(-1, -1), (0, 0), (1, 1)],
                4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
                5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
            }[pips]
            step = body.width * 0.26
            for dx, dy in spots:
                pygame.draw.circle(
                    surface,
                    (30, 30, 36),
                    (round(body.centerx + dx * step), round(body.centery + dy * step)),
                    round(body.width * 0.09),
                )

    return paint


def cow(surface: pygame.Surface, centre: tuple[int, int], size: float) -> None:
    x, y = centre
    s = size / 2
    pygame.draw.ellipse(surface, (250, 250, 250), (x - s * 0.62, y - s * 0.7, s * 1.24, s * 1.35))
    pygame.draw.ellipse(surface, (30, 30, 30), (x - s * 0.62, y - s * 0.7, s * 1.24, s * 1.35), 8)
    for dx in (-1, 1):
        pygame.draw.polygon(
            surface,
            (235, 225, 190),
            [
                (x + dx * s * 0.35, y - s * 0.55),
                (x + dx * s * 0.85, y - s * 0.95),
                (x + dx * s * 0.55, y - s * 0.45),
            ],
        )
        pygame.draw.ellipse(
            surface, (30, 30, 30), (x + dx * s * 0.95 - s * 0.28, y - s * 0.5, s * 0.56, s * 0.28)
        )
        pygame.draw.circle(
            surface, (20, 20, 20), (round(x + dx * s * 0.25), round(y - s * 0.2)), round(s * 0.09)
        )
    pygame.draw.ellipse(surface, (40, 40, 40), (x - s * 0.45, y - s * 0.65, s * 0.4, s * 0.35))
    pygame.draw.ellipse(surface, (240, 170, 170), (x - s * 0.45, y + s * 0.2, s * 0.9, s * 0.5))
    for dx in (-0.18, 0.18):
        pygame.draw.circle(
            surface, (120, 60, 60), (round(x + dx * s), round(y + s * 0.45)), round(s * 0.07)
        )


def star(
    surface: pygame.Surface, centre: tuple[float, float], radius: float, colour: Colour
) -> None:
    x, y = centre
    points = []
    for k in range(10):
        r = radius if k % 2 == 0 else radius * 0.45
        a = -math.pi / 2 + k * math.pi / 5
        points.append((x + r * math.cos(a), y + r * math.sin(a)))
    pygame.draw.polygon(surface, colour, points)
    pygame.draw.polygon(surface, (120, 80, 10), points, width=6)


PENCIL = (255, 255, 255)
"""Marks are drawn white and tinted with the seat's ink when drawn (``sprite(…, tint)``)."""


def pencil_x(surface: pygame.Surface) -> None:
    """A cross as if drawn twice with a soft pencil: two bold strokes with rounded ends."""
    rng = random.Random(3)
    width = round(BIG * 0.085)
    for (x0, y0), (x1, y1) in (((0.2, 0.2), (0.8, 0.8)), ((0.8, 0.2), (0.2, 0.8))):
        for _ in range(2):
            jitter = [BIG * (rng.random() - 0.5) * 0.025 for _ in range(4)]
            start = (BIG * x0 + jitter[0], BIG * y0 + jitter[1])
            end = (BIG * x1 + jitter[2], BIG * y1 + jitter[3])
            pygame.draw.line(surface, PENCIL, start, end, width)
            for x, y in (start, end):
                pygame.draw.circle(surface, PENCIL, (round(x), round(y)), width // 2)


def pencil_o(surface: pygame.Surface) -> None:
    """A circle as if drawn twice with a soft pencil: two bold, slightly offset rings."""
    rng = random.Random(4)
    for _ in range(2):
        r = BIG * (0.3 + rng.random() * 0.015)
        box = pygame.Rect(0, 0, 2 * r, 2 * r * 0.96)
        box.center = (BIG // 2 + rng.randint(-5, 5), BIG // 2 + rng.randint(-5, 5))
        pygame.draw.ellipse(surface, PENCIL, box, round(BIG * 0.075))


def pawn(surface: pygame.Surface) -> None:
    """A grey Numeri pawn, tinted with the seat's colour when drawn."""
    shaded_disc(surface, (BIG // 2, BIG // 2), round(BIG * 0.42), (235, 235, 235), (120, 120, 120))


# -- the high-contrast pieces ------------------------------------------------------------
# Flat faces of pure white and near black, each ringed by the other: a piece reads on any
# square and under any tint, and no shading or shadow blurs its edge.

WHITE, BLACK, GOLD = (255, 255, 255), (12, 12, 12), (255, 204, 0)


def ringed_disc(surface: pygame.Surface, face: Colour, edge: Colour, inner_ring: bool) -> None:
    """A flat disc of ``face`` in a thick ring of ``edge``, with a second, thinner ring
    inside for a draughtsman (a stone has none)."""
    centre, radius = (BIG // 2, BIG // 2), round(BIG * 0.44)
    pygame.draw.circle(surface, edge, centre, radius)
    pygame.draw.circle(surface, face, centre, round(radius * 0.84))
    if inner_ring:
        pygame.draw.circle(surface, edge, centre, round(radius * 0.56), round(radius * 0.08))


def bold_crown(surface: pygame.Surface, outline: Colour) -> None:
    c, w = BIG // 2, BIG * 0.4
    h = w * 0.66
    points = [
        (c - w / 2, c + h / 2), (c - w / 2, c - h / 3), (c - w / 4, c + h / 10),
        (c, c - h / 2), (c + w / 4, c + h / 10), (c + w / 2, c - h / 3), (c + w / 2, c + h / 2),
    ]  # fmt: skip
    pygame.draw.polygon(surface, GOLD, points)
    pygame.draw.polygon(surface, outline, points, width=round(BIG * 0.025))


def contrast_man(light: bool, king: bool) -> Callable[[pygame.Surface], None]:
    def paint(surface: pygame.Surface) -> None:
        face, edge = (WHITE, BLACK) if light else (BLACK, WHITE)
        ringed_disc(surface, face, edge, inner_ring=not king)
        if king:
            bold_crown(surface, BLACK)

    return paint


def contrast_stone(light: bool) -> Callable[[pygame.Surface], None]:
    def paint(surface: pygame.Surface) -> None:
        face, edge = (WHITE, BLACK) if light else (BLACK, WHITE)
        ringed_disc(surface, face, edge, inner_ring=False)

    return paint


def contrast_wolf(surface: pygame.Surface) -> None:
    ringed_disc(surface, BLACK, WHITE, inner_ring=False)
    c, s = BIG // 2, BIG * 0.3
    head = [
        (c - s * 0.7, c - s * 0.2), (c - s * 0.55, c - s * 0.95), (c - s * 0.2, c - s * 0.45),
        (c + s * 0.2, c - s * 0.45), (c + s * 0.55, c - s * 0.95), (c + s * 0.7, c - s * 0.2),
        (c, c + s * 0.9),
    ]  # fmt: skip
    pygame.draw.polygon(surface, WHITE, head)
    for dx in (-0.28, 0.28):
        eye = (round(c + s * dx), round(c - s * 0.05))
        pygame.draw.circle(surface, BLACK, eye, round(s * 0.13))


def contrast_sheep(surface: pygame.Surface) -> None:
    ringed_disc(surface, WHITE, BLACK, inner_ring=False)
    c = BIG // 2
    pygame.draw.ellipse(surface, BLACK, (c - BIG * 0.11, c - BIG * 0.14, BIG * 0.22, BIG * 0.3))
    for dx in (-0.045, 0.045):
        pygame.draw.circle(surface, WHITE, (round(c + BIG * dx), round(c - BIG * 0.04)),
                           round(BIG * 0.025))  # fmt: skip


SHEETS: dict[str, list[Callable[[pygame.Surface], None]]] = {
    "pieces": [
        draughts_piece(True, False),
        draughts_piece(False, False),
        draughts_piece(True, True),
        draughts_piece(False, True),
        stone(True),
        stone(False),
        wolf,
        sheep,
    ],
    "dice": [
        die_face(1),
        die_face(2),
        die_face(3),
        die_face(4),
        die_face(5),
        die_face("cow"),
        die_face("star"),
    ],
    "marks": [pencil_x, pencil_o, pawn],
    "pieces_contrast": [  # the same frames as "pieces", for the high-contrast boards
        contrast_man(True, False),
        contrast_man(False, False),
        contrast_man(True, True),
        contrast_man(False, True),
        contrast_stone(True),
        contrast_stone(False),
        contrast_wolf,
        contrast_sheep,
    ],
}


def build(name: str, painters: list[Callable[[pygame.Surface], None]]) -> pygame.Surface:
    sheet = pygame.Surface((FRAME * len(painters), FRAME), pygame.SRCALPHA)
    for index, paint in enumerate(painters):
        big = pygame.Surface((BIG, BIG), pygame.SRCALPHA)
        paint(big)
        sheet.blit(pygame.transform.smoothscale(big, (FRAME, FRAME)), (index * FRAME, 0))
    return sheet


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, painters in SHEETS.items():
        pygame.image.save(build(name, painters), OUT / f"{name}.png")
        print(f"wrote assets/art/{name}.png ({len(painters)} frames)")


if __name__ == "__main__":
    main()
