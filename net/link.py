"""LAN play for a frame loop that must never wait on the network.

:class:`NetLink` runs a :class:`net.peer.Peer` on an asyncio loop in a thread of its own.
The frame loop calls its methods (they only schedule work on that loop and return at once)
and reads :meth:`NetLink.view`: an immutable snapshot of the match, remade on the network
thread after every change.  :class:`LanBrowser` does the same for the live list of matches
announced on the LAN.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field, replace
from typing import Any

from game.rules import RulesError, Variant
from net.connection import Closed
from net.discovery import Advertiser, Browser, Listing, ordered, txt_record
from net.identity import Identity, fingerprint
from net.matchlog import MatchLog, Rejected
from net.peer import Peer, PeerConfig


@dataclass(frozen=True)
class SeatView:
    name: str
    """Who sits there ('' for a free seat)."""
    peer: str | None
    computer: str
    ready: bool
    present: bool
    coach: bool = False
    """This player allows hints and dice odds."""


@dataclass(frozen=True)
class LinkView:
    """The match as the frame loop may read it at any moment."""

    phase: str = "connecting"
    variant: Variant | None = None
    name: str = ""
    hosting: bool = False
    port: int = 0
    my_seat: int | None = None
    seats: tuple[SeatView, ...] = ()
    spectators: tuple[str, ...] = ()
    actions: tuple[int, ...] = ()
    start: str | None = None
    """The set-up position the match started from (a FEN), None for the game's own start."""
    paused: bool = False
    waiting: tuple[str, ...] = ()
    paused_since: float | None = None
    can_start: bool = False
    """This peer hosts and the match can start now."""
    catching_up: bool = False
    """This guest still takes in what was logged before it came (:attr:`Peer.catching_up`)."""
    coaching: bool = False
    """Every person seated allows hints and dice odds: the match has them."""
    code_required: bool = False
    host_fingerprint: str = ""
    """The short form of the host's key, for players to compare with the host's screen."""
    error: str = ""
    fork: int = 0
    """The entry at which the host was caught showing another member a different match
    (0: never): the match is stopped (docs/PROTOCOL.md §6.7)."""
    notices: tuple[str, ...] = field(default=())


