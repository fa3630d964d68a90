"""Finding matches on the LAN without typing addresses: DNS-SD over multicast DNS.

A hosted match is advertised as an instance of ``_tavolo._tcp.local.`` whose TXT record
says what a lobby needs to list it: protocol version, rules fingerprint, game variant,
players, free seats, whether a join code is needed, the match state, the host's name and
the host's public key (whose fingerprint the lobby and the room show, so a copy announced
under another key can be told apart).  The host updates the record as seats fill and the
match starts, and withdraws it at the end.  A :class:`Browser` keeps a live table of the
matches it hears of, skipping anything that is not plainly a Tavolo match; :func:`ordered`
puts them in the order a lobby lists them.

A tournament's director announces it under the same service, its TXT record saying
``kind=tournament`` with its format and round (:func:`tournament_txt`): a lobby lists it
beside the matches, and joining it goes to the director's door, not a match's.

Both take an ``interface`` address: given one, multicast goes out on that interface only
(tests and benchmarks use it inside their own network namespaces); by default every LAN
interface is used.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import socket
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

import ifaddr
from zeroconf import InterfaceChoice, IPVersion, ServiceStateChange, Zeroconf
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from game.rules import VARIANTS
from game.rules.registry import fingerprint as rules_fingerprint
from net.identity import fingerprint
from net.messages import PROTOCOL_VERSION
from net.tournament_log import MOST_PLAYERS

if TYPE_CHECKING:
    from net.matchlog import MatchLog
    from net.tournament_log import TournamentLog

log = logging.getLogger(__name__)

SERVICE = "_tavolo._tcp.local."
INFO_TIMEOUT_MS = 3000
MAX_LISTINGS = 200
"""Matches a browser keeps; past this, a new one only displaces one that ranks lower."""
PER_KEY = 2
"""Listings of one host key in the ordered list: more from one key is a flood."""

_LIMITS = {"v": 4, "rules": 16, "game": 40, "players": 2, "free": 2, "code": 1, "state": 12,
           "host": 40, "match": 32, "key": 64}  # fmt: skip
"""The longest value of each field a Tavolo host announces (longer: not a Tavolo match)."""
_TOURNAMENT_LIMITS = {"kind": 10, "format": 18, "round": 3}
"""The fields a tournament's announcement adds, each as long at most."""
FORMATS = ("round-robin", "double-round-robin", "swiss", "knockout")

_LONGEST_TEXT = 255  # a TXT string holds at most 255 bytes: anything else is longer still
_LONGEST_NAME = 80  # a Tavolo host's instance name: 60 characters, "-N" if it was taken
_NUMBER = re.compile(r"[0-9]+")
_KEY = re.compile(r"[0-9a-f]{64}")
_UNDER_WAY = ("lobby", "playing", "paused", "entering", "under way")
"""A match's states, then a tournament's, before it is over."""


@dataclass(frozen=True)
class Listing:
    """A match as a browser sees it."""

    name: str
    address: str
    port: int
    version: int
    compatible: bool
    game: str
    players: int
    free: int
    code: bool
    state: str
    host: str
    match: str
    key: str
    """The host's Ed25519 public key, 64 lowercase hex digits, as announced."""
    fingerprint: str
    """The short form of ``key`` people compare by eye with the host's screen."""
    kind: str = "match"
    """``match``, or ``tournament``: then ``host`` is its name, ``key`` its director's,
    ``match`` its id, ``players`` the people it waits for before round 1 and ``free`` the
    places still open (a Swiss under way takes late joiners)."""
    format: str = ""
    """A tournament's format (``round-robin``, ``double-round-robin``, ``swiss``,
    ``knockout``)."""
    round: int = 0
    """A tournament's round under way (0 before the first)."""

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def tournament(self) -> bool:
        return self.kind == "tournament"

    @property
    def waiting(self) -> bool:
        """A match this player can join and sit down in now (a tournament: enter)."""
        open_states = ("entering", "under way") if self.tournament else ("lobby",)
        return self.compatible and self.state in open_states and self.free > 0


