"""``python tools/bench.py tournament``: a whole tournament night over loopback — one
``python -m net tournament host`` and N ``python -m net tournament join`` processes, each
player's games played by the computer at a level, every game an ordinary signed LAN match
between the two players' own processes (issue 31's benchmark: 16 players, a Swiss of five
rounds of Mulino at *easy*).

It reports the wall time from the director listening to its ``over``; the CPU each process
used (user + system, from its own ``getrusage`` at exit — the director's apart, the players'
as a total and the busiest); and, for every round after the first, the time from the round's
last ``result`` to the next round's ``round`` as the director wrote them — the wait a player
who finished last sees before the next pairing (target ≤ 1 s).  Every line is stamped the
moment it reaches this process, so both ends of a gap carry the same pipe's delay.

It fails loudly (``ok: false`` and why) if a process does not end well or the participants do
not end with one digest.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Any

from net.testing.peer_process import PeerProcess
from tools.benchmarks.common import machine

HANG = 1800.0
"""Seconds after which a process that has not ended is taken for hung."""
WITH_USAGE = (
    "import atexit, json, resource, sys\n"
    "def _usage():\n"
    "    used = resource.getrusage(resource.RUSAGE_SELF)\n"
    "    seconds = used.ru_utime + used.ru_stime\n"
    "    print(json.dumps({'event': 'cpu', 'seconds': seconds}), flush=True)\n"
    "atexit.register(_usage)\n"
    "from net.__main__ import main\n"
    "sys.exit(main(sys.argv[1:]))\n"
)
"""``python -m net`` that writes, last, the CPU its process used."""


def _net(*args: str, cwd: Path) -> PeerProcess:
    return PeerProcess([sys.executable, "-c", WITH_USAGE, *args], cwd=cwd)


def _player(tmp: Path, address: str, n: int, level: str) -> PeerProcess:
    return _net(
        "tournament", "join", address, "--ai", level, "--interface", "127.0.0.1",
        "--name", f"player {n + 1}", "--identity", str(tmp / f"{n}.id"),
        "--record", str(tmp / f"{n}.rec"), cwd=tmp,
    )  # fmt: skip


def bench_tournament(players: int, game: str, format_: str, rounds: int, level: str) -> dict:
    with tempfile.TemporaryDirectory(prefix="tavolo-tournament-") as folder:
        return _night(Path(folder), players, game, format_, rounds, level)


def _night(tmp: Path, count: int, game: str, format_: str, rounds: int, level: str) -> dict:
    report: dict[str, Any] = {
        "benchmark": "tournament", "machine": machine(), "game": game, "format": format_,
        "players": count, "rounds_asked": rounds, "level": level,
    }  # fmt: skip
    extra = ["--rounds", str(rounds)] if rounds else []
    director = _net(
        "tournament", "host", game, "--players", str(count), "--format", format_,
        "--interface", "127.0.0.1", "--no-advertise", "--record", str(tmp / "director"),
        *extra, cwd=tmp,
    )  # fmt: skip
    players: list[PeerProcess] = []
    try:
        listening = director.wait_for("listening", 60.0)
        started = listening["at"]
        address = f"127.0.0.1:{listening['port']}"
        players = [_player(tmp, address, n, level) for n in range(count)]
        codes = [p.finish(HANG) for p in players] + [director.finish(HANG)]
    finally:
        for process in [director, *players]:
            process.kill()
    failed = [
        f"{name}: exit {code}: {process.tail()}"
        for name, code, process in zip(
            [f"player {n + 1}" for n in range(count)] + ["director"],
            codes,
            [*players, director],
            strict=True,
        )
        if code != 0
    ]
    if failed:
        return {**report, "ok": False, "failed": failed[:3]}
    events = director.events
    over = next(e for e in events if e["event"] == "over")
    digests = {_last(p.events, "over")["digest"] for p in players}
    cpu = [_last(p.events, "cpu")["seconds"] for p in players]
    results = [e for e in events if e["event"] == "result"]
    return {
        **report,
        "ok": digests == {over["digest"]},
        "one_digest": digests == {over["digest"]},
        "rounds": max(e["round"] for e in events if e["event"] == "round"),
        "games": len(results),
        "wall_seconds": round(over["at"] - started, 2),
        "director_cpu_seconds": round(_last(events, "cpu")["seconds"], 2),
        "players_cpu_seconds": {"total": round(sum(cpu), 1), "most": round(max(cpu), 1)},
        "pairing_after_last_result_ms": _pairing_gaps(events),
        "results_by_score": _counts(results),
    }


def _pairing_gaps(events: list[dict[str, Any]]) -> dict[str, float]:
    """For each round after the first: from the last result of the round before to its own
    ``round`` event, in milliseconds."""
    gaps = {}
    for event in events:
        if event["event"] == "round" and event["round"] > 1:
            before = [
                e["at"] for e in events
                if e["event"] == "result" and e["round"] == event["round"] - 1
            ]  # fmt: skip
            gaps[f"round {event['round']}"] = round(1000 * (event["at"] - max(before)), 1)
    return gaps


def _counts(results: list[dict[str, Any]]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for result in results:
        counts[result["result"]] = counts.get(result["result"], 0) + 1
    return counts


def _last(events: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    return next(e for e in reversed(events) if e["event"] == kind)
