"""The menu screens: title, choice of game, setup of a match, settings, pause."""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, NamedTuple

import pygame

from game import i18n
from game.client import sprites, theme
from game.client.navigator import Screen, make
from game.client.redraw import Redraw, draw_clipped
from game.client.scene import Scene
from game.client.scenes.picture import draw_position
from game.client.scenes.table import layout_label, match_scene, next_layout
from game.client.settings import (
    ANIMATION_SPEEDS,
    BOARD_THEME_NAMES,
    ODDS_MODES,
    THINKING_SECONDS,
    stepped_volume,
)
from game.client.title_backdrop import TitleBackdrop
from game.client.widgets import Target, balanced, button, draw_face, segment, two_lines
from game.i18n import _
from game.levels import LEVELS
from game.names import seat_names, variant_subtitle, variant_title
from game.rules import VARIANTS, MatchRecord, Variant, new_game, variant
from game.session.match import Match
from game.session.saves import Shelf, Unfinished
from game.session.seats import Seat, SeatKind

if TYPE_CHECKING:
    from game.client.scenes.saved import Row

Item = tuple[Callable[[], str], Callable[[], None], Callable[[], bool], str]


def item(
    label: Callable[[], str],
    action: Callable[[], None],
    name: str,
    enabled: Callable[[], bool] = lambda: True,
) -> Item:
    """A menu entry: its label (read at each draw, so it follows the language), what it
    does, its name for tests and focus, and whether it can be chosen now."""
    return label, action, enabled, name


