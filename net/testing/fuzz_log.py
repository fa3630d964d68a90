"""The net benchmark's fuzz: frames that a peer's received bytes go through, wrong in every
way we could think of, each of which must end accepted or refused with a reason.

Four families of frames, from real signed entries of honest matches played as the fuzz
goes (:mod:`net.testing.tables`) and from the handshake messages:

* **mutated**: a valid frame with bits flipped, cut, spliced with another, its length
  prefix rewritten, bytes inserted;
* **random**: random bytes, with and without a plausible length prefix;
* **schema**: valid msgpack with a field changed to an odd value, removed or added;
* **forged**: validly framed, schema-valid entries, requests and pushes that are wrong only
  where a forger would make them wrong — a signature that is random, another key's, for
  another match or copied from another entry; content changed under a kept signature; the
  host's placing signature likewise; ``at`` ahead of the log, zero, or moved behind it;
  ``n`` replayed; whole entries replayed; entries in an outsider's or another member's name;
  and rule-breakers signed properly (a wrong digest, an illegal or out-of-turn action, a
  forged reveal, a replayed join proof …).

:func:`fuzz_log` feeds them to everything a peer runs on received bytes: the frame decoder,
the message validation and, for entries, a live :class:`MatchLog` (a ``request`` placed by
the host first, as the host does).  A **crash** is any exception other than the refusals
(:class:`FrameError`, :class:`MessageError`, :class:`Rejected`); a **forgery accepted** is a
frame the log took although it was made to be refused (a wrong signature, a replay).  Both
must stay at zero.  :mod:`net.testing.fuzz_host` throws the same frames at a real
host over sockets.
"""

from __future__ import annotations

import contextlib
import copy
import random
import re
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import msgpack

from game.rules.registry import fingerprint
from net.framing import FrameDecoder, FrameError, encode
from net.identity import Identity
from net.matchlog import MatchLog, Rejected, entry_digest, placed
from net.messages import PROTOCOL_VERSION, MessageError, validate
from net.signing import entry_payload, order_payload
from net.testing.tables import Table, random_table

HONEST_EVERY = 6
"""Frames thrown, on average, before the honest match moves on by one entry."""


@dataclass
class Case:
    """One frame to throw, what family it is of, and whether it must be refused."""

    data: bytes
    family: str
    label: str
    must_refuse: bool = False


@dataclass
class Forger:
    """What a forger holds: the log as it sees it, the keys it can sign with (``keys``), a
    key that belongs to nobody in the match, and a generator."""

    log: MatchLog
    keys: dict[str, Identity]
    outsider: Identity
    rng: random.Random

    def head(self, at: int) -> bytes:
        return self.log.head_bytes(at) if at <= len(self.log) else bytes(16)

    def signed(self, entry: dict[str, Any], by: Identity, **changes: Any) -> dict[str, Any]:
        """``entry`` with ``changes``, signed by ``by`` after its ``at`` entries."""
        content = {k: v for k, v in {**entry, **changes}.items() if k not in ("sig", "hs")}
        payload = entry_payload(self.log.match_id, content["at"], self.head(content["at"]), content)
        return {**content, "sig": by.sign(payload)}

    def author_key(self, entry: dict[str, Any]) -> Identity | None:
        return self.keys.get(self.log.author(entry))

    def other_key(self, entry: dict[str, Any]) -> Identity:
        """A key that is not the author's: another member's the forger holds, or its own."""
        author = self.log.author(entry)
        others = [i for p, i in self.keys.items() if p != author]
        return self.rng.choice(others) if others and self.rng.random() < 0.7 else self.outsider

    def history(self) -> dict[str, Any]:
        return self.rng.choice(self.log.entries)


