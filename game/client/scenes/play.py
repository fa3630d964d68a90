"""The match screen: the board, the side panel with whose turn it is, the dice or hands, the
move history, and the buttons for undo, draw, resignation and the pause menu."""

from __future__ import annotations

import logging
from concurrent.futures import Future

import pygame

from game.client import theme
from game.client.scene import Scene
from game.client.views import view_for
from game.client.widgets import Target, button
from game.i18n import _
from game.names import action_text, seat_names, variant_title
from game.rules import AGREED_DRAW, IllegalActionError, State, resign_action
from game.session.match import Match
from game.session.seats import Seat

log = logging.getLogger(__name__)

LOT_PAUSE = 0.8  # seconds before a lot is drawn, so players see it happen
RESULTS_PAUSE = 0.9
DRAW_BY_AGREEMENT = (
    "dama:classic",
    "dama:mangia",
    "mulino:classic",
    "mulino:misto",
    "mulino:ceylonese",
)


class PlayScene(Scene):
    def __init__(self, app, match: Match) -> None:
        super().__init__(app)
        self.match = match
        self.view = view_for(match.variant.name, self)
        self.draw_offer: int | None = None  # the seat that offered a draw
        self.confirming_resign = False
        self.last_die = 0
        self.highlight_cells = 0
        self.banner = ""
        self._wait = 0.0
        self._was_animating = False
        self.thinking: Future | None = None
        self._thinking_for = ""
        if self._autosave not in match.on_change:
            match.on_change.append(self._autosave)

    def _autosave(self, match: Match) -> None:
        try:
            self.app.saves.save(match)
        except OSError as error:  # a full disk must not end the game
            self.banner = _("The game could not be saved: {error}").format(error=error)

    # -- layout ---------------------------------------------------------------------------

    def layout(self, size: tuple[int, int]) -> None:
        width, height = size
        self.u = u = theme.unit(size)
        panel_width = max(width * 3 // 10, 16 * u)
        self.panel = pygame.Rect(width - panel_width, 0, panel_width, height)
        board = pygame.Rect(u, u, width - panel_width - 2 * u, height - 2 * u)
        tray = pygame.Rect(self.panel.x + u, 7 * u, panel_width - 2 * u, 8 * u)
        self.view.layout(board, tray)
        self.rebuild()

    def rebuild(self) -> None:
        """Targets for the decision at hand: the board's, then the panel's buttons."""
        u, panel = self.u, self.panel
        row_height, gap = 3 * u, u // 2
        x, width = panel.x + u, panel.width - 2 * u
        buttons: list[Target] = []
        y = 16 * u
        for control in self.view.controls():
            buttons.append(
                button(
                    pygame.Rect(x, y, width, row_height),
                    control.label,
                    control.action,
                    self.palette,
                    control.enabled,
                    control.name,
                )
            )
            y += row_height + gap
        self.history_top = y + gap
        half = (width - gap) // 2
        bottom = panel.bottom - u - row_height
        if self.confirming_resign:
            buttons += [
                button(
                    pygame.Rect(x, bottom - row_height - gap, width, row_height),
                    lambda: _("Really resign?"),
                    lambda: None,
                    self.palette,
                    lambda: False,
                ),
                button(
                    pygame.Rect(x, bottom, half, row_height),
                    lambda: _("Resign"),
                    self._resign,
                    self.palette,
                    name="confirm resign",
                ),
                button(
                    pygame.Rect(x + half + gap, bottom, half, row_height),
                    lambda: _("Cancel"),
                    self._cancel_resign,
                    self.palette,
                    name="cancel resign",
                ),
            ]
        elif self.draw_offer is not None:
            buttons += [
                button(
                    pygame.Rect(x, bottom, half, row_height),
                    lambda: _("Accept draw"),
                    self._accept_draw,
                    self.palette,
                    name="accept draw",
                ),
                button(
                    pygame.Rect(x + half + gap, bottom, half, row_height),
                    lambda: _("Decline"),
                    self._decline_draw,
                    self.palette,
                    name="decline draw",
                ),
            ]
        else:
            # Draws by agreement are for games that have them, between people at the screen.
            drawable = self.match.variant.name in DRAW_BY_AGREEMENT and all(
                seat.is_human for seat in self.match.seats
            )
            upper = bottom - row_height - gap
            undo_width = half if drawable else width
            palette = self.palette
            buttons.append(
                button(
                    pygame.Rect(x, upper, undo_width, row_height),
                    lambda: _("Undo"),
                    self.undo,
                    palette,
                    self._can_undo,
                    "undo",
                )
            )
            if drawable:
                buttons.append(
                    button(
                        pygame.Rect(x + half + gap, upper, half, row_height),
                        lambda: _("Offer draw"),
                        self._offer_draw,
                        palette,
                        self._can_offer_draw,
                        "offer draw",
                    )
                )
            buttons.append(
                button(
                    pygame.Rect(x, bottom, half, row_height),
                    lambda: _("Resign"),
                    self._ask_resign,
                    palette,
                    self._can_resign,
                    "resign",
                )
            )
            buttons.append(
                button(
                    pygame.Rect(x + half + gap, bottom, half, row_height),
                    lambda: _("Menu"),
                    self.open_menu,
                    palette,
                    name="menu",
                )
            )
        self.set_targets(self.view.targets() + buttons)
        self.history = self._history_lines()

    def _history_lines(self, shown: int = 8) -> list[tuple[int, str]]:
        """The last actions as the panel lists them (made on each change, not each frame)."""
        states, actions = self.match.states, self.match.record.actions
        lines = []
        for index in range(max(0, len(actions) - shown), len(actions)):
            before = states[index]
            action = before.parse_action(actions[index])
            seat = before.to_move if before.to_move >= 0 else getattr(before, "side", -1)
            lines.append((seat, f"{index + 1}. {action_text(before, action)}"))
        return lines

    # -- what the buttons do --------------------------------------------------------------

    @property
    def state(self) -> State:
        return self.match.state

    @property
    def locked(self) -> bool:
        """No input while something moves, a lot is drawn or the computer is to act."""
        return self.view.animating or self._wait > 0 or self._computer_acts()

    def _owner(self) -> Seat | None:
        """The seat whose decision or roll it is (None at a lot or the end)."""
        state = self.state
        if state.to_move >= 0:
            return self.match.seats[state.to_move]
        if state.is_chance() and self.view.rolls_dice(state):
            return self.match.seats[getattr(state, "side", 0)]
        return None

    def _computer_acts(self) -> bool:
        owner = self._owner()
        return owner is not None and not owner.is_human

    def _stop_thinking(self) -> None:
        if self.thinking is not None:
            self.app.thinker.cancel()
            self.thinking = None

    def discard(self) -> None:
        self._stop_thinking()

    def _running(self) -> bool:
        return not self.state.is_terminal() and not self.locked

    def submit(self, action: int) -> None:
        before = self.state
        try:
            after = self.match.play(action)
        except IllegalActionError:
            self.gentle_cue()
            return
        if action >= 0:  # a resignation or an agreed draw moves nothing on the board
            self.view.played(before, action, after)
        self.draw_offer = None
        self._after_change()

    def can_roll(self) -> bool:
        return not self.locked and self.state.is_chance() and self.view.rolls_dice(self.state)

    def roll(self) -> None:
        if not self.can_roll():
            self.gentle_cue()
            return
        before = self.state
        outcome = self.match.roll()
        if self.match.variant.game == "numeri":
            self.last_die = outcome
        self.view.played(before, outcome, self.state)
        self._after_change()

    def _draw_lot(self) -> None:
        before = self.state
        outcome = self.match.roll()
        self.view.played(before, outcome, self.state)
        names = seat_names(self.state)
        if self.match.variant.name == "dama:lupo":
            self.banner = _("{name} plays the wolf").format(
                name=_("Player {n}").format(n=outcome + 1)
            )
        else:
            self.banner = _("{name} begins").format(name=names[outcome])
        self._after_change()

    def undo(self) -> None:
        self._stop_thinking()
        if self.match.undo():
            self.view.clear_selection()
            self._after_change()
        else:
            self.gentle_cue()

    def _can_undo(self) -> bool:
        busy = self.view.animating or self._wait > 0
        return not busy and self.match.undo_point() is not None

    def _can_offer_draw(self) -> bool:
        return self._running() and self.state.to_move >= 0

    def _offer_draw(self) -> None:
        self.draw_offer = self.state.to_move
        self.rebuild()

    def _accept_draw(self) -> None:
        self.draw_offer = None
        self.submit(AGREED_DRAW)

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
        seat a person holds."""
        self.confirming_resign = False
        self._stop_thinking()
        owner = self._owner()
        seats = self.match.seats
        if owner is not None and owner.is_human:
            seat = seats.index(owner) if self.state.to_move < 0 else self.state.to_move
        else:
            seat = next(i for i, s in enumerate(seats) if s.is_human)
        self.submit(resign_action(seat))

    def _can_resign(self) -> bool:
        playing = not self.state.is_terminal() and not self.view.animating
        return playing and any(s.is_human for s in self.match.seats)

    def open_menu(self) -> None:
        from game.client.scenes.menus import PauseScene

        self.app.push(PauseScene(self.app, self))

    def back(self) -> None:
        self.open_menu()

    def _after_change(self) -> None:
        self.rebuild()

    # -- time -----------------------------------------------------------------------------

    def update(self, dt: float) -> None:
        super().update(dt)
        self.view.update(dt * self.app.settings.animation_speed)
        if self.view.animating:
            self._was_animating = True
            return
        if self._was_animating:  # what can be done next may have changed
            self._was_animating = False
            self.rebuild()
        state = self.state
        if state.is_terminal():
            self._wait += dt
            if self._wait >= RESULTS_PAUSE:
                from game.client.scenes.results import ResultsScene

                self._wait = 0.0
                self.app.replace(ResultsScene(self.app, self.match))
            return
        if state.is_chance() and not self.view.rolls_dice(state):
            self._wait += dt
            if self._wait >= LOT_PAUSE:
                self._wait = 0.0
                self._draw_lot()
            return
        if self._wait:
            self._wait = 0.0
            self.rebuild()
        if self._computer_acts():
            self._computer_turn()

    def _computer_turn(self) -> None:
        """Roll for a computer seat, or ask the thinker and play its answer when it comes."""
        state = self.state
        if state.is_chance():
            before = state
            outcome = self.match.roll()
            if self.match.variant.game == "numeri":
                self.last_die = outcome
            self.view.played(before, outcome, self.state)
            self._after_change()
            return
        if self.thinking is None:
            seat = self.match.seats[state.to_move]
            seed = self.match.seed + len(self.match.record.actions)
            seconds = self.app.settings.thinking_seconds
            self.thinking = self.app.thinker.think(
                state, seat.level or "medium", seed, max_seconds=seconds, scale=seconds
            )
            self._thinking_for = state.digest()
            return
        if not self.thinking.done():
            return
        future, self.thinking = self.thinking, None
        try:
            action = future.result()
        except Exception as error:  # a crashed worker must not stop the match
            log.error("the computer player failed (%s): playing its first legal move", error)
            action = state.legal_actions()[0]
        if action is not None and state.digest() == self._thinking_for:
            self.submit(action)

    @property
    def animating(self) -> bool:
        waiting = (
            self.state.is_terminal()
            or (self.state.is_chance() and not self.view.rolls_dice(self.state))
            or self._computer_acts()
        )
        return super().animating or self.view.animating or waiting

    # -- drawing --------------------------------------------------------------------------

    def status(self) -> str:
        state = self.state
        names = seat_names(state)
        if state.is_terminal():
            return _("Game over")
        if state.is_chance():
            if self.view.rolls_dice(state):
                side = getattr(state, "side", 0)
                return _("{name}: roll the dice").format(name=names[side])
            return _("Drawing lots…")
        if self.draw_offer is not None:
            other = names[1 - self.draw_offer] if len(names) == 2 else ""
            return _("{name}: accept the draw?").format(name=other)
        if self._computer_acts():
            return _("{name} is thinking…").format(name=names[state.to_move])
        return _("{name} to play").format(name=names[state.to_move])

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(self.palette.background)
        pygame.draw.rect(surface, self.palette.panel, self.panel)
        self.view.draw(surface)
        u, x = self.u, self.panel.x + self.u
        title = theme.text(variant_title(self.match.variant.name), 2 * u, self.palette.accent, True)
        surface.blit(title, (x, u))
        status = theme.text(self.status(), round(1.3 * u), self.palette.text, True)
        surface.blit(status, (x, 4 * u))
        if self.state.to_move >= 0 and self.match.variant.game == "numeri":
            colour = self.palette.seats[self.state.to_move]
            pygame.draw.circle(surface, colour, (self.panel.right - 2 * u, 4 * u + u // 2), u // 2)
        if self.banner:
            banner = theme.text(self.banner, u, self.palette.muted)
            surface.blit(banner, (x, 5 * u + u // 2))
        self._draw_history(surface)
        self.draw_targets(surface)

    def _draw_history(self, surface: pygame.Surface) -> None:
        u = self.u
        y = max(self.history_top, self.panel.bottom - 9 * u - len(self.history) * round(1.1 * u))
        for seat, text in self.history:
            label = theme.text(text, round(0.8 * u), self.palette.muted)
            if 0 <= seat < len(self.palette.seats) and self.match.variant.game == "numeri":
                pygame.draw.circle(
                    surface, self.palette.seats[seat], (self.panel.x + u // 2, y + u // 2), u // 4
                )
            surface.blit(label, (self.panel.x + u, y))
            y += round(1.1 * u)
