"""The LAN lobby: the live list of matches announced on this network, hosting one, and the
room where players take seats and get ready before the host starts the match."""

from __future__ import annotations

import secrets
from functools import partial
from typing import TYPE_CHECKING

import pygame

from game.client import theme
from game.client.navigator import Screen, make
from game.client.net_control import NetControl
from game.client.scene import Scene
from game.client.scenes.cards import ChooseScene
from game.client.scenes.entry import ask_player_name
from game.client.scenes.keypad import KeypadScene
from game.client.scenes.lan import open_link, player_name
from game.client.scenes.menu import Item, MenuScene, item
from game.client.scenes.seats import computer_label, setup_seat_names
from game.client.scenes.setup import Choice, SetupRow, SetupScene
from game.client.tournament_words import format_name
from game.client.widgets import Target, button, button_drawing
from game.i18n import _, ngettext
from game.levels import LEVELS
from game.names import variant_title
from game.rules import variant
from game.session.seats import Seat
from net.discovery import Listing, twins
from net.link import LanBrowser, LinkView, NetLink

if TYPE_CHECKING:
    from game.client.app import App

REFRESH = 0.5
"""Seconds between looks at the list of matches."""
ROWS = 6
"""Matches listed at once; with more, the last row turns the page."""


class LanScene(MenuScene):
    """Matches announced on this network, live; hosting; joining by address."""

    def __init__(self, app: App) -> None:
        self.browser = LanBrowser(app.settings.lan_interface, app.wakeup.notify)
        self.shown: list[Listing] = []
        self.page = 0
        self._since = 0.0
        self._name_asked = app.kiosk is not None  # a kiosk has its own name, and no keyboard
        super().__init__(app)

    def title(self) -> str:
        return _("Play on the LAN")

    def subtitle(self) -> str:
        if self.browser.error:
            return _("Matches cannot be listed here ({error}): join by address").format(
                error=self.browser.error
            )
        if not self.shown:
            return _("Looking for matches on this network…")
        if twins(self.shown):
            return _("⚠ Look-alikes: ask the host for their key")
        return _("Matches on this network")

    def items(self) -> list[Item]:
        entries: list[Item] = []
        for index, listing in enumerate(self._page()):
            entries.append(self._listing_item(index, listing))
        if len(self.shown) > ROWS:
            entries.append(item(self._more_label, self._next_page, "more"))
        name = item(self._name_label, lambda: ask_player_name(self.app), "name")
        return [
            *entries,
            item(lambda: _("Host a match"), self._host, "host"),
            item(lambda: _("Join by address"), self._by_address, "address"),
            item(lambda: _("Tournaments"), self._tournaments, "tournaments"),
            *([name] if self.app.kiosk is None else []),
            item(lambda: _("Back"), self.back, "back"),
        ]

    def spans(self, name: str) -> bool:
        """The matches across the grid, when a short window puts the buttons in two columns."""
        return name.startswith("match ")

    def layout(self, size: tuple[int, int]) -> None:
        """The menu, with each match as a row of two lines: what it is, then its host's key
        (and a warning when another key announces the same name or match)."""
        super().layout(size)
        rows = {f"match {n + 1}": listing for n, listing in enumerate(self._page())}
        look_alikes = twins(self.shown)
        wider = min(size[0] - 4 * self.u, 38 * self.u)  # than the buttons: rows say more
        self.set_targets(
            [
                _listing_row(
                    target.rect.inflate(max(0, wider - target.rect.width), 0),
                    target,
                    rows[target.name],
                    rows[target.name].name in look_alikes,
                    self.palette,
                )
                if target.name in rows
                else target
                for target in self.targets
            ]
        )

    def _pages(self) -> int:
        return 1 if len(self.shown) <= ROWS else -(-len(self.shown) // (ROWS - 1))

    def _page(self) -> list[Listing]:
        """The matches on the page shown: all of them, or a page's worth beside "More"."""
        if len(self.shown) <= ROWS:
            return self.shown
        self.page %= self._pages()  # the list may have shrunk since the page was turned
        return self.shown[self.page * (ROWS - 1) : (self.page + 1) * (ROWS - 1)]

    def _more_label(self) -> str:
        return _("More matches: page {page} of {pages}").format(
            page=self.page + 1, pages=self._pages()
        )

    def _next_page(self) -> None:
        self.page = (self.page + 1) % self._pages()
        self.layout(self.app.size)

    def _name_label(self) -> str:
        return _("Your name: {name}").format(name=player_name(self.app))

    def update(self, dt: float) -> None:
        super().update(dt)
        if not self._name_asked:  # on the way in: who is this, for the others?
            self._name_asked = True
            if not self.app.settings.player_name:
                ask_player_name(self.app)
                return
        self._since += dt
        if self._since >= REFRESH:
            self._since = 0.0
            listings = self.browser.listings()
            if listings != self.shown:
                self.shown = listings
                self.layout(self.app.size)

    @property
    def waiting(self) -> bool:
        return True  # the list changes as matches come and go

    def _listing_item(self, index: int, listing: Listing) -> Item:
        def open_() -> bool:  # a tournament over takes nobody; its own players rejoin it
            return listing.compatible and not (listing.tournament and listing.state == "over")

        return item(lambda: _listing_label(listing), lambda: self._join(listing),
                    f"match {index + 1}", open_)  # fmt: skip

    def _join(self, listing: Listing) -> None:
        enter = self._enter if listing.tournament else self._connect
        if listing.code:
            self.app.push(
                KeypadScene(
                    self.app,
                    _("Join code for {host}").format(host=listing.host),
                    "0123456789",
                    lambda code: enter(listing.address, listing.port, code, listing.key),
                )
            )
        else:
            enter(listing.address, listing.port, None, listing.key)

    def _enter(self, address: str, port: int, code: str | None, key: str) -> None:
        """Enter the tournament at ``address:port``, its director holding the announced
        ``key``: first, who plays this person's games."""
        director = bytes.fromhex(key)
        self.app.push(make(Screen.TOURNAMENT_JOIN, self.app, address, port, code, director))

    def _connect(self, address: str, port: int, code: str | None, key: str = "") -> None:
        """Join the match at ``address:port``; from the list, only if the host proves it
        holds the announced ``key`` (a spoofed announcement cannot lure anyone)."""
        link = open_link(self.app, code)
        if link is None:
            return
        link.join(address, port, bytes.fromhex(key) if key else None)
        self.app.replace(RoomScene(self.app, link))

    def _by_address(self) -> None:
        self.app.push(
            KeypadScene(self.app, _("Address and port, e.g. 192.168.1.20:40000"), "0123456789.:",
                        self._typed_address)
        )  # fmt: skip

    def _typed_address(self, text: str) -> None:
        address, _sep, port = text.rpartition(":")
        if not address or not port.isdigit() or not 0 < int(port) < 65536:
            self.app.push(
                KeypadScene(self.app, _("Not an address and port: {text}").format(text=text),
                            "0123456789.:", self._typed_address)
            )  # fmt: skip
            return
        self.app.push(
            KeypadScene(self.app, _("Join code (leave empty if none)"), "0123456789",
                        lambda code: self._connect(address, int(port), code or None),
                        allow_empty=True)
        )  # fmt: skip

    def _host(self) -> None:
        self.app.replace(LanChooseScene(self.app))

    def _tournaments(self) -> None:
        self.app.push(make(Screen.TOURNAMENTS, self.app))

    def discard(self) -> None:
        self.browser.close()


def _listing_label(listing: Listing) -> str:
    game = variant_title(listing.game) if listing.compatible else listing.game
    if listing.tournament:
        return _tournament_label(listing, game)
    if not listing.compatible:
        state = _("another version of Tavolo")
    elif listing.state == "lobby":
        state = ngettext("{n} seat free", "{n} seats free", listing.free).format(n=listing.free)
    elif listing.state in ("playing", "paused"):
        state = _("under way: watch")
    else:  # over, or a state this version does not know
        state = _("finished")
    lock = " 🔒" if listing.code else ""
    return f"{game} · {listing.host} · {state}{lock}"


def _tournament_label(listing: Listing, game: str) -> str:
    """A tournament's row: its name, game and format, and whether one can still enter."""
    if not listing.compatible:
        state = _("another version of Tavolo")
    elif listing.state == "over":
        state = _("over")
    elif listing.free and listing.round:  # a Swiss under way: late entrants play from the next
        state = _("round {n} · still open").format(n=listing.round)
    elif listing.free:
        places = ngettext("{n} place free", "{n} places free", listing.free)
        state = places.format(n=listing.free)
    else:
        state = _("round {n} under way").format(n=listing.round)
    lock = " 🔒" if listing.code else ""
    name = _("Tournament {name}").format(name=listing.host)
    return f"{name} · {game} · {format_name(listing.format)} · {state}{lock}"


def _listing_row(
    rect: pygame.Rect, entry: Target, listing: Listing, look_alike: bool, palette: theme.Palette
) -> Target:
    """A match's row: the menu entry's label, and below it, smaller, the host's key — in
    the warning colour, with a warning, if another key announces the same host or match."""
    plain = button_drawing(rect, lambda: "", palette, entry.enabled)  # its face, focus, press
    first_size, second_size = round(rect.height * 0.36), round(rect.height * 0.29)
    margin = rect.height // 4
    width = rect.width - 2 * margin

    def draw(surface: pygame.Surface, focused: bool, pressed: bool) -> None:
        plain(surface, focused, pressed)
        on = entry.enabled()
        top = theme.fitted(
            _listing_label(listing), first_size, palette.button_text if on else palette.muted,
            width, True,
        )  # fmt: skip
        surface.blit(top, (rect.x + margin, rect.y + rect.height // 10))
        if listing.tournament:
            key = _("Director key {fingerprint}").format(fingerprint=listing.fingerprint)
        else:
            key = _("Host key {fingerprint}").format(fingerprint=listing.fingerprint)
        if look_alike:
            key += "  ⚠ " + _("look-alike")
        colour = palette.warning if look_alike else palette.muted
        below = theme.fitted(key, second_size, colour, width)
        surface.blit(
            below, below.get_rect(bottomleft=(rect.x + margin, rect.bottom - rect.height // 10))
        )

    return Target(rect, entry.action, entry.enabled, draw, entry.name, lambda: "")


class LanChooseScene(ChooseScene):
    def title(self) -> str:
        return _("Host a match")

    def choose(self, name: str) -> None:
        self.app.push(LanSetupScene(self.app, name))


class LanSetupScene(SetupScene):
    """The match setup, with a join code, for a match others join over the LAN."""

    offers_lan = False  # it is the LAN's
    ladder = LEVELS  # the LAN protocol carries the named levels only (docs/PROTOCOL.md)

    def __init__(
        self,
        app: App,
        name: str,
        start: str | None = None,
        options: dict[str, object] | None = None,
    ) -> None:
        self.code: str | None = None
        super().__init__(app, name, start, options)
        self.seats = [Seat() for _ in self.seats]  # players join; the host adds computers

    def subtitle(self) -> str:
        if self.start is not None:
            return _("From the position chosen: seats left to a person are for players on the LAN")
        return _("Set up the match: seats left to a person are for players on the LAN")

    def items(self) -> list[Item]:
        items = super().items()
        code = item(
            lambda: (
                _("Join code: {code}").format(code=self.code) if self.code else _("Join code: none")
            ),
            self._toggle_code,
            "code",
        )
        return [code, *items]

    picks_players = False  # the seats left to a person are for players on the LAN

    def _opponents_row(self) -> list[SetupRow]:
        return []

    def _seat_choices(self, seat: int) -> list[Choice]:
        if seat == 0:  # the host's own
            return [Choice("seat 1 you", lambda: _("You"), lambda: True, lambda: None)]
        return super()._seat_choices(seat)

    def _person_label(self) -> str:
        return _("On the LAN")

    def _toggle_code(self) -> None:
        self.code = None if self.code else f"{secrets.randbelow(10_000):04d}"

    def _start(self) -> None:
        chosen = variant(self.spec.name, self.players, self.options)
        computers = {
            i: seat.level for i, seat in enumerate(self.seats[: self.players]) if seat.level
        }
        link = open_link(self.app, self.code)
        if link is None:
            return
        link.host(chosen, computers, self.code, self.start)
        self.app.reset(make(Screen.TITLE, self.app))
        self.app.push(RoomScene(self.app, link))


class RoomScene(Scene):
    """Before the start: who sits where, who is ready; the host starts the match."""

    def __init__(self, app: App, link: NetLink) -> None:
        super().__init__(app)
        self.link = link
        self.view: LinkView = link.view()
        self._handed_on = False
        """Whether the link went on to the match screen (which closes it in its turn)."""

    def layout(self, size: tuple[int, int]) -> None:
        self.u = u = theme.unit(size)
        view = self.view
        width = min(size[0] - 4 * u, 30 * u)
        left = (size[0] - width) // 2
        y = 11 * u  # under four lines: where to join, the host's key, who watches, a notice
        targets: list[Target] = []
        high, gap = theme.row(u), u // 2
        for index in range(len(view.seats)):
            rect = pygame.Rect(left, y, width, high)
            targets.append(
                button(rect, partial(self._seat_label, index), partial(self._sit, index),
                       self.palette, partial(self._can_sit, index), f"seat {index + 1}")
            )  # fmt: skip
            y += high + gap
        y += u
        half = (width - u) // 2
        if view.hosting:
            targets.append(
                button(pygame.Rect(left, y, half, high), lambda: _("Start"), self._start,
                       self.palette, lambda: self.view.can_start, "start")
            )  # fmt: skip
        else:
            targets.append(
                button(pygame.Rect(left, y, half, high), self._ready_label, self._toggle_ready,
                       self.palette, lambda: self.view.my_seat is not None, "ready")
            )  # fmt: skip
        targets.append(
            button(pygame.Rect(left + half + u, y, half, high), lambda: _("Leave"), self.back,
                   self.palette, name="leave")
        )  # fmt: skip
        y += high + gap
        targets.append(
            button(pygame.Rect(left, y, width, high), self._coach_label, self._toggle_coach,
                   self.palette, lambda: self.view.my_seat is not None, "coach")
        )  # fmt: skip
        self.set_targets(targets)

    def _seat_label(self, index: int) -> str:
        view = self.view
        seat = view.seats[index]
        names = setup_seat_names(view.variant.name, view.variant.players) if view.variant else []
        where = names[index] if index < len(names) else _("Player {n}").format(n=index + 1)
        if seat.computer:
            who = computer_label(seat.computer)
        elif seat.peer is None:
            who = _("free: tap to sit here")
        else:
            who = seat.name + (" ✓" if seat.ready else "")
        return _("{seat}: {who}").format(seat=where, who=who)

    def _can_sit(self, index: int) -> bool:
        seat = self.view.seats[index]
        return self.view.phase == "lobby" and not seat.computer and seat.peer is None

    def _sit(self, index: int) -> None:
        self.link.take_seat(index)

    def _ready_label(self) -> str:
        view = self.view
        mine = view.seats[view.my_seat] if view.my_seat is not None else None
        return _("Not ready") if mine is not None and mine.ready else _("Ready")

    def _toggle_ready(self) -> None:
        view = self.view
        if view.my_seat is not None:
            self.link.set_ready(not view.seats[view.my_seat].ready)

    def _coach_label(self) -> str:
        view = self.view
        mine = view.seats[view.my_seat] if view.my_seat is not None else None
        if mine is not None and mine.coach:
            return _("Hints and odds: you allow them")
        return _("Hints and odds: you do not allow them")

    def _toggle_coach(self) -> None:
        view = self.view
        if view.my_seat is not None:
            self.link.allow_coaching(not view.seats[view.my_seat].coach)

    def _start(self) -> None:
        self.link.start()

    def update(self, dt: float) -> None:
        super().update(dt)
        view = self.link.view()
        if view != self.view:
            first = not self.view.seats and view.seats
            self.view = view
            if first:
                self.layout(self.app.size)
        playing = view.phase in ("playing", "over") and view.variant is not None
        if playing and not view.catching_up:
            self._handed_on = True
            self.app.replace(make(Screen.MATCH, self.app, NetControl(self.app, self.link)))

    @property
    def waiting(self) -> bool:
        return True  # the room changes as players come, sit and get ready

    def back(self) -> None:
        self.app.reset(make(Screen.TITLE, self.app))

    def discard(self) -> None:
        if not self._handed_on:
            self.link.close()

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(self.palette.background)
        u, view = self.u, self.view
        centre = surface.get_width() // 2
        title = variant_title(view.variant.name) if view.variant else _("Connecting…")
        heading = theme.text(title, 3 * u, self.palette.accent, True)
        surface.blit(heading, heading.get_rect(midtop=(centre, u)))
        lines = [self._room_line()]
        if view.host_fingerprint:  # the same words on every screen of the room, the host's too
            lines.append(_("Host key {fingerprint}").format(fingerprint=view.host_fingerprint))
        if view.spectators:
            lines.append(_("Watching: {names}").format(names=", ".join(view.spectators)))
        if view.seats:
            lines.append(_("Hints and odds: on, every player allows them") if view.coaching
                         else _("Hints and odds: off unless every player allows them"))  # fmt: skip
        if view.error:
            lines = [_("No connection: {reason}").format(reason=view.error)]
        elif view.notices:
            lines.append(view.notices[-1])
        for n, line in enumerate(lines):
            text = theme.text(line, round(1.1 * u), self.palette.text)
            surface.blit(text, text.get_rect(midtop=(centre, 4 * u + n * round(1.5 * u))))
        self.draw_targets(surface)

    def _room_line(self) -> str:
        view = self.view
        if view.hosting:
            from net.discovery import lan_addresses

            where = f"{(self.app.settings.lan_interface or lan_addresses()[0])}:{view.port}"
            code = self.link.config.code
            if code:
                return _("Others join at {where} with the code {code}").format(
                    where=where, code=code
                )
            return _("Others join at {where}").format(where=where)
        return _("Hosted by {name}").format(name=view.name) if view.name else ""
