"""The seat agent: what a peer sends the match after every change, and its decisions.

:class:`net.agent.Agent` works out from the log alone what this peer owes — dice, whose turn
it is.  The seat agent acts on it after every change (:meth:`SeatAgent.after_change`): it
sends the dice owed, asks this peer's person for a decision or has the computer think one in
the worker process (:mod:`net.thinking`), readies and allows coaching for headless peers,
starts the match when told to, and tells the observer when the match pauses, resumes, opens a
chance event or ends.  Once a missing player's drop timeout is over it gives the seat to the
computer or ends the match, as the peer was told (``PeerConfig.on_drop``).
"""

from __future__ import annotations

import asyncio
import time
from enum import Enum
from typing import TYPE_CHECKING, Any

from game.rules import RulesError
from net.matchlog import LOBBY, PLAYING
from net.thinking import SeatThinker

if TYPE_CHECKING:
    from game.rules import State
    from net.agent import Turn
    from net.peer import Peer


class Once(Enum):
    """What a peer does at most once a match."""

    READIED = "readied"
    """A headless guest said it is ready (with its coaching allowed first, if told to)."""
    ALLOWED_COACHING = "allowed coaching"
    """A headless host allowed hints and dice odds for its seat."""
    REPORTED_OVER = "reported over"
    """The end of the match was reported, and the peer set to finish."""


RETRY_FIRST = 0.05
"""Seconds a guest waits before it sends a reveal refused twice in a row (no entry between)."""
RETRY_MOST = 2.0
"""The longest it waits: the wait doubles with every refusal in a row, up to this."""


