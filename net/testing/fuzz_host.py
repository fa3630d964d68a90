"""The fuzz over sockets: frames thrown at a real host (``python -m net host``) while its
match is being played, and the match played to its end afterwards.

Each round is a 4-player Numeri match: the host (its seat played by its computer) and three
**attacking players** in this process.  They play honestly — every entry the host relays is
checked in a log of their own, dice committed and revealed, random legal moves — and between
their moves each sends about :data:`RATE` frames a second (the host allows 200) over its
proven connection: requests signed right but breaking the rules, signed wrongly, replayed,
with ``at`` or ``n`` wrong, in a fellow player's name (with the fellow's own signature),
for entries nobody may ask for; messages the host ignores; and, one at a time, frames after
which the host must close the line (pushes, schema errors, mutated frames, random bytes) —
then the player rejoins.  Meanwhile **strangers** from other loopback addresses throw frames
before and during the handshake: garbage, other messages before ``hello``, hellos of another
version or rules, proofs forged, replayed or signed for the wrong wish, claims of a longer
log followed by forged pushes, a head that is not the host's, spectators that ask for moves.

What is counted:

* every request must be answered, refused (``reject``) or placed (its ``entry`` comes back);
  every stranger must be refused or welcomed; every line the host closes must be closed for
  the frame that was meant to close it.  No answer within :data:`ANSWER_WITHIN` seconds is a
  **hang**; a close nobody asked for is an **unexpected close**;
* a frame made to be refused that the host placed, a forged proof welcomed, a forged push
  taken: a **forgery accepted**;
* after the round: the host must exit 0 without a word on stderr, and its record must verify
  (replayed as ``python -m net verify`` does: every signature, every roll) and end where
  every attacking player's own log ends.

Crashes are all of these together, and must stay at zero.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from net import records
from net.agent import Agent, Turn
from net.connection import Closed
from net.framing import encode
from net.identity import Identity
from net.matchlog import LOBBY, PLAYING, MatchLog, Rejected, replay, signed
from net.messages import MessageError, validate
from net.signing import join_payload, vote_payload
from net.testing.clients import Line, handshake
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
from net.testing.strangers import ANSWER_WITHIN, Tally, strangers

ROOT = Path(__file__).resolve().parents[2]
ATTACKERS = 3
RATE = 150.0
"""Frames a second each attacking player sends besides its moves."""
CLOSING_SHARE = 0.03
"""Of an attacking player's frames, those after which the host must close its line."""
PACE = 0.1
"""Seconds an attacking player waits before each move while it still has frames to send:
a match then lasts long enough for many frames."""
MATCH_WITHIN = 120.0
"""Seconds a round's match has to end: it takes two or three, so a match still going after
this waits for a move or a roll that never comes."""


def fuzz_host(count: int, seed: int = 1) -> dict[str, Any]:
    """Throw about ``count`` frames at real hosts over loopback (60 % from the players'
    proven lines, 40 % from strangers); the tally, as JSON."""
    return asyncio.run(_fuzz_host(count, seed))


