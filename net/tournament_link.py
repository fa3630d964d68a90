"""A tournament on the LAN for a frame loop that must never wait on the network.

:class:`TournamentLink` runs a :class:`~net.tournament_director.Director` (when this
computer directs) and this person's :class:`~net.tournament_player.TournamentPlayer` on an
asyncio loop in a thread of its own, as :class:`net.link.NetLink` runs a match.  The frame
loop calls its methods (they only schedule work on that loop and return at once) and reads
:meth:`TournamentLink.view`: an immutable snapshot of the tournament as this player's own
verified log has it, remade on the network thread after every change.

The person plays their own games (the player's ``level`` None): each of their matches is
offered to the frame loop as a :class:`net.link.NetLink` over the player's own match peer
(:meth:`TournamentLink.game_link`), which the client's match screen drives as any LAN
match.  Or the computer plays them at the level they chose; the view says how each of them
goes (its moves so far).
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from game.tournament import TIE_BREAKS, Format, Tournament
from net import tournament_records
from net.identity import Identity
from net.link import NetLink
from net.peer import Peer
from net.tournament_director import Director, DirectorConfig, DirectorError
from net.tournament_log import TournamentLog
from net.tournament_player import PlayerConfig, TournamentPlayer

WATCH_EVERY = 0.5
"""Seconds between two looks at this player's games under way (their moves so far)."""
FIRST_REACH = 5.0
"""Seconds to wait for a director's first answer: one that was never reached is said at
once (the player seeks a director it lost for its reconnect time, one it never met not)."""


@dataclass(frozen=True)
class GameView:
    """One game of the round shown."""

    round: int
    board: int
    white: str
    black: str
    result: str | None
    """``1-0``, ``½-½``, ``0-1`` (a forfeit's with its ``+``/``-``), None while unscored."""
    mine: bool = False
    playing: bool = False
    """This player's game and its match under way here."""
    moves: int = 0
    """The actions played so far in this player's match (0 for the others' games)."""
    hosted: bool | None = None
    """Whether White has opened the game's match yet, as the director knows (None: not
    known here, on a player's computer)."""
    position: bytes | None = None
    """The game's latest position (:meth:`game.rules.State.encode`) while it is played: this
    player's own match's, or as White reported it through the director — for the TV's live
    boards, never trusted for anything else (:func:`game.rules.codec.decode_state` checks it)."""


@dataclass(frozen=True)
class StandingView:
    rank: int
    name: str
    points: float
    tie_breaks: tuple[float, ...]
    computer: bool
    withdrawn: bool


@dataclass(frozen=True)
class TournamentView:
    """The tournament as the frame loop may read it at any moment."""

    phase: str = "connecting"
    """``connecting``, ``waiting`` (for players), ``playing``, ``over`` or ``failed``."""
    directing: bool = False
    port: int = 0
    """Where the director listens (this computer's, when directing)."""
    code: str | None = None
    name: str = ""
    game: str = ""
    """The variant's name (``mulino:classic``)."""
    format: str = ""
    entrants: tuple[str, ...] = ()
    """The names of everyone entered, in the order they entered."""
    waiting_for: int = 0
    """People the director still waits for before round 1."""
    round: int = 0
    rounds: int = 0
    """The rounds planned (a knockout's and a Swiss's as far as known)."""
    round_seen: float = 0.0
    """When this computer learnt of the round under way (seconds since the epoch)."""
    round_ends: float | None = None
    """When the round's time runs out, by this computer's clock (None: no time per round,
    or no round under way): its games unfinished then are drawn."""
    games: tuple[GameView, ...] = ()
    byes: tuple[str, ...] = ()
    standings: tuple[StandingView, ...] = ()
    tie_breaks: tuple[str, ...] = ()
    cross_names: tuple[str, ...] = ()
    cross: tuple[tuple[str, ...], ...] = ()
    me: str = ""
    my_name: str = ""
    next_opponent: str | None = None
    """Whom this player meets next (this round's game not yet scored), if anyone."""
    my_game: tuple[int, int] | None = None
    """This person's game under way (its round and board) with its match at hand
    (:meth:`TournamentLink.game_link`), when the person plays it."""
    winner: str | None = None
    digest: str = ""
    error: str | None = None
    notices: tuple[str, ...] = ()
    tournament: Tournament | None = field(default=None, compare=False)
    """The tournament itself, for exporting its cross table."""


