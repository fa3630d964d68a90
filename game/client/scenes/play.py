"""The match screen, for a match at this screen and a LAN match alike: the board, and a panel
with whose turn it is, what to do now, the counts, the dice or hands, the moves so far and
the buttons (undo, draw, resignation, sound, the pause menu).

Whoever drives the match is a :class:`~game.client.control.MatchControl`; the screen shows
its actions one at a time — each animated, each action of a seat that nobody here plays
held on screen long enough to follow — and keeps the last turn highlighted until the next.

The screen wires parts with one job each: :class:`~game.client.match_actions.TurnActions`
(what the people here can do, and whether they can now), :mod:`~game.client.match_words`
(what the panel says) and a :class:`~game.client.match_panel.Panel` round the board, which
lays the window out, makes the panel's buttons and draws the panel — the usual one beside
the board (:class:`~game.client.beside_panel.BesidePanel`), or a touch table's two
(:class:`~game.client.table_panels.FacingPanels`).  The screen itself handles input, steps
through the match as time passes, and draws what changed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pygame

from game.client import input as ui
from game.client import match_words
from game.client.beside_panel import BesidePanel
from game.client.coach import Coach
from game.client.control import LocalControl, MatchControl
from game.client.match_actions import TurnActions
from game.client.match_panel import Panel
from game.client.redraw import (
    MATCH_BUDGET,
    MATCH_SPARE,
    Element,
    Redraw,
    SavedUnder,
    draw_clipped,
    gathered,
)
from game.client.scene import Scene
from game.client.turns import actor, last_turn, step_at
from game.client.views import view_for
from game.client.views.base import Step
from game.names import action_text
from game.rules import State
from game.session.match import Match

if TYPE_CHECKING:
    from game.client.app import App

RESULTS_PAUSE = 0.9
"""Seconds the final position stays before the results."""
PACE = 0.9
"""Seconds an action of a seat nobody here plays stays on screen before the next one (at
animation speed 1×; the animation itself comes first)."""
ROLL_PACE = 0.6
"""The same for a throw of the dice, after they have settled."""


class PlayScene(Scene):
    draws_changes_only = True

    def __init__(
        self,
        app: App,
        source: Match | MatchControl,
        panel: Callable[[PlayScene], Panel] = BesidePanel,
    ) -> None:
        super().__init__(app)
        self.control = source if isinstance(source, MatchControl) else LocalControl(app, source)
        self.match = self.control.match
        self.shown = len(self.match.record.actions)
        """How many actions of the match the screen shows (it may be behind the control)."""
        self.coach = Coach(app, self.control)
        self.view = view_for(self.match.variant.name, self)
        self.actions = TurnActions(self)
        """What the people here can do: move, roll, undo, a hint, a draw, resign."""
        self.panel = panel(self)
        """The panel round the board: the layout, its buttons and its drawing."""
        self.banner = ""
        self._hold = 0.0
        self._end_wait = 0.0
        self._was_animating = False
        self._redraw = Redraw(MATCH_SPARE, MATCH_BUDGET)
        self._sparks = SavedUnder()
        """The pixels under the sparks drawn last frame, put back before the next."""
        self._updated: list[pygame.Rect] | None = None
        self._rebuilds = 0
        """Counts the rebuilds of the targets: with :attr:`inputs`, the changes to the
        board's half-made choices that its elements cannot see otherwise."""
        self._backdrop: pygame.Surface | None = None
        self._backdrop_look: tuple[object, ...] | None = None
        self._view_reach = pygame.Rect(0, 0, 0, 0)
        """Where the board's view can draw (set by :meth:`layout`)."""

    # -- what is shown --------------------------------------------------------------------

    @property
    def state(self) -> State:
        """The position on screen (the match may already be further on)."""
        return self.match.state_at(self.shown)

    def step(self, index: int) -> Step:
        """The ``index``-th action of the match, with the positions before and after it."""
        return step_at(self.match, index)

    @staticmethod
    def actor(state: State) -> int | None:
        """The seat whose decision or throw ``state`` waits for (None: a lot, or the end)."""
        return actor(state)

    def _last_turn(self) -> tuple[Step, ...]:
        return last_turn(self.match, self.shown)

    @property
    def caught_up(self) -> bool:
        return self.shown == len(self.match.record.actions)

    @property
    def holding(self) -> bool:
        """An action of somebody not here is held on screen for a moment (no input yet)."""
        return self._hold > 0

    @property
    def locked(self) -> bool:
        """No input while something moves, the screen catches up, or nobody here acts."""
        if self.view.animating or self._hold > 0 or not self.caught_up:
            return True
        if self.control.pending:
            return True
        seat = self.actor(self.state)
        return seat is None or not self.control.here(seat)

    def status(self) -> str:
        """Whose turn it is (:func:`match_words.status`)."""
        return match_words.status(self)

    def prompt(self) -> str:
        """What to do now (:func:`match_words.prompt`)."""
        return match_words.prompt(self)

    # -- layout ---------------------------------------------------------------------------

    def layout(self, size: tuple[int, int]) -> None:
        """The panel lays the window out; the board and its tray go where it says."""
        self.u, board, tray = self.panel.layout(size)
        self.view.layout(board, tray)
        # Where the view can draw: its board and tray with the margins of what moves over
        # them (a hop, a die thrown up); the parts of a frame beyond are the panel's alone.
        self._view_reach = board.inflate(min(board.size) // 2, min(board.size) // 2).union(
            tray.inflate(2 * tray.height, 2 * tray.height)
        )
        self.view.show_last_turn(self._last_turn())
        self.rebuild()
        self._redraw.invalidate()

    def rebuild(self) -> None:
        """Targets for the decision at hand: the board's, then the panel's buttons (laid out
        anew if the panel no longer suits them)."""
        if not self.panel.fits():
            self.layout(self.app.size)
            return
        buttons = self.panel.buttons()
        self.set_targets(self.view.targets() + buttons)
        self._rebuilds += 1

    # -- input: what the board and the keys ask for (the buttons ask self.actions) --------

    def submit(self, action: int) -> None:
        self.actions.submit(action)

    def can_roll(self) -> bool:
        return self.actions.can_roll()

    def roll(self) -> None:
        self.actions.roll()

    def ask_hint(self) -> None:
        """Show the move *hard* would play here (the H key, or the Hint button)."""
        self.actions.ask_hint()

    def handle(self, event: ui.UIEvent) -> None:
        if isinstance(event, ui.Text) and event.text in ("h", "H"):
            self.inputs += 1
            self.ask_hint()
            return
        super().handle(event)

    def back(self) -> None:
        self.actions.open_menu()

    def discard(self) -> None:
        self.control.discard()
        self._backdrop = None

    # -- time -----------------------------------------------------------------------------

    @property
    def speed(self) -> float:
        return self.app.settings.animation_speed

    def update(self, dt: float) -> None:
        super().update(dt)
        self.coach.collect()
        self.view.update(dt * self.speed)
        if self.view.animating:
            self._was_animating = True
            return
        if self._was_animating:  # what can be done next may have changed
            self._was_animating = False
            self.rebuild()
        if self._hold > 0:
            self._hold -= dt * self.speed
            if self._hold <= 0:
                self.rebuild()
        if len(self.match.record.actions) < self.shown:  # undone elsewhere (or by the control)
            self.resync()
        ready = self.caught_up and self._hold <= 0
        if self.control.update(dt, ready):
            self.rebuild()
        if self._hold <= 0 and not self.caught_up:
            self._show_next()
            return
        if ready and self.state.is_terminal():
            self._end_wait += dt
            if self._end_wait >= RESULTS_PAUSE:
                self._end_wait = 0.0
                self.app.replace(self.control.finished(self.app))

    def catch_up(self) -> None:
        """Show an action a person here just made at once (their own taps need no pause)."""
        if not self.caught_up:
            self._show_next()
        else:
            self.rebuild()

    def _show_next(self) -> None:
        """Animate the next action of the match; hold it on screen if nobody here made it."""
        step = self.step(self.shown)
        self.shown += 1
        if step.action >= 0:
            self.view.played(step.before, step.action, step.after)
        seat = self.actor(step.before)
        if seat is None and step.before.is_chance():
            self.banner = action_text(step.before, step.action)
            self._hold = PACE
        else:
            self.banner = ""  # the lot's words leave once play starts
            if seat is not None and not self.control.here(seat) and self.caught_up:
                self._hold = ROLL_PACE if step.before.is_chance() else PACE
        self.view.show_last_turn(self._last_turn())
        if self.view.passed():  # "no mark possible": long enough to read, whoever rolled
            self._hold = max(self._hold, PACE)
        self.rebuild()

    def resync(self) -> None:
        """After an undo: show the match as it now stands, without animation."""
        self.shown = len(self.match.record.actions)
        self._hold = 0.0
        self.view.show_last_turn(self._last_turn())
        self.rebuild()

    @property
    def thinking(self) -> bool:
        """True while the computer works out a move for this match."""
        seat = self.state.to_move
        return seat >= 0 and self.control.thinking(seat)

    @property
    def animating(self) -> bool:
        """True while the screen moves on by itself: pieces and dice in motion, an action
        held on screen, the next one to show, a lot drawn after a pause, the results due."""
        view = self.view
        if super().animating or view.animating or view.particles.active:
            return True
        if self._hold > 0 or not self.caught_up or self.state.is_terminal():
            return True
        if self.control.awaiting:
            return False
        seat = self.actor(self.state)
        return seat is None or not self.control.here(seat)  # a lot, a computer's dice, a script

    @property
    def waiting(self) -> bool:
        """True while the computer or the network has the next word: a computer's or a
        remote player's move, the odds, a LAN match's news."""
        return self.control.live or self.coach.working or self.control.awaiting

    # -- drawing --------------------------------------------------------------------------

    def invalidate(self) -> None:
        self._redraw.invalidate()

    def updated_areas(self) -> list[pygame.Rect] | None:
        return self._updated

    def draw(self, surface: pygame.Surface) -> None:
        """Draw what changed since the last frame: where the moving things were and are,
        and the elements that changed — a square, a line of the panel, a button (see
        :mod:`redraw`); everything after a layout. The sparks go over the frame last, the
        pixels under them kept to take them away with (:class:`SavedUnder`)."""
        if surface is not self.app.screen:  # a picture of the match, not the frame
            self.draw_whole(surface)
            self._redraw.invalidate()
            return
        areas = self._redraw.areas(None, self._moving_areas(), surface.get_rect(), self._elements())
        if areas is None:
            self._sparks.forget()
            self._draw_scene(surface)
        else:
            lifted = self._sparks.lift(surface)
            draw_clipped(surface, areas, self._draw_scene)
        particles = self.view.particles
        laid = self._sparks.lay(surface, particles.places(), particles.draw)
        self._updated = None if areas is None else areas + gathered(lifted + laid, 4 * self.u)

    @property
    def settling(self) -> bool:
        """Part of a change the last frame had no room for waits to be drawn in one of the
        next few (see :data:`MATCH_BUDGET`, :data:`redraw.MOST_WAIT`)."""
        return bool(self._redraw.waiting)

    def _elements(self) -> list[Element]:
        """The parts of the screen and what each shows now: the view's board and tray, the
        panel's words and counts, the buttons and the focus — in that order, the order a
        change too large for one frame is drawn in (see :data:`MATCH_BUDGET`)."""
        u = self.u
        elements = self.view.elements((self._rebuilds, self.inputs)) + self.panel.elements()
        for target in self.targets:
            if target.draw is not None:
                drawn = (target.look(), target is self.focus, target is self._pressed)
                elements.append((target.name, target.reach, drawn))
        focus = self.focus
        if focus is not None and focus.draw is None and focus in self.targets:
            elements.append(("focus", focus.rect.inflate(u, u), focus.name))
        areas = self._hint_areas()
        if areas:
            elements.append(("hint", areas[0].unionall(areas[1:]).inflate(u, u), tuple(areas)))
        return elements

    def _moving_areas(self) -> list[pygame.Rect]:
        areas = self.view.moving_areas()
        if self.cue > 0 and self.cue_rect is not None:
            areas.append(self.cue_rect.inflate(self.u, self.u))
        return areas

    def _hint_areas(self) -> list[pygame.Rect]:
        """Where the hint's marks go on the board, while it is shown."""
        action = self.actions.shown_hint()
        return [] if action is None else self.view.move_rings(self.state, action, self.u)

    def _board_backdrop(self, surface: pygame.Surface) -> pygame.Surface:
        """The background, the panel and the board's art, drawn once (again when the size,
        the colours or the board's look change): one opaque copy a frame instead of a fill
        and the board's layers."""
        panels = self.panel.areas()
        look = (surface.get_size(), tuple(map(tuple, panels)), self.palette, self.app.boards,
                self.view.board_look())  # fmt: skip
        if self._backdrop is None or self._backdrop_look != look:
            backdrop = pygame.Surface(surface.get_size()).convert(surface)
            backdrop.fill(self.palette.background)
            for panel in panels:
                pygame.draw.rect(backdrop, self.palette.panel, panel)
            self.view.draw_board(backdrop)
            self._backdrop, self._backdrop_look = backdrop, look
        return self._backdrop

    def draw_whole(self, surface: pygame.Surface) -> None:
        """Draw everything (on the screen as clipped — a wipe's strip, a screen over the
        match —, or on another surface: a veiled demo, a match under a question)."""
        self._draw_scene(surface)
        sparks = self.view.particles.area()
        if sparks is not None and sparks.colliderect(surface.get_clip()):
            self.view.particles.draw(surface)
            if surface is self.app.screen:  # sparks no kept pixels take away
                self._redraw.invalidate()

    def _draw_scene(self, surface: pygame.Surface) -> None:
        """Everything but the sparks, as far as the surface's clip reaches."""
        surface.blit(self._board_backdrop(surface), (0, 0))
        if self._view_reach.colliderect(surface.get_clip()):
            self.view.draw_pieces(surface)
            action = self.actions.shown_hint()
            if action is not None:
                self.view.draw_move(surface, self.state, action, self.palette.accent, self.u)
        self.panel.draw(surface)
        self.draw_targets(surface)
