"""Who plays a seat and how a match starts from a setup: the seats' names, colours and
labels, the main player here, and :func:`start_match`, shared by every screen that sets
up a match."""

from __future__ import annotations

import random
from functools import cache
from typing import TYPE_CHECKING

from game import i18n
from game.client import theme
from game.client.navigator import Screen, make
from game.client.views.marks import LIGHT_AND_DARK
from game.i18n import _
from game.levels import rung
from game.levels.table import rating
from game.names import seat_names
from game.rules import VARIANTS, MatchRecord, Variant, new_game
from game.session.adaptive import Standing
from game.session.match import Match
from game.session.seats import Seat

if TYPE_CHECKING:
    from game.client.app import App


def main_player(app: App) -> str:
    """The player this machine's first seat starts with: the LAN name, if it is a
    profile's."""
    name = app.settings.player_name
    return name if name and app.profiles.get(name) is not None else ""


def opponent_level(app: App, variant: str) -> str:
    """The computer's level for the main player at ``variant``: their adaptive level if
    they have one, else the level last chosen."""
    profile = app.profiles.get(main_player(app))
    adapted = profile.next_level(variant) if profile is not None else None
    return adapted or app.settings.last_level


def setup_seat_names(name: str, players: int) -> list[str]:
    """The seats' names of a game for labels, in the current language (worked out once per
    game, player count and language, not at every frame)."""
    return _seat_names(name, players, i18n.language())


@cache
def _seat_names(name: str, players: int, language: str) -> list[str]:
    return seat_names(new_game(name, players))


def start_match(app: App, chosen: Variant, seats: list[Seat], start: str | None = None) -> None:
    """A new match at this screen (from the set-up position ``start`` if given), from a
    fresh seed, with the title under it (to come back to, this match offered there to
    resume)."""
    record = MatchRecord(chosen, (), start)
    match = Match(record, seats, random.SystemRandom().getrandbits(62))
    app.reset(make(Screen.TITLE, app))
    app.push(make(Screen.MATCH, app, match))


def level_label(level: str) -> str:
    """A computer's level in a word or two: a named level by its name, another by its
    rung."""
    named = {"easy": _("Easy"), "medium": _("Medium"), "hard": _("Hard")}
    return named.get(level) or _("Level {n}").format(n=rung(level))


def rating_change(name: str, before: float, after: Standing) -> str:
    """What a match against the computer did to a person's rating, as the results say it:
    "Ada: rating about 2520 (−60), next Level 4"."""
    change = round(after.rating - before)
    return _("{name}: rating about {rating} ({change}), next {level}").format(
        name=name, rating=int(round(after.rating, -1)),
        change=f"{change:+d}".replace("-", "\u2212"), level=level_label(after.level),
    )  # fmt: skip


def ladder_label(variant: str, level: str) -> str:
    """A rung of the ladder with its measured rating at ``variant``, as the setup shows it:
    "Level 5 · about 1450" (no rating where the game's ladder is not measured)."""
    found = rating(variant, rung(level))
    if found is None:
        return _("Level {n}").format(n=rung(level))
    return _("Level {n} · about {rating}").format(n=rung(level), rating=int(round(found, -1)))


def setup_seat_colour(name: str, seat: int, palette: theme.Palette) -> theme.Colour:
    """The colour of a seat's pieces or marks, as the match will show it: White and Black
    in the board games (Lupo's roles are drawn by lot), the palette's seat colours in the
    dice games."""
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
    }.get(level) or _("computer, level {n}").format(n=rung(level))
