"""The strangers of the fuzz over sockets (:mod:`net.testing.fuzz_host`): connections from
other loopback addresses that throw frames before and during the handshake — garbage, other
messages before ``hello``, hellos of another version or rules, proofs forged, replayed or
signed for the wrong wish, claims of a longer log followed by forged pushes, a head that is
not the host's — each of which the host must refuse or close; and the tally the whole fuzz
keeps."""

from __future__ import annotations

import asyncio
import functools
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from net.connection import Closed
from net.framing import encode
from net.identity import Identity
from net.matchlog import PLAYING, MatchLog
from net.signing import join_payload
from net.testing.clients import Line
from net.testing.fuzz_log import (
    Forger,
    carried,
    forged,
    general,
    handshake_messages,
    mutated,
    random_bytes,
    rule_breaker,
    twisted,
)

STRANGERS = 12
"""Stranger connections at once, from as many loopback addresses as it takes for at most 4
from each (a host lets 8 strangers in at once from one address)."""
ANSWER_WITHIN = 10.0
"""Seconds the host has to answer a request or close on a stranger."""


@dataclass
class Tally:
    """What a fuzz over sockets counted: frames, outcomes, crashes and forgeries."""

    players_left: int
    strangers_left: int
    frames: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)
    crashes: list[Any] = field(default_factory=list)
    forgeries: list[Any] = field(default_factory=list)
    rounds: list[Any] = field(default_factory=list)
    closing: asyncio.Lock = field(default_factory=asyncio.Lock)

    def crash(self, text: str, limit: int = 300) -> None:
        self.crashes.append(text[:limit])

    def watch(self, task: asyncio.Task[Any], what: str) -> asyncio.Task[Any]:
        """``task``, whose failure counts as a crash (of the fuzz itself: it would
        otherwise stop throwing frames without a word)."""

        def done(task: asyncio.Task[Any]) -> None:
            if not task.cancelled() and task.exception() is not None:
                self.crash(f"{what} failed: {task.exception()!r}")

        task.add_done_callback(done)
        return task

    def forgery(self, text: str) -> None:
        self.forgeries.append(text[:300])


def _leaves(busy: Counter[str], source: str, _task: asyncio.Task[Any]) -> None:
    """A stranger from ``source`` is done: one fewer there."""
    busy.subtract([source])


