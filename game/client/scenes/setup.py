"""The setup of a match: each option and seat a row of segments, the chosen one lit; and
the start of a match from it."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, NamedTuple

import pygame

from game.client import theme
from game.client.navigator import Screen, make
from game.client.scenes.menu import Item, MenuScene, item
from game.client.scenes.picture import draw_position
from game.client.scenes.seats import (
    _option_title,
    _value_name,
    ladder_label,
    main_player,
    setup_seat_colour,
    setup_seat_names,
    start_match,
)
from game.client.widgets import Target, balanced, button, draw_face, segment
from game.i18n import _
from game.levels import LADDER, rung
from game.names import variant_title
from game.rules import VARIANTS, MatchRecord, variant
from game.rules.variants import OptionValue
from game.session.seats import Seat, SeatKind

if TYPE_CHECKING:
    from game.client.app import App


class Choice(NamedTuple):
    """One segment of a setup row: its target's name, label, whether it is the one chosen
    now, what choosing it does, and its share of the row's width."""

    name: str
    label: Callable[[], str]
    chosen: Callable[[], bool]
    choose: Callable[[], None]
    width: float = 1.0


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
    ladder: tuple[str, ...] = LADDER
    """The levels a computer seat steps through, weakest first."""

    def __init__(
        self,
        app: App,
        name: str,
        start: str | None = None,
        options: dict[str, object] | None = None,
    ) -> None:
        """The setup of a match of ``name``, from the set-up position ``start`` (a FEN as a
        record keeps it) if given, its rule options first set to ``options``."""
        self.spec = VARIANTS[name]
        self.start = start
        self.players = self.spec.players[0]
        self.options = {o.name: o.default for o in self.spec.options} | (options or {})
        self.level = self._on_ladder(app.settings.last_level)
        self.player_names = [main_player(app)] + [""] * (max(self.spec.players) - 1)
        """Who plays each seat when a person does (kept while the seat is the computer)."""
        self.seats = [Seat(name=self.player_names[0]),
                      *(self._computer() for _ in range(max(self.spec.players) - 1))]  # fmt: skip
        self.rows: list[tuple[SetupRow, pygame.Rect]] = []
        self.picture: tuple[pygame.Surface, tuple[int, int]] | None = None
        """The set-up position the match starts from, under the buttons, and where."""
        super().__init__(app)
        self._adapt()

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
            rows.append(SetupRow(lambda: _("Players"),
                                 [self._players_choice(n) for n in self.spec.players]))  # fmt: skip
        for option in self.spec.options:
            rows.append(SetupRow(partial(_option_title, option.name), [
                self._option_choice(option.name, value) for value in option.choices(self.players)
            ]))  # fmt: skip
        rows += self._opponents_row()
        for seat in range(self.players):
            rows.append(SetupRow(partial(self._seat_label, seat), self._seat_choices(seat),
                                 seat))  # fmt: skip
        return rows

    def _players_choice(self, n: int) -> Choice:
        return Choice(f"players {n}", lambda: str(n), lambda: self.players == n,
                      lambda: self._set_players(n))  # fmt: skip

    def _option_choice(self, option: str, value: OptionValue) -> Choice:
        return Choice(f"{option} {_value_name(value)}", lambda: self._value_label(option, value),
                      lambda: self.options[option] == value,
                      lambda: self._set_option(option, value))  # fmt: skip

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
        computer = Choice(
            f"seat {seat + 1} computer",
            lambda: ladder_label(self.spec.name, self._level_of(seat)),
            lambda: not self.seats[seat].is_human,
            lambda: self._set_seat(seat, Seat(SeatKind.COMPUTER, self._level_of(seat))),
            2.4,
        )
        return [person, self._step_choice(seat, -1), computer, self._step_choice(seat, 1)]

    def _step_choice(self, seat: int, step: int) -> Choice:
        """The computer a level weaker (``step`` -1) or stronger (+1): a seat played by a
        person becomes the computer at the level shown."""
        return Choice(f"seat {seat + 1} {'weaker' if step < 0 else 'stronger'}",
                      lambda: "−" if step < 0 else "+", lambda: False,
                      lambda: self._step(seat, step), 0.8)  # fmt: skip

    def _level_of(self, seat: int) -> str:
        """The level a seat's computer plays at, or would if chosen."""
        return self.seats[seat].level or self.level

    def _step(self, seat: int, step: int) -> None:
        at = self.ladder.index(self._level_of(seat)) + step
        level = self.ladder[max(0, min(len(self.ladder) - 1, at))]
        self._set_seat(seat, Seat(SeatKind.COMPUTER, level))

    def _on_ladder(self, level: str) -> str:
        """``level``, or the nearest level this setup offers."""
        return min(self.ladder, key=lambda own: abs(rung(own) - rung(level)))

    def _is_person(self, seat: int) -> bool:
        return self.seats[seat].is_human

    def _person_label(self) -> str:
        return _("Person")

    def _value_label(self, option: str, value: OptionValue) -> str:
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

    def _adapt(self) -> None:
        """Where the first seat's person plays with the adaptive opponent on, the computer
        starts at the level their rating at this game calls for."""
        profile = self.app.profiles.get(self.seats[0].name) if self.picks_players else None
        level = profile.next_level(self.spec.name) if profile is not None else None
        if level is None or not self.seats[0].is_human:
            return
        self.level = self._on_ladder(level)
        self.seats = [s if s.level is None else Seat(SeatKind.COMPUTER, self.level)
                      for s in self.seats]  # fmt: skip

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
        names = setup_seat_names(self.spec.name, self.players)
        taken = {s.name for n, s in enumerate(self.seats[: self.players]) if n != index}

        def chosen(name: str) -> None:
            self.player_names[index] = name
            self.seats[index] = Seat(name=name)
            self._adapt()

        self.app.push(make(Screen.PICK_PLAYER, self.app, names[index], taken - {""}, chosen))

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
                targets.append(Target(label_rect, partial(self._pick_player, row.seat),
                                      partial(self._is_person, row.seat),
                                      self._label_face(label_rect, row.seat),
                                      f"seat {row.seat + 1} player"))  # fmt: skip
            gap = max(2, u // 5)
            share = (area.width - gap * (len(row.choices) - 1)) / sum(c.width for c in row.choices)
            x = area.x
            for choice in row.choices:
                rect = pygame.Rect(x, area.y, round(choice.width * share), height)
                x = rect.right + gap
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
