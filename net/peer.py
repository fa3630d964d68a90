"""A peer of a LAN match: host or guest, on one asyncio loop, off any frame loop.

The **host** listens, checks each newcomer — who proves its key by signing a fresh
challenge bound to this match and the host's key — places every entry into the match log
with its own signature and relays it to every peer.  A **guest** connects, proves its key,
catches up from the log and from then on applies each entry the host relays, checking every
author's signature and every rule exactly as the host did (:class:`net.matchlog.MatchLog`).
Every request a peer makes is signed by it: the host can order and time entries, never make
one in another's name.

**One match under every fault.**  A guest that loses the host tries the same host first.
Only then does it vote, once, for the first present player in join order; a candidate
becomes the host when more than half of the match's people (the seated persons and the host
at the start) voted for it, and logs a ``host`` entry carrying the signed votes.  The host
goes on only while it is in touch with at least half of them; a minority side — host or
guests — pauses until it reaches the others.  Two halves can therefore never both go on.

:class:`Peer` is the face the rest of the game sees; it holds what every role shares (the
identity, the log, the signing, the observer) and its :class:`~net.role.Role`, and leaves
the work to one object per role, each readable on its own: the host's side
(:mod:`net.hosting`), the guest's (:mod:`net.following`), the choice of a new host
(:mod:`net.election`) and the seat agent that acts on the log after every change
(:mod:`net.seat`).
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any

from game.rules import Variant
from net.agent import Agent
from net.connection import Closed, Connection
from net.discovery import lan_addresses
from net.door import Expected, Unproven
from net.election import Election
from net.fairdice import CHAIN_LENGTH
from net.following import GuestSide
from net.gate import install_quiet_handler
from net.hosting import HostSide
from net.identity import Identity
from net.matchlog import MatchLog, placed, signed
from net.role import Role, move
from net.seat import SeatAgent
from net.witness import Witness

REJOIN_GRACE = 15.0
"""Seconds a new host gives the others to reconnect before it logs them as gone (the
default of :attr:`PeerConfig.rejoin_grace`)."""

Observer = Callable[[str, dict[str, Any]], None]


@dataclass
class PeerConfig:
    name: str
    role: str = "player"
    seat: int = -1
    """The seat wished for (from 0), -1 for the first free one."""
    level: str | None = None
    """The computer level that plays this peer's own seat; None: decisions come from
    :meth:`Peer.decide` (a person at a screen or a terminal)."""
    code: str | None = None
    interface: str = ""
    """The address to listen on and to advertise; '' for every interface."""
    drop_timeout: float = 60.0
    on_drop: str = "wait"
    """What this peer does once a missing player's drop timeout is over: ``computer``
    (give the seat to the computer), ``end`` (end the match) or ``wait``."""
    drop_level: str = "medium"
    rejoin_grace: float = REJOIN_GRACE
    """Seconds this peer, voted in as the new host, gives the others to reconnect before
    it logs them as gone; as a peer that finds nobody
    (:meth:`net.election.Election.alone_limit`), the grace it counts on the others giving.
    The protocol's value (§6.3) unless every peer of a match is given the same shorter one
    (tests: a scenario in less time)."""
    think_seconds: float | None = 1.0
    pace: float = 0.0
    """Seconds a computer decision takes at least (tests and demos slow the game down)."""
    autostart: bool = False
    """As host: start as soon as every seat is taken and every player ready; as guest: be
    ready as soon as seated (headless peers)."""
    allow_coaching: bool = False
    """Headless peers: allow hints and dice odds as soon as seated."""


class Peer:
    """One person's (or one server's) peer of a LAN match; see the module's docstring."""

    def __init__(
        self, identity: Identity, config: PeerConfig, observer: Observer | None = None
    ) -> None:
        self.identity = identity
        self.config = config
        self.agent = Agent(identity)
        self.observe = observer or (lambda kind, data: None)
        self.log: MatchLog | None = None
        self.code: str | None = None
        self.listen_port = 0
        self.finished = asyncio.Event()
        self.failure: str | None = None
        self._role = Role.IDLE
        self._server: asyncio.Server | None = None
        self._n = 0
        """The number of this peer's latest signed entry or request."""
        self._tasks: set[asyncio.Task[Any]] = set()
        self._rolls_seen = 0
        # One object per role, reached through this peer (a test may replace one).
        self.host_side = HostSide(self)
        self.guest_side = GuestSide(self)
        self.election = Election(self)
        self.seats = SeatAgent(self)
        self.witness = Witness(self.me, lambda: self.log, lambda f: self.guest_side.forked(f))
        """Compares this peer's signed heads with the others' (docs/PROTOCOL.md §6.7)."""

    @property
    def me(self) -> str:
        return self.identity.peer

    # -- the role ------------------------------------------------------------------------

    @property
    def role(self) -> Role:
        """What this peer is to the match now (:mod:`net.role`); moved by its roles only."""
        return self._role

    @property
    def hosting(self) -> bool:
        """Whether this peer hosts the match (cut off from most of it, or not)."""
        return self._role.hosting

    @property
    def lost_touch(self) -> bool:
        """This peer's side is cut off from most of the match: it waits to reach them."""
        return self._role.lost_touch

    def _become(self, role: Role) -> None:
        """Move to ``role`` (:func:`net.role.move` checks that it may)."""
        self._role = move(self._role, role)

    # -- starting ------------------------------------------------------------------------

    async def listen(self, port: int = 0) -> int:
        """Open the listening socket (every peer has one: a guest may become the host)."""
        bind = self.config.interface or "0.0.0.0"  # a LAN game listens on the LAN
        install_quiet_handler(asyncio.get_running_loop(), self._notice)
        self._server = await asyncio.start_server(self.host_side.accept, bind, port)
        self.listen_port = self._server.sockets[0].getsockname()[1]
        await self.witness.start(bind, self.listen_port)
        self._spawn(self.host_side.watch())
        return self.listen_port

    async def host(
        self,
        setup: Variant,
        computer_seats: dict[int, str] | None = None,
        port: int = 0,
        code: str | None = None,
        name: str | None = None,
        chain_length: int = CHAIN_LENGTH,
        start: str | None = None,
        match_id: str | None = None,
    ) -> int:
        """Open a match of ``setup`` — from the set-up position ``start`` (a FEN as a record
        keeps it: :func:`game.rules.fen.setup_of`) if given, under ``match_id`` if given (a
        tournament's game: :func:`net.signing.tournament_match`), else a fresh one — and
        listen for players; returns the port.  A ``start`` the log refuses raises
        :class:`Rejected` before anything listens."""
        seats = [""] * setup.players
        for seat, level in (computer_seats or {}).items():
            seats[seat] = level
        self.code = code or None
        opening = {
            "k": "match",
            "id": match_id or secrets.token_hex(16),
            "setup": setup.to_fields(),
            "seats": seats,
            "code": bool(self.code),
            "host": self.me,
            "name": (name or self.config.name)[:40],
            "chain": chain_length,
            "key": self.identity.key,
        }
        if start is not None:
            opening["start"] = start
        log = MatchLog(placed(None, self.identity, signed(None, self.identity, opening, 1)))
        await self.listen(port)
        self._n = 1
        self.log = log
        self._become(Role.HOSTING)
        nonce = secrets.token_bytes(32)
        self._make(self.host_side.join_entry(self.me, self.identity.key, nonce,
                                             self._own_address()))  # fmt: skip
        self.observe("listening", {"port": self.listen_port, "match": self.log.match_id})
        self._after_change()
        return self.listen_port

    async def join(self, address: str, port: int, host_key: Expected = None) -> None:
        """Join the match hosted at ``address:port`` (raises :class:`Closed` if refused);
        with ``host_key``, only if the host there proves it holds that key (or, given as
        text, a key of that fingerprint)
        (:class:`net.door.Unproven` if it does not, or does not answer: nothing needing
        trust, the join code among it, was sent)."""
        if self._server is None:
            await self.listen()
        try:
            connection = await Connection.open(address, port)
        except Closed as closed:
            raise Unproven(closed.reason) from closed
        await self.guest_side.handshake(connection, host_key)
        self.guest_side.host_address = (address, str(port))
        self._become(Role.FOLLOWING)
        self._spawn(self.guest_side.follow(connection))

    # -- what the game asks --------------------------------------------------------------

    def request(self, entry: dict[str, Any]) -> None:
        """Ask for ``entry`` (without ``peer``) to be logged: as host at once, as guest by
        sending it, signed, to the host."""
        log = self.log
        if log is None:
            return
        entry = self._signed({**entry, "peer": self.me})
        if self.hosting:
            self.host_side.handle_request(self.me, entry, None)
        elif self.guest_side.upstream is not None:
            self.guest_side.upstream.send({"t": "request", "e": entry})

    def decide(self, action_text: str) -> None:
        """The decision of this peer's person for the seat whose turn it is."""
        turn = self.seats.waiting_turn
        if turn is None or self.log is None:
            return
        self.seats.send_action(turn, action_text)

    @property
    def catching_up(self) -> bool:
        """True while a guest still takes in the entries logged before it connected (a
        screen shows the match once it stands where the host's does, not move by move)."""
        return not self.hosting and (
            self.log is None or len(self.log) < self.guest_side.history_until
        )

    def waiting_for(self) -> list[str]:
        """The peers the match waits for here: the log's missing ones, and, while this
        peer's side is cut off from most of the match, the people it cannot reach."""
        log = self.log
        if log is None:
            return []
        missing = set(log.waiting_for())
        if self.lost_touch:
            reached = self.host_side.in_touch() if self.hosting else {self.me}
            missing |= set(log.voters()) - reached
        return sorted(missing)

    def can_hand_over(self) -> bool:
        """Whether giving the missing players' seats to the computer would let the match go
        on (:meth:`net.seat.SeatAgent.can_hand_over`)."""
        return self.seats.can_hand_over()

    def hand_over_the_missing(self, level: str) -> None:
        """Ask that the computer take every seat whose player is missing (the log refuses it
        before the drop timeout is over)."""
        self.seats.hand_over_the_missing(level)

    def end_for_the_missing(self) -> None:
        """Ask that the match end because a player left and did not come back."""
        self.seats.end_for_the_missing()

    async def close(self, reason: str = "leaving") -> None:
        for connection in [*self.host_side.clients.values(), self.guest_side.upstream]:
            if connection is not None:
                await connection.close(reason)
        if self._server is not None:
            self._server.close()
        self.witness.close()
        for task in list(self._tasks):
            task.cancel()
        await self.seats.close()
        self.finished.set()

    # -- shared by the roles -------------------------------------------------------------

    def _signed(self, entry: dict[str, Any]) -> dict[str, Any]:
        log = self.log
        assert log is not None
        self._n = max(self._n, log.next_n(self.me) - 1) + 1
        return signed(log, self.identity, entry, self._n)

    def _make(self, entry: dict[str, Any]) -> None:
        """As host: sign ``entry`` as its author and place it (raises :class:`Rejected`)."""
        self._place(self._signed(entry), own=True)

    def _place(self, entry: dict[str, Any], own: bool = False) -> None:
        """As host: place a signed ``entry`` (``own`` if signed just now) in the log and
        relay it to everyone."""
        log = self.log
        assert log is not None
        entry = log.place(entry, self.identity, own=own)
        self.host_side.broadcast(
            {"t": "entry", "seq": len(log) - 1, "e": entry}, last=log.author(entry)
        )
        self._entry_applied(entry)

    def _entry_applied(self, entry: dict[str, Any]) -> None:
        """Tell the observer and the witness of a new entry in the log."""
        log = self.log
        assert log is not None
        kind = entry["k"]
        if kind == "act":
            self.observe(
                "action", {"ply": entry["ply"], "seat": entry["seat"], "action": entry["a"]}
            )
        self.observe("entry", {"seq": len(log) - 1, "kind": kind})
        self.witness.changed()
        for roll in log.rolls[self._rolls_seen :]:
            self.observe("roll", {"number": roll.event, "outcome": roll.outcome})
        self._rolls_seen = len(log.rolls)

    def _after_change(self) -> None:
        """Send what this peer owes now (:meth:`net.seat.SeatAgent.after_change`)."""
        self.seats.after_change()

    def _notice(self, text: str) -> None:
        self.observe("notice", {"text": text})

    def _own_address(self) -> str:
        """Where the others can reach this peer: its interface, else its first LAN address."""
        return f"{self.config.interface or lan_addresses()[0]}:{self.listen_port}"

    def _spawn(self, coroutine: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task