class SeatAgent:
    """What ``peer`` sends the match after every change, and the decisions of its seats."""

    def __init__(self, peer: Peer) -> None:
        self.peer = peer
        self._thinker = SeatThinker(peer.config.think_seconds)
        self._thinking: dict[tuple[int, int], asyncio.Task[Any]] = {}
        """The computer's decisions under way, by seat and ply."""
        self._decided: set[tuple[int, int]] = set()
        """The (seat, ply) decisions sent, until the log has them or a host change."""
        self.waiting_turn: Turn | None = None
        """The turn this peer's person is asked to decide (:meth:`net.peer.Peer.decide`)."""
        self._done: set[Once] = set()
        self._paused_shown = False
        """Whether the observer was last told the match is paused (or resumed)."""
        self._pending_shown: int | None = None
        """The chance event the observer was last told is open."""
        self._drop_watch: asyncio.Task[Any] | None = None
        self._refusals = 0
        """The reveals refused in a row with no entry logged between (a guest's)."""
        self._refused_at = -1
        """How long the log was at the last refusal."""
        self._retry: asyncio.Task[Any] | None = None

    def _first_time(self, step: Once) -> bool:
        """Whether ``step`` is taken now for the first time (then it never is again)."""
        if step in self._done:
            return False
        self._done.add(step)
        return True

    def after_change(self) -> None:
        """Send what this peer owes now: dice, a decision, the start, a drop decision."""
        peer = self.peer
        log = peer.log
        if log is None:
            return
        paused = log.paused or peer.lost_touch
        if paused != self._paused_shown:
            self._paused_shown = paused
            names = [log.members[p].name for p in peer.waiting_for()]
            peer.observe("paused" if paused else "resumed", {"waiting": names})
        if paused and self._drop_watch is None and peer.config.on_drop != "wait":
            self._drop_watch = peer._spawn(self._watch_drop())
        if log.pending_event is not None and log.pending_event != self._pending_shown:
            self._pending_shown = log.pending_event
            peer.observe("pending", {"number": log.pending_event})
        for request in peer.agent.dice_requests(log):
            peer.request(request)
        if peer.agent.distrust and peer.failure is None:
            peer.failure = peer.agent.distrust  # §7.1: the event waits, and the screen says why
            peer.observe("error", {"text": peer.agent.distrust})
        seat = log.seat_of(peer.me)
        in_lobby_seated = log.phase == LOBBY and seat is not None
        config = peer.config
        if (
            config.autostart
            and not peer.hosting
            and in_lobby_seated
            and not log.members[peer.me].ready
            and self._first_time(Once.READIED)
        ):
            if config.allow_coaching:  # said before ready: the host may start at once
                peer.request({"k": "coach", "allow": True})
            peer.request({"k": "ready", "ready": True})
        if (
            config.allow_coaching
            and peer.hosting
            and in_lobby_seated
            and not log.members[peer.me].coach
            and self._first_time(Once.ALLOWED_COACHING)
        ):
            peer.request({"k": "coach", "allow": True})
        turn = peer.agent.turn(log)
        if turn is not None and (turn.seat, turn.ply) not in self._decided:
            self._begin_turn(turn)
        if peer.hosting and config.autostart and log.start_problem() is None:
            peer.request({"k": "start"})
        if log.phase not in (LOBBY, PLAYING) and self._first_time(Once.REPORTED_OVER):
            result = log.state.result()
            peer.observe(
                "over",
                {
                    "phase": log.phase,
                    "result": str(result) if result else log.end_reason,
                    "digest": log.state.digest(),
                    "forfeit": [log.members[p].name for p in log.forfeit],
                    "ply": log.ply,
                    "entries": len(log),
                },
            )
            peer._spawn(self._finish())

    async def _finish(self) -> None:
        """Stop, a moment later as host: the last entries are still going out."""
        await asyncio.sleep(0.3 if self.peer.hosting else 0)
        self.peer.finished.set()

    # -- decisions -----------------------------------------------------------------------

    def _begin_turn(self, turn: Turn) -> None:
        """Ask this peer's person for the decision, or have the computer think it."""
        key = (turn.seat, turn.ply)
        level = turn.level or self.peer.config.level
        if level is None:
            if self.waiting_turn != turn:
                self.waiting_turn = turn
                self.peer.observe("your_turn", {"seat": turn.seat, "ply": turn.ply})
            return
        if key in self._thinking:
            return
        log = self.peer.log
        assert log is not None
        state = log.state
        seed = int(log.match_id[:8], 16) + turn.seat
        task = asyncio.get_running_loop().create_task(self._think(turn, state, level, seed))
        self._thinking[key] = task

    async def _think(self, turn: Turn, state: State, level: str, seed: int) -> None:
        try:
            began = time.monotonic()
            action = await self._thinker.decide(state, level, seed)
            if action is None:
                return  # cancelled: the match moved on
            await asyncio.sleep(self.peer.config.pace - (time.monotonic() - began))
            self.send_action(turn, state.action_to_str(action))
        except Exception as error:  # reported: the seat waits, the match lives
            self.peer.observe("error", {"text": f"the computer player failed: {error!r}"})
        finally:
            self._thinking.pop((turn.seat, turn.ply), None)

    def send_action(self, turn: Turn, text: str) -> None:
        """Request the action ``text`` for ``turn``, and any reveal that may go right behind
        it (:meth:`net.agent.Agent.reveal_ahead`); a person's illegal one is only reported."""
        peer = self.peer
        log = peer.log
        if log is None or peer.agent.turn(log) != turn:
            return  # the match has moved on (a rejoin, a hand-over) while deciding
        try:
            state = log.state
            after = state.apply(state.parse_action(text))
        except RulesError as error:  # a person's typo is reported, never fatal
            peer.observe("rejected", {"kind": "act", "reason": str(error)})
            return
        self._decided.add((turn.seat, turn.ply))
        self.waiting_turn = None
        peer.observe("sent", {"ply": turn.ply, "seat": turn.seat, "action": text})
        peer.request(
            {"k": "act", "seat": turn.seat, "ply": turn.ply, "a": text, "d": after.digest()}
        )
        for request in peer.agent.reveal_ahead(log, after):
            peer.request(request)

    def rejected(self, kind: str, reason: str, *, by_itself: bool = False) -> None:
        """The host refused this peer's request of a ``kind`` entry: owe it again.

        A refused reveal goes out again once owed. A guest, told over its line, sends it at once if
        it is owed now: the entries that made it owed may have come before the refusal. Refused
        again with no entry between — a host cut off from most of the match refuses every request
        until it is back in touch, and tells nobody when it is — it waits before sending again,
        :data:`RETRY_FIRST` and twice as long at each refusal up to :data:`RETRY_MOST`, instead of
        asking as fast as the line answers; an entry meanwhile sends it at once
        (:meth:`after_change`). A host refusing its own request (``by_itself``) refused it within
        that very request: asking again at once would meet the same log and the same touch and be
        refused again, without end — a host cut off from most of the match with its reveal owed
        recursed until the stack ran out, which killed the task that asked, its watch among them,
        and with the watch the end of a host that finds nobody (§6.6). Its reveal goes out at the
        next change instead: an entry, or its watch finding it back in touch
        (:meth:`resend_after_host_change`)."""
        peer = self.peer
        peer.observe("rejected", {"kind": kind, "reason": reason})
        if kind == "act" and peer.log is not None:
            self._decided.discard((peer.log.state.to_move, peer.log.ply))
        elif kind == "reveal":
            peer.agent.forget_reveals()
            if not by_itself:
                self._send_refused_reveal_again()

    def _send_refused_reveal_again(self) -> None:
        """At once after a first refusal, later after each further one in a row."""
        peer = self.peer
        logged = len(peer.log) if peer.log is not None else 0
        self._refusals = 1 if logged != self._refused_at else self._refusals + 1
        self._refused_at = logged
        if self._refusals == 1:
            peer._after_change()
            return
        if self._retry is not None:
            self._retry.cancel()
        wait = min(RETRY_MOST, RETRY_FIRST * 2 ** (self._refusals - 2))
        self._retry = peer._spawn(self._after(wait))

    async def _after(self, seconds: float) -> None:
        await asyncio.sleep(seconds)
        self._retry = None
        self.peer._after_change()

    def resend_after_host_change(self) -> None:
        """Whatever went to a host (the old one, or this one while it was cut off) may never
        have been logged: owe it again."""
        peer = self.peer
        peer.agent.forget_unlogged()
        log = peer.log
        if log is not None:
            self._decided = {key for key in self._decided if key[1] < log.ply}

    async def close(self) -> None:
        """Give up every decision under way and end the worker process."""
        for task in self._thinking.values():
            task.cancel()
        await self._thinker.aclose()

    # -- missing players -------------------------------------------------------------------

    async def _watch_drop(self) -> None:
        """Once a missing player's timeout is over, do what this peer was told to."""
        peer = self.peer
        config = peer.config
        try:
            await asyncio.sleep(config.drop_timeout + 0.2)
            log = peer.log
            while log is not None and log.paused and log.phase == PLAYING:
                if config.on_drop == "end" or not self.can_hand_over():
                    self.end_for_the_missing()  # a withheld die cannot be handed over
                else:
                    self.hand_over_the_missing(config.drop_level)
                await asyncio.sleep(1.0)
                log = peer.log
        finally:
            self._drop_watch = None

    def can_hand_over(self) -> bool:
        """Whether giving the missing players' seats to the computer would let the match go
        on: not while an open chance event waits for one of them (its value was fixed at
        its commitment; only its owner can reveal it)."""
        log = self.peer.log
        if log is None:
            return False
        missing = set(log.waiting_for())
        return not missing & {p for p in log.event_group or () if p not in log.reveals}

    def hand_over_the_missing(self, level: str) -> None:
        """Ask that the computer take every seat whose player is missing (the log refuses it
        before the drop timeout is over)."""
        log = self.peer.log
        if log is None:
            return
        for seat, info in enumerate(log.seats):
            if info.human and info.owner in log.waiting_for():
                self.peer.request({"k": "computer", "seat": seat, "level": level})

    def end_for_the_missing(self) -> None:
        """Ask that the match end because a player left and did not come back."""
        self.peer.request({"k": "end", "reason": "a player left and did not come back"})