def forged(
    forger: Forger, entry: dict[str, Any], host: Identity | None
) -> tuple[dict[str, Any], str, bool]:
    """``entry`` (signed by its author, placed if ``host`` is None) changed in one way a
    forger might try: (the entry, what was done, whether it must be refused).  ``host`` is
    the host's key when the forger holds it: a changed entry is then placed again, so that
    only the change is wrong."""
    rng, log = forger.rng, forger.log
    position = len(log)
    author = forger.author_key(entry)
    old = forger.history()
    choice = rng.randrange(16 if author is not None else 6)
    if choice == 0:
        out, label, refuse = {**entry, "sig": rng.randbytes(64)}, "author signature random", True
    elif choice == 1:
        out = forger.signed(entry, forger.other_key(entry))
        label, refuse = "author signature by another key", True
    elif choice == 2:
        out, label, refuse = {**entry, "sig": old["sig"]}, "author signature copied", True
        refuse = old["sig"] != entry["sig"]
    elif choice == 3:
        out, label, refuse = _changed(entry, rng), "content changed under its signature", True
        refuse = out != entry
    elif choice == 4:
        out = forger.signed({**entry, "peer": forger.outsider.peer}, forger.outsider)
        label, refuse = "made by an outsider", True
    elif choice == 5:
        out, label, refuse = dict(old), "a logged entry replayed", True
        if "hs" not in entry:  # as a request
            out.pop("hs", None)
    elif choice == 6:
        assert author is not None
        content = {k: v for k, v in entry.items() if k not in ("sig", "hs")}
        payload = entry_payload(rng.randbytes(16).hex(), entry["at"], forger.head(entry["at"]),
                                content)  # fmt: skip
        out, label, refuse = (
            {**entry, "sig": author.sign(payload)},
            "signed for another match",
            True,
        )
    elif choice == 7:
        assert author is not None
        ahead = position + rng.choice((1, 2, 7, 1000, 2**31 - position))
        out, label, refuse = forger.signed(entry, author, at=ahead), "at ahead, re-signed", True
    elif choice == 8:
        assert author is not None
        out, label = forger.signed(entry, author, at=0), "at zero, re-signed"
        refuse = position > 0
    elif choice == 9:
        behind = rng.randrange(1, position + 1) if position else 0
        out, label = {**entry, "at": behind}, "at moved, signature kept"
        refuse = behind != entry["at"]
    elif choice == 10:
        assert author is not None
        behind = rng.randrange(1, position + 1) if position else 0
        out, label, refuse = forger.signed(entry, author, at=behind), "at behind, re-signed", False
    elif choice == 11:
        assert author is not None
        last = log.next_n(author.peer) - 1
        n = rng.randint(1, last) if last else 1
        out, label, refuse = forger.signed(entry, author, n=n), "n replayed, re-signed", last > 0
    elif choice == 12:
        assert author is not None
        n = entry["n"] + rng.choice((1, 2, 1000, 2**40))
        out, label, refuse = forger.signed(entry, author, n=n), "n ahead, re-signed", False
    elif choice == 13:
        assert author is not None
        named = rng.choice(list(log.members) or [author.peer])
        out = forger.signed({**entry, "peer": named}, author)
        label, refuse = "in another member's name", named != author.peer
        if entry["k"] in ("join", "leave"):
            refuse = False  # the peer of a join or leave is not its author
    elif choice == 14:
        assert author is not None
        content = {k: v for k, v in entry.items() if k not in ("sig", "hs")}
        payload = entry_payload(log.match_id, entry["at"], rng.randbytes(16), content)
        out, label, refuse = (
            {**entry, "sig": author.sign(payload)},
            "signed over another head",
            True,
        )
    else:
        assert author is not None
        out, label, refuse = forger.signed(entry, author), "re-signed as is", False
    if "hs" not in entry or choice == 5:
        return out, label, refuse  # a request, or a replay as it was logged
    if host is None:
        return {**out, "hs": entry["hs"]}, label, refuse
    if rng.random() < 0.3:
        out, misplacing, wrong = _misplaced(forger, out, host)
        return out, f"{label}; {misplacing}", refuse or wrong
    return placed(log, host, out), label, refuse


def _misplaced(
    forger: Forger, entry: dict[str, Any], host: Identity
) -> tuple[dict[str, Any], str, bool]:
    """``entry`` with a placing signature that is wrong in itself."""
    rng, log = forger.rng, forger.log
    position = len(log)
    head = bytes.fromhex(entry_digest(log.heads[-1] if position else "", entry))
    choice = rng.randrange(5)
    if choice == 0:
        return {**entry, "hs": rng.randbytes(64)}, "placing signature random", True
    if choice == 1:
        signer = forger.other_key(entry)
        refuse = signer.peer != log.host
        payload = order_payload(log.match_id, position, head)
        return {**entry, "hs": signer.sign(payload)}, "placed by another key", refuse
    if choice == 2:
        moved = position + rng.choice((-2, -1, 1, 5)) if position > 2 else position + 1
        payload = order_payload(log.match_id, moved, head)
        return {**entry, "hs": host.sign(payload)}, "placed at another position", True
    if choice == 3:
        old = forger.history()
        return {**entry, "hs": old["hs"]}, "placing signature copied", True
    payload = order_payload(rng.randbytes(16).hex(), position, head)
    return {**entry, "hs": host.sign(payload)}, "placed in another match", True


