"""Finding matches on the LAN without typing addresses: DNS-SD over multicast DNS.

A hosted match is advertised as an instance of ``_tavolo._tcp.local.`` whose TXT record
says what a lobby needs to list it: protocol version, rules fingerprint, game variant,
players, free seats, whether a join code is needed, the match state and the host's name.
The host updates the record as seats fill and the match starts, and withdraws it at the
end.  A :class:`Browser` keeps a live table of the matches it hears of.

Both take an ``interface`` address: given one, multicast goes out on that interface only
(tests and benchmarks use it inside their own network namespaces); by default every LAN
interface is used.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING

import ifaddr
from zeroconf import InterfaceChoice, IPVersion, ServiceStateChange, Zeroconf
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from game.rules.registry import fingerprint
from net.messages import PROTOCOL_VERSION

if TYPE_CHECKING:
    from net.matchlog import MatchLog

SERVICE = "_tavolo._tcp.local."
INFO_TIMEOUT_MS = 3000


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

    def to_json(self) -> dict:
        return asdict(self)


def txt_record(log: MatchLog) -> dict[str, str]:
    """The TXT record announcing the match ``log`` is of, as it stands."""
    state = "paused" if log.phase == "playing" and log.paused else log.phase
    return {
        "v": str(PROTOCOL_VERSION),
        "rules": fingerprint()[:16],
        "game": log.variant.name,
        "players": str(log.variant.players),
        "free": str(log.free_seats() if log.phase == "lobby" else 0),
        "code": "1" if log.code_required else "0",
        "state": state,
        "host": log.name[:40],
        "match": log.match_id,
    }


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
        if self._zc is None or self._info is None or _decoded(self._info.properties) == txt:
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
    called with ``found``, ``changed`` or ``gone``."""

    def __init__(
        self,
        interface: str = "",
        on_change: Callable[[str, Listing], None] | None = None,
    ) -> None:
        self.interface = interface
        self.on_change = on_change or (lambda change, listing: None)
        self.listings: dict[str, Listing] = {}
        self._zc: AsyncZeroconf | None = None
        self._browser: AsyncServiceBrowser | None = None
        self._pending: set[asyncio.Task] = set()

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
        task = asyncio.get_running_loop().create_task(self._resolve(name))
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def _resolve(self, name: str) -> None:
        if self._zc is None:
            return
        info = AsyncServiceInfo(SERVICE, name)
        if not await info.async_request(self._zc.zeroconf, INFO_TIMEOUT_MS):
            return
        listing = _listing(name, info)
        if listing is None:
            return
        before = self.listings.get(name)
        self.listings[name] = listing
        if before != listing:
            self.on_change("found" if before is None else "changed", listing)

    async def stop(self) -> None:
        for task in self._pending:
            task.cancel()
        if self._browser is not None:
            await self._browser.async_cancel()
        if self._zc is not None:
            await self._zc.async_close()
        self._zc = self._browser = None


def _decoded(properties: dict) -> dict[str, str]:
    return {
        (k.decode() if isinstance(k, bytes) else str(k)): (
            v.decode(errors="replace") if isinstance(v, bytes) else ""
        )
        for k, v in properties.items()
    }


def _listing(name: str, info: AsyncServiceInfo) -> Listing | None:
    """The listing an announcement describes, or None if it is not a Tavolo match."""
    txt = _decoded(info.properties)
    addresses = info.parsed_addresses(IPVersion.V4Only)
    try:
        return Listing(
            name=name.removesuffix("." + SERVICE),
            address=addresses[0],
            port=int(info.port or 0),
            version=int(txt["v"]),
            compatible=txt["v"] == str(PROTOCOL_VERSION) and txt["rules"] == fingerprint()[:16],
            game=txt["game"][:40],
            players=int(txt["players"]),
            free=int(txt["free"]),
            code=txt["code"] == "1",
            state=txt["state"][:12],
            host=txt["host"][:40],
            match=txt["match"][:32],
        )
    except (KeyError, ValueError, IndexError):
        return None