async def strangers(
    port: int,
    current_log: Callable[[], MatchLog | None],
    rng: random.Random,
    tally: Tally,
    stop: asyncio.Event,
) -> None:
    """Stranger connections, :data:`STRANGERS` at once, while the match is played."""
    busy = Counter({f"127.0.0.{2 + n}": 0 for n in range(STRANGERS // 4)})
    running: set[asyncio.Task[Any]] = set()
    captured: list[tuple[dict[str, Any], bytes]] = []
    while not stop.is_set() and tally.strangers_left > 0:
        log = current_log()
        if log is None or log.phase != PLAYING or len(running) >= STRANGERS:
            await asyncio.sleep(0.005)
            continue
        source = min(busy, key=busy.__getitem__)
        busy[source] += 1
        task = tally.watch(
            asyncio.create_task(
                _stranger(port, source, log, random.Random(rng.random()), tally, captured)
            ),
            "a stranger",
        )
        running.add(task)
        task.add_done_callback(running.discard)
        task.add_done_callback(functools.partial(_leaves, busy, source))
    if running:
        await asyncio.wait(running)


async def _stranger(
    port: int, source: str, log: MatchLog, rng: random.Random, tally: Tally, captured: list[Any]
) -> None:
    """One stranger's connection: frames thrown, then the host's answer read to the end."""
    forger = Forger(log, {}, Identity(rng.randbytes(32)), rng)
    try:
        line = await Line.open(port, source)
    except Closed as closed:
        tally.outcomes[f"stranger: {general(closed.reason)}"] += 1
        return
    label, must_refuse = await _stranger_frames(line, forger, captured)
    tally.frames += line.sent
    tally.strangers_left -= line.sent
    line.end_writing()
    messages, reason = [], ""
    try:
        while True:
            messages.append((await line.receive(ANSWER_WITHIN))["t"])
    except Closed as closed:
        reason = closed.reason
    finally:
        line.hang_up()
    if reason.startswith("hang"):
        tally.crash(f"hang: a stranger ({label}) was neither refused nor closed")
    if must_refuse and "welcome" in messages:
        tally.forgery(f"a stranger was welcomed: {label}")
    answer = "welcome, then " if "welcome" in messages else ""
    tally.outcomes[f"stranger {label}: {answer}{general(reason)}"] += 1


async def _stranger_frames(line: Line, forger: Forger, captured: list[Any]) -> tuple[str, bool]:
    """What one stranger sends: (what it tried, whether the host must refuse it)."""
    rng, log, me = forger.rng, forger.log, forger.outsider
    others = handshake_messages(forger)
    hello = {**others[0], "have": 0, "head": None}
    choice = rng.randrange(100)
    if choice < 30:
        frames = [encode(m) for m in others]
        pick = rng.randrange(3)
        data = (mutated(rng.choice(frames), rng, frames) if pick == 0
                else random_bytes(rng) if pick == 1
                else twisted(rng.choice(others), rng))  # fmt: skip
        line.send_raw(data)
        return "garbage first", False
    if choice < 40:
        entry = rng.choice(log.entries)
        message = rng.choice(
            [carried(entry, "push", 0), carried(entry, "request", 0), carried(entry, "entry", 0),
             *others[1:]]
        )  # fmt: skip
        line.send(message)
        return "another message before hello", message["t"] != "ping"
    if choice < 48:
        wrong = rng.choice(({"version": 1}, {"version": 3}, {"rules": rng.randbytes(16).hex()}))
        line.send({**hello, **wrong})
        return "hello of another version or rules", True
    if choice < 75:
        return await _forged_proof(line, hello, forger, captured), True
    if choice < 85:
        return await _forged_pushes(line, hello, forger), True
    if choice < 93:
        have = rng.randint(1, len(log))
        await _prove(line, {**hello, "have": have, "head": rng.randbytes(16).hex()}, me)
        return "a head that is not the host's", True
    hello = {**hello, "role": "spectator"}
    challenge = await _prove(line, hello, me)
    if challenge is not None:
        captured.append((hello, me.sign(_wish(challenge, hello))))
        line.send({"t": "request", "e": rule_breaker(forger, me)})
    return "spectator asking for a move", False


async def _challenge(line: Line) -> dict[str, Any] | None:
    try:
        message = await line.receive(ANSWER_WITHIN)
    except Closed:
        return None
    return message if message["t"] == "challenge" else None


def _wish(challenge: dict[str, Any], hello: dict[str, Any]) -> bytes:
    return join_payload(
        challenge["match"], challenge["key"], challenge["nonce"], hello["name"], hello["role"],
        hello["seat"],
    )  # fmt: skip


async def _prove(line: Line, hello: dict[str, Any], identity: Identity) -> dict[str, Any] | None:
    """Hello and the right proof; the challenge (None if the host answered otherwise)."""
    line.send(hello)
    challenge = await _challenge(line)
    if challenge is not None:
        line.send({"t": "proof", "sig": identity.sign(_wish(challenge, hello))})
    return challenge


async def _forged_proof(
    line: Line, hello: dict[str, Any], forger: Forger, captured: list[Any]
) -> str:
    """A hello, then a proof that is wrong: the host must close the line."""
    rng, me = forger.rng, forger.outsider
    other = Identity(rng.randbytes(32))
    choice = rng.randrange(6)
    replayed = None
    if choice == 0:  # another peer's key in the hello, a proof by one's own
        hello = {**hello, "key": other.key}
    elif choice == 5 and captured:  # another stranger's hello and proof, seen on the LAN
        hello, replayed = rng.choice(captured)
    line.send(hello)
    challenge = await _challenge(line)
    if challenge is None:
        return "forged proof (no challenge came)"
    if choice == 0:
        sig, label = me.sign(_wish(challenge, hello)), "a key that is not one's own"
    elif choice == 1:
        sig, label = rng.randbytes(64), "proof random"
    elif choice == 2:
        sig, label = other.sign(_wish(challenge, hello)), "proof signed by another key"
    elif choice == 3:
        wrong = {**challenge, "nonce": rng.randbytes(32)}
        sig, label = me.sign(_wish(wrong, hello)), "proof for another challenge"
    elif choice == 4:
        changed = {**hello, "role": "spectator" if hello["role"] == "player" else "player"}
        sig, label = me.sign(_wish(challenge, changed)), "proof for another wish"
    elif replayed is not None:
        sig, label = replayed, "another peer's proof replayed"
    else:
        sig, label = rng.randbytes(64), "proof random"
    line.send({"t": "proof", "sig": sig})
    return f"forged proof: {label}"


async def _forged_pushes(line: Line, hello: dict[str, Any], forger: Forger) -> str:
    """A stranger claiming more of the log than the host has: the host asks for the rest
    (``want``) and must refuse every forged entry pushed."""
    rng, log, me = forger.rng, forger.log, forger.outsider
    have = len(log) + rng.randint(100, 200)  # beyond the host's log, however far ahead it is
    challenge = await _prove(line, {**hello, "have": have, "head": rng.randbytes(16).hex()}, me)
    if challenge is None:
        return "forged pushes (no challenge came)"
    try:
        want = await line.receive(ANSWER_WITHIN)
    except Closed as closed:
        return f"forged pushes (closed before want: {general(closed.reason)})"
    if want["t"] != "want":
        return f"forged pushes (got {want['t']})"
    seq = want["from"]
    for _ in range(rng.randint(1, 3)):
        entry = {**rule_breaker(forger, me), "hs": rng.randbytes(64)}
        if rng.random() < 0.5:
            entry, _, _ = forged(forger, {**rng.choice(log.entries[1:])}, None)
        line.send({"t": "push", "seq": seq, "e": entry})
        seq += 1
    return "forged pushes after a longer hello"
