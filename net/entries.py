"""The match log's words, and one entry as its author and the host make it: the log's
phases, the refusal every rule raises, the shape checked before any rule, the fingerprint a
log grows by, the author's and the host's signatures.

This is what a peer needs to *write* the log; :class:`net.matchlog.MatchLog` *judges* it.
docs/PROTOCOL.md §5 has the fields and §5.2 the signed bytes (:mod:`net.signing`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from net.fairdice import digest
from net.identity import Identity
from net.messages import MessageError, validate_entry
from net.signing import NO_HEAD, entry_payload, order_payload, packed

if TYPE_CHECKING:
    from net.matchlog import MatchLog

LOBBY, PLAYING, OVER, ABANDONED = "lobby", "playing", "over", "abandoned"
"""The phases of a match log: seats are taken, the game is played, it ended by its rules
(or a draw agreed), or it was given up after a drop (an ``end`` entry)."""


class Rejected(Exception):  # noqa: N818 - an answer, not a failure of this program
    """An entry that does not follow from the log; ``reason`` says why in plain words."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def require(condition: bool, reason: str) -> None:
    """Refuse the entry at hand with ``reason`` unless ``condition``."""
    if not condition:
        raise Rejected(reason)


def checked(entry: object) -> dict[str, Any]:
    """``entry`` if it has the shape of a log entry (:func:`net.messages.validate_entry`),
    else :class:`Rejected` with what is wrong."""
    if not isinstance(entry, dict):
        raise Rejected("an entry is a map")
    try:
        return validate_entry(entry)
    except MessageError as error:
        raise Rejected(str(error)) from error


def entry_digest(previous: str, entry: dict[str, Any]) -> str:
    """The fingerprint of a log ending in ``entry`` whose earlier part had ``previous``:
    BLAKE2b over the previous one and the entry (without the host's placing signature,
    which signs this fingerprint) packed with its keys in order."""
    content = {k: v for k, v in entry.items() if k != "hs"}
    return digest(bytes.fromhex(previous) + packed(content))[:16].hex()


def signed(
    log: MatchLog | None, identity: Identity, entry: dict[str, Any], n: int
) -> dict[str, Any]:
    """``entry`` with its author's counter ``n``, the length of ``log`` (what the author has
    seen) and the author's signature: a request ready to send."""
    at = len(log) if log is not None else 0
    head = log.head_bytes(at) if log is not None else NO_HEAD
    match = log.match_id if log is not None else entry["id"]
    entry = {**entry, "n": n, "at": at}
    return {**entry, "sig": identity.sign(entry_payload(match, at, head, entry))}


def placed(log: MatchLog | None, identity: Identity, entry: dict[str, Any]) -> dict[str, Any]:
    """``entry`` with the host's signature placing it next in ``log``."""
    position = len(log) if log is not None else 0
    previous = log.heads[-1] if log is not None else ""
    match = log.match_id if log is not None else entry["id"]
    head = bytes.fromhex(entry_digest(previous, entry))
    return {**entry, "hs": identity.sign(order_payload(match, position, head))}
