"""A tournament on the LAN: directing one or joining one, and its room — who is in, this
round's games, the standings, the cross table, your next opponent — with the way to the TV
screen and the exports of the cross table.

The director and this person's player run on a thread of their own
(:class:`net.tournament_link.TournamentLink`); these screens only read its snapshots, so the
frame loop never waits on a socket.  The person plays their own games on the match screen
(an ordinary LAN match, :class:`~game.client.tournament_control.TournamentGameControl`),
coming back to the room after each; or the computer plays them at the level they chose, and
the room shows how each goes.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pygame

from game.client import theme
from game.client.navigator import Screen, make
from game.client.net_control import DROP_TIMEOUT
from game.client.scene import Scene
from game.client.scenes.entry import TextEntryScene
from game.client.scenes.keypad import KeypadScene
from game.client.scenes.lan import player_name
from game.client.scenes.menu import Item, MenuScene, item
from game.client.scenes.play import PlayScene
from game.client.scenes.results import ResultsScene
from game.client.scenes.seats import level_label
from game.client.tournament_control import TournamentGameControl
from game.client.tournament_words import (
    FORMATS,
    draw_rows,
    format_name,
    pairing_cells,
    round_line,
    standing_cells,
    status_line,
    tie_break_name,
)
from game.client.widgets import Target, button
from game.files import atomic_write
from game.i18n import _, ngettext
from game.levels import LEVELS
from game.names import variant_title
from game.rules import VARIANTS, RulesError, variant
from game.session.export import free_path
from game.session.saves import plain
from game.session.tournament_export import tournament_html
from game.tournament import cross_table_csv
from net.discovery import lan_addresses
from net.identity import Identity, IdentityError
from net.tournament_director import DirectorConfig
from net.tournament_link import TournamentFeed, TournamentLink, TournamentView
from net.tournament_player import PlayerConfig

if TYPE_CHECKING:
    from game.client.app import App

PACE = 0.4
"""Seconds the computer playing this person's game waits before each move, so the room and
the TV can follow it."""
MOST_PLAYERS = 32
RECONNECT = 120.0
"""Seconds to go on seeking a director that was lost before saying it is gone."""

ROUND_MINUTES = (0, 20, 30, 45, 60, 90)
"""The times a round may be given in the setup (0: none): its games unfinished then are drawn."""


def tournament_games(app: App) -> list[str]:
    """The variants a tournament can be played in here: the two-player ones a kiosk allows."""
    allowed = app.kiosk.games if app.kiosk is not None else VARIANTS
    names = []
    for name in VARIANTS:
        try:
            variant(name, 2)
        except RulesError:
            continue
        if name in allowed:
            names.append(name)
    return names


def open_tournament_link(
    app: App,
    level: str | None,
    code: str | None = None,
    director: bytes | None = None,
    watch: bool = False,
) -> TournamentLink | None:
    """A tournament link for this person, their games played by the computer at ``level``
    (None: by the person, on the match screen), to the director holding ``director`` (its
    key as announced; None: whoever is at the address); None with the reason shown on the
    title screen.  ``watch``: only to watch it, on the TV screen (never entered)."""
    try:
        identity = Identity.load(app.paths.data / "identity")
    except IdentityError as error:
        app.reset(make(Screen.TITLE, app, notice=str(error)))
        return None
    record = app.paths.data / "tournaments" / f"tournament-{int(time.time())}.tavolo-tournament"
    config = PlayerConfig(
        name=player_name(app), level=level, interface=app.settings.lan_interface,
        record=record, drop_timeout=DROP_TIMEOUT, think_seconds=app.settings.thinking_seconds,
        pace=PACE, code=code, reconnect=RECONNECT, director=director, watch=watch,
    )  # fmt: skip
    return TournamentLink(identity, config, on_change=app.wakeup.notify)


class TournamentsScene(MenuScene):
    """Direct a tournament, or join one by address."""

    def title(self) -> str:
        return _("Tournaments")

    def subtitle(self) -> str:
        return _("Every game is a signed LAN match between the players' own computers")

    def items(self) -> list[Item]:
        return [
            item(lambda: _("Direct a tournament"), self._direct, "direct"),
            item(lambda: _("Join a tournament by address"), self._by_address, "join"),
            item(lambda: _("Back"), self.back, "back"),
        ]

    def _direct(self) -> None:
        self.app.push(TournamentSetupScene(self.app))

    def _by_address(self, notice: str = "") -> None:
        prompt = notice or _("Director's address and port, e.g. 192.168.1.20:40000")
        self.app.push(KeypadScene(self.app, prompt, "0123456789.:", self._typed_address))

    def _typed_address(self, text: str) -> None:
        address, _sep, port = text.rpartition(":")
        if not address or not port.isdigit() or not 0 < int(port) < 65536:
            self._by_address(_("Not an address and port: {text}").format(text=text))
            return
        self.app.push(
            KeypadScene(self.app, _("Join code (leave empty if none)"), "0123456789",
                        lambda code: self._level(address, int(port), code or None),
                        allow_empty=True)
        )  # fmt: skip

    def _level(self, address: str, port: int, code: str | None) -> None:
        self.app.push(JoinLevelScene(self.app, address, port, code))


class JoinLevelScene(MenuScene):
    """Who plays this person's games: the computer at a level they choose."""

    def __init__(
        self, app: App, address: str, port: int, code: str | None, director: bytes | None = None
    ) -> None:
        self.address, self.port, self.code, self.director = address, port, code, director
        super().__init__(app)

    def title(self) -> str:
        return _("Join a tournament")

    def subtitle(self) -> str:
        return _("Who plays your games: you, or the computer at a level you choose")

    def items(self) -> list[Item]:
        levels = [self._level_item(level) for level in LEVELS]
        me = item(lambda: _("I play my games"), lambda: self._join(None), "myself")
        watch = item(lambda: _("Only watch, on the TV screen"), self._watch, "watch")
        return [me, *levels, watch, item(lambda: _("Back"), self.back, "back")]

    def _watch(self) -> None:
        """Follow the tournament without entering it: its room, with the TV on top."""
        link = open_tournament_link(self.app, None, self.code, self.director, watch=True)
        if link is None:
            return
        link.join(self.address, self.port)
        self.app.reset(make(Screen.TITLE, self.app))
        self.app.push(TournamentRoomScene(self.app, link))
        self.app.push(make(Screen.TOURNAMENT_TV, self.app, link))

    def _level_item(self, level: str) -> Item:
        return item(
            lambda: _("The computer plays them: {level}").format(level=level_label(level)),
            lambda: self._join(level),
            f"level {level}",
        )

    def _join(self, level: str | None) -> None:
        link = open_tournament_link(self.app, level, self.code, self.director)
        if link is None:
            return
        link.join(self.address, self.port)
        self.app.reset(make(Screen.TITLE, self.app))
        self.app.push(TournamentRoomScene(self.app, link))


