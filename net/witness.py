"""Members witness each other's heads, so a host that shows two of them two logs is caught.

Every placed entry carries the host's signature ``hs`` of *order*(match, position, head)
(docs/PROTOCOL.md §5.2): a signed head is self-authenticating.  Two different heads at one
position, both signed by the key that placed that position, in the same **reign** — after
the same latest ``host`` entry — are a proof that the host forked the match: an honest host
signs one head per position while it reigns.  (Across a take-over the heads at a position
may differ legitimately: the deposed host's entries placed after the others moved on are
dropped, §6.5.  They lie in another reign, and are never taken for a fork.)

Each member sends every other member of its log its latest signed head in a
``heads`` datagram — on each new entry (coalesced) and every :data:`EVERY` seconds — on UDP
to the port number of the member's listening socket (§6.7 says why UDP).  A receiver
compares each with its own log (:func:`judge`, pure); a head at a position it does not
hold yet waits until the entry arrives.  Nothing in a datagram is trusted beyond the host's
signature: an outsider can send one, and it proves something only if the host signed it.
Once a fork is found, the two heads are what the member sends from then on, so every other
member checks them against its own log and stops too.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import msgpack

from net.framing import FrameError, decode_body
from net.gate import address_key
from net.identity import fingerprint, verify
from net.matchlog import MatchLog
from net.messages import MessageError, validate
from net.signing import order_payload

EVERY = 0.5
"""Seconds between two sends of this member's latest head to every other member."""
SOON = 0.1
"""Seconds a new entry waits for others before its head is sent: a burst sends one, and a
member sends at most ten a second however fast the match goes (36 people on one computer
exchange some 12,000 datagrams a second at that rate, each decoded and compared)."""
MAX_DATAGRAM = 512
"""Bytes at most in a ``heads`` datagram (one is about 180); longer ones are dropped unread."""
RATE, BURST = 400.0, 800.0
"""Datagrams per second, and in a burst, taken from one address (:func:`net.gate.address_key`):
35 members on one computer sending two a second and one per entry fit; a flood costs the
receiver a decode each, and a signature check only for a head of its own reign."""
MAX_SOURCES = 256
"""Senders (address and port) whose rate and waiting heads are tracked; the oldest go."""
WAITING_PER_SOURCE = 4
"""Heads kept per sender for positions this member does not hold yet (its latest ones)."""


@dataclass(frozen=True)
class Head:
    """A signed head as a member holds it: position, head, the placing host's signature,
    and the reign it lies in — the position and head of the latest ``host`` entry at or
    before it (0 and the match entry's head when there is none)."""

    seq: int
    head: str
    hs: bytes
    since: int
    root: str

    def message(self, match: str) -> dict[str, Any]:
        return {
            "t": "heads", "match": match, "seq": self.seq, "head": self.head, "hs": self.hs,
            "since": self.since, "root": self.root,
        }  # fmt: skip

    @classmethod
    def of(cls, message: dict[str, Any]) -> Head:
        return cls(message["seq"], message["head"], message["hs"], message["since"],
                   message["root"])  # fmt: skip


@dataclass(frozen=True)
class Fork:
    """The proof that ``key`` placed two different logs at position ``seq`` of ``match``:
    ``ours`` is the head this member's log holds there, ``theirs`` another member's."""

    match: str
    seq: int
    key: bytes
    ours: Head
    theirs: Head

    @property
    def reason(self) -> str:
        return (
            f"the host showed another player a different match at entry {self.seq + 1}: "
            "the match is stopped, it cannot be trusted (both records hold the proof)"
        )

    def event(self) -> dict[str, Any]:
        """What the observer is told (``observe("fork", …)``)."""
        return {
            "entry": self.seq + 1, "key": fingerprint(self.key), "ours": self.ours.head,
            "theirs": self.theirs.head, "text": self.reason,
        }  # fmt: skip

    def to_record(self) -> dict[str, Any]:
        """The proof as a match record keeps it (:func:`net.records.save`)."""
        return {
            "match": self.match, "seq": self.seq, "key": self.key,
            "heads": [self.ours.head, self.theirs.head], "hs": [self.ours.hs, self.theirs.hs],
        }  # fmt: skip


