"""A host that chooses the dice (issue 28), played in process against honest guests.

Each guest keeps its own :class:`~net.matchlog.MatchLog` and :class:`~net.agent.Agent` and
signs every request from its own view of the log, as a real peer does; the host receives
the requests and decides what it places, and when — the one power a host has over the log.
The host here uses that power to *grind* its dice: it holds every guest's reveal of a chance
event, tries values of its own until the event's outcome is the one it wishes (its own die
a 5, a guest's a 1, itself to begin), and slips a fresh commitment to that value into the
log — before the move that opens the event, before the guests' reveals, or after them —
then places the guests' reveals and its own.

Every trick is offered to every log (the host's own included, as a host running these
rules would find): one refused by them all is dropped, and the host plays that event
honestly, as a host would that wants its match to go on.  What it wins is then what the
rules leave it.  A log that accepted what another refused would be a split between peers
running the same code: it is raised at once.

Both seats play the same random policy and the lot is drawn as any event, so an honest
match is won by either seat with probability 1/2 exactly (by symmetry).

The tricks: a fresh commitment to a ground value placed before the move that opens an event
(:data:`BEFORE_THE_ACT`), before the guests' reveals (:data:`BEFORE_THE_REVEALS`) or after
them (:data:`AFTER_THE_REVEALS`) — each replaces the host's chain over the event, a
re-commit —, and a chain let run out so as to commit only once the event at its end is open
(:data:`LATE`), ground against whatever values of the others the host holds by then.
Throughout, the host reveals last: it withholds its own value until it holds every other,
and the guests' until it has tried its tricks.

``signatures=False`` plays the same match for a fraction of the time (the statistical test's
hundreds of matches): the entries carry blank signatures and the logs
(:class:`UncheckedSignatures`) take them on trust — nobody here forges an entry: every
trick is the host's own — while every other rule judges every entry as ever; and a trick
every guest's log refused is not offered to the host's own, the same rules on the same log.
The signed matches check the signatures.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from game.rules import Result, RulesError, State, variant
from net.agent import Agent, Turn
from net.fairdice import DiceError, HashChain, combine, pick
from net.identity import Identity
from net.matchlog import LOBBY, PLAYING, MatchLog, Rejected, placed, signed
from net.messages import PROTOCOL_VERSION
from net.signing import join_payload

Wish = Callable[[State, int], "str | None"]
"""The outcome a host seated at ``seat`` wishes a chance node to have (None: any)."""
TRIES = 256
"""Values the host tries for one event before it takes what comes."""
BATCH = 8
"""Values tried from one chain's windows (:func:`grind`)."""
BEFORE_THE_ACT, BEFORE_THE_REVEALS, AFTER_THE_REVEALS, LATE = (
    "before the act",
    "before the reveals",
    "after the reveals",
    "late",
)
TRICKS = (BEFORE_THE_ACT, BEFORE_THE_REVEALS, AFTER_THE_REVEALS, LATE)


class UncheckedSignatures(MatchLog):
    """:class:`MatchLog` taking the Ed25519 signatures of the entries on trust: an entry is
    taken for its named author's, and every other rule — after how many entries it was
    made, its counter, everything it says, a join's proof — judges it as ever.  For the
    grinding host's matches, where nobody forges an entry: each trick is the host's own."""

    def _authenticate(
        self, entry: dict[str, Any], head: str, check_author: bool, check_placing: bool
    ) -> None:
        super()._authenticate(entry, head, check_author=False, check_placing=False)


class Blank(Identity):
    """An identity whose entry signatures are blank (for :class:`UncheckedSignatures`)."""

    def sign(self, message: bytes) -> bytes:
        return bytes(64)


def numeri_wish(state: State, seat: int) -> str | None:
    """Numeri: the host begins, throws 5 and lets every other seat throw 1."""
    texts = {state.action_to_str(a) for a, _ in state.chance_outcomes()}
    roller = state.roller
    wanted = f"first{seat + 1}" if roller is None else "d5" if roller == seat else "d1"
    return wanted if wanted in texts else None


