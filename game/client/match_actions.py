"""What the people at the match screen can do — move, roll, undo, ask for a hint, offer,
accept or decline a draw, resign, open the menu — and whether they can do it now.

:class:`TurnActions` stands between the screen's buttons and its
:class:`~game.client.control.MatchControl`: a button asks it (``can_…``), a tap does it, and a
refused one is only a gentle cue.  What an action changed, the screen shows
(:meth:`~game.client.scenes.play.PlayScene.catch_up`); where the buttons stand is the panel's
business (:mod:`game.client.match_panel`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.client.views.base import Control
from game.i18n import _

if TYPE_CHECKING:
    from game.client.scenes.play import PlayScene


class TurnActions:
    """The match screen's actions and their ``can_…`` questions, over its match control."""

    def __init__(self, play: PlayScene) -> None:
        self.play = play
        self.draw_offer: int | None = None
        """The seat that offered a draw (None: no offer is open)."""

    def controls(self) -> list[Control]:
        """The buttons of the decision at hand: the game's (Roll, Stop, Pass…), the match
        control's, and the hint."""
        play = self.play
        controls = [*play.view.controls(), *play.control.controls()]
        if play.coach.offers_hints():
            controls.append(Control("hint", self.hint_label, self.ask_hint, self.can_hint))
        return controls

    # -- the decision ---------------------------------------------------------------------

    def submit(self, action: int) -> None:
        play = self.play
        if play.locked or not play.control.decide(action):
            play.gentle_cue()
            return
        self.draw_offer = None
        play.catch_up()

    def can_roll(self) -> bool:
        return not self.play.locked and self.play.control.can_roll(self.play.state)

    def roll(self) -> None:
        if not self.can_roll():
            self.play.gentle_cue()
            return
        self.play.control.roll()
        self.play.catch_up()

    def can_undo(self) -> bool:
        play = self.play
        return not play.view.animating and not play.holding and play.control.can_undo()

    def undo(self) -> None:
        play = self.play
        if play.view.animating or not play.control.undo():
            play.gentle_cue()
            return
        play.view.clear_selection()
        play.resync()

    # -- the hint -------------------------------------------------------------------------

    def ask_hint(self) -> None:
        """Show the move *hard* would play here (the H key, or the Hint button)."""
        play = self.play
        if play.locked or not play.coach.ask_hint(play.state):
            play.gentle_cue()

    def can_hint(self) -> bool:
        return not self.play.locked and self.play.coach.can_hint(self.play.state)

    def hint_label(self) -> str:
        return _("Hint: thinking…") if self.play.coach.hint_pending(self.play.state) else _("Hint")

    def shown_hint(self) -> int | None:
        """The hint for the decision on screen, if one was asked and has come."""
        if self.play.locked:
            return None
        return self.play.coach.hint(self.play.state)

    # -- draws and resignation ------------------------------------------------------------

    def running(self) -> bool:
        return not self.play.state.is_terminal() and not self.play.locked

    def can_offer_draw(self) -> bool:
        return self.running() and self.play.state.to_move >= 0

    def offer_draw(self) -> None:
        self.draw_offer = self.play.state.to_move
        self.play.rebuild()

    def accept_draw(self) -> None:
        self.draw_offer = None
        self.play.control.accept_draw()
        self.play.catch_up()

    def decline_draw(self) -> None:
        self.draw_offer = None
        self.play.rebuild()

    def can_resign(self) -> bool:
        return not self.play.view.animating and self.play.control.can_resign()

    def own_seat(self) -> int:
        """The seat of the person at the screen: the seat to act if it is theirs, else the
        first seat a person here holds."""
        play = self.play
        seat = play.actor(play.state)
        if seat is None or not play.control.here(seat):
            seat = next(i for i in range(len(play.match.seats)) if play.control.here(i))
        return seat

    def resign(self, seat: int | None) -> None:
        """``seat`` resigns (None: nobody here plays it, which gets a gentle cue)."""
        if seat is None:
            self.play.gentle_cue()
            return
        self.play.control.resign(seat)
        self.play.catch_up()

    # -- the menu -------------------------------------------------------------------------

    def open_menu(self, facing: int | None = None) -> None:
        """The pause menu, turned ``facing`` degrees if given (a face-to-face table's far
        side: 180)."""
        play = self.play
        menu = play.control.pause_menu(play.app, play)
        if facing is not None:
            menu.facing = facing
        play.app.push(menu)
