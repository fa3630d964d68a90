"""A LAN match played inside this process by honest peers, entry by entry, every entry signed
by its author and placed by the host as a real host relays it — no sockets, no clock.

The net benchmark takes real entries from it: their per-entry costs, and the frames its fuzz
mutates, re-signs wrongly and replays.  Everything comes from the generator it is given
(identities, match ids, join nonces, moves), so a seed gives the same match every time.
"""

from __future__ import annotations

import random
from typing import Any

from game.rules import variant
from net.agent import Agent
from net.identity import Identity
from net.matchlog import LOBBY, PLAYING, MatchLog, placed, signed
from net.signing import entry_payload, join_payload

GAMES = (("numeri", 4), ("numeri", 3), ("dama", 2), ("mulino", 2), ("ausgeblockt", 2))
"""What :func:`random_table` picks from: dice with many peers, and games without dice."""


class Table:
    """Peers seated in order around one match log, the first hosting."""

    def __init__(self, game: str, players: int, rng: random.Random) -> None:
        self.rng = rng
        self.setup = variant(game, players)
        self.identities = [Identity(rng.randbytes(32)) for _ in range(self.setup.players)]
        self.by_peer = {i.peer: i for i in self.identities}
        self.agents = {i.peer: Agent(i) for i in self.identities}
        self.host = self.identities[0]
        opening = {
            "k": "match",
            "id": rng.randbytes(16).hex(),
            "setup": self.setup.to_fields(),
            "seats": [""] * self.setup.players,
            "code": False,
            "host": self.host.peer,
            "name": "bench",
            "chain": 64,  # short chains: renewals come round often
            "key": self.host.key,
        }
        self.log = MatchLog(placed(None, self.host, signed(None, self.host, opening, 1)))

    @property
    def match_id(self) -> str:
        return self.log.match_id

    def join_entry(self, identity: Identity, seat: int, role: str = "player") -> dict[str, Any]:
        """``identity``'s join as the host logs it, with its proof for a fresh challenge."""
        nonce = self.rng.randbytes(32)
        name = f"p{seat + 1}"
        proof = identity.sign(join_payload(self.match_id, self.host.key, nonce, name, role, seat))
        return {
            "k": "join", "peer": identity.peer, "key": identity.key, "name": name,
            "role": role, "seat": seat, "addr": "127.0.0.1:1", "nonce": nonce, "proof": proof,
        }  # fmt: skip

    def made(self, entry: dict[str, Any]) -> dict[str, Any]:
        """``entry`` signed by its author after the whole log, with its next counter."""
        author = self.by_peer[self.log.author(entry)]
        return signed(self.log, author, entry, self.log.next_n(author.peer))

    def resigned(
        self, entry: dict[str, Any], by: Identity | None = None, **changes: Any
    ) -> dict[str, Any]:
        """``entry`` with ``changes`` and a signature that is right for them (by its author,
        or ``by``): what only the holder of that key can make."""
        content = {k: v for k, v in {**entry, **changes}.items() if k not in ("sig", "hs")}
        identity = by or self.by_peer[self.log.author(content)]
        at = content["at"]
        head = self.log.head_bytes(at) if at <= len(self.log) else bytes(16)
        return {**content, "sig": identity.sign(entry_payload(self.match_id, at, head, content))}

    def sealed(self, entry: dict[str, Any]) -> dict[str, Any]:
        """``entry`` signed by its author and placed next by the host: as the host relays it."""
        return placed(self.log, self.host, self.made(entry))

    def next_entry(self) -> dict[str, Any] | None:
        """The next entry an honest match would log here, sealed; None once the match is over
        or waits for nobody it can hear from."""
        log = self.log
        if log.phase == LOBBY:
            for seat, identity in enumerate(self.identities):
                if identity.peer not in log.members:
                    return self.sealed(self.join_entry(identity, seat))
            for member in log.members.values():
                if member.peer != log.host and not member.ready:
                    return self.sealed({"k": "ready", "peer": member.peer, "ready": True})
            return self.sealed({"k": "start", "peer": log.host})
        if log.phase != PLAYING:
            return None
        for peer, agent in self.agents.items():
            requests = agent.dice_requests(log)
            if requests:
                return self.sealed({**requests[0], "peer": peer})
        state = log.state
        if state.to_move < 0 or log.paused:
            return None
        action = self.rng.choice(state.legal_actions())
        after = state.apply(action)
        return self.sealed(
            {
                "k": "act", "peer": log.actor(state.to_move), "seat": state.to_move,
                "ply": log.ply, "a": state.action_to_str(action), "d": after.digest(),
            }
        )  # fmt: skip


def random_table(rng: random.Random) -> Table:
    game, players = rng.choice(GAMES)
    return Table(game, players, rng)


def played(game: str, players: int, rng: random.Random) -> Table:
    """A table whose match was played to its end."""
    table = Table(game, players, rng)
    while (entry := table.next_entry()) is not None:
        table.log.apply(entry)
    return table
