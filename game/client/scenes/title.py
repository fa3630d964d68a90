"""The title screen: one-tap *Play*, the matches to resume, and the way to everything else."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pygame

from game import i18n
from game.client.kiosk_watch import kiosk_of
from game.client.navigator import Screen, make
from game.client.redraw import Redraw, draw_clipped
from game.client.scenes.menu import Item, MenuScene, item
from game.client.scenes.saved import row_targets, unfinished_lines, unfinished_row
from game.client.scenes.seats import level_label, main_player, opponent_level, start_match
from game.client.title_backdrop import TitleBackdrop
from game.client.widgets import Target, two_lines
from game.i18n import _
from game.names import variant_title
from game.rules import VARIANTS, variant
from game.session.saves import Shelf, Unfinished
from game.session.seats import Seat, SeatKind

if TYPE_CHECKING:
    from game.client.app import App
    from game.client.scenes.saved import Row


class TitleScene(MenuScene):
    """The first screen: the games' pieces and dice drifting behind the name and the big
    choices (*Play* first), with the matches to resume."""

    RESUME_ROWS = 2  # with more unfinished matches, one entry opens their list
    fps = 30  # the drifting pieces need no more
    draws_changes_only = True

    def __init__(self, app: App, notice: str | None = None) -> None:
        self._redraw = Redraw()
        self._updated: list[pygame.Rect] | None = None
        self.backdrop = TitleBackdrop(moving=not app.settings.reduce_motion)
        self.shelf: Shelf = app.saves.unfinished(limit=self.RESUME_ROWS)
        self.notice = notice or self.shelf.problem or _set_aside_notice(app) or ""
        super().__init__(app)

    def subtitle(self) -> str:
        return self.notice or _("The classic table games")

    def update(self, dt: float) -> None:
        super().update(dt)
        self.backdrop.update(dt * self.app.settings.animation_speed)

    @property
    def animating(self) -> bool:
        return super().animating or self.backdrop.moving

    def draw_backdrop(self, surface: pygame.Surface) -> None:
        self.backdrop.draw(surface, self.u, self.palette.seats)

    def invalidate(self) -> None:
        self._redraw.invalidate()

    def updated_areas(self) -> list[pygame.Rect] | None:
        return self._updated

    def draw_whole(self, surface: pygame.Surface) -> None:
        super().draw(surface)

    def draw(self, surface: pygame.Surface) -> None:
        """Everything when the menu changed, else only where the pieces drift (see
        :mod:`redraw`): at 4K, a tenth of the screen.  An area that misses the words and
        the buttons is only the background and the pieces, and drawn as such: at 4K the
        menu's own pass over its words and buttons cost more than the area's pixels."""
        words = self._keep_pieces_off(surface.get_width())
        look = (self.inputs, self.title(), self.subtitle(), self.targets_look())
        moving = self.backdrop.areas(surface.get_size(), self.u, self.palette.seats)
        if self.cue > 0 and self.cue_rect is not None:
            moving.append(self.cue_rect.inflate(self.u, self.u))
        self._updated = areas = self._redraw.areas(look, moving, surface.get_rect())
        if areas is None:
            super().draw(surface)
            return
        menu = words + [t.reach for t in self.targets]  # a cue is on a button
        behind = [a for a in areas if a.collidelist(menu) < 0]
        draw_clipped(surface, [a for a in areas if a not in behind], super().draw)
        draw_clipped(surface, behind, self._draw_behind)

    def _keep_pieces_off(self, width: int) -> list[pygame.Rect]:
        """Keep the drifting pieces off the words and the buttons; the words' areas."""
        words = [rect for _picture, rect in self.words(width)]
        self.backdrop.keep_out = words + [t.rect for t in self.targets]
        return words

    def _draw_behind(self, surface: pygame.Surface) -> None:
        """What lies behind the words and the buttons: the background and the pieces."""
        surface.fill(self.palette.background)
        self.draw_backdrop(surface)

    def items(self) -> list[Item]:
        items: list[Item] = []
        if self.shelf.total > self.RESUME_ROWS:
            items.append(item(self._unfinished_label, self._unfinished, "unfinished"))
        else:  # their places: layout puts a row in each
            items += [item(lambda: "", lambda: None, name) for name in self._resumable()]
        items.append(item(self._quick_label, self._quick_play, "play"))
        items.append(item(lambda: _("New game"), self._choose, "new game"))
        kiosk = self.app.kiosk
        if kiosk is None or kiosk.lan_hosting:
            items.append(item(lambda: _("Play on the LAN"), self._lan, "lan"))
        if kiosk is None:  # with none finished yet, the list still imports a game
            items.append(item(lambda: _("Finished matches"), self._finished, "finished"))
        items.append(item(lambda: _("Rules"), self._rules, "rules"))
        items.append(item(lambda: _("High scores"), self._highscores, "high scores"))
        if kiosk is None:  # a kiosk's visitors are strangers: no records kept for them
            items.append(item(lambda: _("Players"), self._players, "players"))
        if kiosk is not None:  # the public changes the language, and nothing else
            items.append(item(lambda: _("Learn to play"), self._learn, "learn"))
            if len(kiosk.languages) > 1:
                items.append(item(self._language_label, self._next_language, "language"))
            return items
        items += [
            item(
                lambda: _("Settings"),
                lambda: self.app.push(make(Screen.SETTINGS, self.app)),
                "settings",
            ),
            item(lambda: _("Quit"), self.app.quit, "quit"),
        ]
        return items

    def _learn(self) -> None:
        self.app.push(make(Screen.TUTORIALS, self.app))

    def _quick_game(self) -> str:
        """The game *Play* starts: the last one set up here, if the kiosk allows it."""
        last = self.app.settings.last_game
        allowed = self.app.kiosk.games if self.app.kiosk is not None else VARIANTS
        return last if last in allowed else next(n for n in VARIANTS if n in allowed)

    def _quick_label(self) -> str:
        return _("{game} against the computer ({level})").format(
            game=variant_title(self._quick_game()),
            level=level_label(opponent_level(self.app, self._quick_game())),
        )

    def _play_button(self, rect: pygame.Rect) -> Callable[[pygame.Surface, bool, bool], None]:
        """The first thing to touch: *Play* in the accent colour, and under it what it
        starts."""
        palette = self.palette
        return two_lines(rect, palette.accent, palette.background, palette, lambda: _("Play"),
                         self._quick_label)  # fmt: skip

    def _quick_play(self) -> None:
        """One tap to a match: you against the computer at the last level used (or the
        one your adaptive level calls for), the game's usual options."""

        spec = VARIANTS[self._quick_game()]
        level = opponent_level(self.app, spec.name)
        seats = [Seat(name=main_player(self.app)),
                 *(Seat(SeatKind.COMPUTER, level) for _ in range(spec.players[0] - 1))]  # fmt: skip
        start_match(self.app, variant(spec.name, spec.players[0]), seats)

    def _language_label(self) -> str:
        return _("Language: {name}").format(name=i18n.LANGUAGES[self.app.settings.language])

    def _next_language(self) -> None:
        allowed = kiosk_of(self.app).languages
        current = self.app.settings.language
        index = allowed.index(current) if current in allowed else -1
        self.app.settings.language = i18n.set_language(allowed[(index + 1) % len(allowed)])
        self.layout(self.app.size)

    def layout(self, size: tuple[int, int]) -> None:
        """The menu, with each match to resume as a row: the game and who plays, when it was
        last played and how far it is, and a button to delete it."""
        super().layout(size)
        self._redraw.invalidate()
        rows = self._resumable()
        wider = min(size[0] - 4 * self.u, 38 * self.u)  # than the buttons: rows say more
        targets: list[Target] = []
        for target in self.targets:
            entry = rows.get(target.name)
            if target.name == "play":
                target.draw = self._play_button(target.rect)
                targets.append(target)
            elif entry is None:
                targets.append(target)
            else:
                rect = target.rect.inflate(max(0, wider - target.rect.width), 0)
                targets += row_targets(rect, self._resume_row(entry, target.name), self.palette)
        self.set_targets(targets)
        self._keep_pieces_off(size[0])

    def spans(self, name: str) -> bool:
        """The matches to resume and *Play* (which says what it starts) across the grid."""
        return name == "play" or name in self._resumable()

    def _resumable(self) -> dict[str, Unfinished]:
        """The matches to resume from here, by the name of their row ("resume" the newest)."""
        if self.shelf.total > self.RESUME_ROWS:
            return {}
        names = ["resume", *(f"resume {n}" for n in range(2, self.RESUME_ROWS + 1))]
        return dict(zip(names, self.shelf.matches, strict=False))

    def _resume_row(self, entry: Unfinished, name: str) -> Row:
        def lines() -> tuple[str, str]:
            match, when = unfinished_lines(entry)
            return _("Resume: {match}").format(match=match), when

        return unfinished_row(self.app, entry, lines, name, self._deleted)

    def _deleted(self, problem: str | None) -> None:
        self.app.reset(make(Screen.TITLE, self.app, problem))

    def _choose(self) -> None:
        self.app.push(make(Screen.CHOOSE, self.app))

    def _players(self) -> None:
        self.app.push(make(Screen.PLAYERS, self.app))

    def _highscores(self) -> None:
        self.app.push(make(Screen.HIGH_SCORES, self.app))

    def _rules(self) -> None:
        self.app.push(make(Screen.RULES_INDEX, self.app))

    def _unfinished_label(self) -> str:
        return _("Unfinished matches ({n})").format(n=self.shelf.total)

    def _unfinished(self) -> None:
        self.app.push(make(Screen.UNFINISHED, self.app))

    def _lan(self) -> None:
        self.app.push(make(Screen.LAN, self.app))

    def _finished(self) -> None:
        self.app.push(make(Screen.FINISHED, self.app))

    def back(self) -> None:
        """Escape on the title screen does nothing: quitting is a button."""


def _set_aside_notice(app: App) -> str | None:
    """Once: that the high scores or the players' records could not be read and were set
    aside."""
    for store, message in (
        (app.highscores,
         _("The high scores could not be read: they were set aside, the board starts afresh")),
        (app.profiles,
         _("The players' records could not be read: they were set aside, new ones begin")),
    ):  # fmt: skip
        if store.problem is not None:
            store.problem = None
            return message
    return None
