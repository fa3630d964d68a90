"""``python -m net.testing.grinding_host host numeri …``: ``python -m net`` with issue 28's
dishonest host in place of an honest one, for a real guest to play against over a socket.

Its own log runs without the rules that freeze the dice when a die opens (as a dishonest
host's code would: it refuses none of its own tricks), its agent never reveals first, and
for every guest's reveal it receives it grinds a value of its own until the event's outcome
is the one it wishes (:func:`net.testing.grinding.numeri_wish`), places a fresh commitment
to that value in front of the guest's reveal, then the reveal, then its own value.  What it
places goes to the guests as ever: their logs judge it.  Each trick it plays or has
refused is printed as a ``notice`` (``slipped a commitment …`` / ``trick refused: …``).
"""

from __future__ import annotations

import random
import sys
from typing import TYPE_CHECKING, Any

import net.__main__ as command
from net.agent import Agent
from net.hosting import HostSide
from net.matchlog import MatchLog, Rejected
from net.peer import Peer, PeerConfig
from net.testing.grinding import Window, grind, numeri_wish

if TYPE_CHECKING:
    from game.rules import State
    from net.connection import Connection
    from net.identity import Identity
    from net.peer import Observer


class GrindingAgent(Agent):
    """Commits like any peer, but never reveals by itself: the host reveals last, by hand."""

    def dice_requests(self, log: MatchLog) -> list[dict[str, Any]]:
        return [r for r in super().dice_requests(log) if r["k"] != "reveal"]

    def reveal_ahead(self, log: MatchLog, after: State) -> list[dict[str, Any]]:
        return []


class GrindingHostSide(HostSide):
    """The host's side of :class:`GrindingPeer`: grinds its value before a guest's reveal."""

    def __init__(self, peer: Peer) -> None:
        super().__init__(peer)
        self._fresh: dict[int, Window] = {}
        self._rng = random.Random()

    def handle_request(
        self, member: str, entry: dict[str, Any], connection: Connection | None
    ) -> None:
        peer = self.peer
        log = peer.log
        if (
            log is None
            or not peer.hosting
            or member == peer.me
            or entry.get("k") != "reveal"
            or entry.get("event") != log.pending_event
        ):
            super().handle_request(member, entry, connection)
            return
        event: int = entry["event"]
        group = log.event_group or set()
        others = group - {peer.me}
        if peer.me in group and others - set(log.reveals) == {member}:
            self._slip_a_commitment(event, {**log.reveals, member: entry["v"]})
        super().handle_request(member, entry, connection)
        if (
            log.pending_event == event
            and peer.me in group
            and peer.me not in log.reveals
            and others <= set(log.reveals)
        ):
            self._reveal_last(event)

    def _slip_a_commitment(self, event: int, others: dict[str, bytes]) -> None:
        peer = self.peer
        log = peer.log
        assert log is not None
        seat = log.seat_of(peer.me)
        wanted = numeri_wish(log.state, 0 if seat is None else seat)
        if wanted is None:
            return
        chain = grind(log.state, event, others, peer.me, wanted, self._rng, log.chain_length)
        if chain is None:
            return
        try:
            peer._make({"k": "commit", "peer": peer.me, "first": event, "c": chain.commitment})
        except Rejected as error:
            peer._notice(f"trick refused: {error.reason}")
            return
        self._fresh[event] = chain
        peer._notice(f"slipped a commitment in front of the reveal of event {event} ({wanted})")

    def _reveal_last(self, event: int) -> None:
        peer = self.peer
        log = peer.log
        assert log is not None
        start = log.chain_start(peer.me, event)
        if start is None:
            return
        chain = self._fresh.get(start) or peer.identity.chain(log.match_id, start, log.chain_length)
        try:
            peer._make({"k": "reveal", "peer": peer.me, "event": event,
                        "v": chain.reveal(event - start + 1)})  # fmt: skip
        except Rejected as error:
            peer._notice(f"own reveal refused: {error.reason}")
            return
        peer._after_change()


class GrindingPeer(Peer):
    def __init__(
        self, identity: Identity, config: PeerConfig, observer: Observer | None = None
    ) -> None:
        super().__init__(identity, config, observer)
        self.agent = GrindingAgent(identity)
        self.host_side = GrindingHostSide(self)


def _without_frozen_dice() -> None:
    """The host's own log accepts its tricks: the rules that would refuse them are gone."""

    def nothing(*_: object) -> None:
        return None

    MatchLog._check_no_replacement = nothing  # type: ignore[method-assign,assignment]
    MatchLog._check_seen = nothing  # type: ignore[method-assign,assignment]


def main(argv: list[str] | None = None) -> int:
    _without_frozen_dice()
    command.Peer = GrindingPeer  # type: ignore[attr-defined]
    return command.main(argv)


if __name__ == "__main__":
    sys.exit(main())
