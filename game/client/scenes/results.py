"""The end of a match: who won and why, the Numeri scores pawn by pawn, the Ausgeblockt
winning chain, and the way to a rematch."""

from __future__ import annotations

import logging
import random
from datetime import date
from typing import TYPE_CHECKING

import pygame

from game.client import theme
from game.client.navigator import Screen, make
from game.client.particles import Particles
from game.client.scene import Scene
from game.client.scenes.highscores import ask_names
from game.client.scenes.picture import draw_position
from game.client.scenes.seats import rating_change
from game.client.turns import last_turn
from game.client.widgets import button
from game.i18n import _, ngettext
from game.names import reason_text, result_headline, seat_names, variant_title
from game.rules import Result
from game.rules.numeri import OFF, PAWNS, NumeriState, pawn_score
from game.session.adaptive import Standing
from game.session.match import Match
from game.session.profiles import opposition
from game.session.seats import Seat, SeatKind

if TYPE_CHECKING:
    from game.client.app import App

log = logging.getLogger(__name__)

CONFETTI = 260
"""Scraps of paper over a won match."""
ASK_AFTER = 1.5
"""Seconds the result shows before a person whose result makes the board is asked for a
name."""


def _count_for_players(app: App, match: Match) -> list[str]:
    """The match in the record of each player who sat under their name; for each whose
    adaptive level it moved, a line saying how their rating went (:func:`rating_change`)."""
    variant = match.variant.name
    people = {
        seat: (who.name, _standing(app, who.name, variant))
        for seat, who in enumerate(match.seats)
        if who.is_human and who.name
    }
    try:
        app.profiles.record(match)
    except OSError as error:  # kept in memory; the next save writes it
        log.error("players' records not saved: %s", error)
    lines = []
    for seat, (name, was) in people.items():
        profile = app.profiles.get(name)
        now = profile.standings.get(variant) if profile is not None else None
        if profile is None or not profile.adaptive or now is None or now == was:
            continue
        first = Standing.starting(variant, opposition(match, seat))  # their first match
        lines.append(rating_change(name, (was or first).rating, now))
    return lines


def _standing(app: App, name: str, variant: str) -> Standing | None:
    profile = app.profiles.get(name)
    return profile.standings.get(variant) if profile is not None else None


