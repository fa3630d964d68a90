"""The log's rules for the fair dice: commitments, reveals and rolls (docs/PROTOCOL.md §7).

:class:`DiceRules` is a part of :class:`net.matchlog.MatchLog`, kept apart because the dice
are a protocol of their own inside the log: who owes a commitment or a reveal and when, what
a ``commit`` or ``reveal`` entry must satisfy, and how a chance event is decided once every
peer of its group has revealed.  The rest of the log (members, seats, the game, the phase)
decides *who* is in the dice group; these rules never change it except to let a peer go.

**Frozen once a die opens** (§7.1): a peer has at most one commitment for any event
(:meth:`DiceRules._check_no_replacement`), and a reveal counts only under the commitments
its author had seen when it signed it (:meth:`DiceRules._check_seen`).  The host sees
every reveal before it places it; with these two rules it still cannot slip in a commitment
chosen after seeing another's value.  Logs of earlier protocol versions are replayed by
their own rules, with what these would refuse noted as doubts.

The outcome is ``pick(combine(event, reveals in peer-id order), outcomes)``
(:mod:`net.fairdice`), applied by every peer at the same place in the log.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from net.entries import LOBBY, PLAYING, Rejected, require
from net.fairdice import DiceError, check_reveal, combine, pick

if TYPE_CHECKING:
    from game.rules import State
    from net.matchlog import Member, Seat

RENEW_BEFORE = 16
"""A peer commits to a new dice chain when its current one has fewer values left."""
FROZEN_DICE = 3
"""The first protocol version whose log freezes the commitments of an event once a die of it
may have been shown (docs/PROTOCOL.md §7.1): earlier logs are replayed by their own rules,
with what these would refuse noted as doubts."""


@dataclass(frozen=True)
class Roll:
    """One chance event as decided: who revealed what, and the outcome."""

    event: int
    peers: tuple[str, ...]
    reveals: tuple[bytes, ...]
    outcome: str


@dataclass
class _Commitment:
    first: int
    value: bytes
    position: int
    """Where the ``commit`` entry is in the log (from 0)."""
    anchor: tuple[int, bytes] = field(init=False)
    """The last revealed (event, value), or (first − 1, commitment) before any."""

    def __post_init__(self) -> None:
        self.anchor = (self.first - 1, self.value)


class DiceRules:
    """The dice's part of :class:`net.matchlog.MatchLog` (a mixin: it keeps the dice's
    state, and reads the rest of the log's)."""

    # What the dice read of the rest of the log, which MatchLog keeps.
    version: int
    chain_length: int
    host: str
    phase: str
    state: State
    entries: list[dict[str, Any]]
    members: dict[str, Member]
    seats: list[Seat]
    doubts: list[str]

    if TYPE_CHECKING:

        def seat_of(self, peer: str) -> int | None: ...

        def _advance(self, action: int, after: State) -> None: ...

    def _start_dice(self) -> None:
        """The dice before the first entry: no group, no commitment, event 1 next."""
        self.rolls: list[Roll] = []
        self.dice_group: set[str] = set()
        """Who takes part in the chance events that open from now on (fixed at the start:
        the seated persons and the host)."""
        self.next_event = 1
        self.event_group: set[str] | None = None
        """Who decides the open event: the dice group present when it opened."""
        self.reveals: dict[str, bytes] = {}
        """The values revealed for the open event, by peer."""
        self.highest_revealed = 0
        self._commitments: dict[str, list[_Commitment]] = {}

    # -- reading -------------------------------------------------------------------

    @property
    def pending_event(self) -> int | None:
        """The chance event waiting for reveals, if any."""
        return self.next_event if self.phase == PLAYING and self.state.is_chance() else None

    def needs_reveal(self, peer: str) -> bool:
        return (
            self.pending_event is not None
            and peer in (self.event_group or ())
            and peer not in self.reveals
            and self._all_committed()
        )

    def _all_committed(self) -> bool:
        """Whether every peer of the pending event has a commitment covering it: no value
        of an event is shown before all of its values are fixed."""
        group = self.event_group if self.event_group is not None else self.dice_group
        return self.committed_to(self.next_event, group)

    def committed_to(self, event: int, group: Iterable[str] | None = None) -> bool:
        """Whether every member of ``group`` (the dice group) has a commitment covering
        ``event``."""
        members = self.dice_group if group is None else group
        return all(self._commitment(p, event) is not None for p in members)

    def owes_dice(self, peer: str) -> bool:
        """Whether the pending chance event waits for ``peer``'s commitment or reveal."""
        if self.pending_event is None or peer not in (self.event_group or ()):
            return False
        if peer in self.reveals:
            return False
        # It owes a commitment while it has none for the event, a reveal once all are in.
        return self._commitment(peer, self.next_event) is None or self._all_committed()

    def commit_due(self, peer: str) -> int | None:
        """The first event of the chain ``peer`` must commit to now, if any."""
        if self.phase == LOBBY:
            # Committed while the match waits, the first roll waits for no commitment.
            return 1 if self._commits_early(peer) and not self._commitments.get(peer) else None
        if self.phase != PLAYING or peer not in self.dice_group:
            return None
        chains = self._commitments.get(peer)
        earliest = max(self.next_event, self.highest_revealed + 1)
        if not chains:
            return earliest
        end = chains[-1].first + self.chain_length
        if end - self.next_event < RENEW_BEFORE:
            # The next chain begins where the current one ends: it replaces no commitment
            # another peer may already have revealed a value under.
            return max(end, earliest)
        return None

    def could_roll(self) -> set[str]:
        """The peers who may be in the group of the next chance event when it opens: the
        dice group, and every seat's person (a rejoin gives her seat back to her, and her
        place in the dice group)."""
        return self.dice_group | {s.owner for s in self.seats if s.owner is not None}

    def commitment_of(self, peer: str, event: int) -> tuple[int, bytes] | None:
        """``peer``'s commitment covering ``event``: its first event and value."""
        chain = self._commitment(peer, event)
        return None if chain is None else (chain.first, chain.value)

    def chain_start(self, peer: str, event: int) -> int | None:
        """The first event of the chain of ``peer``'s that covers ``event``."""
        chain = self._commitment(peer, event)
        return None if chain is None else chain.first

    # -- applying ------------------------------------------------------------------

    def _on_commit(self, entry: dict[str, Any]) -> None:
        peer, first = entry["peer"], entry["first"]
        if self.phase == LOBBY:
            require(self._commits_early(peer), "only a seated player commits before the start")
            require(peer not in self._commitments, "one commitment before the start")
        else:
            require(self.phase == PLAYING, "the match is over")
            require(peer in self.dice_group, "this peer does not take part in the dice")
        if first <= self.highest_revealed:
            raise Rejected(
                f"a commitment must come before any reveal of its events (event {first} "
                "has already been revealed)"
            )
        chains = self._commitments.setdefault(peer, [])
        if chains and first <= chains[-1].first:
            raise Rejected("a new commitment must start after the previous one")
        if chains and self.version >= FROZEN_DICE:
            self._check_no_replacement(chains[-1], first)
        chains.append(_Commitment(first, entry["c"], len(self.entries)))

    def _check_no_replacement(self, previous: _Commitment, first: int) -> None:
        """A commitment never replaces another: a peer has at most one for any event, so
        the value it will reveal for an event is fixed by the first commitment covering it,
        and no later entry — placed by a host that has seen the others' reveals — can fix
        another (docs/PROTOCOL.md §7.1)."""
        end = previous.first + self.chain_length
        if first < end:
            raise Rejected(
                f"a commitment never replaces another: this peer's chain from event "
                f"{previous.first} covers the events up to {end - 1}; a new one begins at "
                f"{end} or later"
            )

    def _commits_early(self, peer: str) -> bool:
        """Whether ``peer`` may commit before the start: the host, or a present player with
        a seat — who will be of the dice group if the match starts as it stands."""
        member = self.members.get(peer)
        if peer == self.host:
            return True
        return member is not None and member.present and self.seat_of(peer) is not None

    def _on_reveal(self, entry: dict[str, Any]) -> None:
        peer, event, value = entry["peer"], entry["event"], entry["v"]
        require(self.pending_event is not None, "no chance event is pending")
        if event != self.next_event:
            raise Rejected(f"the pending chance event is {self.next_event}, not {event}")
        require(peer in (self.event_group or ()), "this peer has no say in this event")
        require(peer not in self.reveals, "this peer has already revealed this event")
        require(
            self._all_committed(),
            "every peer of the event must have committed before anyone reveals",
        )
        chain = self._commitment(peer, event)
        assert chain is not None
        anchor_event, anchor = chain.anchor
        try:
            check_reveal(anchor, value, event - anchor_event)
        except DiceError as error:
            raise Rejected(
                f"forged dice reveal: the value for event {event} does not hash to the commitment"
            ) from error
        self._check_seen(entry)
        chain.anchor = (event, value)
        self.reveals[peer] = value
        self.highest_revealed = max(self.highest_revealed, event)

    def _check_seen(self, entry: dict[str, Any]) -> None:
        """A reveal counts only under the commitments its author had seen: every commitment
        of the event's group must be among the first ``at`` entries, the log the author
        signed the reveal after.  A host that holds a reveal back and slips a commitment in
        front of it makes it void for everyone — and an honest peer never signs that value
        again under other commitments (:class:`net.agent.Agent`)."""
        event, at = entry["event"], entry["at"]
        for peer in sorted(self.event_group or ()):
            chain = self._commitment(peer, event)
            if chain is None or chain.position < at:
                continue
            name = self.members[peer].name if peer in self.members else peer[:8]
            reason = (
                f"a reveal counts only under the commitments its author had seen: "
                f"{name}'s commitment to event {event} (entry {chain.position + 1}) came "
                f"after the {at} entries this reveal was made after"
            )
            if self.version >= FROZEN_DICE:
                raise Rejected(reason)
            self.doubts.append(f"entry {len(self.entries) + 1} (reveal): {reason}")
            return

    # -- what follows by itself ----------------------------------------------------

    def _roll(self) -> None:
        peers = tuple(sorted(self.event_group or ()))
        reveals = tuple(self.reveals[p] for p in peers)
        state = self.state
        outcome = pick(combine(self.next_event, list(reveals)), state.chance_outcomes())
        self.rolls.append(Roll(self.next_event, peers, reveals, state.action_to_str(outcome)))
        self.next_event += 1
        self._advance(outcome, state.apply(outcome))

    def _leave_dice(self, peer: str) -> None:
        """``peer`` takes no part in chance events that open from now on (one already open
        still waits for its reveal: its value was fixed at its commitment)."""
        self.dice_group.discard(peer)

    # -- helpers -------------------------------------------------------------------

    def _commitment(self, peer: str, event: int) -> _Commitment | None:
        for chain in reversed(self._commitments.get(peer, ())):
            if chain.first <= event:
                return chain if event < chain.first + self.chain_length else None
        return None
