"""What one peer owes a match at any moment: its dice commitments and reveals, and whose
turn it is to decide for one of its seats — worked out from the log alone, with no I/O.

Host and guests alike ask :meth:`Agent.dice_requests` after every entry and send what it
returns; :meth:`Agent.turn` says when a seat this peer plays (its own, or the computer seats
while it hosts) is to act, so the peer can ask its player for a decision.

**A value is shown under one set of commitments only.**  The host sees a reveal before it
places it.  So before it first signs a reveal of an event, the agent notes the commitments
of every peer that can decide the event; if it is ever asked for that reveal again — the
host refused it, or a new host took over — it signs it again only if the commitments in
force are those it noted.  Otherwise a host that slipped in a commitment of its own after
seeing this value could have the event decided by a value it chose: the agent refuses, says
why in :attr:`Agent.distrust`, and the event waits (docs/PROTOCOL.md §7.1).
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
    _shown: dict[tuple[str, int], dict[str, tuple[int, bytes]]] = field(default_factory=dict)
    """The commitments in force, by peer, when this peer first signed its reveal of an event
    (by match and event)."""
    distrust: str = ""
    """Why this peer will not reveal again: the commitments changed after it revealed."""

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
            return self._reveal(log, event, log.event_group or set())
        return []

    def reveal_ahead(self, log: MatchLog, after: State) -> list[dict[str, Any]]:
        """The reveal to send right behind this peer's move that leads to ``after``, when
        that opens a chance event every peer of the dice group has committed to: the value
        is fixed already, so sending it a moment early shows nothing, and the event does
        not wait for the move to come back from the host first."""
        event = log.next_event
        deciders = log.could_roll()
        if (
            not after.is_chance()
            or ("reveal", event) in self._sent
            or self.peer not in log.dice_group
            or log.commit_due(self.peer) is not None
            or not log.committed_to(event, deciders)
        ):
            # Every peer who may be in the event's group when it opens must be committed:
            # a commitment placed after this reveal would make it void (§7.1).
            return []
        return self._reveal(log, event, deciders)

    def _reveal(self, log: MatchLog, event: int, deciders: set[str]) -> list[dict[str, Any]]:
        """This peer's reveal of ``event``, if the commitments of ``deciders`` in force are
        the ones it revealed under before (or it never revealed the event)."""
        start = log.chain_start(self.peer, event)
        if start is None:
            return []
        if not self._may_show(log, event, deciders):
            return []
        self._sent.add(("reveal", event))
        return [
            {"k": "reveal", "event": event, "v": self._chain(log, start).reveal(event - start + 1)}
        ]

    def _may_show(self, log: MatchLog, event: int, deciders: set[str]) -> bool:
        """Whether this peer's value for ``event`` may be shown under the commitments now in
        force: the first time, always (they are noted); later, only under the same ones."""
        now = {p: c for p in sorted(deciders) if (c := log.commitment_of(p, event)) is not None}
        key = (log.match_id, event)
        before = self._shown.get(key)
        if before is None:
            self._shown[key] = now
            return True
        changed = sorted(p for p, c in now.items() if before.get(p) != c)
        if not changed:
            return True
        names = ", ".join(log.members[p].name if p in log.members else p[:8] for p in changed)
        self.distrust = (
            f"the commitments of event {event} changed after this player revealed it "
            f"({names}): it will not reveal its value again under other commitments"
        )
        return False

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
