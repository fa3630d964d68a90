"""The high-score board: the best results of the day and of all time at this table, a game
at a time; and asking a person for their name after a result that makes it."""

from __future__ import annotations

from datetime import date

import pygame

from game.client import theme
from game.client.scene import Scene
from game.client.scenes.entry import TextEntryScene
from game.client.widgets import Target, button, segment
from game.i18n import _, ngettext
from game.names import seat_names, variant_title
from game.rules import VARIANTS
from game.session.highscores import PLACES, Qualifier, Score, measure
from game.session.saves import plain


def value_text(variant: str, value: int) -> str:
    """A board's number as it reads: "212 points", "14 turns"."""
    if measure(variant) == "points":
        return ngettext("{n} point", "{n} points", value).format(n=value)
    return ngettext("{n} turn", "{n} turns", value).format(n=value)


def what_counts(variant: str) -> str:
    """The line under a board that says what makes it."""
    if variant == "numeri":
        return _("Most points at the end of a match")
    if variant == "ausgeblockt":
        return _("Fewest turns to win")
    return _("Fewest turns to beat the computer on hard")


class HighScoresScene(Scene):
    """One game's boards side by side (today, all time), the games to pick above them."""

    def __init__(self, app, variant: str | None = None, new: Score | None = None,
                 notice: str = "") -> None:  # fmt: skip
        super().__init__(app)
        self.variant = variant or self._first_with_scores()
        self.new = new
        """The result just entered, lit on the boards."""
        self.notice = notice

    def _first_with_scores(self) -> str:
        scores = self.app.highscores
        return next((v for v in self.games() if scores.all_time(v)), self.games()[0])

    def games(self) -> list[str]:
        kiosk = self.app.kiosk
        return [v for v in VARIANTS if kiosk is None or v in kiosk.games]

    def layout(self, size: tuple[int, int]) -> None:
        self.u = u = theme.unit(size)
        games = self.games()
        width = min(size[0] - 4 * u, 70 * u)
        left = (size[0] - width) // 2
        per_row = 4 if width >= 48 * u else 2
        gap = max(2, u // 4)
        each = (width - gap * (per_row - 1)) // per_row
        height = round(3 * u)
        targets: list[Target] = []
        for n, name in enumerate(games):
            row, column = divmod(n, per_row)
            rect = pygame.Rect(left + column * (each + gap), 8 * u + row * (height + gap),
                               each, height)  # fmt: skip
            targets.append(segment(rect, lambda v=name: variant_title(v),
                                   lambda v=name: self.variant == v,
                                   lambda v=name: self._show(v), self.palette, name))  # fmt: skip
        rows = -(-len(games) // per_row)
        self.boards_top = 8 * u + rows * (height + gap) + u
        back = pygame.Rect((size[0] - 16 * u) // 2, size[1] - 5 * u, 16 * u, round(3.4 * u))
        targets.append(button(back, lambda: _("Back"), self.app.pop, self.palette, name="back"))
        self.set_targets(targets)

    def _show(self, variant: str) -> None:
        self.variant = variant

    def draw(self, surface: pygame.Surface) -> None:
        palette, u = self.palette, self.u
        width = surface.get_width()
        surface.fill(palette.background)
        title = theme.text(_("High scores"), 4 * u, palette.accent, True)
        surface.blit(title, title.get_rect(midtop=(width // 2, 2 * u)))
        counts = theme.text(what_counts(self.variant), round(1.1 * u), palette.text)
        surface.blit(counts, counts.get_rect(midtop=(width // 2, self.boards_top)))
        room = min(width - 4 * u, 60 * u)
        draw_boards(surface, self, self.variant, pygame.Rect(
            (width - room) // 2, self.boards_top + 2 * u, room,
            surface.get_height() - self.boards_top - 8 * u), self.new)  # fmt: skip
        if self.notice:
            line = theme.text(self.notice, round(0.9 * u), palette.warning)
            bottom = surface.get_height() - round(5.5 * u)
            surface.blit(line, line.get_rect(midbottom=(width // 2, bottom)))
        self.draw_targets(surface)


def draw_boards(
    surface: pygame.Surface, scene: Scene, variant: str, area: pygame.Rect,
    new: Score | None = None,
) -> None:  # fmt: skip
    """The day's board and the all-time board of ``variant`` side by side in ``area`` (one
    above the other when it is narrow); ``new`` lit."""
    palette = scene.palette
    u = theme.unit(surface.get_size())
    scores = scene.app.highscores
    boards = ((_("Today"), scores.today(variant, date.today())),
              (_("All time"), scores.all_time(variant)))  # fmt: skip
    side_by_side = area.width >= 40 * u
    column = (area.width - 3 * u) // 2 if side_by_side else area.width
    size = round(1.3 * u) if side_by_side else u
    line = round(1.45 * size)
    for index, (heading, board) in enumerate(boards):
        if side_by_side:
            x, y = area.x + index * (column + 3 * u), area.y
        else:
            x, y = area.x, area.y + index * (PLACES // 2 + 3) * line
        words = theme.text(heading, round(1.25 * size), palette.accent, True)
        surface.blit(words, (x, y))
        y += round(1.8 * size)
        if not board:
            surface.blit(theme.text(_("No results yet"), size, palette.muted), (x, y))
            continue
        rows = board if side_by_side else board[: PLACES // 2]
        for place, score in enumerate(rows, start=1):
            lit = score == new
            ink = palette.accent if lit else palette.text
            if lit:
                band = pygame.Rect(x - u // 2, y - size // 6, column + u // 2, line)
                pygame.draw.rect(surface, palette.panel, band, border_radius=u // 3)
            surface.blit(theme.text(f"{place}.", size, palette.muted), (x, y))
            value = theme.text(value_text(variant, score.value), size, ink, lit)
            name_room = column - 3 * size - value.get_width() - u
            surface.blit(theme.fitted(score.name, size, ink, name_room, lit), (x + 3 * size, y))
            surface.blit(value, value.get_rect(topright=(x + column - u // 2, y)))
            y += line


def ask_names(app, match, qualifiers: list[Qualifier]) -> None:
    """One after the other, the name of each person whose result makes the board; then the
    board with the new result lit."""
    if not qualifiers:
        return
    first, rest = qualifiers[0], qualifiers[1:]
    names = seat_names(match.state)
    people = sum(1 for seat in match.seats if seat.is_human)
    if people > 1:
        prompt = _("A new high score for {seat}! Name:").format(seat=names[first.seat])
        text = match.seats[first.seat].name
    else:
        prompt = _("A new high score! Your name:")
        text = match.seats[first.seat].name or app.settings.player_name

    def done(name: str) -> None:
        today = date.today()
        notice = ""
        try:
            app.highscores.add(first, name, today)
        except OSError as error:
            notice = _("Not saved: {why}").format(why=plain(error))
        app.push(HighScoresScene(app, first.variant, Score(name, first.value, today.isoformat()),
                                 notice))  # fmt: skip
        ask_names(app, match, rest)

    app.push(TextEntryScene(app, prompt, done, text=text))
