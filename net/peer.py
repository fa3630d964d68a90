"""A peer of a LAN match: host or guest, on one asyncio loop, off any frame loop.

The **host** listens, checks each newcomer's hello (protocol version, rules fingerprint,
join code), orders everything into the match log and relays every entry to every peer.
A **guest** connects, catches up from the log and from then on applies each entry the host
relays — checking it exactly as the host did (:class:`net.matchlog.MatchLog`), so a host
that relayed something illegal is caught by everyone.  Both send what their
:class:`net.agent.Agent` says they owe (dice) and the decisions of the seats they play.

When the host's line drops, the guests take the first connected player in join order as
the new host (each guest listens from the start and has told everybody where); it logs a
``host`` entry and the match goes on.  When a player's line drops the match pauses on every
screen; the player may come back with the same identity and catch up, or, after the drop
timeout, the others give the seat to the computer or end the match.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass

from game.ai.players import choose
from game.rules import RulesError, State, Variant
from game.rules.registry import fingerprint
from net.agent import Agent, Turn
from net.connection import HANDSHAKE_TIMEOUT, Closed, Connection
from net.fairdice import CHAIN_LENGTH
from net.identity import Identity, peer_id
from net.matchlog import LOBBY, PLAYING, MatchLog, Rejected
from net.messages import PROTOCOL_VERSION

REQUESTABLE = {"seat", "ready", "commit", "reveal", "act", "computer", "offer", "end"}
"""Entry kinds a guest may ask the host to log (the others are the host's own)."""
ONLY_ASKED = REQUESTABLE - {"seat"}
"""Kinds the host never logs in a guest's name unasked (it seats a newcomer itself): one in
this peer's name that this peer did not send means the host forged it."""
PROMOTION_WAIT = 5.0
"""Seconds a guest that was contacted as the new host waits to notice the old host gone."""
RECONNECT_TRIES = 5

Observer = Callable[[str, dict], None]


@dataclass
class PeerConfig:
    name: str
    role: str = "player"
    seat: int = -1
    """The seat wished for (from 0), -1 for the first free one."""
    level: str | None = None
    """The computer level that plays this peer's own seat; None: decisions come from
    :meth:`Peer.decide` (a person at a screen or a terminal)."""
    code: str | None = None
    interface: str = ""
    """The address to listen on and to advertise; '' for every interface."""
    drop_timeout: float = 60.0
    on_drop: str = "wait"
    """What this peer does once a missing player's drop timeout is over: ``computer``
    (give the seat to the computer), ``end`` (end the match) or ``wait``."""
    drop_level: str = "medium"
    think_seconds: float | None = 1.0
    pace: float = 0.0
    """Seconds a computer decision takes at least (tests and demos slow the game down)."""
    autostart: bool = False
    """As host: start as soon as every seat is taken and every player ready; as guest: be
    ready as soon as seated (headless peers)."""


class Peer:
    def __init__(
        self, identity: Identity, config: PeerConfig, observer: Observer | None = None
    ) -> None:
        self.identity = identity
        self.config = config
        self.agent = Agent(identity)
        self.observe = observer or (lambda kind, data: None)
        self.log: MatchLog | None = None
        self.hosting = False
        self.code: str | None = None
        self.listen_port = 0
        self.finished = asyncio.Event()
        self.failure: str | None = None
        self._server: asyncio.Server | None = None
        self._clients: dict[str, Connection] = {}
        self._upstream: Connection | None = None
        self._became_host = asyncio.Event()
        self._gone_since: dict[str, float] = {}
        self._thinking: dict[tuple[int, int], asyncio.Task] = {}
        self._decided: set[tuple[int, int]] = set()
        self._waiting_turn: Turn | None = None
        self._was_paused = False
        self._tasks: set[asyncio.Task] = set()
        self._drop_watch: asyncio.Task | None = None
        self._rolls_seen = 0
        self._pending_seen: int | None = None
        self._requested: list[dict] = []
        """What this guest asked the host to log, not yet seen in the log."""
        self._history_until = 0
        self._readied = False
        self._over_reported = False

    @property
    def me(self) -> str:
        return self.identity.peer

    # -- starting ------------------------------------------------------------------------

    async def listen(self, port: int = 0) -> int:
        """Open the listening socket (every peer has one: a guest may become the host)."""
        bind = self.config.interface or "0.0.0.0"  # a LAN game listens on the LAN
        self._server = await asyncio.start_server(self._accept, bind, port)
        self.listen_port = self._server.sockets[0].getsockname()[1]
        return self.listen_port

    async def host(
        self,
        setup: Variant,
        computer_seats: dict[int, str] | None = None,
        port: int = 0,
        code: str | None = None,
        name: str | None = None,
        chain_length: int = CHAIN_LENGTH,
    ) -> int:
        """Open a match of ``setup`` and listen for players; returns the port."""
        await self.listen(port)
        seats = [""] * setup.players
        for seat, level in (computer_seats or {}).items():
            seats[seat] = level
        self.code = code or None
        opening = {
            "k": "match",
            "id": secrets.token_hex(16),
            "setup": setup.to_fields(),
            "seats": seats,
            "code": bool(self.code),
            "host": self.me,
            "name": (name or self.config.name)[:40],
            "chain": chain_length,
        }
        self.log = MatchLog(opening)
        self.hosting = True
        self._became_host.set()
        self._log_entry(
            {
                "k": "join",
                "peer": self.me,
                "name": self.config.name,
                "role": "player",
                "addr": self._own_address(),
            }
        )
        self._take_seat(self.me, self.config.seat)
        self.observe("listening", {"port": self.listen_port, "match": self.log.match_id})
        self._after_change()
        return self.listen_port

    async def join(self, address: str, port: int) -> None:
        """Join the match hosted at ``address:port`` (raises :class:`Closed` if refused)."""
        if self._server is None:
            await self.listen()
        connection = await Connection.open(address, port)
        await self._handshake(connection)
        self._spawn(self._follow(connection))

    def request(self, entry: dict) -> None:
        """Ask for ``entry`` (without ``peer``) to be logged: as host at once, as guest by
        sending it to the host."""
        if self.hosting:
            self._handle_request(self.me, entry, None)
        elif self._upstream is not None:
            self._requested.append(dict(entry))
            self._upstream.send({"t": "request", "e": entry})

    def decide(self, action_text: str) -> None:
        """The decision of this peer's person for the seat whose turn it is."""
        turn = self._waiting_turn
        if turn is None or self.log is None:
            return
        self._send_action(turn, action_text)

    async def close(self, reason: str = "leaving") -> None:
        for connection in [*self._clients.values(), self._upstream]:
            if connection is not None:
                await connection.close(reason)
        if self._server is not None:
            self._server.close()
        for task in [*self._tasks, *self._thinking.values()]:
            task.cancel()
        self.finished.set()

    # -- the host's side -----------------------------------------------------------------

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        connection = Connection(reader, writer)
        try:
            hello = await connection.receive(HANDSHAKE_TIMEOUT)
            if hello["t"] != "hello":
                await connection.close("expected a hello first")
                return
            if not self.hosting:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._became_host.wait(), PROMOTION_WAIT)
            if not self.hosting or self.log is None:
                await connection.close("this peer is not hosting a match")
                return
            peer = await self._admit(connection, hello)
            if peer is None:
                return
            while True:
                message = await connection.receive()
                if message["t"] == "request":
                    self._handle_request(peer, message["e"], connection)
                elif message["t"] == "push":
                    await connection.close("pushing entries is only for catching up")
                    return
        except (Closed, asyncio.CancelledError):
            pass  # a cancelled handler must end quietly: asyncio's stream callback asks it
        finally:
            self._drop(connection)

    async def _admit(self, connection: Connection, hello: dict) -> str | None:
        """Check a hello and bring the newcomer up to date; None if refused."""
        log = self.log
        assert log is not None
        peer = peer_id(hello["key"])
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
        elif self.code and hello["code"] != self.code and peer not in log.members:
            reason = "wrong join code"
        elif peer in self._clients or peer == self.me:
            reason = "a peer with this identity is already connected"
        elif 0 < hello["have"] <= len(log) and hello["head"] != log.heads[hello["have"] - 1]:
            reason = "this peer's match log differs from the host's"
        if reason is not None:
            await connection.close(reason)
            self.observe("notice", {"text": f"refused {hello['name']}: {reason}"})
            return None
        connection.peer = peer
        connection.send(
            {"t": "welcome", "match": log.match_id, "you": peer, "host": self.me, "seq": len(log)}
        )
        have = hello["have"]
        while have > len(log):  # a guest that heard more of the old host than this one
            connection.send({"t": "want", "from": len(log)})
            push = await connection.receive(HANDSHAKE_TIMEOUT)
            if push["t"] != "push" or push["seq"] != len(log):
                await connection.close("expected the missing log entries")
                return None
            try:
                self._log_entry(push["e"])
            except Rejected as error:
                await connection.close(f"entry {push['seq']} does not check out: {error.reason}")
                return None
        for seq in range(have, len(log)):
            connection.send({"t": "entry", "seq": seq, "e": log.entries[seq]})
        self._clients[peer] = connection
        member = log.members.get(peer)
        role = hello["role"]
        if member is None and (log.phase != LOBBY or (role == "player" and not log.free_seats())):
            role = "spectator"
        address = f"{connection.address}:{hello['listen']}"
        self._gone_since.pop(peer, None)
        if member is None or not member.present:  # after a host change the others are
            self._log_entry(  # still present in the log: they only reconnect
                {"k": "join", "peer": peer, "name": hello["name"], "role": role, "addr": address}
            )
        if member is None and role == "player":
            self._take_seat(peer, hello["seat"])
        self._after_change()
        return peer

    def _take_seat(self, peer: str, wished: int) -> None:
        log = self.log
        assert log is not None
        free = [i for i, s in enumerate(log.seats) if s.human and s.owner is None]
        seat = wished if wished in free else (free[0] if free else None)
        if seat is not None:
            self._log_entry({"k": "seat", "peer": peer, "seat": seat})

    def _handle_request(self, peer: str, entry: dict, connection: Connection | None) -> None:
        log = self.log
        assert log is not None
        entry = {**entry, "peer": peer}
        try:
            if entry.get("k") not in REQUESTABLE and not (
                peer == self.me and entry.get("k") == "start"
            ):
                raise Rejected(f"a peer cannot ask for a {entry.get('k')!r} entry")
            member = log.members.get(peer)
            if member is not None and member.role == "spectator":
                raise Rejected("spectators only watch")
            self._check_drop_timeout(entry)
            self._log_entry(entry)
        except Rejected as error:
            name = log.members[peer].name if peer in log.members else peer[:8]
            kind = str(entry.get("k"))[:12]
            if connection is not None:
                connection.send({"t": "reject", "reason": error.reason[:300], "kind": kind})
            text = f"rejected {kind} from {name}: {error.reason}"[:300]
            self._broadcast({"t": "notice", "text": text})
            self.observe("notice", {"text": text})
            if peer == self.me:
                self._rejected(kind, error.reason)
            return
        self._after_change()

    def _check_drop_timeout(self, entry: dict) -> None:
        log = self.log
        assert log is not None
        if entry["k"] not in ("computer", "end") or log.phase != PLAYING:
            return
        if entry["k"] == "computer":
            owner = log.seats[entry["seat"]].owner if entry["seat"] < len(log.seats) else None
            missing = [owner] if owner else []
        else:
            missing = log.waiting_for()
        now = time.monotonic()
        for peer in missing:
            gone = now - self._gone_since.get(peer, now)
            if gone < self.config.drop_timeout:
                raise Rejected(
                    f"{log.members[peer].name} has been gone {gone:.1f} s; the others can "
                    f"decide after {self.config.drop_timeout:.1f} s"
                )

    def _log_entry(self, entry: dict) -> None:
        """As host: apply ``entry`` to the log and relay it to everyone."""
        log = self.log
        assert log is not None
        log.apply(entry)
        self._broadcast({"t": "entry", "seq": len(log) - 1, "e": entry})
        self._entry_applied(entry)

    def _broadcast(self, message: dict) -> None:
        for connection in self._clients.values():
            connection.send(message)

    def _drop(self, connection: Connection) -> None:
        peer = connection.peer
        if peer is None or self._clients.get(peer) is not connection:
            return
        del self._clients[peer]
        log = self.log
        if self.hosting and log is not None and log.members.get(peer, None) is not None:
            self._gone_since[peer] = time.monotonic()
            if log.members[peer].present:
                reason = connection.closed or "connection lost"
                self._log_entry({"k": "leave", "peer": peer, "reason": reason[:300]})
                self._after_change()

    # -- the guest's side ----------------------------------------------------------------

    async def _handshake(self, connection: Connection) -> None:
        log = self.log
        connection.send(
            {
                "t": "hello",
                "version": PROTOCOL_VERSION,
                "rules": fingerprint(),
                "key": self.identity.key,
                "name": self.config.name[:40],
                "role": self.config.role,
                "seat": self.config.seat,
                "listen": self.listen_port,
                "have": len(log) if log else 0,
                "head": log.heads[-1] if log else None,
                "code": self.config.code,
            }
        )
        answer = await connection.receive(HANDSHAKE_TIMEOUT)
        if answer["t"] != "welcome":
            await connection.close("expected a welcome")
            raise Closed("the host answered the hello with something else")
        if log is not None and answer["match"] != log.match_id:
            await connection.close("a different match")
            raise Closed("that peer hosts a different match")
        self._upstream = connection
        connection.peer = answer["host"]
        self._history_until = answer["seq"]  # what came before this connection is history

    async def _follow(self, connection: Connection) -> None:
        """Apply what the host relays until the match ends or the host is lost."""
        try:
            while True:
                message = await connection.receive()
                kind = message["t"]
                if kind == "entry":
                    self._apply_relayed(message["seq"], message["e"])
                elif kind == "want":
                    self._push_from(connection, message["from"])
                elif kind == "reject":
                    self._rejected(message["kind"], message["reason"])
                elif kind == "notice":
                    self.observe("notice", {"text": message["text"]})
        except Closed as closed:
            if self._upstream is connection:
                self._upstream = None
            if self.finished.is_set():
                return
            log = self.log
            if log is not None and log.phase in (LOBBY, PLAYING):
                self.observe("notice", {"text": f"lost the host: {closed.reason}"})
                await self._find_new_host()
            else:
                self.finished.set()
        except _Fatal as fatal:
            self.failure = fatal.reason
            self.observe("error", {"text": fatal.reason})
            await connection.close(fatal.reason)
            self.finished.set()

    def _apply_relayed(self, seq: int, entry: dict) -> None:
        if self.log is None:
            if seq != 0:
                raise _Fatal("the host's log does not begin with the match")
            try:
                self.log = MatchLog(entry)
            except Rejected as error:
                raise _Fatal(f"the host's match cannot be played here: {error.reason}") from error
            self.observe("match", {"match": self.log.match_id})
            return
        if seq < len(self.log):
            return  # already have it (catching up after a host change)
        if seq > len(self.log):
            raise _Fatal(f"the host skipped log entries ({len(self.log)} to {seq - 1})")
        self._check_own(seq, entry)
        try:
            self.log.apply(entry)
        except Rejected as error:
            raise _Fatal(
                f"the host relayed an entry that does not check out (entry {seq}, "
                f"{entry.get('k')}): {error.reason}"
            ) from error
        self._entry_applied(entry)
        self._after_change()

    def _check_own(self, seq: int, entry: dict) -> None:
        """An entry in this peer's name must be one this peer asked for."""
        if seq < self._history_until or entry.get("peer") != self.me:
            return
        if entry.get("k") not in ONLY_ASKED:
            return
        asked = {key: value for key, value in entry.items() if key != "peer"}
        if asked in self._requested:
            self._requested.remove(asked)
            return
        raise _Fatal(
            f"the host logged a {entry.get('k')!r} in this player's name that this player never "
            "sent: it cannot be trusted with this match"
        )

    def _push_from(self, connection: Connection, start: int) -> None:
        log = self.log
        if log is None:
            return
        for seq in range(start, len(log)):
            connection.send({"t": "push", "seq": seq, "e": log.entries[seq]})

    async def _find_new_host(self) -> None:
        """The host is gone: the first connected player in join order takes over."""
        log = self.log
        assert log is not None
        old = log.host
        candidates = [
            m for m in log.members.values() if m.role == "player" and m.present and m.peer != old
        ]
        for member in candidates:
            if member.peer == self.me:
                self._promote(old)
                return
            address, _, port = member.addr.rpartition(":")
            for _ in range(RECONNECT_TRIES):
                try:
                    connection = await Connection.open(address, int(port), timeout=2.0)
                    await self._handshake(connection)
                except (Closed, ValueError):
                    await asyncio.sleep(0.5)
                    continue
                self.observe("host", {"peer": member.peer, "name": member.name})
                self._resend_after_host_change()
                self._spawn(self._follow(connection))
                self._after_change()
                return
        self.failure = "the host is gone and no other player could take over"
        self.observe("error", {"text": self.failure})
        self.finished.set()

    def _promote(self, old: str) -> None:
        log = self.log
        assert log is not None
        self.hosting = True
        self._became_host.set()
        self._gone_since[old] = time.monotonic()
        self._resend_after_host_change()
        self._log_entry({"k": "host", "peer": self.me, "addr": self._own_address()})
        self.observe("host", {"peer": self.me, "name": self.config.name})
        self._spawn(self._count_the_others())
        self._after_change()

    async def _count_the_others(self) -> None:
        """After taking over: whoever has not reconnected in time is gone too."""
        await asyncio.sleep(PROMOTION_WAIT + RECONNECT_TRIES * 2.5)
        log = self.log
        assert log is not None
        for member in list(log.members.values()):
            if member.present and member.peer != self.me and member.peer not in self._clients:
                self._gone_since.setdefault(member.peer, time.monotonic())
                self._log_entry(
                    {"k": "leave", "peer": member.peer, "reason": "did not follow the host change"}
                )
        self._after_change()

    def _resend_after_host_change(self) -> None:
        """Whatever went to the old host may never have been logged: owe it again."""
        self.agent.forget_unlogged()
        log = self.log
        if log is not None:
            self._decided = {key for key in self._decided if key[1] < log.ply}

    # -- both sides ----------------------------------------------------------------------

    def _entry_applied(self, entry: dict) -> None:
        log = self.log
        assert log is not None
        kind = entry["k"]
        if kind == "act":
            self.observe(
                "action", {"ply": entry["ply"], "seat": entry["seat"], "action": entry["a"]}
            )
        self.observe("entry", {"seq": len(log) - 1, "kind": kind})
        for roll in log.rolls[self._rolls_seen :]:
            self.observe("roll", {"number": roll.event, "outcome": roll.outcome})
        self._rolls_seen = len(log.rolls)

    def _after_change(self) -> None:
        """Send what this peer owes now: dice, a decision, the start, a drop decision."""
        log = self.log
        if log is None:
            return
        paused = log.paused
        if paused != self._was_paused:
            self._was_paused = paused
            names = [log.members[p].name for p in log.waiting_for()]
            self.observe("paused" if paused else "resumed", {"waiting": names})
        if paused and self._drop_watch is None and self.config.on_drop != "wait":
            self._drop_watch = self._spawn(self._watch_drop())
        if log.pending_event is not None and log.pending_event != self._pending_seen:
            self._pending_seen = log.pending_event
            self.observe("pending", {"number": log.pending_event})
        for request in self.agent.dice_requests(log):
            self.request(request)
        seat = log.seat_of(self.me)
        if (
            self.config.autostart
            and not self.hosting
            and log.phase == LOBBY
            and seat is not None
            and not log.members[self.me].ready
            and not self._readied
        ):
            self._readied = True
            self.request({"k": "ready", "ready": True})
        turn = self.agent.turn(log)
        if turn is not None and (turn.seat, turn.ply) not in self._decided:
            self._begin_turn(turn)
        if self.hosting and self.config.autostart and log.start_problem() is None:
            self.request({"k": "start"})
        if log.phase not in (LOBBY, PLAYING) and not self._over_reported:
            self._over_reported = True
            self.observe(
                "over",
                {
                    "phase": log.phase,
                    "result": str(log.state.result()) if log.state.result() else log.end_reason,
                    "digest": log.state.digest(),
                    "ply": log.ply,
                    "entries": len(log),
                },
            )
            self._spawn(self._finish())

    def _begin_turn(self, turn: Turn) -> None:
        key = (turn.seat, turn.ply)
        level = turn.level or self.config.level
        if level is None:
            if self._waiting_turn != turn:
                self._waiting_turn = turn
                self.observe("your_turn", {"seat": turn.seat, "ply": turn.ply})
            return
        if key in self._thinking:
            return
        log = self.log
        assert log is not None
        state = log.state
        seed = int(log.match_id[:8], 16) + turn.seat
        task = asyncio.get_running_loop().create_task(self._think(turn, state, level, seed))
        self._thinking[key] = task

    async def _think(self, turn: Turn, state: State, level: str, seed: int) -> None:
        try:
            began = time.monotonic()
            decision = await asyncio.to_thread(
                choose, state, level, seed, max_seconds=self.config.think_seconds
            )
            await asyncio.sleep(self.config.pace - (time.monotonic() - began))
            self._send_action(turn, state.action_to_str(decision.action))
        except Exception as error:  # reported: the seat waits, the match lives
            self.observe("error", {"text": f"the computer player failed: {error!r}"})
        finally:
            self._thinking.pop((turn.seat, turn.ply), None)

    def _send_action(self, turn: Turn, text: str) -> None:
        log = self.log
        if log is None or self.agent.turn(log) != turn:
            return  # the match has moved on (a rejoin, a hand-over) while deciding
        try:
            state = log.state
            after = state.apply(state.parse_action(text))
        except RulesError as error:  # a person's typo is reported, never fatal
            self.observe("rejected", {"kind": "act", "reason": str(error)})
            return
        self._decided.add((turn.seat, turn.ply))
        self._waiting_turn = None
        self.observe("sent", {"ply": turn.ply, "seat": turn.seat, "action": text})
        self.request(
            {"k": "act", "seat": turn.seat, "ply": turn.ply, "a": text, "d": after.digest()}
        )

    def _rejected(self, kind: str, reason: str) -> None:
        self.observe("rejected", {"kind": kind, "reason": reason})
        if kind == "act" and self.log is not None:
            self._decided.discard((self.log.state.to_move, self.log.ply))

    async def _watch_drop(self) -> None:
        """Once a missing player's timeout is over, do what this peer was told to."""
        try:
            await asyncio.sleep(self.config.drop_timeout + 0.2)
            log = self.log
            while log is not None and log.paused and log.phase == PLAYING:
                if self.config.on_drop == "end":
                    self.end_for_the_missing()
                else:
                    self.hand_over_the_missing(self.config.drop_level)
                await asyncio.sleep(1.0)
        finally:
            self._drop_watch = None

    def hand_over_the_missing(self, level: str) -> None:
        """Ask that the computer take every seat whose player is missing (the log refuses it
        before the drop timeout is over)."""
        log = self.log
        if log is None:
            return
        for seat, info in enumerate(log.seats):
            if info.human and info.owner in log.waiting_for():
                self.request({"k": "computer", "seat": seat, "level": level})

    def end_for_the_missing(self) -> None:
        """Ask that the match end because a player left and did not come back."""
        self.request({"k": "end", "reason": "a player left and did not come back"})

    async def _finish(self) -> None:
        await asyncio.sleep(0.3 if self.hosting else 0)
        self.finished.set()

    def _own_address(self) -> str:
        return f"{self.config.interface or '127.0.0.1'}:{self.listen_port}"

    def _spawn(self, coroutine) -> asyncio.Task:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task


class _Fatal(Exception):  # noqa: N818
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
