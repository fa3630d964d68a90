"""``python -m game.client.out_of_order --seconds 60``: a still "out of order" screen.

``tavolo-kiosk-rescue.service`` (:mod:`game.kiosk_setup`) shows it when systemd has given up
restarting the kiosk, so that the public sees a calm notice instead of a black desktop, and
then starts the kiosk again.  It must work while the game itself keeps crashing, so it
imports pygame, the translation catalogue and the font file, and nothing of the game's
scenes, settings or saves.  It draws once and sleeps; a window that cannot be opened or a
font that cannot be read does not end it early: the service counts on its pause before the
kiosk is tried again.  SIGTERM (``systemctl --user stop``) ends it at once, with status 0.
"""

from __future__ import annotations

import argparse
import io
import os
import signal
import sys
import time
from typing import Any

from game import i18n
from game.resources import MissingAssetError, asset_bytes

BACKGROUND = (32, 52, 44)
TEXT = (226, 230, 218)
WAIT_MS = 250
"""The longest sleep between two looks at the window (shown again: drawn again)."""


def lines() -> list[str]:
    """The notice in each language the game speaks, English first: nobody can choose one."""
    return [i18n.in_language("Out of order — back in a minute", code) for code in i18n.LANGUAGES]


def _font(pygame: Any, size: int) -> Any:
    try:
        return pygame.font.Font(io.BytesIO(asset_bytes("fonts/DejaVuSans.ttf")), size)
    except (MissingAssetError, OSError, pygame.error):
        return pygame.font.Font(None, size)  # pygame's own: a damaged install still shows it


def draw(pygame: Any, screen: Any) -> None:
    """The lines in the middle of ``screen``, each as large as fits (the same size for all)."""
    width, height = screen.get_size()
    screen.fill(BACKGROUND)
    texts = lines()
    size = max(12, height // 16)
    font = _font(pygame, size)
    widest = max(font.size(text)[0] for text in texts)
    if widest > 0.9 * width:
        font = _font(pygame, max(8, int(size * 0.9 * width / widest)))
    step = font.get_linesize() * 3 // 2
    top = (height - step * len(texts)) // 2
    for row, text in enumerate(texts):
        picture = font.render(text, True, TEXT)
        screen.blit(picture, picture.get_rect(midtop=(width // 2, top + row * step)))


def show(deadline: float) -> None:
    """Full screen until ``deadline`` (``time.monotonic``), drawn again when shown again."""
    import pygame

    pygame.display.init()
    pygame.font.init()
    try:
        screen = pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
        pygame.display.set_caption("Tavolo")
        pygame.mouse.set_visible(False)
        driver, seconds = pygame.display.get_driver(), deadline - time.monotonic()
        print(f"out_of_order: shown on {driver} for {seconds:.0f} s", flush=True)
        while (left := deadline - time.monotonic()) > 0:
            draw(pygame, screen)
            pygame.display.flip()
            # Any event (the window exposed, a touch) or a quarter second: a look again.
            pygame.event.wait(max(1, min(WAIT_MS, int(left * 1000))))
            pygame.event.clear()
    finally:
        pygame.quit()


def _stop(signum: int, _frame: object) -> None:
    raise SystemExit(0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m game.client.out_of_order", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--seconds", type=float, default=60.0, help="how long to show it")
    args = parser.parse_args(argv)
    if not args.seconds >= 0:
        parser.error("--seconds must be 0 or more")
    deadline = time.monotonic() + args.seconds
    # Before pygame is imported, which would name the window's class after this script: the
    # manual's openbox rules keep every window of class "tavolo" full screen on top.
    os.environ.setdefault("SDL_VIDEO_X11_WMCLASS", "tavolo")
    os.environ["SDL_NO_SIGNAL_HANDLERS"] = "1"  # SIGTERM is ours, not turned into SDL's quit
    signal.signal(signal.SIGTERM, _stop)
    try:
        show(deadline)
    except Exception as error:  # pygame's, a display's: the pause still counts
        print(f"out_of_order: nothing shown ({error}); waiting all the same", file=sys.stderr)
    time.sleep(max(0.0, deadline - time.monotonic()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
