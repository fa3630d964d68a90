"""Whoever drives the match on the match screen.

The match screen (:mod:`game.client.scenes.play`) draws a :class:`~game.session.match.Match`
and turns taps into actions; it does not care where the other moves come from.  A
:class:`MatchControl` answers for that: :class:`LocalControl` for a match at this screen
(the people here, the computer players in the worker process, the local dice, undo and
draws by agreement, the autosave), and :class:`game.client.net_control.NetControl` for a
LAN match (the match log: other players' moves arrive, this player's go out, the dice are
thrown by everyone together).  Whatever either does lands in ``match``; the screen shows it
one action at a time, at a pace a person can follow.
"""

from __future__ import annotations

import logging
from concurrent.futures import Future
from typing import TYPE_CHECKING

from game.client.navigator import Screen, make
from game.client.turns import actor
from game.i18n import _
from game.rules import AGREED_DRAW, RulesError, State, resign_action
from game.session.match import Match
from game.session.saves import plain

if TYPE_CHECKING:
    from game.client.app import App
    from game.client.scene import Scene
    from game.client.scenes.play import PlayScene
    from game.client.views.base import Control

log = logging.getLogger(__name__)

LOT_PAUSE = 0.8
"""Seconds before a lot is drawn, so that players see it happen."""


class MatchControl:
    """The interface the match screen talks to.  ``match`` holds every action applied so
    far; a control may be ahead of what the screen shows, never behind."""

    match: Match
    offers_undo = False
    """Whether the screen has an undo button for this match at all."""
    coaching = False
    """Whether the computer may coach the people here (dice odds, hints): in local play; in
    a LAN match not, unless every person at it allowed it."""

    # -- who is who -----------------------------------------------------------------------

    def here(self, seat: int) -> bool:
        """True if a person at this screen decides for ``seat``."""
        return self.match.seats[seat].is_human

    def people_here(self) -> int:
        return sum(1 for seat in range(len(self.match.seats)) if self.here(seat))

    def thinking(self, seat: int) -> bool:
        """True while the computer works out the decision of ``seat``."""
        return False

    @property
    def pending(self) -> bool:
        """True while a decision made here is on its way and not in the match yet."""
        return False

    @property
    def awaiting(self) -> bool:
        """True while the match's next action comes from outside the frame loop (the
        worker process, the network), which wakes the app when it does
        (:mod:`game.client.wakeup`)."""
        return False

    # -- what the people here may do ------------------------------------------------------

    def decide(self, action: int) -> bool:
        """A person here plays ``action``; False if it is refused (not theirs, illegal)."""
        raise NotImplementedError

    def can_roll(self, state: State) -> bool:
        """True if a person here throws the dice of the chance event ``state``."""
        return False

    def roll(self) -> None:
        """A person here throws the dice."""

    def can_undo(self) -> bool:
        return False

    def undo(self) -> bool:
        return False

    def draws_by_agreement(self) -> bool:
        """True if the players here may offer and accept a draw."""
        return False

    def accept_draw(self) -> None:
        """The draw offered at this screen was accepted."""

    def can_resign(self) -> bool:
        return False

    def resign(self, seat: int) -> None:
        """The person at ``seat`` resigns."""

    def controls(self) -> list[Control]:
        """Buttons of its own for the panel (a LAN match: hand a missing player's seat to
        the computer, end the match)."""
        return []

    # -- time -----------------------------------------------------------------------------

    def update(self, dt: float, ready: bool) -> bool:
        """Called every frame.  ``ready``: the screen shows every action so far and its
        pause after the last one is over, so the next lot or computer move may come.
        Returns True if something the screen shows besides the match changed (a player
        missing, a connection lost), so that it remakes its buttons."""
        return False

    def status(self) -> str | None:
        """A status that outranks whose turn it is (no connection, a player missing…)."""
        return None

    def notices(self) -> tuple[str, ...]:
        """Messages for the players (a refused move from the LAN, a save that failed)."""
        return ()

    def instruction(self) -> str | None:
        """What a guided game tells the player to do now, in place of the usual prompt."""
        return None

    def known_hint(self, state: State) -> int | None:
        """The move to ring on the board without being asked (a guided game's next move)."""
        return None

    @property
    def live(self) -> bool:
        """True if actions may arrive from outside at any moment (the screen waits for them)."""
        return False

    def finished(self, app: App) -> Scene:
        """The screen after the end of the match."""
        return make(Screen.RESULTS, app, self.match)

    def kept_on_leaving(self) -> str:
        """What leaving the match keeps, in the players' words (the pause menu says it)."""
        return _("This match is not saved: leaving ends it.")

    def pause_menu(self, app: App, play: PlayScene) -> Scene:
        """The menu over the match screen."""
        return make(Screen.PAUSE, app, play)

    def discard(self) -> None:
        """The match screen is gone for good: stop the work under way, close links."""


