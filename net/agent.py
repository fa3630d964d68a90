"""What one peer owes a match at any moment: its dice commitments and reveals, and whose
turn it is to decide for one of its seats — worked out from the log alone, with no I/O.

Host and guests alike ask :meth:`Agent.dice_requests` after every entry and send what it
returns; :meth:`Agent.turn` says when a seat this peer plays (its own, or the computer seats
while it hosts) is to act, so the peer can ask its player for a decision.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from net.fairdice import HashChain

if TYPE_CHECKING:
    from game.rules import State
    from net.identity import Identity
    from net.matchlog import MatchLog


@dataclass(frozen=True)
class Turn:
    """A decision this peer must make: ``seat`` to act at ``ply`` (``level`` for a computer
    seat the host plays, '' for the peer's own seat)."""

    seat: int
    ply: int
    level: str


@dataclass
class Agent:
    identity: Identity
    _chains: dict[tuple[str, int], HashChain] = field(default_factory=dict)
    _sent: set[tuple[Any, ...]] = field(default_factory=set)

    @property
    def peer(self) -> str:
        return self.identity.peer

    def dice_requests(self, log: MatchLog) -> list[dict[str, Any]]:
        """The commit and reveal this peer is to send now (each only once)."""
        first = log.commit_due(self.peer)
        if first is not None and ("commit", first) in self._sent:
            return []  # sent, not yet in the log
        if first is not None:
            self._sent.add(("commit", first))
            chain = self._chain(log, first)
            # The reveal waits for the commitment to be in the log: which chain covers the
            # event depends on it.
            return [{"k": "commit", "first": first, "c": chain.commitment}]
        event = log.next_event
        if log.needs_reveal(self.peer) and ("reveal", event) not in self._sent:
            start = log.chain_start(self.peer, event)
            if start is not None:
                self._sent.add(("reveal", event))
                value = self._chain(log, start).reveal(event - start + 1)
                return [{"k": "reveal", "event": event, "v": value}]
        return []

    def reveal_ahead(self, log: MatchLog, after: State) -> list[dict[str, Any]]:
        """The reveal to send right behind this peer's move that leads to ``after``, when
        that opens a chance event every peer of the dice group has committed to: the value
        is fixed already, so sending it a moment early shows nothing, and the event does
        not wait for the move to come back from the host first."""
        event = log.next_event
        if (
            not after.is_chance()
            or ("reveal", event) in self._sent
            or self.peer not in log.dice_group
            or log.commit_due(self.peer) is not None
            or not log.committed_to(event)
        ):
            return []
        start = log.chain_start(self.peer, event)
        if start is None:
            return []
        self._sent.add(("reveal", event))
        return [
            {"k": "reveal", "event": event, "v": self._chain(log, start).reveal(event - start + 1)}
        ]

    def forget_reveals(self) -> None:
        """A reveal sent ahead was refused (the event opened otherwise than foreseen):
        :meth:`dice_requests` sends it again when it is owed."""
        self._sent = {sent for sent in self._sent if sent[0] != "reveal"}

    def forget_unlogged(self) -> None:
        """After a change of host: what was sent may never have been logged; send again
        whatever the log still lacks (the log refuses duplicates)."""
        self._sent.clear()

    def turn(self, log: MatchLog) -> Turn | None:
        """The decision this peer owes, if the match waits for one of its seats."""
        if log.phase != "playing" or log.paused or log.state.to_move < 0:
            return None
        seat = log.state.to_move
        if log.actor(seat) != self.peer:
            return None
        return Turn(seat, log.ply, log.seats[seat].computer)

    def _chain(self, log: MatchLog, first: int) -> HashChain:
        key = (log.match_id, first)
        if key not in self._chains:
            self._chains[key] = self.identity.chain(log.match_id, first, log.chain_length)
        return self._chains[key]