def reign(log: MatchLog, seq: int) -> tuple[int, str]:
    """The position of the latest ``host`` entry at or before ``seq`` (0: none, the match
    entry) and the peer that placed ``seq``: the host of that reign."""
    for position in range(seq, 0, -1):
        entry = log.entries[position]
        if entry["k"] == "host":
            return position, str(entry["peer"])
    return 0, str(log.entries[0]["host"])


def head_at(log: MatchLog, seq: int) -> Head:
    """This log's own signed head at ``seq``."""
    since, _ = reign(log, seq)
    return Head(seq, log.heads[seq], log.entries[seq]["hs"], since, log.heads[since])


def judge(log: MatchLog, seen: Head) -> Fork | None:
    """The fork ``seen`` proves against ``log`` (which holds position ``seen.seq``), or None:
    the same head, another reign (a take-over's branch, or a lie), or a signature that is
    not the placing host's (a forgery, or another match)."""
    if seen.seq >= len(log) or seen.since > seen.seq or seen.head == log.heads[seen.seq]:
        return None
    since, placer = reign(log, seen.seq)
    if (seen.since, seen.root) != (since, log.heads[since]):
        return None
    key = log.keys.get(placer, b"")
    if not verify(key, order_payload(log.match_id, seen.seq, bytes.fromhex(seen.head)), seen.hs):
        return None
    return Fork(log.match_id, seen.seq, key, head_at(log, seen.seq), seen)


def check_proof(proof: dict[str, Any]) -> str | None:
    """Why a fork proof kept in a record does not hold, or None when it does: two different
    heads at one position of the match, both signed by its key."""
    try:
        match, seq, key = proof["match"], proof["seq"], proof["key"]
        heads, signatures = proof["heads"], proof["hs"]
        if len(heads) != 2 or len(signatures) != 2 or heads[0] == heads[1]:
            return "a fork proof holds two different heads"
        for head, signature in zip(heads, signatures, strict=True):
            if not verify(key, order_payload(match, seq, bytes.fromhex(head)), signature):
                return f"the head {head} is not signed by the key the proof names"
    except (KeyError, TypeError, ValueError, AttributeError, OverflowError):
        return "the fork proof is malformed"  # a position that is no number: "x", -1, 1.5
    return None


_grouped = functools.lru_cache(maxsize=1024)(address_key)
"""Whom an address belongs to (:func:`net.gate.address_key`), remembered: parsing it costs
more than the rest of a datagram's way."""


class _Receiver(asyncio.DatagramProtocol):
    def __init__(self, witness: Witness) -> None:
        self.witness = witness

    def datagram_received(self, data: bytes, addr: tuple[str | Any, int]) -> None:
        self.witness.received(data, (str(addr[0]), int(addr[1])))

    def error_received(self, exc: Exception) -> None:
        pass  # a member not listening (ICMP unreachable): the next send tries again


