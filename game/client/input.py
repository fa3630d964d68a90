"""One stream of input for mouse, touch and keyboard.

Pointer presses and releases come from the mouse or from one finger on a touch screen: the
first to come down while no other holds the pointer.  Every finger on the glass is tracked;
the others never press, move or release anything, and each is forgotten when it lifts.  A
finger silent longer than :data:`STALE_TOUCH_SECONDS` is forgotten too (its lift was lost:
without this, one lost event froze a touch table until a restart), so the next finger takes
the pointer.  SDL also turns touches into mouse events, which carry ``touch=True`` and are
dropped here so a tap never counts twice.  Keys become navigation: arrows move the focus,
Tab and Shift+Tab walk it through every target in turn (the arrows go by where things are,
and a target can lie where no arrow leads), Enter or Space activates, Escape goes back.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

import pygame

log = logging.getLogger(__name__)

STALE_TOUCH_SECONDS = 8.0
"""A finger that neither moves nor lifts for this long is taken to be gone: its lift was
lost (a dropped event, a finger slid off the glass on some panels, a driver's hiccup).  A
finger held still sends nothing, so this must be well over the longest deliberate hold: the
operator's three seconds in the corner (``LONG_PRESS`` in :mod:`game.client.kiosk_watch`), which
people stretch to be sure.  It is also how long a lost lift keeps other fingers out."""


@dataclass(frozen=True, slots=True)
class Press:
    pos: tuple[int, int]


@dataclass(frozen=True, slots=True)
class Release:
    pos: tuple[int, int]


@dataclass(frozen=True, slots=True)
class Motion:
    pos: tuple[int, int]


@dataclass(frozen=True, slots=True)
class Navigate:
    dx: int
    dy: int


@dataclass(frozen=True, slots=True)
class Cycle:
    """Tab (``step`` 1) or Shift+Tab (−1): the next or previous target in order."""

    step: int


@dataclass(frozen=True, slots=True)
class Activate:
    pass


@dataclass(frozen=True, slots=True)
class Back:
    pass


@dataclass(frozen=True, slots=True)
class Text:
    """Characters typed (a keypad screen takes digits from a keyboard too)."""

    text: str


UIEvent = Press | Release | Motion | Navigate | Cycle | Activate | Back | Text

_ARROWS = {
    pygame.K_LEFT: (-1, 0),
    pygame.K_RIGHT: (1, 0),
    pygame.K_UP: (0, -1),
    pygame.K_DOWN: (0, 1),
}
_ACTIVATE = {pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE}


FingerKey = tuple[int, int]
"""A finger as SDL names it: its touch device's id and its own (each device counts anew)."""


@dataclass(slots=True)
class _Finger:
    """A finger on the glass: when it last came down or moved, and where."""

    seen: float
    pos: tuple[int, int]


class InputTranslator:
    """Turns pygame events into :data:`UIEvent` s for a window of a given size.

    ``clock`` tells the time in seconds for :data:`STALE_TOUCH_SECONDS` (the app passes its
    own, which also times the operator's long press)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._fingers: dict[FingerKey, _Finger] = {}
        self._pointer: FingerKey | None = None
        """The finger that owns the pointer (one of :attr:`_fingers`), if one does."""

    @property
    def fingers(self) -> int:
        """Fingers believed to be on the glass."""
        return len(self._fingers)

    @property
    def pointing(self) -> bool:
        """A finger owns the pointer."""
        return self._pointer is not None

    def translate(self, event: pygame.event.Event, size: tuple[int, int]) -> UIEvent | None:
        kind = event.type
        if kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.MOUSEMOTION):
            if getattr(event, "touch", False):
                return None  # SDL's copy of a touch: the finger event already counts
            if kind == pygame.MOUSEMOTION:
                return Motion(event.pos)
            if event.button != 1:
                return None
            return Press(event.pos) if kind == pygame.MOUSEBUTTONDOWN else Release(event.pos)
        if kind in (pygame.FINGERDOWN, pygame.FINGERUP, pygame.FINGERMOTION):
            return self._finger(event, size)
        if kind == pygame.TEXTINPUT:
            return Text(event.text)
        if kind == pygame.KEYDOWN:
            if event.key in _ARROWS:
                return Navigate(*_ARROWS[event.key])
            if event.key == pygame.K_TAB:
                return Cycle(-1 if event.mod & pygame.KMOD_SHIFT else 1)
            if event.key in _ACTIVATE:
                return Activate()
            if event.key in (pygame.K_ESCAPE, pygame.K_BACKSPACE):
                return Back()
        return None

    def expire(self) -> int:
        """Forget every finger silent longer than :data:`STALE_TOUCH_SECONDS`; returns how
        many.  The app calls this every frame, so a lost lift is logged when it happens and
        the table holds no ghost fingers; :meth:`translate` forgets them too, so whether it
        is called changes no pointer event.

        A forgotten pointer finger gets no :class:`Release`.  A release at its last place
        would be taken by :meth:`Scene.handle` as the end of a tap, activating the button
        under a finger (or a sleeve, a cup) nobody lifted just then, and in a kiosk's
        top-left corner it would end the operator's long press.  Without one, at most a
        button stays drawn pressed until the next :class:`Press`, which resets the scene's
        press and the app's corner timing alike."""
        now = self._clock()
        fingers = self._fingers.items()
        stale = [key for key, finger in fingers if now - finger.seen > STALE_TOUCH_SECONDS]
        for key in stale:
            self._forget(key, now)
        return len(stale)

    def _finger(self, event: pygame.event.Event, size: tuple[int, int]) -> UIEvent | None:
        self.expire()
        key = (getattr(event, "touch_id", 0), event.finger_id)
        pos = (round(event.x * size[0]), round(event.y * size[1]))
        if event.type == pygame.FINGERDOWN:
            return self._down(key, pos)
        finger = self._fingers.get(key)
        if finger is None:
            return None  # never seen down, or forgotten: it owns nothing
        if event.type == pygame.FINGERUP:
            del self._fingers[key]
            if key != self._pointer:
                return None
            self._pointer = None
            return Release(pos)
        finger.seen, finger.pos = self._clock(), pos
        return Motion(pos) if key == self._pointer else None

    def _down(self, key: FingerKey, pos: tuple[int, int]) -> UIEvent | None:
        """A finger comes down.  One already down (a driver repeating itself) starts over:
        the pointer's finger presses again where it is, with no release in between (that
        would be a tap nobody made)."""
        if self._fingers.pop(key, None) is not None and key == self._pointer:
            self._pointer = None
        self._fingers[key] = _Finger(self._clock(), pos)
        if self._pointer is not None:
            return None  # a second finger is not a second pointer
        self._pointer = key
        return Press(pos)

    def _forget(self, key: FingerKey, now: float) -> None:
        finger = self._fingers.pop(key)
        owned = key == self._pointer
        if owned:
            self._pointer = None
        log.info(
            "touch: finger %s of device %s silent for %.1f s at %s, forgotten%s",
            key[1], key[0], now - finger.seen, finger.pos,
            " (it held the pointer)" if owned else "",
        )  # fmt: skip
