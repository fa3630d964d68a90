"""Regenerate docs/screenshots/: every game in play, drawn by the real client off-screen.

    python tools/screenshots.py [--size 1600x900]

Each game is played from a fixed seed to a mid-game position (random but legal moves), so
the pictures change only when the drawing does.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pygame

from game.client.app import App, Paths
from game.client.scenes.menus import TitleScene
from game.client.scenes.play import PlayScene
from game.dice import random_action
from game.rules import variant
from game.rules.ausgeblockt import PASS, STOP
from game.session.match import Match
from game.session.seats import Seat

OUT = Path(__file__).resolve().parent.parent / "docs" / "screenshots"
SCENES = [
    ("ausgeblockt", 2, 160),
    ("numeri", 3, 70),
    ("dama:classic", 2, 17),
    ("mulino:classic", 2, 23),
    ("dama:lupo", 2, 12),
]


def position(name: str, players: int, actions: int) -> Match:
    match = Match.new(variant(name, players), [Seat() for _ in range(players)], seed=2026)
    rng = random.Random(7)
    for _ in range(actions):
        state = match.state
        if state.is_terminal():
            break
        if state.is_chance():
            match.roll()
            continue
        legal = state.legal_actions()
        marks = [a for a in legal if a < PASS] if name == "ausgeblockt" else []
        if marks:
            match.play(rng.choice(marks))
        elif name == "ausgeblockt":
            match.play(STOP)
        else:
            match.play(random_action(state, rng))
    return match


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--size", default="1600x900")
    args = parser.parse_args(argv)
    size = tuple(int(n) for n in args.size.split("x"))
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as home:
        app = App(Paths(Path(home) / "c", Path(home) / "d"), size=size, fullscreen=False)
        app.push(TitleScene(app))
        app.frame(0.1)
        pygame.image.save(app.screen, OUT / "title.png")
        for name, players, actions in SCENES:
            app.push(PlayScene(app, position(name, players, actions)))
            for _ in range(3):
                app.frame(0.1)
            file = OUT / f"{name.replace(':', '-')}.png"
            pygame.image.save(app.screen, file)
            print(f"wrote {file.relative_to(OUT.parent.parent)}")
            app.pop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