class NetLink:
    def __init__(
        self,
        identity: Identity,
        config: PeerConfig,
        advertise: bool = True,
        on_change: Callable[[], None] | None = None,
    ) -> None:
        """``on_change`` is called on the network thread after every change to
        :meth:`view`, so a frame loop asleep while nothing moves wakes for it."""
        self.identity = identity
        self._on_change = on_change
        self.config = config
        self.advertise = advertise
        self._view = LinkView()
        self._notices: list[str] = []
        self._lock = threading.Lock()
        self._paused_since: float | None = None
        self._advertiser: Advertiser | None = None
        self._owns_loop = True
        """Whether this link runs its loop (and so stops it on :meth:`close`)."""
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True, name="lan")
        self._thread.start()
        self.peer: Peer = self._call(self._make_peer)

    @classmethod
    def over(
        cls,
        peer: Peer,
        loop: asyncio.AbstractEventLoop,
        on_change: Callable[[], None] | None = None,
    ) -> NetLink:
        """A link to a match ``peer`` that another runs on ``loop`` (a tournament's player,
        :mod:`net.tournament_player`): its observations are handed to :meth:`observe` on
        that loop; :meth:`close` leaves the peer and the loop to their owner."""
        link = cls.__new__(cls)
        link.identity = peer.identity
        link._on_change = on_change
        link.config = peer.config
        link.advertise = False
        link._view = LinkView()
        link._notices = []
        link._lock = threading.Lock()
        link._paused_since = None
        link._advertiser = None
        link._owns_loop = False
        link._loop = loop
        link.peer = peer
        return link

    def observe(self, kind: str, data: dict[str, Any]) -> None:
        """What the peer observed (on the peer's loop), for a link made with :meth:`over`."""
        self._observe(kind, data)

    # -- what the frame loop calls -------------------------------------------------------

    def host(
        self, setup: Variant, computers: dict[int, str], code: str | None, start: str | None = None
    ) -> None:
        """Host a match of ``setup``, from the set-up position ``start`` if given."""
        self._submit(self._host(setup, computers, code, start))

    def join(self, address: str, port: int, host_key: bytes | None = None) -> None:
        """Join the match at ``address:port`` (with ``host_key``: only that key's host)."""
        self._submit(self._join(address, port, host_key))

    def decide(self, action_text: str) -> None:
        self._loop.call_soon_threadsafe(self.peer.decide, action_text)

    def request(self, entry: dict[str, Any]) -> None:
        self._loop.call_soon_threadsafe(self.peer.request, entry)

    def resign(self) -> None:
        self._loop.call_soon_threadsafe(self._resign)

    def take_seat(self, seat: int) -> None:
        self.request({"k": "seat", "seat": seat})

    def set_ready(self, ready: bool) -> None:
        self.request({"k": "ready", "ready": ready})

    def allow_coaching(self, allow: bool) -> None:
        """Say whether this player allows hints and dice odds in the match."""
        self.request({"k": "coach", "allow": allow})

    def start(self) -> None:
        self.request({"k": "start"})

    def hand_over_the_missing(self, level: str = "medium") -> None:
        """The computer takes the seats of the players who are missing."""
        self._loop.call_soon_threadsafe(self.peer.hand_over_the_missing, level)

    def end_for_the_missing(self) -> None:
        self._loop.call_soon_threadsafe(self.peer.end_for_the_missing)

    def view(self) -> LinkView:
        with self._lock:
            return self._view

    def close(self) -> None:
        """Leave the match and stop the thread (waits at most two seconds); nothing for a
        link over another's peer (:meth:`over`)."""
        if not self._owns_loop or not self._loop.is_running():
            return
        future = asyncio.run_coroutine_threadsafe(self._shutdown(), self._loop)
        with contextlib.suppress(Exception):  # leaving must never hang or fail the screen
            future.result(2.0)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(2.0)

    # -- on the network thread -----------------------------------------------------------

    def _call(self, function: Callable[[], Any]) -> Any:
        async def run() -> Any:
            return function()

        return asyncio.run_coroutine_threadsafe(run(), self._loop).result(5.0)

    def _submit(self, coroutine: Coroutine[Any, Any, Any]) -> None:
        asyncio.run_coroutine_threadsafe(coroutine, self._loop)

    def _make_peer(self) -> Peer:
        return Peer(self.identity, self.config, self._observe)

    async def _host(
        self, setup: Variant, computers: dict[int, str], code: str | None, start: str | None
    ) -> None:
        try:
            port = await self.peer.host(setup, computers, 0, code, self.config.name, start=start)
        except (OSError, RulesError) as error:
            self._fail(str(error))
            return
        except Rejected as error:
            self._fail(error.reason)
            return
        log = self.peer.log
        if self.advertise and log is not None:  # host() made the log
            try:
                self._advertiser = Advertiser(self.config.interface)
                await self._advertiser.start(self.config.name, port, txt_record(log))
            except Exception as error:  # no multicast here: joining by address still works
                self._advertiser = None
                self._notice(f"the match is not announced on the LAN ({error})")
        self._refresh()

    async def _join(self, address: str, port: int, host_key: bytes | None) -> None:
        try:
            await self.peer.join(address, port, host_key)
        except (Closed, OSError) as error:
            self._fail(getattr(error, "reason", str(error)))
            return
        self._refresh()

    def _resign(self) -> None:
        log = self.peer.log
        seat = None if log is None else log.seat_of(self.peer.me)
        if log is None or seat is None or log.phase != "playing":
            return
        state = log.state
        text = f"resign{seat + 1}"
        after = state.apply(state.parse_action(text))
        self.peer.request(
            {"k": "act", "seat": seat, "ply": log.ply, "a": text, "d": after.digest()}
        )

    async def _shutdown(self) -> None:
        if self._advertiser is not None:
            await self._advertiser.stop()
        await self.peer.close("left the match")
        await _cancel_the_rest()

    def _observe(self, kind: str, data: dict[str, Any]) -> None:
        if kind in ("notice", "rejected", "error"):
            self._notice(data.get("text") or data.get("reason", ""))
        if kind == "error":
            self._fail(data["text"])
        if kind == "fork":
            with self._lock:
                self._view = replace(self._view, fork=data["entry"], paused=True)
            self._changed()
        log = self.peer.log
        if kind == "entry" and self._advertiser is not None and self.peer.hosting and log:
            asyncio.get_running_loop().create_task(self._advertiser.update(txt_record(log)))
        if kind in ("entry", "host", "paused", "resumed", "over", "match", "touch"):
            self._refresh()

    def _notice(self, text: str) -> None:
        with self._lock:
            self._notices = [*self._notices[-4:], text]
            self._view = replace(self._view, notices=tuple(self._notices))
        self._changed()

    def _fail(self, reason: str) -> None:
        with self._lock:
            self._view = replace(self._view, error=reason)
        self._changed()

    def _changed(self) -> None:
        if self._on_change is not None:
            self._on_change()

    def _refresh(self) -> None:
        log: MatchLog | None = self.peer.log
        if log is None:
            return
        paused = log.paused or self.peer.lost_touch or bool(self._view.fork)
        if paused and self._paused_since is None:
            self._paused_since = time.monotonic()
        elif not paused:
            self._paused_since = None
        members = log.members
        seats = tuple(
            SeatView(
                members[s.owner].name if s.owner in members else "",
                s.owner,
                s.computer,
                bool(s.owner in members and members[s.owner].ready),
                bool(s.owner in members and members[s.owner].present),
                bool(s.owner in members and members[s.owner].coach),
            )
            for s in log.seats
        )
        with self._lock:
            self._view = LinkView(
                phase=log.phase,
                variant=log.variant,
                name=log.name,
                hosting=self.peer.hosting,
                port=self.peer.listen_port,
                my_seat=log.seat_of(self.peer.me),
                seats=seats,
                spectators=tuple(
                    m.name for m in members.values() if m.role == "spectator" and m.present
                ),
                actions=log.record.actions,
                start=log.record.setup,
                paused=paused,
                waiting=tuple(members[p].name for p in self.peer.waiting_for() if p in members),
                paused_since=self._paused_since,
                can_start=self.peer.hosting and log.start_problem() is None,
                catching_up=self.peer.catching_up,
                coaching=log.coaching,
                code_required=log.code_required,
                host_fingerprint=fingerprint(log.keys[log.host]),
                error=self._view.error,
                fork=self._view.fork,
                notices=tuple(self._notices),
            )
        self._changed()


