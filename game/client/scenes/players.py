"""The people who play at this machine: the list, each one's record, a new player, and
choosing who sits at a seat in the setup."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

import pygame

from game.client import theme
from game.client.scene import Scene
from game.client.scenes.entry import TextEntryScene
from game.client.scenes.menu import Item, MenuScene, item
from game.client.scenes.seats import level_label
from game.client.widgets import button, fixed, segment
from game.i18n import _
from game.levels import LADDER
from game.names import variant_title
from game.rules import VARIANTS
from game.session.profiles import Profile, Tally
from game.session.saves import plain

if TYPE_CHECKING:
    from game.client.app import App


def add_player(app: App, then: Callable[[str], None]) -> None:
    """Ask for a new player's name, keep the profile, and hand the name on."""

    def done(name: str) -> None:
        try:
            app.profiles.add(name)
        except (OSError, ValueError) as error:
            why = plain(error) if isinstance(error, OSError) else str(error)
            app.push(PlayersScene(app, _("Not saved: {why}").format(why=why)))
            return
        then(name)

    app.push(TextEntryScene(app, _("The new player's name"), done))


class PlayersScene(MenuScene):
    """Everyone who plays here; each opens their record."""

    columns = 2

    def __init__(self, app: App, notice: str = "") -> None:
        self.notice = notice
        super().__init__(app)

    def title(self) -> str:
        return _("Players")

    def subtitle(self) -> str:
        return self.notice or _("Each player's matches here, game by game")

    def items(self) -> list[Item]:
        profiles = self.app.profiles
        entries = [
            item(fixed(name), partial(self._open, name), f"player {name}")
            for name in profiles.names()
        ]
        entries.append(item(lambda: _("New player"), self._new, "new player",
                            lambda: not profiles.full()))  # fmt: skip
        entries.append(item(lambda: _("Back"), self.app.pop, "back"))
        return entries

    def _open(self, name: str) -> None:
        profile = self.app.profiles.get(name)
        if profile is not None:
            self.app.push(ProfileScene(self.app, profile))

    def _new(self) -> None:
        add_player(self.app, lambda name: self.app.replace(PlayersScene(self.app)))


def tally_text(tally: Tally) -> str:
    if not tally.played:
        return "–"
    return _("{won} won, {lost} lost, {drawn} drawn").format(
        won=tally.won, lost=tally.lost, drawn=tally.drawn
    )


def computer_tally(profile: Profile, variant: str) -> Tally:
    """A player's matches at ``variant`` against the computer, every level together."""
    out = Tally()
    for level in LADDER:
        tally = profile.tally(variant, level)
        out.played += tally.played
        out.won += tally.won
        out.lost += tally.lost
        out.drawn += tally.drawn
    return out


def rating_text(profile: Profile, variant: str) -> str:
    """A player's own rating at ``variant`` and the computer's level for them next."""
    standing = profile.standings.get(variant)
    if standing is None:
        return "–"
    return _("about {rating}, next {level}").format(
        rating=int(round(standing.rating, -1)), level=level_label(standing.level)
    )


