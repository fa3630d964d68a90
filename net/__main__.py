"""``python -m net``: headless peers for tests, servers and kiosks, browsing, verifying.

    python -m net host GAME[:VARIANT] [--players N] [--ai LEVEL] [--port P] [--code C]
                       [--fen FEN]
    python -m net join ADDRESS:PORT|NAME [--ai LEVEL | --spectate]
    python -m net browse [--timeout S]
    python -m net verify RECORD [OTHER]     (a match record, or a tournament record)
    python -m net tournament host|join ...  (net/tournament_cli.py)

Peers print one JSON object per line on stdout for everything that happens (``listening``,
``action``, ``roll``, ``paused``, ``over`` …); ``browse`` one per match found.  A peer
without ``--ai`` plays its seat from the terminal: it shows the position on stderr and
reads moves in the game's notation from stdin.  Exit status: 0 when the match was played to
its end, 1 when it failed or was refused, 2 for a bad command line.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import errno
import json
import signal
import socket
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from game.levels import LEVELS
from game.rules import RulesError, variant
from game.rules.fen import setup_of
from game.rules.variants import options_from_text
from net import records, tournament_cli, tournament_records
from net.connection import Closed
from net.discovery import Advertiser, Browser, Listing, txt_record
from net.door import Expected, Unproven
from net.identity import Identity, IdentityError
from net.identity import fingerprint as fingerprint_of
from net.matchlog import MatchLog, Rejected
from net.peer import REJOIN_GRACE, Peer, PeerConfig
from net.witness import Fork

_TRACE = {"on": False, "hold": False}
_AT_ONCE = frozenset({"listening", "joined", "advertised", "error"})
"""What a peer holding its trace (``--hold-trace``) still prints at once; the rest waits
until the peer ends (:func:`_flush_trace`), so that writing the trace wakes no reader while
a benchmark times the match."""
_held: list[str] = []


def _emit(kind: str, data: dict[str, Any]) -> None:
    stamp = {"at": time.monotonic()} if _TRACE["on"] else {}
    _held.append(json.dumps({"event": kind, **data, **stamp}, ensure_ascii=False))
    if not _TRACE["hold"] or kind in _AT_ONCE:
        _flush_trace()


def _flush_trace() -> None:
    if _held:
        print("\n".join(_held), flush=True)
        _held.clear()


def _default_identity() -> Path:
    from platformdirs import user_data_path

    return user_data_path("tavolo") / "identity"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m net", description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)

    def peer_options(command: argparse.ArgumentParser) -> None:
        command.add_argument("--name", default="", help="the name others see")
        command.add_argument("--ai", choices=LEVELS, help="a computer plays this seat")
        command.add_argument("--seat", type=int, default=0, help="the seat wished for (1-4)")
        command.add_argument("--identity", type=Path, help="identity file (kept across runs)")
        command.add_argument("--record", type=Path, help="write the match record here")
        command.add_argument("--interface", default="", help="listen and announce on ADDRESS")
        command.add_argument("--drop-timeout", type=float, default=60.0, metavar="S")
        command.add_argument(
            "--on-drop",
            choices=("computer", "end", "wait"),
            default="computer",
            help="once a missing player's timeout is over",
        )
        command.add_argument(
            "--rejoin-grace", type=float, default=REJOIN_GRACE, metavar="S",
            help="voted in as the new host, give the others S seconds to reconnect before "
            "logging them gone; a peer that finds nobody counts on the same (the protocol's "
            f"{REJOIN_GRACE:g} s: give every peer of a match the same value)",
        )  # fmt: skip
        command.add_argument("--think", type=float, default=1.0, metavar="S")
        command.add_argument(
            "--allow-hints", action="store_true", help="allow hints and dice odds in the match"
        )
        command.add_argument("--pace", type=float, default=0.0, help=argparse.SUPPRESS)
        command.add_argument("--trace", action="store_true", help=argparse.SUPPRESS)
        command.add_argument("--hold-trace", action="store_true", help=argparse.SUPPRESS)

    host = commands.add_parser("host", help="host a match")
    host.add_argument("game", help="e.g. dama, mulino:misto, numeri")
    host.add_argument("--players", type=int)
    host.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    host.add_argument(
        "--computer", action="append", default=[], metavar="SEAT=LEVEL", help="a computer seat"
    )
    host.add_argument("--port", type=int, default=0)
    host.add_argument("--code", help="a join code others must give")
    host.add_argument("--no-advertise", action="store_true", help="do not announce on the LAN")
    host.add_argument("--chain", type=int, default=4096, help=argparse.SUPPRESS)
    host.add_argument("--fen", help="start from this set-up position (Dama: PDN's FEN)")
    peer_options(host)

    join = commands.add_parser("join", help="join a match")
    join.add_argument("target", help="ADDRESS:PORT, or the name of an announced match")
    join.add_argument("--spectate", action="store_true", help="watch only")
    join.add_argument("--code", help="the match's join code")
    join.add_argument("--browse-timeout", type=float, default=5.0, metavar="S")
    join.add_argument(
        "--key", default="", metavar="FINGERPRINT",
        help="join only the host with this key fingerprint (as its screen shows it)",
    )  # fmt: skip
    peer_options(join)

    browse = commands.add_parser("browse", help="list the matches announced on the LAN")
    browse.add_argument("--timeout", type=float, default=3.0, metavar="S")
    browse.add_argument("--interface", default="")

    verify = commands.add_parser(
        "verify", help="check a match record, every roll included, or a whole tournament"
    )
    verify.add_argument("record", type=Path)
    verify.add_argument(
        "other", type=Path, nargs="?",
        help="another record of the same match: where the two part, and who signed both",
    )  # fmt: skip
    tournament_cli.add_parser(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.command == "verify":
            return _verify(args.record, args.other)
        if args.command == "browse":
            return asyncio.run(_browse(args.timeout, args.interface))
        try:
            if args.command == "tournament":
                return asyncio.run(
                    tournament_cli.run(args, _emit, _default_identity(), _terminal_turn)
                )
            return asyncio.run(_run_peer(args))
        finally:
            _flush_trace()
    except (_UsageError, tournament_cli.UsageError) as error:
        print(f"python -m net: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 1


class _UsageError(Exception):
    pass


def _verify(path: Path, other: Path | None = None) -> int:
    """One record: its report.  Two records of one match: each one's report, then where
    they part (a fork names its entry, the key that signed both and which record holds
    which head)."""
    if other is None:
        report = _verify_tournament(path)
        if report is not None:
            print(json.dumps(report, ensure_ascii=False))
            return 0 if report["ok"] else 1
    paths = [path] if other is None else [path, other]
    reports: list[dict[str, Any]] = []
    logs: list[list[dict[str, Any]]] = []
    for each in paths:
        try:
            version, entries, fork = records.read_all(each)
            report = records.verify(entries, version, fork)
        except records.RecordError as error:
            report = {"ok": False, "error": str(error)}
        if other is not None:
            report = {"record": str(each), **report}
        print(json.dumps(report, ensure_ascii=False))
        reports.append(report)
        if "entries" in report:  # it replays: it can be compared with the other
            logs.append(entries)
    ok = all(report["ok"] for report in reports)
    if other is None or len(logs) < 2:
        return 0 if ok else 1
    both = records.compare(logs[0], logs[1], (str(path), str(other)))
    print(json.dumps(both, ensure_ascii=False))
    return 0 if ok and both["ok"] else 1


def _verify_tournament(path: Path) -> dict[str, Any] | None:
    """The report on the tournament record at ``path``; None if it holds no tournament."""
    try:
        data = path.read_bytes()
    except OSError:
        return None  # reading it as a match record says why it cannot be read
    try:
        entries, match_records = tournament_records.parse(data, str(path))
    except tournament_records.NotATournament:
        return None
    except tournament_records.TournamentRecordError as error:
        return {"ok": False, "tournament": True, "error": str(error)}
    return tournament_records.verify(entries, match_records)


async def _browse(timeout: float, interface: str) -> int:
    def show(change: str, listing: Listing) -> None:
        print(json.dumps({"change": change, **listing.to_json()}), flush=True)

    browser = Browser(interface, show)
    await browser.start()
    await asyncio.sleep(timeout)
    await browser.stop()
    return 0


def _config(args: argparse.Namespace) -> PeerConfig:
    spectate = getattr(args, "spectate", False)
    if args.drop_timeout < 0 or args.rejoin_grace < 0 or args.think <= 0:
        raise _UsageError("--drop-timeout, --rejoin-grace and --think take positive seconds")
    return PeerConfig(
        name=(args.name or ("host" if args.command == "host" else "guest"))[:40],
        role="spectator" if spectate else "player",
        seat=args.seat - 1 if args.seat else -1,
        level=args.ai,
        code=args.code,
        interface=args.interface,
        drop_timeout=args.drop_timeout,
        on_drop=args.on_drop,
        rejoin_grace=args.rejoin_grace,
        think_seconds=args.think,
        pace=max(0.0, args.pace),
        autostart=True,
        allow_coaching=args.allow_hints,
    )


async def _run_peer(args: argparse.Namespace) -> int:
    config = _config(args)
    _TRACE["on"] = args.trace or args.hold_trace
    _TRACE["hold"] = args.hold_trace
    try:
        identity = Identity.load(args.identity or _default_identity())
    except IdentityError as error:
        raise _UsageError(str(error)) from error
    advertiser: Advertiser | None = None
    terminal = config.level is None and config.role == "player"
    peer: Peer = Peer(identity, config, _observer(lambda: peer, terminal, lambda: advertiser))
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(signum, peer.finished.set)
    try:
        if args.command == "host":
            port = await _host(peer, args)
            if not args.no_advertise and peer.log is not None:  # host() made the log
                advertiser = Advertiser(args.interface)
                await advertiser.start(config.name, port, txt_record(peer.log))
                _emit("advertised", {"port": port})
        else:
            places = await _resolve(args.target, args.interface, args.browse_timeout, args.key)
            address, port = await _join_first(peer, places)
            _emit("joined", {"host": f"{address}:{port}", "peer": peer.me})
        await peer.finished.wait()
    except Closed as closed:
        _emit("error", {"text": closed.reason})
        return 1
    finally:
        if peer.log is not None and args.record:
            try:
                await _save_record(args.record, peer.log, peer.witness.proof)
            except OSError as error:  # told, not a traceback: the match itself is over
                _emit("error", {"text": f"the record could not be saved: {error}"})
                peer.failure = peer.failure or "the record could not be saved"
        if advertiser is not None:
            await advertiser.stop()
        await peer.close("match over" if peer.failure is None else peer.failure)
    log = peer.log
    return 0 if log is not None and log.phase in ("over", "abandoned") and not peer.failure else 1


RECORD_TRIES = 20
"""Tries at writing the record when the process is out of descriptors, a quarter second
apart."""


async def _save_record(path: Path, log: MatchLog, fork: Fork | None = None) -> None:
    """Write the record; out of descriptors (a flood of connections not yet closed), try
    again for a few seconds while they go — a shortage that passes, not a lost record."""
    for attempt in range(RECORD_TRIES):
        try:
            records.save(path, log, None if fork is None else fork.to_record())
            return
        except OSError as error:
            if error.errno not in (errno.EMFILE, errno.ENFILE) or attempt == RECORD_TRIES - 1:
                raise
            await asyncio.sleep(0.25)


async def _host(peer: Peer, args: argparse.Namespace) -> int:
    try:
        setup = variant(args.game, args.players, options_from_text(args.option))
    except RulesError as error:
        raise _UsageError(str(error)) from error
    computers: dict[int, str] = {}
    for text in args.computer:
        seat, _, level = text.partition("=")
        if not seat.isdigit() or not 1 <= int(seat) <= setup.players or level not in LEVELS:
            raise _UsageError(f"--computer takes SEAT=LEVEL (seat 1-{setup.players}), not {text!r}")
        computers[int(seat) - 1] = level
    if not 0 <= args.port <= 65535:
        raise _UsageError("--port takes 0-65535")
    try:
        start = None if args.fen is None else setup_of(setup, args.fen)
        return await peer.host(
            setup, computers, args.port, args.code, chain_length=args.chain, start=start
        )
    except RulesError as error:
        raise _UsageError(f"--fen: {error}") from error
    except Rejected as error:
        raise _UsageError(f"--fen: {error.reason}") from error
    except OSError as error:
        raise _UsageError(f"cannot listen on port {args.port}: {error.strerror}") from error


Place = tuple[str, int, Expected]
"""Where a match may be joined: address, port, and the key its host must prove."""


async def _resolve(target: str, interface: str, timeout: float, fingerprint: str) -> list[Place]:
    """Where to join, and the key the host there must prove: an ``ADDRESS:PORT`` (with
    ``fingerprint``, only a host whose key has that fingerprint), or every
    listing of the announced match whose name, host or id starts with ``target`` —
    refused when matches under different keys answer to it, unless ``fingerprint`` says
    which.  Several listings under the one key are all returned, in address order: anyone
    can announce a copy under a key it does not hold, pointing at itself, so the last one
    heard is not to be believed; :func:`_join_first` tries each until one proves the key."""
    wanted_key = fingerprint.strip().upper()
    address, sep, port = target.rpartition(":")
    if sep and port.isdigit():  # with --key, only a host whose key has that fingerprint
        return [(address, int(port), wanted_key or None)]
    heard: dict[str, dict[tuple[str, int], Listing]] = {}

    def match(change: str, listing: Listing) -> None:
        wanted = target.lower()
        names = (listing.name.lower(), listing.host.lower(), listing.match)
        if change == "gone" or not any(n.startswith(wanted) for n in names):
            return
        if not wanted_key or listing.fingerprint.startswith(wanted_key):
            heard.setdefault(listing.key, {})[listing.address, listing.port] = listing

    browser = Browser(interface, match)
    await browser.start()
    await asyncio.sleep(timeout)
    await browser.stop()
    if not heard:
        raise Closed(f"no match called {target!r} was found on the LAN")
    if len(heard) > 1:
        keys = ", ".join(sorted(fingerprint_of(bytes.fromhex(key)) for key in heard))
        raise Closed(
            f"matches under different keys answer to {target!r} ({keys}): "
            "ask the host for its key and give it with --key"
        )
    key, listings = next(iter(heard.items()))
    places = sorted(listings, key=lambda place: (_address_order(place[0]), place[1]))
    return [(address, port, bytes.fromhex(key)) for address, port in places]


def _address_order(address: str) -> tuple[int, ...]:
    try:
        return tuple(socket.inet_aton(address))
    except OSError:
        return (256,)


async def _join_first(peer: Peer, places: list[Place]) -> tuple[str, int]:
    """Join at the first of ``places`` whose host proves the key asked for; a place that
    does not answer or cannot prove it is told and passed over (nothing needing trust, the
    join code among it, went there).  A host that proved the key and refused is the
    answer: its reason is raised."""
    last = "none answered"
    for address, port, key in places:
        try:
            await peer.join(address, port, key)
        except Unproven as unproven:
            if len(places) > 1:
                _emit("notice", {"text": f"{address}:{port} passed over: {unproven.reason}"})
            last = unproven.reason
            continue
        return address, port
    if len(places) == 1:
        raise Closed(last)
    raise Closed(f"no listing proved the host's key (the last: {last})")


def _observer(
    peer_of: Callable[[], Peer], terminal: bool, advertiser_of: Callable[[], Advertiser | None]
) -> Callable[[str, dict[str, Any]], None]:
    """What a headless peer prints, and what it does at its turn and on changes."""
    quiet = {"entry"} if _TRACE["on"] else {"entry", "sent", "pending"}

    def observe(kind: str, data: dict[str, Any]) -> None:
        peer: Peer = peer_of()
        if kind == "entry":
            advertiser = advertiser_of()
            if advertiser is not None and peer.log is not None:
                asyncio.get_running_loop().create_task(advertiser.update(txt_record(peer.log)))
        if kind not in quiet:
            _emit(kind, data)
        if terminal and (kind == "your_turn" or (kind == "rejected" and data["kind"] == "act")):
            asyncio.get_running_loop().create_task(_ask_terminal(peer))

    return observe


def _terminal_turn(peer: Peer) -> None:
    """A tournament game's turn for a person at the terminal."""
    asyncio.get_running_loop().create_task(_ask_terminal(peer))


async def _ask_terminal(peer: Peer) -> None:
    log: MatchLog | None = peer.log
    if log is None:
        return
    state = log.state
    legal = " ".join(state.action_to_str(a) for a in state.legal_actions())
    print(f"\n{state}\nlegal: {legal}\nyour move> ", end="", file=sys.stderr, flush=True)
    line = await asyncio.to_thread(sys.stdin.readline)
    if not line:
        return
    peer.decide(line.strip())


if __name__ == "__main__":
    sys.exit(main())
