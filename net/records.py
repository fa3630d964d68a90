"""Net match records: the whole match log in a file, and the check anyone can run on it.

A record is msgpack ``{"tavolo-net-record": 2, "entries": [...]}``: every entry of the log
in order.  :func:`verify` replays it through the same :class:`net.matchlog.MatchLog` every
peer ran — every author's signature and the host's placing signature of every entry, every
join proof and host-change vote, every commitment, every reveal against its commitment,
every roll recomputed from the reveals, every action checked and its digest compared — and
reports what it found.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgpack

from game.files import atomic_write
from net.framing import LIMITS
from net.matchlog import MatchLog, Rejected, replay

RECORD_VERSION = 2
MAX_RECORD = 64 * 1024 * 1024


class RecordError(ValueError):
    """A file that is not a readable net match record."""


def save(path: Path, log: MatchLog) -> None:
    """Write ``log`` to ``path`` atomically (temporary file, fsync, rename)."""
    data = msgpack.packb(
        {"tavolo-net-record": RECORD_VERSION, "entries": log.entries}, use_bin_type=True
    )
    atomic_write(path, data)


def load(path: Path) -> list[dict[str, Any]]:
    try:
        data = path.read_bytes()
    except OSError as error:
        raise RecordError(f"cannot read {path}: {error.strerror or error}") from error
    if len(data) > MAX_RECORD:
        raise RecordError(f"{path} is too large for a match record")
    limits = {**LIMITS, "max_array_len": 1_000_000}
    try:
        content = msgpack.unpackb(data, raw=False, strict_map_key=True, **limits)
    except (msgpack.UnpackException, ValueError, TypeError) as error:
        raise RecordError(f"{path} is not a match record (not msgpack: {error})") from error
    if not isinstance(content, dict) or content.get("tavolo-net-record") != RECORD_VERSION:
        raise RecordError(f"{path} is not a version {RECORD_VERSION} net match record")
    entries = content.get("entries")
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise RecordError(f"{path}: the entries are not a list of maps")
    return entries


def verify(entries: list[dict[str, Any]]) -> dict[str, Any]:
    """Replay ``entries``; a report with ``ok`` and what was checked, or the first fault."""
    try:
        log = replay(entries)
    except Rejected as error:
        return {"ok": False, "error": error.reason}
    result = log.state.result()
    return {
        "ok": True,
        "match": log.match_id,
        "game": log.variant.describe(),
        "entries": len(log),
        "rolls": len(log.rolls),
        "plies": log.ply,
        "phase": log.phase,
        "result": str(result) if result else log.end_reason,
        "forfeit": [log.members[p].name for p in log.forfeit],
        "signatures": 2 * len(log)
        + sum(1 for e in log.entries if e["k"] == "join")
        + sum(len(e["votes"]) for e in log.entries if e["k"] == "host"),
        "digest": log.state.digest(),
        "moves": list(log.record.notation()),
    }
