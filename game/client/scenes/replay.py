"""Finished matches: a list of them, and a viewer that steps through one and exports it."""

from __future__ import annotations

import time
from functools import partial
from typing import TYPE_CHECKING

import pygame

from game.client import theme
from game.client.navigator import Screen, make
from game.client.scene import Scene
from game.client.scenes.picture import Preview
from game.client.scenes.saved import MatchListScene, Row, opponents_text, turns_text, when_text
from game.client.turns import last_turn, step_at
from game.client.views import view_for
from game.client.widgets import button, fixed
from game.files import atomic_write
from game.i18n import _, ngettext
from game.names import (
    action_text,
    outcome_for,
    reason_text,
    seat_names,
    variant_title,
)
from game.rules.fen import SET_UP_GAMES, fen_of, setup_of
from game.session.export import export_name, export_text, free_path
from game.session.match import Match
from game.session.saves import FINISHED, Finished, plain

if TYPE_CHECKING:
    from game.client.app import App


class FinishedScene(MatchListScene):
    """The finished matches, newest first: tap one to replay it."""

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.finished = app.saves.finished()

    def title(self) -> str:
        return _("Finished matches")

    def rows(self) -> list[Row]:
        bring_in = Row(
            lambda: (
                _("Import a game"),
                _("PDN for Dama, a1–g7 move lists for Mulino"),
            ),
            self._import,
            "import",
        )
        return [bring_in] + [
            Row(
                partial(_describe, entry),
                partial(self._open, entry),
                f"finished {index}",
            )
            for index, entry in enumerate(self.finished)
        ]

    def _open(self, entry: Finished) -> None:
        self.app.push(ReplayScene(self.app, entry))

    def _import(self) -> None:
        self.app.push(make(Screen.IMPORT, self.app))


def _describe(entry: Finished) -> tuple[str, str]:
    """A finished match in two lines: the game and its result; when it ended, who played and
    how long it took."""
    match = entry.match
    result = match.state.result()
    people = [n for n, seat in enumerate(match.seats) if seat.is_human]
    names = [seat.name for seat in match.seats]
    outcome = outcome_for(result, seat_names(match.state), people, names) if result else ""
    return (
        f"{variant_title(match.variant.name)} — {outcome}",
        " · ".join((when_text(entry.saved_at), opponents_text(match.seats), turns_text(match))),
    )


