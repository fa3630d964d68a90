"""A keypad: digits and a few signs on big keys, for an address, a join code or a PIN."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

import pygame

from game.client import input as ui
from game.client import theme
from game.client.scene import Scene
from game.client.widgets import Target, button
from game.i18n import _

if TYPE_CHECKING:
    from game.client.app import App


class KeypadScene(Scene):
    """Digits and a few signs on big keys, for an address or a join code (no keyboard
    needed on a touch screen; a keyboard's keys work too)."""

    def __init__(
        self,
        app: App,
        prompt: str,
        allowed: str,
        done: Callable[[str], None],
        allow_empty: bool = False,
        *,
        secret: bool = False,
        notice: Callable[[], str] = lambda: "",
        text: str = "",
    ) -> None:
        """``secret``: show a dot for each character typed (a PIN on a public screen);
        ``notice``: a line under the field, read at each draw (a wait, a warning) — while it
        says anything, OK cannot be pressed."""
        super().__init__(app)
        self.prompt, self.allowed, self.done = prompt, allowed, done
        self.allow_empty = allow_empty
        self.secret = secret
        self.notice = notice
        self.text = text
        """What is typed so far (``text``: the value it starts from, to change)."""
        self._replacing = bool(text)
        """The value shown is the one to change: the first key typed starts it afresh."""

    def layout(self, size: tuple[int, int]) -> None:
        self.u = u = theme.unit(size)
        keys = [c for c in "123456789" if c in self.allowed]
        keys += [c for c in ".0:" if c in self.allowed]
        key = theme.touch(4 * u)
        left = size[0] // 2 - (3 * key + 2 * u) // 2
        top = 10 * u
        targets: list[Target] = []
        for index, char in enumerate(keys):
            row, col = divmod(index, 3)
            rect = pygame.Rect(left + col * (key + u), top + row * (key + u // 2), key, key)
            targets.append(
                button(rect, partial(str, char), partial(self._type, char), self.palette,
                       name=f"key {char}")
            )  # fmt: skip
        rows = (len(keys) + 2) // 3
        y = top + rows * (key + u // 2) + u
        wide, high = (3 * key + 2 * u - u) // 2, theme.row(u)
        targets += [
            button(pygame.Rect(left, y, wide, high), lambda: _("Delete"), self._delete,
                   self.palette, name="delete"),
            button(pygame.Rect(left + wide + u, y, wide, high), lambda: _("OK"), self._ok,
                   self.palette, self._can_send, name="ok"),
            button(pygame.Rect(left, y + high + u, 3 * key + 2 * u, high), lambda: _("Cancel"),
                   self.app.pop, self.palette, name="cancel"),
        ]  # fmt: skip
        self.set_targets(targets)

    def _type(self, char: str) -> None:
        if self._replacing:
            self.text, self._replacing = "", False
        if len(self.text) < 40:
            self.text += char

    def _delete(self) -> None:
        self._replacing = False
        self.text = self.text[:-1]

    @property
    def shown(self) -> str:
        """What the field shows of the text typed."""
        return "\u2022" * len(self.text) if self.secret else self.text

    def _can_send(self) -> bool:
        return (bool(self.text) or self.allow_empty) and not self.notice()

    def _ok(self) -> None:
        if not self._can_send():
            return
        text = self.text
        self.app.pop()
        self.done(text)

    def back(self) -> None:
        """Backspace and Escape: take back a character, or leave the keypad."""
        if self.text:
            self._delete()
        else:
            self.app.pop()

    def handle(self, event: ui.UIEvent) -> None:
        if isinstance(event, ui.Text):
            for char in event.text:
                if char in self.allowed:
                    self._type(char)
            return
        if isinstance(event, ui.Activate) and self.focus not in self.targets:
            self._ok()  # Enter after typing on a keyboard: OK (once a key has the focus,
            return  # Enter presses that key)
        super().handle(event)

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(self.palette.background)
        u = self.u
        prompt = theme.text(self.prompt, round(1.3 * u), self.palette.text, True)
        surface.blit(prompt, prompt.get_rect(midtop=(surface.get_width() // 2, 2 * u)))
        field = pygame.Rect(0, 0, 24 * u, 3 * u)
        field.midtop = (surface.get_width() // 2, 5 * u)
        pygame.draw.rect(surface, self.palette.panel, field, border_radius=u // 2)
        shown = theme.text(self.shown or " ", 2 * u, self.palette.accent, True)
        surface.blit(shown, shown.get_rect(center=field.center))
        notice = self.notice()
        if notice:
            line = theme.text(notice, round(1.1 * u), self.palette.warning, True)
            where = (surface.get_width() // 2, field.bottom + u // 3)
            surface.blit(line, line.get_rect(midtop=where))
        self.draw_targets(surface)