_SWAPS: dict[type, Callable[[Any, random.Random], Any]] = {
    bytes: lambda v, rng: rng.randbytes(len(v)) if v else b"\x01",
    str: lambda v, rng: (v[:-1] + ("0" if v[-1:] != "0" else "1")) if v else "x",
    int: lambda v, rng: v + rng.choice((1, -1)) if v > 0 else v + 1,
}


def _changed(entry: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """``entry`` with one content field given another value of its kind."""
    fields = [k for k, v in entry.items()
              if k not in ("k", "sig", "hs") and type(v) in _SWAPS]  # fmt: skip
    if not fields:
        return dict(entry)
    name = rng.choice(fields)
    value = entry[name]
    return {**entry, name: _SWAPS[type(value)](value, rng)}


def rule_breaker(forger: Forger, author: Identity) -> dict[str, Any]:
    """An entry of ``author``'s, signed properly, that the rules refuse whatever the state:
    the content of a forger who holds only its own key."""
    log, rng = forger.log, forger.rng
    digest = rng.randbytes(16).hex()
    state = log.state
    choice = rng.randrange(7)
    if choice == 0:  # any action, with a digest nobody's state has
        seat = state.to_move if state.to_move >= 0 else 0
        legal = state.legal_actions() if state.to_move >= 0 else []
        text = state.action_to_str(rng.choice(legal)) if legal else "1"
        entry = {"k": "act", "seat": seat, "ply": log.ply, "a": text, "d": digest}
    elif choice == 1:
        text = rng.choice(("zz-99", "", "9" * 40, "resign", "draw"))
        entry = {"k": "act", "seat": rng.randrange(len(log.seats)), "ply": log.ply, "a": text,
                 "d": digest}  # fmt: skip
    elif choice == 2:
        ply = log.ply + rng.choice((-1, 1, 2, 50)) if log.ply else log.ply + 1
        entry = {"k": "act", "seat": 0, "ply": ply, "a": "1", "d": digest}
    elif choice == 3:
        entry = {"k": "reveal", "event": max(1, log.next_event + rng.choice((0, 0, 1, -1))),
                 "v": rng.randbytes(32)}  # fmt: skip
    elif choice == 4:  # a peer's view may lag the host's: a ply already played, or far ahead
        ply = log.ply - 1 if log.ply and rng.random() < 0.5 else log.ply + 1000
        entry = {"k": "offer", "ply": ply}
    elif choice == 5:
        entry = {"k": "start"} if author.peer != log.host else {"k": "ready", "ready": True}
        if log.phase == "lobby":
            entry = {"k": "act", "seat": 0, "ply": 0, "a": "1", "d": digest}
    else:
        entry = {"k": "commit", "first": 1, "c": rng.randbytes(32)}
        if not log.highest_revealed and log.chain_start(author.peer, 1) is None:
            entry = {"k": "reveal", "event": 10_000, "v": rng.randbytes(32)}
    n = log.next_n(author.peer)
    content = {**entry, "peer": author.peer, "n": n, "at": len(log)}
    return forger.signed(content, author)


# -- frames --------------------------------------------------------------------------------


def handshake_messages(forger: Forger) -> list[dict[str, Any]]:
    """One valid message of every type a peer sends outside the log."""
    rng, log = forger.rng, forger.log
    key = forger.outsider.key
    return [
        {"t": "hello", "version": PROTOCOL_VERSION, "rules": fingerprint(), "key": key,
         "nonce": rng.randbytes(32), "name": "Anna", "role": "player", "seat": -1,
         "listen": 40000, "have": len(log), "head": log.heads[-1], "code": None, "vote": None},
        {"t": "challenge", "match": log.match_id, "key": key, "nonce": rng.randbytes(32),
         "sig": rng.randbytes(64)},
        {"t": "proof", "sig": rng.randbytes(64)},
        {"t": "wait", "reason": "1 of 3"},
        {"t": "welcome", "match": log.match_id, "you": forger.outsider.peer, "host": log.host,
         "seq": len(log)},
        {"t": "reject", "reason": "out of turn", "kind": "act"},
        {"t": "want", "from": rng.randrange(len(log) + 2)},
        {"t": "ping", "n": 7},
        {"t": "pong", "n": 7},
        {"t": "bye", "reason": "match over"},
    ]  # fmt: skip


def carried(entry: dict[str, Any], how: str, seq: int) -> dict[str, Any]:
    """``entry`` in a message: relayed (``entry``), caught up (``push``) or, without the
    host's placing signature, asked for (``request``)."""
    if how == "request":
        return {"t": "request", "e": {k: v for k, v in entry.items() if k != "hs"}}
    return {"t": how, "seq": seq, "e": entry}


def mutated(frame: bytes, rng: random.Random, frames: list[bytes]) -> bytes:
    data = bytearray(frame)
    for _ in range(rng.randint(1, 4)):
        choice = rng.randrange(6)
        if choice == 0 and data:
            spot = rng.randrange(len(data))
            data[spot] ^= 1 << rng.randrange(8)
        elif choice == 1 and data:
            del data[rng.randrange(len(data)) :]
        elif choice == 2:
            other = rng.choice(frames)
            cut = rng.randrange(len(other) + 1)
            data[rng.randrange(len(data) + 1) :] = other[cut:]
        elif choice == 3 and len(data) >= 4:
            data[0:4] = rng.randrange(2**32).to_bytes(4, "big")
        elif choice == 4:
            spot = rng.randrange(len(data) + 1)
            data[spot:spot] = rng.randbytes(rng.randint(1, 8))
        else:
            spot = rng.randrange(len(data) + 1)
            data[spot:spot] = rng.choice([b"\xc1", b"\xd4\x00\x00", b"\xdd\xff\xff\xff\xff",
                                          b"\xdb\x7f\xff\xff\xff", b"\xc7\x00\x05"])  # fmt: skip
    return bytes(data)


def random_bytes(rng: random.Random) -> bytes:
    body = rng.randbytes(rng.randint(0, 300))
    if rng.random() < 0.5:
        return len(body).to_bytes(4, "big") + body
    return body


_ODD_VALUES: tuple[Any, ...] = (
    None, True, -1, 0, 2**31 + 1, 2**63, 1.5, "", "x" * 400, "22-18\x00", b"",
    b"\0" * 33, b"\0" * 64, [], [1] * 20, {}, {"k": "act"}, "ff" * 16, "FF" * 16,
    "act", "hello",
)  # fmt: skip


def twisted(message: dict[str, Any], rng: random.Random) -> bytes:
    """``message`` with a field changed, removed or added: still valid msgpack."""
    message = copy.deepcopy(message)
    target = message["e"] if isinstance(message.get("e"), dict) and rng.random() < 0.6 else message
    keys = list(target)
    choice = rng.randrange(3)
    if choice == 0 and keys:
        target[rng.choice(keys)] = rng.choice(_ODD_VALUES)
    elif choice == 1 and keys:
        del target[rng.choice(keys)]
    else:
        target[rng.choice(["x", "t", "k", "peer", "seq", "sig", "hs", "n", "at"])] = rng.choice(
            _ODD_VALUES
        )
    body = msgpack.packb(message, use_bin_type=True)
    return len(body).to_bytes(4, "big") + body


def general(reason: str) -> str:
    """A reason with its numbers, ids and quotes left out, so that alike reasons count
    together."""
    reason = re.sub(r"(?<![A-Za-z])'[^']*'", "'…'", reason)
    reason = re.sub(r"\b\d+(\.\d+)?\b", "N", reason)
    return re.sub(r"\b[0-9a-f]{8,}\b", "X", reason)[:70]


# -- in process: decoder, validation, match log --------------------------------------------


class _Run:
    """The tally of a fuzz run."""

    def __init__(self) -> None:
        self.outcomes: Counter[str] = Counter()
        self.families: Counter[str] = Counter()
        self.labels: Counter[str] = Counter()
        self.forged: Counter[str] = Counter()
        self.crashes: list[str] = []
        self.forgeries: list[str] = []
        self.slowest = 0.0

    def report(self, count: int, seconds: float) -> dict[str, Any]:
        return {
            "frames": count,
            "crashes": len(self.crashes),
            "crash_examples": self.crashes[:5],
            "forgeries_accepted": len(self.forgeries),
            "forgery_examples": self.forgeries[:5],
            "slowest_frame_ms": round(self.slowest * 1000, 3),
            "frames_per_second": round(count / seconds) if seconds else None,
            "families": dict(self.families),
            "forged_kinds": dict(self.labels.most_common()),
            "forged_outcomes": dict(self.forged.most_common(12)),
            "outcomes": dict(self.outcomes.most_common(16)),
            "distinct_outcomes": len(self.outcomes),
        }


def fuzz_log(count: int, seed: int = 1) -> dict[str, Any]:
    """Throw ``count`` frames at the decoder, the validation and live match logs."""
    rng = random.Random(seed)
    run = _Run()
    table = random_table(rng)
    honest = table.next_entry()
    matches = 1
    began = time.perf_counter()
    for _ in range(count):
        if honest is None or rng.random() < 1 / HONEST_EVERY:
            if honest is not None:
                with contextlib.suppress(Rejected):  # a fuzzed entry the log took came first
                    table.log.apply(honest)
            honest = table.next_entry()
            if honest is None:  # over, or stuck after a legitimate surprise: a new match
                table, matches = random_table(rng), matches + 1
                honest = table.next_entry()
                continue
        case = _case(table, honest, rng)
        length = len(table.log)
        _throw(case, table, run)
        if len(table.log) != length:  # the log moved on: the honest entry is stale
            honest = table.next_entry()
    report = run.report(count, time.perf_counter() - began)
    report["matches"] = matches
    return report


def _case(table: Table, honest: dict[str, Any], rng: random.Random) -> Case:
    log = table.log
    forger = Forger(log, dict(table.by_peer), Identity(rng.randbytes(32)), rng)
    seq = len(log)
    roll = rng.random()
    if roll < 0.45:
        how = rng.choice(("entry", "push", "request"))
        breaking = rng.random() < 0.25
        if breaking:
            base = placed(log, table.host, rule_breaker(forger, rng.choice(table.identities)))
        else:
            base = honest
        if how == "request":
            base = {k: v for k, v in base.items() if k != "hs"}
        if breaking and rng.random() < 0.5:
            entry, label, refuse = base, "rules broken", True
        else:
            entry, label, refuse = forged(forger, base, table.host)
            label, refuse = (f"rules broken; {label}", True) if breaking else (label, refuse)
        return Case(encode(carried(entry, how, seq)), "forged", label, refuse)
    hows = ("entry", "push", "request")
    messages = [carried(honest, rng.choice(hows), seq),
                carried(forger.history(), rng.choice(hows), seq),
                *handshake_messages(forger)]  # fmt: skip
    if roll < 0.7:
        frames = [encode(m) for m in messages[:3]] + [encode(rng.choice(messages))]
        return Case(mutated(rng.choice(frames), rng, frames), "mutated", "")
    if roll < 0.95:
        return Case(twisted(rng.choice(messages[:3] * 3 + messages), rng), "schema", "")
    return Case(random_bytes(rng), "random", "")


def _throw(case: Case, table: Table, run: _Run) -> None:
    """One frame through the decoder, the validation and the log; the outcome tallied."""
    log = table.log
    run.families[case.family] += 1
    run.labels.update(case.label.split("; ") if case.label else ())
    start = time.perf_counter()
    outcomes = []
    try:
        messages = FrameDecoder().feed(case.data)
        if not messages:
            outcomes.append("incomplete (waits for more bytes)")
        for message in messages:
            validate(message)
            kind = message["t"]
            if kind in ("entry", "push"):
                log.apply(message["e"])
            elif kind == "request":
                log.apply(placed(log, table.host, message["e"]))
            else:
                outcomes.append(f"valid {kind} (not for the log)")
                continue
            outcomes.append("accepted")
            if case.must_refuse:
                run.forgeries.append(f"{case.label}: {message!r}"[:300])
    except FrameError as error:
        outcomes.append("frame: " + general(str(error).split(":")[0]))
    except MessageError as error:
        outcomes.append("message: " + general(str(error)))
    except Rejected as error:
        outcomes.append("refused: " + general(error.reason))
    except Exception as error:  # a crash: the one thing this run is here to find
        outcomes.append("crash")
        run.crashes.append(f"{type(error).__name__}: {error} <- {case.data[:80]!r}")
    run.slowest = max(run.slowest, time.perf_counter() - start)
    run.outcomes.update(outcomes)
    if case.family == "forged":
        run.forged.update(outcomes)
