"""One stream of input for mouse, touch and keyboard.

Pointer presses and releases come from the mouse or from the first finger on a touch screen;
SDL also turns touches into mouse events, which carry ``touch=True`` and are dropped here so
a tap never counts twice.  Keys become navigation: arrows move the focus, Tab and Shift+Tab
walk it through every target in turn (the arrows go by where things are, and a target can
lie where no arrow leads), Enter or Space activates, Escape goes back.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame


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


class InputTranslator:
    """Turns pygame events into :data:`UIEvent` s for a window of a given size."""

    def __init__(self) -> None:
        self._finger: int | None = None

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
            pos = (round(event.x * size[0]), round(event.y * size[1]))
            if kind == pygame.FINGERDOWN:
                if self._finger is not None:
                    return None  # a second finger is not a second pointer
                self._finger = event.finger_id
                return Press(pos)
            if event.finger_id != self._finger:
                return None
            if kind == pygame.FINGERUP:
                self._finger = None
                return Release(pos)
            return Motion(pos)
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
