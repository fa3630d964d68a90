"""A tournament's director on the LAN: the keeper of the signed tournament log, which it
replicates to every player, and nothing more — the games are the players' own matches.

It listens on TCP; a player connects, each side proves its key (docs/PROTOCOL.md §14.6),
and the director enters a newcomer with the ``joined`` entry the player signed, sends it the
log from where it stands (every scored match record before the ``result`` that names it) and
every entry after.  Once the players it waits for are in, it pairs round 1 — the system's
pairing, which every player checks — and then waits: White hosts each game as an ordinary
LAN match under the pairing's match id and says where (``hosting``), the director tells
Black (``table``), and a player whose match ended sends its final record.  The director
replays it (:func:`net.tournament_log.judge_record`) and enters the result; when a round is
scored it pairs the next, and when the tournament is over by its rules it writes ``over``.

A player out of touch for the drop timeout is withdrawn and a game of theirs still unscored
is forfeited.  With a computer level, a computer player — an identity the director holds,
playing as an ordinary player from this process — fills an odd seat (and, in a Swiss, the
seat a withdrawal leaves odd).  With a folder, the log and every record are saved after each
entry with the director's and its computers' identities, and a director started again on the
same folder (and port) goes on from where it stood; the players reconnect by themselves.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from game.rules import Variant
from game.tournament import Format, Pairing, Result
from net import tournament_records
from net.connection import Closed, Connection
from net.discovery import Advertiser, tournament_txt
from net.framing import encode
from net.gate import Gate, install_quiet_handler
from net.identity import Identity, IdentityError
from net.messages import MessageError
from net.signing import tournament_match
from net.tournament_door import Knock, knock
from net.tournament_events import events_after
from net.tournament_log import (
    Rejected,
    TournamentLog,
    joined,
    judge_record,
    record_digest,
    replay_tournament,
    seal,
)
from net.tournament_messages import Parts, record_frames, validate
from net.tournament_player import PlayerConfig, TournamentPlayer

Observer = Callable[[str, dict[str, Any]], None]
RECORD_FILE = "tournament.rec"
IDENTITY_FILE = "director.id"
MOST_WATCHERS = 32
"""Watchers (TV screens) connected at once."""
WATCH_EVERY = 0.5
"""Seconds between two looks at who has been out of touch for the drop timeout."""


class DirectorError(Exception):
    """A tournament that cannot be directed as asked; the text says why."""


@dataclass
class DirectorConfig:
    game: Variant
    format: str
    """``round-robin``, ``swiss`` or ``knockout``."""
    players: int
    """The people to wait for before round 1."""
    rounds: int = 0
    """A Swiss's rounds (0: the format's own)."""
    double: bool = False
    level: str = ""
    """The computer players' level ('' for none)."""
    name: str = "Tavolo"
    interface: str = ""
    drop_timeout: float = 60.0
    """Seconds a player may be out of touch before it is withdrawn."""
    folder: Path | None = None
    """Where the log, the records and the identities are kept (None: nowhere)."""
    think_seconds: float = 1.0
    pace: float = 0.0
    code: str | None = None
    """The join code a newcomer must give (digits; None: anyone may enter)."""
    round_seconds: int = 0
    """A round's time (0: none): its games still unscored when it runs out are drawn."""
    advertise: bool = False
    """Announce the tournament on the LAN (on ``interface``, or every LAN interface) while
    it takes players and is played."""


