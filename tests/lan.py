"""Real peers for the LAN tests: ``python -m net`` processes on loopback
(:class:`~net.testing.peer_process.PeerProcess`) and a hand-driven guest speaking the
protocol over a real socket."""

from __future__ import annotations

import asyncio
import secrets
import time
from pathlib import Path

from game.rules.registry import fingerprint
from net.connection import Closed, Connection
from net.identity import Identity
from net.matchlog import MatchLog, signed
from net.messages import PROTOCOL_VERSION
from net.signing import join_payload
from net.testing.peer_process import PeerProcess


def host(tmp: Path, game: str, *extra: str, name: str = "host") -> tuple[PeerProcess, int]:
    process = PeerProcess.net(
        "host", game, "--interface", "127.0.0.1", "--no-advertise", "--name", name,
        "--identity", str(tmp / f"{name}.id"), "--record", str(tmp / f"{name}.rec"), *extra,
        cwd=tmp,
    )  # fmt: skip
    return process, process.wait_for("listening")["port"]


def guest(tmp: Path, port: int, name: str, *extra: str) -> PeerProcess:
    return PeerProcess.net(
        "join", f"127.0.0.1:{port}", "--interface", "127.0.0.1", "--name", name,
        "--identity", str(tmp / f"{name}.id"), "--record", str(tmp / f"{name}.rec"), *extra,
        cwd=tmp,
    )  # fmt: skip


class RawGuest:
    """A guest driven by hand: every message is the test's to choose, right or wrong."""

    def __init__(
        self, connection: Connection, identity: Identity, hello: dict, sealed: dict | None = None
    ) -> None:
        self.connection = connection
        self.identity = identity
        self.key = identity.key
        self.hello = hello
        self.sealed = sealed or {}
        """What goes with the proof, once the host proved its key: ``code``, ``vote``."""
        self.log: MatchLog | None = None
        self.messages: list[dict] = []
        self.n = 0

    @property
    def peer(self) -> str:
        return self.identity.peer

    @classmethod
    async def join(
        cls, port: int, name: str = "raw", identity: Identity | None = None, prove: bool = True,
        **changes,
    ) -> RawGuest:  # fmt: skip
        """Connect and say hello (with ``changes``; a ``code`` or ``vote`` among them goes
        with the proof); unless ``prove`` is False, answer the host's challenge as an honest
        peer would."""
        identity = identity or Identity.fresh()
        sealed = {k: changes.pop(k) for k in ("code", "vote") if k in changes}
        connection = await Connection.open("127.0.0.1", port)
        hello = {
            "t": "hello", "version": PROTOCOL_VERSION, "rules": fingerprint(),
            "key": identity.key, "nonce": secrets.token_bytes(32), "name": name,
            "role": "player", "seat": -1, "listen": 0, "have": 0, "head": None, "code": None,
            "vote": None, **changes,
        }  # fmt: skip
        connection.send(hello)
        raw = cls(connection, identity, hello, sealed)
        if prove:
            await raw.prove()
        return raw

    async def prove(self) -> dict:
        """Answer the host's challenge; returns it."""
        challenge = await self.connection.receive(10.0)
        self.messages.append(challenge)
        if challenge["t"] != "challenge":
            return challenge
        hello = self.hello
        payload = join_payload(
            challenge["match"], challenge["key"], challenge["nonce"], hello["name"],
            hello["role"], hello["seat"],
        )  # fmt: skip
        self.connection.send({"t": "proof", "sig": self.identity.sign(payload), **self.sealed})
        return challenge

    async def next(self, timeout: float = 10.0) -> dict:
        """The next message, entries applied to this guest's own log on the way."""
        message = await asyncio.wait_for(self.connection.receive(), timeout)
        self.messages.append(message)
        if message["t"] == "entry":
            if self.log is None:
                self.log = MatchLog(message["e"])
            else:
                self.log.apply(message["e"])
        return message

    async def until(self, predicate, timeout: float = 20.0) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            message = await self.next(max(0.01, deadline - time.monotonic()))
            if predicate(message):
                return message

    def signed(self, entry: dict) -> dict:
        """``entry`` made by this guest: its id, its next number, its signature."""
        assert self.log is not None
        self.n = max(self.n, self.log.next_n(self.peer) - 1) + 1
        return signed(self.log, self.identity, {**entry, "peer": self.peer}, self.n)

    def request(self, entry: dict) -> None:
        """Send ``entry`` signed by this guest (unless it already carries a signature)."""
        self.connection.send({"t": "request", "e": entry if "sig" in entry else self.signed(entry)})

    async def closed_reason(self, timeout: float = 10.0) -> str:
        try:
            while True:
                await self.next(timeout)
        except Closed as closed:
            return closed.reason


def joined(raw: RawGuest):
    """A predicate for :meth:`RawGuest.until`: the entry of ``raw``'s own join."""
    return lambda m: m["t"] == "entry" and m["e"]["k"] == "join" and m["e"]["peer"] == raw.peer