class TournamentSetupScene(MenuScene):
    """A tournament's setup: game, format, players, a computer for an odd seat, who plays
    this person's games, its name and join code — each a button that steps its choice."""

    columns = 2

    def __init__(self, app: App) -> None:
        self.games = tournament_games(app)
        last = app.settings.last_game
        self.game = self.games.index(last) if last in self.games else 0
        self.format = 0
        self.players = 4
        self.odd_level: str = "easy"
        self.my_level: str | None = None
        """Who plays this person's games: None, the person; else the computer's level."""
        self.plays = True
        self.name = _("Tournament of {name}").format(name=player_name(app))[:40]
        self.code: str | None = None
        self.minutes = 0
        """A round's time (0: none), one of :data:`ROUND_MINUTES`."""
        self.problem = ""
        super().__init__(app)

    def title(self) -> str:
        return _("Direct a tournament")

    def subtitle(self) -> str:
        return self.problem or _("Players join at this computer's address")

    def spans(self, name: str) -> bool:
        return name in ("start", "name")

    def items(self) -> list[Item]:
        def odd() -> str:
            if not self.odd_level:
                return _("Odd seat: a bye")
            return _("Odd seat: computer, {level}").format(level=level_label(self.odd_level))

        def mine() -> str:
            if not self.plays:
                return _("You: direct only")
            if self.my_level is None:
                return _("Your games: you play them")
            return _("Your games: computer, {level}").format(level=level_label(self.my_level))

        return [
            item(lambda: _("Game: {game}").format(game=variant_title(self.games[self.game])),
                 self._next_game, "game"),
            item(lambda: _("Format: {name}").format(name=format_name(FORMATS[self.format])),
                 self._next_format, "format"),
            item(lambda: _("People: {n}").format(n=self.players), self._more_players, "players"),
            item(lambda: _("Fewer people"), self._fewer_players, "fewer"),
            item(odd, self._next_odd, "odd"),
            item(mine, self._next_mine, "mine"),
            item(lambda: (_("Join code: {code}").format(code=self.code) if self.code
                          else _("Join code: none")), self._toggle_code, "code"),
            item(lambda: (_("Time a round: {n} min").format(n=self.minutes) if self.minutes
                          else _("Time a round: none")), self._next_minutes, "time"),
            item(lambda: _("Back"), self.back, "back"),
            item(lambda: _("Name: {name}").format(name=self.name), self._ask_name, "name"),
            item(lambda: _("Start the tournament"), self._start, "start"),
        ]  # fmt: skip

    def _relayout(self) -> None:
        self.problem = ""
        self.layout(self.app.size)

    def _next_minutes(self) -> None:
        self.minutes = ROUND_MINUTES[(ROUND_MINUTES.index(self.minutes) + 1) % len(ROUND_MINUTES)]
        self._relayout()

    def _next_game(self) -> None:
        self.game = (self.game + 1) % len(self.games)
        self._relayout()

    def _next_format(self) -> None:
        self.format = (self.format + 1) % len(FORMATS)
        self._relayout()

    def _more_players(self) -> None:
        self.players = self.players + 1 if self.players < MOST_PLAYERS else 1
        self._relayout()

    def _fewer_players(self) -> None:
        self.players = self.players - 1 if self.players > 1 else MOST_PLAYERS
        self._relayout()

    def _next_odd(self) -> None:
        levels = ["", *LEVELS]
        self.odd_level = levels[(levels.index(self.odd_level) + 1) % len(levels)]
        self._relayout()

    def _next_mine(self) -> None:
        """Your games by you, by the computer at each level in turn, then directing only."""
        if not self.plays:
            self.plays, self.my_level = True, None
        elif self.my_level is None:
            self.my_level = LEVELS[0]
        elif self.my_level == LEVELS[-1]:
            self.plays = False
        else:
            self.my_level = LEVELS[LEVELS.index(self.my_level) + 1]
        self._relayout()

    def _toggle_code(self) -> None:
        self.code = None if self.code else f"{secrets.randbelow(10_000):04d}"
        self._relayout()

    def _ask_name(self) -> None:
        def keep(name: str) -> None:
            self.name = name[:40]

        self.app.push(TextEntryScene(self.app, _("The tournament's name"), keep, text=self.name))

    def _start(self) -> None:
        format_ = FORMATS[self.format]
        computer = bool(self.odd_level) and format_ != "knockout"
        if self.players < (1 if computer else 2):
            self.problem = _("A tournament needs two people, or one and a computer")
            self.layout(self.app.size)
            return
        if not self.plays and self.players < 2:
            self.problem = _("A tournament needs two people, or one and a computer")
            self.layout(self.app.size)
            return
        config = DirectorConfig(
            game=variant(self.games[self.game], 2),
            format="round-robin" if format_ == "double-round-robin" else format_,
            double=format_ == "double-round-robin", players=self.players,
            level=self.odd_level, name=self.name, interface=self.app.settings.lan_interface,
            drop_timeout=DROP_TIMEOUT, think_seconds=self.app.settings.thinking_seconds,
            code=self.code, advertise=True, round_seconds=60 * self.minutes,
        )  # fmt: skip
        link = open_tournament_link(self.app, self.my_level, self.code)
        if link is None:
            return
        link.direct(config, plays=self.plays)
        self.app.reset(make(Screen.TITLE, self.app))
        self.app.push(TournamentRoomScene(self.app, link))


