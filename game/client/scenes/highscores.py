"""The high-score board: the best results of the day and of all time at this table, a game
at a time; and asking a person for their name after a result that makes it."""

from __future__ import annotations

import string
from collections.abc import Callable
from datetime import date
from functools import partial
from typing import TYPE_CHECKING

import pygame

from game.client import theme
from game.client.scene import Scene
from game.client.scenes.entry import TextEntryScene
from game.client.widgets import Target, button, segment
from game.i18n import _, ngettext
from game.names import seat_names, variant_title
from game.rules import VARIANTS, HighScore
from game.session.highscores import PLACES, Qualifier, Score, measure
from game.session.match import Match
from game.session.saves import plain

if TYPE_CHECKING:
    from game.client.app import App

INITIALS = 3
"""Letters of a name where a kiosk takes initials only."""


def value_text(variant: str, value: int) -> str:
    """A board's number as it reads: "212 points", "14 turns"."""
    if measure(variant) == "points":
        return ngettext("{n} point", "{n} points", value).format(n=value)
    return ngettext("{n} turn", "{n} turns", value).format(n=value)


def what_counts(variant: str) -> str:
    """The line under a board that says what makes it."""
    spec = VARIANTS.get(variant)
    kind = spec.high_score if spec else HighScore.FEWEST_TURNS_AGAINST_HARD
    return {
        HighScore.MOST_POINTS: _("Most points at the end of a match"),
        HighScore.FEWEST_TURNS: _("Fewest turns to win"),
        HighScore.FEWEST_TURNS_AGAINST_HARD: _("Fewest turns to beat the computer on hard"),
    }[kind]


class HighScoresScene(Scene):
    """One game's boards side by side (today, all time), the games to pick above them."""

    def __init__(self, app: App, variant: str | None = None, new: Score | None = None,
                 notice: str = "") -> None:  # fmt: skip
        super().__init__(app)
        self.variant = variant or first_with_scores(app)
        self.new = new
        """The result just entered, lit on the boards."""
        self.notice = notice

    def layout(self, size: tuple[int, int]) -> None:
        self.u = u = theme.unit(size)
        width = min(size[0] - 4 * u, 70 * u)
        area = pygame.Rect((size[0] - width) // 2, 8 * u, width, 0)
        targets, bottom = game_choices(self, area, u, lambda: self.variant, self._show)
        self.boards_top = bottom + u
        back = pygame.Rect(0, 0, 16 * u, theme.row(u, 3.4))
        back.midbottom = (size[0] // 2, size[1] - round(1.6 * u))
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


def board_games(app: App) -> list[str]:
    """The games with a board here: a kiosk's allowed games, or all of them."""
    kiosk = app.kiosk
    return [v for v in VARIANTS if kiosk is None or v in kiosk.games]


def first_with_scores(app: App) -> str:
    """The first of :func:`board_games` with a result on its boards (or the first)."""
    games = board_games(app)
    return next((v for v in games if app.highscores.all_time(v)), games[0])


def game_choices(
    scene: Scene, area: pygame.Rect, u: int, chosen: Callable[[], str],
    choose: Callable[[str], None],
) -> tuple[list[Target], int]:  # fmt: skip
    """The games of :func:`board_games` as a segmented choice across ``area`` from its top
    (four to a row, two when narrow, ``u`` the layout unit), each named after its variant;
    and where they end."""
    games = board_games(scene.app)
    per_row = 4 if area.width >= 48 * u else 2
    gap = max(2, u // 4)
    each = (area.width - gap * (per_row - 1)) // per_row
    height = theme.row(u)
    targets: list[Target] = []
    for n, name in enumerate(games):
        row, column = divmod(n, per_row)
        rect = pygame.Rect(area.x + column * (each + gap), area.y + row * (height + gap),
                           each, height)  # fmt: skip
        targets.append(segment(rect, partial(variant_title, name), _is_chosen(chosen, name),
                               partial(choose, name), scene.palette, name))  # fmt: skip
    rows = -(-len(games) // per_row)
    return targets, area.y + rows * (height + gap)


def _is_chosen(chosen: Callable[[], str], name: str) -> Callable[[], bool]:
    """Whether ``name`` is the game chosen now (asked at each draw)."""
    return lambda: chosen() == name


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


def ask_names(app: App, match: Match, qualifiers: list[Qualifier]) -> None:
    """One after the other, the name of each person whose result makes the board; then the
    board with the new result lit."""
    if not qualifiers:
        return
    first, rest = qualifiers[0], qualifiers[1:]

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

    if initials_only(app):
        app.push(_initials_entry(app, match, first, done))
    else:
        app.push(_name_entry(app, match, first, done))


def initials_only(app: App) -> bool:
    """Whether this kiosk's boards take initials only (nobody's full name on a public
    screen); never off a kiosk."""
    return app.kiosk is not None and app.kiosk.initials_only


def _name_entry(
    app: App, match: Match, first: Qualifier, done: Callable[[str], None]
) -> TextEntryScene:
    """The name asked for ``first``'s result, offered as the seat's or the player's."""
    if _people(match) > 1:
        prompt = _("A new high score for {seat}! Name:").format(seat=_seat(match, first))
        text = match.seats[first.seat].name
    else:
        prompt = _("A new high score! Your name:")
        text = match.seats[first.seat].name or app.settings.player_name
    return TextEntryScene(app, prompt, done, text=text)


def _initials_entry(
    app: App, match: Match, first: Qualifier, done: Callable[[str], None]
) -> TextEntryScene:
    """Up to three letters A to Z for ``first``'s result, as on an arcade cabinet; nothing
    offered (on a kiosk, a name offered would be an earlier visitor's)."""
    if _people(match) > 1:
        prompt = _("A new high score for {seat}! Initials:").format(seat=_seat(match, first))
    else:
        prompt = _("A new high score! Your initials:")
    return TextEntryScene(app, prompt, done, limit=INITIALS, charset=string.ascii_uppercase)


def _people(match: Match) -> int:
    return sum(1 for seat in match.seats if seat.is_human)


def _seat(match: Match, qualifier: Qualifier) -> str:
    return seat_names(match.state)[qualifier.seat]
