"""What the computer tells the people at this screen — a hint (the move *hard* would play)
and the exact odds of their Ausgeblockt turn — worked out in the worker process so the frame
loop never waits for them.

A hint is *hard*'s choice with the seed the computer players of the match use for that
decision (the match's seed plus the decisions made so far) and the thinking-time setting;
each decision a hint was asked for is noted in the match (:meth:`Match.note_hint`).

Hints and odds are for the people at this screen, when the match's control allows coaching
(local play; a LAN match only if every player allowed it in the room); odds when the
*dice odds* setting says so: ``on``, ``off``, or ``auto`` — shown in matches against the
*easy* computer, where players are learning, and hidden otherwise.
"""

from __future__ import annotations

from concurrent.futures import Future
from typing import TYPE_CHECKING

from game.ai.odds import TurnOdds
from game.rules.ausgeblockt import DECIDE, ROLL, AusgeblocktState

if TYPE_CHECKING:
    from game.client.app import App
    from game.client.control import MatchControl
    from game.rules import State


class Silent:
    """The coach of a board that is only looked at (a picture, a card): it says nothing."""

    working = False

    def shows_odds(self) -> bool:
        return False

    def hint(self, state: State) -> int | None:
        return None

    def wants_odds(self, state: State) -> bool:
        return False

    def odds(self, state: State) -> TurnOdds | None:
        return None


class Coach:
    """The odds for the match of ``control``, asked of ``app.thinker`` state by state."""

    def __init__(self, app: App, control: MatchControl) -> None:
        self.app = app
        self.control = control
        self._asked: dict[str, Future[TurnOdds | None]] = {}
        self._odds: dict[str, TurnOdds | None] = {}
        self._hint_for: str | None = None
        """The digest of the state the hint was asked for."""
        self._hint_future: Future[int | None] | None = None
        self._hint: int | None = None

    def shows_odds(self) -> bool:
        """Whether this match shows the dice odds at all (the screen keeps room for them)."""
        match = self.control.match
        if not match.variant.spec.players_roll or not self.offers_hints():
            return False
        return self.app.settings.dice_odds == "on"

    @property
    def working(self) -> bool:
        """True while a hint or odds asked for have not come in yet (the screen waits for
        them: the worker's answer wakes the app for the frame that takes them in)."""
        return self._hint_future is not None or bool(self._asked)

    def collect(self) -> None:
        """Take in the hint and the odds the worker has finished.  Called once a frame
        before anything is drawn, so that every part of a frame — and the whole screen drawn
        again — shows the same hint and the same odds (polled while drawing, a result could
        land between two parts of one frame)."""
        future = self._hint_future
        if future is not None and future.done():
            self._hint_future = None
            try:
                self._hint = future.result()
            except Exception:  # a worker that died: no hint, the game goes on
                self._hint = None
            if self._hint is None:
                self._hint_for = None  # cancelled (the match moved on): ask again if wanted
        for key, asked in list(self._asked.items()):
            if not asked.done():
                continue
            del self._asked[key]
            try:
                result = asked.result()
            except Exception:  # a worker that died: no odds for this state, the game goes on
                result = None
            if len(self._odds) > 64:
                self._odds.clear()
            self._odds[key] = result

    # -- hints ----------------------------------------------------------------------------

    def offers_hints(self) -> bool:
        """Whether this match has a hint button (coaching allowed, a person here)."""
        return self.control.coaching and self.control.people_here() > 0

    def can_hint(self, state: State) -> bool:
        """Whether a hint can be asked now: a person here is to decide."""
        return (
            self.offers_hints()
            and not state.is_terminal()
            and state.to_move >= 0
            and self.control.here(state.to_move)
        )

    def ask_hint(self, state: State) -> bool:
        """Ask *hard* for its choice in ``state``; False if no hint can be asked now.  Asking
        again for the same decision costs nothing more."""
        if not self.can_hint(state):
            return False
        key = state.digest()
        if key == self._hint_for and (self._hint is not None or self._hint_future is not None):
            return True
        match = self.control.match
        seed = match.seed + len(match.record.actions)
        self._hint_for, self._hint = key, None
        self._hint_future = self.app.thinker.think(
            state, "hard", seed, self.app.settings.thinking_seconds
        )
        if state is match.state:
            match.note_hint()
        return True

    def hint(self, state: State) -> int | None:
        """The hint for ``state`` once it has come (None before, and for any other state);
        a guided game's next move at once."""
        known = self.control.known_hint(state)
        if known is not None:
            return known
        if self._hint_for != state.digest():
            return None
        return self._hint

    def hint_pending(self, state: State) -> bool:
        """True while the hint for ``state`` is being worked out."""
        return self._hint_for == state.digest() and self._hint_future is not None

    def wants_odds(self, state: State) -> bool:
        """Whether ``state`` is a moment for odds: a person here is to roll or to keep."""
        return (
            isinstance(state, AusgeblocktState)
            and (state.stage == DECIDE or (state.stage == ROLL and state.attempts == 0))
            and state.side is not None
            and self.control.here(state.side)
            and not state.is_terminal()
        )

    def odds(self, state: State) -> TurnOdds | None:
        """The odds of ``state`` if they have come in; asked for otherwise (None until a
        frame's :meth:`collect` takes them in)."""
        key = state.digest()
        if key in self._odds:
            return self._odds[key]
        if key not in self._asked:
            if len(self._asked) > 4:  # states long gone: forget what was asked for them
                self._asked.clear()
            self._asked[key] = self.app.thinker.odds(state)
        return None
