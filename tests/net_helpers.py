"""Matches played through match logs in one process, for the LAN tests: several peers, each
with its own :class:`MatchLog`, every entry applied to all of them as a host would relay it."""

from __future__ import annotations

import random

from game.rules import Variant, variant
from net.agent import Agent
from net.identity import Identity
from net.matchlog import MatchLog


class Table:
    """``players`` peers seated in order, the first hosting; entries go to every log."""

    def __init__(
        self, setup: Variant | str = "dama", players: int | None = None, chain: int = 4096
    ) -> None:
        self.setup = setup if isinstance(setup, Variant) else variant(setup, players)
        self.identities = [Identity(bytes([n + 1]) * 32) for n in range(self.setup.players)]
        self.agents = [Agent(i) for i in self.identities]
        self.peers = [i.peer for i in self.identities]
        opening = {
            "k": "match",
            "id": "5a" * 16,
            "setup": self.setup.to_fields(),
            "seats": [""] * self.setup.players,
            "code": False,
            "host": self.peers[0],
            "name": "table",
            "chain": chain,
        }
        self.logs = [MatchLog(dict(opening)) for _ in self.peers]
        for n, peer in enumerate(self.peers):
            self.put({"k": "join", "peer": peer, "name": f"p{n + 1}", "role": "player", "addr": ""})
            self.put({"k": "seat", "peer": peer, "seat": n})
            if n:
                self.put({"k": "ready", "peer": peer, "ready": True})

    @property
    def log(self) -> MatchLog:
        return self.logs[0]

    def put(self, entry: dict) -> None:
        for log in self.logs:
            log.apply(dict(entry))

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