def grind(
    state: State,
    event: int,
    others: dict[str, bytes],
    me: str,
    wanted: str,
    rng: random.Random,
    length: int,
) -> Window | None:
    """A fresh chain from ``event`` on whose value for it, with the others' values, gives
    ``state`` the outcome ``wanted``; None if :data:`TRIES` tries find none.

    The chains tried are the windows of longer chains, :data:`BATCH` windows each — the
    window at ``offset`` commits to its value ``offset`` and reveals ``offset + 1`` first —
    so a try costs about one hash instead of a chain's ``length``."""
    outcomes = state.chance_outcomes()
    order = sorted([*others, me])
    for _ in range(TRIES // BATCH):
        run = HashChain(seed=rng.randbytes(32), length=length + BATCH)
        for offset in range(BATCH):
            values = {**others, me: run.values[offset + 1]}
            outcome = pick(combine(event, [values[p] for p in order]), outcomes)
            if state.action_to_str(outcome) == wanted:
                return Window(run, offset, length)
    return None


@dataclass(frozen=True)
class Window:
    """``length`` values of a longer chain from ``offset`` on: a chain of its own, whose
    commitment is the run's value ``offset`` and whose value for event k its ``offset + k``."""

    run: HashChain
    offset: int
    length: int

    @property
    def commitment(self) -> bytes:
        return self.run.values[self.offset]

    def reveal(self, event: int) -> bytes:
        """The value for chance event ``event`` (from 1) of this chain."""
        if not 1 <= event <= self.length:
            raise DiceError(f"this chain covers events 1 to {self.length}, not {event}")
        return self.run.values[self.offset + event]


def random_move(state: State, rng: random.Random) -> str:
    return state.action_to_str(rng.choice(state.legal_actions()))


@dataclass
class Played:
    """How one match went."""

    host_seat: int
    result: Result | None = None
    """The game's result; None when the match could not go on (:attr:`stalled`)."""
    stalled: str = ""
    tried: dict[str, int] = field(default_factory=dict)
    """Tricks offered to the logs, by where they went in."""
    accepted: dict[str, int] = field(default_factory=dict)
    """Tricks every log accepted, by where they went in."""
    refusals: list[str] = field(default_factory=list)
    """Why the logs refused the tricks (and any request of a guest's)."""
    late: int = 0
    """Commitments the host made only once their first event was open (:data:`LATE`)."""
    rolls: list[str] = field(default_factory=list)
    entries: list[dict[str, Any]] = field(default_factory=list)

    @property
    def host_score(self) -> float:
        """1 for a host win, ½ for a draw, 0 for a loss or a match that stalled."""
        if self.result is None:
            return 0.0
        winners = self.result.winners()
        if not winners:
            return 0.5
        return 1.0 / len(winners) if self.host_seat in winners else 0.0


class Guest:
    """An honest guest: its own log, its own agent, requests signed from its own view."""

    def __init__(
        self,
        identity: Identity,
        opening: dict[str, Any],
        rng: random.Random,
        version: int,
        signatures: bool = True,
    ) -> None:
        self.identity = identity
        self.signer = identity if signatures else Blank(identity.secret)
        self.log = (MatchLog if signatures else UncheckedSignatures)(dict(opening), version)
        self.agent = Agent(identity)
        self.rng = rng
        self._n = 0
        self._decided: set[Turn] = set()
        self._readied = False

    @property
    def peer(self) -> str:
        return self.identity.peer

    def sign(self, entry: dict[str, Any]) -> dict[str, Any]:
        self._n = max(self._n, self.log.next_n(self.peer) - 1) + 1
        return signed(self.log, self.signer, {**entry, "peer": self.peer}, self._n)

    def requests(self) -> list[dict[str, Any]]:
        """What this guest sends now, as :class:`net.peer.Peer` would: the dice it owes, its
        ``ready`` in the lobby, its move, and the reveal right behind a move that opens an
        event."""
        log = self.log
        out = [self.sign(r) for r in self.agent.dice_requests(log)]
        if log.phase == LOBBY and log.seat_of(self.peer) is not None and not self._readied:
            self._readied = True
            out.append(self.sign({"k": "ready", "ready": True}))
        turn = self.agent.turn(log)
        if turn is not None and turn not in self._decided:
            self._decided.add(turn)
            state = log.state
            text = random_move(state, self.rng)
            after = state.apply(state.parse_action(text))
            act = {"k": "act", "seat": turn.seat, "ply": turn.ply, "a": text, "d": after.digest()}
            out.append(self.sign(act))
            out += [self.sign(r) for r in self.agent.reveal_ahead(log, after)]
        return out

    def rejected(self, entry: dict[str, Any]) -> None:
        """The host's ``reject`` of ``entry``, as the peer takes it."""
        if entry["k"] == "reveal":
            self.agent.forget_reveals()
        elif entry["k"] == "act":
            self._decided = {t for t in self._decided if t.ply != entry["ply"]}


class GrindingHost:
    """The host of one match, cheating when ``cheat`` (else an honest host)."""

    def __init__(
        self,
        rng: random.Random,
        game: str = "numeri",
        players: int = 2,
        chain: int = 32,
        cheat: bool = True,
        wish: Wish = numeri_wish,
        tricks: tuple[str, ...] = TRICKS,
        version: int = PROTOCOL_VERSION,
        signatures: bool = True,
    ) -> None:
        """``version``: the protocol version whose log rules every peer runs (2: before the
        dice were frozen when a die opens); ``signatures``: whether the entries are signed
        and their signatures checked (see the module's docstring)."""
        self.rng = rng
        self.cheat = cheat
        self.wish = wish
        self.tricks = tricks
        self.signatures = signatures
        self.setup = variant(game, players)
        self.identity = Identity(rng.randbytes(32))
        self.signer = self.identity if signatures else Blank(self.identity.secret)
        self.agent = Agent(self.identity)
        opening = {
            "k": "match",
            "id": rng.randbytes(16).hex(),
            "setup": self.setup.to_fields(),
            "seats": [""] * players,
            "code": False,
            "host": self.me,
            "name": "grinder",
            "chain": chain,
            "key": self.identity.key,
        }
        opening = placed(None, self.signer, signed(None, self.signer, opening, 1))
        self.log = (MatchLog if signatures else UncheckedSignatures)(dict(opening), version)
        self.guests = [
            Guest(Identity(rng.randbytes(32)), opening, rng, version, signatures)
            for _ in range(players - 1)
        ]
        self.played = Played(host_seat=0)
        self._n = 1
        self._own_chains: dict[int, Window] = {}
        """The fresh chains this host slipped into the log, by their first event."""
        self._ground: set[int] = set()
        """Events decided by a fresh chain of the host's."""
        self._held: dict[int, dict[str, tuple[Guest, dict[str, Any]]]] = {}
        """The guests' reveals the host holds back, by event and guest."""
        self._revealed: set[int] = set()
        self._late: set[int] = set()
        """Events the host committed from only once they were open."""
        self._decided: set[Turn] = set()

    @property
    def me(self) -> str:
        return self.identity.peer

    @property
    def logs(self) -> list[MatchLog]:
        return [self.log, *(g.log for g in self.guests)]

    # -- placing -------------------------------------------------------------------------

    def _sign(self, entry: dict[str, Any]) -> dict[str, Any]:
        self._n = max(self._n, self.log.next_n(self.me) - 1) + 1
        return signed(self.log, self.signer, entry, self._n)

    def offer(self, made: dict[str, Any], own: bool = False, trick: bool = False) -> str | None:
        """Place the signed ``made`` (the host's ``own`` entry, or a guest's) in every log;
        None if all took it, else the reason all gave for refusing it (a split between the
        logs raises).  A ``trick`` every guest refused is not offered to the host's own log
        when the signatures are not checked (see the module's docstring)."""
        sealed = placed(self.log, self.signer, made)
        reasons: list[str | None] = []
        for log in [*(g.log for g in self.guests), self.log]:
            if log is self.log and trick and not self.signatures and all(reasons):
                break  # every guest's log refused it
            try:
                if log is self.log:  # as a host places: the signatures it made unchecked
                    log.place(dict(made), self.signer, own=own)
                else:
                    log.apply(dict(sealed))
            except Rejected as error:
                reasons.append(error.reason)
            else:
                reasons.append(None)
        if len({r is None for r in reasons}) > 1:
            raise AssertionError(f"the logs disagree about a {made['k']}: {reasons}")
        return reasons[0]

    def _own(self, entry: dict[str, Any], trick: bool = False) -> str | None:
        return self.offer(self._sign({"peer": self.me, **entry}), own=True, trick=trick)

    def _relay(self, guest: Guest, request: dict[str, Any]) -> bool:
        reason = self.offer(request)
        if reason is not None:
            self.played.refusals.append(f"{request['k']} of a guest: {reason}")
            guest.rejected(request)
        return reason is None

    # -- the match -----------------------------------------------------------------------

    def play(self, most: int = 20_000) -> Played:
        """Play the match to its end, or until nothing more can be placed."""
        self._lobby()
        idle = 0
        for _ in range(most):
            if self.log.phase != PLAYING:
                break
            length = len(self.log)
            self._round()
            idle = idle + 1 if len(self.log) == length else 0
            if idle >= 3:
                self.played.stalled = (
                    f"nothing placed for three rounds at entry {len(self.log)}, "
                    f"event {self.log.next_event}"
                )
                break
        if self.log.phase != PLAYING and self.log.state.is_terminal():
            self.played.result = self.log.state.result()
        self.played.rolls = [roll.outcome for roll in self.log.rolls]
        self.played.entries = list(self.log.entries)
        return self.played

    def _lobby(self) -> None:
        joining = [self.identity, *(g.identity for g in self.guests)]
        for seat, identity in enumerate(joining):
            nonce = self.rng.randbytes(32)
            name = f"p{seat + 1}"
            proof = identity.sign(
                join_payload(self.log.match_id, self.identity.key, nonce, name, "player", seat)
            )
            entry = {
                "k": "join", "peer": identity.peer, "key": identity.key, "name": name,
                "role": "player", "seat": seat, "addr": "", "nonce": nonce, "proof": proof,
            }  # fmt: skip
            assert self._own(entry) is None
        for _ in range(10):
            self._own_dice()
            for guest in self.guests:
                for request in guest.requests():
                    self._relay(guest, request)
            if self.log.start_problem() is None:
                break
        assert self._own({"k": "start"}) is None

    def _round(self) -> None:
        self._own_dice()
        self._own_move()
        inbox = [(g, r) for g in self.guests for r in g.requests()]
        for index, (guest, request) in enumerate(inbox):
            if self.cheat and request["k"] == "act":
                ahead = [
                    r
                    for g, r in inbox[index + 1 :]
                    if g is guest and r["k"] == "reveal" and r["event"] == self.log.next_event
                ]
                if ahead:
                    self._trick_before_the_act(guest, request, ahead[0])
            if self.cheat and request["k"] == "reveal" and request["event"] not in self._revealed:
                self._held.setdefault(request["event"], {})[guest.peer] = (guest, request)
                continue
            self._relay(guest, request)
        self._decide_held()

    def _own_dice(self) -> None:
        log = self.log
        if self.cheat and LATE in self.tricks:
            self._commit_late()
        else:
            for request in self.agent.dice_requests(log):
                if request["k"] == "commit" or not self.cheat:
                    self._own(request)
        # a cheating host reveals only once it holds every other value (below)
        if self.cheat and log.pending_event is not None:
            event = log.pending_event
            others = (log.event_group or set()) - {self.me}
            if self.me in (log.event_group or ()) and others <= set(log.reveals):
                self._reveal_own(event)  # the others' values are in: nothing left to choose

    def _own_move(self) -> None:
        turn = self.agent.turn(self.log)
        if turn is None or turn in self._decided:
            return
        self._decided.add(turn)
        state = self.log.state
        text = random_move(state, self.rng)
        after = state.apply(state.parse_action(text))
        act = {"k": "act", "seat": turn.seat, "ply": turn.ply, "a": text, "d": after.digest()}
        assert self._own(act) is None
        if not self.cheat:
            for request in self.agent.reveal_ahead(self.log, after):
                self._own(request)

    # -- the tricks ----------------------------------------------------------------------

    def _try(self, where: str, state: State, event: int, others: dict[str, bytes]) -> bool:
        """Grind a value for ``event`` and offer a commitment to it; whether it went in."""
        if where not in self.tricks or event in self._ground:
            return False
        wanted = self.wish(state, self.played.host_seat)
        if wanted is None:
            return False
        chain = grind(state, event, others, self.me, wanted, self.rng, self.log.chain_length)
        if chain is None:
            return False
        self.played.tried[where] = self.played.tried.get(where, 0) + 1
        reason = self._own({"k": "commit", "first": event, "c": chain.commitment}, trick=True)
        if reason is not None:
            self.played.refusals.append(f"commit {where}: {reason}")
            return False
        self.played.accepted[where] = self.played.accepted.get(where, 0) + 1
        self._own_chains[event] = chain
        self._ground.add(event)
        return True

    def _trick_before_the_act(
        self, guest: Guest, act: dict[str, Any], reveal: dict[str, Any]
    ) -> None:
        """The guest's move opens an event and its reveal came right behind it: the host
        knows the guest's value before the event is even open."""
        state = self.log.state
        try:
            after = state.apply(state.parse_action(act["a"]))
        except RulesError:  # a move the log will refuse anyway
            return
        if not after.is_chance() or len(self.guests) != 1:
            return  # the one other value must be in hand
        self._try(BEFORE_THE_ACT, after, reveal["event"], {guest.peer: reveal["v"]})

    def _commit_late(self) -> None:
        """Commit only once the event the commitment is due from is open: to a value ground
        against the others' values for it if the host holds them all (an honest guest
        shows none before every peer of the event is committed), else to its own chain."""
        log = self.log
        first = log.commit_due(self.me)
        if first is None or first != log.pending_event or first in self._late:
            return
        self._late.add(first)
        self.played.late += 1
        others = (log.event_group or set()) - {self.me}
        values = {p: r["v"] for p, (_, r) in self._held.get(first, {}).items() if p in others}
        values |= {p: v for p, v in log.reveals.items() if p in others}
        if others <= set(values) and self._try(LATE, log.state, first, values):
            return
        chain = self.identity.chain(log.match_id, first, log.chain_length)
        self._own({"k": "commit", "first": first, "c": chain.commitment})

    def _decide_held(self) -> None:
        log = self.log
        event = log.pending_event
        if event is None or event in self._revealed:
            return
        held = self._held.get(event, {})
        group = log.event_group or set()
        others = group - {self.me}
        if not others <= set(held) | set(log.reveals):
            return  # not every other value is in hand yet
        values = {p: r["v"] for p, (_, r) in held.items() if p in others}
        values |= {p: v for p, v in log.reveals.items() if p in others}
        if self.me in group:
            self._try(BEFORE_THE_REVEALS, log.state, event, values)
        for peer in sorted(held):
            guest, request = held.pop(peer)
            self._relay(guest, request)
        if self.me in group and others <= set(log.reveals) and event == log.pending_event:
            self._try(AFTER_THE_REVEALS, log.state, event, values)
            self._reveal_own(event)

    def _reveal_own(self, event: int) -> None:
        if event in self._revealed:
            return
        log = self.log
        start = log.chain_start(self.me, event)
        if start is None:
            return
        chain = self._own_chains.get(start) or self.identity.chain(
            log.match_id, start, log.chain_length
        )
        reason = self._own({"k": "reveal", "event": event, "v": chain.reveal(event - start + 1)})
        if reason is None:
            self._revealed.add(event)
        else:
            self.played.refusals.append(f"own reveal: {reason}")


def tournament(matches: int, seed: int, **options: Any) -> list[Played]:
    """``matches`` independent matches, each with fresh identities drawn from ``seed``."""
    rng = random.Random(seed)
    return [
        GrindingHost(random.Random(rng.randbytes(16)), **options).play() for _ in range(matches)
    ]
