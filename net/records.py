"""Net match records: the whole match log in a file, and the check anyone can run on it.

A record is msgpack ``{"tavolo-net-record": 3, "entries": [...]}``: every entry of the log
in order.  :func:`verify` replays it through the same :class:`net.matchlog.MatchLog` every
peer ran — every author's signature and the host's placing signature of every entry, every
join proof and host-change vote, every commitment, every reveal against its commitment and
the commitments its author had seen, every roll recomputed from the reveals, every action
checked and its digest compared — and reports what it found.

A record may also hold ``fork``: the proof that the host showed another member a different
log (docs/PROTOCOL.md §6.7) — the position, the host's key, the two heads and the host's two
signatures.  Such a record does not verify: the log in it is one of two the host signed.
:func:`compare` names where two records of one match part, and who signed both.

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
from net.identity import fingerprint
from net.matchlog import MatchLog, Rejected, replay
from net.messages import PROTOCOL_VERSION
from net.witness import check_proof, reign

RECORD_VERSION = 3
READABLE = {2: 2, RECORD_VERSION: PROTOCOL_VERSION}
"""Record versions this code verifies, each with the protocol version whose rules it follows."""
MAX_RECORD = 64 * 1024 * 1024


class RecordError(ValueError):
    """A file that is not a readable net match record."""


def save(path: Path, log: MatchLog, fork: dict[str, Any] | None = None) -> None:
    """Write ``log`` to ``path`` atomically (temporary file, fsync, rename), with the proof
    of a ``fork`` if this peer caught the host in one (:meth:`net.witness.Fork.to_record`)."""
    atomic_write(path, encode(log, fork))


def encode(log: MatchLog, fork: dict[str, Any] | None = None) -> bytes:
    """The bytes of ``log``'s record (what :func:`save` writes; a tournament record keeps
    these bytes of each match it scores, under their SHA-256)."""
    content: dict[str, Any] = {"tavolo-net-record": RECORD_VERSION, "entries": log.entries}
    if fork is not None:
        content["fork"] = fork
    return bytes(msgpack.packb(content, use_bin_type=True))


def load(path: Path) -> list[dict[str, Any]]:
    """The entries of the record at ``path`` (of any readable version)."""
    return read(path)[1]


def read(path: Path) -> tuple[int, list[dict[str, Any]]]:
    """The version and the entries of the record at ``path``."""
    version, entries, _ = read_all(path)
    return version, entries


def read_all(path: Path) -> tuple[int, list[dict[str, Any]], dict[str, Any] | None]:
    """The version, the entries and the fork proof (None if it holds none) of the record
    at ``path``."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise RecordError(f"cannot read {path}: {error.strerror or error}") from error
    return parse(data, str(path))


def parse(
    data: bytes, name: str = "the record"
) -> tuple[int, list[dict[str, Any]], dict[str, Any] | None]:
    """The version, the entries and the fork proof of the record whose bytes are ``data``
    (``name`` says which, in the error)."""
    if len(data) > MAX_RECORD:
        raise RecordError(f"{name} is too large for a match record")
    limits = {**LIMITS, "max_array_len": 1_000_000}
    try:
        content = msgpack.unpackb(data, raw=False, strict_map_key=True, **limits)
    except (msgpack.UnpackException, ValueError, TypeError) as error:
        raise RecordError(f"{name} is not a match record (not msgpack: {error})") from error
    version = content.get("tavolo-net-record") if isinstance(content, dict) else None
    if not isinstance(version, int) or version not in READABLE:
        known = " or ".join(str(v) for v in sorted(READABLE))
        raise RecordError(f"{name} is not a version {known} net match record")
    assert isinstance(content, dict)
    entries = content.get("entries")
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise RecordError(f"{name}: the entries are not a list of maps")
    fork = content.get("fork")
    if fork is not None and not isinstance(fork, dict):
        raise RecordError(f"{name}: the fork proof is not a map")
    return version, entries, fork


def verify(
    entries: list[dict[str, Any]], version: int = RECORD_VERSION, fork: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Replay ``entries`` of a record of ``version``; a report with ``ok`` and what was
    checked, or the first fault.  A record holding a ``fork`` proof that checks out is not
    ``ok``: the report names the entry, the key that signed both heads and which is here."""
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
    if log.record.setup is not None:  # the moves are played from there
        report["start"] = log.record.setup
    if rules < PROTOCOL_VERSION:
        report["doubts"] = log.doubts
    if fork is not None:
        report.update(_forked(log, fork))
    return report


def _forked(log: MatchLog, fork: dict[str, Any]) -> dict[str, Any]:
    """What a record's fork proof shows about its ``log``."""
    problem = check_proof(fork)
    if problem is None and fork["match"] != log.match_id:
        problem = "the fork proof is of another match"
    if problem is None and not 0 <= fork["seq"] < len(log):
        problem = "the fork proof is of an entry this record does not hold"
    if problem is not None:
        return {"ok": False, "error": f"a fork proof that does not hold: {problem}"}
    seq, key = fork["seq"], fork["key"]
    here = log.heads[seq]
    other = next((h for h in fork["heads"] if h != here), fork["heads"][1])
    signer = fingerprint(key)
    return {
        "ok": False,
        "fork": {"entry": seq + 1, "key": signer, "here": here, "other": other},
        "error": (
            f"the host {signer} signed two different logs at entry {seq + 1}: this record "
            f"holds {here}, another member was shown {other} (the match cannot be trusted)"
        ),
    }


def compare(
    first: list[dict[str, Any]],
    second: list[dict[str, Any]],
    names: tuple[str, str] = ("the first record", "the second record"),
) -> dict[str, Any]:
    """Where two records of one match part (each must replay on its own): nowhere (one
    holds the other's start), at a ``host`` entry (a take-over, docs/PROTOCOL.md §6.5: the
    deposed host's later entries were dropped), or at a **fork** — the same key placed
    both entries, in the same reign — whose entry, key and heads the report names."""
    a, b = replay(first), replay(second)
    if a.match_id != b.match_id:
        return {"ok": False, "error": "the two records are of different matches"}
    seq = next((n for n in range(min(len(a), len(b))) if a.heads[n] != b.heads[n]), None)
    if seq is None:
        return {"ok": True, "parted": None, "text": "the two records do not part"}
    (since_a, placer_a), (since_b, placer_b) = reign(a, seq), reign(b, seq)
    if (since_a, placer_a) != (since_b, placer_b):
        text = f"the two records part at entry {seq + 1}, where a new host took over"
        return {"ok": True, "parted": seq + 1, "text": text}
    signer = fingerprint(a.keys[placer_a])
    holds = {names[0]: a.heads[seq], names[1]: b.heads[seq]}
    return {
        "ok": False,
        "parted": seq + 1,
        "fork": {"entry": seq + 1, "key": signer, "records": holds},
        "error": (
            f"a fork at entry {seq + 1}: the host {signer} signed both; {names[0]} holds "
            f"{a.heads[seq]} ({a.entries[seq]['k']}), {names[1]} holds {b.heads[seq]} "
            f"({b.entries[seq]['k']})"
        ),
    }
