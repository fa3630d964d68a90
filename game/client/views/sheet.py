"""The Ausgeblockt sheet and its five dice.

The dice keep their places in the tray: tapping one sets it aside (it moves down, framed),
tapping it again takes it back; "Roll again" rolls every die not set aside, and they tumble
and settle on what the engine received.
Then the cells the throw allows are ringed; tap one to mark it in pencil, or pass.
"""

from __future__ import annotations

import random

import pygame

from game.client import theme
from game.client.anim import Tween
from game.client.sprites import sprite
from game.client.views.base import BoardView, Control
from game.client.widgets import Target
from game.i18n import _
from game.rules import State
from game.rules.ausgeblockt import (
    CELLS,
    DECIDE,
    MARK,
    PASS,
    REROLL_BASE,
    ROLL,
    STOP,
    AusgeblocktState,
    dice_code,
    dice_of,
)
from game.rules.boards import COW, START_O, START_X

PAPER, INK, GRID = (246, 242, 228), (70, 80, 110), (170, 180, 200)
FACE_SPRITES = {1: "die_1", 2: "die_2", 3: "die_3", 4: "die_4", 5: "die_5", COW: "die_cow"}


class SheetView(BoardView):
    def __init__(self, play) -> None:
        super().__init__(play)
        self.slots: list[int] = []  # the faces of the five dice, in their tray places
        self.held: set[int] = set()  # tray places of the dice set aside (not rolled again)
        self.rolling: set[int] = set()  # tray places this player sent to roll again
        self.tumble: tuple[Tween, set[int]] | None = None
        self._sparkle = random.Random()  # only for the look of tumbling dice

    # -- geometry -------------------------------------------------------------------------

    def layout(self, board: pygame.Rect, tray: pygame.Rect) -> None:
        side = min(board.width, board.height)
        self.cell = side // 8
        self.rect = pygame.Rect(0, 0, self.cell * 7, self.cell * 7)
        self.rect.center = board.center
        self.tray = tray
        self.die_size = min(tray.width // 6, tray.height * 3 // 4)
        self._background = self._draw_background()

    def cell_rect(self, cell: int) -> pygame.Rect:
        col, row = cell % 7, cell // 7
        return pygame.Rect(
            self.rect.x + col * self.cell, self.rect.y + (6 - row) * self.cell, self.cell, self.cell
        )

    def cell_center(self, cell: int) -> tuple[int, int]:
        return self.cell_rect(cell).center

    def die_rect(self, slot: int) -> pygame.Rect:
        gap = (self.tray.width - 5 * self.die_size) // 6
        return pygame.Rect(
            self.tray.x + gap + slot * (self.die_size + gap),
            self.tray.y + (self.tray.height - self.die_size) // 2,
            self.die_size,
            self.die_size,
        )

    def _draw_background(self) -> pygame.Surface:
        margin = self.cell // 4
        surface = pygame.Surface((self.rect.width + 2 * margin, self.rect.height + 2 * margin))
        surface.fill(PAPER)
        symbols = self.state.sheet.symbols
        digits = theme.font(self.cell // 2, bold=True)
        for cell in range(CELLS):
            box = self.cell_rect(cell).move(margin - self.rect.x, margin - self.rect.y)
            pygame.draw.rect(surface, GRID, box, 1)
            symbol = symbols[cell]
            if symbol == COW:
                cow = sprite("die_cow", self.cell * 9 // 10)
                surface.blit(cow, cow.get_rect(center=box.center))
            elif symbol in (START_X, START_O):
                pygame.draw.rect(surface, (225, 215, 190), box.inflate(-4, -4))
                mark = sprite("mark_x" if symbol == START_X else "mark_o", self.cell * 4 // 5)
                surface.blit(mark, mark.get_rect(center=box.center))
            else:
                label = digits.render(str(symbol), True, INK)
                surface.blit(label, label.get_rect(center=box.center))
        return surface

    # -- drawing --------------------------------------------------------------------------

    def draw(self, surface: pygame.Surface) -> None:
        margin = self.cell // 4
        surface.blit(self._background, (self.rect.x - margin, self.rect.y - margin))
        state = self.state
        assert isinstance(state, AusgeblocktState)
        highlight = self.play.highlight_cells
        for cell in range(CELLS):
            if highlight >> cell & 1:  # translucent, so the marks beneath still show
                glow = pygame.Surface((self.cell, self.cell), pygame.SRCALPHA)
                glow.fill((*self.palette.accent, 120))
                surface.blit(glow, self.cell_rect(cell))
        starts = set(state.starts(0) + state.starts(1))
        for seat, mark in enumerate(("mark_x", "mark_o")):
            for cell in range(CELLS):
                if state.cells[seat] >> cell & 1 and cell not in starts:
                    pencil = sprite(mark, self.cell * 4 // 5)
                    surface.blit(pencil, pencil.get_rect(center=self.cell_center(cell)))
        if not self.play.locked and state.stage == MARK and state.to_move >= 0:
            ring = max(2, self.cell // 12)
            for cell in state.legal_actions():
                if cell < CELLS:
                    pygame.draw.rect(surface, self.palette.legal, self.cell_rect(cell), ring)
        if state.chain >= 0 and not state.is_terminal():
            pygame.draw.rect(
                surface, self.palette.focus, self.cell_rect(state.chain), max(2, self.cell // 16)
            )
        self._draw_dice(surface, state)

    def _draw_dice(self, surface: pygame.Surface, state: AusgeblocktState) -> None:
        self._sync_slots(state)
        for slot, face in enumerate(self.slots):
            rect = self.die_rect(slot)
            angle = 0.0
            if self.tumble and slot in self.tumble[1] and not self.tumble[0].done:
                face = self._sparkle.choice(list(FACE_SPRITES))
                angle = self._sparkle.uniform(-35, 35)
                rect = rect.move(0, -round(self.die_size * 0.3 * (1 - self.tumble[0].t)))
            elif slot in self.held:
                rect = rect.move(0, self.die_size // 4)  # set aside
            die = sprite(FACE_SPRITES[face], self.die_size)
            if angle:
                die = pygame.transform.rotate(die, angle)
            surface.blit(die, die.get_rect(center=rect.center))
            if slot in self.held:
                pygame.draw.rect(
                    surface,
                    self.palette.focus,
                    rect,
                    max(2, self.die_size // 20),
                    border_radius=self.die_size // 6,
                )

    def _sync_slots(self, state: AusgeblocktState) -> None:
        """Keep the tray in step with the engine's multiset of faces."""
        if sorted(self.slots) != list(state.dice):
            self.slots = list(state.dice)
            self.held.clear()

    # -- input ----------------------------------------------------------------------------

    def rolls_dice(self, state: State) -> bool:
        return isinstance(state, AusgeblocktState) and state.stage == ROLL

    def targets(self) -> list[Target]:
        cells = [
            Target(self.cell_rect(c), lambda c=c: self.tap_cell(c), name=f"cell {c}")
            for c in range(CELLS)
        ]
        dice = [
            Target(self.die_rect(s), lambda s=s: self.tap_die(s), self._dice_open, name=f"die {s}")
            for s in range(5)
        ]
        return cells + dice

    def controls(self) -> list[Control]:
        state = self.state
        return (
            [
                Control("roll", lambda: _("Roll"), self.play.roll, lambda: self.play.can_roll()),
                Control(
                    "reroll",
                    lambda: _("Roll again"),
                    self._reroll,
                    lambda: self._dice_open() and len(self.held) < 5,
                ),
                Control("stop", lambda: _("Stop"), lambda: self.submit(STOP), self._dice_open),
                Control(
                    "pass",
                    lambda: _("Pass"),
                    lambda: self.submit(PASS),
                    lambda: (
                        not self.play.locked
                        and isinstance(self.state, AusgeblocktState)
                        and self.state.stage == MARK
                        and self.state.to_move >= 0
                    ),
                ),
            ]
            if isinstance(state, AusgeblocktState)
            else []
        )

    def _dice_open(self) -> bool:
        state = self.state
        return (
            not self.play.locked
            and isinstance(state, AusgeblocktState)
            and state.stage == DECIDE
            and state.to_move >= 0
        )

    def tap_die(self, slot: int) -> None:
        """Set a die aside, or take it back to be rolled again."""
        self.held ^= {slot}

    def _reroll(self) -> None:
        self.rolling = set(range(5)) - self.held
        faces = tuple(sorted(self.slots[s] for s in self.rolling))
        self.submit(REROLL_BASE + dice_code(faces))

    def tap_cell(self, cell: int) -> None:
        state = self.state
        if (
            not self.play.locked
            and isinstance(state, AusgeblocktState)
            and state.stage == MARK
            and cell in state.legal_actions()
        ):
            self.submit(cell)
        else:
            self.play.gentle_cue(self.cell_rect(cell))

    def clear_selection(self) -> None:
        self.held.clear()

    # -- animation ------------------------------------------------------------------------

    def played(self, before: State, action: int, after: State) -> None:
        assert isinstance(before, AusgeblocktState) and isinstance(after, AusgeblocktState)
        if before.stage == ROLL:
            if len(self.slots) != 5 or not before.kept:
                self.slots, rolled = [1] * 5, set(range(5))
                self.held.clear()  # a new turn: nothing is set aside yet
            else:
                rolled = self._rolled_places(before.kept)
            for slot, face in zip(sorted(rolled), dice_of(action), strict=True):
                self.slots[slot] = face
            self.held -= rolled  # what was rolled is no longer aside
            self.rolling = set()
            tween = Tween(0.7)
            self.tumble = (tween, rolled)
            self.tweens.append(tween)
            self.play.app.sound.play("roll")
        elif action < CELLS:
            self.play.app.sound.play("move")

    def _rolled_places(self, kept: tuple[int, ...]) -> set[int]:
        """The tray places that were rolled again: the ones this player chose, or else the
        dice left over once the kept faces are matched (for choices made elsewhere)."""
        others = sorted(f for s, f in enumerate(self.slots) if s not in self.rolling)
        if self.rolling and others == list(kept):
            return set(self.rolling)
        remaining, rolled = list(kept), set()
        for slot, face in enumerate(self.slots):
            if face in remaining:
                remaining.remove(face)
            else:
                rolled.add(slot)
        return rolled

    def update(self, dt: float) -> None:
        super().update(dt)
        if self.tumble and self.tumble[0].done:
            self.tumble = None
