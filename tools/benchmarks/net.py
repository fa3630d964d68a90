"""``python tools/bench.py net``: LAN play measured on this machine, never beyond it.

* **latency**: real ``python -m net`` peers on loopback with ``--hold-trace`` (monotonic
  timestamps, one clock for every process of the machine).  An action's propagation is the
  time from its sender handing it to the host to each other peer having checked and applied
  it; a dice event's latency is the time from the first peer seeing the event pending to the
  last peer knowing the outcome — reported also apart for each match's first event, which
  waits for every peer's first commitment, and the events after it.  Dama with 2 peers,
  Numeri with 4; computer players at *easy*, so the match runs as fast as the peers go.
* **scale**: Numeri with 4 players (processes, as above) and 32 spectators, each on a
  connection of its own from a loopback address of its own, all in one process of their own
  (:mod:`net.testing.clients`) that stamps each message as its bytes arrive.  A
  spectator's time for an entry is that stamp plus the spectator's own full check of it
  (validation and :meth:`MatchLog.apply`, timed on its own log after the match): checked
  live, 32 spectators in one process would queue behind each other's checks, which 32
  computers would not.  The propagation covers all 35 receivers of each action.
* **entry costs**: signing an entry, checking its author's and the host's signatures, and
  :meth:`MatchLog.apply` of a whole entry (signatures and rules), per entry, in µs.
* **discovery**: a host in one network namespace, ``browse`` in another, joined by a veth
  pair (needs root): the time from launching the host until the browser lists the match.
* **fuzz**: :mod:`net.testing.fuzz_log` (the decoder, the validation and live match logs, in this
  process) and :mod:`net.testing.fuzz_host` (real hosts over sockets): crashes and forgeries
  accepted must be 0.

The machine's load average is reported before and after each part: other work on the
machine shows up in the latencies.
"""

from __future__ import annotations

import os
import random
import sys
import tempfile
import time
from pathlib import Path
from statistics import median

from net.testing.peer_process import PeerProcess, PeerWaitError
from tools.benchmarks.common import machine, percentiles

ROOT = Path(__file__).resolve().parents[2]
TARGETS_MS = {"action_4_peers": 2.0, "dice_event": 5.0, "scale": 10.0}
SPECTATORS = 32
SOCKET_SHARE = 0.1
"""Of the fuzz's frames, those thrown at real hosts over sockets (the rest in process)."""


def bench_net(
    frames: int, matches: int, discovery_runs: int, socket_frames: int | None = None
) -> dict:
    report: dict = {"benchmark": "net", "machine": machine(), "targets_p99_ms": TARGETS_MS}
    report["latency_2_peers"] = _loaded(_latency, "dama", 2, matches)
    report["latency_4_peers"] = _loaded(_latency, "numeri", 4, matches)
    report["scale"] = _loaded(_scale, matches, SPECTATORS)
    report["entry_costs"] = _loaded(entry_costs)
    report["discovery"] = _loaded(_discovery, discovery_runs)
    report["fuzz"] = _loaded(fuzz, frames, 1, socket_frames)
    return report


def _loaded(part, *args) -> dict:
    """``part(*args)``, with the machine's load average before and after."""
    before = os.getloadavg()[0]
    result = part(*args)
    return {**result, "load_average_before_after": [round(before, 2), round(os.getloadavg()[0], 2)]}


# -- latency -------------------------------------------------------------------------------


def _listening(peer: PeerProcess, timeout: float) -> bool:
    """Whether the peer came to listen (a host), join (a guest) or list a change (a browser)
    within ``timeout``."""
    try:
        peer.wait_until(
            lambda e: e.get("event") in ("listening", "joined") or "change" in e,
            timeout,
            "its start",
        )
    except PeerWaitError:
        return False
    return True


def _port(peer: PeerProcess) -> int:
    port: int = next(e["port"] for e in peer.events if e["event"] == "listening")
    return port


