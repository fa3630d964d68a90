"""The host's side of a peer: its door, the requests it places, and its watch on the match.

The host accepts a newcomer through the door (:mod:`net.gate` for its limits,
:mod:`net.door` for the handshake and the catch-up), brings it up to date and logs its
``join``; places every request a member signs, once the log and the host's own checks take
it, and relays each entry to every member.  Twice a second it watches who is in touch with it
— it places entries only while it is in touch with at least half of the match's people
(docs/PROTOCOL.md §6.4) —, logs ``leave`` for the members it lost, and closes a member that
withholds its dice past the drop timeout (§6.2).  A peer runs this side while its role is
:attr:`~net.role.Role.HOSTING` or :attr:`~net.role.Role.CUT_OFF`; the watch runs on every peer
and does nothing on a guest.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any

from net.connection import Closed, Connection
from net.door import DIVERGED, catch_up_from, introduce
from net.framing import encode
from net.gate import Gate, Slot
from net.matchlog import LOBBY, PLAYING, Rejected
from net.role import Role
from net.signing import join_payload

if TYPE_CHECKING:
    from net.peer import Peer

REQUESTABLE = {
    "seat", "ready", "coach", "commit", "reveal", "act", "computer", "offer", "end", "start",
}  # fmt: skip
"""Entry kinds a peer may ask the host to place (the log checks who may make which)."""
IN_TOUCH = 5.0
"""A connection heard from within these seconds counts as in touch (pings come every 2 s)."""
WITHHOLD_GRACE = 5.0
"""Seconds a peer that just (re)connected has to send the dice it owes."""


class HostSide:
    """The host's side of ``peer``: its door, the requests it places, its watch."""

    def __init__(self, peer: Peer) -> None:
        self.peer = peer
        self.gate = Gate()
        self.clients: dict[str, Connection] = {}
        """The admitted members' lines, by peer."""
        self._connected_at: dict[str, float] = {}
        self._gone_since: dict[str, float] = {}
        self._owing_since: dict[str, float] = {}
        self._unlogged_joins: dict[str, dict[str, Any]] = {}
        """Joins of peers admitted while this host was cut off, logged once it is back in
        touch (:meth:`_log_joins`)."""
        self._grace_until = 0.0
        self.cut_off_at = 0.0
        """When this host last found itself cut off from most of the match, or back."""
        self._probe: asyncio.Task[Any] | None = None

    # -- the door ------------------------------------------------------------------------

    async def accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """A newcomer's line, from the door to its leaving: admitted, then served."""
        peer = self.peer
        connection = Connection(reader, writer)
        slot = self.gate.admit(connection.address, lambda: connection.hang_up("too many strangers"))
        if slot is None:
            connection.hang_up("too many connections from this address")
            return
        try:
            try:
                admitted = await introduce(connection, peer.log, peer.identity, peer._notice)
                if admitted is None:
                    return
                member = await self._admit(connection, *admitted, slot)
            finally:
                slot.release()  # in, or gone: no longer a stranger (see net/door.py)
            if member is None:
                return
            while True:
                message = await connection.receive()
                if message["t"] == "request":
                    self.handle_request(member, message["e"], connection)
                elif message["t"] == "push":
                    await connection.close("pushing entries is only for catching up")
                    return
        except (Closed, asyncio.CancelledError):
            pass  # a cancelled handler must end quietly: asyncio's stream callback asks it
        finally:
            # A line this host no longer serves is never left open: whatever ended the
            # serving (an error of this host's own included, which asyncio then reports),
            # the other end hears it and rejoins, instead of waiting on a silent line.
            if connection.closed is None:
                connection.hang_up("the host stopped serving this line")
            self.drop(connection)

    async def _admit(
        self, connection: Connection, hello: dict[str, Any], newcomer: str, slot: Slot
    ) -> str | None:
        """Check a proven newcomer, catch up from it (holding its ``slot`` at the door till
        then) and bring it up to date; None if refused.  A peer that is not hosting takes
        only votes, and only while it stands."""
        peer = self.peer
        log = peer.log
        assert log is not None
        if not peer.hosting:
            if peer.role is Role.STANDING and hello["vote"] is not None:
                if not await peer.election.take_vote(connection, hello, newcomer, slot):
                    return None
            else:
                await connection.close("this peer is not hosting the match")
                return None
        reason = None
        if peer.code and newcomer not in log.members:
            reason = self.gate.try_code(connection.address, hello["code"], peer.code)
            summary = self.gate.summary()
            if summary is not None:
                peer._notice(summary)
        if reason is None and (newcomer in self.clients or newcomer == peer.me):
            reason = "a peer with this identity is already connected"
        have = hello["have"]
        if reason is None and 0 < have <= len(log) and hello["head"] != log.heads[have - 1]:
            reason = DIVERGED
        if reason is not None:
            await connection.close(reason)
            if not reason.startswith(("wrong join code", "too many wrong")):  # summarised
                peer._notice(f"refused {hello['name']}: {reason}")
            return None
        connection.peer = newcomer
        if not await self.catch_up_from(connection, hello["have"], slot):
            return None
        connection.send(
            {"t": "welcome", "match": log.match_id, "you": newcomer, "host": peer.me,
             "seq": len(log)}
        )  # fmt: skip
        for seq in range(hello["have"], len(log)):
            connection.send({"t": "entry", "seq": seq, "e": log.entries[seq]})
        self.clients[newcomer] = connection
        self._connected_at[newcomer] = time.monotonic()
        self._gone_since.pop(newcomer, None)
        member = log.members.get(newcomer)
        if member is None or not member.present:
            address = f"{connection.address}:{hello['listen']}"
            self._unlogged_joins[newcomer] = self.join_entry(
                newcomer, hello["key"], hello["challenge"], address,
                name=hello["name"], role=hello["role"], seat=hello["seat"], proof=hello["proof"],
            )  # fmt: skip
            self._log_joins()
        peer._after_change()
        return newcomer

    async def catch_up_from(self, connection: Connection, have: int, slot: Slot) -> bool:
        """Take what a newcomer holds beyond this log (:func:`net.door.catch_up_from`),
        relaying each entry; the newcomer's place at the door is given back only after."""
        peer = self.peer
        log = peer.log
        assert log is not None

        def taken(entry: dict[str, Any]) -> None:
            self.broadcast({"t": "entry", "seq": len(log) - 1, "e": entry})
            peer._entry_applied(entry)

        try:
            return await catch_up_from(connection, log, have, taken)
        finally:
            slot.release()  # proven and caught up, or gone: no longer a stranger

    def join_entry(
        self, member: str, key: bytes, nonce: bytes, addr: str, **wish: Any
    ) -> dict[str, Any]:
        """This host's own join (``wish`` empty), or a guest's with its hello and proof."""
        peer = self.peer
        log = peer.log
        assert log is not None
        if not wish:
            name, role, seat = peer.config.name[:40], "player", peer.config.seat
            proof = peer.identity.sign(
                join_payload(log.match_id, peer.identity.key, nonce, name, role, seat)
            )
            wish = {"name": name, "role": role, "seat": seat, "proof": proof}
        return {"k": "join", "peer": member, "key": key, "addr": addr, "nonce": nonce, **wish}

    def _log_joins(self) -> None:
        """Log the joins of peers that connected while this host was cut off from most of
        the match (a join logged then could fork the match)."""
        if not self.peer.hosting or not self.holds_majority():
            return
        for member, entry in list(self._unlogged_joins.items()):
            del self._unlogged_joins[member]
            if member in self.clients:
                try:
                    self.peer._make(entry)
                except Rejected as error:
                    self.peer.observe("notice", {"text": f"join refused: {error.reason}"})

    # -- touch: the majority rule (§6.4) ---------------------------------------------------

    def in_touch(self) -> set[str]:
        """This peer and the members (or voters, while it stands) heard from lately."""
        now = time.monotonic()
        lines = [*self.clients.items(), *self.peer.election.voters.items()]
        heard = {p for p, c in lines if now - c.heard_at <= IN_TOUCH}
        return heard | {self.peer.me}

    def holds_majority(self) -> bool:
        """Whether this host is in touch with at least half of the match's people: then no
        other side can have the more than half a new host needs."""
        log = self.peer.log
        if log is None:
            return False
        voters = log.voters()
        return 2 * len(self.in_touch() & voters) >= len(voters)

    # -- requests --------------------------------------------------------------------------

    def handle_request(
        self, member: str, entry: dict[str, Any], connection: Connection | None
    ) -> None:
        """Place ``entry``, which ``member`` signed and sent on ``connection`` (None: this
        peer's own), or tell the sender why not."""
        peer = self.peer
        log = peer.log
        if log is None or not peer.hosting:  # stepping down: its lines are being closed
            if connection is not None:
                connection.send({"t": "reject", "reason": "this peer is no longer the host",
                                 "kind": str(entry.get("k"))[:12]})  # fmt: skip
            return
        try:
            if entry.get("peer") != member:
                raise Rejected("a request must be its sender's own")
            if entry.get("k") not in REQUESTABLE:
                raise Rejected(f"a peer cannot ask for a {entry.get('k')!r} entry")
            known = log.members.get(member)
            if known is not None and known.role == "spectator":
                raise Rejected("spectators only watch")
            if not self.holds_majority():
                raise Rejected("the host is cut off from most of the players: the match waits")
            self._check_drop_timeout(entry)
            peer._place(entry)
        except Rejected as error:
            kind = str(entry.get("k"))[:12]
            if connection is not None:  # to the sender only: nobody else is spammed
                connection.send({"t": "reject", "reason": error.reason[:300], "kind": kind})
            if member == peer.me:
                peer.seats.rejected(kind, error.reason, by_itself=True)
            return
        peer._after_change()

    def _check_drop_timeout(self, entry: dict[str, Any]) -> None:
        """A ``computer`` or ``end`` for missing players only once they have been gone for
        this host's drop timeout (counted from their leaving or their owing dice)."""
        peer = self.peer
        log = peer.log
        assert log is not None
        if entry["k"] not in ("computer", "end") or log.phase != PLAYING:
            return
        if entry["k"] == "computer":
            owner = log.seats[entry["seat"]].owner if entry["seat"] < len(log.seats) else None
            missing = [owner] if owner else []
        else:
            missing = log.waiting_for()
        now = time.monotonic()
        timeout = peer.config.drop_timeout
        for member in missing:
            since = min(self._gone_since.get(member, now), self._owing_since.get(member, now))
            gone = now - since
            if gone < timeout:
                raise Rejected(
                    f"{log.members[member].name} has been gone {gone:.1f} s; the others can "
                    f"decide after {timeout:.1f} s"
                )

    def broadcast(self, message: dict[str, Any], last: str | None = None) -> None:
        """Send ``message`` to every peer connected here, peer ``last`` (an entry's author,
        who knows it already) after the others."""
        frame = encode(message)
        for member, connection in self.clients.items():
            if member != last:
                connection.send_frame(frame)
        if last in self.clients:
            self.clients[last].send_frame(frame)

    # -- members lost ----------------------------------------------------------------------

    def drop(self, connection: Connection) -> None:
        """A member's line is gone: log its ``leave`` (when in touch)."""
        member = connection.peer
        if member is None or self.clients.get(member) is not connection:
            return
        del self.clients[member]
        self._unlogged_joins.pop(member, None)
        self._gone_since[member] = time.monotonic()
        self._leave_the_gone(connection.closed or "connection lost")

    def _leave_the_gone(self, reason: str = "connection lost") -> None:
        """As host in touch with most of the match: log ``leave`` for members the log has
        present who are not connected (after a take-over, once the others had time)."""
        peer = self.peer
        log = peer.log
        if not peer.hosting or log is None or not self.holds_majority():
            return
        if time.monotonic() < self._grace_until:
            return
        for member in list(log.members.values()):
            if member.present and member.peer != peer.me and member.peer not in self.clients:
                self._gone_since.setdefault(member.peer, time.monotonic())
                peer._make({"k": "leave", "peer": member.peer, "reason": reason[:300]})
        peer._after_change()

    def take_over(self, old: str) -> None:
        """Voted in, in place of ``old``: give the others the grace to reconnect, and count
        the old host as gone from now (for the drop timeout of its seat)."""
        self._grace_until = time.monotonic() + self.peer.config.rejoin_grace
        self._gone_since[old] = time.monotonic()

    def _withholders(self) -> None:
        """A connected peer that owes the pending event its commitment or reveal past the
        drop timeout is treated as gone: the match pauses, then the others decide."""
        log = self.peer.log
        assert log is not None
        now = time.monotonic()
        for member in list(self.clients):
            if not log.owes_dice(member):
                self._owing_since.pop(member, None)
                continue
            since = self._owing_since.setdefault(member, now)
            settled = now - self._connected_at.get(member, now) > WITHHOLD_GRACE
            if now - since > self.peer.config.drop_timeout and settled:
                connection = self.clients[member]
                reason = f"withheld its dice for {now - since:.0f} s"
                self.peer._spawn(connection.close(reason))
                self.drop(connection)

    # -- the watch ---------------------------------------------------------------------------

    async def watch(self) -> None:
        """Twice a second: who is in touch, who is gone, who withholds the dice."""
        peer = self.peer
        while True:
            await asyncio.sleep(0.5)
            log = peer.log
            if log is None or not peer.hosting or log.phase not in (LOBBY, PLAYING):
                continue
            summary = self.gate.summary()
            if summary is not None:
                peer._notice(summary)
            majority = self.holds_majority()
            if majority == peer.lost_touch:
                peer._become(Role.HOSTING if majority else Role.CUT_OFF)
                self.cut_off_at = time.monotonic()
                peer.observe("touch", {"lost": peer.lost_touch})
                if majority:  # what was refused while cut off is owed again
                    peer.seats.resend_after_host_change()
                peer._after_change()
            if not majority:
                if self._probe is None or self._probe.done():
                    self._probe = peer._spawn(peer.election.look_for_a_new_host())
                continue
            self._log_joins()
            self._leave_the_gone()
            self._withholders()