def txt_record(log: MatchLog) -> dict[str, str]:
    """The TXT record announcing the match ``log`` is of, as it stands."""
    state = "paused" if log.phase == "playing" and log.paused else log.phase
    return {
        "v": str(PROTOCOL_VERSION),
        "rules": rules_fingerprint()[:16],
        "game": log.variant.name,
        "players": str(log.variant.players),
        "free": str(log.free_seats() if log.phase == "lobby" else 0),
        "code": "1" if log.code_required else "0",
        "state": state,
        "host": log.name[:40],
        "match": log.match_id,
        "key": log.keys[log.host].hex(),
    }


def tournament_txt(log: TournamentLog, wanted: int, code: bool) -> dict[str, str]:
    """The TXT record announcing the tournament ``log`` is of, as it stands: ``wanted``
    people awaited before round 1, ``code`` whether a join code is needed."""
    tournament = log.tournament
    if log.over:
        state, free = "over", 0
    elif tournament is None:
        people = {p for p, e in log.entrants.items() if not e.computer}
        state, free = "entering", max(0, wanted - len(people - set(log.withdrawn_early)))
    else:
        swiss = log.format.value == "swiss"  # late joiners enter its next round
        state, free = "under way", max(0, MOST_PLAYERS - len(log.entrants)) if swiss else 0
    return {
        "v": str(PROTOCOL_VERSION),
        "rules": rules_fingerprint()[:16],
        "game": log.game.name,
        "players": str(min(wanted, 99)),
        "free": str(min(free, 99)),
        "code": "1" if code else "0",
        "state": state,
        "host": log.name[:40],
        "match": log.id,
        "key": log.director.hex(),
        "kind": "tournament",
        "format": log.format.value,
        "round": str(0 if tournament is None else len(tournament.rounds)),
    }


# -- reading announcements: anything that is not plainly a Tavolo match is skipped ---------


def decode(
    name: str, properties: Mapping[bytes, bytes | None], addresses: Sequence[str], port: int | None
) -> Listing | None:
    """The listing an announcement describes, or None if it is not a Tavolo match: a field
    missing, too long, not UTF-8 or with control characters, a number that is not plain
    digits, a key that is not 64 hex digits, no address or port.  Never raises: whatever
    arrives over multicast is somebody else's bytes."""
    txt = _text(properties)
    instance = name.removesuffix("." + SERVICE) if name.endswith("." + SERVICE) else ""
    if txt is None or not 0 < len(instance) <= _LONGEST_NAME or not instance.isprintable():
        return None
    if any(k not in txt or len(txt[k]) > most for k, most in _LIMITS.items()):
        return None
    kind = txt.get("kind", "match")
    tournament = kind == "tournament"
    if tournament:
        if any(k not in txt or len(txt[k]) > most for k, most in _TOURNAMENT_LIMITS.items()):
            return None
        if txt["format"] not in FORMATS or not _NUMBER.fullmatch(txt["round"]):
            return None
    elif kind != "match":
        return None
    numbers = [txt[k] for k in ("v", "players", "free")]
    if not all(_NUMBER.fullmatch(n) for n in numbers) or not _KEY.fullmatch(txt["key"]):
        return None
    version, players, free = (int(n) for n in numbers)
    if players == 0 or (free > players and not tournament) or txt["code"] not in ("0", "1"):
        return None
    if not txt["state"] or not txt["match"] or not addresses or not 0 < (port or 0) < 65536:
        return None
    spec = VARIANTS.get(txt["game"])
    compatible = (
        version == PROTOCOL_VERSION
        and txt["rules"] == rules_fingerprint()[:16]
        and spec is not None
        and (2 if tournament else players) in spec.players
    )
    return Listing(
        name=instance,
        address=addresses[0],
        port=int(port or 0),
        version=version,
        compatible=compatible,
        game=txt["game"],
        players=players,
        free=free,
        code=txt["code"] == "1",
        state=txt["state"],
        host=txt["host"],
        match=txt["match"],
        key=txt["key"],
        fingerprint=fingerprint(bytes.fromhex(txt["key"])),
        kind=kind,
        format=txt["format"] if tournament else "",
        round=int(txt["round"]) if tournament else 0,
    )


