"""Net match records: the whole match log in a file, and the check anyone can run on it.

A record is msgpack ``{"tavolo-net-record": 3, "entries": [...]}``: every entry of the log
in order.  :func:`verify` replays it through the same :class:`net.matchlog.MatchLog` every
peer ran — every author's signature and the host's placing signature of every entry, every
join proof and host-change vote, every commitment, every reveal against its commitment and
the commitments its author had seen, every roll recomputed from the reveals, every action
checked and its digest compared — and reports what it found.

A version 2 record (protocol version 2, before the dice were frozen when a die opens) is
replayed by the rules its peers ran, and the report lists as ``doubts`` every reveal that
version 3 would refuse: one made before a commitment that decided its event, the mark a
host leaves that chose its dice after seeing the others' (docs/PROTOCOL.md §7.1).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgpack

from game.files import atomic_write
from net.framing import LIMITS
from net.matchlog import MatchLog, Rejected, replay
from net.messages import PROTOCOL_VERSION

RECORD_VERSION = 3
READABLE = {2: 2, RECORD_VERSION: PROTOCOL_VERSION}
"""Record versions this code verifies, each with the protocol version whose rules it follows."""
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
    """The entries of the record at ``path`` (of any readable version)."""
    return read(path)[1]


def read(path: Path) -> tuple[int, list[dict[str, Any]]]:
    """The version and the entries of the record at ``path``."""
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
    version = content.get("tavolo-net-record") if isinstance(content, dict) else None
    if not isinstance(version, int) or version not in READABLE:
        known = " or ".join(str(v) for v in sorted(READABLE))
        raise RecordError(f"{path} is not a version {known} net match record")
    assert isinstance(content, dict)
    entries = content.get("entries")
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise RecordError(f"{path}: the entries are not a list of maps")
    return version, entries


def verify(entries: list[dict[str, Any]], version: int = RECORD_VERSION) -> dict[str, Any]:
    """Replay ``entries`` of a record of ``version``; a report with ``ok`` and what was
    checked, or the first fault."""
    rules = READABLE.get(version)
    if rules is None:
        return {"ok": False, "error": f"a version {version} record cannot be verified here"}
    try:
        log = replay(entries, rules)
    except Rejected as error:
        return {"ok": False, "version": version, "error": error.reason}
    result = log.state.result()
    report: dict[str, Any] = {
        "ok": True,
        "version": version,
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
    if rules < PROTOCOL_VERSION:
        report["doubts"] = log.doubts
    return report