class Witness:
    """One member's side of the witnessing: sends its heads, judges the others'.

    ``log`` gives the member's log of the moment (a rebase replaces it), ``me`` is its peer
    id, ``on_fork`` is called once with the first proof found."""

    def __init__(
        self,
        me: str,
        log: Callable[[], MatchLog | None],
        on_fork: Callable[[Fork], None],
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._me, self._log, self._on_fork, self._clock = me, log, on_fork, clock
        self.proof: Fork | None = None
        self._transport: asyncio.DatagramTransport | None = None
        self._soon: asyncio.TimerHandle | None = None
        self._task: asyncio.Task[None] | None = None
        self._sources: OrderedDict[tuple[str, int], list[Head]] = OrderedDict()
        """Heads waiting for their entry, by sender (the latest few of each)."""
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()
        """Tokens left and when, by address."""

    async def start(self, bind: str, port: int) -> None:
        """Listen for heads on UDP ``port`` (the listening socket's number) and send every
        :data:`EVERY` seconds; if that port is taken, send only (and say nothing: the
        others still check this member's heads, and it the host's relayed entries)."""
        loop = asyncio.get_running_loop()
        try:
            transport, _ = await loop.create_datagram_endpoint(
                lambda: _Receiver(self), local_addr=(bind, port)
            )
        except OSError:
            transport, _ = await loop.create_datagram_endpoint(
                lambda: _Receiver(self), local_addr=(bind, 0)
            )
        self._transport = transport
        self._task = loop.create_task(self._every())

    def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
        if self._soon is not None:
            self._soon.cancel()
        if self._transport is not None:
            self._transport.close()

    def changed(self) -> None:
        """The log grew: check the heads that waited for it, and send the new head soon."""
        log = self._log()
        if log is None or self.proof is not None:
            return
        for source, heads in list(self._sources.items()):
            ready = [h for h in heads if h.seq < len(log)]
            if ready:
                self._sources[source] = [h for h in heads if h.seq >= len(log)]
                for head in ready:
                    self._judge(log, head)
        if self._soon is None and self._transport is not None:
            self._soon = asyncio.get_running_loop().call_later(SOON, self._send_soon)

    def _send_soon(self) -> None:
        self._soon = None
        self.send()

    async def _every(self) -> None:
        while True:
            self.send()
            await asyncio.sleep(EVERY)

    def send(self) -> None:
        """This member's latest head — or, once it found a fork, the proof's two heads — to
        every other member of its log, present or not: presence is the host's word, and a
        host that forks the match tells each side that the other left."""
        log = self._log()
        if log is None or self._transport is None or len(log) < 2:
            return
        proof = self.proof
        heads = [proof.ours, proof.theirs] if proof is not None else [head_at(log, len(log) - 1)]
        datagrams = [msgpack.packb(h.message(log.match_id), use_bin_type=True) for h in heads]
        for member in log.members.values():  # present or not: the host says who is
            address, _, port = member.addr.rpartition(":")
            if member.peer == self._me or not port.isdigit():
                continue
            for datagram in datagrams:
                with contextlib.suppress(OSError, ValueError):
                    self._transport.sendto(datagram, (address, int(port)))

    def received(self, data: bytes, source: tuple[str, int]) -> None:
        """A datagram from ``source``: within the rate and size, a well-formed ``heads`` of
        this match, or dropped without a word."""
        if len(data) > MAX_DATAGRAM or not self._take(_grouped(source[0])):
            return
        try:
            message = validate(decode_body(data))
        except (FrameError, MessageError):
            return
        log = self._log()
        if message["t"] != "heads" or log is None or message["match"] != log.match_id:
            return
        if self.proof is not None:
            return
        head = Head.of(message)
        if head.seq < len(log):
            self._judge(log, head)
            return
        waiting = self._sources.pop(source, [])
        self._sources[source] = [*waiting, head][-WAITING_PER_SOURCE:]
        while len(self._sources) > MAX_SOURCES:
            self._sources.popitem(last=False)

    def _judge(self, log: MatchLog, head: Head) -> None:
        if self.proof is not None:
            return
        fork = judge(log, head)
        if fork is None:
            return
        self.proof = fork
        self._sources.clear()
        self.send()  # at once: the others check the two heads against their own logs
        self._on_fork(fork)

    def _take(self, key: str) -> bool:
        """One datagram from address ``key``, if its bucket holds a token."""
        now = self._clock()
        tokens, then = self._buckets.pop(key, (BURST, now))
        tokens = min(BURST, tokens + (now - then) * RATE)
        taken = tokens >= 1
        self._buckets[key] = (tokens - 1 if taken else tokens, now)
        while len(self._buckets) > MAX_SOURCES:
            self._buckets.popitem(last=False)
        return taken
