"""Choosing a game: a card per game with its board as a match shows it, what it is in one
line, how many play and how long it takes, and its variants inside the card.

The thumbnails are drawn by the games' own board views, from a position a few seeded random
moves into a match (the same every time), once per size and palette.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

import pygame

from game.client import theme
from game.client.control import LocalControl
from game.client.navigator import Screen, is_match, make
from game.client.scenes.menu import Item, MenuScene
from game.client.surface_cache import surface_cache
from game.client.widgets import Target, button, two_lines
from game.i18n import _
from game.names import variant_subtitle, variant_title
from game.rules import VARIANTS, variant
from game.session.match import Match
from game.session.seats import Seat

if TYPE_CHECKING:
    from game.client.app import App

GAMES = ("ausgeblockt", "numeri", "dama", "mulino")
THUMBNAIL_PLIES = {"ausgeblockt": 30, "numeri": 40, "dama": 14, "mulino": 15}
"""How far into a seeded random match each thumbnail shows: far enough to look played."""
THUMBNAIL_SEED = 2026
THUMBNAIL_SCREEN = (1280, 720)
"""The board is drawn as on a match screen of this size, then scaled to the card's picture:
a board view laid out on a screen the size of a thumbnail would not fit its board."""


def describe(game: str) -> str:
    """What a game is, in one line."""
    return {
        "ausgeblockt": _("Roll five dice, mark your cells, join your three start cells"),
        "numeri": _("Roll and race your numbered pawns; rows of three roll again"),
        "dama": _("Jump and capture diagonally; crowned men fly"),
        "mulino": _("Make rows of three and take your opponent's pieces"),
    }[game]


def facts(game: str) -> str:
    """How many play and for how long, as a card's small line."""
    players = {"numeri": _("2–4 players")}.get(game, _("2 players"))
    minutes = {"ausgeblockt": "10–15", "numeri": "10–20", "dama": "15–30", "mulino": "10–20"}
    return _("{players} · {minutes} min").format(players=players, minutes=minutes[game])


def variant_label(name: str) -> str:
    """A variant as its card's button names it: "Classic" for the game itself."""
    return _("Classic") if name.endswith(":classic") else variant_title(name)