class TournamentFeed(Protocol):
    """What the screens of a tournament read: its view now, and leaving it."""

    def view(self) -> TournamentView: ...

    def game_link(self, game: tuple[int, int]) -> NetLink | None: ...

    def game_files(self) -> list[tuple[str, bytes]]: ...

    def close(self) -> None: ...


class TournamentLink:
    """See the module's docstring."""

    def __init__(
        self,
        identity: Identity,
        config: PlayerConfig,
        on_change: Callable[[], None] | None = None,
    ) -> None:
        """``on_change`` is called on the network thread after every change to
        :meth:`view`, so a frame loop asleep while nothing moves wakes for it."""
        self.identity = identity
        self.config = config
        self._on_change = on_change
        self._view = TournamentView(me=identity.peer, my_name=config.name)
        self._notices: list[str] = []
        self._lock = threading.Lock()
        self.director: Director | None = None
        self.player: TournamentPlayer | None = None
        self._plays = True
        self._game_links: dict[tuple[int, int], NetLink] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(
            target=self._loop.run_forever, daemon=True, name="tournament"
        )
        self._thread.start()

    # -- what the frame loop calls -------------------------------------------------------

    def direct(self, config: DirectorConfig, port: int = 0, plays: bool = True) -> None:
        """Direct a tournament of ``config`` on ``port`` (0: any), this person one of its
        players if ``plays``."""
        self._plays = plays
        self._submit(self._direct(config, port))

    def join(self, address: str, port: int) -> None:
        """Take part in the tournament directed at ``address:port``."""
        self._submit(self._play(address, port))

    def view(self) -> TournamentView:
        with self._lock:
            return self._view

    def game_link(self, game: tuple[int, int]) -> NetLink | None:
        """The match of this person's ``game`` (round, board), for the match screen."""
        with self._lock:
            return self._game_links.get(game)

    def game_files(self) -> list[tuple[str, bytes]]:
        """The files exporting the tournament's games writes, by name
        (:func:`net.tournament_records.game_files`): read on the network thread, which
        changes the log (a brief wait; none at all before there is a log)."""
        if not self._loop.is_running():
            return []
        future = asyncio.run_coroutine_threadsafe(self._game_files(), self._loop)
        try:
            return future.result(2.0)
        except Exception:  # a thread that does not answer: nothing to export now
            return []

    async def _game_files(self) -> list[tuple[str, bytes]]:
        log = self._log()
        if log is None:
            return []
        kept = self.player.records if self._plays and self.player is not None else None
        if kept is None:
            kept = self.director.records if self.director is not None else {}
        return tournament_records.game_files(log, kept)

    def close(self) -> None:
        """Leave the tournament (and stop directing it) and stop the thread (waits at most
        a few seconds)."""
        if not self._loop.is_running():
            return
        future = asyncio.run_coroutine_threadsafe(self._shutdown(), self._loop)
        with contextlib.suppress(Exception):  # leaving must never hang or fail the screen
            future.result(3.0)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(2.0)

    # -- on the network thread -----------------------------------------------------------

    def _submit(self, coroutine: Any) -> None:
        asyncio.run_coroutine_threadsafe(coroutine, self._loop)

    def _spawn(self, coroutine: Any) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _direct(self, config: DirectorConfig, port: int) -> None:
        try:
            director = Director(config, self._directed)
            self.director = director
            listening = await director.start(port)
        except DirectorError as error:
            self._fail(str(error))
            return
        except OSError as error:
            self._fail(f"cannot listen on port {port}: {error.strerror}")
            return
        with self._lock:
            self._view = replace(self._view, directing=True, port=listening, code=config.code)
        if self._plays:
            self.config.code = config.code
            await self._play(config.interface or "127.0.0.1", listening)
        else:
            self._spawn(self._watch())
            self._refresh()

    async def _play(self, address: str, port: int) -> None:
        with self._lock:
            if not self._view.directing:
                self._view = replace(self._view, port=port)
        try:
            _reader, writer = await asyncio.wait_for(
                asyncio.open_connection(address, port), FIRST_REACH
            )
        except (OSError, TimeoutError) as error:
            reason = getattr(error, "strerror", None) or "no answer"
            self._fail(f"the director cannot be reached at {address}:{port}: {reason}")
            return
        writer.close()
        player = TournamentPlayer(self.identity, self.config, self._observe)
        if self.config.level is None:  # the person plays: their matches to the match screen
            player.match_started = self._match_started
            player.match_observed = self._match_observed
        self.player = player
        self._spawn(self._watch())
        try:
            status = await player.run(address, port)
        except OSError as error:
            self._fail(str(error))
            return
        if status and player.failure is not None:
            self._fail(player.failure)
        self._refresh()

    def _match_started(self, game: tuple[int, int], peer: Peer) -> None:
        link = NetLink.over(peer, asyncio.get_running_loop(), self._on_change)
        with self._lock:
            self._game_links[game] = link
        self._refresh()

    def _match_observed(self, game: tuple[int, int], kind: str, data: dict[str, Any]) -> None:
        with self._lock:
            link = self._game_links.get(game)
        if link is not None:
            link.observe(kind, data)

    async def _watch(self) -> None:
        """Remake the view now and then: this player's matches move without the log."""
        while True:
            await asyncio.sleep(WATCH_EVERY)
            self._refresh()

    async def _shutdown(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        if self.player is not None:
            for game in list(self.player.peers):
                with contextlib.suppress(Exception):
                    await self.player.peers[game].close("left the tournament")
            self.player.failure = self.player.failure or "left the tournament"
            if self.player.upstream is not None:
                with contextlib.suppress(Exception):
                    await self.player.upstream.close("left the tournament")
        if self.director is not None:
            with contextlib.suppress(Exception):
                await self.director.close()
        current = asyncio.current_task()
        rest = [t for t in asyncio.all_tasks() if t is not current]
        for task in rest:
            task.cancel()
        await asyncio.gather(*rest, return_exceptions=True)

    def _directed(self, kind: str, data: dict[str, Any]) -> None:
        if kind in ("notice", "error"):
            self._notice(str(data.get("text", "")))
        if not self._plays:
            self._refresh()

    def _observe(self, kind: str, data: dict[str, Any]) -> None:
        if kind == "notice":
            self._notice(str(data.get("text", "")))
        elif kind in ("refused", "error"):
            self._fail(str(data.get("reason") or data.get("text") or kind))
        self._refresh()

    def _notice(self, text: str) -> None:
        with self._lock:
            self._notices = [*self._notices[-4:], text]
            self._view = replace(self._view, notices=tuple(self._notices))
        self._changed()

    def _fail(self, reason: str) -> None:
        with self._lock:
            self._view = replace(self._view, error=reason, phase="failed")
        self._changed()

    def _changed(self) -> None:
        if self._on_change is not None:
            self._on_change()

    def _log(self) -> TournamentLog | None:
        if self._plays and self.player is not None:
            return self.player.log
        return self.director.log if self.director is not None else None

    def _refresh(self) -> None:
        log = self._log()
        if log is None:
            return
        made = _view_of(log, self._view, self.player if self._plays else None, self.director)
        with self._lock:
            mine = [g for g in made.games if g.mine and g.result is None]
            game = (mine[0].round, mine[0].board) if mine else None
            made = replace(made, my_game=game if game in self._game_links else None)
            old = self._view
            self._view = made
        if made != old:
            self._changed()


def _view_of(
    log: TournamentLog,
    old: TournamentView,
    player: TournamentPlayer | None,
    director: Director | None,
) -> TournamentView:
    """The view of ``log`` as this player holds it (its matches under way from ``player``)."""
    tournament = log.tournament
    names = {p: e.name for p, e in log.entrants.items()}
    me = old.me
    games: list[GameView] = []
    byes: tuple[str, ...] = ()
    number = 0
    next_opponent = None
    if tournament is not None and tournament.rounds:
        number = len(tournament.rounds)
        latest = tournament.rounds[-1]
        byes = tuple(names.get(b, b) for b in latest.byes)
        for board, (pairing, outcome) in enumerate(
            zip(latest.pairings, latest.outcomes, strict=True)
        ):
            mine = me in pairing.players
            peer = player.peers.get((number, board)) if player is not None else None
            matchlog = peer.log if peer is not None else None
            source = player if player is not None else director
            reported = source.boards.get((number, board)) if source is not None else None
            position = matchlog.state.encode() if matchlog is not None else None
            if position is None and reported is not None:
                position = reported["state"]
            games.append(
                GameView(
                    round=number, board=board, white=names.get(pairing.white, "?"),
                    black=names.get(pairing.black, "?"),
                    result=None if outcome is None else outcome.value, mine=mine,
                    playing=matchlog is not None and outcome is None,
                    moves=len(matchlog.record.actions) if matchlog is not None else 0,
                    hosted=None if director is None else (number, board) in director.tables,
                    position=position if outcome is None else None,
                )
            )  # fmt: skip
            if mine and outcome is None:
                next_opponent = names.get(pairing.opponent_of(me))
    standings: list[StandingView] = []
    cross_names: tuple[str, ...] = ()
    cross: tuple[tuple[str, ...], ...] = ()
    rounds = 0
    if tournament is not None:
        withdrawn = {
            p.id for p in tournament.players if tournament.withdrawn_from(p.id) is not None
        }
        for line in log.standings():
            standings.append(
                StandingView(
                    line.rank, line.player.name, float(line.points),
                    tuple(float(v) for v in line.tie_breaks),
                    log.entrants[line.player.id].computer, line.player.id in withdrawn,
                )
            )  # fmt: skip
        table = tournament.cross_table()
        cross_names = tuple(p.name for p in table.players)
        cross = table.cells
        rounds = max(tournament.planned_rounds, number)
    people = sum(1 for e in log.entrants.values() if not e.computer)
    wanted = director.config.players if director is not None else 0
    if log.over:
        phase = "over"
    elif number:
        phase = "playing"
    else:
        phase = "waiting"
    seen = old.round_seen if number == old.round and old.round_seen else time.time()
    ends = seen + log.time if log.time and number and not log.over else None
    return replace(
        old,
        round_seen=seen,
        round_ends=ends,
        phase="failed" if old.error else phase,
        name=log.name,
        game=log.game.name,
        format=log.format.value,
        entrants=tuple(e.name for e in log.entrants.values()),
        waiting_for=max(0, wanted - people) if not number else 0,
        round=number,
        rounds=rounds,
        games=tuple(games),
        byes=byes,
        standings=tuple(standings),
        tie_breaks=tuple(TIE_BREAKS[log.format]),
        cross_names=cross_names,
        cross=cross,
        next_opponent=next_opponent,
        winner=standings[0].name if log.over and standings else None,
        digest=log.head if log.over else "",
        tournament=tournament,
    )


__all__ = [
    "Format",
    "GameView",
    "StandingView",
    "TournamentFeed",
    "TournamentLink",
    "TournamentView",
]