class ProfileScene(Scene):
    """One player's record: per game, their own rating and the level the computer plays
    them at next, the matches against the computer and against people; the best Numeri
    score and the fastest Ausgeblockt win; and their adaptive opponent, on or off."""

    def __init__(self, app: App, profile: Profile) -> None:
        super().__init__(app)
        self.profile = profile

    def layout(self, size: tuple[int, int]) -> None:
        self.u = u = theme.unit(size)
        back = pygame.Rect(0, 0, 16 * u, theme.row(u, 3.4))
        back.bottomleft = (size[0] // 2 + u // 2, size[1] - round(1.6 * u))
        adaptive = back.move(-back.width - u, 0)
        self.set_targets([
            segment(adaptive, lambda: _("Adaptive level"), lambda: self.profile.adaptive,
                    self._flip_adaptive, self.palette, "adaptive"),
            button(back, lambda: _("Back"), self.app.pop, self.palette, name="back"),
        ])  # fmt: skip

    def _flip_adaptive(self) -> None:
        """The computer's level follows this player's rating, or stays as chosen."""
        with contextlib.suppress(OSError):  # kept in memory; the next record saves it
            self.app.profiles.set_adaptive(self.profile.name, not self.profile.adaptive)

    def draw(self, surface: pygame.Surface) -> None:
        palette, u = self.palette, self.u
        width = surface.get_width()
        surface.fill(palette.background)
        title = theme.fitted(self.profile.name, 4 * u, palette.accent, width - 4 * u, True)
        surface.blit(title, title.get_rect(midtop=(width // 2, 2 * u)))
        total = self.profile.total()
        summary = _("{played} matches: {record}").format(played=total.played,
                                                         record=tally_text(total))  # fmt: skip
        line = theme.text(summary, round(1.2 * u), palette.text)
        surface.blit(line, line.get_rect(midtop=(width // 2, round(7.5 * u))))
        self._draw_table(surface, pygame.Rect(2 * u, 11 * u, width - 4 * u, 0))
        bests = []
        if self.profile.best_numeri is not None:
            bests.append(_("Best Numeri score: {n}").format(n=self.profile.best_numeri))
        if self.profile.fastest_ausgeblockt is not None:
            bests.append(_("Fastest Ausgeblockt win: {n} turns").format(
                n=self.profile.fastest_ausgeblockt))  # fmt: skip
        y = surface.get_height() - round(9.5 * u)
        for text in bests:
            words = theme.text(text, round(1.1 * u), palette.accent, True)
            surface.blit(words, words.get_rect(midtop=(width // 2, y)))
            y += round(1.5 * u)
        self.draw_targets(surface)

    def _draw_table(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        """A row per game: the player's rating, their matches against the computer and
        against people; only the games played appear."""
        palette, u = self.palette, self.u
        size = round(0.95 * u) if area.width >= 60 * u else round(0.75 * u)
        first = min(14 * u, area.width // 4)
        column = (area.width - first) // 3
        y = area.y
        headings = [_("Rating"), _("The computer"), _("People")]
        for n, heading in enumerate(headings):
            words = theme.text(heading, size, palette.muted, True)
            surface.blit(words, (area.x + first + n * column, y))
        y += round(1.8 * size)
        played = [v for v in VARIANTS if v in self.profile.records]
        if not played:
            words = theme.text(_("No matches yet"), size, palette.muted)
            surface.blit(words, (area.x, y))
        font = theme.font(size)
        for variant in played:
            surface.blit(theme.fitted(variant_title(variant), size, palette.text, first - u, True),
                         (area.x, y))  # fmt: skip
            lines = 1
            texts = (rating_text(self.profile, variant),
                     tally_text(computer_tally(self.profile, variant)),
                     tally_text(self.profile.tally(variant, "people")))  # fmt: skip
            for n, text in enumerate(texts):
                # in two lines where one would shrink (a narrow, turned screen)
                wrapped = theme.wrap(text, font, column - u // 2)[:2]
                for row, line in enumerate(wrapped):
                    words = theme.fitted(line, size, palette.text, column - u // 2)
                    surface.blit(
                        words, (area.x + first + n * column, y + row * font.get_linesize())
                    )
                lines = max(lines, len(wrapped))
            y += round(1.6 * size) + (lines - 1) * font.get_linesize()


class PickPlayerScene(MenuScene):
    """Who plays a seat: a guest, one of the players here, or a new one."""

    columns = 2

    def __init__(self, app: App, seat_name: str, taken: set[str],
                 choose: Callable[[str], None]) -> None:  # fmt: skip
        self.seat_name, self.taken, self.choose = seat_name, taken, choose
        super().__init__(app)

    def title(self) -> str:
        return _("Who plays {seat}?").format(seat=self.seat_name)

    def _free(self, name: str) -> bool:
        """Whether ``name`` plays no other seat of this match yet."""
        return name not in self.taken

    def items(self) -> list[Item]:
        entries = [item(lambda: _("A guest"), lambda: self._pick(""), "guest")]
        entries += [
            item(fixed(name), partial(self._pick, name), f"player {name}",
                 partial(self._free, name))
            for name in self.app.profiles.names()
        ]  # fmt: skip
        entries.append(item(lambda: _("New player"), self._new, "new player",
                            lambda: not self.app.profiles.full()))  # fmt: skip
        entries.append(item(lambda: _("Back"), self.app.pop, "back"))
        return entries

    def _pick(self, name: str) -> None:
        self.app.pop()
        self.choose(name)

    def _new(self) -> None:
        add_player(self.app, self._pick)
