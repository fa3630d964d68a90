"""``python tools/bench.py net``: LAN play measured on this machine, never beyond it.

* **latency**: real ``python -m net`` peers on loopback with ``--trace`` (monotonic
  timestamps, one clock for every process of the machine).  An action's propagation is the
  time from its sender handing it to the host to each other peer having checked and applied
  it; a dice event's latency is the time from the first peer seeing the event pending to the
  last peer knowing the outcome.  Dama with 2 peers, Numeri with 4.
* **discovery**: a host in one network namespace, ``browse`` in another, joined by a veth
  pair (needs root): the time from launching the host until the browser lists the match.
* **fuzz**: a bounded mutation run: valid frames of every message type, mutated (bit flips,
  cut, spliced, length prefix changed, bytes inserted), each fed to the frame decoder, the
  message validation and — for entries — a live match log.  Every frame must end accepted
  or rejected with a reason: a crash or a hang is counted and fails the run.
"""

from __future__ import annotations

import copy
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

from tools.benchmarks.common import machine, percentiles

ROOT = Path(__file__).resolve().parents[2]


def bench_net(frames: int, matches: int, discovery_runs: int) -> dict:
    report: dict = {"benchmark": "net", "machine": machine()}
    report["latency_2_peers"] = _latency("dama", 2, matches)
    report["latency_4_peers"] = _latency("numeri", 4, matches)
    report["discovery"] = _discovery(discovery_runs)
    report["fuzz"] = fuzz(frames)
    return report


# -- latency -------------------------------------------------------------------------------


class _Peer:
    def __init__(self, argv: list[str], cwd: Path) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.popen = subprocess.Popen(
            argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env
        )
        self.events: list[dict] = []
        self.listening = threading.Event()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.popen.stdout is not None
        for line in self.popen.stdout:
            event = json.loads(line)
            event.setdefault("at", time.monotonic())
            self.events.append(event)
            if event.get("event") == "listening" or "change" in event:
                self.listening.set()

    def done(self, timeout: float) -> None:
        try:
            self.popen.wait(timeout)
        except subprocess.TimeoutExpired:
            self.popen.kill()
        self.reader.join(5)


def _net(*args: str) -> list[str]:
    return [sys.executable, "-m", "net", *args]


def _latency(game: str, players: int, matches: int) -> dict:
    actions: list[float] = []
    dice: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        for match in range(matches):
            common = ["--interface", "127.0.0.1", "--ai", "easy", "--trace", "--think", "1"]
            host = _Peer(
                _net("host", game, "--players", str(players), "--no-advertise",
                     "--identity", str(tmp / f"h{match}.id"), *common),
                tmp,
            )  # fmt: skip
            if not host.listening.wait(20):
                raise RuntimeError("the host did not start")
            port = next(e["port"] for e in host.events if e["event"] == "listening")
            join = _net("join", f"127.0.0.1:{port}", *common)
            guests = [
                _Peer([*join, "--identity", str(tmp / f"g{match}-{n}.id")], tmp)
                for n in range(1, players)
            ]
            peers = [host, *guests]
            for peer in peers:
                peer.done(120)
            actions += _propagation(peers)
            dice += _dice(peers)
    return {
        "game": game,
        "peers": players,
        "matches": matches,
        "action_propagation": _ms(actions),
        "dice_event": _ms(dice),
    }


def _propagation(peers: list[_Peer]) -> list[float]:
    samples = []
    for sender in peers:
        for sent in (e for e in sender.events if e["event"] == "sent"):
            for other in peers:
                if other is sender:
                    continue
                applied = next(
                    (e["at"] for e in other.events
                     if e["event"] == "action" and e["ply"] == sent["ply"]),
                    None,
                )  # fmt: skip
                if applied is not None:
                    samples.append(applied - sent["at"])
    return samples


def _dice(peers: list[_Peer]) -> list[float]:
    pending: dict[int, float] = {}
    decided: dict[int, float] = {}
    for peer in peers:
        for event in peer.events:
            if event["event"] == "pending":
                number = event["number"]
                pending[number] = min(pending.get(number, event["at"]), event["at"])
            elif event["event"] == "roll":
                number = event["number"]
                decided[number] = max(decided.get(number, event["at"]), event["at"])
    return [decided[n] - pending[n] for n in decided if n in pending]


def _ms(samples: list[float]) -> dict:
    if not samples:
        return {"samples": 0}
    figures = percentiles(samples)
    figures["samples"] = figures.pop("frames")
    return figures


# -- discovery -----------------------------------------------------------------------------


def _discovery(runs: int) -> dict:
    from tools.netns import available, private_lan

    why_not = available()
    if why_not is not None:
        return {"skipped": why_not}
    from_launch: list[float] = []
    from_listening: list[float] = []
    with tempfile.TemporaryDirectory() as folder, private_lan("b") as (a, b):
        tmp = Path(folder)
        for run in range(runs):
            browser = _Peer(
                b.command(*_net("browse", "--interface", b.address, "--timeout", "8")), tmp
            )
            time.sleep(1.0)  # the browser is up and asking
            launched = time.monotonic()
            host = _Peer(
                a.command(*_net("host", "dama", "--interface", a.address, "--name", f"b{run}",
                                "--identity", str(tmp / f"d{run}.id"))),
                tmp,
            )  # fmt: skip
            found = browser.listening.wait(10)
            seen = time.monotonic()
            host.popen.terminate()
            host.done(10)
            browser.done(15)
            if not found:
                return {"error": f"run {run}: the browser never listed the match"}
            listening = next(e["at"] for e in host.events if e["event"] == "listening")
            from_launch.append(seen - launched)
            from_listening.append(seen - listening)
    return {
        "runs": runs,
        "from_launch_s": [round(s, 3) for s in from_launch],
        "from_listening_s": [round(s, 3) for s in from_listening],
        "max_from_launch_s": round(max(from_launch), 3),
    }


