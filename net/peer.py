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
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any

from game.rules import RulesError, State, Variant
from net.agent import Agent, Turn
from net.connection import HANDSHAKE_TIMEOUT, Closed, Connection
from net.discovery import lan_addresses
from net.door import (
    DIVERGED,
    Expected,
    Unproven,
    catch_up_deadline,
    catch_up_from,
    introduce,
    present,
)
from net.fairdice import CHAIN_LENGTH
from net.framing import encode
from net.gate import Gate, Slot, install_quiet_handler
from net.identity import Identity, verify
from net.matchlog import LOBBY, PLAYING, MatchLog, Rejected, placed, signed
from net.signing import join_payload, vote_payload
from net.thinking import SeatThinker
from net.witness import Fork, Witness

REQUESTABLE = {
    "seat", "ready", "coach", "commit", "reveal", "act", "computer", "offer", "end", "start",
}  # fmt: skip
"""Entry kinds a peer may ask the host to place (the log checks who may make which)."""
SAME_HOST_FIRST = 6.0
"""Seconds a guest that lost its host keeps trying that host before it votes."""
RETRY_EVERY = 1.5
IN_TOUCH = 5.0
"""A connection heard from within these seconds counts as in touch (pings come every 2 s)."""
REJOIN_GRACE = 15.0
"""Seconds a new host gives the others to reconnect before it logs them as gone (the
default of :attr:`PeerConfig.rejoin_grace`)."""
WITHHOLD_GRACE = 5.0
"""Seconds a peer that just (re)connected has to send the dice it owes."""
FORK_LINGER = 1.0
"""Seconds a peer that caught the host forking keeps sending the proof before it stops."""

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
    it logs them as gone; as a peer that finds nobody (:meth:`Peer._alone_limit`), the
    grace it counts on the others giving.  The protocol's value (§6.3) unless every peer
    of a match is given the same shorter one (tests: a scenario in less time)."""
    think_seconds: float | None = 1.0
    pace: float = 0.0
    """Seconds a computer decision takes at least (tests and demos slow the game down)."""
    autostart: bool = False
    """As host: start as soon as every seat is taken and every player ready; as guest: be
    ready as soon as seated (headless peers)."""
    allow_coaching: bool = False
    """Headless peers: allow hints and dice odds as soon as seated."""


class Peer:
    def __init__(
        self, identity: Identity, config: PeerConfig, observer: Observer | None = None
    ) -> None:
        self.identity = identity
        self.config = config
        self.agent = Agent(identity)
        self.observe = observer or (lambda kind, data: None)
        self.log: MatchLog | None = None
        self.hosting = False
        self.code: str | None = None
        self.listen_port = 0
        self.finished = asyncio.Event()
        self.failure: str | None = None
        self.lost_touch = False
        """This peer's side is cut off from most of the match: it waits to reach them."""
        self._server: asyncio.Server | None = None
        self._gate = Gate()
        self._clients: dict[str, Connection] = {}
        self._connected_at: dict[str, float] = {}
        self._upstream: Connection | None = None
        self._became_host = asyncio.Event()
        self._gone_since: dict[str, float] = {}
        self._owing_since: dict[str, float] = {}
        self._unlogged_joins: dict[str, dict[str, Any]] = {}
        self._grace_until = 0.0
        self._n = 0
        self._standing: str | None = None
        """The host this peer stands against as candidate, collecting votes."""
        self._votes: dict[str, list[Any]] = {}
        self._voters: dict[str, Connection] = {}
        """The lines of the players whose votes this candidate holds, until it hosts them."""
        self._voted_for: str | None = None
        self._thinker = SeatThinker(config.think_seconds)
        self._thinking: dict[tuple[int, int], asyncio.Task[Any]] = {}
        self._decided: set[tuple[int, int]] = set()
        self._waiting_turn: Turn | None = None
        self._was_paused = False
        self._tasks: set[asyncio.Task[Any]] = set()
        self._drop_watch: asyncio.Task[Any] | None = None
        self._rolls_seen = 0
        self._pending_seen: int | None = None
        self._readied = False
        self._allowed = False
        self._over_reported = False
        self._joined_seq = -1
        self._history_until = 0
        self._history_by = 0.0
        """When the history announced at the welcome must be in (:meth:`_relayed`)."""
        self._probe: asyncio.Task[Any] | None = None
        self._cut_off_at = 0.0
        """When this host last found itself cut off from most of the match."""
        self._answered_at = 0.0
        """When another peer last answered this one's call (:meth:`_reach`)."""
        self._told_alone = False
        self._host_address: tuple[str, str] | None = None
        """The address this peer joined its first host at (tried first when it is lost)."""
        """Where this peer's latest join is in the log (a ``leave`` of it after that, relayed
        while it is connected, is a lie)."""
        self._rebasing: MatchLog | None = None
        """This peer's own log while it takes a new host's in its place (:meth:`_check_fork`)."""
        self.witness = Witness(self.me, lambda: self.log, self._forked)
        """Compares this peer's signed heads with the others' (docs/PROTOCOL.md §6.7)."""

    @property
    def me(self) -> str:
        return self.identity.peer

    # -- starting ------------------------------------------------------------------------

    async def listen(self, port: int = 0) -> int:
        """Open the listening socket (every peer has one: a guest may become the host)."""
        bind = self.config.interface or "0.0.0.0"  # a LAN game listens on the LAN
        install_quiet_handler(asyncio.get_running_loop(), self._notice)
        self._server = await asyncio.start_server(self._accept, bind, port)
        self.listen_port = self._server.sockets[0].getsockname()[1]
        await self.witness.start(bind, self.listen_port)
        self._spawn(self._watch())
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
    ) -> int:
        """Open a match of ``setup`` — from the set-up position ``start`` (a FEN as a record
        keeps it: :func:`game.rules.fen.setup_of`) if given — and listen for players;
        returns the port.  A ``start`` the log refuses raises :class:`Rejected` before
        anything listens."""
        seats = [""] * setup.players
        for seat, level in (computer_seats or {}).items():
            seats[seat] = level
        self.code = code or None
        opening = {
            "k": "match",
            "id": secrets.token_hex(16),
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
        self.hosting = True
        self._became_host.set()
        nonce = secrets.token_bytes(32)
        self._make(self._join_entry(self.me, self.identity.key, nonce, self._own_address()))
        self.observe("listening", {"port": self.listen_port, "match": self.log.match_id})
        self._after_change()
        return self.listen_port

    def _join_entry(
        self, peer: str, key: bytes, nonce: bytes, addr: str, **wish: Any
    ) -> dict[str, Any]:
        """This host's own join (``wish`` empty), or a guest's with its hello and proof."""
        log = self.log
        assert log is not None
        if not wish:
            name, role, seat = self.config.name[:40], "player", self.config.seat
            proof = self.identity.sign(
                join_payload(log.match_id, self.identity.key, nonce, name, role, seat)
            )
            wish = {"name": name, "role": role, "seat": seat, "proof": proof}
        return {"k": "join", "peer": peer, "key": key, "addr": addr, "nonce": nonce, **wish}

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
        await self._handshake(connection, host_key)
        self._host_address = (address, str(port))
        self._spawn(self._follow(connection))

    def request(self, entry: dict[str, Any]) -> None:
        """Ask for ``entry`` (without ``peer``) to be logged: as host at once, as guest by
        sending it, signed, to the host."""
        log = self.log
        if log is None:
            return
        entry = self._signed({**entry, "peer": self.me})
        if self.hosting:
            self._handle_request(self.me, entry, None)
        elif self._upstream is not None:
            self._upstream.send({"t": "request", "e": entry})

    def decide(self, action_text: str) -> None:
        """The decision of this peer's person for the seat whose turn it is."""
        turn = self._waiting_turn
        if turn is None or self.log is None:
            return
        self._send_action(turn, action_text)

    async def close(self, reason: str = "leaving") -> None:
        for connection in [*self._clients.values(), self._upstream]:
            if connection is not None:
                await connection.close(reason)
        if self._server is not None:
            self._server.close()
        self.witness.close()
        for task in [*self._tasks, *self._thinking.values()]:
            task.cancel()
        await self._thinker.aclose()
        self.finished.set()

    # -- signing -------------------------------------------------------------------------

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
        self._broadcast({"t": "entry", "seq": len(log) - 1, "e": entry}, last=log.author(entry))
        self._entry_applied(entry)

    # -- the host's side -----------------------------------------------------------------

    def _notice(self, text: str) -> None:
        self.observe("notice", {"text": text})

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        connection = Connection(reader, writer)
        slot = self._gate.admit(
            connection.address, lambda: connection.hang_up("too many strangers")
        )
        if slot is None:
            connection.hang_up("too many connections from this address")
            return
        try:
            try:
                admitted = await introduce(connection, self.log, self.identity, self._notice)
                if admitted is None:
                    return
                peer = await self._admit(connection, *admitted, slot)
            finally:
                slot.release()  # in, or gone: no longer a stranger (see net/door.py)
            if peer is None:
                return
            while True:
                message = await connection.receive()
                if message["t"] == "request":
                    self._handle_request(peer, message["e"], connection)
                elif message["t"] == "push":
                    await connection.close("pushing entries is only for catching up")
                    return
        except (Closed, asyncio.CancelledError):
            pass  # a cancelled handler must end quietly: asyncio's stream callback asks it
        finally:
            self._drop(connection)

    async def _admit(
        self, connection: Connection, hello: dict[str, Any], peer: str, slot: Slot
    ) -> str | None:
        """Check a proven newcomer, catch up from it (holding its ``slot`` at the door till
        then) and bring it up to date; None if refused."""
        log = self.log
        assert log is not None
        if not self.hosting:
            if self._standing is not None and hello["vote"] is not None:
                if not await self._take_vote(connection, hello, peer, slot):
                    return None
            else:
                await connection.close("this peer is not hosting the match")
                return None
        reason = None
        if self.code and peer not in log.members:
            reason = self._gate.try_code(connection.address, hello["code"], self.code)
            summary = self._gate.summary()
            if summary is not None:
                self._notice(summary)
        if reason is None and (peer in self._clients or peer == self.me):
            reason = "a peer with this identity is already connected"
        have = hello["have"]
        if reason is None and 0 < have <= len(log) and hello["head"] != log.heads[have - 1]:
            reason = DIVERGED
        if reason is not None:
            await connection.close(reason)
            if not reason.startswith(("wrong join code", "too many wrong")):  # summarised
                self._notice(f"refused {hello['name']}: {reason}")
            return None
        connection.peer = peer
        if not await self._catch_up_from(connection, hello["have"], slot):
            return None
        connection.send(
            {"t": "welcome", "match": log.match_id, "you": peer, "host": self.me, "seq": len(log)}
        )
        for seq in range(hello["have"], len(log)):
            connection.send({"t": "entry", "seq": seq, "e": log.entries[seq]})
        self._clients[peer] = connection
        self._connected_at[peer] = time.monotonic()
        self._gone_since.pop(peer, None)
        member = log.members.get(peer)
        if member is None or not member.present:
            address = f"{connection.address}:{hello['listen']}"
            self._unlogged_joins[peer] = self._join_entry(
                peer, hello["key"], hello["challenge"], address,
                name=hello["name"], role=hello["role"], seat=hello["seat"], proof=hello["proof"],
            )  # fmt: skip
            self._log_joins()
        self._after_change()
        return peer

    async def _catch_up_from(self, connection: Connection, have: int, slot: Slot) -> bool:
        """Take what a newcomer holds beyond this log (:func:`net.door.catch_up_from`),
        relaying each entry; the newcomer's place at the door is given back only after."""
        log = self.log
        assert log is not None

        def taken(entry: dict[str, Any]) -> None:
            self._broadcast({"t": "entry", "seq": len(log) - 1, "e": entry})
            self._entry_applied(entry)

        try:
            return await catch_up_from(connection, log, have, taken)
        finally:
            slot.release()  # proven and caught up, or gone: no longer a stranger

    def _log_joins(self) -> None:
        """Log the joins of peers that connected while this host was cut off from most of
        the match (a join logged then could fork the match)."""
        if not self.hosting or not self._holds_majority():
            return
        for peer, entry in list(self._unlogged_joins.items()):
            del self._unlogged_joins[peer]
            if peer in self._clients:
                try:
                    self._make(entry)
                except Rejected as error:
                    self.observe("notice", {"text": f"join refused: {error.reason}"})

    def _in_touch(self) -> set[str]:
        now = time.monotonic()
        lines = [*self._clients.items(), *self._voters.items()]
        heard = {p for p, c in lines if now - c.heard_at <= IN_TOUCH}
        return heard | {self.me}

    def _holds_majority(self) -> bool:
        """Whether this host is in touch with at least half of the match's people: then no
        other side can have the more than half a new host needs."""
        log = self.log
        if log is None:
            return False
        voters = log.voters()
        return 2 * len(self._in_touch() & voters) >= len(voters)

    def _handle_request(
        self, peer: str, entry: dict[str, Any], connection: Connection | None
    ) -> None:
        log = self.log
        if log is None or not self.hosting:  # stepping down: its lines are being closed
            if connection is not None:
                connection.send({"t": "reject", "reason": "this peer is no longer the host",
                                 "kind": str(entry.get("k"))[:12]})  # fmt: skip
            return
        try:
            if entry.get("peer") != peer:
                raise Rejected("a request must be its sender's own")
            if entry.get("k") not in REQUESTABLE:
                raise Rejected(f"a peer cannot ask for a {entry.get('k')!r} entry")
            member = log.members.get(peer)
            if member is not None and member.role == "spectator":
                raise Rejected("spectators only watch")
            if not self._holds_majority():
                raise Rejected("the host is cut off from most of the players: the match waits")
            self._check_drop_timeout(entry)
            self._place(entry)
        except Rejected as error:
            kind = str(entry.get("k"))[:12]
            if connection is not None:  # to the sender only: nobody else is spammed
                connection.send({"t": "reject", "reason": error.reason[:300], "kind": kind})
            if peer == self.me:
                self._rejected(kind, error.reason)
            return
        self._after_change()

    def _check_drop_timeout(self, entry: dict[str, Any]) -> None:
        log = self.log
        assert log is not None
        if entry["k"] not in ("computer", "end") or log.phase != PLAYING:
            return
        if entry["k"] == "computer":
            owner = log.seats[entry["seat"]].owner if entry["seat"] < len(log.seats) else None
            missing = [owner] if owner else []
        else:
            missing = log.waiting_for()
        now = time.monotonic()
        for peer in missing:
            since = min(self._gone_since.get(peer, now), self._owing_since.get(peer, now))
            gone = now - since
            if gone < self.config.drop_timeout:
                raise Rejected(
                    f"{log.members[peer].name} has been gone {gone:.1f} s; the others can "
                    f"decide after {self.config.drop_timeout:.1f} s"
                )

    def _broadcast(self, message: dict[str, Any], last: str | None = None) -> None:
        """Send ``message`` to every peer connected here, peer ``last`` (an entry's author,
        who knows it already) after the others."""
        frame = encode(message)
        for peer, connection in self._clients.items():
            if peer != last:
                connection.send_frame(frame)
        if last in self._clients:
            self._clients[last].send_frame(frame)

    def _drop(self, connection: Connection) -> None:
        peer = connection.peer
        if peer is None or self._clients.get(peer) is not connection:
            return
        del self._clients[peer]
        self._unlogged_joins.pop(peer, None)
        self._gone_since[peer] = time.monotonic()
        self._leave_the_gone(connection.closed or "connection lost")

    def _leave_the_gone(self, reason: str = "connection lost") -> None:
        """As host in touch with most of the match: log ``leave`` for members the log has
        present who are not connected (after a take-over, once the others had time)."""
        log = self.log
        if not self.hosting or log is None or not self._holds_majority():
            return
        if time.monotonic() < self._grace_until:
            return
        for member in list(log.members.values()):
            if member.present and member.peer != self.me and member.peer not in self._clients:
                self._gone_since.setdefault(member.peer, time.monotonic())
                self._make({"k": "leave", "peer": member.peer, "reason": reason[:300]})
        self._after_change()

    async def _watch(self) -> None:
        """Twice a second: who is in touch, who is gone, who withholds the dice."""
        while True:
            await asyncio.sleep(0.5)
            log = self.log
            if log is None or not self.hosting or log.phase not in (LOBBY, PLAYING):
                continue
            summary = self._gate.summary()
            if summary is not None:
                self._notice(summary)
            majority = self._holds_majority()
            if majority == self.lost_touch:
                self.lost_touch = not majority
                self._cut_off_at = time.monotonic()
                self.observe("touch", {"lost": self.lost_touch})
                if majority:  # what was refused while cut off is owed again
                    self._resend_after_host_change()
                self._after_change()
            if not majority:
                if self._probe is None or self._probe.done():
                    self._probe = self._spawn(self._look_for_a_new_host())
                continue
            self._log_joins()
            self._leave_the_gone()
            self._withholders()

    async def _look_for_a_new_host(self) -> None:
        """As a host cut off from most of the match: ask the others, one by one, whether
        they chose a new host meanwhile; if one did, follow it (the entries this host placed
        after the others moved on are dropped: nobody else ever had them)."""
        log = self.log
        assert log is not None
        for peer in sorted(log.voters() - {self.me}):
            if not self.hosting or self._holds_majority():
                return
            if await self._reach(peer, stepping_down=True):
                for connection in list(self._clients.values()):
                    await connection.close("this peer is no longer the host")
                return
        alone = self._alone_for(self._cut_off_at)
        if self.hosting and not self._holds_majority() and alone >= self._alone_limit():
            self._end_alone(alone)
            return
        await asyncio.sleep(RETRY_EVERY)

    def _alone_for(self, since: float) -> float:
        """Seconds for which nobody of the match was heard: since ``since``, the last answer
        to this peer's call (:meth:`_reach`) or the last byte on a voter's line."""
        heard = [since, self._answered_at, *(c.heard_at for c in self._voters.values())]
        return time.monotonic() - max(heard)

    def _give_up(self, alone: float, after: str) -> bool:
        """Stop, with the reason, as a peer that found none of the others for ``alone``
        seconds after ``after`` — unless told to wait (``on_drop``): then say so, once, and
        go on waiting (False).  A guest's record stays as it was: only a host can log."""
        reason = f"found none of the others for {alone:.0f} s after {after}"
        if self.config.on_drop == "wait":
            if not self._told_alone:
                self._told_alone = True
                self._notice(reason)
            return False
        self.failure = reason
        self.observe("error", {"text": reason})
        self.finished.set()
        return True

    def _alone_limit(self) -> float:
        """Seconds a host cut off from most of the match may reach none of the others before
        it gives up: all the time they give a lost host — trying it, then a new host's
        grace for the missing — and its drop timeout, after which they decided its seat."""
        return SAME_HOST_FIRST + self.config.rejoin_grace + self.config.drop_timeout

    def _end_alone(self, alone: float) -> None:
        """As a host cut off from most of the match that has reached none of the others
        (every address refused or silent) for :meth:`_alone_limit`: they ended the match or
        went on without this host.  Unless told to wait (``on_drop``), end this peer's copy
        so that its record says how it ended — every other member gone, the match ended
        with the reason — and stop.  Nobody else will take these entries: the others moved
        on, or are gone (docs/PROTOCOL.md §6.4)."""
        log = self.log
        assert log is not None
        reason = f"the host found none of the others for {alone:.0f} s after losing touch"
        if self.config.on_drop == "wait":
            self._give_up(alone, "losing touch")  # says so once, and waits
            return
        self._notice(reason)
        self.agent.forget_unlogged()
        gone = [m.peer for m in log.members.values() if m.present and m.peer != self.me]
        entries = [{"k": "leave", "peer": peer, "reason": reason} for peer in gone]
        own = [*self.agent.dice_requests(log), {"k": "end", "reason": reason}]
        entries += [{**entry, "peer": self.me} for entry in own]
        for entry in entries:
            if log.phase != PLAYING:
                break
            try:  # a reveal this host owes goes in before the end, which waits for it
                self._make(entry)
            except Rejected as error:
                self._notice(f"could not log {entry['k']}: {error.reason}")
        if log.phase in (LOBBY, PLAYING):  # the log cannot say it (the lobby): the peer does
            self._give_up(alone, "losing touch")
            return
        self._after_change()  # "over", then the end

    def _withholders(self) -> None:
        """A connected peer that owes the pending event its commitment or reveal past the
        drop timeout is treated as gone: the match pauses, then the others decide."""
        log = self.log
        assert log is not None
        now = time.monotonic()
        for peer in list(self._clients):
            if not log.owes_dice(peer):
                self._owing_since.pop(peer, None)
                continue
            since = self._owing_since.setdefault(peer, now)
            settled = now - self._connected_at.get(peer, now) > WITHHOLD_GRACE
            if now - since > self.config.drop_timeout and settled:
                connection = self._clients[peer]
                reason = f"withheld its dice for {now - since:.0f} s"
                self._spawn(connection.close(reason))
                self._drop(connection)

    # -- becoming the host ---------------------------------------------------------------

    def _stand(self, old: str) -> None:
        """Stand as the new host in place of ``old``: vote for itself, await the others."""
        log = self.log
        assert log is not None
        self._standing, self._voted_for = old, self.me
        at = len(log)
        payload = vote_payload(log.match_id, old, self.me, at, log.head_bytes(at))
        self._votes = {self.me: [self.me, at, self.identity.sign(payload)]}
        self.observe("standing", {"against": old})
        self._count_votes()

    async def _take_vote(
        self, connection: Connection, hello: dict[str, Any], peer: str, slot: Slot
    ) -> bool:
        """A player's vote for this peer as the new host; holds the connection until the
        vote is carried (True) or this peer stops standing (False, the voter is released)."""
        log = self.log
        assert log is not None and self._standing is not None
        if peer not in log.voters():
            await connection.close("this peer has no vote in the match")
            return False
        connection.peer = peer
        if not await self._catch_up_from(connection, hello["have"], slot):
            return False
        at = hello["have"]
        if at > len(log) or (at and hello["head"] != log.heads[at - 1]):
            await connection.close(DIVERGED)
            return False
        payload = vote_payload(log.match_id, self._standing, self.me, at, log.head_bytes(at))
        if not at or not verify(hello["key"], payload, hello["vote"]):
            await connection.close("the vote does not check out")
            return False
        self._votes[peer] = [peer, at, hello["vote"]]
        self._voters[peer] = connection
        connection.send({"t": "wait", "reason": f"{len(self._votes)} of {len(log.voters())}"})
        self._count_votes()
        try:
            while not self.hosting:
                if self._standing is None:
                    await connection.close("released: the host is back, reconnect to it")
                    return False
                with contextlib.suppress(TimeoutError):
                    message = await asyncio.wait_for(asyncio.shield(connection.receive()), 1.0)
                    if message["t"] == "request":
                        connection.send({"t": "wait", "reason": "the host is still being chosen"})
        finally:
            self._voters.pop(peer, None)
        return True

    def _count_votes(self) -> None:
        log = self.log
        assert log is not None
        if self._standing is None or 2 * len(self._votes) <= len(log.voters()):
            return
        old = self._standing
        self._standing = None
        self.hosting = True
        self._became_host.set()
        self._grace_until = time.monotonic() + self.config.rejoin_grace
        self._gone_since[old] = time.monotonic()
        self._resend_after_host_change()
        entry = {
            "k": "host", "peer": self.me, "addr": self._own_address(),
            "votes": list(self._votes.values()),
        }  # fmt: skip
        self._make(entry)  # the voters are not hosted yet: nobody to relay it to
        self.observe("host", {"peer": self.me, "name": self.config.name})
        self._after_change()

    def _withdraw(self) -> None:
        """Stop standing: the old host is back (every vote taken is released)."""
        self._standing, self._votes, self._voted_for = None, {}, None

    # -- the guest's side ----------------------------------------------------------------

    async def _handshake(
        self, connection: Connection, host_key: Expected = None, vote: bytes | None = None,
        rebase: bool = False,
    ) -> None:  # fmt: skip
        """Hello, the host's proof, this peer's proof; then welcome (or wait, as a voter)."""
        log = self.log
        have = 0 if log is None or rebase else len(log)
        wish = (self.config.name[:40], self.config.role, self.config.seat)
        await present(
            connection, self.identity, wish, self.listen_port, log, have, host_key,
            self.config.code, vote,
        )  # fmt: skip
        answer = await connection.receive(HANDSHAKE_TIMEOUT)
        while answer["t"] in ("want", "wait"):
            if answer["t"] == "want":  # this peer heard more of the old host: catch it up
                self._push_from(connection, answer["from"])
            else:  # a vote is being counted: stay until it is carried
                self.observe("voted", {"count": answer["reason"]})
            answer = await connection.receive()
        if answer["t"] != "welcome":
            await connection.close("expected a welcome")
            raise Closed("the host answered the proof with something else")
        self._upstream = connection
        connection.peer = answer["host"]
        self._history_until = answer["seq"]  # what came before this connection is history
        # The host's own deadline for a newcomer's entries, the other way: a host that
        # announces more history than it sends cannot hold this guest in the room.
        self._history_by = catch_up_deadline(
            answer["seq"] - (0 if self.log is None else len(self.log))
        )

    async def _follow(self, connection: Connection) -> None:
        """Apply what the host relays until the match ends or the host is lost."""
        try:
            while True:
                message = await self._relayed(connection)
                kind = message["t"]
                if kind == "entry":
                    self._apply_relayed(message["seq"], message["e"])
                elif kind == "want":
                    self._push_from(connection, message["from"])
                elif kind == "reject":
                    self._rejected(message["kind"], message["reason"])
        except Closed as closed:
            if self._upstream is connection:
                self._upstream = None
            if self.finished.is_set() or self.witness.proof is not None:
                return
            log = self.log
            if log is not None and log.phase in (LOBBY, PLAYING):
                self.observe("notice", {"text": f"lost the host: {closed.reason}"})
                await self._seek()
            else:
                if log is None:  # the match never came, or came malformed: say so
                    self.failure = f"no match from the host: {closed.reason}"
                    self.observe("error", {"text": self.failure})
                self.finished.set()
        except _Fatal as fatal:
            self.failure = fatal.reason
            self.observe("error", {"text": fatal.reason})
            await connection.close(fatal.reason)
            self.finished.set()

    async def _relayed(self, connection: Connection) -> dict[str, Any]:
        """The host's next message; while the history announced at the welcome is not all
        in, by the deadline set then, which nothing extends."""
        if not self.catching_up:
            return await connection.receive()
        try:
            return await connection.receive_by(self._history_by)
        except Closed:
            if time.monotonic() < self._history_by:
                raise  # the host left, or the line broke: seek it as ever
            got = 0 if self.log is None else len(self.log)
            raise _Fatal(
                f"the host announced {self._history_until} log entries and sent {got} in "
                "time: it cannot be trusted"
            ) from None

    def _apply_relayed(self, seq: int, entry: dict[str, Any]) -> None:
        if self.witness.proof is not None:
            return  # the host forked the match: nothing it sends is taken any more
        if self.log is None:
            if seq != 0:
                raise _Fatal("the host's log does not begin with the match")
            try:
                self.log = MatchLog(entry)
            except Rejected as error:
                raise _Fatal(f"the host's match cannot be played here: {error.reason}") from error
            self.observe("match", {"match": self.log.match_id})
            return
        if seq < len(self.log):
            return  # already have it (catching up after a host change)
        if seq > len(self.log):
            raise _Fatal(f"the host skipped log entries ({len(self.log)} to {seq - 1})")
        self._check_fork(seq, entry)
        try:
            self.log.apply(entry)
        except Rejected as error:
            raise _Fatal(
                f"the host relayed an entry that does not check out (entry {seq}, "
                f"{entry.get('k')}): {error.reason}"
            ) from error
        if entry["k"] == "join" and entry["peer"] == self.me:
            self._joined_seq = seq
        elif (
            entry["k"] == "leave"
            and entry["peer"] == self.me
            and seq > max(self._joined_seq, self._history_until - 1)
        ):
            raise _Fatal(  # a host drops a peer by closing its line, never while it listens
                "the host logged this player as gone while it was connected: "
                "it cannot be trusted with this match"
            )
        self._entry_applied(entry)
        self._after_change()

    def _forked(self, fork: Fork) -> None:
        """Another member holds a log the host signed differently at one position: stop
        following it, as after any proof of a dishonest host, once the proof went out to
        every member (:data:`FORK_LINGER`); the record keeps it (``witness.proof``)."""
        self.failure = fork.reason
        self.observe("fork", fork.event())
        if self._upstream is not None:
            self._spawn(self._upstream.close(fork.reason))
        asyncio.get_running_loop().call_later(FORK_LINGER, self.finished.set)

    def _check_fork(self, seq: int, entry: dict[str, Any]) -> None:
        """While taking a new host's log in place of this peer's own (which held entries a
        deposed host placed after the others had moved on): the two may part only where the
        others voted a new host in; anywhere else the host showed two logs."""
        old = self._rebasing
        if old is None:
            return
        if seq >= len(old) or old.entries[seq] == entry:
            if seq >= len(old):
                self._rebasing = None
            return
        self._rebasing = None
        if entry.get("k") != "host":
            raise _Fatal(
                f"the host's log forks from this peer's at entry {seq + 1}: it cannot be trusted"
            )
        self._resend_after_host_change()

    def _push_from(self, connection: Connection, start: int) -> None:
        log = self.log
        if log is None:
            return
        for seq in range(start, len(log)):
            connection.send({"t": "push", "seq": seq, "e": log.entries[seq]})

    async def _seek(self) -> None:
        """The host is lost: try it again first, then vote — once — for the first present
        player in join order, or stand oneself; wait, paused, until a host is found."""
        log = self.log
        assert log is not None
        old = log.host
        self.lost_touch = True
        self._after_change()
        began = time.monotonic()
        deadline = began + SAME_HOST_FIRST
        while time.monotonic() < deadline and not self.finished.is_set():
            if await self._reach(old):
                return
            await asyncio.sleep(RETRY_EVERY)
        while not self.finished.is_set() and not self.hosting:
            candidate = self._voted_for or self._candidate(old)
            if candidate is None:
                if await self._reach(old):
                    return
            elif candidate == self.me:
                if self._standing is None:
                    self._stand(old)
                if self.hosting:
                    self.lost_touch = False
                    self._after_change()
                    return
                if await self._reach(old):
                    return
            else:
                outcome = await self._reach(candidate, vote_against=old)
                if outcome:
                    return
                if self._voted_for is None and await self._reach(old):
                    return
            alone = self._alone_for(began)
            if alone >= self._alone_limit() and self._give_up(alone, "losing the host"):
                return
            await asyncio.sleep(RETRY_EVERY)

    def _candidate(self, old: str) -> str | None:
        """The first player in join order, present in this peer's log, with a vote."""
        log = self.log
        assert log is not None
        voters = log.voters()
        for member in log.members.values():
            if member.peer != old and member.present and member.peer in voters:
                return member.peer
        return None

    async def _reach(
        self, target: str, vote_against: str | None = None, stepping_down: bool = False
    ) -> bool:
        """Connect to ``target`` (a member of the log) as a guest; with ``vote_against``,
        carrying this peer's vote for it in place of that host; ``stepping_down``: as a host
        cut off from most of the match.  Whether it now follows ``target``."""
        log = self.log
        assert log is not None
        member = log.members.get(target)
        if member is None or target == self.me:
            return False
        address, _, port = member.addr.rpartition(":")
        if target == log.host and self._host_address is not None:
            address, port = self._host_address  # where this peer last reached it
        vote = None
        if vote_against is not None:
            at = len(log)
            payload = vote_payload(log.match_id, vote_against, target, at, log.head_bytes(at))
            vote = self.identity.sign(payload)
        for rebase in (False, True):
            try:
                connection = await Connection.open(address, int(port), timeout=2.0)
                self._answered_at = time.monotonic()  # somebody is there
                if vote is not None:
                    self._voted_for = target  # cast once sent: never another candidate
                await self._handshake(connection, log.keys.get(target), vote, rebase)
            except Closed as closed:
                released = closed.reason.startswith("released") or "not hosting" in closed.reason
                if released and self._voted_for == target:
                    self._voted_for = None  # the candidate will not use this vote
                if DIVERGED in closed.reason and not rebase:
                    continue
                return False
            except ValueError:
                return False
            if self.hosting and not stepping_down:  # voted in while this was under way
                await connection.close("this peer is the host now")
                return False
            if rebase:  # only now: a peer voted in meanwhile keeps hosting its own log
                self._rebasing, self.log = self.log, None
            self._withdraw()  # at once: no vote may be counted for it from now on
            self._voted_for = None
            self._host_address = (address, port)
            self.lost_touch = False
            self.hosting = False
            if target == log.host:
                self.observe("rejoined", {"peer": target, "name": member.name})
            else:
                self.observe("host", {"peer": target, "name": member.name})
            self._resend_after_host_change()
            self._spawn(self._follow(connection))
            self._after_change()
            return True
        return False

    def _resend_after_host_change(self) -> None:
        """Whatever went to a host (the old one, or this one while it was cut off) may never
        have been logged: owe it again."""
        self.agent.forget_unlogged()
        log = self.log
        if log is not None:
            self._decided = {key for key in self._decided if key[1] < log.ply}

    # -- both sides ----------------------------------------------------------------------

    @property
    def catching_up(self) -> bool:
        """True while a guest still takes in the entries logged before it connected (a
        screen shows the match once it stands where the host's does, not move by move)."""
        return not self.hosting and (self.log is None or len(self.log) < self._history_until)

    def waiting_for(self) -> list[str]:
        """The peers the match waits for here: the log's missing ones, and, while this
        peer's side is cut off from most of the match, the people it cannot reach."""
        log = self.log
        if log is None:
            return []
        missing = set(log.waiting_for())
        if self.lost_touch:
            reached = self._in_touch() if self.hosting else {self.me}
            missing |= set(log.voters()) - reached
        return sorted(missing)

    def _entry_applied(self, entry: dict[str, Any]) -> None:
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
        """Send what this peer owes now: dice, a decision, the start, a drop decision."""
        log = self.log
        if log is None:
            return
        paused = log.paused or self.lost_touch
        if paused != self._was_paused:
            self._was_paused = paused
            names = [log.members[p].name for p in self.waiting_for()]
            self.observe("paused" if paused else "resumed", {"waiting": names})
        if paused and self._drop_watch is None and self.config.on_drop != "wait":
            self._drop_watch = self._spawn(self._watch_drop())
        if log.pending_event is not None and log.pending_event != self._pending_seen:
            self._pending_seen = log.pending_event
            self.observe("pending", {"number": log.pending_event})
        for request in self.agent.dice_requests(log):
            self.request(request)
        if self.agent.distrust and self.failure is None:
            self.failure = self.agent.distrust  # §7.1: the event waits, and the screen says why
            self.observe("error", {"text": self.agent.distrust})
        seat = log.seat_of(self.me)
        if (
            self.config.autostart
            and not self.hosting
            and log.phase == LOBBY
            and seat is not None
            and not log.members[self.me].ready
            and not self._readied
        ):
            self._readied = True
            if self.config.allow_coaching:  # said before ready: the host may start at once
                self.request({"k": "coach", "allow": True})
            self.request({"k": "ready", "ready": True})
        if (
            self.config.allow_coaching
            and self.hosting
            and log.phase == LOBBY
            and seat is not None
            and not log.members[self.me].coach
            and not self._allowed
        ):
            self._allowed = True
            self.request({"k": "coach", "allow": True})
        turn = self.agent.turn(log)
        if turn is not None and (turn.seat, turn.ply) not in self._decided:
            self._begin_turn(turn)
        if self.hosting and self.config.autostart and log.start_problem() is None:
            self.request({"k": "start"})
        if log.phase not in (LOBBY, PLAYING) and not self._over_reported:
            self._over_reported = True
            self.observe(
                "over",
                {
                    "phase": log.phase,
                    "result": str(log.state.result()) if log.state.result() else log.end_reason,
                    "digest": log.state.digest(),
                    "forfeit": [log.members[p].name for p in log.forfeit],
                    "ply": log.ply,
                    "entries": len(log),
                },
            )
            self._spawn(self._finish())

    def _begin_turn(self, turn: Turn) -> None:
        key = (turn.seat, turn.ply)
        level = turn.level or self.config.level
        if level is None:
            if self._waiting_turn != turn:
                self._waiting_turn = turn
                self.observe("your_turn", {"seat": turn.seat, "ply": turn.ply})
            return
        if key in self._thinking:
            return
        log = self.log
        assert log is not None
        state = log.state
        seed = int(log.match_id[:8], 16) + turn.seat
        task = asyncio.get_running_loop().create_task(self._think(turn, state, level, seed))
        self._thinking[key] = task

    async def _think(self, turn: Turn, state: State, level: str, seed: int) -> None:
        try:
            began = time.monotonic()
            action = await self._thinker.decide(state, level, seed)
            if action is None:
                return  # cancelled: the match moved on
            await asyncio.sleep(self.config.pace - (time.monotonic() - began))
            self._send_action(turn, state.action_to_str(action))
        except Exception as error:  # reported: the seat waits, the match lives
            self.observe("error", {"text": f"the computer player failed: {error!r}"})
        finally:
            self._thinking.pop((turn.seat, turn.ply), None)

    def _send_action(self, turn: Turn, text: str) -> None:
        log = self.log
        if log is None or self.agent.turn(log) != turn:
            return  # the match has moved on (a rejoin, a hand-over) while deciding
        try:
            state = log.state
            after = state.apply(state.parse_action(text))
        except RulesError as error:  # a person's typo is reported, never fatal
            self.observe("rejected", {"kind": "act", "reason": str(error)})
            return
        self._decided.add((turn.seat, turn.ply))
        self._waiting_turn = None
        self.observe("sent", {"ply": turn.ply, "seat": turn.seat, "action": text})
        self.request(
            {"k": "act", "seat": turn.seat, "ply": turn.ply, "a": text, "d": after.digest()}
        )
        for request in self.agent.reveal_ahead(log, after):
            self.request(request)

    def _rejected(self, kind: str, reason: str) -> None:
        self.observe("rejected", {"kind": kind, "reason": reason})
        if kind == "act" and self.log is not None:
            self._decided.discard((self.log.state.to_move, self.log.ply))
        elif kind == "reveal":
            self.agent.forget_reveals()
            self._after_change()

    async def _watch_drop(self) -> None:
        """Once a missing player's timeout is over, do what this peer was told to."""
        try:
            await asyncio.sleep(self.config.drop_timeout + 0.2)
            log = self.log
            while log is not None and log.paused and log.phase == PLAYING:
                if self.config.on_drop == "end" or not self.can_hand_over():
                    self.end_for_the_missing()  # a withheld die cannot be handed over
                else:
                    self.hand_over_the_missing(self.config.drop_level)
                await asyncio.sleep(1.0)
                log = self.log
        finally:
            self._drop_watch = None

    def can_hand_over(self) -> bool:
        """Whether giving the missing players' seats to the computer would let the match go
        on: not while an open chance event waits for one of them (its value was fixed at
        its commitment; only its owner can reveal it)."""
        log = self.log
        if log is None:
            return False
        missing = set(log.waiting_for())
        return not missing & {p for p in log.event_group or () if p not in log.reveals}

    def hand_over_the_missing(self, level: str) -> None:
        """Ask that the computer take every seat whose player is missing (the log refuses it
        before the drop timeout is over)."""
        log = self.log
        if log is None:
            return
        for seat, info in enumerate(log.seats):
            if info.human and info.owner in log.waiting_for():
                self.request({"k": "computer", "seat": seat, "level": level})

    def end_for_the_missing(self) -> None:
        """Ask that the match end because a player left and did not come back."""
        self.request({"k": "end", "reason": "a player left and did not come back"})

    async def _finish(self) -> None:
        await asyncio.sleep(0.3 if self.hosting else 0)
        self.finished.set()

    def _own_address(self) -> str:
        """Where the others can reach this peer: its interface, else its first LAN address."""
        return f"{self.config.interface or lan_addresses()[0]}:{self.listen_port}"

    def _spawn(self, coroutine: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task


class _Fatal(Exception):  # noqa: N818
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