class MenuScene(Scene):
    """A title and a column (or grid) of buttons; subclasses list the items."""

    columns = 1

    def title(self) -> str:
        return "Tavolo"

    def subtitle(self) -> str:
        return ""

    def items(self) -> list[Item]:
        return []

    def draw_backdrop(self, surface: pygame.Surface) -> None:
        """What shows behind the title and the buttons (by default: the plain background)."""

    def spans(self, name: str) -> bool:
        """Whether the item ``name`` takes a whole row when the buttons stand in columns."""
        return False

    def layout(self, size: tuple[int, int]) -> None:
        """The buttons in a column (or the grid of :attr:`columns`) under the title: 3.4
        units a button and half a unit between, less when that would run off the bottom (a
        title with matches to resume on a short window), never under :data:`theme.TOUCH`;
        in more columns where even that does not fit (a 1024x600 panel)."""
        self.u = u = theme.unit(size)
        items = self.items()
        top = 13 * u
        gap = u // 2
        room = size[1] - top - gap
        least = theme.touch(2.6 * u) + gap
        columns = self.columns
        while True:
            width = min(size[0] - 4 * u, 22 * u * columns + (columns - 1) * u)
            cell_width = (width - (columns - 1) * u) // columns
            places, rows = self._places(items, columns)
            wider = min(size[0] - 4 * u, 22 * u * (columns + 1) + columns * u)
            if rows * least <= room or (wider - columns * u) // (columns + 1) < 12 * u:
                break
            columns += 1
        left = (size[0] - width) // 2
        pitch = max(least, min(round(3.9 * u), room // rows))
        height = pitch - gap
        targets: list[Target] = []
        for (label, action, enabled, name), (row, col, span) in zip(items, places, strict=True):
            rect = pygame.Rect(left + col * (cell_width + u), top + row * pitch,
                               span * cell_width + (span - 1) * u, height)  # fmt: skip
            targets.append(button(rect, label, action, self.palette, enabled, name))
        self.set_targets(targets)

    def _places(self, items: list[Item], columns: int) -> tuple[list[tuple[int, int, int]], int]:
        """Where each item stands in ``columns`` columns (its row, its column, how many
        columns it spans), in reading order, and how many rows that takes."""
        places, row, col = [], 0, 0
        for item_ in items:
            if columns > 1 and self.spans(item_[3]):
                row += col > 0
                places.append((row, 0, columns))
                row, col = row + 1, 0
            else:
                places.append((row, col, 1))
                row, col = (row + 1, 0) if col + 1 == columns else (row, col + 1)
        return places, row + (col > 0)

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(self.palette.background)
        self.draw_backdrop(surface)
        u = self.u
        room = surface.get_width() - 2 * u
        size = 5 * u
        wide = theme.font(size, True).size(self.title())[0]
        if wide > room:  # a narrow window: the title shrinks to fit
            size = max(2 * u, size * room // wide)
        title = theme.text(self.title(), size, self.palette.accent, True)
        surface.blit(title, title.get_rect(midtop=(surface.get_width() // 2, 3 * u)))
        self.subtitle_bottom = 9 * u
        if self.subtitle():  # wrapped, two lines at most: a narrow (turned) screen cuts none
            size = round(1.3 * u)
            font = theme.font(size)
            lines = theme.wrap(self.subtitle(), font, surface.get_width() - 2 * u)[:2]
            for line in lines:
                sub = theme.fitted(line, size, self.palette.text, surface.get_width() - 2 * u)
                where = (surface.get_width() // 2, self.subtitle_bottom)
                surface.blit(sub, sub.get_rect(midtop=where))
                self.subtitle_bottom += font.get_linesize()
        self.draw_targets(surface)


class TitleScene(MenuScene):
    """The first screen: the games' pieces and dice drifting behind the name and the big
    choices (*Play* first), with the matches to resume."""

    RESUME_ROWS = 2  # with more unfinished matches, one entry opens their list
    fps = 30  # the drifting pieces need no more
    draws_changes_only = True

    def __init__(self, app, notice: str | None = None) -> None:
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
        :mod:`redraw`): at 4K, a tenth of the screen."""
        look = (self.inputs, self.title(), self.subtitle(), self.targets_look())
        moving = self.backdrop.areas(surface.get_size(), self.u, self.palette.seats)
        if self.cue > 0 and self.cue_rect is not None:
            moving.append(self.cue_rect.inflate(self.u, self.u))
        self._updated = areas = self._redraw.areas(look, moving, surface.get_rect())
        if areas is None:
            super().draw(surface)
        else:
            draw_clipped(surface, areas, super().draw)

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
            item(lambda: _("Settings"), lambda: self.app.push(SettingsScene(self.app)), "settings"),
            item(lambda: _("Quit"), self.app.quit, "quit"),
        ]
        return items

    def _learn(self) -> None:
        from game.client.tutorial import TutorialsScene

        self.app.push(TutorialsScene(self.app))

    def _quick_game(self) -> str:
        """The game *Play* starts: the last one set up here, if the kiosk allows it."""
        last = self.app.settings.last_game
        allowed = self.app.kiosk.games if self.app.kiosk is not None else VARIANTS
        return last if last in allowed else next(n for n in VARIANTS if n in allowed)

    def _quick_label(self) -> str:
        return _("{game} against the computer ({level})").format(
            game=variant_title(self._quick_game()),
            level=level_label(self.app.settings.last_level),
        )

    def _play_button(self, rect: pygame.Rect) -> Callable[[pygame.Surface, bool, bool], None]:
        """The first thing to touch: *Play* in the accent colour, and under it what it
        starts."""
        palette = self.palette
        return two_lines(rect, palette.accent, palette.background, palette, lambda: _("Play"),
                         self._quick_label)  # fmt: skip

    def _quick_play(self) -> None:
        """One tap to a match: you against the computer at the last level used, the
        game's usual options."""

        spec = VARIANTS[self._quick_game()]
        level = self.app.settings.last_level
        seats = [Seat(name=main_player(self.app)),
                 *(Seat(SeatKind.COMPUTER, level) for _ in range(spec.players[0] - 1))]  # fmt: skip
        start_match(self.app, variant(spec.name, spec.players[0]), seats)

    def _language_label(self) -> str:
        return _("Language: {name}").format(name=i18n.LANGUAGES[self.app.settings.language])

    def _next_language(self) -> None:
        allowed = self.app.kiosk.languages
        current = self.app.settings.language
        index = allowed.index(current) if current in allowed else -1
        self.app.settings.language = i18n.set_language(allowed[(index + 1) % len(allowed)])
        self.layout(self.app.size)

    def layout(self, size: tuple[int, int]) -> None:
        """The menu, with each match to resume as a row: the game and who plays, when it was
        last played and how far it is, and a button to delete it."""
        from game.client.scenes.saved import row_targets

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
        u = self.u
        title = theme.font(5 * u, True).size(self.title())
        words = pygame.Rect(0, 3 * u, min(title[0], size[0] - 2 * u), 8 * u)  # title, subtitle
        words.centerx = size[0] // 2
        self.backdrop.keep_out = [words] + [t.rect for t in self.targets]

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
        from game.client.scenes.saved import unfinished_lines, unfinished_row

        def lines() -> tuple[str, str]:
            match, when = unfinished_lines(entry)
            return _("Resume: {match}").format(match=match), when

        return unfinished_row(self.app, entry, lines, name, self._deleted)

    def _deleted(self, problem: str | None) -> None:
        self.app.reset(TitleScene(self.app, problem))

    def _choose(self) -> None:
        from game.client.scenes.cards import ChooseScene

        self.app.push(ChooseScene(self.app))

    def _players(self) -> None:
        from game.client.scenes.players import PlayersScene

        self.app.push(PlayersScene(self.app))

    def _highscores(self) -> None:
        from game.client.scenes.highscores import HighScoresScene

        self.app.push(HighScoresScene(self.app))

    def _rules(self) -> None:
        from game.client.scenes.cards import RulesIndexScene

        self.app.push(RulesIndexScene(self.app))

    def _unfinished_label(self) -> str:
        return _("Unfinished matches ({n})").format(n=self.shelf.total)

    def _unfinished(self) -> None:
        from game.client.scenes.saved import UnfinishedScene

        self.app.push(UnfinishedScene(self.app))

    def _lan(self) -> None:
        from game.client.scenes.lobby import LanScene

        self.app.push(LanScene(self.app))

    def _finished(self) -> None:
        from game.client.scenes.replay import FinishedScene

        self.app.push(FinishedScene(self.app))

    def back(self) -> None:
        """Escape on the title screen does nothing: quitting is a button."""


class Choice(NamedTuple):
    """One segment of a setup row: its target's name, label, whether it is the one chosen
    now, and what choosing it does."""

    name: str
    label: Callable[[], str]
    chosen: Callable[[], bool]
    choose: Callable[[], None]


class SetupRow(NamedTuple):
    """A line of the setup: what it sets (and, for a seat, the seat's colour), then every
    choice side by side."""

    label: Callable[[], str]
    choices: list[Choice]
    seat: int | None = None


class SetupScene(MenuScene):
    """Players, rule options and who plays each seat, each a row of all its choices with the
    chosen one lit, then start.  One person is the usual case: the other seats start as the
    computer at the level last used, and one tap makes them people at this screen."""

    ROW = 3.0
    """A row's height, in layout units."""
    picks_players = True
    """A person's seat names who plays it (a profile, for their record), by a tap on it."""
    offers_lan = True
    """A match from a set-up position may be hosted on the LAN from here instead."""

    def __init__(
        self, app, name: str, start: str | None = None, options: dict[str, object] | None = None
    ) -> None:
        """The setup of a match of ``name``, from the set-up position ``start`` (a FEN as a
        record keeps it) if given, its rule options first set to ``options``."""
        self.spec = VARIANTS[name]
        self.start = start
        self.players = self.spec.players[0]
        self.options = {o.name: o.default for o in self.spec.options} | (options or {})
        self.level = app.settings.last_level
        self.player_names = [main_player(app)] + [""] * (max(self.spec.players) - 1)
        """Who plays each seat when a person does (kept while the seat is the computer)."""
        self.seats = [Seat(name=self.player_names[0]),
                      *(self._computer() for _ in range(max(self.spec.players) - 1))]  # fmt: skip
        self.rows: list[tuple[SetupRow, pygame.Rect]] = []
        self.picture: tuple[pygame.Surface, tuple[int, int]] | None = None
        """The set-up position the match starts from, under the buttons, and where."""
        super().__init__(app)

    def title(self) -> str:
        return variant_title(self.spec.name)

    def subtitle(self) -> str:
        if self.start is not None:
            return _("Set up the match: it starts from the position chosen")
        return _("Set up the match")

    def items(self) -> list[Item]:
        """The buttons under the rows: start here, or (from a set-up position, where LAN
        play is allowed) host it on the LAN."""
        entries = [item(lambda: _("Start"), self._start, "start")]
        kiosk = self.app.kiosk
        if self.start is not None and self.offers_lan and (kiosk is None or kiosk.lan_hosting):
            entries.append(item(lambda: _("Host on the LAN"), self._host_on_lan, "host lan"))
        return [*entries, item(lambda: _("Back"), self.app.pop, "back")]

    def _host_on_lan(self) -> None:
        """The LAN's setup of this match, from the same position and options."""
        setup = make(Screen.LAN_SETUP, self.app, self.spec.name, self.start, self.options)
        self.app.push(setup)

    # -- the rows -------------------------------------------------------------------------

    def setup_rows(self) -> list[SetupRow]:
        rows: list[SetupRow] = []
        if len(self.spec.players) > 1:
            rows.append(SetupRow(lambda: _("Players"), [
                Choice(f"players {n}", lambda n=n: str(n), lambda n=n: self.players == n,
                       lambda n=n: self._set_players(n))
                for n in self.spec.players
            ]))  # fmt: skip
        for option in self.spec.options:
            rows.append(SetupRow(lambda o=option.name: _option_title(o), [
                Choice(f"{option.name} {_value_name(value)}",
                       lambda o=option.name, v=value: self._value_label(o, v),
                       lambda o=option.name, v=value: self.options[o] == v,
                       lambda o=option.name, v=value: self._set_option(o, v))
                for value in option.choices(self.players)
            ]))  # fmt: skip
        rows += self._opponents_row()
        for seat in range(self.players):
            rows.append(SetupRow(lambda n=seat: self._seat_label(n), self._seat_choices(seat),
                                 seat))  # fmt: skip
        return rows

    def _opponents_row(self) -> list[SetupRow]:
        return [SetupRow(lambda: _("Opponents"), [
            Choice("opponents computer", lambda: _("The computer"), self._against_computer,
                   self._play_the_computer),
            Choice("opponents people", lambda: _("People here"), self._all_people,
                   self._play_people),
        ])]  # fmt: skip

    def _seat_choices(self, seat: int) -> list[Choice]:
        person = Choice(
            f"seat {seat + 1} person",
            self._person_label,
            lambda: self.seats[seat].is_human,
            lambda: self._set_seat(seat, Seat()),
        )
        return [person, *(
            Choice(f"seat {seat + 1} {level}", lambda lv=level: level_label(lv),
                   lambda lv=level: self.seats[seat].level == lv,
                   lambda lv=level: self._set_seat(seat, Seat(SeatKind.COMPUTER, lv)))
            for level in LEVELS
        )]  # fmt: skip

    def _person_label(self) -> str:
        return _("Person")

    def _value_label(self, option: str, value: object) -> str:
        if isinstance(value, bool):
            return _("On") if value else _("Off")
        if value == "lot":
            return _("By lot")
        return setup_seat_names(self.spec.name, self.players)[int(value) - 1]

    # -- what the choices do --------------------------------------------------------------

    def _computer(self) -> Seat:
        return Seat(SeatKind.COMPUTER, self.level)

    def _set_players(self, players: int) -> None:
        self.players = players
        for option in self.spec.options:  # "Player 4 begins" is gone with three players
            if self.options[option.name] not in option.choices(players):
                self.options[option.name] = option.default
        self.layout(self.app.size)

    def _set_option(self, name: str, value: object) -> None:
        self.options[name] = value

    def _set_seat(self, index: int, seat: Seat) -> None:
        if seat.is_human:
            name = self.player_names[index]
            elsewhere = {s.name for n, s in enumerate(self.seats) if n != index}
            seat = Seat(name=name if name not in elsewhere else "")  # one seat a person
        self.seats[index] = seat
        if seat.level:
            self.level = seat.level

    def _against_computer(self) -> bool:
        seats = self.seats[: self.players]
        return seats[0].is_human and not any(s.is_human for s in seats[1:])

    def _all_people(self) -> bool:
        return all(s.is_human for s in self.seats[: self.players])

    def _play_the_computer(self) -> None:
        first = Seat(name=self.player_names[0])
        self.seats = [first, *(self._computer() for _ in self.seats[1:])]

    def _play_people(self) -> None:
        self.seats = [Seat(name=name) for name in self.player_names]

    def _pick_player(self, index: int) -> None:
        from game.client.scenes.players import PickPlayerScene

        names = setup_seat_names(self.spec.name, self.players)
        taken = {s.name for n, s in enumerate(self.seats[: self.players]) if n != index}

        def chosen(name: str) -> None:
            self.player_names[index] = name
            self.seats[index] = Seat(name=name)

        self.app.push(PickPlayerScene(self.app, names[index], taken - {""}, chosen))

    def _seat_label(self, index: int) -> str:
        """A seat as its row names it: its colour, and who plays it if a person here."""
        name = setup_seat_names(self.spec.name, self.players)[index]
        seat = self.seats[index]
        if not (self.picks_players and seat.is_human):
            return name
        return _("{seat}: {player}").format(seat=name, player=seat.name or _("a guest"))

    def _start(self) -> None:
        self._remember()
        chosen = variant(self.spec.name, self.players, self.options)
        start_match(self.app, chosen, self.seats[: self.players], self.start)

    def _remember(self) -> None:
        """What *Play* on the title starts next time: this game, against the computer at
        the level a person here just chose to face (a match of people only, or of computers
        only, leaves the level as it was: *Play* says what it will start)."""
        settings = self.app.settings
        settings.last_game = self.spec.name
        seats = self.seats[: self.players]
        faced = [seat.level for seat in seats if seat.level is not None]
        if faced and any(seat.is_human for seat in seats):
            settings.last_level = faced[0]
        self.app.save_settings()

    # -- layout and drawing ---------------------------------------------------------------

    def layout(self, size: tuple[int, int]) -> None:
        """A row per setting: its name in a column on the left (above the choices on a
        narrow screen), then its choices side by side; Start and Back under them."""
        self.u = u = theme.unit(size)
        width = min(size[0] - 4 * u, 52 * u)
        left = (size[0] - width) // 2
        stacked = width < 40 * u
        name_width = 0 if stacked else 13 * u
        height = theme.row(u, self.ROW)
        top = (11 if stacked else 12) * u
        targets: list[Target] = []
        self.rows = []
        for row in self.setup_rows():
            # a seat's name is tapped to pick who plays it: a row of its own when stacked
            tapped = row.seat is not None and self.picks_players
            label_height = theme.touch(1.4 * u) if tapped else round(1.4 * u)
            label_rect = pygame.Rect(left, top, width, label_height)
            if not stacked:  # the name beside its choices
                label_rect.size = (name_width, height)
            y = top + (label_rect.height if stacked else 0)
            area = pygame.Rect(left + name_width, y, width - name_width, height)
            self.rows.append((row, label_rect))
            if row.seat is not None and self.picks_players:  # a tap names who plays it
                targets.append(Target(label_rect, lambda n=row.seat: self._pick_player(n),
                                      lambda n=row.seat: self.seats[n].is_human,
                                      self._label_face(label_rect, row.seat),
                                      f"seat {row.seat + 1} player"))  # fmt: skip
            gap = max(2, u // 5)
            each = (area.width - gap * (len(row.choices) - 1)) // len(row.choices)
            for n, choice in enumerate(row.choices):
                rect = pygame.Rect(area.x + n * (each + gap), area.y, each, height)
                targets.append(segment(rect, choice.label, choice.chosen, choice.choose,
                                       self.palette, choice.name))  # fmt: skip
            top += height + (label_height if stacked else 0) + u // 2
        top += u // 2
        buttons = self.items()
        each = (width - u * (len(buttons) - 1)) // len(buttons)
        for n, (label, action, enabled, name) in enumerate(buttons):
            rect = pygame.Rect(left + n * (each + u), top, each, theme.row(u, 3.4))
            targets.append(button(rect, label, action, self.palette, enabled, name))
        self.set_targets(targets)
        self.picture = None
        top += theme.row(u, 3.4) + u
        side = min(size[1] - top - u, width)
        if self.start is not None and side >= 8 * u:  # the position it starts from
            position = MatchRecord(variant(self.spec.name), (), self.start).initial_state()
            at = ((size[0] - side) // 2, top)
            self.picture = (draw_position(self.app, position, (side, side)), at)

    def _label_face(
        self, rect: pygame.Rect, seat: int
    ) -> Callable[[pygame.Surface, bool, bool], None]:
        """A person's seat name is a button (a faint face, ringed when focused); the label
        itself is drawn with the others."""

        def draw(surface: pygame.Surface, focused: bool, pressed: bool) -> None:
            if self.seats[seat].is_human:
                draw_face(surface, rect, self.palette.button, self.palette, focused, pressed)

        return draw

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        u = self.u
        if self.picture is not None:
            surface.blit(*self.picture)
        for row, rect in self.rows:
            size = round(1.1 * u)
            x, middle = rect.x, rect.centery
            if row.seat is not None:
                colour = setup_seat_colour(self.spec.name, row.seat, self.palette)
                pygame.draw.circle(surface, colour, (x + u // 2, middle), round(0.5 * u))
                pygame.draw.circle(surface, self.palette.text, (x + u // 2, middle),
                                   round(0.5 * u), 1)  # fmt: skip
                x += round(1.4 * u)
            room = rect.right - x - u // 2
            font = theme.font(size, True)
            lines = [row.label()]
            if font.size(lines[0])[0] > room and 2 * font.get_linesize() <= rect.height:
                lines = balanced(lines[0], font)  # two lines where one would shrink
                if not all(font.size(line)[0] <= room for line in lines):
                    lines = [row.label()]
            step = font.get_linesize()
            for n, line in enumerate(lines):
                words = theme.fitted(line, size, self.palette.text, room, True)
                centre = middle + round((n - (len(lines) - 1) / 2) * step)
                surface.blit(words, words.get_rect(midleft=(x, centre)))


class SettingsScene(MenuScene):
    columns = 2

    def title(self) -> str:
        return _("Settings")

    def items(self) -> list[Item]:
        settings = self.app.settings
        return [
            item(
                lambda: _("Language: {name}").format(name=i18n.LANGUAGES[settings.language]),
                self._next_language,
                "language",
            ),
            item(self._name_label, self._ask_name, "name"),
            item(self._sound_label, self.app.toggle_mute, "sound"),
            item(self._music_label, self._toggle_music, "music"),
            item(
                lambda: _("Full screen: on") if settings.fullscreen else _("Full screen: off"),
                self.app.toggle_fullscreen,
                "fullscreen",
            ),
            item(
                lambda: _("Animation speed: {speed}×").format(speed=settings.animation_speed),
                self._next_speed,
                "speed",
            ),
            item(self._boards_label, self._next_boards, "boards"),
            item(
                lambda: (
                    _("Reduce motion: on") if settings.reduce_motion else _("Reduce motion: off")
                ),
                self._toggle_motion,
                "motion",
            ),
            item(
                lambda: (
                    _("Colour-blind palette: on")
                    if settings.colour_blind
                    else _("Colour-blind palette: off")
                ),
                self._toggle_palette,
                "palette",
            ),
            item(
                lambda: _("Computer thinks up to {seconds} s").format(
                    seconds=f"{settings.thinking_seconds:g}"
                ),
                self._next_thinking,
                "thinking",
            ),
            item(self._odds_label, self._next_odds, "odds"),
            item(lambda: layout_label(settings.table_layout), self._next_layout, "table_layout"),
            item(
                lambda: (
                    _("Board coordinates: on")
                    if settings.show_coordinates
                    else _("Board coordinates: off")
                ),
                self._toggle_coordinates,
                "coordinates",
            ),
            item(self._lan_label, self._next_interface, "lan interface"),
            item(lambda: _("Back"), self.app.pop, "back"),
        ]

    def layout(self, size: tuple[int, int]) -> None:
        """The menu's grid, with "−" and "+" at the ends of the sound's and the music's
        cells: each a step of that volume, stopping (not wrapping round) at 0 and 100 %."""
        super().layout(size)
        settings = self.app.settings
        steps = []
        for name, prefix, volume, step in (
            ("sound", "volume", lambda: settings.volume, self._step_volume),
            ("music", "music volume", lambda: settings.music_volume, self._step_music),
        ):
            cell = next(t for t in self.targets if t.name == name)
            key, gap = cell.rect.height, self.u // 2
            down = pygame.Rect(cell.rect.left, cell.rect.top, key, key)
            up = pygame.Rect(cell.rect.right - key, cell.rect.top, key, key)
            cell.rect.inflate_ip(-2 * (key + gap), 0)  # in place: the button draws this rect
            steps += [
                button(down, lambda: "−", lambda step=step: step(-1), self.palette,
                       lambda volume=volume: volume() > 0, f"{prefix} down"),
                button(up, lambda: "+", lambda step=step: step(1), self.palette,
                       lambda volume=volume: volume() < 1, f"{prefix} up"),
            ]  # fmt: skip
        self.set_targets([*self.targets, *steps])

    def _music_label(self) -> str:
        settings = self.app.settings
        if not settings.music or settings.muted:
            return _("Music: off")
        return _("Music: {percent}%").format(percent=round(settings.music_volume * 100))

    def _toggle_music(self) -> None:
        settings = self.app.settings
        self.app.set_music(not settings.music or settings.muted)

    def _step_music(self, steps: int) -> None:
        self.app.set_music(True, stepped_volume(self.app.settings.music_volume, steps))

    def _sound_label(self) -> str:
        settings = self.app.settings
        if settings.muted:
            return _("Sound: off")
        return _("Sound: {percent}%").format(percent=round(settings.volume * 100))

    def _step_volume(self, steps: int) -> None:
        self.app.set_volume(stepped_volume(self.app.settings.volume, steps))
        self.app.sound.play("tap")

    def _name_label(self) -> str:
        name = self.app.settings.player_name
        if not name:
            return _("Your name: not given")
        return _("Your name: {name}").format(name=name)

    def _ask_name(self) -> None:
        from game.client.scenes.entry import ask_player_name

        ask_player_name(self.app)

    def _toggle_coordinates(self) -> None:
        self.app.settings.show_coordinates = not self.app.settings.show_coordinates
        self._changed()
        for scene in self.app.scenes:
            scene.layout(self.app.size)

    def _lan_label(self) -> str:
        chosen = self.app.settings.lan_interface
        if not chosen:
            return _("LAN: every network")
        return _("LAN: only {address}").format(address=chosen)

    def _next_interface(self) -> None:
        from net.discovery import lan_addresses

        choices = ["", *(a for a in lan_addresses() if a != "127.0.0.1")]
        settings = self.app.settings
        current = choices.index(settings.lan_interface) if settings.lan_interface in choices else 0
        settings.lan_interface = choices[(current + 1) % len(choices)]
        self._changed()

    def _changed(self) -> None:
        self.app.save_settings()
        self.layout(self.app.size)

    def _next_language(self) -> None:
        codes = list(i18n.LANGUAGES)
        settings = self.app.settings
        settings.language = i18n.set_language(
            codes[(codes.index(settings.language) + 1) % len(codes)]
        )
        self._changed()

    def _next_thinking(self) -> None:
        settings = self.app.settings
        index = THINKING_SECONDS.index(settings.thinking_seconds)
        settings.thinking_seconds = THINKING_SECONDS[(index + 1) % len(THINKING_SECONDS)]
        self._changed()

    def _odds_label(self) -> str:
        if self.app.settings.dice_odds == "on":
            return _("Dice odds: on")
        return _("Dice odds: off")

    def _next_odds(self) -> None:
        settings = self.app.settings
        following = (ODDS_MODES.index(settings.dice_odds) + 1) % len(ODDS_MODES)
        settings.dice_odds = ODDS_MODES[following]
        self._changed()

    def _next_layout(self) -> None:
        settings = self.app.settings
        settings.table_layout = next_layout(settings.table_layout)
        self._changed()

    def _next_speed(self) -> None:
        settings = self.app.settings
        index = ANIMATION_SPEEDS.index(settings.animation_speed)
        settings.animation_speed = ANIMATION_SPEEDS[(index + 1) % len(ANIMATION_SPEEDS)]
        self._changed()

    def _boards_label(self) -> str:
        if self.app.settings.board_theme == "contrast":
            return _("Boards: high contrast")
        return _("Boards: wood")

    def _next_boards(self) -> None:
        names = BOARD_THEME_NAMES
        settings = self.app.settings
        settings.board_theme = names[(names.index(settings.board_theme) + 1) % len(names)]
        sprites.use_theme(settings.board_theme)
        self._repaint()

    def _toggle_motion(self) -> None:
        self.app.settings.reduce_motion = not self.app.settings.reduce_motion
        self._changed()

    def _toggle_palette(self) -> None:
        self.app.settings.colour_blind = not self.app.settings.colour_blind
        self._repaint()

    def _repaint(self) -> None:
        """Save the change and lay out every screen again, the match under this menu too:
        its colours changed."""
        self._changed()
        for scene in self.app.scenes:
            scene.layout(self.app.size)


class PauseScene(MenuScene):
    """Over a match: go on, read the rules, change settings, or leave (saying what leaving
    keeps)."""

    def __init__(self, app, play) -> None:
        self.play = play
        super().__init__(app)

    def title(self) -> str:
        return _("Paused")

    def subtitle(self) -> str:
        return self.play.control.kept_on_leaving()

    def items(self) -> list[Item]:
        entries = [
            item(lambda: _("Continue"), self.app.pop, "continue"),
            item(
                lambda: _("Rules"),
                lambda: self.app.push(RulesScene(self.app, self.play.match.variant)),
                "rules",
            ),
            item(lambda: _("Settings"), lambda: self.app.push(SettingsScene(self.app)), "settings"),
            item(lambda: _("Leave to the title screen"), self._leave, "leave"),
        ]
        if self.app.kiosk is not None:  # settings are the operator's
            entries = [e for e in entries if e[3] != "settings"]
        return entries

    def _leave(self) -> None:
        self.app.reset(TitleScene(self.app))


class RulesScene(Scene):
    """The rules of one game in the player's language, beside a picture of its board: over a
    match, for the options it was set up with; from the rules index (``with_options``), for
    the default ones, with a line on each option."""

    def __init__(self, app, chosen: Variant, with_options: bool = False) -> None:
        super().__init__(app)
        self.chosen = chosen
        self.name = chosen.name
        self.with_options = with_options

    def layout(self, size: tuple[int, int]) -> None:
        from game.client.rules_text import rules_text
        from game.client.scenes.picture import board_picture

        self.u = u = theme.unit(size)
        self.text = rules_text(self.chosen, self.with_options)
        side = min(size[1] - 9 * u, size[0] * 2 // 5)
        self.picture = board_picture(self.app, self.name, (side, side))
        back = pygame.Rect(size[0] - 12 * u, size[1] - u - theme.row(u), 10 * u, theme.row(u))
        self.targets = [button(back, lambda: _("Back"), self.app.pop, self.palette, name="back")]
        from game.client.tutorial import script_for, start_tutorial

        if script_for(self.name) is not None:
            learn = pygame.Rect(back.x - 15 * u, back.y, 14 * u, back.height)
            self.targets.insert(0, button(learn, lambda: _("Learn by playing"),
                                          lambda: start_tutorial(self.app, self.name),
                                          self.palette, name="learn"))  # fmt: skip

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(self.palette.background)
        u = self.u
        title = theme.text(variant_title(self.name), 3 * u, self.palette.accent, True)
        surface.blit(title, (2 * u, u))
        subtitle = theme.text(variant_subtitle(self.name), round(1.3 * u), self.palette.text)
        surface.blit(subtitle, (2 * u, 4 * u))
        surface.blit(self.picture, (2 * u, 6 * u))
        x = 3 * u + self.picture.get_width()
        width = surface.get_width() - x - 2 * u
        y = 6 * u
        body = theme.font(round(0.95 * u))
        for paragraph in self.text.split("\n"):
            for line in theme.wrap(paragraph, body, width):
                surface.blit(body.render(line, True, self.palette.text), (x, y))
                y += round(1.3 * u)
            y += round(0.5 * u)
        self.draw_targets(surface)


def setup_seat_names(name: str, players: int) -> list[str]:
    """The seats' names of a game for labels, in the current language (worked out once per
    game, player count and language, not at every frame)."""
    return _seat_names(name, players, i18n.language())


@cache
def _seat_names(name: str, players: int, language: str) -> list[str]:
    return seat_names(new_game(name, players))


def main_player(app) -> str:
    """The player this machine's first seat starts with: the LAN name, if it is a
    profile's."""
    name = app.settings.player_name
    return name if name and app.profiles.get(name) is not None else ""


def _set_aside_notice(app) -> str | None:
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


def start_match(app, chosen: Variant, seats: list[Seat], start: str | None = None) -> None:
    """A new match at this screen (from the set-up position ``start`` if given), from a
    fresh seed, with the title under it (to come back to, this match offered there to
    resume)."""
    record = MatchRecord(chosen, (), start)
    match = Match(record, seats, random.SystemRandom().getrandbits(62))
    app.reset(TitleScene(app))
    app.push(match_scene(app, match))


def level_label(level: str) -> str:
    """A computer's level as the setup's choices show it."""
    return {"easy": _("Easy"), "medium": _("Medium"), "hard": _("Hard")}[level]


def setup_seat_colour(name: str, seat: int, palette: theme.Palette) -> theme.Colour:
    """The colour of a seat's pieces or marks, as the match will show it: White and Black
    in the board games (Lupo's roles are drawn by lot), the palette's seat colours in the
    dice games."""
    from game.client.views.marks import LIGHT_AND_DARK

    if VARIANTS[name].two_colours:
        return LIGHT_AND_DARK[seat % 2]
    return palette.seats[seat % len(palette.seats)]


def _option_title(name: str) -> str:
    return {"first": _("Begins"), "huffing": _("Huffing"), "wolf": _("Wolf")}[name]


def _value_name(value: object) -> str:
    """An option's value in a target's name: ``on``/``off``, ``lot`` or the seat number."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def computer_label(level: str) -> str:
    """A computer seat as labels show it."""
    return {
        "easy": _("computer, easy"),
        "medium": _("computer, medium"),
        "hard": _("computer, hard"),
    }[level]
