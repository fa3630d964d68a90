"""The match screen, for a match at this screen and a LAN match alike: the board, and a panel
with whose turn it is, what to do now, the counts, the dice or hands, the moves so far and
the buttons (undo, draw, resignation, sound, the pause menu).

Whoever drives the match is a :class:`~game.client.control.MatchControl`; the screen shows
its actions one at a time — each animated, each action of a seat that nobody here plays
held on screen long enough to follow — and keeps the last turn highlighted until the next.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

import pygame

from game.client import input as ui
from game.client import theme
from game.client.coach import Coach
from game.client.control import LocalControl, MatchControl
from game.client.redraw import MATCH_SPARE, Element, Redraw, draw_clipped
from game.client.scene import Scene
from game.client.turns import actor, last_turn, step_at
from game.client.views import view_for
from game.client.views.base import Control, Step
from game.client.widgets import Target, button
from game.i18n import _
from game.names import action_text, hint_text, seat_names, variant_title
from game.rules import State
from game.session.match import Match
from game.session.seats import SeatKind

if TYPE_CHECKING:
    from game.client.app import App

RESULTS_PAUSE = 0.9
"""Seconds the final position stays before the results."""
PACE = 0.9
"""Seconds an action of a seat nobody here plays stays on screen before the next one (at
animation speed 1×; the animation itself comes first)."""
ROLL_PACE = 0.6
"""The same for a throw of the dice, after they have settled."""
HISTORY_LINES = 8
PORTRAIT = 4 / 3
"""Below this aspect ratio the panel goes under the board."""
TEXT_ROOM = 9
"""Units of the panel kept at the top for the title, the status and the prompt."""
COUNT_LINE = 1.15
"""Units per line of counts."""
HISTORY_LINE = 1.05
"""Units per line of the history."""
LESSON_SIZES = (1.4, 1.25, 1.1, 1.0)
"""Units of a lesson's words, the largest that fits its room (the prompt's is 1)."""


class PlayScene(Scene):
    draws_changes_only = True

    def __init__(self, app: App, source: Match | MatchControl) -> None:
        super().__init__(app)
        self.control = source if isinstance(source, MatchControl) else LocalControl(app, source)
        self.match = self.control.match
        self.shown = len(self.match.record.actions)
        """How many actions of the match the screen shows (it may be behind the control)."""
        self.coach = Coach(app, self.control)
        self.view = view_for(self.match.variant.name, self)
        self.draw_offer: int | None = None  # the seat that offered a draw
        self.confirming_resign = False
        self.banner = ""
        self._hold = 0.0
        self._end_wait = 0.0
        self._was_animating = False
        self.history: list[tuple[int, str]] = []
        self._redraw = Redraw(MATCH_SPARE)
        self._updated: list[pygame.Rect] | None = None
        self._rebuilds = 0
        """Counts the rebuilds of the targets: with :attr:`inputs`, the changes to the
        board's half-made choices that its elements cannot see otherwise."""
        self._backdrop: pygame.Surface | None = None
        self._backdrop_look: tuple[object, ...] | None = None

    # -- what is shown --------------------------------------------------------------------

    @property
    def state(self) -> State:
        """The position on screen (the match may already be further on)."""
        return self.match.state_at(self.shown)

    def _step(self, index: int) -> Step:
        return step_at(self.match, index)

    @staticmethod
    def actor(state: State) -> int | None:
        """The seat whose decision or throw ``state`` waits for (None: a lot, or the end)."""
        return actor(state)

    def _last_turn(self) -> tuple[Step, ...]:
        return last_turn(self.match, self.shown)

    # -- layout ---------------------------------------------------------------------------

    def layout(self, size: tuple[int, int]) -> None:
        """Beside the board in a wide window; under it, in two columns, in a narrow one
        (the text keeps the size it has in a wide window of the same width)."""
        width, height = size
        self.portrait = width / height < PORTRAIT - 0.01
        if self.portrait:
            self.u = u = max(8, round(min(width / 36, height / 64)))
            panel_height = max(height * 2 // 5, 27 * u)
            self.panel = pygame.Rect(0, height - panel_height, width, panel_height)
            board = pygame.Rect(u, u // 2, width - 2 * u, height - panel_height - u)
            column = (width - 3 * u) // 2
            top, bottom = self.panel.y + u // 2, self.panel.bottom - 4 * u
            self.column_a = pygame.Rect(u, top, column, bottom - top)
            self.column_b = pygame.Rect(2 * u + column, top, column, bottom - top)
            self.tray = pygame.Rect(self.column_b.x, top, column, 6 * u)
        else:
            self.u = u = theme.unit(size)
            panel_width = max(width * 3 // 10, 16 * u)
            self.panel = pygame.Rect(width - panel_width, 0, panel_width, height)
            board = pygame.Rect(u, u, width - panel_width - 2 * u, height - 2 * u)
            inner = pygame.Rect(self.panel.x + u, u, panel_width - 2 * u, height - 2 * u)
            self.column_a = self.column_b = inner
            self.tray = pygame.Rect(inner.x, inner.y + TEXT_ROOM * u, inner.width, 6 * u)
        self.view.layout(board, self.tray)
        self.view.show_last_turn(self._last_turn())
        self.rebuild()
        self._redraw.invalidate()

    def rebuild(self) -> None:
        """Targets for the decision at hand: the board's, then the panel's buttons."""
        u = self.u
        row, gap = theme.row(u), u // 2
        column = self.column_b
        x, width = column.x, column.width
        y = self.tray.bottom + gap
        if not self.portrait:  # the counts come between the tray and the controls
            y += len(self.view.counts()) * round(COUNT_LINE * u) + gap
        buttons: list[Target] = [self._mute_button()]
        for control in self._controls():
            buttons.append(
                button(pygame.Rect(x, y, width, row), control.label, control.action,
                       self.palette, control.enabled, control.name)
            )  # fmt: skip
            y += row + gap
        self.history_top = y + gap
        buttons += self._match_buttons()
        self.set_targets(self.view.targets() + buttons)
        self.history = self._history_lines()
        self._rebuilds += 1

    def _controls(self) -> list[Control]:
        """The buttons of the decision at hand: the game's (Roll, Stop, Pass…), the match
        control's, and the hint."""
        controls = [*self.view.controls(), *self.control.controls()]
        if self.coach.offers_hints():
            controls.append(Control("hint", self._hint_label, self.ask_hint, self._can_hint))
        return controls

    def _match_entries(self) -> list[Control]:
        """Undo, draw, resignation and the menu — or the question a resignation or a draw
        offer asks."""
        if self.confirming_resign:
            return [
                Control("", lambda: _("Really resign?"), lambda: None, lambda: False),
                Control("confirm resign", lambda: _("Resign"), self._resign),
                Control("cancel resign", lambda: _("Cancel"), self._cancel_resign),
            ]
        if self.draw_offer is not None:
            return [
                Control("accept draw", lambda: _("Accept draw"), self._accept_draw),
                Control("decline draw", lambda: _("Decline"), self._decline_draw),
            ]
        entries = []
        if self.control.offers_undo:
            entries.append(Control("undo", lambda: _("Undo"), self.undo, self._can_undo))
        if self.control.draws_by_agreement():
            entries.append(Control("offer draw", lambda: _("Offer draw"), self._offer_draw,
                                   self._can_offer_draw))  # fmt: skip
        return [
            *entries,
            Control("resign", lambda: _("Resign"), self._ask_resign, self._can_resign),
            Control("menu", lambda: _("Menu"), self.open_menu),
        ]

    def _match_buttons(self) -> list[Target]:
        """Undo, draw, resignation and the menu: two rows at the bottom of the panel beside
        the board, one row across the bottom under it."""
        u, palette = self.u, self.palette
        row, gap = theme.row(u), u // 2
        entries = self._match_entries()
        if self.portrait:
            left, width = u, self.panel.width - 2 * u
            cell = (width - (len(entries) - 1) * gap) // len(entries)
            y = self.panel.bottom - row - u // 2
            rects = [pygame.Rect(left + k * (cell + gap), y, cell, row)
                     for k in range(len(entries))]  # fmt: skip
            self.history_bottom = self.column_a.bottom
        else:
            column = self.column_b
            half = (column.width - gap) // 2
            bottom = column.bottom - row
            upper = bottom - row - gap
            # The last two side by side at the bottom; the others above (one alone: wide).
            rects = [pygame.Rect(column.x, upper, column.width, row)] if len(entries) == 3 else []
            if len(entries) == 4:
                rects = [pygame.Rect(column.x + k * (half + gap), upper, half, row) for k in (0, 1)]
            rects += [pygame.Rect(column.x + k * (half + gap), bottom, half, row) for k in (0, 1)]
            self.history_bottom = (upper if len(entries) > 2 else bottom) - gap
        return [
            button(rect, entry.label, entry.action, palette, entry.enabled, entry.name)
            for rect, entry in zip(rects, entries, strict=True)
        ]

    def _mute_button(self) -> Target:
        u = self.u
        size = theme.touch(2.9 * u)
        rect = pygame.Rect(self._mute_left(), self.column_a.y - u // 2, size, size)
        palette = self.palette

        def draw(surface: pygame.Surface, focused: bool, pressed: bool) -> None:
            pygame.draw.rect(surface, palette.button, rect, border_radius=size // 5)
            if focused:
                pygame.draw.rect(surface, palette.focus, rect, max(2, size // 14),
                                 border_radius=size // 5)  # fmt: skip
            surface.blit(_speaker(rect.size, palette.button_text, self.app.settings.muted),
                         rect)  # fmt: skip

        muted = lambda: "muted" if self.app.settings.muted else "sounding"  # noqa: E731
        return Target(rect, self.app.toggle_mute, draw=draw, name="mute", label=muted)

    def _mute_left(self) -> int:
        """The left edge of the mute button, at the top right of the first column."""
        return self.column_a.right - theme.touch(2.9 * self.u)

    def _history_lines(self) -> list[tuple[int, str]]:
        """The last actions as the panel lists them (made on each change, not each frame)."""
        lines = []
        for index in range(max(0, self.shown - HISTORY_LINES), self.shown):
            step = self._step(index)
            seat = self.actor(step.before)
            if seat is None and step.before.is_chance():  # a lot: the seat it chose
                seat = step.action
            lines.append((-1 if seat is None else seat,
                          f"{index + 1}. {action_text(step.before, step.action)}"))  # fmt: skip
        return lines

    # -- what the buttons do --------------------------------------------------------------

    @property
    def caught_up(self) -> bool:
        return self.shown == len(self.match.record.actions)

    @property
    def locked(self) -> bool:
        """No input while something moves, the screen catches up, or nobody here acts."""
        if self.view.animating or self._hold > 0 or not self.caught_up:
            return True
        if self.control.pending:
            return True
        seat = self.actor(self.state)
        return seat is None or not self.control.here(seat)

    def submit(self, action: int) -> None:
        if self.locked or not self.control.decide(action):
            self.gentle_cue()
            return
        self.draw_offer = None
        self._catch_up()

    def can_roll(self) -> bool:
        return not self.locked and self.control.can_roll(self.state)

    def roll(self) -> None:
        if not self.can_roll():
            self.gentle_cue()
            return
        self.control.roll()
        self._catch_up()

    def undo(self) -> None:
        if self.view.animating or not self.control.undo():
            self.gentle_cue()
            return
        self.view.clear_selection()
        self._resync()

    def ask_hint(self) -> None:
        """Show the move *hard* would play here (the H key, or the Hint button)."""
        if self.locked or not self.coach.ask_hint(self.state):
            self.gentle_cue()

    def _can_hint(self) -> bool:
        return not self.locked and self.coach.can_hint(self.state)

    def _hint_label(self) -> str:
        return _("Hint: thinking…") if self.coach.hint_pending(self.state) else _("Hint")

    def _hint_areas(self) -> list[pygame.Rect]:
        """Where the hint's marks go on the board, while it is shown."""
        action = self._shown_hint()
        return [] if action is None else self.view.move_rings(self.state, action, self.u)

    def _shown_hint(self) -> int | None:
        """The hint for the decision on screen, if one was asked and has come."""
        if self.locked:
            return None
        return self.coach.hint(self.state)

    def handle(self, event: ui.UIEvent) -> None:
        if isinstance(event, ui.Text) and event.text in ("h", "H"):
            self.inputs += 1
            self.ask_hint()
            return
        super().handle(event)

    def _can_undo(self) -> bool:
        return not self.view.animating and self._hold <= 0 and self.control.can_undo()

    def _running(self) -> bool:
        return not self.state.is_terminal() and not self.locked

    def _can_offer_draw(self) -> bool:
        return self._running() and self.state.to_move >= 0

    def _offer_draw(self) -> None:
        self.draw_offer = self.state.to_move
        self.rebuild()

    def _accept_draw(self) -> None:
        self.draw_offer = None
        self.control.accept_draw()
        self._catch_up()

    def _decline_draw(self) -> None:
        self.draw_offer = None
        self.rebuild()

    def _ask_resign(self) -> None:
        self.confirming_resign = True
        self.rebuild()

    def _cancel_resign(self) -> None:
        self.confirming_resign = False
        self.rebuild()

    def _resign(self) -> None:
        """The person at the screen resigns: the seat to act if it is theirs, else the first
        seat a person here holds."""
        self.confirming_resign = False
        seat = self.actor(self.state)
        if seat is None or not self.control.here(seat):
            seat = next(i for i in range(len(self.match.seats)) if self.control.here(i))
        self.control.resign(seat)
        self._catch_up()

    def _can_resign(self) -> bool:
        return not self.view.animating and self.control.can_resign()

    def open_menu(self) -> None:
        self.app.push(self.control.pause_menu(self.app, self))

    def back(self) -> None:
        self.open_menu()

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
            self._resync()
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

    def _catch_up(self) -> None:
        """Show an action a person here just made at once (their own taps need no pause)."""
        if not self.caught_up:
            self._show_next()
        else:
            self.rebuild()

    def _show_next(self) -> None:
        """Animate the next action of the match; hold it on screen if nobody here made it."""
        step = self._step(self.shown)
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

    def _resync(self) -> None:
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

    def status(self) -> str:
        state = self.state
        names = seat_names(state)
        if state.is_terminal():
            return _("Game over")
        special = self.control.status()
        if special and self.caught_up:
            return special
        if self.draw_offer is not None:
            other = names[1 - self.draw_offer] if len(names) == 2 else ""
            return _("{name}: accept the draw?").format(name=other)
        seat = self.actor(state)
        if seat is None:
            return _("Drawing lots…")
        name = names[seat]
        if self.control.here(seat):
            if self._hold > 0 or not self.caught_up:  # the other's move still shows: no input yet
                return _("{name} is next…").format(name=name)
            if self.control.people_here() == 1:
                return _("Your turn ({name})").format(name=name)
            return _("{name} to play").format(name=name)
        if self.control.thinking(seat):
            return _("{name} is thinking…").format(name=name)
        if self.match.seats[seat].kind is SeatKind.COMPUTER:
            return _("{name} is playing…").format(name=name)
        return _("{name} to play").format(name=name)

    def prompt(self) -> str:
        """What the person to act must do now (empty when nobody here acts), or that the turn
        just passed because no move was possible (whoever acts next)."""
        if self.view.passed() and not self.view.animating:
            return self.view.prompt()
        if self.locked and not self.view.animating:
            return ""
        seat = self.actor(self.state)
        if seat is None or not self.control.here(seat) or self.draw_offer is not None:
            return ""
        instruction = self.control.instruction()
        if instruction:
            return instruction
        hint = self._shown_hint()
        if hint is not None:
            return _("Hint: {advice}").format(advice=hint_text(self.state, hint))
        return self.view.prompt()

    def invalidate(self) -> None:
        self._redraw.invalidate()

    def updated_areas(self) -> list[pygame.Rect] | None:
        return self._updated

    def draw(self, surface: pygame.Surface) -> None:
        """Draw what changed since the last frame: where the moving things were and are,
        and the elements that changed — a square, a line of the panel, a button (see
        :mod:`redraw`); everything after a layout."""
        if surface is not self.app.screen:  # a picture of the match, not the frame
            self.draw_whole(surface)
            self._redraw.invalidate()
            return
        self._updated = areas = self._redraw.areas(
            None, self._moving_areas(), surface.get_rect(), self._elements()
        )
        if areas is None:
            self.draw_whole(surface)
        else:
            draw_clipped(surface, areas, self.draw_whole)

    def _elements(self) -> list[Element]:
        """The parts of the screen and what each shows now: the panel's words and counts,
        the buttons, the focus, and the view's board and tray."""
        u = self.u
        elements = self._panel_elements()
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
        return elements + self.view.elements((self._rebuilds, self.inputs))

    def _panel_elements(self) -> list[Element]:
        """The panel's words, counts, history (or lesson) and the newest notice."""
        u, column = self.u, self.column_a
        seat = self.actor(self.state)
        turn = None if seat is None or self.state.is_terminal() else self.view.seat_colour(seat)
        prompt = "" if self._lesson else self.prompt()
        counts = self.view.counts()
        counts_top = self._counts_top()
        counts_rect = pygame.Rect(column.x, counts_top, column.width,
                                  max(1, len(counts)) * round(COUNT_LINE * u) + u // 2)  # fmt: skip
        elements: list[Element] = [
            ("words", pygame.Rect(column.x, column.y, column.width, TEXT_ROOM * u),
             (turn, self.status(), prompt or self.banner, bool(prompt))),
            ("counts", counts_rect, tuple(counts)),
            ("history", self._history_rect(counts_rect.bottom), tuple(self.history))
            if not self._lesson else ("lesson", *self._lesson_lines()),
            ("notice", *self._notice_band()),
        ]  # fmt: skip
        return elements

    def _counts_top(self) -> int:
        return self.tray.bottom + self.u // 2 if not self.portrait else (
            self.column_a.y + TEXT_ROOM * self.u)  # fmt: skip

    def _history_rect(self, counts_bottom: int) -> pygame.Rect:
        """Where the history's lines are (they stand on the bottom of their room)."""
        if self.portrait:
            top, bottom = counts_bottom + self.u // 2, self.column_a.bottom
        else:
            top, bottom = self.history_top, self.history_bottom
        line_height = round(HISTORY_LINE * self.u)
        shown = min(len(self.history), max(0, (bottom - top) // line_height))
        lines = pygame.Rect(self.column_a.x, bottom - shown * line_height, self.column_a.width,
                            max(1, shown * line_height))  # fmt: skip
        return lines.inflate(0, self.u)  # a line's descenders reach a little below its room

    def _moving_areas(self) -> list[pygame.Rect]:
        areas = self.view.moving_areas()
        sparks = self.view.particles.area()
        if sparks is not None:
            areas.append(sparks)
        if self.cue > 0 and self.cue_rect is not None:
            areas.append(self.cue_rect.inflate(self.u, self.u))
        return areas

    def _board_backdrop(self, surface: pygame.Surface) -> pygame.Surface:
        """The background, the panel and the board's art, drawn once (again when the size,
        the colours or the board's look change): one opaque copy a frame instead of a fill
        and the board's layers."""
        panels = self._panel_areas()
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

    def _panel_areas(self) -> list[pygame.Rect]:
        """The rectangles painted in the panel's colour."""
        return [self.panel]

    def _draw_hint(self, surface: pygame.Surface) -> None:
        action = self._shown_hint()
        if action is not None:
            self.view.draw_move(surface, self.state, action, self.palette.accent, self.u)

    def draw_whole(self, surface: pygame.Surface) -> None:
        """Draw everything (on the screen as clipped, or on another surface: a veiled demo,
        a match under a question)."""
        surface.blit(self._board_backdrop(surface), (0, 0))
        self.view.draw_pieces(surface)
        self._draw_hint(surface)
        self.view.particles.draw(surface)
        self._draw_panel(surface)
        self.draw_targets(surface)

    def _draw_panel(self, surface: pygame.Surface) -> None:
        """The panel's words and counts, the history (or the lesson), and the notices."""
        palette = self.palette
        u, column = self.u, self.column_a
        x, y = column.x, column.y
        beside_mute = self._mute_left() - u // 2 - x  # the title and status end before it
        title = theme.fitted(variant_title(self.match.variant.name), round(1.8 * u),
                             palette.accent, beside_mute, True)  # fmt: skip
        surface.blit(title, (x, y))
        y += round(3.2 * u)
        seat = self.actor(self.state)
        if seat is not None and not self.state.is_terminal():
            pygame.draw.circle(surface, self.view.seat_colour(seat),
                               (x + u // 2, y + round(0.6 * u)), round(0.45 * u))  # fmt: skip
            pygame.draw.circle(surface, palette.text, (x + u // 2, y + round(0.6 * u)),
                               round(0.45 * u), 1)  # fmt: skip
        y = self._draw_wrapped(surface, self.status(), round(1.2 * u), palette.text, True,
                               x + round(1.4 * u), y, lines=2,
                               right=self._mute_left() - u // 2)  # fmt: skip
        prompt = "" if self._lesson else self.prompt()  # a lesson says it in its own room
        colour = palette.accent if prompt else palette.muted
        self._draw_wrapped(surface, prompt or self.banner, u, colour, True, x, y, lines=2)
        y = self._counts_top()
        for seat, line in self.view.counts():
            if not line:  # room kept for a line that has nothing to say now
                y += round(COUNT_LINE * u)
                continue
            if seat >= 0:
                pygame.draw.circle(surface, self.view.seat_colour(seat),
                                   (x + u // 3, y + round(0.5 * u)), u // 3)  # fmt: skip
            surface.blit(theme.text(line, round(0.85 * u), palette.text), (x + u, y))
            y += round(COUNT_LINE * u)
        if self._lesson:
            self._draw_lesson(surface)
        else:
            self._draw_history(surface, y + u // 2 if self.portrait else None)
        self._draw_notices(surface)

    def _draw_wrapped(self, surface: pygame.Surface, text: str, size: int, colour: theme.Colour,
                      bold: bool,
                      x: int, y: int, lines: int, right: int | None = None) -> int:  # fmt: skip
        """Draw ``text`` in at most ``lines`` lines up to ``right`` (the first column's right
        edge by default); returns the y below the room kept for it (so what follows does not
        jump)."""
        width = max((self.column_a.right if right is None else right) - x, 4 * self.u)
        for line in _wrapped(text, size, bold, width)[:lines]:
            surface.blit(theme.text(line, size, colour, bold), (x, y))
            y += round(size * 1.25)
        return y

    def _draw_history(self, surface: pygame.Surface, top: int | None) -> None:
        u = self.u
        line_height = round(HISTORY_LINE * u)
        if top is None:  # beside the board: above the bottom buttons, below the controls
            top, bottom = self.history_top, self.history_bottom
        else:  # under the board: the rest of the first column
            bottom = self.column_a.bottom
        room = max(0, (bottom - top) // line_height)
        lines = self.history[-room:] if room else []
        y = bottom - len(lines) * line_height
        for seat, text in lines:
            if seat >= 0:
                pygame.draw.circle(surface, self.view.seat_colour(seat),
                                   (self.column_a.x + u // 3, y + u // 2), u // 4)  # fmt: skip
            label = theme.text(text, round(0.8 * u), self.palette.muted)
            surface.blit(label, (self.column_a.x + u, y))
            y += line_height

    @property
    def _lesson(self) -> bool:
        """A lesson (a guided game) is played: its words — what the computer did, what to do
        now — stand large in the panel, in the history's room."""
        return getattr(self.control, "lesson", False)

    def _lesson_room(self) -> pygame.Rect:
        """The history's room: under the panel's controls beside the board, under the counts
        below it."""
        u, column = self.u, self.column_a
        if self.portrait:
            top = self._counts_top() + len(self.view.counts()) * round(COUNT_LINE * u) + u // 2
            bottom = column.bottom
        else:
            top, bottom = self.history_top, self.history_bottom
        return pygame.Rect(column.x, top, column.width, max(0, bottom - top))

    def _lesson_lines(self) -> tuple[pygame.Rect, tuple[tuple[str, int, bool], ...]]:
        """Where a lesson's words are drawn, and their lines (text, size, whether it is the
        instruction): the notices, then the prompt, as large as their room allows."""
        room = self._lesson_room()
        said = [(text, False) for text in self.control.notices()]
        prompt = self.prompt()
        paragraphs = said + ([(prompt, True)] if prompt else [])
        lines: list[tuple[str, int, bool]] = []
        for scale in LESSON_SIZES:
            size = round(scale * self.u)
            lines = [(line, size, instruction) for text, instruction in paragraphs
                     for line in _wrapped(text, size, True, room.width)]  # fmt: skip
            if _lines_height(lines, self.u) <= room.height:
                break
        while lines and _lines_height(lines, self.u) > room.height:
            lines.pop()  # never over the buttons; tests keep every lesson clear of this
        return room, tuple(lines)

    def _draw_lesson(self, surface: pygame.Surface) -> None:
        room, lines = self._lesson_lines()
        y, previous = room.y, None
        for line, size, instruction in lines:
            if previous is not None and instruction != previous:
                y += self.u // 2  # a gap between what happened and what to do
            colour = self.palette.accent if instruction else self.palette.text
            surface.blit(theme.text(line, size, colour, True), (room.x, y))
            y += theme.font(size, True).get_linesize()
            previous = instruction

    def _notice_band(self) -> tuple[pygame.Rect, tuple[str, ...]]:
        """Where the newest notice is drawn and its lines: a band at the foot of the board's
        side (under the board in a portrait window), clear of the panel's buttons."""
        notices = () if self._lesson else self.control.notices()  # a lesson's: in the panel
        if not notices:
            return pygame.Rect(0, 0, 0, 0), ()
        u = self.u
        width, height = self.app.size
        right = width if self.portrait else self.column_a.x
        size = round(0.9 * u)
        lines = _wrapped(notices[-1], size, True, right - 4 * u)[:3]
        line_height = theme.font(size, True).get_linesize()
        band = pygame.Rect(u, 0, right - 2 * u, len(lines) * line_height + u)
        band.bottom = self.panel.y - u // 2 if self.portrait else height - u // 2
        return band, lines

    def _draw_notices(self, surface: pygame.Surface) -> None:
        """The newest notice (the disk refused the save, a LAN player left) in words big
        enough to be read from a chair, on a band of the warning colour."""
        band, lines = self._notice_band()
        if not lines:
            return
        u, palette = self.u, self.palette
        size = round(0.9 * u)
        pygame.draw.rect(surface, palette.warning, band, border_radius=u // 3)
        y = band.y + u // 2
        for line in lines:
            surface.blit(theme.text(line, size, palette.background, True), (band.x + u, y))
            y += theme.font(size, True).get_linesize()


@lru_cache(maxsize=64)
def _wrapped(text: str, size: int, bold: bool, width: int) -> tuple[str, ...]:
    """The panel's lines of ``text`` (worked out once, not at every frame)."""
    return tuple(theme.wrap(text, theme.font(size, bold), width))


def _lines_height(lines: list[tuple[str, int, bool]], u: int) -> int:
    """The height of a lesson's lines, with the gap between its two parts."""
    height = sum(theme.font(size, True).get_linesize() for _, size, _ in lines)
    parts = len({instruction for _, _, instruction in lines})
    return height + (u // 2 if parts > 1 else 0)


@lru_cache(maxsize=8)
def _speaker(size: tuple[int, int], colour: theme.Colour, muted: bool) -> pygame.Surface:
    """A loudspeaker, with sound waves or crossed out, drawn once and blitted: pygame's arcs
    are not drawn alike under every clip, and the button is drawn again in parts."""
    surface = pygame.Surface(size, pygame.SRCALPHA)
    w, h = size
    body = [(0.22 * w, 0.4 * h), (0.36 * w, 0.4 * h), (0.55 * w, 0.22 * h), (0.55 * w, 0.78 * h),
            (0.36 * w, 0.6 * h), (0.22 * w, 0.6 * h)]  # fmt: skip
    pygame.draw.polygon(surface, colour, body)
    line = max(2, w // 14)
    if muted:
        for (ax, ay), (bx, by) in (((0.64, 0.36), (0.84, 0.64)), ((0.84, 0.36), (0.64, 0.64))):
            pygame.draw.line(surface, colour, (ax * w, ay * h), (bx * w, by * h), line)
        return surface
    for radius in (0.16, 0.28):
        arc = pygame.Rect(0, 0, 2 * radius * w, 2 * radius * h)
        arc.center = (round(0.5 * w), h // 2)
        pygame.draw.arc(surface, colour, arc, -0.9, 0.9, line)
    return surface
