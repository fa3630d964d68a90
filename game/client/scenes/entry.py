"""Typing a line of text — a player's name — on a keyboard or on big keys on the screen.

A touch screen has no keyboard, so the screen shows one: digits, the letters in the order of
the player's own keyboard (QWERTZ in German, QWERTY otherwise), a row of accented letters,
a shift key, space, delete, cancel and OK.  Letters start a word in capitals, as on a
phone.  A real keyboard types too, accents and all (its text input), and Enter says OK.

A screen can also take only a set of characters (a kiosk's high-score initials: A to Z):
then only those have keys, where the player's keyboard has them, and a letter typed on a
real keyboard in the other case is taken in the set's.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

import pygame

from game import i18n
from game.client import input as ui
from game.client import theme
from game.client.scene import Scene
from game.client.settings import NAME_LENGTH, clean_name, suggested_name
from game.client.widgets import Target, button
from game.i18n import _

if TYPE_CHECKING:
    from game.client.app import App

QWERTY = ("1234567890", "qwertyuiop", "asdfghjkl'", "zxcvbnm-.", "àèéìòùäöüß")
QWERTZ = ("1234567890", "qwertzuiop", "asdfghjkl'", "yxcvbnm-.", "àèéìòùäöüß")


def key_rows(language: str) -> tuple[str, ...]:
    """The on-screen keys, row by row, as the player's keyboard has them."""
    return QWERTZ if language == "de" else QWERTY


def charset_rows(charset: str, language: str) -> tuple[str, ...]:
    """The keys of ``charset`` (space aside), in its case, where the player's keyboard has
    them; those it has not, in a row of their own below."""
    rows = [kept for row in key_rows(language) if (kept := _in_charset(row, charset))]
    placed = "".join(rows)
    rest = "".join(char for char in charset if char not in placed and char != " ")
    return (*rows, rest) if rest else tuple(rows)


def _in_charset(text: str, charset: str) -> str:
    """The characters of ``text`` that ``charset`` has — as they are or in the other case,
    taken in the set's — the others left out."""
    kept = []
    for char in text:
        forms = [f for f in (char, char.upper(), char.lower()) if len(f) == 1 and f in charset]
        kept += forms[:1]
    return "".join(kept)


