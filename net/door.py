"""The handshake, both sides of it, and a newcomer's catch-up: how a peer comes in.

**Both keys are proven before anything that needs trust is said** (docs/PROTOCOL.md §4.1).
The guest's ``hello`` names only who it is and what it holds; the host answers with a
``challenge`` carrying its signature of the guest's fresh nonce; only once that checks out —
and, when the guest expects a key (announced, given with ``--key``, or in its log), only if
it is that key — does the guest send its ``proof``, and with it the join code and its vote.
A host that cannot prove the key it is asked for never learns the code.  (The hello still
has its ``code`` and ``vote`` fields, always nil since protocol version 4, so that a host of
version 3 reads it far enough to name the version mismatch.)

**A newcomer is a stranger until it is in** (§10): its place at the door
(:class:`net.gate.Slot`) is held through the handshake *and* the catch-up from it
(:func:`catch_up_from`), and given back only when it is welcomed or gone.  A key that
claims a long history and then sends nothing therefore counts against the door's limits
(64 in all, 8 per address, the oldest turned away for a newcomer) for as long as it is
waited for, instead of holding a file descriptor outside them for half a minute.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from typing import Any

from game.rules.registry import fingerprint
from net.connection import HANDSHAKE_TIMEOUT, Closed, Connection
from net.identity import Identity, peer_id, verify
from net.identity import fingerprint as key_fingerprint
from net.matchlog import MatchLog, Rejected
from net.messages import PROTOCOL_VERSION
from net.signing import host_payload, join_payload

CATCH_UP_PER_ENTRY, CATCH_UP_MOST = 0.005, 30.0
"""Seconds a catch-up may take beyond the handshake's, per entry claimed and at most."""
DIVERGED = "this peer's match log differs from the host's"


class Unproven(Closed):
    """The peer at the other end did not prove the key it was asked for (or did not answer
    at all): nothing that needs trust was sent to it, and another address may be tried."""


Expected = bytes | str | None
"""The key a guest asks its host to prove: that key, a key whose fingerprint begins with the
text given (``python -m net join ADDRESS:PORT --key 6C2C-751B``), or None for any key."""


def is_expected(key: bytes, expected: Expected) -> bool:
    """Whether a host's proven ``key`` is the one asked for."""
    if isinstance(expected, str):
        wanted = expected.strip().upper()
        return bool(wanted) and key_fingerprint(key).startswith(wanted)
    return expected is None or key == expected


def catch_up_deadline(entries: int) -> float:
    """When ``entries`` log entries owed over a line must all be in: the handshake's time
    and a little for each, capped (a fixed deadline, which pings do not move)."""
    return (
        time.monotonic()
        + HANDSHAKE_TIMEOUT
        + min(CATCH_UP_MOST, CATCH_UP_PER_ENTRY * max(0, entries))
    )


# -- the host's side -----------------------------------------------------------------------


async def introduce(
    connection: Connection, log: MatchLog | None, identity: Identity, notice: Callable[[str], None]
) -> tuple[dict[str, Any], str] | None:
    """The newcomer's hello and the proof that it holds its key: (hello, peer id), the hello
    completed with the proof's ``code`` and ``vote``, its ``proof`` and this host's
    ``challenge`` nonce; None when refused (the line is closed with the reason)."""
    deadline = time.monotonic() + HANDSHAKE_TIMEOUT  # for hello and proof: pings move nothing
    hello = await connection.receive_by(deadline)
    if hello["t"] != "hello":
        await connection.close("expected a hello first")
        return None
    if log is None:
        await connection.close("this peer is not in a match")
        return None
    reason = None
    if hello["version"] != PROTOCOL_VERSION:
        reason = (
            f"protocol version mismatch: the host speaks version {PROTOCOL_VERSION}, "
            f"this peer {hello['version']}; update Tavolo on both computers"
        )
    elif hello["rules"] != fingerprint():
        reason = (
            "rules mismatch: the host and this peer run different versions of the game "
            f"rules ({fingerprint()[:8]} and {hello['rules'][:8]}); update Tavolo"
        )
    elif hello.get("code") is not None or hello.get("vote") is not None:
        reason = "the join code and the vote go in the proof, once the host has proved its key"
    if reason is not None:
        await connection.close(reason)
        notice(f"refused {hello['name']}: {reason}")
        return None
    nonce = secrets.token_bytes(32)
    connection.send(
        {
            "t": "challenge",
            "match": log.match_id,
            "key": identity.key,
            "nonce": nonce,
            "sig": identity.sign(host_payload(log.match_id, hello["key"], hello["nonce"])),
        }
    )
    proof = await connection.receive_by(deadline)
    wish = join_payload(
        log.match_id, identity.key, nonce, hello["name"], hello["role"], hello["seat"]
    )
    if proof["t"] != "proof" or not verify(hello["key"], wish, proof["sig"]):
        await connection.close("the proof of identity does not check out")
        return None
    hello = {
        **hello, "code": proof.get("code"), "vote": proof.get("vote"), "proof": proof["sig"],
        "challenge": nonce,
    }  # fmt: skip
    return hello, peer_id(hello["key"])


