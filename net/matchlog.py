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

The rules live in three modules, one class: this one keeps the log (authentication,
membership, seats, the election of a new host, moves, draws, the end), :mod:`net.logdice`
the dice's rules (:class:`~net.logdice.DiceRules`, which :class:`MatchLog` is made with),
and :mod:`net.entries` what writing an entry takes (its shape, digest and signatures, the
phases, :class:`Rejected`), which the peers use without a log's rules.

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

from dataclasses import dataclass
from typing import Any

from game.rules import AGREED_DRAW, ActionError, MatchRecord, RulesError, State
from game.rules.core import resigning_seat
from game.rules.fen import FenError, setup_of
from game.rules.registry import VARIANTS
from game.rules.variants import Variant, variant_from_fields
from net.entries import (
    ABANDONED,
    LOBBY,
    OVER,
    PLAYING,
    Rejected,
    checked,
    entry_digest,
    placed,
    require,
    signed,
)
from net.identity import Identity, peer_id, verify
from net.logdice import DiceRules
from net.messages import PROTOCOL_VERSION
from net.signing import NO_HEAD, entry_payload, join_payload, order_payload, vote_payload

__all__ = [  # what other modules import from here, some of it made in net.entries
    "ABANDONED",
    "LOBBY",
    "OVER",
    "PLAYING",
    "MatchLog",
    "Rejected",
    "entry_digest",
    "placed",
    "replay",
    "signed",
]

HOST_MADE = frozenset({"match", "join", "leave"})
"""Kinds only the host makes (``join`` and ``leave`` are about another peer)."""


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


def _start_position(chosen: Variant, opening: dict[str, Any]) -> str | None:
    """The set-up start of a match entry (None: the game's own start), checked: a position
    of the game, written as a record writes it (one position, one FEN, so the heads of two
    logs of one match agree), not the game's own start (the field is left out for that),
    not a game already over."""
    fen = opening.get("start")
    if fen is None:
        return None
    try:
        setup = setup_of(chosen, fen)
    except FenError as error:
        why = f"the start position is no position of {chosen.name}: {error.reason}"
        raise Rejected(why) from error
    if setup is None:
        raise Rejected("the start position is the game's own: the field is left out for it")
    require(setup == fen, f"the start position {fen!r} is not written as a record writes it")
    over = MatchRecord(chosen, (), setup).initial_state().is_terminal()
    require(not over, f"the game is already over in the start position {fen!r}")
    return setup


class MatchLog(DiceRules):
    """One match's log, applied entry by entry: the pure state machine every peer runs."""

    def __init__(self, opening: dict[str, Any], version: int = PROTOCOL_VERSION) -> None:
        self.version = version
        """The protocol version whose rules this log applies (a record says which)."""
        self.doubts: list[str] = []
        """In a log of an earlier version: what the current rules would have refused, each
        naming its entry (``python -m net verify`` reports them)."""
        entry = checked(opening)
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
        self.record = MatchRecord(self.variant, (), _start_position(self.variant, entry))
        self.state: State = self.record.initial_state()
        self._start_dice()
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
        self._apply(checked(entry), check_author=True, check_placing=True)

    def place(self, entry: dict[str, Any], host: Identity, *, own: bool = False) -> dict[str, Any]:
        """As the host holding ``host``: sign the placing of ``entry`` next in this log and
        apply it; returns the placed entry.  The placing signature is made here, so it is
        not checked again, nor the author's for an ``own`` entry the host has just signed:
        each check costs about 45 µs on the way of every relayed entry."""
        entry = checked(placed(self, host, entry))
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
        require(self.phase == LOBBY, "seats are chosen before the match starts")
        require(member.role == "player" and member.present, "spectators have no seat")
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
        require(self.phase == LOBBY, "the match has already started")
        require(self.seat_of(member.peer) is not None, "take a seat before getting ready")
        member.ready = entry["ready"]

    def _on_coach(self, entry: dict[str, Any]) -> None:
        member = self.members[entry["peer"]]
        require(self.phase == LOBBY, "hints and odds are allowed or not before the start")
        require(self.seat_of(member.peer) is not None, "only a seated player says so")
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
            require(peer == self.host, "only the host sets up computer seats")
            require(seat.owner is None, f"seat {index + 1} is taken by a person")
            seat.computer = level
            return
        require(self.phase == PLAYING, "the match is over")
        require(bool(level), "a seat given to the computer needs a level")
        require(self._plays(peer), "only a player of the match can hand over a seat")
        owner = seat.owner
        require(
            seat.human and owner is not None and not self.members[owner].present,
            f"seat {index + 1} is not waiting for a missing player",
        )
        seat.computer = level
        if all(s.computer for s in self.seats if s.owner == owner):
            self._leave_dice(owner)

    def _on_start(self, entry: dict[str, Any]) -> None:
        require(self.phase == LOBBY, "the match has already started")
        require(entry["peer"] == self.host, "only the host starts the match")
        problem = self.start_problem()
        if problem is not None:
            raise Rejected(problem)
        self.phase = PLAYING
        self.dice_group = {s.owner for s in self.seats if s.human and s.owner} | {self.host}
        self.electorate = frozenset(self.dice_group)

    def _on_act(self, entry: dict[str, Any]) -> None:
        peer, index, ply, text = entry["peer"], entry["seat"], entry["ply"], entry["a"]
        require(self.phase == PLAYING, "the match is not being played")
        if ply != self.ply:
            raise Rejected(f"out of sequence: ply {ply} sent, ply {self.ply} is next (a replay?)")
        require(not self.paused, "the match is paused")
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
        require(self.phase == PLAYING, "the match is not being played")
        require(self.seat_of(entry["peer"]) is not None, "only players offer draws")
        require(self.state.variant.spec.agreed_draws, "this game has no draw by agreement")
        if entry["ply"] != self.ply:
            raise Rejected(f"out of sequence: offer at ply {entry['ply']}, ply {self.ply} is next")
        self._offers.add(entry["peer"])

    def _on_end(self, entry: dict[str, Any]) -> None:
        require(self.phase == PLAYING, "the match is not being played")
        require(self._plays(entry["peer"]), "only a player of the match can end it")
        require(self.paused, "a match is ended early only while it waits for a player")
        owing = [p for p in self.event_group or () if p not in self.reveals]
        require(
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

    def _advance(self, action: int, after: State) -> None:
        self.record = self.record.then(action)
        self.state = after
        self.event_group, self.reveals = None, {}
        self._offers.clear()

    # -- helpers -------------------------------------------------------------------------

    def _plays(self, peer: str) -> bool:
        return peer == self.host or self.seat_of(peer) is not None


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