class Director:
    """One tournament's director; see the module's docstring."""

    def __init__(self, config: DirectorConfig, observe: Observer) -> None:
        self.config = config
        self.observe = observe
        self.identity = self._identity(IDENTITY_FILE)
        self.log: TournamentLog | None = None
        self.records: dict[bytes, bytes] = {}
        self.clients: dict[str, Connection] = {}
        self.watchers: dict[str, Connection] = {}
        """Those who only watch (TV screens): sent the log and the live boards, never entered."""
        self.gone_since: dict[str, float] = {}
        self.tables: dict[tuple[int, int], dict[str, Any]] = {}
        """Where White hosts each game, as Black is told it (``table``): the address the
        director sees, the port and the join code White said."""
        self.computers: dict[str, Identity] = {}
        self.boards: dict[tuple[int, int], dict[str, Any]] = {}
        """The latest position White reported of each unscored game (``board``), relayed to
        every player for their TV screens; display only, never scored."""
        self.finished = asyncio.Event()
        self.port = 0
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._advertiser: Advertiser | None = None
        self._announcing = False
        self.round_began = time.monotonic()
        """When the round under way was paired (or, taken up again, when this run began)."""
        self.gate = Gate()
        """The door's limits (docs/PROTOCOL.md §10): strangers at once, join-code checks."""
        self._lines: set[asyncio.Task[Any]] = set()
        """The task serving each connection, from the door on (ended when the director is)."""

    # -- starting and stopping -----------------------------------------------------------

    async def start(self, port: int = 0) -> int:
        """Open the tournament, or take up the one saved in the folder, and listen."""
        self.log = self._saved() or self._opened()
        install_quiet_handler(asyncio.get_running_loop(), self._notice)
        bind = self.config.interface or "0.0.0.0"
        self._server = await asyncio.start_server(self._accept, bind, port)
        self.port = self._server.sockets[0].getsockname()[1]
        log = self.log
        self.observe("listening", {"port": self.port, "tournament": log.id,
                                   "entries": len(log), "head": log.head})  # fmt: skip
        if log.over:  # taken up after its end: it says how it ended, and stops
            for kind, data in events_after(log, log.entries[-1]):
                self.observe(kind, data)
            self.finished.set()
            return self.port
        now = time.monotonic()
        for player, entrant in log.entrants.items():
            if entrant.computer and not log.over:
                self._start_computer(self.computers[player], entrant.name)
            self.gone_since[player] = now  # those of an earlier run: the drop timeout anew
        self._spawn(self._watch())
        self._advance()
        if self.config.advertise and not log.over:
            await self._advertise()
        return self.port

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
        for connection in self._everyone():
            await connection.close("the director is leaving")
        for task in [*self._tasks, *self._lines]:
            task.cancel()
        await asyncio.gather(*self._tasks, *self._lines, return_exceptions=True)
        await self._withdraw_announcement()

    def _opened(self) -> TournamentLog:
        config = self.config
        opening = {
            "k": "open", "id": secrets.token_hex(16), "director": self.identity.key,
            "game": config.game.describe(), "format": config.format, "double": config.double,
            "rounds": config.rounds, "name": config.name[:40], "time": config.round_seconds,
            "level": config.level,
        }  # fmt: skip
        try:
            log = TournamentLog(seal(None, self.identity, opening))
        except Rejected as error:
            raise DirectorError(error.reason) from error
        self.log = log
        self._save()
        return log

    def _saved(self) -> TournamentLog | None:
        """The tournament saved in the folder by an earlier run, if any, checked entry by
        entry as any participant checks it."""
        folder = self.config.folder
        if folder is None or not (folder / RECORD_FILE).exists():
            return None
        try:
            entries, self.records = tournament_records.load(folder / RECORD_FILE)
            log = replay_tournament(entries, self.records)
        except (tournament_records.TournamentRecordError, Rejected) as error:
            raise DirectorError(f"the saved tournament does not check out: {error}") from error
        if log.director != self.identity.key:
            raise DirectorError(f"{folder} holds another director's tournament")
        config = self.config
        asked = Format.DOUBLE_ROUND_ROBIN if config.double else Format(config.format)
        if (log.game, log.format) != (config.game, asked):
            raise DirectorError(
                f"{folder} holds a tournament of {log.game.describe()}, {log.format.value}: "
                "start it again as it was, or give another folder"
            )
        for player, entrant in log.entrants.items():
            if entrant.computer:
                identity = self._identity(f"{player}.computer.id")
                if identity.peer != player:
                    raise DirectorError(f"{folder} lacks the identity of {entrant.name}")
                self.computers[player] = identity
        return log

    def _identity(self, name: str) -> Identity:
        folder = self.config.folder
        if folder is None:
            return Identity.fresh()
        try:
            folder.mkdir(parents=True, exist_ok=True)
            return Identity.load(folder / name)
        except (OSError, IdentityError) as error:
            raise DirectorError(f"cannot keep the tournament in {folder}: {error}") from error

    def _save(self) -> None:
        folder, log = self.config.folder, self.log
        if folder is not None and log is not None:
            tournament_records.save(folder / RECORD_FILE, log, list(self.records.values()))

    def _notice(self, text: str) -> None:
        self.observe("notice", {"text": text})

    # -- the announcement on the LAN -----------------------------------------------------------

    async def _advertise(self) -> None:
        log = self.log
        assert log is not None
        advertiser = Advertiser(self.config.interface)
        try:
            await advertiser.start(self.config.name, self.port, self._txt())
        except Exception as error:  # no multicast here: joining by address still works
            await advertiser.stop()
            self.observe("notice", {"text": f"the tournament is not announced on the LAN "
                                            f"({error}): players join by address"})  # fmt: skip
            return
        self._advertiser = advertiser
        self.observe("advertised", {"port": self.port})

    def _txt(self) -> dict[str, str]:
        log = self.log
        assert log is not None
        return tournament_txt(log, self.config.players, bool(self.config.code))

    def _announce(self) -> None:
        """Bring the announcement up to date with the log, one update at a time (an update
        under way when the log moves on sends the newest record once it is done)."""
        if self._advertiser is None or self._announcing:
            return
        self._announcing = True
        self._spawn(self._update_announcement())

    async def _update_announcement(self) -> None:
        try:
            while self._advertiser is not None:
                txt = self._txt()  # once over, it says so until the director closes
                try:
                    await self._advertiser.update(txt)
                except Exception as error:  # the network went: the tournament goes on
                    self.observe("notice", {"text": f"the announcement failed ({error})"})
                    return
                if self._txt() == txt:
                    return
        finally:
            self._announcing = False

    async def _withdraw_announcement(self) -> None:
        advertiser, self._advertiser = self._advertiser, None
        if advertiser is not None:
            await advertiser.stop()

    # -- the door ------------------------------------------------------------------------

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        line = asyncio.current_task()
        if line is not None:
            self._lines.add(line)
            line.add_done_callback(self._lines.discard)
        connection = Connection(reader, writer, check=validate)
        slot = self.gate.admit(connection.address, lambda: connection.hang_up("too many strangers"))
        if slot is None:
            connection.hang_up("too many connections from this address")
            return
        player: str | None = None
        try:
            try:
                player = await self._admit(connection)
            finally:
                slot.release()  # in, or gone: no longer a stranger
            await self._serve(player, connection)
        except Closed:
            pass
        finally:
            if player is not None and self.clients.get(player) is connection:
                del self.clients[player]
                self.gone_since[player] = time.monotonic()
            if player is not None and self.watchers.get(player) is connection:
                del self.watchers[player]
            connection.hang_up(connection.closed or "leaving")

    async def _admit(self, connection: Connection) -> str:
        """The player on ``connection`` once each side has proved its key and the player is
        entered (a newcomer: its ``joined`` entry placed), its log brought up to date;
        :class:`Closed` (said in a ``bye``) if it may not come in."""
        log = self.log
        assert log is not None
        knocked = await knock(connection, log, self.identity)
        player, have = knocked.player, knocked.have
        if knocked.watch:
            return await self._admit_watcher(connection, knocked)
        if player not in log.entrants:
            refusal = self._closed_to(knocked, connection.address)
            if refusal is None:
                content = {"k": "joined", "player": player, "key": knocked.key,
                           "name": knocked.name, "computer": knocked.computer,
                           "proof": knocked.proof}  # fmt: skip
                try:
                    self._put(content)
                except Rejected as error:
                    refusal = error.reason
            if refusal is not None:
                raise Closed(await connection.close(refusal))
        self._bring_up_to_date(connection, have)
        old = self.clients.pop(player, None)
        if old is not None:
            old.hang_up("the player connected again")
        self.clients[player] = connection
        self.gone_since.pop(player, None)
        for (number, board), table in self.tables.items():
            pairing = self._unscored(number, board)
            if pairing is not None and pairing.black == player:
                connection.send(self._table_for(connection, table))
        self._advance()
        return player

    async def _admit_watcher(self, connection: Connection, knocked: Knock) -> str:
        """A TV that only watches: the join code if there is one, then the log from where it
        stands and the live boards, and every entry and board from then on."""
        log = self.log
        assert log is not None
        refusal = self._code_refusal(knocked, connection.address)
        full = len(self.watchers) >= MOST_WATCHERS and knocked.player not in self.watchers
        if refusal is None and full:
            refusal = f"this tournament has {MOST_WATCHERS} watchers already"
        if refusal is not None:
            raise Closed(await connection.close(refusal))
        self._bring_up_to_date(connection, knocked.have)
        old = self.watchers.pop(knocked.player, None)
        if old is not None:
            old.hang_up("the watcher connected again")
        self.watchers[knocked.player] = connection
        self.observe("watching", {"name": knocked.name, "watchers": len(self.watchers)})
        return knocked.player

    def _bring_up_to_date(self, connection: Connection, have: int) -> None:
        """``admitted``, every entry from ``have`` on (each result after its record) and the
        live boards of the unscored games."""
        log = self.log
        assert log is not None
        connection.send({"t": "admitted", "entries": len(log)})
        for position in range(max(have, 1), len(log)):
            for frame in self._frames(log.entries[position]):
                connection.send_frame(frame)
        for game, latest in list(self.boards.items()):
            if self._unscored(*game) is not None:
                connection.send(latest)

    def _code_refusal(self, newcomer: Knock, address: str) -> str | None:
        """Why a newcomer's join code does not let it in (a wrong one counts against its
        address, as at a match's door), or None."""
        code = self.config.code
        if not code or newcomer.player in self.computers:
            return None
        if not newcomer.code:
            return "this tournament needs a join code"
        wrong = self.gate.try_code(address, newcomer.code, code)
        summary = self.gate.summary()
        if summary is not None:
            self._notice(summary)
        return wrong

    def _closed_to(self, newcomer: Knock, address: str) -> str | None:
        """Why a newcomer from ``address`` may not enter now, or None (a wrong join code
        counts against the address, as at a match's door)."""
        log = self.log
        assert log is not None
        people = [e for e in log.entrants.values() if not e.computer]
        computer = newcomer.computer
        if newcomer.proof is None:
            return "a new player's entrant message needs its entry proof"
        wrong = self._code_refusal(newcomer, address)
        if wrong is not None:
            return wrong
        if computer and newcomer.player not in self.computers:
            return "only the director's own computer players enter as the computer"
        if log.over:
            return "the tournament is over"
        if log.tournament is not None and log.format is not Format.SWISS:
            return f"the {log.format.value} has begun: it takes no player now"
        if log.tournament is None and not computer and len(people) >= self.config.players:
            return "the tournament is full"
        return None

    async def _serve(self, player: str, connection: Connection) -> None:
        """What a player sends: where it hosts its game, the record of a game it played."""
        parts = Parts()
        while True:
            message = await connection.receive()
            kind = message["t"]
            if kind == "hosting":
                self._on_hosting(player, connection, message)
            elif kind == "board":
                self._on_board(player, message)
            elif kind == "record":
                try:
                    whole = parts.add(message)
                except MessageError as error:
                    raise Closed(await connection.close(f"bad message: {error}")) from error
                if whole is not None:
                    self._submitted(*whole)
            else:
                raise Closed(await connection.close(f"a player does not send {kind}"))

    def _on_hosting(self, player: str, connection: Connection, message: dict[str, Any]) -> None:
        number, board = message["round"], message["board"]
        pairing = self._unscored(number, board)
        if pairing is None or pairing.white != player:
            return  # White hosts, and only an open game: anything else is stale
        table = {**message, "t": "table", "address": connection.address}
        self.tables[number, board] = table
        black = self.clients.get(pairing.black)
        if black is not None:
            black.send(self._table_for(black, table))

    def _on_board(self, player: str, message: dict[str, Any]) -> None:
        """A position of an unscored game from its White, newer than the one held: kept and
        relayed to every player (anything else is stale or not White's to say)."""
        game = (message["round"], message["board"])
        pairing = self._unscored(*game)
        if pairing is None or pairing.white != player:
            return
        held = self.boards.get(game)
        if held is not None and held["ply"] > message["ply"]:
            return
        self.boards[game] = message
        for connection in self._everyone():
            connection.send(message)

    def _everyone(self) -> list[Connection]:
        """Every line the log's entries and the live boards go to: players and watchers."""
        return [*self.clients.values(), *self.watchers.values()]

    @staticmethod
    def _table_for(black: Connection, table: dict[str, Any]) -> dict[str, Any]:
        """``table`` as Black is to be told it: a White on this machine, which reached the
        director by loopback (its computer players among them), is at this machine's
        address on Black's line."""
        try:
            loopback = ipaddress.ip_address(table["address"]).is_loopback
        except ValueError:
            return table
        return {**table, "address": black.local_address} if loopback else table

    def _submitted(self, number: int, board: int, data: bytes) -> None:
        """A match record a player sent: the game's result, if it replays and is the
        pairing's; the first such record is scored, any later one is passed over."""
        log = self.log
        assert log is not None
        pairing = self._unscored(number, board)
        if pairing is None:
            return
        try:
            result = judge_record(data, log.game, pairing, tournament_match(log.id, number, board))
            self._put(self._result(number, board, result, data), data)
        except Rejected as error:
            text = f"round {number} board {board + 1}: a record refused: {error.reason}"
            self.observe("notice", {"text": text})
            for connection in self._everyone():  # shown to every room and TV, not scored
                connection.send({"t": "notice", "text": text[:300]})
            return
        self._scored_off(number, board)
        self._advance()

    def _result(
        self, number: int, board: int, result: Result, data: bytes | None
    ) -> dict[str, Any]:
        log = self.log
        assert log is not None
        return {
            "k": "result", "round": number, "board": board, "result": result.value,
            "match": tournament_match(log.id, number, board),
            "record": None if data is None else record_digest(data),
        }  # fmt: skip

    def _unscored(self, number: int, board: int) -> Pairing | None:
        """The pairing of game ``board`` of round ``number`` if it is still to be scored."""
        tournament = self.log.tournament if self.log is not None else None
        if tournament is None or not 1 <= number <= len(tournament.rounds):
            return None
        played = tournament.rounds[number - 1]
        if board >= len(played.pairings) or played.outcomes[board] is not None:
            return None
        return played.pairings[board]

    # -- the log ---------------------------------------------------------------------------

    def _put(self, content: dict[str, Any], record: bytes | None = None) -> None:
        """Seal ``content`` as the next entry, apply it as every participant will
        (:class:`Rejected` if it does not follow), save, and send it to every player."""
        log = self.log
        assert log is not None
        entry = seal(log, self.identity, content)
        log.apply(entry, record)
        if record is not None:
            self.records[record_digest(record)] = record
        self._save()
        frames = self._frames(entry)
        for connection in self._everyone():
            for frame in frames:
                connection.send_frame(frame)
        for kind, data in events_after(log, entry):
            self.observe(kind, data)
        self._announce()

    def _frames(self, entry: dict[str, Any]) -> list[bytes]:
        """``entry`` framed, after the match record it scores."""
        frames = [encode({"t": "entry", "e": entry})]
        if entry["k"] == "result" and entry["record"] is not None:
            frames[:0] = record_frames(entry["round"], entry["board"],
                                       self.records[entry["record"]])  # fmt: skip
        return frames

    def _advance(self) -> None:
        """Pair the next round once the last is scored (round 1 once every player the
        director waits for is in), or end the tournament once no round is left."""
        log = self.log
        assert log is not None
        while not log.over:
            tournament = log.tournament
            if tournament is None:
                people = [p for p, e in log.entrants.items() if not e.computer]
                if len(set(people) - set(log.withdrawn_early)) < self.config.players:
                    return
            elif not tournament.rounds[-1].complete:
                return
            elif tournament.over:
                self._put({"k": "over"})
                self._spawn(self._finish())
                return
            self._fill()
            try:
                self._put(log.next_round())
                self.round_began = time.monotonic()
            except Rejected as error:
                self.observe("error", {"text": f"no round can be paired: {error.reason}"})
                return

    def _fill(self) -> None:
        """With a computer level, enter a computer player if the next round would leave a
        player without a game: before round 1, or in a Swiss before any round."""
        log = self.log
        assert log is not None
        tournament = log.tournament
        if not self.config.level or log.format is Format.KNOCKOUT:
            return
        if tournament is None:
            count = len(log.waiting) - len(log.withdrawn_early)
        elif log.format is Format.SWISS:
            count = len(tournament.active(tournament.next_round))
        else:
            return
        if count % 2 == 0:
            return
        identity = Identity.fresh()
        if self.config.folder is not None:
            try:
                identity.save(self.config.folder / f"{identity.peer}.computer.id")
            except IdentityError as error:
                raise DirectorError(str(error)) from error
        name = f"Computer {len(self.computers) + 1}"
        self.computers[identity.peer] = identity
        self._put(joined(identity, log, name, computer=True))
        self._start_computer(identity, name)

    def _start_computer(self, identity: Identity, name: str) -> None:
        """Play ``identity``'s games from this process, as any player plays its own."""
        config = self.config
        player = TournamentPlayer(
            identity,
            PlayerConfig(name=name, level=config.level, computer=True,
                         interface=config.interface, drop_timeout=config.drop_timeout,
                         think_seconds=config.think_seconds, pace=config.pace),
            lambda kind, data: None,
        )  # fmt: skip
        self._spawn(player.run(config.interface or "127.0.0.1", self.port))

    # -- out of touch ------------------------------------------------------------------------

    async def _watch(self) -> None:
        """Withdraw every person out of touch for the drop timeout; forfeit their game."""
        while True:
            await asyncio.sleep(WATCH_EVERY)
            log = self.log
            assert log is not None
            if log.over:
                return
            now = time.monotonic()
            for player, entrant in list(log.entrants.items()):
                if entrant.computer or player in self.clients or self._withdrawn(player):
                    continue
                since = self.gone_since.setdefault(player, now)
                if now - since >= self.config.drop_timeout:
                    self._withdraw(player)
            if log.time and now - self.round_began >= log.time:
                self._time_is_up()
            self._advance()

    def _time_is_up(self) -> None:
        """The round's time ran out: each of its games still unscored is drawn, without a
        record (the director's word, as a withdrawal is; docs/PROTOCOL.md §14)."""
        log = self.log
        assert log is not None
        tournament = log.tournament
        if tournament is None or not tournament.rounds or tournament.rounds[-1].complete:
            return
        number = len(tournament.rounds)
        for board in range(len(tournament.rounds[-1].pairings)):
            if self._unscored(number, board) is not None:
                self.observe("notice", {"text": f"round {number} board {board + 1}: the "
                                                "round's time is up: drawn"})  # fmt: skip
                self._put(self._result(number, board, Result.DRAW, None))
                self._scored_off(number, board)

    def _scored_off(self, number: int, board: int) -> None:
        """A game scored: where White hosted it and its live board are no longer told."""
        self.tables.pop((number, board), None)
        self.boards.pop((number, board), None)

    def _withdrawn(self, player: str) -> bool:
        log = self.log
        assert log is not None
        if log.tournament is None:
            return player in log.withdrawn_early
        return log.tournament.withdrawn_from(player) is not None

    def _withdraw(self, player: str) -> None:
        log = self.log
        assert log is not None
        seconds = f"{self.config.drop_timeout:g}"
        self._put({"k": "withdrawn", "player": player,
                   "reason": f"out of touch with the director for {seconds} s"})  # fmt: skip
        tournament = log.tournament
        if tournament is None:
            return
        number = len(tournament.rounds)
        for board, pairing in enumerate(tournament.rounds[-1].pairings):
            if player in pairing.players and self._unscored(number, board) is not None:
                lost = Result.WHITE_FORFEITS if pairing.white == player else Result.BLACK_FORFEITS
                self._put(self._result(number, board, lost, None))
                self._scored_off(number, board)

    async def _finish(self) -> None:
        """Give the players the last entries, then end."""
        for connection in self._everyone():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(connection.drain(), 2.0)
        self.finished.set()

    def _spawn(self, coroutine: Any) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
