"""The seam between the client's screens: a screen, a match control or the app asks for
another screen by what it is (:class:`Screen`), never by importing it.

:mod:`game.client.screens` imports every screen module and registers how each screen is
made (:func:`register`); the app imports it once, so by the first frame every screen is
known.  Screens therefore depend on this module and on the widgets and views below them,
never on each other: the client has no import circle, and a screen can be replaced without
touching the screens that lead to it.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum, auto
from typing import TYPE_CHECKING, Any, TypeGuard

if TYPE_CHECKING:
    from game.client.scene import Scene
    from game.client.scenes.play import PlayScene


class Screen(Enum):
    """Every screen another part of the client asks for."""

    TITLE = auto()
    SETUP = auto()
    LAN_SETUP = auto()
    """The setup of a match others join over the LAN."""
    SETTINGS = auto()
    CHOOSE = auto()
    """The game cards, to choose what to set up."""
    RULES_INDEX = auto()
    PLAYERS = auto()
    PICK_PLAYER = auto()
    HIGH_SCORES = auto()
    TUTORIALS = auto()
    UNFINISHED = auto()
    FINISHED = auto()
    LAN = auto()
    """The live list of the LAN's matches."""
    TOURNAMENTS = auto()
    """Directing a tournament on the LAN, or joining one."""
    TOURNAMENT_JOIN = auto()
    """Joining a tournament at an address: who plays this person's games."""
    TOURNAMENT_TV = auto()
    """A tournament's TV screen (made with the room's link)."""
    TOURNAMENT_RESULTS = auto()
    """The results of a person's own game of a tournament (back to its room)."""
    TOURNAMENT_PAUSE = auto()
    """The menu over a person's own game of a tournament."""
    RULES = auto()
    PLAY = auto()
    """The match screen of one layout (a ``PlayScene``), whatever the settings say."""
    MATCH = auto()
    """The match screen of the layout the settings choose (beside, or face to face)."""
    PAUSE = auto()
    RESULTS = auto()
    REVIEW = auto()
    """The review of a finished match from the list of finished ones."""
    REVIEW_MATCH = auto()
    """The review of the match just played (from its results)."""
    REPLAY = auto()
    """The replay of a match (one read from a file: its marks and notices)."""
    IMPORT = auto()
    NET_PAUSE = auto()
    NET_RESULTS = auto()
    PIN = auto()
    """The keypad that asks for the operator's PIN (a wrong one: ``wrong=True``)."""
    OPERATOR = auto()
    OPERATOR_SCORES = auto()
    ATTRACT = auto()
    ABANDON = auto()
    CLOSED = auto()


_makers: dict[Screen, Callable[..., Scene]] = {}


def register(screen: Screen, maker: Callable[..., Scene]) -> None:
    """Make ``screen`` with ``maker`` from now on (a screen class, or a function choosing
    one)."""
    _makers[screen] = maker


def make(screen: Screen, *args: Any, **kwargs: Any) -> Scene:
    """A new ``screen``, made with ``args`` (the app first, as every screen takes it)."""
    return _maker(screen)(*args, **kwargs)


def shows(scene: object, screen: Screen) -> bool:
    """Whether ``scene`` is a ``screen`` (or a screen made from it: a face-to-face match
    screen is a match screen)."""
    maker = _maker(screen)
    return isinstance(maker, type) and isinstance(scene, maker)


def is_match(scene: object) -> TypeGuard[PlayScene]:
    """Whether ``scene`` is a match screen (:data:`Screen.PLAY` is made as a PlayScene, the
    face-to-face one as a subclass of it), for those who read its match or its view."""
    return shows(scene, Screen.PLAY)


def _maker(screen: Screen) -> Callable[..., Scene]:
    try:
        return _makers[screen]
    except KeyError:
        raise LookupError(
            f"no screen is registered as {screen.name}: import game.client.screens first"
        ) from None
