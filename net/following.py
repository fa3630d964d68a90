"""The guest's side of a peer: its handshake with a host, then following that host's log.

A guest proves its key once the host has proved its own (:func:`net.door.present`),
catches the host up when it holds more of the match than the host (``want``/``push``,
docs/PROTOCOL.md §4.2), and from the ``welcome`` on applies every entry the host relays —
each checked by :class:`net.matchlog.MatchLog` as the host checked it.  A host that breaks
the log, skips entries, announces history it does not send in time, logs this guest as gone
while it listens, or shows it a log that forks from the one it held (§6.5) is not followed
any further: the guest stops with the reason.  So does one whose witness caught the host
showing two members two logs (:mod:`net.witness`, §6.7).  A guest that loses its host hands
over to the election (:meth:`net.election.Election.seek`).
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any

from net.connection import HANDSHAKE_TIMEOUT, Closed, Connection
from net.door import Expected, catch_up_deadline, present
from net.matchlog import LOBBY, PLAYING, MatchLog, Rejected

if TYPE_CHECKING:
    from net.peer import Peer
    from net.witness import Fork

FORK_LINGER = 1.0
"""Seconds a peer that caught the host forking keeps sending the proof before it stops."""


class Untrustworthy(Exception):  # noqa: N818
    """The host did something no honest host does: this guest stops following it."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class GuestSide:
    """The guest's side of ``peer``: the handshake with a host, then following its log."""

    def __init__(self, peer: Peer) -> None:
        self.peer = peer
        self.upstream: Connection | None = None
        """The line to the host this peer follows."""
        self.host_address: tuple[str, str] | None = None
        """The address this peer last reached its host at (tried first when it is lost)."""
        self.history_until = 0
        """The log's length at the welcome: what came before this connection is history."""
        self._history_by = 0.0
        """When the history announced at the welcome must be in (:meth:`_relayed`)."""
        self._joined_seq = -1
        """Where this peer's latest join is in the log (a ``leave`` of it after that, relayed
        while it is connected, is a lie)."""
        self.rebasing: MatchLog | None = None
        """This peer's own log while it takes a new host's in its place (:meth:`_check_fork`)."""

    async def handshake(
        self, connection: Connection, host_key: Expected = None, vote: bytes | None = None,
        rebase: bool = False,
    ) -> None:  # fmt: skip
        """Hello, the host's proof, this peer's proof; then welcome (or wait, as a voter)."""
        peer = self.peer
        log = peer.log
        have = 0 if log is None or rebase else len(log)
        config = peer.config
        wish = (config.name[:40], config.role, config.seat)
        await present(
            connection, peer.identity, wish, peer.listen_port, log, have, host_key,
            config.code, vote,
        )  # fmt: skip
        answer = await connection.receive(HANDSHAKE_TIMEOUT)
        while answer["t"] in ("want", "wait"):
            if answer["t"] == "want":  # this peer heard more of the old host: catch it up
                self._push_from(connection, answer["from"])
            else:  # a vote is being counted: stay until it is carried
                peer.observe("voted", {"count": answer["reason"]})
            answer = await connection.receive()
        if answer["t"] != "welcome":
            await connection.close("expected a welcome")
            raise Closed("the host answered the proof with something else")
        self.upstream = connection
        connection.peer = answer["host"]
        self.history_until = answer["seq"]
        # The host's own deadline for a newcomer's entries, the other way: a host that
        # announces more history than it sends cannot hold this guest in the room.
        self._history_by = catch_up_deadline(
            answer["seq"] - (0 if peer.log is None else len(peer.log))
        )

    def _push_from(self, connection: Connection, start: int) -> None:
        log = self.peer.log
        if log is None:
            return
        for seq in range(start, len(log)):
            connection.send({"t": "push", "seq": seq, "e": log.entries[seq]})

    async def follow(self, connection: Connection) -> None:
        """Apply what the host relays until the match ends or the host is lost."""
        peer = self.peer
        try:
            while True:
                message = await self._relayed(connection)
                kind = message["t"]
                if kind == "entry":
                    self._apply_relayed(message["seq"], message["e"])
                elif kind == "want":
                    self._push_from(connection, message["from"])
                elif kind == "reject":
                    peer.seats.rejected(message["kind"], message["reason"])
        except Closed as closed:
            if self.upstream is connection:
                self.upstream = None
            if peer.finished.is_set() or peer.witness.proof is not None:
                return
            log = peer.log
            if log is not None and log.phase in (LOBBY, PLAYING):
                peer.observe("notice", {"text": f"lost the host: {closed.reason}"})
                await peer.election.seek()
            else:
                if log is None:  # the match never came, or came malformed: say so
                    peer.failure = f"no match from the host: {closed.reason}"
                    peer.observe("error", {"text": peer.failure})
                peer.finished.set()
        except Untrustworthy as fatal:
            peer.failure = fatal.reason
            peer.observe("error", {"text": fatal.reason})
            await connection.close(fatal.reason)
            peer.finished.set()

    async def _relayed(self, connection: Connection) -> dict[str, Any]:
        """The host's next message; while the history announced at the welcome is not all
        in, by the deadline set then, which nothing extends."""
        if not self.peer.catching_up:
            return await connection.receive()
        try:
            return await connection.receive_by(self._history_by)
        except Closed:
            if time.monotonic() < self._history_by:
                raise  # the host left, or the line broke: seek it as ever
            got = 0 if self.peer.log is None else len(self.peer.log)
            raise Untrustworthy(
                f"the host announced {self.history_until} log entries and sent {got} in "
                "time: it cannot be trusted"
            ) from None

    def _apply_relayed(self, seq: int, entry: dict[str, Any]) -> None:
        peer = self.peer
        if peer.witness.proof is not None:
            return  # the host forked the match: nothing it sends is taken any more
        if peer.log is None:
            if seq != 0:
                raise Untrustworthy("the host's log does not begin with the match")
            try:
                peer.log = MatchLog(entry)
            except Rejected as error:
                raise Untrustworthy(
                    f"the host's match cannot be played here: {error.reason}"
                ) from error
            peer.observe("match", {"match": peer.log.match_id})
            return
        log = peer.log
        if seq < len(log):
            return  # already have it (catching up after a host change)
        if seq > len(log):
            raise Untrustworthy(f"the host skipped log entries ({len(log)} to {seq - 1})")
        self._check_fork(seq, entry)
        try:
            log.apply(entry)
        except Rejected as error:
            raise Untrustworthy(
                f"the host relayed an entry that does not check out (entry {seq}, "
                f"{entry.get('k')}): {error.reason}"
            ) from error
        if entry["k"] == "join" and entry["peer"] == peer.me:
            self._joined_seq = seq
        elif (
            entry["k"] == "leave"
            and entry["peer"] == peer.me
            and seq > max(self._joined_seq, self.history_until - 1)
        ):
            raise Untrustworthy(  # a host drops a peer by closing its line, never while it listens
                "the host logged this player as gone while it was connected: "
                "it cannot be trusted with this match"
            )
        peer._entry_applied(entry)
        peer._after_change()

    def _check_fork(self, seq: int, entry: dict[str, Any]) -> None:
        """While taking a new host's log in place of this peer's own (which held entries a
        deposed host placed after the others had moved on): the two may part only where the
        others voted a new host in; anywhere else the host showed two logs."""
        old = self.rebasing
        if old is None:
            return
        if seq >= len(old) or old.entries[seq] == entry:
            if seq >= len(old):
                self.rebasing = None
            return
        self.rebasing = None
        if entry.get("k") != "host":
            raise Untrustworthy(
                f"the host's log forks from this peer's at entry {seq + 1}: it cannot be trusted"
            )
        self.peer.seats.resend_after_host_change()

    def forked(self, fork: Fork) -> None:
        """Another member holds a log the host signed differently at one position: stop
        following it, as after any proof of a dishonest host, once the proof went out to
        every member (:data:`FORK_LINGER`); the record keeps it (``witness.proof``)."""
        peer = self.peer
        peer.failure = fork.reason
        peer.observe("fork", fork.event())
        if self.upstream is not None:
            peer._spawn(self.upstream.close(fork.reason))
        asyncio.get_running_loop().call_later(FORK_LINGER, peer.finished.set)
