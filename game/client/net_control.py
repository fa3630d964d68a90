"""A LAN match on the match screen: the match log drives it.

Every peer checks the log entry by entry (:mod:`net.matchlog`); this control only mirrors
the actions the log has accepted into a local :class:`~game.session.match.Match` for the
screen, sends this player's decisions, and offers the decisions about a missing player's
seat.  The network runs on its own thread (:class:`net.link.NetLink`): nothing here waits.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from game.client.control import MatchControl
from game.client.navigator import Screen, make
from game.client.turns import actor
from game.client.views.base import Control
from game.i18n import _
from game.names import seat_names
from game.rules import MatchRecord, RulesError, State
from game.session.match import Match
from game.session.saves import plain
from game.session.seats import Seat, SeatKind

if TYPE_CHECKING:
    from game.client.app import App
    from game.client.scene import Scene
    from game.client.scenes.play import PlayScene
    from net.link import LinkView, NetLink

DROP_TIMEOUT = 60.0
"""Seconds a missing player is waited for before the others may decide without them."""


class NetControl(MatchControl):
    def __init__(self, app: App, link: NetLink) -> None:
        self.app = app
        self.link = link
        self.net: LinkView = link.view()
        self._now = time.monotonic()
        """When the frame being made began (see :meth:`update`)."""
        assert self.net.variant is not None
        seats = [
            Seat() if index == self.net.my_seat else Seat(SeatKind.REMOTE, None, seat.name)
            for index, seat in enumerate(self.net.seats)
        ]
        self.match = Match(MatchRecord(self.net.variant, (), self.net.start), seats, 0)
        self.sent = False
        """This player's decision is on its way and not in the log yet."""
        self.out_of_step = False
        self._kept = False
        self._save_error = ""
        self._follow()

    # -- who is who -----------------------------------------------------------------------

    def here(self, seat: int) -> bool:
        return seat == self.net.my_seat

    @property
    def coaching(self) -> bool:  # type: ignore[override]
        """Hints and dice odds only if every person at the match allowed them in the room."""
        return self.net.coaching

    # -- this player's part ---------------------------------------------------------------

    def decide(self, action: int) -> bool:
        state = self.match.state
        playing = self.net.phase == "playing" and not self.net.paused
        if self.sent or not playing or not self.here(state.to_move):
            return False
        if action not in state.legal_actions():
            return False
        self.sent = True
        self.link.decide(state.action_to_str(action))
        return True

    @property
    def pending(self) -> bool:
        """No decision can be made at this screen now: one is on its way, or the match
        waits (paused for a missing player) or is stopped (a fork); the board offers none."""
        return self.sent or self.net.paused or bool(self.net.fork)

    @property
    def awaiting(self) -> bool:
        """The next action is another seat's or a lot, or this player's decision on its
        way: it comes over the network (whose news wakes the app whatever it is)."""
        seat = actor(self.match.state)
        return self.sent or seat is None or not self.here(seat)

    def can_resign(self) -> bool:
        """Not in a match a fork stopped: there is no match left to lose."""
        return self.net.my_seat is not None and self.net.phase == "playing" and not self.net.fork

    def resign(self, seat: int) -> None:
        self.link.resign()

    def controls(self) -> list[Control]:
        if not self.net.paused or self.net.my_seat is None or self.net.fork:
            return []
        return [
            Control(
                "hand over",
                lambda: _("Computer takes the seat"),
                self.link.hand_over_the_missing,
                self._may_decide,
            ),
            Control("end", lambda: _("End the match"), self.link.end_for_the_missing,
                    self._may_decide),
        ]  # fmt: skip

    def _may_decide(self) -> bool:
        since = self.net.paused_since
        return since is not None and self._now - since >= DROP_TIMEOUT

    # -- following the log ----------------------------------------------------------------

    def update(self, dt: float, ready: bool) -> bool:
        # The clock read once a frame, with the link's news: a frame shows one instant (a
        # button that came alive between the frame's parts was drawn half one way).
        self._now = time.monotonic()
        net, self.net = self.net, self.link.view()
        self._follow()
        if self.match.state.is_terminal() or self.net.phase == "abandoned" or self.net.fork:
            self._keep_record()
        return net != self.net

    def _follow(self) -> None:
        """Apply the actions the log accepted since the last look."""
        actions = self.net.actions
        while not self.out_of_step and len(self.match.record.actions) < len(actions):
            action = actions[len(self.match.record.actions)]
            try:
                self.match.play(action)
            except RulesError:  # cannot happen with a log every peer checked; never crash
                self.out_of_step = True
                return
            self.sent = False

    def _keep_record(self) -> None:
        """The record of a LAN match is kept for ``python -m net verify`` once it ends."""
        if self._kept:
            return
        self._kept = True
        from net import records

        log, proof = self.link.peer.log, self.link.peer.witness.proof
        fork = None if proof is None else proof.to_record()
        if log is not None:
            try:
                path = self.app.paths.data / "lan" / f"{log.match_id}.tavolo-net"
                records.save(path, log, fork)
            except OSError as error:
                self._save_error = _("The game could not be saved: {error}").format(
                    error=plain(error)
                )

    # -- what the screen shows ------------------------------------------------------------

    def status(self) -> str | None:
        net = self.net
        if net.fork:  # the whole story in the notice band (notices): this line is short
            return _("Stopped: the host showed two different matches")
        if net.error:
            return _("No connection: {reason}").format(reason=net.error)
        if self.out_of_step:
            return _("This screen is out of step with the match")
        if net.phase == "abandoned":
            return _("The match was ended")
        if net.paused:
            return _("Waiting for {names}…").format(names=", ".join(net.waiting))
        state: State = self.match.state
        if state.is_chance() and not state.is_terminal():
            return _("The dice are rolled by everyone together…")
        if self.sent:
            names = seat_names(state)
            return _("{name}: sent, waiting for the others…").format(
                name=names[state.to_move] if state.to_move >= 0 else ""
            )
        return None

    def notices(self) -> tuple[str, ...]:
        saved = (self._save_error,) if self._save_error else ()
        if self.net.fork:
            told = _(
                "The host showed another player a different match at entry {n}. The match "
                "is stopped: it cannot be trusted. Both records hold the proof."
            ).format(n=self.net.fork)
            return (told, *saved)
        return (*self.net.notices[-1:], *saved)

    @property
    def live(self) -> bool:
        return True

    def finished(self, app: App) -> Scene:
        return make(Screen.NET_RESULTS, app, self.match)

    def pause_menu(self, app: App, play: PlayScene) -> Scene:
        return make(Screen.NET_PAUSE, app, play)

    def discard(self) -> None:
        self.link.close()
