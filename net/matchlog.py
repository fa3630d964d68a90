"""The match log: the entries a LAN match is made of, in the order the host gave them,
checked and applied alike by every peer.

The host only *orders* entries; it decides nothing the others cannot check.  Every peer —
the host too — runs each entry through :meth:`MatchLog.apply`, which refuses anything that
does not follow from the log so far: an illegal or out-of-turn action, an action for a seat
its sender does not hold, a ply number that is not the next one (a replay), a state digest
that differs from this peer's own, a dice reveal that does not hash to its commitment.  A
refused entry raises :class:`Rejected` with the reason and changes nothing.

Chance events are decided here too, without anyone's say: once every peer of the event's
*dice group* has revealed its committed value, the outcome is
``pick(combine(event, reveals in peer-id order), outcomes)`` (see :mod:`net.fairdice`),
applied by every peer at the same place in the log.  A log is therefore also a proof:
``python -m net verify`` replays one and checks every roll.

Entry kinds and who makes them (docs/PROTOCOL.md has the fields):

* ``match`` (first entry, the host): game setup, seats set to computer levels, match id.
* ``join`` / ``leave`` (the host, for a peer): membership; a ``join`` of a known peer is a
  rejoin.  ``host``: a new host took over after the old one dropped.
* ``seat``, ``ready``, ``coach`` (lobby: whether this player allows hints and dice odds;
  the match has them only if every person seated allows them), ``start`` (the host),
  ``computer`` (the host in the lobby; any seated player for a seat whose person is gone,
  once the host's timeout allows it).
* ``commit``, ``reveal``: the fair dice, frozen once a die opens: each peer has at most one
  commitment for any event, and a reveal counts only under the commitments its author had
  seen when it signed it (its ``at``), so nobody — the host included, who sees every reveal
  before it places it — can slip in a commitment chosen after seeing another's value.
* ``act``: an action.  ``offer``: a draw offer (a draw is agreed when every seat is a present
  person and all offered at the same ply).  ``end``: the match abandoned after a drop.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from game.rules import AGREED_DRAW, ActionError, MatchRecord, RulesError, State, start
from game.rules.core import resigning_seat
from game.rules.registry import VARIANTS
from game.rules.variants import Variant, variant_from_fields
from net.fairdice import DiceError, check_reveal, combine, digest, pick
from net.identity import Identity, peer_id, verify
from net.messages import PROTOCOL_VERSION, MessageError, validate_entry
from net.signing import NO_HEAD, entry_payload, join_payload, order_payload, packed, vote_payload

LOBBY, PLAYING, OVER, ABANDONED = "lobby", "playing", "over", "abandoned"
HOST_MADE = frozenset({"match", "join", "leave"})
"""Kinds only the host makes (``join`` and ``leave`` are about another peer)."""
RENEW_BEFORE = 16
"""A peer commits to a new dice chain when its current one has fewer values left."""
FROZEN_DICE = 3
"""The first protocol version whose log freezes the commitments of an event once a die of it
may have been shown (docs/PROTOCOL.md §7.1): earlier logs are replayed by their own rules,
with what these would refuse noted as doubts."""


class Rejected(Exception):  # noqa: N818 - an answer, not a failure of this program
    """An entry that does not follow from the log; ``reason`` says why in plain words."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass
class Member:
    peer: str
    name: str
    role: str
    addr: str
    present: bool = True
    ready: bool = False
    coach: bool = False
    """This member allows hints and dice odds in the match (said in the lobby)."""


@dataclass
class Seat:
    owner: str | None = None
    """The peer of the person who sat down (kept while the computer stands in)."""
    computer: str = ""
    """The computer level playing the seat, '' when a person does."""

    @property
    def human(self) -> bool:
        return not self.computer


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