class ReplayScene(Scene):
    """Step through a finished match — the last turn highlighted at every step, each action
    in the words of the match screen — and export its move list."""

    def __init__(self, app: App, entry: Finished) -> None:
        super().__init__(app)
        self.entry = entry
        self.match = entry.match
        self.step = len(self.match.record.actions)
        self.turns = self.match.turn_numbers()
        self.notice = ""
        self.marks: dict[int, str] = {}
        """The marks an imported game's moves were written with (``!?``, ``$14``), by action."""
        self.preview = Preview(app, self.match.state_at(self.step))
        self.view = view_for(self.match.variant.name, self.preview)

    @classmethod
    def of_match(
        cls,
        app: App,
        match: Match,
        marks: dict[int, str] | None = None,
        notices: tuple[str, ...] = (),
    ) -> ReplayScene:
        """The replay of a match just finished (from the results screen) or imported (with
        the marks of its moves, and what the reading said, shown over the moves)."""
        name = f"{match.seed:016x}-{len(match.record.actions)}.tavolo"
        entry = Finished(app.saves.store.directory / FINISHED / name, match, time.time())
        scene = cls(app, entry)
        scene.marks = dict(marks or {})
        scene.notice = " ".join(notices)
        return scene

    def layout(self, size: tuple[int, int]) -> None:
        self.u = u = theme.unit(size)
        width, height = size
        if width < height:  # portrait: the panel under the board
            panel_height = max(height * 2 // 5, 26 * u)
            self.panel = pygame.Rect(0, height - panel_height, width, panel_height)
            board = pygame.Rect(u, u, width - 2 * u, height - panel_height - 2 * u)
        else:
            panel = max(width * 3 // 10, 16 * u)
            self.panel = pygame.Rect(width - panel, 0, panel, height)
            board = pygame.Rect(u, u, width - panel - 2 * u, height - 2 * u)
        x, inner = self.panel.x + u, self.panel.width - 2 * u
        tray = pygame.Rect(x, self.panel.y + 8 * u, inner, 5 * u)
        self.view.layout(board, tray)
        self.view.show_last_turn(last_turn(self.match, self.step))
        w, h = (inner - 3 * u) // 4, theme.row(u)
        y = tray.bottom + u
        controls = [
            ("|<", lambda: self.go(0), "start"),
            ("<", lambda: self.go(self.step - 1), "previous"),
            (">", lambda: self.go(self.step + 1), "next"),
            (">|", lambda: self.go(len(self.match.record.actions)), "end"),
        ]
        targets = [
            button(pygame.Rect(x + k * (w + u), y, w, h), fixed(text), action,
                   self.palette, name=name)
            for k, (text, action, name) in enumerate(controls)
        ]  # fmt: skip
        third = (inner - 2 * u) // 3
        bottom = self.panel.bottom - u - h
        self.moves_bottom = bottom - u
        if self.match.variant.name in SET_UP_GAMES:  # a match may start from any position
            here = pygame.Rect(x, bottom - h - u // 2, inner, h)
            label = lambda: _("Play from here")  # noqa: E731
            targets.append(button(here, label, self.play_from_here, self.palette,
                                  self.can_play_from_here, "play from here"))  # fmt: skip
            self.moves_bottom = here.y - u
        targets += [
            button(pygame.Rect(x, bottom, third, h), lambda: _("Export"),
                   self.export, self.palette, name="export"),
            button(pygame.Rect(x + third + u, bottom, third, h), lambda: _("Review"),
                   self.open_review, self.palette, name="review"),
            button(pygame.Rect(x + 2 * (third + u), bottom, third, h), lambda: _("Back"),
                   self.app.pop, self.palette, name="back"),
        ]  # fmt: skip
        self.moves_top = y + h + u
        self.set_targets(targets)

    def go(self, step: int) -> None:
        step = max(0, min(len(self.match.record.actions), step))
        if step == self.step:
            self.gentle_cue()
            return
        self.step = step
        self.preview.state = self.match.state_at(step)
        self.view.clear_selection()
        self.view.show_last_turn(last_turn(self.match, step))

    def can_play_from_here(self) -> bool:
        return not self.match.state_at(self.step).is_terminal()

    def play_from_here(self) -> None:
        """A new match from the position on the board (here or on the LAN), the rule
        options as this match's: the setup screen, told where it starts."""
        if not self.can_play_from_here():
            self.gentle_cue()
            return
        chosen = self.match.variant
        start = setup_of(chosen, fen_of(self.match.state_at(self.step)))
        self.app.push(make(Screen.SETUP, self.app, chosen.name, start, dict(chosen.options)))

    def open_review(self) -> None:
        self.app.push(make(Screen.REVIEW, self.app, self.entry))

    def export(self) -> None:
        """Write the move list under a name that says what it is (game, players, date) and
        say where, in words that can be read."""
        match = self.entry.match
        folder = self.app.paths.data / "exports"
        path = free_path(folder, export_name(match, self.entry.saved_at))
        try:
            text = export_text(match, self.entry.saved_at, self.marks)
            atomic_write(path, text.encode("utf-8"))
        except OSError as error:
            self.notice = _("The move list could not be saved: {error}").format(error=plain(error))
            return
        self.notice = _("The move list is saved as {name} in {folder}").format(
            name=path.name, folder=folder
        )

    def _move_line(self, index: int) -> str:
        """Action ``index`` in words, numbered by its turn where the turn begins (a lot
        before anyone's turn has no number), marked where a person saw a hint."""
        step = step_at(self.match, index)
        text = action_text(step.before, step.action)
        if index in self.marks:
            text = f"{text} {self.marks[index]}"
        hints = sum(1 for hint in self.match.hints if hint.decision == index)
        if hints:
            text = f"{text} · " + ngettext("hint seen", "{n} hints seen", hints).format(n=hints)
        turn = self.turns[index]
        if turn and (index == 0 or self.turns[index - 1] != turn):
            return f"{turn}. {text}"
        return f"    {text}"

    def draw(self, surface: pygame.Surface) -> None:
        palette = self.palette
        surface.fill(palette.background)
        pygame.draw.rect(surface, palette.panel, self.panel)
        self.view.draw(surface)
        u, x = self.u, self.panel.x + self.u
        top = self.panel.y + u
        match = self.match
        title = theme.text(variant_title(match.variant.name), 2 * u, palette.accent, True)
        surface.blit(title, (x, top))
        players = self.players()
        if players:  # who played, as the record names them (an imported PDN's White, Black)
            room = self.panel.right - u - (x + title.get_width() + u)
            shown = theme.fitted(players, u, palette.text, max(room, u))
            surface.blit(shown, (x + title.get_width() + u, top + 2 * u - shown.get_height()))
        total = len(match.record.actions)
        in_hand = self.current()
        if in_hand is not None and (turn := self.turns[in_hand]):
            where = _("Turn {n} of {total}").format(n=turn, total=self.turns[-1])
        else:  # the start, or a lot drawn before anyone's turn
            where = _("Before the first turn")
        surface.blit(theme.text(where, round(1.2 * u), palette.text, True), (x, top + 3 * u))
        current = self.current()
        if current is not None:
            last = theme.text(self._move_line(current), u, self._line_colour(current))
            surface.blit(last, (x, top + round(4.8 * u)))
        result = match.state.result()
        if result and self.step == total:
            reason = theme.text(reason_text(result.reason), theme.small(0.85 * u), palette.muted)
            surface.blit(reason, (x, top + round(6.3 * u)))
        self._draw_moves(surface, x)
        if self.notice:  # over the last moves, above the buttons, as large as the moves
            lines = self._notice_lines()
            line = round(1.2 * u)
            area = pygame.Rect(x - u // 2, self.moves_bottom - len(lines) * line - u // 2,
                               self.panel.width - u, len(lines) * line + u)  # fmt: skip
            pygame.draw.rect(surface, palette.background, area, border_radius=u // 3)
            for n, text in enumerate(lines):
                shown = theme.text(text, u, palette.accent, True)
                surface.blit(shown, (x, area.y + u // 2 + n * line))
        self.draw_targets(surface)

    def players(self) -> str:
        """ "White: Anna · Black: Ben" when the record names its players ("" when not)."""
        names = [seat.name for seat in self.match.seats]
        if not any(names):
            return ""
        sides = seat_names(self.match.state)
        return " · ".join(f"{side}: {name or '?'}" for side, name in zip(sides, names, strict=True))

    def _notice_lines(self) -> list[str]:
        return theme.wrap(self.notice, theme.font(self.u, True), self.panel.width - 2 * self.u)[:4]

    def _draw_moves(self, surface: pygame.Surface, x: int) -> None:
        """The moves before and after the current step, the current one marked."""
        u = self.u
        height = max(round(1.05 * u), theme.small(0.8 * u) + 3)
        room = max(0, (self.moves_bottom - self.moves_top) // height)
        total = len(self.match.record.actions)
        first = max(0, min(self.step - room // 2, total - room))
        y = self.moves_top
        current = self.current()
        for index in range(first, min(total, first + room)):
            colour = self._line_colour(index)
            if index == current:
                marked = pygame.Rect(x - u // 3, y - u // 8, self.panel.width - u, height)
                pygame.draw.rect(surface, self.palette.background, marked, border_radius=u // 4)
            bold = index == current
            line = theme.text(self._move_line(index), theme.small(0.8 * u), colour, bold)
            surface.blit(line, (x, y))
            y += height

    def current(self) -> int | None:
        """The action the panel names as the one in hand: the last one played."""
        return self.step - 1 if self.step else None

    def _line_colour(self, index: int) -> tuple[int, int, int]:
        return self.palette.accent if index == self.current() else self.palette.muted
