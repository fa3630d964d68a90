"""The exact bytes every signature of the protocol covers (docs/PROTOCOL.md §5.2).

Each begins with its own domain label, so a signature made for one purpose is never valid
for another, and with the match id, so none is valid in another match — a tournament log's
(docs/PROTOCOL.md §14.5) with the tournament id, so none is valid in another tournament.
Integers are 8-byte big-endian; heads are the 16-byte log fingerprints; ``pack`` is msgpack
with the map's keys sorted (:func:`packed`).
"""

from __future__ import annotations

from typing import Any

import msgpack

from net.fairdice import digest

NO_HEAD = bytes(16)
"""The head before the first entry."""


def packed(entry: dict[str, Any]) -> bytes:
    """An entry's canonical bytes: msgpack with its keys in order, the signatures left out
    as the caller says."""
    return msgpack.packb(dict(sorted(entry.items())), use_bin_type=True)


def _number(value: int) -> bytes:
    return value.to_bytes(8, "big")


def entry_payload(match: str, at: int, head_at: bytes, entry: dict[str, Any]) -> bytes:
    """What an entry's author signs: the entry (without ``sig`` and ``hs``) after the first
    ``at`` entries of the log, whose head is ``head_at``."""
    content = {k: v for k, v in entry.items() if k not in ("sig", "hs")}
    return b"tavolo-entry\0" + bytes.fromhex(match) + _number(at) + head_at + packed(content)


def order_payload(match: str, seq: int, head: bytes) -> bytes:
    """What the host signs to place an entry: its position and the head of the log ending
    in it (which covers the entry and everything before)."""
    return b"tavolo-order\0" + bytes.fromhex(match) + _number(seq) + head


def join_payload(
    match: str, host_key: bytes, nonce: bytes, name: str, role: str, seat: int
) -> bytes:
    """What a peer signs to join: the host's key and fresh challenge, and what it asks for."""
    wish = msgpack.packb([name, role, seat], use_bin_type=True)
    return b"tavolo-join\0" + bytes.fromhex(match) + host_key + nonce + wish


def host_payload(match: str, guest_key: bytes, guest_nonce: bytes) -> bytes:
    """What a host signs to show a guest it holds its key, for this guest's fresh nonce."""
    return b"tavolo-host\0" + bytes.fromhex(match) + guest_key + guest_nonce


def vote_payload(match: str, old_host: str, candidate: str, at: int, head_at: bytes) -> bytes:
    """What a player signs to make ``candidate`` the host in place of ``old_host``, holding
    the first ``at`` entries of the log."""
    return (
        b"tavolo-vote\0"
        + bytes.fromhex(match)
        + bytes.fromhex(old_host)
        + bytes.fromhex(candidate)
        + _number(at)
        + head_at
    )


def tournament_payload(tournament: str, at: int, head_at: bytes, entry: dict[str, Any]) -> bytes:
    """What a tournament's director signs: the log entry (without ``sig``) placed at position
    ``at`` after the entries whose head is ``head_at`` (docs/PROTOCOL.md, TOURNAMENT LOG)."""
    content = {k: v for k, v in entry.items() if k != "sig"}
    return (
        b"tavolo-tournament\0" + bytes.fromhex(tournament) + _number(at) + head_at + packed(content)
    )


def entrant_payload(
    tournament: str, director_key: bytes, opened: bytes, name: str, computer: bool
) -> bytes:
    """What a player signs to enter a tournament: this director's, whose opening entry has
    the head ``opened`` (so its game, format and name), under ``name`` — a computer player
    is an identity the director holds, and says so here."""
    wish = msgpack.packb([name, computer], use_bin_type=True)
    return b"tavolo-entrant\0" + bytes.fromhex(tournament) + director_key + opened + wish


def tournament_match(tournament: str, round_: int, board: int) -> str:
    """The match id of game ``board`` (from 0) of round ``round_``: bound to them, so a match
    record can be scored for that pairing only."""
    seed = b"tavolo-pairing\0" + bytes.fromhex(tournament) + _number(round_) + _number(board)
    return digest(seed)[:16].hex()


def director_payload(player_key: bytes, player_nonce: bytes) -> bytes:
    """What a tournament's director signs to show a player connecting to it that it holds
    its key, for the player's fresh nonce (the key is then held against the log's)."""
    return b"tavolo-director\0" + player_key + player_nonce


def attendance_payload(tournament: str, director_key: bytes, director_nonce: bytes) -> bytes:
    """What a player signs to show the director, on each connection, that it holds the key
    it names: this tournament's, this director's, its fresh nonce (an entrant proof is kept
    in the log for anyone to copy; this is not)."""
    return b"tavolo-attendance\0" + bytes.fromhex(tournament) + director_key + director_nonce
