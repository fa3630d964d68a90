"""Tournament records: the whole tournament log in a file with every match record it scores,
and the check anyone can run on it offline (``python -m net verify``).

A record is msgpack ``{"tavolo-tournament-record": 1, "entries": [...], "records": {...}}``:
the log's entries in order and each match record's bytes (:func:`net.records.encode`) under
the hex SHA-256 its ``result`` names.  :func:`verify` replays the log through the same
:class:`net.tournament_log.TournamentLog` every participant ran — the director's signature
and the chain of every entry, every player's own entry proof, every round against the
system's pairing, every match record replayed and held against its pairing and result — then
checks the tournament as a whole once more (:func:`game.tournament.check_tournament`) and
reports the standings and the log's head.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgpack

from game.files import atomic_write
from game.tournament import TIE_BREAKS, check_tournament
from net.framing import LIMITS
from net.identity import fingerprint
from net.records import MAX_RECORD
from net.tournament_log import Rejected, TournamentLog, record_digest, replay_tournament

TOURNAMENT_VERSION = 1
KEY = "tavolo-tournament-record"


class TournamentRecordError(ValueError):
    """A file that is not a readable tournament record; the text says why."""


class NotATournament(TournamentRecordError):  # noqa: N818 - an answer: try it as a match record
    """A file of msgpack that is no tournament record (perhaps a match record)."""


def encode(entries: list[dict[str, Any]], match_records: list[bytes]) -> bytes:
    """The bytes of a record of the log ``entries`` holding ``match_records`` (each as
    kept)."""
    content = {
        KEY: TOURNAMENT_VERSION,
        "entries": entries,
        "records": {record_digest(data).hex(): data for data in match_records},
    }
    return bytes(msgpack.packb(content, use_bin_type=True))


def game_files(log: TournamentLog, match_records: dict[bytes, bytes]) -> list[tuple[str, bytes]]:
    """What exporting a tournament's games writes: the whole tournament record
    (``tournament.tavolo-tournament``) and every scored game's match record under a name
    that says which it is (``round-2-board-1-Anna-Bruno.tavolo-net``, as a LAN match's record
    is kept), each readable by ``python -m net verify``."""
    files = [("tournament.tavolo-tournament", encode(log.entries, list(match_records.values())))]
    tournament = log.tournament
    for (number, board), digest in sorted(log.scored.items()):
        if digest is None or digest not in match_records or tournament is None:
            continue  # a forfeit without a record
        pairing = tournament.rounds[number - 1].pairings[board]
        names = "-".join(_file_word(log.entrants[p].name) for p in pairing.players)
        name = f"round-{number}-board-{board + 1}-{names}.tavolo-net"
        files.append((name, match_records[digest]))
    return files


def _file_word(name: str) -> str:
    return "".join(c if c.isalnum() else "_" for c in name).strip("_")[:24] or "player"


def save(path: Path, log: TournamentLog, match_records: list[bytes]) -> None:
    """Write the record atomically (temporary file, fsync, rename)."""
    atomic_write(path, encode(log.entries, match_records))


def parse(data: bytes, name: str = "the record") -> tuple[list[dict[str, Any]], dict[bytes, bytes]]:
    """The entries and the match records (by digest) of the tournament record ``data``;
    :class:`NotATournament` for other msgpack, :class:`TournamentRecordError` for a
    tournament record that cannot be read — a match record kept under another digest than
    its own included."""
    if len(data) > MAX_RECORD:
        raise TournamentRecordError(f"{name} is too large for a tournament record")
    limits = {**LIMITS, "max_array_len": 1_000_000, "max_map_len": 10_000}
    limits["max_bin_len"] = MAX_RECORD  # the match records, kept whole
    try:
        content = msgpack.unpackb(data, raw=False, strict_map_key=True, **limits)
    except (msgpack.UnpackException, ValueError, TypeError) as error:
        raise NotATournament(f"{name} is not msgpack: {error}") from error
    if not isinstance(content, dict) or KEY not in content:
        raise NotATournament(f"{name} is not a tournament record")
    if content[KEY] != TOURNAMENT_VERSION:
        raise TournamentRecordError(f"{name} is not a version {TOURNAMENT_VERSION} tournament")
    entries, kept = content.get("entries"), content.get("records")
    if not isinstance(entries, list) or not isinstance(kept, dict):
        raise TournamentRecordError(f"{name}: no list of entries and map of match records")
    match_records: dict[bytes, bytes] = {}
    for digest, data in kept.items():
        if not isinstance(data, bytes) or record_digest(data).hex() != digest:
            raise TournamentRecordError(f"{name}: the match record {digest!r} is not its digest's")
        match_records[record_digest(data)] = data
    return entries, match_records


def load(path: Path) -> tuple[list[dict[str, Any]], dict[bytes, bytes]]:
    """:func:`parse` of the file at ``path``."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise TournamentRecordError(f"cannot read {path}: {error.strerror or error}") from error
    return parse(data, str(path))


def verify(entries: list[dict[str, Any]], match_records: dict[bytes, bytes]) -> dict[str, Any]:
    """Replay a tournament record: a report with ``ok``, the standings and the log's head,
    or the first fault."""
    try:
        log = replay_tournament(entries, match_records)
    except Rejected as error:
        return {"ok": False, "tournament": True, "error": error.reason}
    faults = check_tournament(log.tournament) if log.tournament is not None else []
    if faults:
        return {"ok": False, "tournament": True, "error": "; ".join(faults)}
    used = {digest for digest in log.scored.values() if digest is not None}
    tournament = log.tournament
    return {
        "ok": True,
        "tournament": True,
        "id": log.id,
        "name": log.name,
        "director": fingerprint(log.director),
        "game": log.game.describe(),
        "format": log.format.value,
        "players": len(log.entrants),
        "rounds": len(tournament.rounds) if tournament is not None else 0,
        "entries": len(log),
        "matches": len(used),
        "unscored": sorted(d.hex() for d in set(match_records) - used),
        "over": log.over,
        "head": log.head,
        "standings": standings_of(log),
    }


def standings_of(log: TournamentLog) -> list[dict[str, Any]]:
    """The standings of ``log`` as ``verify`` and the headless peers print them."""
    breaks = TIE_BREAKS[log.format]
    return [
        {
            "rank": line.rank,
            "player": line.player.id,
            "name": line.player.name,
            "computer": log.entrants[line.player.id].computer,
            "points": float(line.points),
            "tie_breaks": {b: float(v) for b, v in zip(breaks, line.tie_breaks, strict=True)},
        }
        for line in log.standings()
    ]