async def _fuzz_host(count: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    from_strangers = int(count * 0.4)
    tally = Tally(count - from_strangers, from_strangers)
    began = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        while not tally.rounds or tally.players_left > 0 or tally.strangers_left > 0:
            await _round(Path(folder), len(tally.rounds), rng, tally)
            if len(tally.rounds) >= 20 + count // 500:
                tally.crash("the fuzz made no progress: rounds end before their frames are sent")
                break
    seconds = time.perf_counter() - began
    return {
        "frames": tally.frames,
        "crashes": len(tally.crashes),
        "crash_examples": tally.crashes[:5],
        "forgeries_accepted": len(tally.forgeries),
        "forgery_examples": tally.forgeries[:5],
        "rounds": len(tally.rounds),
        "matches_finished_and_verified": sum(r["verified"] for r in tally.rounds),
        "seconds": round(seconds, 1),
        "frames_per_second": round(tally.frames / seconds),
        "outcomes": dict(tally.outcomes.most_common(20)),
        "distinct_outcomes": len(tally.outcomes),
        "logged_after_the_end": dict(
            sum((Counter(r.get("logged_after_the_end", {})) for r in tally.rounds), Counter())
        ),
        "round_examples": tally.rounds[:2],
    }


# -- one round: a host, three attacking players, strangers ---------------------------------


async def _round(tmp: Path, number: int, rng: random.Random, tally: Tally) -> None:
    record = tmp / f"round{number}.rec"
    host = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "net", "host", "numeri", "--players", "4", "--ai", "easy",
        "--think", "0.2", "--interface", "127.0.0.1", "--no-advertise", "--name", "host",
        "--identity", str(tmp / f"host{number}.id"), "--record", str(record),
        "--drop-timeout", "3600", "--on-drop", "wait",
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    assert host.stdout is not None and host.stderr is not None
    port = None
    while port is None:
        line = await asyncio.wait_for(host.stdout.readline(), 30)
        if not line:
            raise RuntimeError("the host did not start: " + (await host.stderr.read()).decode())
        event = json.loads(line)
        port = event.get("port") if event.get("event") == "listening" else None
    drained = asyncio.gather(host.stdout.read(), host.stderr.read())
    identities = [Identity(rng.randbytes(32)) for _ in range(ATTACKERS)]
    players = [
        _Attacker(i, identities, random.Random(rng.random()), port, tally) for i in identities
    ]
    try:
        for player in players:
            await player.connect()
    except Closed as closed:
        tally.crash(f"round {number}: a player could not join: {closed.reason}")
        host.kill()
        await host.wait()
        tally.rounds.append({"round": number, "verified": False})
        return
    games = [tally.watch(asyncio.create_task(p.play()), "a player's play") for p in players]
    stop = asyncio.Event()
    throwing = asyncio.create_task(
        strangers(port, lambda: players[0].log, random.Random(rng.random()), tally, stop)
    )
    done, _ = await asyncio.wait(games, timeout=MATCH_WITHIN)
    stop.set()
    await throwing
    if len(done) < len(games):
        tally.crash(
            f"round {number}: the match did not end within {MATCH_WITHIN:g} s; "
            + "; ".join(player.standing() for player in players),
            limit=1000,
        )
    for game in games:
        game.cancel()
    try:
        code = await asyncio.wait_for(host.wait(), 30)
    except TimeoutError:
        host.kill()
        code = await host.wait()
        tally.crash(f"round {number}: the host did not exit after its match")
    _, errors = await drained
    if code != 0:
        tally.crash(f"round {number}: the host exited with status {code}")
    if errors.strip():
        text = errors.decode(errors="replace").strip()
        tally.crash(f"round {number}: the host wrote to stderr: {text[:80]} … {text[-180:]}")
    tally.rounds.append(_check_record(number, record, players, tally))


def _check_record(
    number: int, record: Path, players: list[_Attacker], tally: Tally
) -> dict[str, Any]:
    """The host's record verifies — every signature, every roll, every action — and its
    match ends at the very entry where every attacking player's own log saw it end.  Joins
    and leaves the host logged after that (a peer that came or went in the moments before the
    host closed) are reported, not counted: they change nothing in the match."""
    try:
        entries = records.load(record)
        log = replay(entries)
    except (records.RecordError, Rejected) as error:
        tally.crash(f"round {number}: the host's record does not verify: {error}")
        return {"round": number, "verified": False}
    ended = _end(entries)
    verified = log.phase == "over" and ended is not None
    if not verified:
        tally.crash(f"round {number}: the host's match did not end ({log.phase})")
    if {p.ended for p in players} != {ended}:
        verified = False
        tally.crash(f"round {number}: the players' matches end elsewhere than the host's")
    result = log.state.result()
    after = [e["k"] for e in entries[ended[0] + 1 :]] if ended else []
    return {
        "round": number, "verified": verified, "entries": len(log), "rolls": len(log.rolls),
        "plies": log.ply, "result": str(result) if result else log.end_reason,
        "logged_after_the_end": dict(Counter(after)),
    }  # fmt: skip


def _end(entries: list[dict[str, Any]]) -> tuple[int, str] | None:
    """Where the match in ``entries`` ended: (the entry's index, the log's head there)."""
    log = MatchLog(entries[0])
    for index, entry in enumerate(entries[1:], 1):
        log.apply(entry)
        if log.phase not in (LOBBY, PLAYING):
            return index, log.heads[-1]
    return None


# -- the attacking players -----------------------------------------------------------------


@dataclass
class _Request:
    sig: bytes
    label: str
    must_refuse: bool
    sent_at: float
    kind: str


class _Attacker:
    """A seated player that plays its seat honestly and attacks the host between moves."""

    def __init__(
        self, identity: Identity, fellows: list[Identity], rng: random.Random, port: int,
        tally: Tally,
    ) -> None:  # fmt: skip
        self.identity = identity
        self.me = identity.peer
        self.fellows = [f for f in fellows if f.peer != self.me]
        self.keys = {f.peer: f for f in fellows}
        self.rng = rng
        self.port = port
        self.tally = tally
        self.agent = Agent(identity)
        self.log: MatchLog | None = None
        self.line: Line | None = None
        self.waiting: list[_Request] = []
        self.decided: set[tuple[int, int]] = set()
        self.readied = False
        self.n = 0
        self.closing: str | None = None
        """The label of the frame sent to make the host close this line, until it has."""
        self.closed_for = asyncio.Event()
        self.ended: tuple[int, str] | None = None
        """Where the match ended in this player's log: (the entry's index, the head)."""

    async def connect(self) -> None:
        """Join, or rejoin with the log held so far; nothing is sent meanwhile."""
        log, self.line = self.log, None
        line = await Line.open(self.port)
        name = "a" + self.me[:6]
        if log is None:
            await handshake(line, self.identity, name)
        else:
            await handshake(line, self.identity, name, have=len(log), head=log.heads[-1])
        self.line = line
        self.waiting.clear()
        self.agent.forget_unlogged()
        self.decided = {key for key in self.decided if log is None or key[1] < log.ply}

    async def play(self) -> None:
        fuzzing = self.tally.watch(asyncio.create_task(self._fuzz()), "a player's fuzzing")
        try:
            while True:
                assert self.line is not None
                try:
                    message = await self.line.receive(ANSWER_WITHIN + 5)
                except Closed as closed:
                    if self.log is not None and self.log.phase not in (LOBBY, PLAYING):
                        return  # the match is over: the host said goodbye
                    if not await self._closed(closed.reason):
                        return
                    continue
                self._heard(message)
        finally:
            fuzzing.cancel()

    async def _closed(self, reason: str) -> bool:
        """The host closed this line: for the frame sent to make it (rejoin), or not."""
        label, self.closing = self.closing, None
        if label is None:
            self.tally.crash(f"unexpected close of a player's line: {reason}")
        else:
            self.tally.outcomes[f"player {label}: line closed: {general(reason)}"] += 1
        self.closed_for.set()
        for attempt in range(20):
            try:
                await self.connect()
                return True
            except Closed as closed:
                if attempt == 19:
                    self.tally.crash(f"a player could not rejoin: {closed.reason}")
                await asyncio.sleep(0.2)
        return False

    def _heard(self, message: dict[str, Any]) -> None:
        kind = message["t"]
        if kind == "entry":
            self._entry(message["seq"], message["e"])
        elif kind == "reject":
            if not self.waiting:
                if self.closing is None:
                    self.tally.crash(f"a refusal of nothing: {message['reason']}")
                else:  # what was sent to close the line was a valid request after all
                    reason = general(message["reason"])
                    self.tally.outcomes[f"player {self.closing}: refused: {reason}"] += 1
                return
            request = self.waiting.pop(0)
            self.tally.outcomes[f"player {request.label}: {general(message['reason'])}"] += 1
            if request.label == "honest":
                self._honest_refused(request)
        self._check_waiting()
        self._duties()

    def _entry(self, seq: int, entry: dict[str, Any]) -> None:
        if self.log is None:
            self.log = MatchLog(entry)
            return
        if seq < len(self.log):
            return
        try:
            self.log.apply(entry)
        except Rejected as error:
            self.tally.crash(f"the host relayed an entry that does not check out: {error.reason}")
            return
        if self.ended is None and self.log.phase not in (LOBBY, PLAYING):
            self.ended = len(self.log) - 1, self.log.heads[-1]
        for index, request in enumerate(self.waiting):
            if request.sig == entry["sig"]:
                for skipped in self.waiting[:index]:
                    self.tally.crash(f"no answer to a request ({skipped.label})")
                del self.waiting[: index + 1]
                self.tally.outcomes[f"player {request.label}: placed"] += 1
                if request.must_refuse:
                    self.tally.forgery(f"placed: {request.label}: {entry!r}")
                break

    def standing(self) -> str:
        """Where this player's match stands, for a report of a match that did not end."""
        log = self.log
        if log is None:
            return f"{self.me[:6]}: no log"
        seen = f"{self.me[:6]}: {len(log)} entries, {log.phase}, ply {log.ply}"
        if log.phase != PLAYING:
            return seen
        seat = log.state.to_move
        mover = (log.actor(seat) or "nobody")[:6] if seat >= 0 else "the dice"
        return (
            f"{seen}, waits for {[p[:6] for p in log.waiting_for()]}, to act {mover} "
            f"(host {log.host[:6]}), event {log.next_event} owed by "
            f"{[p[:6] for p in log.members if log.owes_dice(p)]}, {len(self.waiting)} "
            f"unanswered, line {'up' if self.line else 'down'}, decided {sorted(self.decided)[-1:]}"
        )

    def _check_waiting(self) -> None:
        now = time.monotonic()
        while self.waiting and now - self.waiting[0].sent_at > ANSWER_WITHIN:
            self.tally.crash(f"hang: no answer to a request ({self.waiting.pop(0).label})")

    def _honest_refused(self, request: _Request) -> None:
        """An honest request the host refused (the match paused, a line down): owe it again."""
        self.agent.forget_unlogged()
        if request.kind == "act" and self.log is not None:
            self.decided = {key for key in self.decided if key[1] != self.log.ply}

    def _duties(self) -> None:
        log = self.log
        if log is None:
            return
        if log.phase == LOBBY and log.seat_of(self.me) is not None and not self.readied:
            self.readied = True
            self._request({"k": "ready", "ready": True})
        for request in self.agent.dice_requests(log):
            self._request(request)
        turn = self.agent.turn(log)
        if turn is not None and (turn.seat, turn.ply) not in self.decided:
            self.decided.add((turn.seat, turn.ply))
            pace = PACE if self.tally.players_left > 0 else 0.0
            asyncio.get_running_loop().call_later(pace, self._move, turn)

    def _move(self, turn: Turn) -> None:
        log = self.log
        if log is None or self.line is None or self.agent.turn(log) != turn:
            # Paused, the line down, or the match moved on while this player waited: the
            # move is owed again when the turn comes back (the match resumes, the rejoin).
            self.decided.discard((turn.seat, turn.ply))
            return
        state = log.state
        action = self.rng.choice(state.legal_actions())
        self._request(
            {"k": "act", "seat": turn.seat, "ply": turn.ply,
             "a": state.action_to_str(action), "d": state.apply(action).digest()}
        )  # fmt: skip

    def _request(self, entry: dict[str, Any]) -> None:
        log = self.log
        assert log is not None and self.line is not None
        self.n = max(self.n, log.next_n(self.me) - 1) + 1
        made = signed(log, self.identity, {**entry, "peer": self.me}, self.n)
        self._send_request(made, "honest", False)

    def _send_request(self, entry: dict[str, Any], label: str, must_refuse: bool) -> None:
        assert self.line is not None
        self.line.send({"t": "request", "e": entry})
        self.waiting.append(
            _Request(entry["sig"], label, must_refuse, time.monotonic(), entry["k"])
        )

    # -- attacking -----------------------------------------------------------------------

    async def _fuzz(self) -> None:
        while self.tally.players_left > 0:
            await asyncio.sleep(self.rng.uniform(0.5, 1.5) / RATE)
            log, line = self.log, self.line
            if log is None or line is None or log.phase != PLAYING or self.closing:
                continue
            self.tally.players_left -= 1
            self.tally.frames += 1
            if self.rng.random() < CLOSING_SHARE:
                await self._closing_frame(log)
            else:
                self._frame(log, line)

    def _forger(self, log: MatchLog) -> Forger:
        return Forger(log, dict(self.keys), Identity(self.rng.randbytes(32)), self.rng)

    def _frame(self, log: MatchLog, line: Line) -> None:
        """A frame the host must answer with a refusal, or ignore."""
        rng, forger = self.rng, self._forger(log)
        roll = rng.random()
        if roll < 0.08:
            message = rng.choice(handshake_messages(forger)[:8])
            line.send(message)
            self.tally.outcomes[f"player ignored message: sent {message['t']}"] += 1
            return
        if roll < 0.16:
            fellow = rng.choice(self.fellows)
            entry = rule_breaker(forger, fellow)
            turn = Agent(fellow).turn(log)
            if turn is not None and rng.random() < 0.7:  # a legal move, in the fellow's name
                state = log.state
                action = rng.choice(state.legal_actions())
                content = {"k": "act", "peer": fellow.peer, "seat": turn.seat, "ply": turn.ply,
                           "a": state.action_to_str(action), "d": state.apply(action).digest(),
                           "n": log.next_n(fellow.peer) + 7, "at": len(log)}  # fmt: skip
                entry = forger.signed(content, fellow)
            self._send_request(entry, "request signed by a fellow player", True)
            return
        if roll < 0.22:
            self._send_request(self._unaskable(log), "an entry nobody may ask for", True)
            return
        if roll < 0.4:
            mine = [e for e in log.entries[1:] if log.author(e) == self.me]
            base = {k: v for k, v in rng.choice(mine).items() if k != "hs"} if mine else None
            label = "a logged entry of its own replayed"
        else:
            base, label = None, "rules broken"
        if base is None:
            base = rule_breaker(forger, self.identity)
        if rng.random() < 0.6:
            changed, change, _ = forged(forger, base, None)
            if _valid_request(changed):  # a schema error would close the line: not here
                base, label = changed, f"{label}; {change}"
        self._send_request(base, label, True)

    def _unaskable(self, log: MatchLog) -> dict[str, Any]:
        """A ``join``, ``leave`` or ``host`` entry signed by this player: only a host makes
        those, and no request may carry one."""
        rng, at = self.rng, len(log)
        choice = rng.randrange(3)
        if choice == 0:
            nonce = rng.randbytes(32)
            wish = join_payload(log.match_id, log.keys[log.host], nonce, "x", "player", 0)
            entry = {"k": "join", "peer": self.me, "key": self.identity.key, "name": "x",
                     "role": "player", "seat": 0, "addr": "127.0.0.1:1", "nonce": nonce,
                     "proof": self.identity.sign(wish)}  # fmt: skip
        elif choice == 1:
            entry = {"k": "leave", "peer": rng.choice(self.fellows).peer, "reason": "gone"}
        else:
            vote = self.identity.sign(
                vote_payload(log.match_id, log.host, self.me, at, log.head_bytes(at))
            )
            entry = {"k": "host", "peer": self.me, "addr": "127.0.0.1:1",
                     "votes": [[self.me, at, vote]]}  # fmt: skip
        self.n = max(self.n, log.next_n(self.me) - 1)
        return signed(log, self.identity, entry, self.n + 1)

    async def _closing_frame(self, log: MatchLog) -> None:
        """One frame after which the host must close the line, sent when nothing else is
        awaited, by one player at a time; then wait for the close (and the rejoin)."""
        async with self.tally.closing:
            deadline = time.monotonic() + ANSWER_WITHIN
            while self.waiting and time.monotonic() < deadline:
                await asyncio.sleep(0.01)
            line = self.line
            if line is None or self.log is None or self.log.phase != PLAYING:
                return
            rng, forger = self.rng, self._forger(self.log)
            entry = rule_breaker(forger, self.identity)
            choice = rng.randrange(4)
            if choice == 0:
                label, data = "push", None
                message = carried({**entry, "hs": rng.randbytes(64)}, "push", len(self.log))
            elif choice == 1:
                label, data = "schema error", twisted({"t": "request", "e": entry}, rng)
            elif choice == 2:
                frames = _frames(forger, entry)
                label, data = "mutated frame", mutated(rng.choice(frames), rng, frames)
            else:
                label, data = "random bytes", random_bytes(rng)
            self.closed_for.clear()
            self.closing = label
            if data is None:
                line.send(message)
            else:
                line.send_raw(data)
            try:
                await asyncio.wait_for(self.closed_for.wait(), 1.0)
            except TimeoutError:
                # Valid after all, or not a whole frame: the host waits for more.  End the
                # line here (the host must then close it at once) and rejoin.
                self.tally.outcomes[f"player {label}: no close (valid, or incomplete)"] += 1
                self.closing = "hung up by the player after " + label
                line.end_writing()
                await asyncio.wait_for(self.closed_for.wait(), ANSWER_WITHIN)


def _valid_request(entry: dict[str, Any]) -> bool:
    try:
        validate({"t": "request", "e": entry})
    except MessageError:
        return False
    return True


def _frames(forger: Forger, entry: dict[str, Any]) -> list[bytes]:
    return [encode({"t": "request", "e": entry}), *(encode(m) for m in handshake_messages(forger))]


# -- strangers -----------------------------------------------------------------------------
