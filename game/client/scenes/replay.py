"""Finished matches: a list of them, and a viewer that steps through one and exports it."""

from __future__ import annotations

import pygame

from game.client import theme
from game.client.scene import Scene
from game.client.scenes.picture import Preview
from game.client.scenes.saved import MatchListScene, Row, moves_text, opponents_text, when_text
from game.client.views import view_for
from game.client.widgets import button
from game.i18n import _
from game.names import reason_text, result_headline, seat_names, variant_title
from game.session.export import export_text
from game.session.saves import Finished, atomic_write


class FinishedScene(MatchListScene):
    """The finished matches, newest first: tap one to replay it."""

    def __init__(self, app) -> None:
        super().__init__(app)
        self.finished = app.saves.finished()

    def title(self) -> str:
        return _("Finished matches")

    def rows(self) -> list[Row]:
        return [
            Row(
                lambda e=entry: _describe(e),
                lambda e=entry: self.app.push(ReplayScene(self.app, e)),
                f"finished {index}",
            )
            for index, entry in enumerate(self.finished)
        ]


def _describe(entry: Finished) -> tuple[str, str]:
    """A finished match in two lines: the game and its result; when it ended, who played and
    how long it took."""
    match = entry.match
    result = match.state.result()
    outcome = result_headline(result, seat_names(match.state)) if result else ""
    return (
        f"{variant_title(match.variant.name)} — {outcome}",
        " · ".join((when_text(entry.saved_at), opponents_text(match.seats), moves_text(match))),
    )


class ReplayScene(Scene):
    """Step through a finished match, and export its move list."""

    def __init__(self, app, entry: Finished) -> None:
        super().__init__(app)
        self.entry = entry
        self.states = entry.match.states
        self.step = len(self.states) - 1
        self.notice = ""
        self.preview = Preview(app, self.states[self.step])
        self.view = view_for(entry.match.variant.name, self.preview)

    def layout(self, size: tuple[int, int]) -> None:
        self.u = u = theme.unit(size)
        width, height = size
        panel = width * 3 // 10
        self.panel = pygame.Rect(width - panel, 0, panel, height)
        self.view.layout(
            pygame.Rect(u, u, width - panel - 2 * u, height - 2 * u),
            pygame.Rect(self.panel.x + u, 7 * u, panel - 2 * u, 8 * u),
        )
        x, w, h = self.panel.x + u, (panel - 5 * u) // 4, 3 * u
        y = 17 * u
        controls = [
            ("|<", lambda: self.go(0), "start"),
            ("<", lambda: self.go(self.step - 1), "previous"),
            (">", lambda: self.go(self.step + 1), "next"),
            (">|", lambda: self.go(len(self.states) - 1), "end"),
        ]
        targets = [
            button(
                pygame.Rect(x + k * (w + u), y, w, h),
                lambda t=text: t,
                action,
                self.palette,
                name=name,
            )
            for k, (text, action, name) in enumerate(controls)
        ]
        targets.append(
            button(
                pygame.Rect(x, y + h + u, panel - 2 * u, h),
                lambda: _("Export the move list"),
                self.export,
                self.palette,
                name="export",
            )
        )
        targets.append(
            button(
                pygame.Rect(x, height - 4 * u, panel - 2 * u, h),
                lambda: _("Back"),
                self.app.pop,
                self.palette,
                name="back",
            )
        )
        self.set_targets(targets)

    def go(self, step: int) -> None:
        step = max(0, min(len(self.states) - 1, step))
        if step == self.step:
            self.gentle_cue()
            return
        self.step = step
        self.preview.state = self.states[step]

    def export(self) -> None:
        match = self.entry.match
        name = self.entry.path.stem + (".pdn" if match.variant.game == "dama" else ".txt")
        path = self.app.paths.data / "exports" / name
        try:
            atomic_write(path, export_text(match, self.entry.saved_at).encode("utf-8"))
        except OSError as error:
            self.notice = _("The move list could not be saved: {error}").format(error=error)
            return
        self.notice = _("Saved as {path}").format(path=path)

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(self.palette.background)
        pygame.draw.rect(surface, self.palette.panel, self.panel)
        self.view.draw(surface)
        u, x = self.u, self.panel.x + self.u
        match = self.entry.match
        title = theme.text(variant_title(match.variant.name), 2 * u, self.palette.accent, True)
        surface.blit(title, (x, u))
        actions = match.record.actions
        where = _("Move {n} of {total}").format(n=self.step, total=len(actions))
        if self.step:
            where += f": {actions[self.step - 1]}"
        surface.blit(theme.text(where, round(1.2 * u), self.palette.text, True), (x, 4 * u))
        result = match.state.result()
        if result and self.step == len(self.states) - 1:
            surface.blit(
                theme.text(reason_text(result.reason), u, self.palette.muted), (x, 5 * u + u // 2)
            )
        if self.notice:
            body = theme.font(round(0.7 * u))
            surface.blit(body.render(self.notice, True, self.palette.muted), (x, 17 * u + 9 * u))
        self.draw_targets(surface)