# -- fuzz ----------------------------------------------------------------------------------


def _seed_messages() -> list[dict]:
    from game.rules.registry import fingerprint

    digest = "0123456789abcdef" * 2
    return [
        {"t": "hello", "version": 1, "rules": fingerprint(), "key": bytes(range(32)),
         "name": "Anna", "role": "player", "seat": -1, "listen": 40000, "have": 0,
         "head": None, "code": None},
        {"t": "welcome", "match": digest, "you": digest, "host": digest, "seq": 3},
        {"t": "request", "e": {"k": "act", "seat": 1, "ply": 1, "a": "11-15", "d": digest}},
        {"t": "request", "e": {"k": "reveal", "event": 1, "v": bytes(32)}},
        {"t": "request", "e": {"k": "commit", "first": 1, "c": bytes(32)}},
        {"t": "entry", "seq": 9, "e": {"k": "seat", "peer": digest, "seat": 1}},
        {"t": "entry", "seq": 9, "e": {"k": "act", "peer": digest, "seat": 0, "ply": 0,
                                        "a": "22-18", "d": digest}},
        {"t": "reject", "reason": "out of turn", "kind": "act"},
        {"t": "ping", "n": 7},
        {"t": "bye", "reason": "match over"},
    ]  # fmt: skip


def _mutate(frame: bytes, rng: random.Random, frames: list[bytes]) -> bytes:
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
            data[spot:spot] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
        else:
            spot = rng.randrange(len(data) + 1)
            data[spot:spot] = rng.choice([b"\xc1", b"\xd4\x00\x00", b"\xdd\xff\xff\xff\xff",
                                          b"\xdb\x7f\xff\xff\xff", b"\xc7\x00\x05"])  # fmt: skip
    return bytes(data)


_ODD_VALUES = (None, True, -1, 0, 2**31 + 1, 2**63, 1.5, "", "x" * 400, "22-18\x00", b"",
               b"\0" * 33, [], [1] * 20, {}, {"k": "act"}, "ff" * 16, "FF" * 16)  # fmt: skip


def _twist(message: dict, rng: random.Random) -> bytes:
    """``message`` with a field changed, removed or added, still valid msgpack."""
    import msgpack

    message = copy.deepcopy(message)
    target = message["e"] if "e" in message and rng.random() < 0.6 else message
    keys = list(target)
    choice = rng.randrange(3)
    if choice == 0 and keys:
        target[rng.choice(keys)] = rng.choice(_ODD_VALUES)
    elif choice == 1 and keys:
        del target[rng.choice(keys)]
    else:
        target[rng.choice(["x", "t", "k", "peer", "seq"])] = rng.choice(_ODD_VALUES)
    body = msgpack.packb(message, use_bin_type=True)
    return len(body).to_bytes(4, "big") + body


def _general(reason: str) -> str:
    """A reason with its numbers left out, so that alike reasons count together."""
    return re.sub(r"\d+", "N", reason)[:60]


def fuzz(count: int, seed: int = 1) -> dict:
    """Feed ``count`` mutated frames through everything a peer runs on received bytes."""
    from game.rules import variant
    from net.framing import FrameDecoder, FrameError, encode
    from net.matchlog import MatchLog, Rejected
    from net.messages import MessageError, validate

    rng = random.Random(seed)
    frames = [encode(m) for m in _seed_messages()]
    opening = {
        "k": "match", "id": "ab" * 16, "setup": variant("dama").to_fields(), "seats": ["", ""],
        "code": False, "host": "01" * 16, "name": "fuzz", "chain": 64,
    }  # fmt: skip
    log = MatchLog(opening)
    outcomes: Counter[str] = Counter()
    crashes: list[str] = []
    slowest = 0.0
    began = time.perf_counter()
    seeds = _seed_messages()
    for _ in range(count):
        if rng.random() < 0.5:
            data = _mutate(rng.choice(frames), rng, frames)
        else:
            data = _twist(rng.choice(seeds), rng)
        start = time.perf_counter()
        try:
            messages = FrameDecoder().feed(data)
            if not messages:
                outcomes["incomplete (waits for more bytes)"] += 1
            for message in messages:
                validate(message)
                if message["t"] == "entry":
                    log.apply(message["e"])
                outcomes["accepted"] += 1
        except FrameError as error:
            outcomes["frame: " + _general(str(error).split(":")[0])] += 1
        except MessageError as error:
            outcomes["message: " + _general(str(error))] += 1
        except Rejected:
            outcomes["entry refused by the match log"] += 1
        except Exception as error:  # a crash: the one thing this run is here to find
            crashes.append(f"{type(error).__name__}: {error} <- {data[:60]!r}")
        slowest = max(slowest, time.perf_counter() - start)
    seconds = time.perf_counter() - began
    return {
        "frames": count,
        "crashes": len(crashes),
        "crash_examples": crashes[:5],
        "slowest_frame_ms": round(slowest * 1000, 3),
        "frames_per_second": round(count / seconds),
        "outcomes": dict(outcomes.most_common(12)),
        "distinct_outcomes": len(outcomes),
    }