def _net(*args: str) -> list[str]:
    return [sys.executable, "-m", "net", *args]


COMMON = ["--interface", "127.0.0.1", "--ai", "easy", "--hold-trace", "--think", "1"]


def _host(game: str, players: int, tmp: Path, name: str) -> PeerProcess:
    host = PeerProcess(
        _net("host", game, "--players", str(players), "--no-advertise",
             "--identity", str(tmp / f"{name}.id"), *COMMON),
        cwd=tmp,
    )  # fmt: skip
    if not _listening(host, 20):
        raise RuntimeError("the host did not start")
    return host


def _guests(port: int, count: int, tmp: Path, name: str) -> list[PeerProcess]:
    join = _net("join", f"127.0.0.1:{port}", *COMMON)
    return [
        PeerProcess([*join, "--identity", str(tmp / f"{name}-{n}.id")], cwd=tmp)
        for n in range(count)
    ]


def _latency(game: str, players: int, matches: int) -> dict:
    actions: list[float] = []
    by_arrival: list[list[float]] = [[] for _ in range(players - 1)]
    dice: list[dict[int, float]] = []
    pressure = _CpuPressure()
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        for match in range(matches):
            host = _host(game, players, tmp, f"h{match}")
            peers = [host, *_guests(_port(host), players - 1, tmp, f"g{match}")]
            for peer in peers:
                peer.finish(120)
            actions += _propagation(peers)
            for arrival, samples in zip(by_arrival, _propagation_by_arrival(peers), strict=True):
                arrival += samples
            dice.append(_dice(peers))
    return {
        "game": game,
        "peers": players,
        "matches": matches,
        "action_propagation": _ms(actions),
        "action_propagation_by_arrival": [_ms(samples) for samples in by_arrival],
        **(_dice_figures(dice) if any(dice) else {}),
        **pressure.figures(),
    }


class _CpuPressure:
    """The share of the time some runnable process of the machine waited for a core
    (Linux pressure stall information, ``/proc/pressure/cpu``), from its making until
    :meth:`figures`: how much of a latency is queueing for the processors rather than work."""

    PATH = Path("/proc/pressure/cpu")

    def __init__(self) -> None:
        self._began = (time.monotonic(), self._stalled_us())

    def _stalled_us(self) -> int | None:
        try:
            some = self.PATH.read_text().splitlines()[0]
        except (OSError, IndexError):
            return None
        return int(some.rsplit("total=", 1)[1])

    def figures(self) -> dict:
        began, stalled = self._began
        now = self._stalled_us()
        if stalled is None or now is None:
            return {}
        share = (now - stalled) / 1e6 / (time.monotonic() - began)
        return {"cpu_pressure_some_share": round(share, 3)}


def _applied(peer: PeerProcess) -> dict[int, float]:
    return {e["ply"]: e["at"] for e in peer.events if e["event"] == "action"}


def _propagation(peers: list[PeerProcess], to: list[dict[int, float]] | None = None) -> list[float]:
    """From each action's sender's ``sent`` to each other peer having applied it, or, with
    ``to``, to each of those receivers (ply → when it had the action)."""
    return [took for times in _receipts(peers, to) for took in times]


def _propagation_by_arrival(peers: list[PeerProcess]) -> list[list[float]]:
    """The propagations apart by the order the receivers had each action in: the first
    receiver's, the second's… — one protocol path, the later ones queued behind the earlier
    for the machine's cores."""
    arrivals: list[list[float]] = [[] for _ in range(len(peers) - 1)]
    for times in _receipts(peers):
        for arrival, took in zip(arrivals, sorted(times), strict=False):  # a peer gone: fewer
            arrival.append(took)
    return arrivals


def _receipts(peers: list[PeerProcess], to: list[dict[int, float]] | None = None):
    """For each action sent, the times each receiver (the other peers, or ``to``) took to
    have it."""
    applied = [_applied(p) for p in peers]
    for number, sender in enumerate(peers):
        receivers = to if to is not None else applied[:number] + applied[number + 1 :]
        for sent in (e for e in sender.events if e["event"] == "sent"):
            yield [r[sent["ply"]] - sent["at"] for r in receivers if sent["ply"] in r]


