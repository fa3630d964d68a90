"""A player of a tournament on the LAN: follows the director's log, checking every entry
itself, and plays its own games as ordinary LAN matches.

The player connects to the director, each side proves its key (docs/PROTOCOL.md §14.6) and,
the first time, the player sends its own signed entry proof.  From then on every log entry
the director sends is applied to the player's own :class:`~net.tournament_log.TournamentLog`
— the chain, the director's signature, every round against the system's pairing, every
result against the match record that comes with it, replayed here — and the first that does
not check out ends the player's part: it says why and stops following that director.

When a round pairs it, the player plays its game: as White it hosts a match under the
pairing's match id (:func:`net.signing.tournament_match`) on a port of its own and tells the
director; as Black it joins where the director says White is, demanding White's key from the
log.  When the match ends it sends the final signed record to the director, again after
every reconnection until the game is scored.  A director that is lost is sought at the same
address until it answers again (a director restarted on its saved log) or the reconnect
time runs out; the matches meanwhile go on between the players.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from game.tournament import Pairing
from net import records, tournament_records
from net.connection import Closed, Connection
from net.identity import Identity
from net.identity import fingerprint as key_fingerprint
from net.matchlog import ABANDONED, OVER
from net.messages import MessageError
from net.peer import Peer, PeerConfig
from net.signing import tournament_match
from net.tournament_door import Untrusted, enter
from net.tournament_events import events_after
from net.tournament_log import Rejected, TournamentLog, record_digest
from net.tournament_messages import Parts, record_frames, validate

Observer = Callable[[str, dict[str, Any]], None]
Game = tuple[int, int]
"""A game of the tournament: its round and board (from 0)."""
RETRY_EVERY = 0.5
"""Seconds between two tries at reaching a lost director, or at joining White's match."""
REPORT_EVERY = 0.5
"""Seconds between two looks at White's match for a new position to report (the TV's)."""


@dataclass
class PlayerConfig:
    name: str
    level: str | None = None
    """The computer level that plays this player's games; None: a person, through
    ``on_turn``."""
    computer: bool = False
    """An identity the director holds and enters as the computer (its own computer player)."""
    interface: str = ""
    """Where this player's matches listen ('' for every interface)."""
    record: Path | None = None
    """Where to keep this player's copy of the tournament record."""
    drop_timeout: float = 60.0
    """Seconds an opponent may be missing from a match before the computer takes the seat."""
    reconnect: float = 120.0
    """Seconds to go on seeking a lost director."""
    think_seconds: float = 1.0
    pace: float = 0.0
    code: str | None = None
    """The tournament's join code (None: none given)."""
    director: bytes | None = None
    """The director's key as the LAN announced it: a director at that address holding
    another key is refused (a spoofed announcement lures nobody).  None: any director."""
    watch: bool = False
    """Only watch (a TV screen): follow the log and the live boards, never entered, never
    playing."""


