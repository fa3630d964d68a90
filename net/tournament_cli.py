"""``python -m net tournament host|join``: a headless director and headless players, one
JSON event a line (``listening``, ``joined``, ``entered``, ``round``, ``pairing``,
``playing`` and ``played`` (a player's own game begun and ended), ``result``,
``standings``, ``withdrawn``, ``over`` with the final standings and the tournament log's
digest; ``notice``, ``refused`` and ``error`` for what goes wrong).

    python -m net tournament host GAME[:VARIANT] --players N
        --format round-robin|swiss|knockout [--rounds R] [--double] [--ai LEVEL]
        [--no-advertise] [--interface ADDR] [--port P] [--record DIR] [--code DIGITS]
        [--round-time MINUTES]
    python -m net tournament join ADDRESS:PORT [--identity F] [--ai LEVEL] [--name NAME]
        [--interface ADDR] [--record FILE] [--code DIGITS] [--watch]

A director given ``--record DIR`` keeps the tournament there and, started again on the same
folder and ``--port``, goes on with it; its players reconnect to the same address by
themselves.  Exit status: 0 when the tournament was played to its end, 1 when it was not
(refused, a director that does not check out or cannot be reached), 2 for a bad command line.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
from collections.abc import Callable
from pathlib import Path
from typing import Any

from game.levels import LEVELS
from game.rules import RulesError, variant
from net.identity import Identity, IdentityError
from net.peer import Peer
from net.tournament_director import Director, DirectorConfig, DirectorError
from net.tournament_log import FORMATS
from net.tournament_player import PlayerConfig, TournamentPlayer

Emit = Callable[[str, dict[str, Any]], None]


class UsageError(Exception):
    """A command line that cannot be run; the text says why."""


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The ``tournament`` command and its ``host`` and ``join``."""
    tournament = commands.add_parser("tournament", help="direct or play a tournament")
    roles = tournament.add_subparsers(dest="role", required=True)
    host = roles.add_parser("host", help="direct a tournament")
    host.add_argument("game", help="e.g. mulino, numeri, dama:mangia")
    host.add_argument("--players", type=int, required=True, help="the people to wait for")
    host.add_argument("--format", choices=FORMATS, required=True)
    host.add_argument("--rounds", type=int, default=0, help="a Swiss's rounds (0: its own)")
    host.add_argument("--double", action="store_true", help="a double round robin")
    host.add_argument("--ai", choices=LEVELS, help="a computer player fills an odd seat")
    host.add_argument("--no-advertise", action="store_true", help="do not announce on the LAN")
    host.add_argument("--interface", default="", help="listen on ADDRESS")
    host.add_argument("--port", type=int, default=0)
    host.add_argument("--record", type=Path, help="keep the tournament in this folder")
    host.add_argument("--name", default="Tavolo", help="the tournament's name")
    host.add_argument("--code", help="a join code newcomers must give (digits)")
    host.add_argument("--drop-timeout", type=float, default=60.0, metavar="S")
    host.add_argument("--think", type=float, default=1.0, metavar="S")
    host.add_argument(
        "--round-time", type=float, default=0.0, metavar="MINUTES",
        help="a round's time: its games unfinished when it runs out are drawn",
    )  # fmt: skip
    host.add_argument("--pace", type=float, default=0.0, help=argparse.SUPPRESS)
    join = roles.add_parser("join", help="play in a tournament")
    join.add_argument("target", help="the director's ADDRESS:PORT")
    join.add_argument("--identity", type=Path, help="identity file (kept across runs)")
    join.add_argument("--ai", choices=LEVELS, help="the computer plays this player's games")
    join.add_argument("--name", default="", help="the name others see")
    join.add_argument("--code", help="the tournament's join code")
    join.add_argument("--watch", action="store_true",
                      help="only watch: the log, the standings and the live boards")  # fmt: skip
    join.add_argument("--interface", default="", help="host this player's matches on ADDRESS")
    join.add_argument("--record", type=Path, help="keep this player's tournament record here")
    join.add_argument("--drop-timeout", type=float, default=60.0, metavar="S")
    join.add_argument("--reconnect", type=float, default=120.0, metavar="S",
                      help="seconds to go on seeking a lost director")  # fmt: skip
    join.add_argument("--think", type=float, default=1.0, metavar="S")
    join.add_argument("--pace", type=float, default=0.0, help=argparse.SUPPRESS)


async def run(
    args: argparse.Namespace, emit: Emit, identity_path: Path, on_turn: Callable[[Peer], None]
) -> int:
    """Run the director or the player the command line asks for."""
    if args.drop_timeout < 0 or args.think <= 0:
        raise UsageError("--drop-timeout and --think take positive seconds")
    if args.role == "host":
        return await _direct(args, emit)
    address, sep, port = args.target.rpartition(":")
    if not sep or not port.isdigit():
        raise UsageError(f"join takes the director's ADDRESS:PORT, not {args.target!r}")
    try:
        identity = Identity.load(args.identity or identity_path)
    except IdentityError as error:
        raise UsageError(str(error)) from error
    config = PlayerConfig(
        name=(args.name or "player")[:40], level=args.ai, interface=args.interface,
        record=args.record, drop_timeout=args.drop_timeout, reconnect=args.reconnect,
        think_seconds=args.think, pace=max(0.0, args.pace), code=args.code, watch=args.watch,
    )  # fmt: skip
    player = TournamentPlayer(identity, config, emit, None if args.ai else on_turn)
    task = asyncio.get_running_loop().create_task(player.run(address, int(port)))
    _stop_on_signals(task.cancel)
    try:
        return await task
    except asyncio.CancelledError:
        return 1


async def _direct(args: argparse.Namespace, emit: Emit) -> int:
    try:
        game = variant(args.game, 2)
    except RulesError as error:
        raise UsageError(str(error)) from error
    if not 0 <= args.port <= 65535 or args.rounds < 0:
        raise UsageError("--port takes 0-65535, --rounds 0 or more")
    if not 0 <= args.round_time <= 24 * 60:
        raise UsageError("--round-time takes 0 (none) to 1440 minutes")
    filled = args.ai is not None and args.format != "knockout"  # a computer makes two
    if args.players < (1 if filled else 2):
        raise UsageError("a tournament needs two players (or one and a computer, --ai)")
    config = DirectorConfig(
        game=game, format=args.format, players=args.players, rounds=args.rounds,
        double=args.double, level=args.ai or "", name=args.name, interface=args.interface,
        drop_timeout=args.drop_timeout, folder=args.record, think_seconds=args.think,
        pace=max(0.0, args.pace), code=args.code, advertise=not args.no_advertise,
        round_seconds=round(args.round_time * 60),
    )  # fmt: skip
    if args.code is not None and not (0 < len(args.code) <= 16 and args.code.isdigit()):
        raise UsageError("--code takes 1 to 16 digits")
    try:
        director = Director(config, emit)
        await director.start(args.port)
    except DirectorError as error:
        raise UsageError(str(error)) from error
    except OSError as error:
        raise UsageError(f"cannot listen on port {args.port}: {error.strerror}") from error
    _stop_on_signals(director.finished.set)
    try:
        await director.finished.wait()
    finally:
        await director.close()
    return 0 if director.log is not None and director.log.over else 1


def _stop_on_signals(stop: Callable[[], Any]) -> None:
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(signum, stop)