def _dice(peers: list[PeerProcess], spectators: list[dict[int, float]] = ()) -> dict[int, float]:
    """For each chance event (by number), from the first peer seeing it pending to the last
    peer (or spectator) knowing its outcome."""
    pending: dict[int, float] = {}
    decided: dict[int, float] = {}
    known = [{e["number"]: e["at"] for e in p.events if e["event"] == "roll"} for p in peers]
    for peer in peers:
        for event in peer.events:
            if event["event"] == "pending":
                number = event["number"]
                pending[number] = min(pending.get(number, event["at"]), event["at"])
    for rolls in [*known, *spectators]:
        for number, at in rolls.items():
            decided[number] = max(decided.get(number, at), at)
    return {n: decided[n] - pending[n] for n in decided if n in pending}


def _dice_figures(events: list[dict[int, float]]) -> dict:
    """The dice latency of every event, and apart: each match's first event — which waits
    for every peer's first commitment before anyone reveals — and the events after it."""
    return {
        "dice_event": _ms([t for match in events for t in match.values()]),
        "dice_first_event": _ms([t for match in events for n, t in match.items() if n == 1]),
        "dice_later_events": _ms([t for match in events for n, t in match.items() if n > 1]),
    }


def _ms(samples: list[float]) -> dict:
    if not samples:
        return {"samples": 0}
    figures = percentiles(samples)
    figures["samples"] = figures.pop("frames")
    return figures


# -- scale: 4 players, 32 spectators -------------------------------------------------------


def _scale(matches: int, spectators: int) -> dict:
    to_players: list[float] = []
    received: list[float] = []
    checked: list[float] = []
    dice: list[dict[int, float]] = []
    agree = True
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        for match in range(matches):
            host = _host("numeri", 4, tmp, f"sh{match}")
            watchers = _Spectators(_port(host), spectators, tmp)
            if not _listening(watchers, 60):
                raise RuntimeError("the spectators could not join")
            peers = [host, *_guests(_port(host), 3, tmp, f"sg{match}")]
            for peer in [*peers, watchers]:
                peer.finish(180)
            views = watchers.views()
            agree = agree and len(views) == spectators and len({v["head"] for v in views}) == 1
            to_players += _propagation(peers)
            received += _propagation(peers, [v["received"] for v in views])
            checked += _propagation(peers, [v["checked"] for v in views])
            dice.append(_dice(peers, [v["rolls"] for v in views]))
    return {
        "game": "numeri",
        "players": 4,
        "spectators": spectators,
        "matches": matches,
        "spectators_agree": agree,
        "action_propagation": _ms(to_players + checked),
        "to_players": _ms(to_players),
        "to_spectators_received": _ms(received),
        "to_spectators_checked": _ms(checked),
        **_dice_figures(dice),
    }


class _Spectators(PeerProcess):
    """The spectators, in a process of their own (:mod:`net.testing.clients`): in
    this one, their stamps would wait for the interpreter's lock behind the readers."""

    def __init__(self, port: int, count: int, cwd: Path) -> None:
        module = "net.testing.clients"
        super().__init__([sys.executable, "-m", module, str(port), str(count)], cwd=cwd)

    def views(self) -> list[dict]:
        """Each spectator's view, with plies and event numbers as numbers again."""
        views = [e for e in self.events if e["event"] == "view"]
        for view in views:
            for part in ("received", "checked", "rolls"):
                view[part] = {int(k): v for k, v in view[part].items()}
        return views


# -- the cost of an entry ------------------------------------------------------------------