async def catch_up_from(
    connection: Connection, log: MatchLog, have: int, taken: Callable[[dict[str, Any]], None]
) -> bool:
    """Take the entries a newcomer holds beyond ``log`` (it heard more of a host that is
    gone), each checked as any entry: signed by its author and placed by that host;
    ``taken`` is called with each once applied.  False if the line was closed.  The
    caller still holds the newcomer's place at the door (see the module's docstring)."""
    if have > len(log):
        connection.send({"t": "want", "from": len(log)})
    # One fixed deadline for the whole catch-up, which pings do not move.
    deadline = catch_up_deadline(have - len(log))
    while have > len(log):
        push = await connection.receive_by(deadline)
        if push["t"] != "push" or push["seq"] != len(log):
            await connection.close("expected the missing log entries")
            return False
        try:
            log.apply(push["e"])
        except Rejected as error:
            await connection.close(f"{DIVERGED} (entry {push['seq']}: {error.reason})")
            return False
        taken(push["e"])
    return True


# -- the guest's side ----------------------------------------------------------------------


async def present(
    connection: Connection,
    identity: Identity,
    wish: tuple[str, str, int],
    listen: int,
    log: MatchLog | None,
    have: int,
    host_key: Expected = None,
    code: str | None = None,
    vote: bytes | None = None,
) -> None:
    """Hello, the host's proof checked, this peer's proof with ``code`` and ``vote``: the
    guest's half of the handshake up to the host's answer (raises :class:`Closed`).
    ``wish`` is (name, role, seat); ``have`` the entries of ``log`` this peer offers;
    ``host_key``, if given, the only key the host may prove (:data:`Expected`)."""
    name, role, seat = wish
    nonce = secrets.token_bytes(32)
    connection.send(
        {
            "t": "hello", "version": PROTOCOL_VERSION, "rules": fingerprint(),
            "key": identity.key, "nonce": nonce, "name": name, "role": role, "seat": seat,
            "listen": listen, "have": have,
            "head": log.heads[have - 1] if log is not None and have else None,
            "code": None, "vote": None,  # sent with the proof, once the host proved its key
        }
    )  # fmt: skip
    # A fixed deadline, as the host's for the hello: an impostor that only pings cannot
    # hold a guest that has other addresses to try.
    try:
        challenge = await connection.receive_by(time.monotonic() + HANDSHAKE_TIMEOUT)
    except Closed as closed:
        raise Unproven(closed.reason) from closed
    if challenge["t"] != "challenge":
        await connection.close("expected the host's challenge")
        raise Unproven("the host answered the hello with something else")
    match, key = challenge["match"], challenge["key"]
    if not verify(key, host_payload(match, identity.key, nonce), challenge["sig"]):
        await connection.close("the host's proof of identity does not check out")
        raise Unproven("that host cannot prove who it is")
    if not is_expected(key, host_key):
        await connection.close("not the host expected")
        raise Unproven("that host's key is not the one announced, known or given: an impostor?")
    if log is not None and match != log.match_id:
        await connection.close("a different match")
        raise Closed("that peer hosts a different match")
    proof = identity.sign(join_payload(match, key, challenge["nonce"], name, role, seat))
    connection.send({"t": "proof", "sig": proof, "code": code, "vote": vote})