class MatchLog:
    def __init__(self, opening: dict[str, Any], version: int = PROTOCOL_VERSION) -> None:
        self.version = version
        """The protocol version whose rules this log applies (a record says which)."""
        self.doubts: list[str] = []
        """In a log of an earlier version: what the current rules would have refused, each
        naming its entry (``python -m net verify`` reports them)."""
        entry = _checked(opening)
        if entry["k"] != "match":
            raise Rejected("a match log begins with a match entry")
        try:
            self.variant: Variant = variant_from_fields(entry["setup"], VARIANTS)
        except RulesError as error:
            raise Rejected(f"unknown game setup: {error}") from error
        if len(entry["seats"]) != self.variant.players:
            raise Rejected(f"{self.variant.name} needs {self.variant.players} seats")
        self.match_id: str = entry["id"]
        self.name: str = entry["name"]
        self.code_required: bool = entry["code"]
        self.chain_length: int = entry["chain"]
        self.host: str = entry["host"]
        if peer_id(entry["key"]) != self.host:
            raise Rejected("the match entry's key is not its host's")
        self.keys: dict[str, bytes] = {self.host: entry["key"]}
        """Every member's public key by peer id: what each signature is checked with."""
        self.entries: list[dict[str, Any]] = []
        self.heads: list[str] = []
        """``heads[n]`` fingerprints the first n + 1 entries: peers compare logs by it."""
        self._last_n: dict[str, int] = {}
        self._nonces: set[bytes] = set()
        head = entry_digest("", entry)
        self._authenticate(entry, head, check_author=True, check_placing=True)
        self.entries.append(entry)
        self.heads.append(head)
        self._last_n[self.host] = entry["n"]
        self.members: dict[str, Member] = {}
        self.seats = [Seat(computer=level) for level in entry["seats"]]
        self.phase = LOBBY
        self.end_reason = ""
        self.state: State = start(self.variant)
        self.record = MatchRecord(self.variant)
        self.rolls: list[Roll] = []
        self.dice_group: set[str] = set()
        self.next_event = 1
        self.event_group: set[str] | None = None
        self.reveals: dict[str, bytes] = {}
        self.highest_revealed = 0
        self._commitments: dict[str, list[_Commitment]] = {}
        self._offers: set[str] = set()
        self.electorate: frozenset[str] = frozenset()
        """The people whose majority may change the host: fixed at the start (the seated
        persons and the host); in the lobby, the players present."""
        self.forfeit: tuple[str, ...] = ()
        """Who the match was ended against: the peers whose dice it was waiting for."""

    # -- reading -------------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self.entries)

    @property
    def ply(self) -> int:
        return len(self.record.actions)

    def seat_of(self, peer: str) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.owner == peer:
                return index
        return None

    def actor(self, seat: int) -> str | None:
        """The peer who acts for ``seat``: its person, or the host for a computer."""
        info = self.seats[seat]
        return self.host if info.computer else info.owner

    def waiting_for(self) -> list[str]:
        """The absent peers a running match waits for (it is paused while any)."""
        if self.phase != PLAYING:
            return []
        absent = {
            s.owner for s in self.seats if s.human and s.owner and not self.members[s.owner].present
        }
        absent |= {p for p in self.event_group or () if not self.members[p].present}
        return sorted(absent)

    @property
    def paused(self) -> bool:
        return bool(self.waiting_for())

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

    def start_problem(self) -> str | None:
        """Why the host cannot start the match now, or None if it can: every person's seat
        taken, and everyone seated but the host present and ready."""
        if self.phase != LOBBY:
            return "the match has already started"
        for number, seat in enumerate(self.seats, 1):
            if seat.human and seat.owner is None:
                return f"seat {number} is still free"
            if seat.human and seat.owner is not None and seat.owner != self.host:
                member = self.members[seat.owner]
                if not (member.present and member.ready):
                    return f"{member.name} is not ready"
        return None

    def free_seats(self) -> int:
        return sum(1 for s in self.seats if s.human and s.owner is None)

    # -- applying ------------------------------------------------------------------------

    def apply(self, entry: dict[str, Any]) -> None:
        """Apply ``entry`` if it follows from the log; raise :class:`Rejected` otherwise."""
        self._apply(_checked(entry), check_author=True, check_placing=True)

    def place(self, entry: dict[str, Any], host: Identity, *, own: bool = False) -> dict[str, Any]:
        """As the host holding ``host``: sign the placing of ``entry`` next in this log and
        apply it; returns the placed entry.  The placing signature is made here, so it is
        not checked again, nor the author's for an ``own`` entry the host has just signed:
        each check costs about 45 µs on the way of every relayed entry."""
        entry = _checked(placed(self, host, entry))
        self._apply(entry, check_author=not own, check_placing=False)
        return entry

    def _apply(self, entry: dict[str, Any], *, check_author: bool, check_placing: bool) -> None:
        kind = entry["k"]
        if kind == "match":
            raise Rejected("a match log has one match entry, the first")
        if kind not in ("join", "host") and entry["peer"] not in self.members:
            raise Rejected(f"{kind}: {entry['peer'][:8]} is not in this match")
        head = entry_digest(self.heads[-1], entry)
        self._authenticate(entry, head, check_author, check_placing)
        getattr(self, f"_on_{kind}")(entry)
        self.entries.append(entry)
        self.heads.append(head)
        self._last_n[self.author(entry)] = entry["n"]
        if kind == "join":
            self._nonces.add(entry["nonce"])
            self.keys[entry["peer"]] = entry["key"]
        self._settle()

    def author(self, entry: dict[str, Any]) -> str:
        """Who made ``entry``: the host for ``match``, ``join`` and ``leave``, else its peer."""
        if entry["k"] == "match":
            first: str = entry["host"]
            return first
        if entry["k"] in HOST_MADE:
            return self.host
        peer: str = entry["peer"]
        return peer

    def head_bytes(self, at: int) -> bytes:
        """The head of the first ``at`` entries (:data:`NO_HEAD` for none)."""
        return bytes.fromhex(self.heads[at - 1]) if at else NO_HEAD

    def next_n(self, peer: str) -> int:
        """The least counter an entry by ``peer`` may carry next."""
        return self._last_n.get(peer, 0) + 1

    def _authenticate(
        self, entry: dict[str, Any], head: str, check_author: bool, check_placing: bool
    ) -> None:
        """Refuse ``entry`` unless its author signed it, after what the author had seen,
        in order, and the host placed it here (making the log's ``head``): nobody can make
        an entry in another's name, replay one, or move one into another log."""
        author = self.author(entry)
        key = self.keys.get(author)
        if key is None:
            raise Rejected(f"{entry['k']}: its author {author[:8]} is not in this match")
        position = len(self.entries)
        at = entry["at"]
        if at > position or (position and not at):
            raise Rejected(f"{entry['k']}: made after {at} entries, placed at entry {position + 1}")
        if entry["n"] < self.next_n(author):
            raise Rejected(f"{entry['k']}: a replayed or reordered entry (number {entry['n']})")
        if check_author and not verify(
            key, entry_payload(self.match_id, at, self.head_bytes(at), entry), entry["sig"]
        ):
            raise Rejected(f"forged entry: the {entry['k']}'s signature is not its author's")
        if not check_placing:
            return
        orderer = entry["peer"] if entry["k"] == "host" else self.host
        placing = order_payload(self.match_id, position, bytes.fromhex(head))
        if not verify(self.keys.get(orderer, b""), placing, entry["hs"]):
            raise Rejected(f"forged entry: the {entry['k']} was not placed here by the host")

    def _on_join(self, entry: dict[str, Any]) -> None:
        peer, key = entry["peer"], entry["key"]
        if peer_id(key) != peer:
            raise Rejected("join: the peer id is not its key's")
        if entry["nonce"] in self._nonces:
            raise Rejected("join: a replayed proof (this challenge was answered before)")
        wish = join_payload(
            self.match_id, self.keys[self.host], entry["nonce"], entry["name"], entry["role"],
            entry["seat"],
        )  # fmt: skip
        if not verify(key, wish, entry["proof"]):
            raise Rejected("join: the proof is not signed by the joining peer")
        member = self.members.get(peer)
        if member is not None:
            if member.present:
                raise Rejected(f"{member.name} is already connected")
            member.present, member.addr, member.name = True, entry["addr"], entry["name"]
            for seat in self.seats:
                if seat.owner == peer and seat.computer and self.phase == PLAYING:
                    seat.computer = ""  # the person takes the seat back from the computer
                    self.dice_group.add(peer)
            return
        role = entry["role"]
        if self.phase != LOBBY or (role == "player" and not self.free_seats()):
            role = "spectator"  # after the start, or with every seat taken, newcomers watch
        self.members[peer] = Member(peer, entry["name"], role, entry["addr"])
        if role == "player":
            free = [i for i, s in enumerate(self.seats) if s.human and s.owner is None]
            self.seats[entry["seat"] if entry["seat"] in free else free[0]].owner = peer

    def _on_leave(self, entry: dict[str, Any]) -> None:
        member = self.members[entry["peer"]]
        if not member.present:
            raise Rejected(f"{member.name} is not connected")
        member.present = False
        if self.phase == LOBBY:
            member.ready = False
            for seat in self.seats:
                if seat.owner == member.peer:
                    seat.owner = None

    def _on_host(self, entry: dict[str, Any]) -> None:
        peer = entry["peer"]
        member = self.members.get(peer)
        if member is None or member.role != "player":
            raise Rejected("a new host must be a player of the match")
        if peer == self.host:
            raise Rejected(f"{member.name} is the host already")
        voters = self._check_votes(entry)
        if not member.present and peer not in voters:
            raise Rejected("a new host must be a connected player of the match")
        electorate = self.voters()
        if 2 * len(voters) <= len(electorate):
            raise Rejected(
                f"a new host needs the votes of more than half of the match's people "
                f"({len(voters)} of {len(electorate)})"
            )
        for voter in voters - {self.host}:  # a vote signed here shows its voter is here,
            self.members[voter].present = True  # whatever ``leave`` the old host logged
        old = self.members[self.host]
        old.present = False
        if self.phase == LOBBY:
            for seat in self.seats:
                if seat.owner == old.peer:
                    seat.owner = None
        elif self.seat_of(old.peer) is None:
            self._leave_dice(old.peer)
        self.host = peer
        member.addr = entry["addr"]
        if self.phase == PLAYING and not self.dice_group:
            self.dice_group.add(peer)

    def voters(self) -> frozenset[str]:
        """The people a host change needs more than half of (see :attr:`electorate`)."""
        if self.phase != LOBBY:
            return self.electorate
        players = {m.peer for m in self.members.values() if m.role == "player" and m.present}
        return frozenset(players | {self.host})

    def _check_votes(self, entry: dict[str, Any]) -> set[str]:
        """The distinct voters of a ``host`` entry, each vote checked against its signer's
        key, the host it replaces and the entries it held."""
        electorate, counted = self.voters(), set()
        for voter, at, signature in entry["votes"]:
            if voter not in electorate or voter in counted:
                raise Rejected(f"host: {voter[:8]} has no vote here, or voted twice")
            if not 0 < at <= len(self.entries):
                raise Rejected(f"host: a vote holding {at} entries, more than this log")
            payload = vote_payload(self.match_id, self.host, entry["peer"], at, self.head_bytes(at))
            if not verify(self.keys[voter], payload, signature):
                raise Rejected(f"host: the vote of {voter[:8]} is forged or for another log")
            counted.add(voter)
        return counted

    def _on_seat(self, entry: dict[str, Any]) -> None:
        peer, wanted = entry["peer"], entry["seat"]
        member = self.members[peer]
        self._require(self.phase == LOBBY, "seats are chosen before the match starts")
        self._require(member.role == "player" and member.present, "spectators have no seat")
        if wanted >= len(self.seats):
            raise Rejected(f"this match has {len(self.seats)} seats")
        if wanted >= 0:
            seat = self.seats[wanted]
            if seat.computer:
                raise Rejected(f"seat {wanted + 1} is the computer's")
            if seat.owner not in (None, peer):
                raise Rejected(f"seat {wanted + 1} is taken by {self.members[seat.owner].name}")
        for seat in self.seats:
            if seat.owner == peer:
                seat.owner = None
        if wanted >= 0:
            self.seats[wanted].owner = peer
        member.ready = False

    def _on_ready(self, entry: dict[str, Any]) -> None:
        member = self.members[entry["peer"]]
        self._require(self.phase == LOBBY, "the match has already started")
        self._require(self.seat_of(member.peer) is not None, "take a seat before getting ready")
        member.ready = entry["ready"]

    def _on_coach(self, entry: dict[str, Any]) -> None:
        member = self.members[entry["peer"]]
        self._require(self.phase == LOBBY, "hints and odds are allowed or not before the start")
        self._require(self.seat_of(member.peer) is not None, "only a seated player says so")
        member.coach = entry["allow"]

    @property
    def coaching(self) -> bool:
        """Whether the match has hints and dice odds: every person seated allowed them."""
        owners = [s.owner for s in self.seats if s.human]
        return bool(owners) and all(
            o is not None and o in self.members and self.members[o].coach for o in owners
        )

    def _on_computer(self, entry: dict[str, Any]) -> None:
        peer, index, level = entry["peer"], entry["seat"], entry["level"]
        if index >= len(self.seats):
            raise Rejected(f"this match has {len(self.seats)} seats")
        seat = self.seats[index]
        if self.phase == LOBBY:
            self._require(peer == self.host, "only the host sets up computer seats")
            self._require(seat.owner is None, f"seat {index + 1} is taken by a person")
            seat.computer = level
            return
        self._require(self.phase == PLAYING, "the match is over")
        self._require(bool(level), "a seat given to the computer needs a level")
        self._require(self._plays(peer), "only a player of the match can hand over a seat")
        owner = seat.owner
        self._require(
            seat.human and owner is not None and not self.members[owner].present,
            f"seat {index + 1} is not waiting for a missing player",
        )
        seat.computer = level
        if all(s.computer for s in self.seats if s.owner == owner):
            self._leave_dice(owner)

    def _on_start(self, entry: dict[str, Any]) -> None:
        self._require(self.phase == LOBBY, "the match has already started")
        self._require(entry["peer"] == self.host, "only the host starts the match")
        problem = self.start_problem()
        if problem is not None:
            raise Rejected(problem)
        self.phase = PLAYING
        self.dice_group = {s.owner for s in self.seats if s.human and s.owner} | {self.host}
        self.electorate = frozenset(self.dice_group)

    def _on_commit(self, entry: dict[str, Any]) -> None:
        peer, first = entry["peer"], entry["first"]
        if self.phase == LOBBY:
            self._require(
                self._commits_early(peer), "only a seated player commits before the start"
            )
            self._require(peer not in self._commitments, "one commitment before the start")
        else:
            self._require(self.phase == PLAYING, "the match is over")
            self._require(peer in self.dice_group, "this peer does not take part in the dice")
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
        self._require(self.pending_event is not None, "no chance event is pending")
        if event != self.next_event:
            raise Rejected(f"the pending chance event is {self.next_event}, not {event}")
        self._require(peer in (self.event_group or ()), "this peer has no say in this event")
        self._require(peer not in self.reveals, "this peer has already revealed this event")
        self._require(
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

    def _on_act(self, entry: dict[str, Any]) -> None:
        peer, index, ply, text = entry["peer"], entry["seat"], entry["ply"], entry["a"]
        self._require(self.phase == PLAYING, "the match is not being played")
        if ply != self.ply:
            raise Rejected(f"out of sequence: ply {ply} sent, ply {self.ply} is next (a replay?)")
        self._require(not self.paused, "the match is paused")
        if index >= len(self.seats):
            raise Rejected(f"this match has {len(self.seats)} seats")
        state = self.state
        try:
            action = state.parse_action(text)
        except ActionError as error:
            if index != state.to_move:
                raise Rejected(f"out of turn: seat {index + 1} sent {text!r}") from error
            raise Rejected(str(error)) from error
        if action == AGREED_DRAW:
            raise Rejected("a draw is agreed by offers from every player, not played")
        resigning = resigning_seat(action)
        acting = resigning if resigning is not None else state.to_move
        if acting != index:
            raise Rejected(f"out of turn: seat {index + 1} sent {text!r}")
        if self.actor(index) != peer:
            raise Rejected(f"seat {index + 1} is not played by this peer")
        after = state.apply(action)
        mine = after.digest()
        if mine != entry["d"]:
            raise Rejected(
                f"digest mismatch after ply {ply} ({text}): sender {entry['d'][:12]}, "
                f"this peer {mine[:12]}"
            )
        self._advance(action, after)

    def _on_offer(self, entry: dict[str, Any]) -> None:
        self._require(self.phase == PLAYING, "the match is not being played")
        self._require(self.seat_of(entry["peer"]) is not None, "only players offer draws")
        self._require(self.state.variant.spec.agreed_draws, "this game has no draw by agreement")
        if entry["ply"] != self.ply:
            raise Rejected(f"out of sequence: offer at ply {entry['ply']}, ply {self.ply} is next")
        self._offers.add(entry["peer"])

    def _on_end(self, entry: dict[str, Any]) -> None:
        self._require(self.phase == PLAYING, "the match is not being played")
        self._require(self._plays(entry["peer"]), "only a player of the match can end it")
        self._require(self.paused, "a match is ended early only while it waits for a player")
        owing = [p for p in self.event_group or () if p not in self.reveals]
        self._require(
            not (self._all_committed() and any(self.members[p].present for p in owing)),
            "a player here still owes the pending chance event its reveal",
        )
        self.forfeit = tuple(self.waiting_for())
        self.phase, self.end_reason = ABANDONED, entry["reason"]

    # -- what follows by itself ----------------------------------------------------------

    def _settle(self) -> None:
        """Decide chance events whose reveals are all in, agreed draws, the end."""
        while self.phase == PLAYING:
            state = self.state
            if state.is_terminal():
                self.phase = OVER
            elif state.is_chance():
                if self.event_group is None:
                    # The event opens: who decides it is fixed now, before any value of it
                    # is shown, and nobody leaves it until it is decided.
                    present = {p for p in self.dice_group if self.members[p].present}
                    self.event_group = present or None
                if not self.event_group or not self.event_group <= set(self.reveals):
                    return
                self._roll()
            elif (
                self._offers
                and all(s.human and s.owner in self._offers for s in self.seats)
                and not self.paused
            ):
                self._advance(AGREED_DRAW, state.apply(AGREED_DRAW))
            else:
                return

    def _roll(self) -> None:
        peers = tuple(sorted(self.event_group or ()))
        reveals = tuple(self.reveals[p] for p in peers)
        state = self.state
        outcome = pick(combine(self.next_event, list(reveals)), state.chance_outcomes())
        self.rolls.append(Roll(self.next_event, peers, reveals, state.action_to_str(outcome)))
        self.next_event += 1
        self._advance(outcome, state.apply(outcome))

    def _advance(self, action: int, after: State) -> None:
        self.record = self.record.then(action)
        self.state = after
        self.event_group, self.reveals = None, {}
        self._offers.clear()

    def _leave_dice(self, peer: str) -> None:
        """``peer`` takes no part in chance events that open from now on (one already open
        still waits for its reveal: its value was fixed at its commitment)."""
        self.dice_group.discard(peer)

    # -- helpers -------------------------------------------------------------------------

    def chain_start(self, peer: str, event: int) -> int | None:
        """The first event of the chain of ``peer``'s that covers ``event``."""
        chain = self._commitment(peer, event)
        return None if chain is None else chain.first

    def _commitment(self, peer: str, event: int) -> _Commitment | None:
        for chain in reversed(self._commitments.get(peer, ())):
            if chain.first <= event:
                return chain if event < chain.first + self.chain_length else None
        return None

    def _plays(self, peer: str) -> bool:
        return peer == self.host or self.seat_of(peer) is not None

    @staticmethod
    def _require(condition: bool, reason: str) -> None:
        if not condition:
            raise Rejected(reason)


def entry_digest(previous: str, entry: dict[str, Any]) -> str:
    """The fingerprint of a log ending in ``entry`` whose earlier part had ``previous``:
    BLAKE2b over the previous one and the entry (without the host's placing signature,
    which signs this fingerprint) packed with its keys in order."""
    content = {k: v for k, v in entry.items() if k != "hs"}
    return digest(bytes.fromhex(previous) + packed(content))[:16].hex()


def signed(
    log: MatchLog | None, identity: Identity, entry: dict[str, Any], n: int
) -> dict[str, Any]:
    """``entry`` with its author's counter ``n``, the length of ``log`` (what the author has
    seen) and the author's signature: a request ready to send."""
    at = len(log) if log is not None else 0
    head = log.head_bytes(at) if log is not None else NO_HEAD
    match = log.match_id if log is not None else entry["id"]
    entry = {**entry, "n": n, "at": at}
    return {**entry, "sig": identity.sign(entry_payload(match, at, head, entry))}


def placed(log: MatchLog | None, identity: Identity, entry: dict[str, Any]) -> dict[str, Any]:
    """``entry`` with the host's signature placing it next in ``log``."""
    position = len(log) if log is not None else 0
    previous = log.heads[-1] if log is not None else ""
    match = log.match_id if log is not None else entry["id"]
    head = bytes.fromhex(entry_digest(previous, entry))
    return {**entry, "hs": identity.sign(order_payload(match, position, head))}


def _checked(entry: object) -> dict[str, Any]:
    if not isinstance(entry, dict):
        raise Rejected("an entry is a map")
    try:
        return validate_entry(entry)
    except MessageError as error:
        raise Rejected(str(error)) from error


def replay(entries: list[dict[str, Any]], version: int = PROTOCOL_VERSION) -> MatchLog:
    """The log made of ``entries`` under the rules of protocol ``version``; raises
    :class:`Rejected` naming the first bad one."""
    if not entries:
        raise Rejected("the record has no entries")
    log = MatchLog(entries[0], version)
    for number, entry in enumerate(entries[1:], 2):
        try:
            log.apply(entry)
        except Rejected as error:
            kind = entry.get("k") if isinstance(entry, dict) else None
            raise Rejected(f"entry {number} ({kind}): {error.reason}") from error
    return log
