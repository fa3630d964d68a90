"""Matches played through match logs in one process, for the LAN tests: several peers, each
with its own :class:`MatchLog`, every entry signed by its author, placed by the host and
applied to all of them as a host would relay it."""

from __future__ import annotations

import random
import secrets

from game.rules import Variant, variant
from net.agent import Agent
from net.identity import Identity
from net.matchlog import MatchLog, placed, signed
from net.signing import join_payload, vote_payload

MATCH = "5a" * 16


class Table:
    """``players`` peers seated in order, the first hosting; entries go to every log.

    ``identities`` replaces the fixed ones (fresh ones make independent dice), ``match`` the
    match id, and ``logs`` keeps only that many logs (one is the host's, for speed where
    the peers' copies add nothing)."""

    def __init__(
        self,
        setup: Variant | str = "dama",
        players: int | None = None,
        chain: int = 4096,
        seats: list[str] | None = None,
        seated: bool = True,
        identities: list[Identity] | None = None,
        match: str = MATCH,
        logs: int | None = None,
    ) -> None:
        self.setup = setup if isinstance(setup, Variant) else variant(setup, players)
        self.identities = identities or [
            Identity(bytes([n + 1]) * 32) for n in range(self.setup.players)
        ]
        self.agents = [Agent(i) for i in self.identities]
        self.peers = [i.peer for i in self.identities]
        self.by_peer = {i.peer: i for i in self.identities}
        host = self.identities[0]
        opening = {
            "k": "match",
            "id": match,
            "setup": self.setup.to_fields(),
            "seats": seats or [""] * self.setup.players,
            "code": False,
            "host": host.peer,
            "name": "table",
            "chain": chain,
            "key": host.key,
        }
        opening = placed(None, host, signed(None, host, opening, 1))
        self.logs = [MatchLog(dict(opening)) for _ in self.peers[:logs]]
        for n, identity in enumerate(self.identities if seated else ()):
            self.put(self.join_entry(identity, f"p{n + 1}", seat=n))
            if n:
                self.put({"k": "ready", "peer": identity.peer, "ready": True})

    @property
    def log(self) -> MatchLog:
        return self.logs[0]

    def join_entry(
        self, identity: Identity, name: str, role: str = "player", seat: int = -1
    ) -> dict:
        """A join as the host logs it, with ``identity``'s proof for a fresh challenge."""
        nonce = secrets.token_bytes(32)
        host_key = self.log.keys[self.log.host]
        proof = identity.sign(join_payload(self.log.match_id, host_key, nonce, name, role, seat))
        return {
            "k": "join", "peer": identity.peer, "key": identity.key, "name": name,
            "role": role, "seat": seat, "addr": "", "nonce": nonce, "proof": proof,
        }  # fmt: skip

    def seal(self, entry: dict, log: MatchLog | None = None) -> dict:
        """``entry`` signed by its author and placed by the host, as a host would relay it."""
        log = log or self.log
        author = log.author(entry)
        made = signed(log, self.by_peer[author], entry, log.next_n(author))
        orderer = entry["peer"] if entry["k"] == "host" else log.host
        return placed(log, self.by_peer[orderer], made)

    def put(self, entry: dict) -> None:
        sealed = self.seal(entry)
        for log in self.logs:
            log.apply(dict(sealed))

    def vote(self, voter: int, candidate: int) -> list:
        """``voter``'s signed vote for ``candidate`` as the new host, holding the whole log."""
        log = self.log
        at = len(log)
        payload = vote_payload(
            log.match_id, log.host, self.peers[candidate], at, log.head_bytes(at)
        )
        return [self.peers[voter], at, self.identities[voter].sign(payload)]

    def start(self) -> None:
        self.put({"k": "start", "peer": self.peers[0]})

    def dice(self) -> bool:
        """Let every peer send the dice entries it owes; whether any did."""
        sent = False
        for agent in self.agents:
            for request in agent.dice_requests(self.log):
                self.put({**request, "peer": agent.peer})
                sent = True
        return sent

    def act_entry(self, text: str, seat: int | None = None, ply: int | None = None) -> dict:
        state = self.log.state
        seat = state.to_move if seat is None else seat
        after = state.apply(state.parse_action(text))
        return {
            "k": "act",
            "peer": self.peers[seat],
            "seat": seat,
            "ply": self.log.ply if ply is None else ply,
            "a": text,
            "d": after.digest(),
        }

    def act(self, text: str) -> None:
        self.put(self.act_entry(text))

    def settle_dice(self) -> None:
        while self.log.state.is_chance() and self.dice():
            pass

    def play_out(self, rng: random.Random, most: int = 5000) -> None:
        """Random legal actions (and fair dice) to the end."""
        for _ in range(most):
            if self.log.phase != "playing":
                return
            self.settle_dice()
            state = self.log.state
            if state.to_move < 0:
                continue
            action = rng.choice(state.legal_actions())
            self.act(state.action_to_str(action))
        raise AssertionError("the match did not end")


def forked_lobby() -> tuple[Table, MatchLog, MatchLog, int]:
    """Three players in the lobby; the host tells the second that the third left and the
    third that the second left: two logs, each signed by the host, that part at ``seq``."""
    table = Table("numeri", 3)
    first, second = table.logs[1], table.logs[2]
    seq = len(first)
    p2, p3 = table.peers[1], table.peers[2]
    first.apply(table.seal({"k": "leave", "peer": p3, "reason": "connection lost"}, first))
    second.apply(table.seal({"k": "leave", "peer": p2, "reason": "connection lost"}, second))
    return table, first, second, seq
