"""A new host when the old one is lost: the same host first, then one vote each.

A guest that loses its host is :attr:`~net.role.Role.SEEKING`: it tries the same host first
for :data:`SAME_HOST_FIRST` seconds, then votes — once — for its candidate, the first present
player in join order, or **stands** itself (:attr:`~net.role.Role.STANDING`) when that is it.
A candidate takes the votes that reach it and becomes the host when more than half of the
match's people voted for it, logging a ``host`` entry that carries the signed votes; it
withdraws if it reaches the old host first (docs/PROTOCOL.md §6.3).  A host cut off from most
of the match asks the others whether they chose a new host meanwhile and follows one that
did (§6.4, §6.5).  A peer that finds none of the others for as long as they give a lost host
gives up, unless told to wait (§6.6).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import TYPE_CHECKING, Any

from net.connection import Closed, Connection
from net.door import DIVERGED
from net.identity import verify
from net.matchlog import LOBBY, PLAYING, Rejected
from net.role import Role
from net.signing import vote_payload

if TYPE_CHECKING:
    from net.gate import Slot
    from net.peer import Peer

SAME_HOST_FIRST = 6.0
"""Seconds a guest that lost its host keeps trying that host before it votes."""
RETRY_EVERY = 1.5
"""Seconds between two tries to reach the old host, the candidate or a new host."""


class Election:
    """``peer``'s part in choosing a new host: as voter, candidate or host cut off."""

    def __init__(self, peer: Peer) -> None:
        self.peer = peer
        self._against: str | None = None
        """The host this peer stands against as candidate, while it stands."""
        self._votes: dict[str, list[Any]] = {}
        """The votes this candidate holds (its own first), as the ``host`` entry logs them."""
        self.voters: dict[str, Connection] = {}
        """The lines of the players whose votes this candidate holds, until it hosts them."""
        self._voted_for: str | None = None
        """The candidate this peer's vote went to: never another until it is released."""
        self._answered_at = 0.0
        """When another peer last answered this one's call (:meth:`reach`)."""
        self._told_alone = False

    # -- the guest that lost its host -------------------------------------------------------

    async def seek(self) -> None:
        """The host is lost: try it again first, then vote — once — for the first present
        player in join order, or stand oneself; wait, paused, until a host is found."""
        peer = self.peer
        log = peer.log
        assert log is not None
        old = log.host
        peer._become(Role.SEEKING)
        peer._after_change()
        began = time.monotonic()
        deadline = began + SAME_HOST_FIRST
        while time.monotonic() < deadline and not peer.finished.is_set():
            if await self.reach(old):
                return
            await asyncio.sleep(RETRY_EVERY)
        while not peer.finished.is_set() and not peer.hosting:
            candidate = self._voted_for or self._candidate(old)
            if candidate is None:
                if await self.reach(old):
                    return
            elif candidate == peer.me:
                if peer.role is not Role.STANDING:
                    self._stand(old)
                if peer.hosting:  # voted in at once: every other vote was in already
                    peer._become(Role.HOSTING)
                    peer._after_change()
                    return
                if await self.reach(old):
                    return
            else:
                outcome = await self.reach(candidate, vote_against=old)
                if outcome:
                    return
                if self._voted_for is None and await self.reach(old):
                    return
            alone = self._alone_for(began)
            if alone >= self.alone_limit() and self._give_up(alone, "losing the host"):
                return
            await asyncio.sleep(RETRY_EVERY)

    def _candidate(self, old: str) -> str | None:
        """The first player in join order, present in this peer's log, with a vote."""
        log = self.peer.log
        assert log is not None
        voters = log.voters()
        for member in log.members.values():
            if member.peer != old and member.present and member.peer in voters:
                return member.peer
        return None

    async def reach(
        self, target: str, vote_against: str | None = None, stepping_down: bool = False
    ) -> bool:
        """Connect to ``target`` (a member of the log) as a guest; with ``vote_against``,
        carrying this peer's vote for it in place of that host; ``stepping_down``: as a host
        cut off from most of the match.  Whether it now follows ``target``."""
        peer = self.peer
        guest = peer.guest_side
        log = peer.log
        assert log is not None
        member = log.members.get(target)
        if member is None or target == peer.me:
            return False
        address, _, port = member.addr.rpartition(":")
        if target == log.host and guest.host_address is not None:
            address, port = guest.host_address  # where this peer last reached it
        vote = None
        if vote_against is not None:
            at = len(log)
            payload = vote_payload(log.match_id, vote_against, target, at, log.head_bytes(at))
            vote = peer.identity.sign(payload)
        for rebase in (False, True):
            try:
                connection = await Connection.open(address, int(port), timeout=2.0)
                self._answered_at = time.monotonic()  # somebody is there
                if vote is not None:
                    self._voted_for = target  # cast once sent: never another candidate
                await guest.handshake(connection, log.keys.get(target), vote, rebase)
            except Closed as closed:
                released = closed.reason.startswith("released") or "not hosting" in closed.reason
                if released and self._voted_for == target:
                    self._voted_for = None  # the candidate will not use this vote
                if DIVERGED in closed.reason and not rebase:
                    continue
                return False
            except ValueError:
                return False
            if peer.hosting and not stepping_down:  # voted in while this was under way
                await connection.close("this peer is the host now")
                return False
            if rebase:  # only now: a peer voted in meanwhile keeps hosting its own log
                guest.rebasing, peer.log = peer.log, None
            self._withdraw()  # at once: no vote may be counted for it from now on
            guest.host_address = (address, port)
            peer._become(Role.FOLLOWING)
            if target == log.host:
                peer.observe("rejoined", {"peer": target, "name": member.name})
            else:
                peer.observe("host", {"peer": target, "name": member.name})
            peer.seats.resend_after_host_change()
            peer._spawn(guest.follow(connection))
            peer._after_change()
            return True
        return False

    # -- the candidate -------------------------------------------------------------------

    def _stand(self, old: str) -> None:
        """Stand as the new host in place of ``old``: vote for itself, await the others."""
        peer = self.peer
        log = peer.log
        assert log is not None
        peer._become(Role.STANDING)
        self._against, self._voted_for = old, peer.me
        at = len(log)
        payload = vote_payload(log.match_id, old, peer.me, at, log.head_bytes(at))
        self._votes = {peer.me: [peer.me, at, peer.identity.sign(payload)]}
        peer.observe("standing", {"against": old})
        self._count_votes()

    async def take_vote(
        self, connection: Connection, hello: dict[str, Any], voter: str, slot: Slot
    ) -> bool:
        """A player's vote for this peer as the new host; holds the connection until the
        vote is carried (True) or this peer stops standing (False, the voter is released)."""
        peer = self.peer
        log = peer.log
        assert log is not None and self._against is not None
        if voter not in log.voters():
            await connection.close("this peer has no vote in the match")
            return False
        connection.peer = voter
        if not await peer.host_side.catch_up_from(connection, hello["have"], slot):
            return False
        at = hello["have"]
        if at > len(log) or (at and hello["head"] != log.heads[at - 1]):
            await connection.close(DIVERGED)
            return False
        payload = vote_payload(log.match_id, self._against, peer.me, at, log.head_bytes(at))
        if not at or not verify(hello["key"], payload, hello["vote"]):
            await connection.close("the vote does not check out")
            return False
        self._votes[voter] = [voter, at, hello["vote"]]
        self.voters[voter] = connection
        connection.send({"t": "wait", "reason": f"{len(self._votes)} of {len(log.voters())}"})
        self._count_votes()
        try:
            while not peer.hosting:
                if peer.role is not Role.STANDING:
                    await connection.close("released: the host is back, reconnect to it")
                    return False
                with contextlib.suppress(TimeoutError):
                    message = await asyncio.wait_for(asyncio.shield(connection.receive()), 1.0)
                    if message["t"] == "request":
                        connection.send({"t": "wait", "reason": "the host is still being chosen"})
        finally:
            self.voters.pop(voter, None)
        return True

    def _count_votes(self) -> None:
        """Host the match once more than half of its people voted for this candidate: the
        new host starts cut off, until its watch finds the voters in touch (or :meth:`seek`
        sees it won at once)."""
        peer = self.peer
        log = peer.log
        assert log is not None
        if peer.role is not Role.STANDING or 2 * len(self._votes) <= len(log.voters()):
            return
        old = self._against
        assert old is not None
        self._against = None
        peer._become(Role.CUT_OFF)
        peer.host_side.take_over(old)
        peer.seats.resend_after_host_change()
        entry = {
            "k": "host", "peer": peer.me, "addr": peer._own_address(),
            "votes": list(self._votes.values()),
        }  # fmt: skip
        peer._make(entry)  # the voters are not hosted yet: nobody to relay it to
        peer.observe("host", {"peer": peer.me, "name": peer.config.name})
        peer._after_change()

    def _withdraw(self) -> None:
        """Stop standing, if it stood, and hold no vote: a host was reached (every vote
        taken is released)."""
        self._against, self._votes, self._voted_for = None, {}, None

    # -- the host cut off ------------------------------------------------------------------

    async def look_for_a_new_host(self) -> None:
        """As a host cut off from most of the match: ask the others, one by one, whether
        they chose a new host meanwhile; if one did, follow it (the entries this host placed
        after the others moved on are dropped: nobody else ever had them)."""
        peer = self.peer
        host_side = peer.host_side
        log = peer.log
        assert log is not None
        for other in sorted(log.voters() - {peer.me}):
            if not peer.hosting or host_side.holds_majority():
                return
            if await self.reach(other, stepping_down=True):
                for connection in list(host_side.clients.values()):
                    await connection.close("this peer is no longer the host")
                return
        alone = self._alone_for(host_side.cut_off_at)
        if peer.hosting and not host_side.holds_majority() and alone >= self.alone_limit():
            self._end_alone(alone)
            return
        await asyncio.sleep(RETRY_EVERY)

    # -- nobody there --------------------------------------------------------------------

    def _alone_for(self, since: float) -> float:
        """Seconds for which nobody of the match was heard: since ``since``, the last answer
        to this peer's call (:meth:`reach`) or the last byte on a voter's line."""
        heard = [since, self._answered_at, *(c.heard_at for c in self.voters.values())]
        return time.monotonic() - max(heard)

    def alone_limit(self) -> float:
        """Seconds a host cut off from most of the match may reach none of the others before
        it gives up: all the time they give a lost host — trying it, then a new host's
        grace for the missing — and its drop timeout, after which they decided its seat."""
        config = self.peer.config
        return SAME_HOST_FIRST + config.rejoin_grace + config.drop_timeout

    def _give_up(self, alone: float, after: str) -> bool:
        """Stop, with the reason, as a peer that found none of the others for ``alone``
        seconds after ``after`` — unless told to wait (``on_drop``): then say so, once, and
        go on waiting (False).  A guest's record stays as it was: only a host can log."""
        peer = self.peer
        reason = f"found none of the others for {alone:.0f} s after {after}"
        if peer.config.on_drop == "wait":
            if not self._told_alone:
                self._told_alone = True
                peer._notice(reason)
            return False
        peer.failure = reason
        peer.observe("error", {"text": reason})
        peer.finished.set()
        return True

    def _end_alone(self, alone: float) -> None:
        """As a host cut off from most of the match that has reached none of the others
        (every address refused or silent) for :meth:`alone_limit`: they ended the match or
        went on without this host.  Unless told to wait (``on_drop``), end this peer's copy
        so that its record says how it ended — every other member gone, the match ended
        with the reason — and stop.  Nobody else will take these entries: the others moved
        on, or are gone (docs/PROTOCOL.md §6.4)."""
        peer = self.peer
        log = peer.log
        assert log is not None
        reason = f"the host found none of the others for {alone:.0f} s after losing touch"
        if peer.config.on_drop == "wait":
            self._give_up(alone, "losing touch")  # says so once, and waits
            return
        peer._notice(reason)
        peer.agent.forget_unlogged()
        gone = [m.peer for m in log.members.values() if m.present and m.peer != peer.me]
        entries = [{"k": "leave", "peer": member, "reason": reason} for member in gone]
        own = [*peer.agent.dice_requests(log), {"k": "end", "reason": reason}]
        entries += [{**entry, "peer": peer.me} for entry in own]
        for entry in entries:
            if log.phase != PLAYING:
                break
            try:  # a reveal this host owes goes in before the end, which waits for it
                peer._make(entry)
            except Rejected as error:
                peer._notice(f"could not log {entry['k']}: {error.reason}")
        if log.phase in (LOBBY, PLAYING):  # the log cannot say it (the lobby): the peer does
            self._give_up(alone, "losing touch")
            return
        peer._after_change()  # "over", then the end