class LocalControl(MatchControl):
    """A match at this screen: people, computer players and local dice."""

    offers_undo = True
    coaching = True

    def __init__(self, app: App, match: Match, autosave: bool = True) -> None:
        self.app = app
        self.match = match
        self._thinking: Future[int | None] | None = None
        self._thinking_for = ""
        self._lot_wait = 0.0
        self._notice = ""
        self.autosave = autosave
        if autosave:
            match.on_change.append(self._autosave)

    def kept_on_leaving(self) -> str:
        if not self.autosave:
            return super().kept_on_leaving()
        if not self.match.begun:
            return _("Nothing is saved until the first move: leaving now ends this match.")
        return _("The match is saved: you can come back to it from the title screen.")

    def _autosave(self, match: Match) -> None:
        self.app.saves.save(match, self._saved)

    def _saved(self, error: OSError | None) -> None:
        """How a save went (told on the saves' thread).  A full disk must not end the game,
        but the players must know that the match is not being kept, until a save is
        written again."""
        if error is None:
            self._notice = ""
            return
        self._notice = _(
            "This match is not being saved: {error}. Play on; if the game is closed, the "
            "moves from here on are lost."
        ).format(error=plain(error))
        self.app.wakeup.notify()

    def notices(self) -> tuple[str, ...]:
        return (self._notice,) if self._notice else ()

    def finished(self, app: App) -> Scene:
        """The results, where a result of a person here may make the high-score board."""
        return make(Screen.RESULTS, app, self.match, scored=True)

    def thinking(self, seat: int) -> bool:
        return self._thinking is not None and self.match.state.to_move == seat

    @property
    def awaiting(self) -> bool:
        return self._thinking is not None

    def decide(self, action: int) -> bool:
        state = self.match.state
        if state.to_move < 0 or not self.here(state.to_move):
            return False
        try:
            self.match.play(action)
        except RulesError:
            return False
        return True

    def can_roll(self, state: State) -> bool:
        seat = state.roller
        return seat is not None and self.here(seat) and state is self.match.state

    def roll(self) -> None:
        if self.can_roll(self.match.state):
            self.match.roll()

    def can_undo(self) -> bool:
        return self.match.undo_point() is not None

    def undo(self) -> bool:
        self._stop_thinking()
        return self.match.undo()

    def draws_by_agreement(self) -> bool:
        people = all(seat.is_human for seat in self.match.seats)
        return people and self.match.variant.spec.agreed_draws

    def accept_draw(self) -> None:
        self.match.play(AGREED_DRAW)

    def can_resign(self) -> bool:
        return not self.match.state.is_terminal() and self.people_here() > 0

    def resign(self, seat: int) -> None:
        self._stop_thinking()
        self.match.play(resign_action(seat))

    def update(self, dt: float, ready: bool) -> bool:
        state = self.match.state
        if not ready or state.is_terminal():
            self._lot_wait = 0.0
            return False
        seat = actor(state)
        if seat is None:  # a lot: drawn on its own, after a moment
            self._lot_wait += dt
            if self._lot_wait >= LOT_PAUSE:
                self._lot_wait = 0.0
                self.match.roll()
        elif not self.here(seat):  # the computer throws its dice, or thinks
            self._computer_turn(state)
        return False

    def _computer_turn(self, state: State) -> None:
        """Throw the computer's dice, or ask the thinker and play its answer when it comes."""
        if state.is_chance():
            self.match.roll()
            return
        if self._thinking is None:
            seat = self.match.seats[state.to_move]
            seed = self.match.seed + len(self.match.record.actions)
            self._thinking = self.app.thinker.think(
                state, seat.level or "medium", seed, self.app.settings.thinking_seconds
            )
            self._thinking_for = state.digest()
            return
        if not self._thinking.done():
            return
        future, self._thinking = self._thinking, None
        try:
            action = future.result()
        except Exception as error:  # a crashed worker must not stop the match
            log.error("the computer player failed (%s): playing its first legal move", error)
            action = state.legal_actions()[0]
        if action is not None and state.digest() == self._thinking_for:
            self.match.play(action)

    def _stop_thinking(self) -> None:
        if self._thinking is not None:
            self.app.thinker.cancel()
            self._thinking = None

    def discard(self) -> None:
        self._stop_thinking()