class ChooseScene(MenuScene):
    """The games as cards, two by two (one above the other on a narrow screen).  A game with
    one variant is a card to tap; a game with several shows a button for each inside its
    card, with a few words on what it changes."""

    _pictures_missing = True
    """Some card still waits for its picture (drawn one a frame)."""
    _shown = False
    """The cards have been drawn once (the first frame draws no picture: it comes at once)."""

    def title(self) -> str:
        return _("Choose a game")

    def card_action(self) -> str:
        """What tapping a one-variant card does, written on its foot."""
        return _("Play")

    def allowed(self) -> list[str]:
        kiosk = self.app.kiosk
        return [name for name in VARIANTS if kiosk is None or name in kiosk.games]

    def games(self) -> dict[str, list[str]]:
        """The games shown, each with its allowed variants."""
        allowed = self.allowed()
        shown = {game: [n for n in allowed if n.split(":")[0] == game] for game in GAMES}
        return {game: names for game, names in shown.items() if names}

    def items(self) -> list[Item]:
        return []

    def layout(self, size: tuple[int, int]) -> None:
        """Cards two by two (one column on a narrow screen), as large as the screen allows
        up to 20 units high; each card: its board on the left, its words on the right, and
        across its foot the button(s) that set up a match."""
        self.u = u = theme.unit(size)
        games = self.games()
        columns = 1 if size[0] < size[1] or len(games) == 1 else 2
        rows = -(-len(games) // columns)
        width = min(size[0] - 4 * u, 44 * u * columns + (columns - 1) * u)
        card_width = (width - (columns - 1) * u) // columns
        back_height = theme.row(u, 3.4)
        top = 9 * u
        room = size[1] - top - back_height - 2 * u
        card_height = min(20 * u, (room - (rows - 1) * u) // rows)
        left = (size[0] - width) // 2
        self.cards: list[tuple[str, pygame.Rect]] = []
        targets: list[Target] = []
        for index, (game, names) in enumerate(games.items()):
            row, column = divmod(index, columns)
            card = pygame.Rect(left + column * (card_width + u), top + row * (card_height + u),
                               card_width, card_height)  # fmt: skip
            self.cards.append((game, card))
            targets += self._card_targets(names, card)
        back = pygame.Rect(left + (width - 16 * u) // 2, top + rows * (card_height + u),
                           16 * u, back_height)  # fmt: skip
        targets.append(button(back, lambda: _("Back"), self.app.pop, self.palette, name="back"))
        self.set_targets(targets)

    def _foot(self, card: pygame.Rect) -> pygame.Rect:
        """The band across a card's foot that holds its buttons."""
        u = self.u
        height = max(theme.row(u, 3.2), 4 * theme.SMALLEST)  # three small lines fit
        return pygame.Rect(card.x + u // 2, card.bottom - height - u // 2, card.width - u, height)

    def _picture_side(self, card: pygame.Rect) -> int:
        return self._foot(card).top - card.top - self.u

    def _card_targets(self, names: list[str], card: pygame.Rect) -> list[Target]:
        """A game of one variant is one target, the whole card; a game of several has a
        button for each across its foot."""
        foot = self._foot(card)
        if len(names) == 1:
            face = self._card_face(card, foot, names[0])
            return [Target(card, partial(self.choose, names[0]), draw=face, name=names[0])]
        gap = max(2, self.u // 4)
        each = (foot.width - gap * (len(names) - 1)) // len(names)
        targets = []
        for n, name in enumerate(names):
            rect = pygame.Rect(foot.x + n * (each + gap), foot.y, each, foot.height)
            targets.append(Target(rect, partial(self.choose, name),
                                  draw=self._variant_button(rect, name), name=name))  # fmt: skip
        return targets

    def _card_face(
        self, card: pygame.Rect, foot: pygame.Rect, name: str
    ) -> Callable[[pygame.Surface, bool, bool], None]:
        """A card that is one target: its foot looks like the others' buttons (saying what
        tapping does), the card ringed while focused or pressed."""
        button_face = self._variant_button(foot, name, self.card_action())

        def draw(surface: pygame.Surface, focused: bool, pressed: bool) -> None:
            button_face(surface, False, pressed)
            if focused or pressed:
                pygame.draw.rect(surface, self.palette.focus, card, max(2, self.u // 6),
                                 border_radius=self.u)  # fmt: skip

        return draw

    def _variant_button(
        self, rect: pygame.Rect, name: str, label: str | None = None
    ) -> Callable[[pygame.Surface, bool, bool], None]:
        """A button with the variant's name (or ``label``) and, under it, what it is."""
        palette = self.palette
        return two_lines(rect, palette.button, palette.button_text, palette,
                         lambda: label or variant_label(name),
                         lambda: variant_subtitle(name))  # fmt: skip

    def draw(self, surface: pygame.Surface) -> None:
        palette, u = self.palette, self.u
        surface.fill(palette.background)
        title = theme.text(self.title(), 4 * u, palette.accent, True)
        surface.blit(title, title.get_rect(midtop=(surface.get_width() // 2, 2 * u)))
        made = not self._shown  # the cards show at once; a picture a frame after that
        self._pictures_missing = False
        for game, card in self.cards:
            pygame.draw.rect(surface, palette.panel, card, border_radius=u)
            side = self._picture_side(card)
            picture = thumbnail.cached(game, side, self.app)
            if picture is None and not made:
                picture, made = thumbnail(game, side, self.app), True
            if picture is not None:
                surface.blit(picture, (card.x + u // 2, card.y + u // 2))
            else:
                self._pictures_missing = True
            x = card.x + side + u
            room = card.right - x - u // 2
            y = card.y + u // 2
            name = theme.fitted(variant_title(first_variant(game)), round(2.2 * u),
                                palette.accent, room, True)  # fmt: skip
            surface.blit(name, (x, y))
            y += name.get_height() + u // 4
            size = round(0.95 * u)
            for line in theme.wrap(describe(game), theme.font(size), room)[:3]:
                words = theme.text(line, size, palette.text)
                surface.blit(words, (x, y))
                y += words.get_height()
            facts_line = theme.fitted(facts(game), round(0.85 * u), palette.muted, room)
            surface.blit(facts_line, (x, y + u // 4))
        self._shown = True
        self.draw_targets(surface)

    @property
    def animating(self) -> bool:
        return super().animating or self._pictures_missing

    def choose(self, name: str) -> None:
        self.app.push(make(Screen.SETUP, self.app, name))


class RulesIndexScene(ChooseScene):
    def title(self) -> str:
        return _("Rules")

    def card_action(self) -> str:
        return _("Rules")

    def choose(self, name: str) -> None:
        self.app.push(make(Screen.RULES, self.app, variant(name), with_options=True))


def first_variant(game: str) -> str:
    """A game's first variant (its classic one): ``dama`` → ``dama:classic``."""
    return next(n for n in VARIANTS if n.split(":")[0] == game)


def _picture_key(game: str, side: int, app: App) -> tuple[object, ...]:
    """A picture is told apart by what it shows — the app's colours and coordinates —
    never by the app itself (a kiosk starts a new one after each restart; the cache must
    not keep the old ones alive)."""
    return game, side, app.palette, app.boards, app.settings.show_coordinates


@surface_cache(entries=16, megabytes=16, key=_picture_key)
def thumbnail(game: str, side: int, app: App) -> pygame.Surface:
    """The board of ``game`` a few moves into a seeded match, drawn by its view as ``app``
    draws now and fitted into a ``side``-pixel square."""
    screen = pygame.Surface(THUMBNAIL_SCREEN)  # the match screen it is taken from
    scene = make(Screen.PLAY, app, LocalControl(app, _thumbnail_match(game), autosave=False))
    if not is_match(scene):
        raise TypeError(f"the match screen is made as {type(scene).__name__}")
    scene.layout(screen.get_size())
    screen.fill(app.palette.panel)
    scene.view.draw(screen)
    board = screen.subsurface(scene.view.rect.clip(screen.get_rect()))
    scene.discard()
    scale = side / max(board.get_size())
    picture = pygame.transform.smoothscale_by(board, scale)
    square = pygame.Surface((side, side), pygame.SRCALPHA)
    square.blit(picture, picture.get_rect(center=(side // 2, side // 2)))
    return square


def _thumbnail_match(game: str) -> Match:
    name = first_variant(game)
    chosen = variant(name, VARIANTS[name].players[0])
    match = Match.new(chosen, [Seat()] * chosen.players, THUMBNAIL_SEED)
    match.play_randomly(random.Random(THUMBNAIL_SEED), THUMBNAIL_PLIES[game])
    return match