class ResultsScene(Scene):
    """The end of a match; with ``scored`` (a match at this screen), a person whose result
    makes the high-score board is then asked for a name."""

    draws_changes_only = True

    def __init__(self, app: App, match: Match, scored: bool = False) -> None:
        super().__init__(app)
        self.match = match
        result = match.state.result()
        assert result is not None
        self.result: Result = result
        self.app.sound.play("win" if result.winners() else "move")
        self.qualifiers = app.highscores.qualifiers(match, date.today()) if scored else []
        self.ratings = _count_for_players(app, match) if scored else []
        """A line for each person here whose adaptive level the match moved."""
        self._ask_in = ASK_AFTER
        self.confetti = Particles(enabled=not app.settings.reduce_motion)
        self._still: pygame.Surface | None = None
        """The screen without the confetti, to put back where a scrap was."""
        self._still_look: tuple[object, ...] | None = None
        self._scraps: list[pygame.Rect] = []
        """Where the confetti was drawn last frame."""
        self._updated: list[pygame.Rect] | None = None
        here = {seat for seat, who in enumerate(match.seats) if who.is_human}
        winners = set(result.winners())
        self._celebrate = (
            bool(winners) and len(winners) < len(match.seats) and (not here or bool(winners & here))
        )
        """A win of someone at this screen (or of anyone, when nobody here played): confetti
        over the screen once it is laid out — never over "You lost"."""

    def update(self, dt: float) -> None:
        super().update(dt)
        self.confetti.update(dt * self.app.settings.animation_speed)
        if self._celebrate:
            self._celebrate = False
            colours = [self.palette.accent, *self.palette.seats, (255, 255, 255)]
            self.confetti.confetti(pygame.Rect((0, 0), self.app.size), colours, CONFETTI,
                                   max(6.0, self.u * 0.7))  # fmt: skip
        if self.qualifiers and self.app.scene is self:
            self._ask_in -= dt
            if self._ask_in <= 0:
                qualifiers, self.qualifiers = self.qualifiers, []
                ask_names(self.app, self.match, qualifiers)

    @property
    def animating(self) -> bool:
        return super().animating or bool(self.qualifiers) or self.confetti.active

    def layout(self, size: tuple[int, int]) -> None:
        self._still_look = None
        self.u = u = theme.unit(size)
        width, height = size
        self.portrait = width < height
        gap = max(u // 2, 4 * u - theme.row(u))  # between the buttons, as 4 units a row
        below = round(1.5 * u) * len(self.ratings)  # a line a rating, under the reason
        if self.portrait:
            side = min(width - 4 * u, height - 30 * u - below)
            self.picture_at = ((width - side) // 2, 12 * u + below)
            buttons_at = (2 * u, 13 * u + below + side)
        else:
            side = min(height - 12 * u - below, width // 2)
            self.picture_at = (2 * u, 10 * u + below)
            buttons_at = (width - 16 * u, height - u - 3 * theme.row(u) - 2 * gap)
        final = self.match.state.last_position
        shown = len(self.match.record.actions)
        self.picture = draw_position(self.app, final, (side, side), last_turn(self.match, shown))
        row = pygame.Rect(*buttons_at, 14 * u, theme.row(u))
        step = (15 * u, 0) if self.portrait else (0, row.height + gap)
        entries = [
            (lambda: _("Rematch"), self.rematch, "rematch"),
            (lambda: _("Review the game"), self.review, "review"),
            (lambda: _("Title screen"), self.to_title, "title"),
        ]
        if self.portrait:
            row.width = (width - 4 * u - 2 * u) // 3
            step = (row.width + u, 0)
        self.targets = [
            button(row.move(k * step[0], k * step[1]), label, action, self.palette, name=name)
            for k, (label, action, name) in enumerate(entries)
        ]

    def headline(self) -> str:
        """The result as the people at this screen read it: "You won" when one person
        here played, else who won."""
        names = seat_names(self.match.state)
        here = [i for i, seat in enumerate(self.match.seats) if seat.is_human]
        winners = self.result.winners()
        if len(here) != 1:
            return result_headline(self.result, names)
        (mine,) = here
        if not winners or len(winners) == len(self.match.seats):
            return _("Draw")
        if mine not in winners:
            return _("You lost")
        return _("You won") if len(winners) == 1 else _("You share the win")

    def detail(self) -> str:
        """Who played what, when the headline speaks of "you"; the reason the game ended."""
        reason = reason_text(self.result.reason)
        here = [i for i, seat in enumerate(self.match.seats) if seat.is_human]
        if len(here) == 1 and self.result.winners():
            names = seat_names(self.match.state)
            reason = f"{result_headline(self.result, names)} — {reason}"
        hints = len(self.match.hints)
        if hints:
            used = ngettext("{n} hint used", "{n} hints used", hints).format(n=hints)
            reason = f"{reason} · {used}"
        return reason

    def review(self) -> None:
        self.app.push(make(Screen.REVIEW_MATCH, self.app, self.match))

    def rematch(self) -> None:
        match = Match.new(
            self.match.variant, self._rematch_seats(), random.SystemRandom().getrandbits(62)
        )
        self.app.reset(make(Screen.TITLE, self.app))
        self.app.push(make(Screen.MATCH, self.app, match))

    def _rematch_seats(self) -> list[Seat]:
        """The same seats — the computer at the level the person's adaptive opponent now
        calls for, the one the results said, where this match moved it."""
        seats = list(self.match.seats)
        if not self.ratings:
            return seats
        people = [seat.name for seat in seats if seat.is_human and seat.name]
        profile = self.app.profiles.get(people[0]) if len(people) == 1 else None
        level = profile.next_level(self.match.variant.name) if profile is not None else None
        if level is None:
            return seats
        return [Seat(SeatKind.COMPUTER, level) if seat.level else seat for seat in seats]

    def to_title(self) -> None:
        self.app.reset(make(Screen.TITLE, self.app))

    def back(self) -> None:
        self.to_title()

    def invalidate(self) -> None:
        self._still_look = None

    def discard(self) -> None:
        self._still = None

    def updated_areas(self) -> list[pygame.Rect] | None:
        return self._updated

    def draw(self, surface: pygame.Surface) -> None:
        """The screen is kept without the confetti: each frame puts it back where the scraps
        were and draws them where they are, and only those places are shown (260 scraps
        at 4K are a sixth of the screen; everything again would be a whole frame)."""
        look = (surface.get_size(), self.inputs, self.cue > 0, self.targets_look())
        if self._still is None or self._still.get_size() != surface.get_size():
            self._still = pygame.Surface(surface.get_size()).convert(surface)
        if look != self._still_look or surface is not self.app.screen:
            self._still_look = look if surface is self.app.screen else None
            self.draw_still(self._still)
            surface.blit(self._still, (0, 0))
            self._scraps = self._on_screen(self.confetti.draw(surface), surface)
            self._updated = None
            return
        for scrap in self._scraps:
            surface.blit(self._still, scrap, scrap)
        scraps = self._on_screen(self.confetti.draw(surface), surface)
        self._updated, self._scraps = self._scraps + scraps, scraps

    @staticmethod
    def _on_screen(scraps: list[pygame.Rect], surface: pygame.Surface) -> list[pygame.Rect]:
        """The scraps' places on the screen (those still above it fall in later)."""
        screen = surface.get_rect()
        return [scrap.clip(screen) for scrap in scraps if scrap.colliderect(screen)]

    def draw_whole(self, surface: pygame.Surface) -> None:
        self.draw_still(surface)
        self.confetti.draw(surface)

    def draw_still(self, surface: pygame.Surface) -> None:
        """Everything but the confetti."""
        surface.fill(self.palette.background)
        u = self.u
        title = theme.text(variant_title(self.match.variant.name), 2 * u, self.palette.muted)
        surface.blit(title, (2 * u, u))
        headline = theme.text(self.headline(), 3 * u, self.palette.accent, True)
        surface.blit(headline, (2 * u, 4 * u))
        reason = theme.text(self.detail(), round(1.2 * u), self.palette.text)
        surface.blit(reason, (2 * u, 8 * u))
        for n, line in enumerate(self.ratings, start=1):
            rated = theme.text(line, round(1.2 * u), self.palette.muted)
            surface.blit(rated, (2 * u, 8 * u + n * round(1.5 * u)))
        surface.blit(self.picture, self.picture_at)
        final = self.match.state.last_position
        if isinstance(final, NumeriState):
            names = seat_names(self.match.state)
            if self.portrait:
                x, y = 2 * u, self.picture_at[1] + self.picture.get_height() + 5 * u
            else:
                x, y = 4 * u + self.picture.get_width(), self.picture_at[1]
            self._draw_scores(surface, final, names, x, y)
        self.draw_targets(surface)

    def _draw_scores(
        self, surface: pygame.Surface, state: NumeriState, names: list[str], x: int, y: int
    ) -> None:
        u = self.u
        body = theme.font(u)
        surface.blit(body.render(_("Pawn"), True, self.palette.muted), (x + 1.5 * u, y))
        for col, text in enumerate([*(str(p) for p in PAWNS), _("Total")], start=1):
            surface.blit(body.render(text, True, self.palette.muted), (x + 7 * u + col * 4 * u, y))
        for seat, own in enumerate(state.pawns):
            y += round(1.6 * u)
            pygame.draw.circle(surface, self.palette.seats[seat], (x + u // 2, y + u // 2), u // 2)
            surface.blit(body.render(names[seat], True, self.palette.text), (x + 1.5 * u, y))
            cells = [pawn_score(state.track, p, at) for p, at in zip(PAWNS, own, strict=True)]
            for col, points in enumerate(cells, start=1):
                where = "—" if own[col - 1] == OFF else str(own[col - 1])
                label = f"{points:+d}" if points else "0"
                surface.blit(
                    body.render(label, True, self.palette.text), (x + 7 * u + col * 4 * u, y)
                )
                small = theme.font(theme.small(0.7 * u)).render(where, True, self.palette.muted)
                surface.blit(small, (x + 7 * u + col * 4 * u, y + u))
            total = body.render(str(sum(cells)), True, self.palette.accent)
            surface.blit(total, (x + 7 * u + 6 * 4 * u, y))
            y += u // 2