class LanBrowser:
    """The matches announced on the LAN, kept current on a thread of its own."""

    def __init__(self, interface: str = "", on_change: Callable[[], None] | None = None) -> None:
        """``on_change`` is called on the browser's thread whenever the list changes."""
        self._on_change = on_change
        self._listings: dict[str, Listing] = {}
        self._lock = threading.Lock()
        self.error = ""
        self._loop = asyncio.new_event_loop()
        self._browser = Browser(interface, self._heard)
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True, name="lan")
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self._start(), self._loop)

    async def _start(self) -> None:
        try:
            await self._browser.start()
        except Exception as error:  # no multicast here: joining by address still works
            self.error = str(error)
            self._changed()

    def _heard(self, change: str, listing: Listing) -> None:
        with self._lock:
            if change == "gone":
                self._listings.pop(listing.name, None)
            else:
                self._listings[listing.name] = listing
        self._changed()

    def _changed(self) -> None:
        if self._on_change is not None:
            self._on_change()

    def listings(self) -> list[Listing]:
        """The matches in the order to list them (:func:`net.discovery.ordered`): those
        waiting for players first, each host key's together."""
        with self._lock:
            return ordered(self._listings.values())

    def close(self) -> None:
        if not self._loop.is_running():
            return

        async def stop() -> None:
            await self._browser.stop()
            await _cancel_the_rest()

        future = asyncio.run_coroutine_threadsafe(stop(), self._loop)
        with contextlib.suppress(Exception):  # leaving the lobby must never hang
            future.result(2.0)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(2.0)


async def _cancel_the_rest() -> None:
    """End every other task of this loop, so that it stops with nothing left half done."""
    others = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
    for task in others:
        task.cancel()
    await asyncio.gather(*others, return_exceptions=True)