class TextEntryScene(Scene):
    """A prompt, the text typed so far, and a keyboard on the screen.

    ``check`` turns the text into what is kept (trimmed, say) or None if it cannot be; OK
    waits for an acceptable text and hands the checked one to ``done``.  ``charset``, if
    given, is the only characters that can be typed (no shift key then; space only if it
    has one).
    """

    def __init__(
        self,
        app: App,
        prompt: str,
        done: Callable[[str], None],
        *,
        text: str = "",
        check: Callable[[str], str | None] = clean_name,
        limit: int = NAME_LENGTH,
        charset: str | None = None,
    ) -> None:
        super().__init__(app)
        self.prompt, self.done, self.check, self.limit = prompt, done, check, limit
        self.charset = charset
        self.text = text[:limit]
        self.capital = self._word_begins()
        """The next letter from the screen's keys is a capital."""
        self._activate_pending = False

    # -- typing ---------------------------------------------------------------------------

    def type_text(self, text: str) -> None:
        """Add what was typed, as far as it is printable and fits; a cue when it does not."""
        if self.charset is None:
            kept = "".join(char for char in text if char.isprintable())
        else:
            kept = _in_charset(text, self.charset)
        room = self.limit - len(self.text)
        if len(kept) > room or len(kept) < len(text):
            self.gentle_cue(self.field)
        self.text += kept[:room]
        self.capital = self._word_begins()

    def delete(self) -> None:
        self.text = self.text[:-1]
        self.capital = self._word_begins()

    def _word_begins(self) -> bool:
        return not self.text.strip() or self.text.endswith(" ")

    def _key(self, char: str) -> None:
        self.type_text(_capital(char) if self.capital else char)

    def _shift(self) -> None:
        self.capital = not self.capital

    @property
    def accepted(self) -> str | None:
        """The text as it would be kept, or None while it cannot be."""
        return self.check(self.text)

    def ok(self) -> None:
        accepted = self.accepted
        if accepted is None:
            self.gentle_cue(self.field)
            return
        self.app.pop()
        self.done(accepted)

    def cancel(self) -> None:
        self.app.pop()

    # -- input ----------------------------------------------------------------------------

    def handle(self, event: ui.UIEvent) -> None:
        """Text from the keyboard goes into the field (the on-screen focus goes: Enter then
        means OK).  Enter and the space bar both arrive as ``Activate``, and the space bar's
        text comes right behind it in the same frame: so an ``Activate`` waits for the end
        of the frame (:meth:`update`), and a space typed meanwhile cancels it."""
        if isinstance(event, ui.Text):
            if " " in event.text:
                self._activate_pending = False
            self.focus = None
            self.type_text(event.text)
        elif isinstance(event, ui.Activate):
            self._activate_pending = True
        else:
            super().handle(event)

    def update(self, dt: float) -> None:
        super().update(dt)
        if self._activate_pending:
            self._activate_pending = False
            if self.focus in self.targets:
                self.activate(self.focus)
            else:
                self.ok()

    def back(self) -> None:
        """Backspace and Escape: take back a character, or leave."""
        if self.text:
            self.delete()
        else:
            self.cancel()

    # -- screen ---------------------------------------------------------------------------

    def layout(self, size: tuple[int, int]) -> None:
        # The keys grow to fill the window as far as they fit (about 54 units across, 45
        # down): bigger keys are easier to hit with a finger, and a portrait window has the
        # width for them though its layout unit is small.
        self.u = u = max(theme.unit(size), min(size[0] // 54, size[1] // 45))
        language = i18n.language()
        rows = key_rows(language) if self.charset is None else charset_rows(self.charset, language)
        gap = u // 2
        columns = max(len(row) for row in rows)
        key_width = min(round(4.8 * u), (size[0] - 2 * u - (columns - 1) * gap) // columns)
        key_height = round(3.8 * u)
        board = columns * key_width + (columns - 1) * gap
        left = (size[0] - board) // 2
        self.field = pygame.Rect(left, 5 * u, board, 3 * u)
        y = 10 * u
        targets: list[Target] = []
        for row in rows:
            x = left + (board - (len(row) * key_width + (len(row) - 1) * gap)) // 2
            for char in row:
                rect = pygame.Rect(x, y, key_width, key_height)
                targets.append(
                    button(rect, partial(self._label, char), partial(self._key, char),
                           self.palette, name=f"key {char}")
                )  # fmt: skip
                x += key_width + gap
            y += key_height + gap
        y += gap
        side = 2 * key_width + gap
        middle = board - 2 * side - 2 * gap
        if self.charset is None:
            targets.append(button(pygame.Rect(left, y, side, key_height), lambda: "⇧",
                                  self._shift, self.palette, name="shift"))  # fmt: skip
        if self.charset is None or " " in self.charset:
            targets.append(button(pygame.Rect(left + side + gap, y, middle, key_height),
                                  lambda: _("Space"), lambda: self.type_text(" "),
                                  self.palette, name="space"))  # fmt: skip
        targets.append(button(pygame.Rect(left + board - side, y, side, key_height),
                              lambda: "⌫", self.delete, self.palette, lambda: bool(self.text),
                              "delete"))  # fmt: skip
        y += key_height + gap + u // 2
        half = (board - gap) // 2
        targets += [
            button(pygame.Rect(left, y, half, key_height), lambda: _("Cancel"), self.cancel,
                   self.palette, name="cancel"),
            button(pygame.Rect(left + half + gap, y, half, key_height), lambda: _("OK"), self.ok,
                   self.palette, lambda: self.accepted is not None, "ok"),
        ]  # fmt: skip
        self.set_targets(targets)

    def _label(self, char: str) -> str:
        """A key's face: a letter in capitals where one would be typed so (a set's keys are
        in the set's case)."""
        return _capital(char) if self.capital and self.charset is None else char

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(self.palette.background)
        u, centre = self.u, surface.get_width() // 2
        prompt = theme.text(self.prompt, round(1.3 * u), self.palette.text, True)
        surface.blit(prompt, prompt.get_rect(midtop=(centre, 2 * u)))
        pygame.draw.rect(surface, self.palette.panel, self.field, border_radius=u // 2)
        shown = theme.fitted(self.text + "|", 2 * u, self.palette.accent, self.field.width - u,
                             True)  # fmt: skip
        surface.blit(shown, shown.get_rect(center=self.field.center))
        hint = _("1 to {n} characters").format(n=self.limit)
        line = theme.text(hint, round(0.9 * u), self.palette.muted)
        surface.blit(line, line.get_rect(midtop=(centre, self.field.bottom + u // 2)))
        self.draw_targets(surface)


def _capital(char: str) -> str:
    """The capital of a letter, where it is one letter too (ß stays ß)."""
    upper = char.upper()
    return upper if len(upper) == 1 else char


def ask_player_name(app: App) -> None:
    """Ask the player for the name others see on the LAN — prefilled with the one given
    before, or else a suggestion from the login name — and keep it in the settings."""

    def keep(name: str) -> None:
        app.settings.player_name = name
        app.save_settings()

    app.push(
        TextEntryScene(
            app,
            _("Your name, as other players see it"),
            keep,
            text=app.settings.player_name or suggested_name(),
        )
    )