class TournamentRoomScene(Scene):
    """The tournament's room: where it stands, this round's games, the standings and the
    cross table; the TV screen and the exports."""

    holds_the_kiosk = True

    def __init__(self, app: App, link: TournamentFeed) -> None:
        super().__init__(app)
        self.link = link
        self.view: TournamentView = link.view()
        self.notice = ""
        self.exported: Path | None = None
        """The file the cross table was exported to last."""
        self._address = ""
        """This computer's address on the LAN, where players join a tournament it directs."""
        self.handed: set[tuple[int, int]] = set()
        """This person's games already taken to the match screen (by themselves)."""

    def layout(self, size: tuple[int, int]) -> None:
        self.u = u = theme.unit(size)
        high = theme.row(u, 2.6)
        width = size[0] - 2 * u
        count = 6
        each = (width - (count - 1) * u // 2) // count
        y = size[1] - high - u // 2
        buttons = [
            ("my game", lambda: _("Your game"), self._my_game, self._can_play),
            ("tv", lambda: _("TV screen"), self._tv, lambda: True),
            ("export page", lambda: _("Export page"), self._export_html, self._exportable),
            ("export csv", lambda: _("Export CSV"), self._export_csv, self._exportable),
            ("export games", lambda: _("Export games"), self._export_games, self._exportable),
            ("leave", lambda: _("Leave"), self._leave, lambda: True),
        ]
        targets: list[Target] = []
        for n, (name, label, action, enabled) in enumerate(buttons):
            rect = pygame.Rect(u + n * (each + u // 2), y, each, high)
            targets.append(button(rect, label, action, self.palette, enabled, name))
        self.set_targets(targets)

    def _can_play(self) -> bool:
        game = self.view.my_game
        link = self.link.game_link(game) if game is not None else None
        if link is None:
            return False
        net = link.view()
        return net.phase in ("playing", "over") and net.variant is not None and not net.catching_up

    def _my_game(self) -> None:
        """This person's game under way, on the match screen."""
        game = self.view.my_game
        link = self.link.game_link(game) if game is not None else None
        if game is None or link is None or not self._can_play():
            return
        self.handed.add(game)
        self.app.push(make(Screen.MATCH, self.app, TournamentGameControl(self.app, link)))

    def _exportable(self) -> bool:
        return self.view.tournament is not None

    def _tv(self) -> None:
        self.app.push(make(Screen.TOURNAMENT_TV, self.app, self.link))

    def _export(self, suffix: str, data: str) -> None:
        folder = self.app.paths.data / "exports"
        slug = "".join(c if c.isalnum() else "-" for c in self.view.name).strip("-") or "tournament"
        path = free_path(folder, f"{slug}{suffix}")
        try:
            atomic_write(path, data.encode("utf-8"))
        except OSError as error:
            self.notice = _("The cross table could not be saved: {error}").format(
                error=plain(error)
            )
            return
        self.notice = _("The cross table is saved as {name} in {folder}").format(
            name=path.name, folder=folder
        )
        self.exported = path

    def _export_games(self) -> None:
        """Every scored game's signed match record and the whole tournament record, in a
        folder of their own (each checks with ``python -m net verify``)."""
        files = self.link.game_files()
        slug = "".join(c if c.isalnum() else "-" for c in self.view.name).strip("-") or "tournament"
        folder = free_path(self.app.paths.data / "exports", f"{slug}-games")
        try:
            for name, data in files:
                atomic_write(folder / name, data)
        except OSError as error:
            self.notice = _("The games could not be saved: {error}").format(error=plain(error))
            return
        saved = ngettext(
            "{n} game and the tournament record are saved in {folder}",
            "{n} games and the tournament record are saved in {folder}",
            len(files) - 1,
        )
        self.notice = saved.format(n=len(files) - 1, folder=folder)
        self.exported = folder

    def _export_html(self) -> None:
        tournament = self.view.tournament
        if tournament is not None:
            page = tournament_html(tournament, self.view.name, variant_title(self.view.game))
            self._export(".html", page)

    def _export_csv(self) -> None:
        tournament = self.view.tournament
        if tournament is not None:
            rounds = tournament.rounds
            self._export(".csv", cross_table_csv(tournament.players, rounds, tournament.format))

    def update(self, dt: float) -> None:
        super().update(dt)
        self.view = self.link.view()
        game = self.view.my_game
        if game is not None and game not in self.handed and self._can_play():
            self._my_game()  # the person's game has begun: to the board

    @property
    def waiting(self) -> bool:
        return True  # the room changes as players come, games are played and scored

    def _leave(self) -> None:
        """Leave, once sure if the tournament is under way (it goes on without this person,
        or ends for everyone when this computer directs it)."""
        view = self.view
        if view.phase in ("over", "failed", "connecting"):
            self.back()
            return
        if view.directing:
            warning = _("You direct this tournament: leaving ends it for every player")
        else:
            warning = _("The tournament goes on without you: you are withdrawn after a minute")
        self.app.push(LeaveScene(self.app, warning, self.back))

    def back(self) -> None:
        self.app.reset(make(Screen.TITLE, self.app))

    def discard(self) -> None:
        self.link.close()

    def lines(self) -> list[str]:
        """The lines under the heading: what, where, how it stands now."""
        view = self.view
        what = [variant_title(view.game)] if view.game else []
        if view.format:
            what.append(format_name(view.format))
        what.append(round_line(view))
        lines = [" · ".join(what)]
        if view.directing and view.port:
            if not self._address:  # looked up once: not every frame
                self._address = self.app.settings.lan_interface or lan_addresses()[0]
            where = f"{self._address}:{view.port}"
            if view.code:
                lines.append(
                    _("Players join at {where} with the code {code}").format(
                        where=where, code=view.code
                    )
                )
            else:
                lines.append(_("Players join at {where}").format(where=where))
        lines.append(status_line(view))
        if self.notice:
            lines.append(self.notice)
        elif view.notices and not view.error:
            lines.append(view.notices[-1])
        return lines

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(self.palette.background)
        u, view = self.u, self.view
        width, height = surface.get_size()
        heading = view.name or _("Tournament")
        title = theme.fitted(heading, 3 * u, self.palette.accent, width - 2 * u, True)
        surface.blit(title, title.get_rect(midtop=(width // 2, u // 2)))
        size = max(theme.SMALLEST, round(1.1 * u))
        y = u // 2 + title.get_height() + u // 3
        for n, line in enumerate(self.lines()):
            colour = self.palette.warning if view.error and n == len(self.lines()) - 1 else None
            colour = colour or (self.palette.accent if n == 2 else self.palette.text)
            text = theme.fitted(line, size, colour, width - 2 * u)
            surface.blit(text, text.get_rect(midtop=(width // 2, y)))
            y += round(size * 1.45)
        y += u // 2
        bottom = self.targets[0].rect.top - u // 2 if self.targets else height - u
        self._draw_tables(surface, pygame.Rect(u, y, width - 2 * u, bottom - y), size)
        self.draw_targets(surface)

    def _draw_tables(self, surface: pygame.Surface, area: pygame.Rect, size: int) -> None:
        """Standings on the left, this round's games on the right; the cross table below
        them when there is room for it."""
        u, view, palette = self.u, self.view, self.palette
        half = (area.width - u) // 2
        left = pygame.Rect(area.x, area.y, half, area.height)
        right = pygame.Rect(area.x + half + u, area.y, half, area.height)
        pitch = round(size * 1.45)
        cross_rows = len(view.cross_names) + 1
        with_cross = bool(view.cross) and area.height >= (2 + cross_rows + 2 + cross_rows) * pitch
        if with_cross:
            upper = (cross_rows + 1) * pitch
            left.height = right.height = upper
        self._caption(surface, left, _("Standings"), size)
        self._caption(surface, right, _("This round"), size)
        left.y += pitch
        left.height -= pitch
        right.y += pitch
        right.height -= pitch
        breaks = [tie_break_name(b) for b in view.tie_breaks[:1]]
        standings = [[_("#"), _("Player"), _("Points"), *breaks]]
        standings += [standing_cells(line)[: 3 + len(breaks)] for line in view.standings]
        if not view.standings:
            standings += [["", name, "", ""] for name in view.entrants]
        mine = [False, *(line.name == view.my_name for line in view.standings)]
        draw_rows(surface, left, standings, [1, 6, 2, 3][: 3 + len(breaks)], size, palette,
                  marked=mine)  # fmt: skip
        games = [[_("Board"), _("White"), _("Black"), _("State")]]
        games += [pairing_cells(game) for game in view.games]
        games += [[_("Bye: {name}").format(name=name)] for name in view.byes]
        marked = [False, *(game.mine for game in view.games)]
        draw_rows(surface, right, games, [1.8, 4, 4, 4], size, palette, marked=marked)
        if with_cross:
            below = pygame.Rect(area.x, left.bottom + pitch, area.width, area.bottom - left.bottom)
            self._caption(surface, below, _("Cross table"), size)
            below.y += pitch
            below.height -= pitch
            count = len(view.cross_names)
            header = ["", *(str(n + 1) for n in range(count))]
            rows = [header] + [
                [f"{n + 1}. {name}", *cells]
                for n, (name, cells) in enumerate(zip(view.cross_names, view.cross, strict=True))
            ]
            draw_rows(surface, below, rows, [6, *([2] * count)], size, palette)

    def _caption(self, surface: pygame.Surface, rect: pygame.Rect, words: str, size: int) -> None:
        text = theme.fitted(words, size, self.palette.accent, rect.width, True)
        surface.blit(text, rect.topleft)


class LeaveScene(MenuScene):
    """Leaving a tournament under way, said and asked once more."""

    def __init__(self, app: App, warning: str, leave: Callable[[], None]) -> None:
        self.warning, self.leave = warning, leave
        super().__init__(app)

    def title(self) -> str:
        return _("Leave the tournament?")

    def subtitle(self) -> str:
        return self.warning

    def items(self) -> list[Item]:
        return [
            item(lambda: _("Stay"), self.app.pop, "stay"),
            item(lambda: _("Leave"), self.leave, "leave"),
        ]


class TournamentResultsScene(ResultsScene):
    """The results of the person's own game of a tournament: back to its room."""

    def layout(self, size: tuple[int, int]) -> None:
        super().layout(size)
        targets = []
        for target in self.targets:
            if target.name == "title":
                targets.append(button(target.rect, lambda: _("Back to the tournament"),
                                      self.back, self.palette, name="room"))  # fmt: skip
            elif target.name != "rematch":
                targets.append(target)
        self.set_targets(targets)

    def to_title(self) -> None:
        self.back()

    def back(self) -> None:
        self.app.pop()  # the room is under this screen


class TournamentPauseScene(MenuScene):
    """Over the person's own game of a tournament: the match goes on meanwhile; the room is
    a tap away, and the game too (its button in the room)."""

    def __init__(self, app: App, play: PlayScene) -> None:
        self.play = play
        super().__init__(app)

    def title(self) -> str:
        return _("Menu")

    def subtitle(self) -> str:
        return _("The game goes on meanwhile: “Your game” in the room brings you back to it")

    def items(self) -> list[Item]:
        return [
            item(lambda: _("Continue"), self.app.pop, "continue"),
            item(lambda: _("Rules"),
                 lambda: self.app.push(make(Screen.RULES, self.app, self.play.match.variant)),
                 "rules"),
            item(lambda: _("Back to the tournament"), self._room, "room"),
        ]  # fmt: skip

    def _room(self) -> None:
        self.app.pop()  # this menu
        self.app.pop()  # the match screen (the match goes on, the room offers it again)
