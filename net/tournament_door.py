"""The door of a tournament's director, both sides of it (docs/PROTOCOL.md §14.6): on every
connection each side proves its key for the other's fresh nonce, and the player says how
much of the log it holds — the director's side in :func:`knock`, the player's in
:func:`enter`.  What the director then does with a player (enter it, or refuse it) is the
director's (:mod:`net.tournament_director`).
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass
from typing import Any

from game.rules.registry import fingerprint
from net.connection import HANDSHAKE_TIMEOUT, Closed, Connection
from net.identity import Identity, peer_id, verify
from net.signing import attendance_payload, director_payload
from net.tournament_log import Rejected, TournamentLog, entrant_proof
from net.tournament_messages import TOURNAMENT_VERSION


class Untrusted(Exception):  # noqa: N818 - the end of following a director, with the reason
    """A director this player stops following: it refused the player, or it is not the
    tournament's, or it sent what does not check out; ``reason`` says which."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Knock:
    """A player at the director's door, its key proved."""

    key: bytes
    name: str
    computer: bool
    proof: bytes | None
    """Its entry proof (*entrant*), for a player not yet entered."""
    have: int
    """The log entries it holds, which end in the director's head of as many."""
    code: str | None = None
    """The tournament's join code as the player gave it (None: none)."""
    watch: bool = False
    """Only watching (a TV): never entered, sent the log and the live boards."""

    @property
    def player(self) -> str:
        return peer_id(self.key)


async def knock(connection: Connection, log: TournamentLog, director: Identity) -> Knock:
    """The director's side: the player on ``connection`` once both keys are proved and its
    log is found to be a beginning of ``log``; :class:`Closed`, said in a ``bye``, if not."""
    deadline = time.monotonic() + HANDSHAKE_TIMEOUT

    async def refuse(reason: str) -> Closed:
        return Closed(await connection.close(reason))

    enter = await connection.receive_by(deadline)
    if enter["t"] != "enter":
        raise await refuse("expected an enter first")
    if enter["version"] != TOURNAMENT_VERSION:
        raise await refuse(
            f"tournament protocol version mismatch: the director speaks version "
            f"{TOURNAMENT_VERSION}, this player {enter['version']}"
        )
    if enter["rules"] != fingerprint():
        raise await refuse("rules mismatch: update Tavolo on both computers")
    nonce = secrets.token_bytes(32)
    proof = director.sign(director_payload(enter["key"], enter["nonce"]))
    connection.send({"t": "director", "key": director.key, "sig": proof, "nonce": nonce,
                     "open": log.entries[0]})  # fmt: skip
    entrant = await connection.receive_by(deadline)
    if entrant["t"] != "entrant":
        raise await refuse("expected an entrant")
    if not verify(enter["key"], attendance_payload(log.id, log.director, nonce), entrant["sig"]):
        raise await refuse("the proof of identity does not check out")
    have, head = enter["have"], enter["head"]
    if have > len(log) or (have and log.heads[have - 1] != head):
        raise await refuse("this player's tournament log differs from the director's")
    return Knock(
        enter["key"], entrant["name"], entrant["computer"], entrant["proof"], have,
        entrant["code"], entrant["watch"],
    )  # fmt: skip


async def enter(
    connection: Connection,
    me: Identity,
    held: TournamentLog | None,
    name: str,
    computer: bool,
    code: str | None = None,
    expected: bytes | None = None,
    watch: bool = False,
) -> tuple[TournamentLog, int]:
    """The player's side: its log — ``held``, or begun from the director's opening the first
    time — and the director's log length when it admitted the player.  :class:`Untrusted`
    if the director refuses or is not the one of ``held``'s tournament; :class:`Closed` if
    the line is lost on the way (the director may be sought again).  ``code`` is the
    tournament's join code, which a director that has one asks of a newcomer; ``expected``
    the director's key as announced, demanded before anything of the player's is sent;
    ``watch``: only to watch (never entered)."""
    nonce = secrets.token_bytes(32)
    connection.send({"t": "enter", "version": TOURNAMENT_VERSION, "rules": fingerprint(),
                     "key": me.key, "nonce": nonce, "have": 0 if held is None else len(held),
                     "head": None if held is None else held.heads[-1]})  # fmt: skip
    deadline = time.monotonic() + 2 * HANDSHAKE_TIMEOUT
    director = await _reply(connection, deadline, "director")
    if not verify(director["key"], director_payload(me.key, nonce), director["sig"]):
        raise Untrusted("the director's proof of identity does not check out")
    if expected is not None and director["key"] != expected:
        raise Untrusted("the director there holds another key than the one announced")
    log = _tournament(director, held)
    entering = not watch and me.peer not in log.entrants
    proof = entrant_proof(me, log, name, computer) if entering else None
    sig = me.sign(attendance_payload(log.id, log.director, director["nonce"]))
    connection.send({"t": "entrant", "sig": sig, "name": name, "computer": computer,
                     "proof": proof, "code": code or None, "watch": watch})  # fmt: skip
    admitted = await _reply(connection, deadline, "admitted")
    return log, admitted["entries"]


async def _reply(connection: Connection, deadline: float, kind: str) -> dict[str, Any]:
    """The director's ``kind`` by ``deadline``: a director that refuses (its ``bye``) is the
    answer; a line lost on the way is not."""
    try:
        message = await connection.receive_by(deadline)
    except Closed as closed:
        full = closed.reason in ("too many strangers", "too many connections from this address")
        if full or closed.reason.startswith(("connection ", "no answer by the deadline")):
            raise  # a line lost, or a door full for now (§10): the director is sought again
        raise Untrusted(f"the director refused: {closed.reason}") from closed
    if message["t"] != kind:
        raise Untrusted(f"the director sent {message['t']} for {kind}")
    return message


def _tournament(director: dict[str, Any], held: TournamentLog | None) -> TournamentLog:
    if held is not None:
        if director["open"] != held.entries[0] or director["key"] != held.director:
            raise Untrusted("that director is not the director of this player's tournament")
        return held
    try:
        log = TournamentLog(director["open"])
    except Rejected as error:
        raise Untrusted(f"the tournament's opening does not check out: {error.reason}") from error
    if log.director != director["key"]:
        raise Untrusted("the director is not the one who opened the tournament")
    return log