class TournamentPlayer:
    """One player's part in a tournament; see the module's docstring."""

    def __init__(
        self,
        identity: Identity,
        config: PlayerConfig,
        observe: Observer,
        on_turn: Callable[[Peer], None] | None = None,
    ) -> None:
        self.identity = identity
        self.config = config
        self.observe = observe
        self.on_turn = on_turn
        self.log: TournamentLog | None = None
        self.records: dict[bytes, bytes] = {}
        """The match records the log's results name, by digest."""
        self.failure: str | None = None
        self.upstream: Connection | None = None
        self.matches: dict[Game, asyncio.Task[None]] = {}
        self.peers: dict[Game, Peer] = {}
        self.tables: dict[Game, asyncio.Future[dict[str, Any]]] = {}
        """Where White hosts each of this player's games as Black, once the director says."""
        self.hosted: dict[Game, dict[str, Any]] = {}
        """The ``hosting`` message of each game this player hosts as White."""
        self.played: dict[Game, bytes] = {}
        """Final records of this player's games, until the log scores them."""
        self.boards: dict[Game, dict[str, Any]] = {}
        """The latest position of each game of the round under way, as its White reported it
        through the director (a ``board`` message): for the TV, never for scoring."""
        self.match_started: Callable[[Game, Peer], None] | None = None
        """Told of each of this player's match peers as it is made (before it hosts or joins)."""
        self.match_observed: Callable[[Game, str, dict[str, Any]], None] | None = None
        """Told of everything each of this player's match peers observes."""
        self._incoming: dict[bytes, bytes] = {}
        self._entered = False
        self._history = 0
        """The director's log length when it admitted this player: games are started once
        the log is caught up to it (not for rounds long scored, on the way)."""

    @property
    def me(self) -> str:
        return self.identity.peer

    # -- the director -----------------------------------------------------------------------

    async def run(self, address: str, port: int) -> int:
        """Take part until the tournament is over (0), or this player stops following the
        director (1: refused, or the director lost for good)."""
        lost_at = time.monotonic()
        try:
            while self.failure is None and not (self.log is not None and self.log.over):
                try:
                    connection = await Connection.open(address, port, check=validate)
                except Closed as closed:
                    if time.monotonic() - lost_at > self.config.reconnect:
                        self.failure = f"the director cannot be reached: {closed.reason}"
                        self.observe("error", {"text": self.failure})
                    else:
                        await asyncio.sleep(RETRY_EVERY)
                    continue
                try:
                    await self._session(connection)
                except Untrusted as untrusted:
                    self.failure = untrusted.reason
                    self.observe("refused", {"reason": untrusted.reason})
                    await connection.close(untrusted.reason)
                except Closed as closed:
                    self.observe("notice", {"text": f"the director was lost: {closed.reason}"})
                    lost_at = time.monotonic()
                finally:
                    self.upstream = None
                    connection.hang_up("leaving")
        finally:
            for game in list(self.peers):
                await self._stop(game)
            self._save()
        return 0 if self.failure is None else 1

    async def _session(self, connection: Connection) -> None:
        """One connection to the director, from the proofs until it is lost or the
        tournament is over."""
        config = self.config
        log, self._history = await enter(
            connection, self.identity, self.log, config.name, config.computer, config.code,
            config.director, config.watch,
        )  # fmt: skip
        self.log = log
        if not self._entered:
            self._entered = True
            self.observe("joined", {"tournament": log.id, "player": self.me,
                                    "director": key_fingerprint(log.director)})  # fmt: skip
        self.upstream = connection
        self._owed(connection)
        if len(log) >= self._history:
            self._react()  # nothing to catch up: a game paired while away may be due
        parts = Parts()
        while not log.over:
            message = await connection.receive()
            kind = message["t"]
            if kind == "entry":
                self._apply(message["e"])
            elif kind == "record":
                try:
                    whole = parts.add(message)
                except MessageError as error:
                    raise Untrusted(f"the director sent a bad record: {error}") from error
                if whole is not None:
                    self._incoming[record_digest(whole[2])] = whole[2]
            elif kind == "table":
                self._on_table(message)
            elif kind == "board":
                self._on_board(message)
            elif kind == "notice":  # what the director refused, for the room: never acted on
                self.observe("notice", {"text": f"director: {message['text']}"})
            else:
                raise Untrusted(f"the director sent {kind}, which it does not send")

    def _owed(self, connection: Connection) -> None:
        """What this player owes a director it (re)connects to: where it hosts a game,
        the record of a game it played, until the log scores it."""
        for game, hosting in self.hosted.items():
            if not self._scored(game):
                connection.send(hosting)
        for (number, board), data in self.played.items():
            if not self._scored((number, board)):
                for frame in record_frames(number, board, data):
                    connection.send_frame(frame)

    def _apply(self, entry: dict[str, Any]) -> None:
        """Apply an entry the director sent, as this player judges it; :class:`Untrusted`
        if it does not check out."""
        log = self.log
        assert log is not None
        name = entry.get("record") if entry.get("k") == "result" else None
        record = self._incoming.pop(name, None) if isinstance(name, bytes) else None
        try:
            log.apply(entry, record)
        except Rejected as error:
            kind = entry.get("k")
            raise Untrusted(
                f"the director sent an entry that does not check out "
                f"(entry {len(log) + 1}, {kind}): {error.reason}"
            ) from error
        if record is not None:
            self.records[record_digest(record)] = record
        self._save()
        for kind, data in events_after(log, entry):
            self.observe(kind, data)
        if len(log) >= self._history:
            self._react()

    def _on_table(self, message: dict[str, Any]) -> None:
        """Where White hosts one of this player's games.  A new place for a game this player
        already plays means White hosts it again (its process or its director's restarted):
        the match under way has lost its host, and the game starts again there."""
        game = (message["round"], message["board"])
        table = self.tables.get(game)
        if table is not None and table.done():
            if table.result() == message or self._scored(game):
                return  # told again, after a reconnection
            asyncio.get_running_loop().create_task(self._restart(game))
        elif table is not None:
            table.set_result(message)
            return
        self.tables[game] = asyncio.get_running_loop().create_future()
        self.tables[game].set_result(message)

    def _on_board(self, message: dict[str, Any]) -> None:
        """A game's position as its White reported it: kept while the game is unscored and
        of the round under way (a position older than the one held is passed over)."""
        log = self.log
        game = (message["round"], message["board"])
        tournament = log.tournament if log is not None else None
        if tournament is None or game[0] != len(tournament.rounds):
            return
        if game[1] >= len(tournament.rounds[-1].pairings) or self._scored(game):
            return
        held = self.boards.get(game)
        if held is None or held["ply"] <= message["ply"]:
            self.boards[game] = message
            if self.config.watch:  # a headless TV says what it would draw
                self.observe("board", {"round": game[0], "board": game[1], "ply": message["ply"]})

    async def _report(self, game: Game, peer: Peer) -> None:
        """As White, tell the director each new position of ``game``'s match (for every
        participant's TV) until it ends."""
        sent = -1
        while not peer.finished.is_set():
            log, upstream = peer.log, self.upstream
            if log is not None and upstream is not None and len(log.record.actions) != sent:
                sent = len(log.record.actions)
                state = log.state.encode()
                if len(state) <= 4096:
                    upstream.send({"t": "board", "round": game[0], "board": game[1],
                                   "ply": sent, "state": state})  # fmt: skip
            await asyncio.sleep(REPORT_EVERY)

    async def _restart(self, game: Game) -> None:
        self.observe("notice", {"text": f"round {game[0]} board {game[1] + 1}: White hosts "
                                        "the game again; it starts again there"})  # fmt: skip
        await self._stop(game)
        self.matches.pop(game, None)
        self._react()

    def _save(self) -> None:
        if self.config.record is not None and self.log is not None:
            tournament_records.save(self.config.record, self.log, list(self.records.values()))

    # -- the games ------------------------------------------------------------------------

    def _react(self) -> None:
        """Start a game of this player's the log just paired; stop one the log scored
        without it (a forfeit, or the opponent's record first)."""
        log = self.log
        assert log is not None
        tournament = log.tournament
        if tournament is None or not tournament.rounds:
            return
        number = len(tournament.rounds)
        latest = tournament.rounds[-1]
        for game in [g for g in self.boards if g[0] != number or self._scored(g)]:
            del self.boards[game]
        if self.config.watch:
            return
        for board, (pairing, outcome) in enumerate(
            zip(latest.pairings, latest.outcomes, strict=True)
        ):
            game = (number, board)
            if self.me in pairing.players and outcome is None and game not in self.matches:
                self.matches[game] = asyncio.get_running_loop().create_task(
                    self._play(game, pairing)
                )
        for game in list(self.peers):
            if self._scored(game):
                asyncio.get_running_loop().create_task(self._stop(game))
        for game in [g for g in self.played if self._scored(g)]:
            del self.played[game]

    def _scored(self, game: Game) -> bool:
        tournament = self.log.tournament if self.log is not None else None
        if tournament is None or game[0] > len(tournament.rounds):
            return False
        return tournament.rounds[game[0] - 1].outcomes[game[1]] is not None

    async def _play(self, game: Game, pairing: Pairing) -> None:
        """This player's match for ``game``, to its end; then its record to the director.
        A match that cannot be hosted or joined is told, and left to the drop timeout."""
        try:
            await self._match(game, pairing)
        except (Closed, OSError) as error:
            reason = error.reason if isinstance(error, Closed) else str(error)
            self.observe("notice", {"text": f"round {game[0]} board {game[1] + 1}: {reason}"})

    async def _match(self, game: Game, pairing: Pairing) -> None:
        log = self.log
        assert log is not None
        number, board = game
        white = pairing.white == self.me
        match_id = tournament_match(log.id, number, board)
        config = self._match_config(0 if white else 1)
        if white:
            config.code = secrets.token_hex(8)  # the seat is Black's, not a passer-by's
            peer = self.peers[game] = self._peer(game, config)
            port = await peer.host(log.game, code=config.code, match_id=match_id)
            hosting = {"t": "hosting", "round": number, "board": board, "port": port,
                       "code": config.code}  # fmt: skip
            self.hosted[game] = hosting
            if self.upstream is not None:
                self.upstream.send(hosting)
        else:
            table = self.tables.setdefault(game, asyncio.get_running_loop().create_future())
            where = await table
            config.code = where["code"]
            peer = self.peers[game] = self._peer(game, config)
            white_key = log.entrants[pairing.white].key
            await self._join(peer, where["address"], where["port"], white_key, game)
        self.observe(
            "playing",
            {
                "round": number,
                "board": board,
                "colour": "white" if white else "black",
                "match": match_id,
            },
        )
        reporter = (
            asyncio.get_running_loop().create_task(self._report(game, peer)) if white else None
        )
        try:
            await peer.finished.wait()
        finally:
            if reporter is not None:
                reporter.cancel()
        played = peer.log
        self.peers.pop(game, None)
        await peer.close("the match is over")
        if played is None or played.phase not in (OVER, ABANDONED) or self._scored(game):
            return
        fork = peer.witness.proof
        data = records.encode(played, None if fork is None else fork.to_record())
        self.played[game] = data
        ended = played.state.result()
        result = str(ended) if ended else played.end_reason
        self.observe("played", {"round": number, "board": board, "result": result})
        if self.upstream is not None:
            for frame in record_frames(number, board, data):
                self.upstream.send_frame(frame)

    async def _join(self, peer: Peer, address: str, port: int, white: bytes, game: Game) -> None:
        """Join White's match, trying again while White's peer is not there (said once)."""
        told = False
        while not self._scored(game):
            try:
                await peer.join(address, port, white)
                return
            except Closed as closed:
                if not told:
                    self.observe("notice", {"text": f"round {game[0]} board {game[1] + 1}: "
                                                    f"{closed.reason}"})  # fmt: skip
                told = True
                await asyncio.sleep(RETRY_EVERY)
        peer.finished.set()

    def _match_config(self, seat: int) -> PeerConfig:
        config = self.config
        return PeerConfig(
            name=config.name, seat=seat, level=config.level, interface=config.interface,
            drop_timeout=config.drop_timeout, on_drop="computer",
            drop_level=config.level or "medium", think_seconds=config.think_seconds,
            pace=config.pace, autostart=True,
        )  # fmt: skip

    def _peer(self, game: Game, config: PeerConfig) -> Peer:
        peer = Peer(self.identity, config, partial(self._match_observer, game))
        if self.match_started is not None:
            self.match_started(game, peer)
        return peer

    def _match_observer(self, game: Game, kind: str, data: dict[str, Any]) -> None:
        if self.match_observed is not None:
            self.match_observed(game, kind, data)
        if kind == "your_turn" and self.on_turn is not None:
            for peer in self.peers.values():
                if peer.seats.waiting_turn is not None:
                    self.on_turn(peer)
        elif kind == "error":
            self.observe("notice", {"text": f"match: {data['text']}"})

    async def _stop(self, game: Game) -> None:
        peer = self.peers.pop(game, None)
        if peer is not None:
            await peer.close("the game is scored")
        task = self.matches.get(game)
        if task is not None and not task.done():
            task.cancel()
