"""Fakes for driving a peer's roles in process (net/hosting.py, net/following.py,
net/election.py, net/seat.py, net/peer.py): lines that record what is sent on them, a clock
turned by hand, and real :class:`net.peer.Peer` objects around logs made by
:class:`tests.net_helpers.Table` — no socket, no worker process, no waiting on the wall clock.
"""

from __future__ import annotations

import asyncio
import types
from typing import Any

from net.connection import Closed
from net.framing import FrameDecoder
from net.matchlog import MatchLog, placed
from net.peer import Peer, PeerConfig
from net.role import Role
from tests.net_helpers import Table


class Clock:
    """``time`` for a role module: ``monotonic()`` reads a hand-turned clock."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def monotonic(self) -> float:
        return self.now

    def namespace(self) -> types.SimpleNamespace:
        return types.SimpleNamespace(monotonic=self.monotonic, time=self.monotonic)


class Line:
    """A peer's line as the roles use it: what is sent on it, whether and why it was closed,
    and the messages it will receive (``inbox``; an empty inbox reads as a closed line)."""

    def __init__(
        self, peer: str | None = None, address: str = "10.0.0.2", heard_at: float = 1000.0
    ) -> None:
        self.peer = peer
        self.address = address
        self.heard_at = heard_at
        self.sent: list[dict[str, Any]] = []
        self.closed: str | None = None
        self.hung_up: str | None = None
        self.inbox: list[dict[str, Any] | Closed] = []
        self.hold = False
        """Whether an empty inbox waits (for ever) instead of reading as a closed line."""

    def send(self, message: dict[str, Any]) -> None:
        if self.closed is None:
            self.sent.append(message)

    def send_frame(self, frame: bytes) -> None:
        if self.closed is None:
            self.sent.extend(FrameDecoder().feed(frame))

    async def close(self, reason: str) -> str:
        if self.closed is None:
            self.closed = reason
        return self.closed

    def hang_up(self, reason: str) -> None:
        self.hung_up = reason
        if self.closed is None:
            self.closed = reason

    async def receive(self, timeout: float = 0.0) -> dict[str, Any]:
        await asyncio.sleep(0)
        if not self.inbox and self.hold:
            await asyncio.get_running_loop().create_future()
        if not self.inbox:
            raise Closed(self.closed or "connection closed")
        message = self.inbox.pop(0)
        if isinstance(message, Closed):
            raise message
        return message

    async def receive_by(self, deadline: float) -> dict[str, Any]:
        return await self.receive()

    def kinds(self) -> list[str]:
        """The kinds of the entries relayed, requested or sent on this line, in order."""
        return [m["e"]["k"] if "e" in m else m["t"] for m in self.sent]

    def requests(self) -> list[dict[str, Any]]:
        return [m["e"] for m in self.sent if m["t"] == "request"]


class Seen:
    """What a peer told its observer."""

    def __init__(self) -> None:
        self.events: list[tuple[str, dict[str, Any]]] = []

    def __call__(self, kind: str, data: dict[str, Any]) -> None:
        self.events.append((kind, data))

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [data for k, data in self.events if k == kind]

    def kinds(self) -> list[str]:
        return [k for k, _ in self.events]


def config(name: str = "p", **changes: Any) -> PeerConfig:
    return PeerConfig(name, **{"interface": "127.0.0.1", "think_seconds": None, **changes})


def peer_at(
    table: Table, index: int, log: MatchLog | None = None, role: Role | None = None, **changes: Any
) -> tuple[Peer, Seen]:
    """Peer ``index`` of ``table`` (0 the host) holding ``log`` (its own copy of the table's
    log by default), in ``role`` (HOSTING for the host, FOLLOWING for a guest)."""
    seen = Seen()
    peer = Peer(table.identities[index], config(f"p{index + 1}", **changes), seen)
    peer.log = log if log is not None else table.logs[min(index, len(table.logs) - 1)]
    peer._role = role or (Role.HOSTING if index == 0 else Role.FOLLOWING)
    peer._n = peer.log.next_n(peer.me) - 1
    peer.listen_port = 7000 + index
    return peer, seen


def relay(table: Table, entry: dict[str, Any]) -> dict[str, Any]:
    """``entry``, signed by its author already, placed by the table's host and applied to
    every log of the table (as the host relays a request)."""
    sealed = placed(table.log, table.identities[0], entry)
    for log in table.logs:
        log.apply(dict(sealed))
    return sealed


def relay_requests(table: Table, line: Line) -> list[str]:
    """Place every request sent on ``line`` so far (and clear them); their kinds."""
    requests = line.requests()
    line.sent = [m for m in line.sent if m["t"] != "request"]
    for entry in requests:
        relay(table, entry)
    return [e["k"] for e in requests]
