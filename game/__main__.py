"""``tavolo``: start the game.

    tavolo [--fullscreen | --windowed] [--size WIDTHxHEIGHT] [--language en|it|de]
           [--home DIR] [--start GAME[:VARIANT] [--players N]] [--kiosk]
    tavolo --install-kiosk

``--kiosk`` runs a public games table: full screen, touch-first, no way out but the
operator's PIN (docs/kiosk.md); its settings are ``kiosk.toml`` in the config directory.
``--install-kiosk`` makes it start at every login of this account, under systemd.

Settings are kept in the user's config directory and matches in the user's data directory
(``--home DIR``, or the environment variable TAVOLO_HOME, puts both under DIR instead).

With no display to open a window on, ``tavolo`` says so and exits with status 1 (unless
SDL_VIDEODRIVER names a driver, e.g. ``dummy`` to run without a window on purpose).
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from game.i18n import LANGUAGES

if TYPE_CHECKING:
    from game.client.app import Paths


def _size(text: str) -> tuple[int, int]:
    try:
        width, height = (int(n) for n in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not WIDTHxHEIGHT, e.g. 1280x720") from None
    if not (320 <= width <= 7680 and 240 <= height <= 4320):
        raise argparse.ArgumentTypeError(f"{text!r}: width 320–7680 and height 240–4320")
    return width, height


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="tavolo", description="The classic table games.")
    screen = parser.add_mutually_exclusive_group()
    screen.add_argument(
        "--fullscreen", action="store_true", default=None, help="full screen (F11 toggles)"
    )
    screen.add_argument("--windowed", dest="fullscreen", action="store_false", help="in a window")
    parser.add_argument("--size", type=_size, help="window size, e.g. 1600x900")
    parser.add_argument("--language", choices=sorted(LANGUAGES), help="language of the game")
    parser.add_argument(
        "--home",
        type=Path,
        default=os.environ.get("TAVOLO_HOME"),
        help="keep settings and saves under this directory",
    )
    parser.add_argument(
        "--start",
        metavar="GAME",
        help="open a new match of GAME at once, "
        "e.g. dama:mangia (see 'python -m game.rules games')",
    )
    parser.add_argument("--players", type=int, help="players for --start (Numeri: 2-4)")
    parser.add_argument(
        "--kiosk", action="store_true", help="a public games table (see docs/kiosk.md)"
    )
    parser.add_argument(
        "--install-kiosk",
        action="store_true",
        help="start this tavolo as a kiosk at every login of this account (docs/kiosk.md)",
    )
    args = parser.parse_args(argv)
    if args.start is not None:
        from game.rules import RulesError, variant

        try:
            args.start = variant(args.start, args.players)
        except RulesError as error:
            parser.error(str(error))
    elif args.players is not None:
        parser.error("--players goes with --start")
    return args


def paths(home: Path | None) -> Paths:
    from platformdirs import user_config_path, user_data_path

    from game.client.app import Paths

    if home is not None:
        return Paths(home / "config", home / "data")
    return Paths(user_config_path("tavolo"), user_data_path("tavolo"))


def main(argv: list[str] | None = None) -> int:
    args = parse(sys.argv[1:] if argv is None else argv)
    if args.install_kiosk:
        from game.kiosk_setup import install

        try:
            print("\n".join(install()))
        except OSError as error:
            print(f"tavolo: cannot install the kiosk: {error}", file=sys.stderr)
            return 1
        return 0
    logging.basicConfig(level=logging.INFO, format="tavolo: %(levelname)s %(message)s")
    from game.client.app import App, NoDisplayError
    from game.client.scenes.title import TitleScene

    where = paths(args.home)
    kiosk = None
    if args.kiosk:
        from logging.handlers import RotatingFileHandler

        from game.client.kiosk_config import KioskConfig

        try:
            where.data.mkdir(parents=True, exist_ok=True)
            handler = RotatingFileHandler(
                where.data / "tavolo.log", maxBytes=1 << 20, backupCount=3
            )
            handler.setFormatter(
                logging.Formatter("%(asctime)s %(levelname)s %(name)s %(message)s")
            )
            logging.getLogger().addHandler(handler)
        except OSError as error:
            logging.warning(
                "no log file in %s (%s): logging to the terminal only", where.data, error
            )
        kiosk = KioskConfig.load(where.config)
    try:
        app = App(where, size=args.size, fullscreen=args.fullscreen, kiosk=kiosk)
    except NoDisplayError as error:
        print(f"tavolo: {error}", file=sys.stderr)
        return 1
    if args.language:
        from game import i18n

        app.settings.language = i18n.set_language(args.language)
    app.push(TitleScene(app))
    if args.start is not None:
        import random

        from game.client.scenes.table import match_scene
        from game.session.match import Match
        from game.session.seats import Seat

        seats = [Seat() for _ in range(args.start.players)]
        match = Match.new(args.start, seats, random.SystemRandom().getrandbits(62))
        app.push(match_scene(app, match))
    return app.run()


if __name__ == "__main__":
    sys.exit(main())