def _text(properties: Mapping[bytes, bytes | None]) -> dict[str, str] | None:
    """A TXT record as text, or None if any key or value is not printable UTF-8 of a
    TXT string's length (a key without a value is left out)."""
    text: dict[str, str] = {}
    for raw_key, raw_value in properties.items():
        try:
            key = raw_key.decode()
            value = "" if raw_value is None else raw_value.decode()
        except (AttributeError, UnicodeDecodeError):
            return None
        if not (key.isprintable() and value.isprintable()) or len(key) + len(value) > _LONGEST_TEXT:
            return None
        if raw_value is not None:
            text[key] = value
    return text


def _listing(name: str, info: AsyncServiceInfo) -> Listing | None:
    return decode(name, info.properties, info.parsed_addresses(IPVersion.V4Only), info.port)


# -- the order a lobby lists matches in ------------------------------------------------------


def rank(listing: Listing) -> int:
    """0 for a match waiting for players, 1 under way (or full), 2 another version of
    Tavolo, 3 finished, abandoned or anything else."""
    if listing.state not in _UNDER_WAY:
        return 3
    if not listing.compatible:
        return 2
    return 0 if listing.waiting else 1


def ordered(listings: Iterable[Listing]) -> list[Listing]:
    """The listings as a lobby shows them: by :func:`rank`; within a rank, the listings of
    one host key together, the keys by their hosts' names; at most :data:`PER_KEY` from one
    key (its best), so announcements flooded under one key cannot push others down."""
    by_key: dict[str, list[Listing]] = {}
    for listing in sorted(listings, key=lambda item: (rank(item), _name_order(item))):
        by_key.setdefault(listing.key, []).append(listing)
    kept = [listing for group in by_key.values() for listing in group[:PER_KEY]]
    first: dict[tuple[int, str], tuple[str, str]] = {}
    for listing in kept:  # already in name order: the first seen is the group's first
        first.setdefault((rank(listing), listing.key), _name_order(listing))
    return sorted(
        kept,
        key=lambda item: (rank(item), first[rank(item), item.key], item.key, _name_order(item)),
    )


def twins(listings: Iterable[Listing]) -> frozenset[str]:
    """The names of listings whose host name or match id a listing with another key claims
    too: a copy, or two hosts of one name — only the fingerprints tell them apart."""
    keys: dict[tuple[str, str], set[str]] = {}
    listings = list(listings)
    for listing in listings:
        keys.setdefault(("host", listing.host.casefold()), set()).add(listing.key)
        keys.setdefault(("match", listing.match), set()).add(listing.key)
    return frozenset(
        listing.name
        for listing in listings
        if len(keys["host", listing.host.casefold()]) > 1 or len(keys["match", listing.match]) > 1
    )


def _name_order(listing: Listing) -> tuple[str, str]:
    return listing.host.casefold(), listing.name