def entry_costs(seed: int = 1, repeat: int = 5) -> dict:
    """Per entry of a played 4-player Numeri match: signing, checking each signature, and
    applying it whole; medians in µs (actions, and every entry by kind for the apply)."""
    from net.framing import encode
    from net.identity import verify
    from net.matchlog import MatchLog
    from net.signing import entry_payload, order_payload
    from net.testing.tables import played

    table = played("numeri", 4, random.Random(seed))
    log = table.log
    acts = [(n, e) for n, e in enumerate(log.entries) if e["k"] == "act"]
    payloads = [
        (
            table.by_peer[e["peer"]],
            entry_payload(log.match_id, e["at"], log.head_bytes(e["at"]), e),
            e,
        )
        for _, e in acts
    ]
    placings = [
        (order_payload(log.match_id, n, bytes.fromhex(log.heads[n])), e["hs"]) for n, e in acts
    ]
    host_key = log.keys[log.host]

    def each(work, items) -> float:
        times = []
        for _ in range(repeat):
            for item in items:
                began = time.perf_counter()
                work(item)
                times.append(time.perf_counter() - began)
        return round(median(times) * 1e6, 1)

    applying: dict[str, list[float]] = {}
    for _ in range(repeat):
        fresh = MatchLog(log.entries[0])
        for entry in log.entries[1:]:
            began = time.perf_counter()
            fresh.apply(entry)
            applying.setdefault(entry["k"], []).append(time.perf_counter() - began)
    return {
        "game": "numeri, 4 players",
        "entries": len(log),
        "action_entry_bytes": median(
            len(encode({"t": "entry", "seq": n, "e": e})) for n, e in acts
        ),
        "sign_us": each(lambda p: p[0].sign(p[1]), payloads),
        "verify_author_us": each(lambda p: verify(p[0].key, p[1], p[2]["sig"]), payloads),
        "verify_placing_us": each(lambda p: verify(host_key, p[0], p[1]), placings),
        "apply_us": {kind: round(median(t) * 1e6, 1) for kind, t in sorted(applying.items())},
    }


# -- discovery -----------------------------------------------------------------------------


def _discovery(runs: int) -> dict:
    from net.testing.netns import available, private_lan

    why_not = available()
    if why_not is not None:
        return {"skipped": why_not}
    from_launch: list[float] = []
    from_listening: list[float] = []
    with tempfile.TemporaryDirectory() as folder, private_lan("b") as (a, b):
        tmp = Path(folder)
        for run in range(runs):
            browser = PeerProcess(
                b.command(*_net("browse", "--interface", b.address, "--timeout", "8")), cwd=tmp
            )
            time.sleep(1.0)  # the browser is up and asking
            launched = time.monotonic()
            host = PeerProcess(
                a.command(*_net("host", "dama", "--interface", a.address, "--name", f"b{run}",
                                "--identity", str(tmp / f"d{run}.id"))),
                cwd=tmp,
            )  # fmt: skip
            found = _listening(browser, 10)
            seen = time.monotonic()
            host.popen.terminate()
            host.finish(10)
            browser.finish(15)
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


def fuzz(count: int, seed: int = 1, over_sockets: int | None = None) -> dict:
    """``count`` fuzzed frames: :data:`SOCKET_SHARE` of them (or ``over_sockets``) at real
    hosts over loopback, the rest at the decoder, the validation and match logs."""
    from net.testing.fuzz_host import fuzz_host
    from net.testing.fuzz_log import fuzz_log

    sockets = round(count * SOCKET_SHARE) if over_sockets is None else over_sockets
    in_process = fuzz_log(count - sockets, seed)
    hosts = fuzz_host(sockets, seed) if sockets else {"frames": 0, "crashes": 0,
                                                      "forgeries_accepted": 0}  # fmt: skip
    return {
        "frames": in_process["frames"] + hosts["frames"],
        "crashes": in_process["crashes"] + hosts["crashes"],
        "forgeries_accepted": in_process["forgeries_accepted"] + hosts["forgeries_accepted"],
        "in_process": in_process,
        "over_sockets": hosts,
    }