def _zeroconf(interface: str) -> AsyncZeroconf:
    if interface:
        return AsyncZeroconf(interfaces=[interface], ip_version=IPVersion.V4Only)
    return AsyncZeroconf(interfaces=InterfaceChoice.All, ip_version=IPVersion.V4Only)


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses, loopback left out."""
    found = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if isinstance(ip.ip, str) and not ip.ip.startswith("127."):
                found.append(ip.ip)
    return found or ["127.0.0.1"]


class Advertiser:
    """Publishes one hosted match and keeps its TXT record current."""

    def __init__(self, interface: str = "") -> None:
        self.interface = interface
        self._zc: AsyncZeroconf | None = None
        self._info: AsyncServiceInfo | None = None

    async def start(self, title: str, port: int, txt: dict[str, str]) -> None:
        self._zc = _zeroconf(self.interface)
        addresses = [self.interface] if self.interface else lan_addresses()
        label = f"{title} {txt['match'][:6]}".replace(".", " ")[:60]
        self._info = AsyncServiceInfo(
            SERVICE,
            f"{label}.{SERVICE}",
            addresses=[socket.inet_aton(a) for a in addresses],
            port=port,
            properties=txt,
            server=f"tavolo-{txt['match'][:12]}.local.",
        )
        await (await self._zc.async_register_service(self._info, allow_name_change=True))

    async def update(self, txt: dict[str, str]) -> None:
        if self._zc is None or self._info is None or _text(self._info.properties) == txt:
            return
        self._info = AsyncServiceInfo(
            SERVICE,
            self._info.name,
            addresses=self._info.addresses,
            port=self._info.port,
            properties=txt,
            server=self._info.server,
        )
        await (await self._zc.async_update_service(self._info))

    async def stop(self) -> None:
        if self._zc is None:
            return
        with contextlib.suppress(Exception):  # best effort: the network may be gone already
            if self._info is not None:
                await (await self._zc.async_unregister_service(self._info))
        await self._zc.async_close()
        self._zc = None


class Browser:
    """A live table of the matches announced on the LAN; ``on_change(change, listing)`` is
    called with ``found``, ``changed`` or ``gone``.

    Nothing heard raises: an announcement that is not plainly a Tavolo match is skipped
    and counted in ``skipped``.  At most :data:`MAX_LISTINGS` are kept; when full, a match
    that ranks higher (:func:`rank`) displaces the lowest, so a flood of finished or
    abandoned ones cannot keep out a match waiting for players."""

    def __init__(
        self,
        interface: str = "",
        on_change: Callable[[str, Listing], None] | None = None,
    ) -> None:
        self.interface = interface
        self.on_change = on_change or (lambda change, listing: None)
        self.listings: dict[str, Listing] = {}
        self.skipped = 0
        self._zc: AsyncZeroconf | None = None
        self._browser: AsyncServiceBrowser | None = None
        self._pending: set[asyncio.Task[Any]] = set()

    async def start(self) -> None:
        self._zc = _zeroconf(self.interface)
        self._browser = AsyncServiceBrowser(self._zc.zeroconf, SERVICE, handlers=[self._heard])

    def _heard(
        self, zeroconf: Zeroconf, service_type: str, name: str, state_change: ServiceStateChange
    ) -> None:
        if state_change is ServiceStateChange.Removed:
            listing = self.listings.pop(name, None)
            if listing is not None:
                self.on_change("gone", listing)
            return
        if len(self._pending) >= MAX_LISTINGS:  # a flood of names: the rest wait for updates
            self._skip(name, "too many announcements at once")
            return
        task = asyncio.get_running_loop().create_task(self._resolve(name))
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def _resolve(self, name: str) -> None:
        if self._zc is None:
            return
        try:
            info = AsyncServiceInfo(SERVICE, name)
            if not await info.async_request(self._zc.zeroconf, INFO_TIMEOUT_MS):
                return
            listing = _listing(name, info)
        except Exception as error:  # a name or record zeroconf itself cannot take
            self._skip(name, repr(error))
            return
        if listing is None:
            self._skip(name, "not a Tavolo match")
            gone = self.listings.pop(name, None)  # it was one, and no longer reads as one
            if gone is not None:
                self.on_change("gone", gone)
            return
        self._keep(name, listing)

    def _keep(self, name: str, listing: Listing) -> None:
        before = self.listings.get(name)
        if before is None and len(self.listings) >= MAX_LISTINGS:
            lowest = max(self.listings, key=lambda n: rank(self.listings[n]))
            if rank(self.listings[lowest]) <= rank(listing):
                self._skip(name, "the table is full")
                return
            self.on_change("gone", self.listings.pop(lowest))
        self.listings[name] = listing
        if before != listing:
            self.on_change("found" if before is None else "changed", listing)

    def _skip(self, name: str, why: str) -> None:
        self.skipped += 1
        log.debug("announcement %r skipped: %s", name, why)

    async def stop(self) -> None:
        for task in self._pending:
            task.cancel()
        if self._browser is not None:
            await self._browser.async_cancel()
        if self._zc is not None:
            await self._zc.async_close()
        self._zc = self._browser = None
