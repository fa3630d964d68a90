"""The Ausgeblockt sheet and its five dice.

The sheet is drawn as the printed paper, with the letters a–g and the numbers 1–7 the move
lists write cells in (unless the settings hide them).  The two sides mark in different shapes
and inks — crosses and circles in the seats' colours — over a wash that leaves the printed
symbol faint beneath.  The cells the last turn marked stay highlighted until the next turn.

The dice keep their columns in the tray.  Tapping a die moves it down into the "kept" row,
tapping it again brings it back; one button rolls the dice not kept ("Roll 3 dice") and
another stops rolling.  When another seat rolls again, the dice it keeps slide into the kept
row before the others tumble, so a person can follow its choice.  When the turn is over its
last throw stays in the tray, dimmed, with the thrower's name, until the next roll.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Hashable
from dataclasses import dataclass
from functools import cache, partial

import pygame

import game.client.views.marks as marks
from game.client import theme
from game.client.anim import Tween
from game.client.redraw import SQUARE_CORNER, Element
from game.client.sprites import sprite
from game.client.surface_cache import surface_cache
from game.client.views.base import BoardView, Control, Step, Table, floats
from game.client.views.marks import DIM_ALPHA, ghost, tinted_square
from game.client.widgets import Target
from game.i18n import _, ngettext
from game.names import percent, seat_names
from game.rules import State
from game.rules.ausgeblockt import (
    ATTEMPTS,
    CELLS,
    DECIDE,
    DICE,
    MARK,
    PASS,
    REROLL_BASE,
    ROLL,
    STOP,
    AusgeblocktState,
    cell_name,
    dice_code,
    dice_of,
    mark_options,
)
from game.rules.boards import COW, SHEET_SIZE, START_O, START_X

Colour = tuple[int, int, int]

FACE_SPRITES = {1: "die_1", 2: "die_2", 3: "die_3", 4: "die_4", 5: "die_5", COW: "die_cow"}
MARKS = ("mark_x", "mark_o")
START_WASH, MARK_WASH = 0.38, 0.22
"""How far a start cell and a marked cell are tinted towards their side's colour."""
WASH_ALPHA = 215
"""How much of a marked cell's printed symbol the wash covers: enough to read the mark over
it, not so much that the symbol is lost."""
MARK_SIZE = 0.78
"""A mark's size as a share of its cell."""
TUMBLE, SET_ASIDE = 0.7, 0.35  # seconds

STEP = 1.2
"""From one die's column to the next, in die sizes."""
ROW = (DICE - 1) * STEP + 1
"""The width of five dice in a row, in die sizes."""


@dataclass(frozen=True, slots=True)
class DiceTray:
    """Where the tray's parts go: the row thrown, led by the thrower's mark and name, and the
    kept row on a band labelled "Kept" — under the row thrown when the tray is tall enough,
    beside it when it is wide (whichever gives the bigger dice)."""

    die: int
    thrown: tuple[int, int]
    """The top left of the first column of the row thrown."""
    kept: tuple[int, int]
    """The top left of the first column of the kept row."""
    band: pygame.Rect
    label: pygame.Rect
    """Where "Kept" is written, left-aligned and centred vertically."""
    thrower: pygame.Rect
    """Where the thrower's mark and name go, before the row thrown."""

    @classmethod
    def fit(cls, tray: pygame.Rect) -> DiceTray:
        margin, label = 0.1, 3.0  # room for a name or "Kept" (Behalten) at 12 px by small dice
        band = (label + ROW + 2 * margin, 1 + 2 * margin)  # in die sizes
        stacked = (band[0], 1 + 0.2 + band[1])
        wide = (label + ROW + 0.3 + band[0], band[1])

        def die(size: tuple[float, float]) -> float:
            return min(tray.width / size[0], tray.height / size[1])

        upright = die(stacked) >= die(wide)
        width, height = stacked if upright else wide
        d = max(4, int(die((width, height))))
        area = pygame.Rect(0, 0, round(width * d), round(height * d))
        area.midtop = tray.midtop
        edge, room = round(margin * d), round(label * d)
        kept_band = pygame.Rect(0, 0, round(band[0] * d), round(band[1] * d))
        kept_band.bottomright = area.bottomright
        thrower = pygame.Rect(area.x, area.y + (0 if upright else edge), room, d)
        return cls(
            d,
            thrown=(thrower.right + (edge if upright else 0), thrower.y),
            kept=(kept_band.x + room + edge, kept_band.y + edge),
            band=kept_band,
            label=pygame.Rect(kept_band.x + d // 6, kept_band.y, room - d // 4, kept_band.height),
            thrower=thrower,
        )


def _odds_line(template: str, chance: float, best: float) -> str:
    shown = template.format(chance=percent(chance))
    if chance >= best - 5e-4:
        return _("{odds} (best choice)").format(odds=shown)
    return _("{odds} (best {best})").format(odds=shown, best=percent(best))


def _best_keep(kept: tuple[int, ...], dice: tuple[int, ...], worse: bool) -> str:
    """Which dice give the best chance of a mark, when the player's choice is worse."""
    if not worse:
        return ""
    if kept == dice:
        return _("Best for a mark: stop here")
    if not kept:
        return _("Best for a mark: roll all five")
    faces = " ".join(_("cow") if face == COW else str(face) for face in kept)
    return _("Best for a mark: keep {dice}").format(dice=faces)


def ink(colour: Colour) -> Colour:
    """A seat colour deep enough to read as ink on the paper."""
    return (round(colour[0] * 0.82), round(colour[1] * 0.82), round(colour[2] * 0.82))


def wash(colour: Colour, amount: float, paper: Colour) -> Colour:
    """``paper`` tinted ``amount`` of the way towards ``colour``."""
    r, g, b = (round(p + (c - p) * amount) for p, c in zip(paper, colour, strict=True))
    return r, g, b


@surface_cache(entries=8, megabytes=2)
def _cell_wash(colour: Colour, size: int, paper: Colour) -> pygame.Surface:
    """The tint laid over a marked cell: it leaves the printed symbol faint beneath the mark."""
    cover = pygame.Surface((size, size), pygame.SRCALPHA)
    cover.fill((*wash(colour, MARK_WASH, paper), WASH_ALPHA))
    return cover


@cache
def _washed(colour: Colour, paper: Colour) -> Colour:
    """The colour a marked cell's paper shows under its wash, as drawn."""
    cell = pygame.Surface((1, 1))
    cell.fill(paper)
    cell.blit(_cell_wash(colour, 1, paper), (0, 0))
    r, g, b, _alpha = cell.get_at((0, 0))
    return r, g, b


class SheetView(BoardView[AusgeblocktState]):
    def of_game(self, state: State) -> AusgeblocktState | None:
        return state if isinstance(state, AusgeblocktState) else None

    def __init__(self, play: Table) -> None:
        super().__init__(play)
        self.slots: list[int] = []
        """The faces of the dice shown, by tray column."""
        self.held: set[int] = set()
        """The columns whose die is set aside in the kept row."""
        self.dice_tray = DiceTray.fit(self.tray)
        self.boxes = [pygame.Rect(0, 0, 1, 1) for _ in range(DICE)]
        """The dice's tap targets, moved with the dice (so the focus ring follows a die)."""
        self.live = False  # whether the dice shown are the throw in play
        self.thrower = -1  # the seat that threw the dice shown
        self.marked: tuple[tuple[int, int], ...] = ()  # (seat, cell) marked in the last turn
        self.tumble: tuple[Tween, frozenset[int]] | None = None
        self.glide: tuple[Tween, frozenset[int]] | None = None  # dice another seat moved
        self._background: pygame.Surface | None = None
        self._background_key: tuple[object, ...] | None = None
        self._throws = 0
        """Dice thrown so far: each throw tumbles through faces of its own."""

    # -- geometry -------------------------------------------------------------------------

    def tap_size(self) -> int:
        return min(self.cell, self.dice_tray.die)

    def layout(self, board: pygame.Rect, tray: pygame.Rect) -> None:
        """The paper holds the 7×7 cells, a margin, and a band for the coordinates left and
        below (kept when they are hidden, so the sheet does not move).  In a match, where
        the tray's dice would be smaller than :data:`theme.TOUCH` (a 1024x600 panel), the
        dice lie under the sheet instead."""
        whole, gap = board, 0
        self.dice_on_board = False
        # a match screen is played on; a picture, a replay or a review (Preview) is not
        played_on = getattr(self.play, "played_on", True)
        if DiceTray.fit(tray).die < theme.TOUCH and played_on:
            under = self._tray_on_board(board)
            gap = under.height // 8
            rest = pygame.Rect(board.x, board.y, board.width, under.y - gap - board.y)
            if min(rest.size) * 4 // 31 >= theme.TOUCH:  # and the cells still 44 px
                board, tray, self.dice_on_board = rest, under, True
        self.cell = max(4, min(board.width, board.height) * 4 // 31)
        self.pad, self.band = self.cell // 4, self.cell // 2
        side = SHEET_SIZE * self.cell + self.pad + self.band
        self.paper = pygame.Rect(0, 0, side, side)
        self.paper.center = board.center
        if self.dice_on_board:  # the sheet and the dice under it, together in the middle
            self.paper.top = max(whole.top, whole.centery - (side + gap + tray.height) // 2)
            tray = tray.move(0, self.paper.bottom + gap - tray.top)
        self.rect = pygame.Rect(
            self.paper.x + self.band,
            self.paper.y + self.pad,
            SHEET_SIZE * self.cell,
            SHEET_SIZE * self.cell,
        )
        self.tray = tray
        self.dice_tray = DiceTray.fit(tray)
        self._background = None
        self._place_dice()

    @staticmethod
    def _tray_on_board(board: pygame.Rect) -> pygame.Rect:
        """A band across the foot of ``board`` where the dice are :data:`theme.TOUCH` or
        more: one row beside the kept band where the board is wide enough, else two."""
        for rows in (1.2, 2.4):  # DiceTray's heights, in dice
            height = round(rows * theme.TOUCH) + 2
            band = pygame.Rect(board.x, board.bottom - height, board.width, height)
            if DiceTray.fit(band).die >= theme.TOUCH:
                break
        return band

    def cell_rect(self, cell: int) -> pygame.Rect:
        col, row = cell % SHEET_SIZE, cell // SHEET_SIZE
        return pygame.Rect(
            self.rect.x + col * self.cell,
            self.rect.y + (SHEET_SIZE - 1 - row) * self.cell,
            self.cell,
            self.cell,
        )

    def cell_center(self, cell: int) -> tuple[int, int]:
        return self.cell_rect(cell).center

    def die_rect(self, slot: int, held: bool | None = None) -> pygame.Rect:
        """Where die ``slot`` rests: in the row thrown, or in the kept row when set aside."""
        geometry, d = self.dice_tray, self.dice_tray.die
        aside = slot in self.held if held is None else held
        x, y = geometry.kept if aside else geometry.thrown
        return pygame.Rect(x + round(slot * STEP * d), y, d, d)

    def _place_dice(self) -> None:
        for slot, box in enumerate(self.boxes):
            box.update(self.die_rect(slot))

    # -- what the tray shows --------------------------------------------------------------

    def shown_throw(self, state: AusgeblocktState) -> tuple[tuple[int, ...], int, bool]:
        """The faces to show, who threw them, and whether they are the throw in play (else
        the last throw of the turn played last)."""
        if state.dice:
            return state.dice, state.side, True
        for step in reversed(self.last_turn):
            before = step.before
            if not isinstance(before, AusgeblocktState) or step.action < 0:
                continue
            if before.stage == ROLL:
                return tuple(sorted(before.kept + dice_of(step.action))), before.side, False
            if before.dice:
                return before.dice, before.side, False
        return (), -1, False

    def _follow(self, state: AusgeblocktState) -> None:
        """Keep the tray in step with the engine: the faces thrown, and the dice kept once a
        reroll is chosen (whoever chose it)."""
        faces, self.thrower, self.live = self.shown_throw(state)
        if sorted(self.slots) != list(faces):
            self.slots, self.held = list(faces), set()
        if self.live and state.stage == ROLL and state.kept:
            self.held = self._columns_showing(state.kept)
        self._place_dice()

    def _columns_showing(self, faces: tuple[int, ...]) -> set[int]:
        """Columns whose dice show ``faces``, those already set aside first."""
        wanted = Counter(faces)
        chosen = set()
        for column in sorted(range(len(self.slots)), key=lambda c: c not in self.held):
            face = self.slots[column]
            if wanted[face] > 0:
                wanted[face] -= 1
                chosen.add(column)
        return chosen

    def _paper(self) -> pygame.Surface:
        """The printed sheet (drawn again only when the size, palette or coordinates
        setting changes)."""
        labelled = self.play.app.settings.show_coordinates
        key = (self.paper.size, labelled, self.palette, self.boards)
        if self._background is None or self._background_key != key:
            self._background = self._draw_paper(labelled)
            self._background_key = key
        return self._background

    def _draw_paper(self, labelled: bool) -> pygame.Surface:
        state = self.state
        assert isinstance(state, AusgeblocktState)
        surface = pygame.Surface(self.paper.size)
        paper, grid = self.boards.sheet_paper, self.boards.sheet_grid
        surface.fill(paper)
        symbols = state.sheet.symbols
        digits = theme.font(self.cell // 2, bold=True)
        offset = (-self.paper.x, -self.paper.y)
        for cell in range(CELLS):
            box = self.cell_rect(cell).move(offset)
            symbol = symbols[cell]
            if symbol == COW:
                cow = sprite("die_cow", self.cell * 9 // 10)
                surface.blit(cow, cow.get_rect(center=box.center))
            elif symbol in (START_X, START_O):
                seat = 0 if symbol == START_X else 1
                colour = self.seat_colour(seat)
                pygame.draw.rect(surface, wash(colour, START_WASH, paper), box)
                mark = sprite(MARKS[seat], round(self.cell * MARK_SIZE), ink(colour))
                surface.blit(mark, mark.get_rect(center=box.center))
            else:
                label = digits.render(str(symbol), True, self.boards.sheet_ink)
                surface.blit(label, label.get_rect(center=box.center))
        for k in range(SHEET_SIZE + 1):
            x = self.band + k * self.cell
            y = self.pad + k * self.cell
            pygame.draw.line(surface, grid, (x, self.pad), (x, self.pad + self.rect.height))
            pygame.draw.line(surface, grid, (self.band, y), (self.band + self.rect.width, y))
        if labelled:
            self._draw_coordinates(surface)
        return surface

    def _draw_coordinates(self, surface: pygame.Surface) -> None:
        """Letters a–g under the columns and numbers 1–7 left of the rows, as in ``f2``."""
        font = theme.font(max(8, round(self.cell * 0.3)), bold=True)
        below = self.pad + self.rect.height + self.band // 2
        for index in range(SHEET_SIZE):
            along = index * self.cell + self.cell // 2
            letter = font.render("abcdefg"[index], True, self.boards.sheet_label)
            surface.blit(letter, letter.get_rect(center=(self.band + along, below)))
            number = font.render(str(SHEET_SIZE - index), True, self.boards.sheet_label)
            surface.blit(number, number.get_rect(center=(self.band // 2, self.pad + along)))

    # -- drawing --------------------------------------------------------------------------

    def draw_board(self, surface: pygame.Surface) -> None:
        surface.blit(self._paper(), self.paper)

    def draw_pieces(self, surface: pygame.Surface) -> None:
        state = self.state
        if not isinstance(state, AusgeblocktState):
            return
        self._follow(state)
        self._draw_marks(surface, state)
        self._draw_hints(surface, state)
        self._draw_dice(surface, state)
        self.draw_focus_halo(surface)

    def _draw_marks(self, surface: pygame.Surface, state: AusgeblocktState) -> None:
        """The cells each side marked, the last turn's highlighted, a winning chain lit."""
        starts = set(state.starts(0) + state.starts(1))
        ring = max(2, self.cell // 14)
        chain = state.winning_chain()
        lit = tinted_square(self.palette.accent, self.cell, 2 * ring)
        for cell in starts:  # the starts have no wash: lit here, the marked cells below
            if chain >> cell & 1:
                surface.blit(lit, self.cell_rect(cell))
        last = {cell for _, cell in self.marked}
        latest = self.marker(self.palette.last_move, self.rect)
        highlight = tinted_square(latest.colour, self.cell, ring, latest.halo)
        for seat, name in enumerate(MARKS):
            colour = self.seat_colour(seat)
            pencil = sprite(name, round(self.cell * MARK_SIZE), ink(colour))
            for cell in range(CELLS):
                if not state.cells[seat] >> cell & 1 or cell in starts:
                    continue
                box = self.cell_rect(cell)
                surface.blit(_cell_wash(colour, self.cell, self.boards.sheet_paper), box)
                if chain >> cell & 1:  # over the wash, which hid it
                    surface.blit(lit, box)
                if cell in last:
                    surface.blit(highlight, box)
                surface.blit(pencil, pencil.get_rect(center=box.center))

    def _draw_hints(self, surface: pygame.Surface, state: AusgeblocktState) -> None:
        """The cells a mark may go to, and in a chain the cell the next mark must touch."""
        if not self.play.locked and state.stage == MARK and state.to_move >= 0:
            ring = max(3, self.cell // 10)
            legal = self.marker(self.palette.legal, self.rect)
            for cell in state.legal_actions():
                if cell < CELLS:
                    hint = self.cell_rect(cell).inflate(-2, -2)
                    marks.frame(surface, legal, hint, ring, SQUARE_CORNER)
        if state.chain >= 0 and not state.is_terminal():
            colour = ink(self.seat_colour(state.side))
            pygame.draw.rect(surface, colour, self.cell_rect(state.chain), max(3, self.cell // 9),
                             border_radius=SQUARE_CORNER)  # fmt: skip

    def grounds(self, where: pygame.Rect) -> tuple[Colour, ...]:
        """On the sheet, the paper and the cells each side has washed; in the tray (a hint
        names the dice to keep), the panel and the kept row's band."""
        if not where.colliderect(self.paper):
            if self.dice_on_board:
                return self.palette.background, self.palette.button
            return self.palette.panel, self.palette.button
        paper = self.boards.sheet_paper
        colours = [self.seat_colour(seat) for seat in (0, 1)]
        return (paper, *(_washed(colour, paper) for colour in colours),
                *(wash(colour, START_WASH, paper) for colour in colours))  # fmt: skip

    def _draw_dice(self, surface: pygame.Surface, state: AusgeblocktState) -> None:
        geometry, d = self.dice_tray, self.dice_tray.die
        pygame.draw.rect(surface, self.palette.button, geometry.band, border_radius=d // 5)
        size = theme.small(0.36 * d)
        label = theme.fitted(_("Kept"), size, self.palette.button_text, geometry.label.width, True)
        surface.blit(label, label.get_rect(midleft=geometry.label.midleft))
        if not self.slots:
            return
        self._draw_thrower(surface, state)
        tween, rolled = self.tumble or (None, frozenset())
        tumbling = tween is not None and not tween.done
        for slot, face in enumerate(self.slots):
            rect = self.die_rect(slot)
            name, angle = FACE_SPRITES.get(face, "die_1"), 0.0
            if tween is not None and tumbling and slot in rolled:
                # a face and a tilt for each twentieth of a second, the same at every
                # drawing of that moment (a frame drawn in parts is the frame drawn whole)
                look = random.Random(f"{self._throws}:{slot}:{int(tween.elapsed * 20)}")
                name = look.choice(list(FACE_SPRITES.values()))
                angle = look.uniform(-35, 35)
                rect = rect.move(0, -round(d * 0.3 * (1 - tween.t)))
            elif self.glide is not None and slot in self.glide[1]:
                start = self.die_rect(slot, held=slot not in self.held)
                rest = 1 - self.glide[0].eased()
                rect = rect.move(round((start.x - rect.x) * rest), round((start.y - rect.y) * rest))
            die = sprite(name, d) if self.live or tumbling else ghost(name, d, DIM_ALPHA)
            if angle:
                die = pygame.transform.rotate(die, angle)
            surface.blit(die, die.get_rect(center=rect.center))

    def _draw_thrower(self, surface: pygame.Surface, state: AusgeblocktState) -> None:
        """The mark and name of the side whose throw the tray shows."""
        box, d = self.dice_tray.thrower, self.dice_tray.die
        mark = sprite(MARKS[self.thrower], round(0.55 * d), self.seat_colour(self.thrower))
        surface.blit(mark, mark.get_rect(midtop=(box.centerx, box.y)))
        name = seat_names(state)[self.thrower]
        words = theme.fitted(name, theme.small(0.36 * d), self.palette.text, box.width, True)
        surface.blit(words, words.get_rect(midbottom=(box.centerx, box.bottom)))

    # -- input ----------------------------------------------------------------------------

    def targets(self) -> list[Target]:
        if isinstance(self.state, AusgeblocktState):
            self._follow(self.state)
        cells = [
            Target(self.cell_rect(c), partial(self.tap_cell, c), name=f"cell {c}")
            for c in range(CELLS)
        ]
        dice = [
            Target(self.boxes[s], partial(self.tap_die, s), self._dice_open, name=f"die {s}")
            for s in range(DICE)
        ]
        return cells + dice

    def controls(self) -> list[Control]:
        if not isinstance(self.state, AusgeblocktState):
            return []
        return [
            Control("roll", self._roll_label, self._roll, self._can_roll),
            Control("stop", lambda: _("Stop"), lambda: self.submit(STOP), self._dice_open),
            Control("pass", lambda: _("Pass"), lambda: self.submit(PASS), self._marking),
        ]

    def _free_dice(self) -> int:
        """How many dice the Roll button throws: those not kept."""
        state = self.state
        if not isinstance(state, AusgeblocktState):
            return DICE
        if state.stage == DECIDE:
            return DICE - len(self.held)
        return DICE - len(state.kept) if state.stage == ROLL else DICE

    def _roll_label(self) -> str:
        free = self._free_dice()
        return ngettext("Roll {n} die", "Roll {n} dice", free).format(n=free)

    def _can_roll(self) -> bool:
        if self._dice_open():
            return self._free_dice() > 0
        return self.play.can_roll()

    def _roll(self) -> None:
        """Roll the dice not kept: when rolling again, name them to the engine first."""
        if self._dice_open():
            faces = tuple(sorted(f for s, f in enumerate(self.slots) if s not in self.held))
            self.submit(REROLL_BASE + dice_code(faces))
        if self.play.can_roll():
            self.play.roll()

    def _dice_open(self) -> bool:
        state = self.state
        return (
            not self.play.locked
            and isinstance(state, AusgeblocktState)
            and state.stage == DECIDE
            and state.to_move >= 0
        )

    def _marking(self) -> bool:
        state = self.state
        return (
            not self.play.locked
            and isinstance(state, AusgeblocktState)
            and state.stage == MARK
            and state.to_move >= 0
        )

    def tap_die(self, slot: int) -> None:
        """Set a die aside into the kept row, or bring it back to be rolled again."""
        if slot < len(self.slots):
            self.held ^= {slot}
            self._place_dice()

    def tap_cell(self, cell: int) -> None:
        state = self.state
        if self._marking() and cell in state.legal_actions():
            self.submit(cell)
        else:
            self.play.gentle_cue(self.cell_rect(cell))

    def clear_selection(self) -> None:
        self.held.clear()
        self._place_dice()

    # -- the last turn, the prompt and the counts -----------------------------------------

    def show_last_turn(self, steps: tuple[Step, ...]) -> None:
        super().show_last_turn(steps)
        self.marked = tuple(
            (step.before.side, step.action)
            for step in steps
            if isinstance(step.before, AusgeblocktState)
            and step.before.stage == MARK
            and 0 <= step.action < CELLS
        )
        if isinstance(self.state, AusgeblocktState):
            self._follow(self.state)

    def highlighted(self) -> frozenset[str]:
        """The cells the last turn marked."""
        return frozenset(f"cell {cell}" for _, cell in self.marked)

    def prompt(self) -> str:
        state = self.state
        if not isinstance(state, AusgeblocktState) or self.play.state.is_terminal():
            return ""
        if state.stage == ROLL:
            passed = self._passed_in()
            if state.attempts == 0 and passed is not None:  # whose turn passed, not who is next
                name = seat_names(passed)[passed.side]
                return _("{name} could not mark: the turn passes").format(name=name)
            if state.attempts == 0 and state.chain >= 0:
                return _("Quad! Roll again for a mark next to {cell}").format(
                    cell=cell_name(state.chain)
                )
            return _("Roll the dice")
        if state.stage == DECIDE:
            left = ATTEMPTS - state.attempts
            prompt = ngettext(
                "Roll again: tap the dice to keep ({n} attempt left)",
                "Roll again: tap the dice to keep ({n} attempts left)",
                left,
            ).format(n=left)
            if state.chain >= 0:  # every throw of a chain turn aims next to that cell
                chain = _("a mark next to {cell}").format(cell=cell_name(state.chain))
                return f"{prompt} · {chain}"
            return prompt
        if state.stage == MARK:
            return self._mark_prompt(state)
        return ""

    def _mark_prompt(self, state: AusgeblocktState) -> str:
        if state.chain >= 0:
            return _("Chain: mark a cell next to {cell}").format(cell=cell_name(state.chain))
        options = mark_options(state.dice)
        if any(options.values()):
            return _("Quad! Mark a cell and play again")
        numbers = [symbol for symbol in options if symbol != COW]
        if COW in options and numbers:
            return _("Choose: mark a cow cell or a {n}").format(n=numbers[0])
        if numbers:
            return _("Mark a cell with {symbol}").format(symbol=numbers[0])
        return _("Mark a cow cell")

    def passed(self) -> bool:
        """Whether the turn played last ended without a mark because the throw allowed none
        (the engine then goes straight to the next turn)."""
        return self._passed_in() is not None

    def _passed_in(self) -> AusgeblocktState | None:
        """The position whose throw allowed no mark, if the turn played last ended so."""
        if not self.last_turn:
            return None
        last = self.last_turn[-1]
        before, after = last.before, last.after
        if (
            isinstance(before, AusgeblocktState)
            and isinstance(after, AusgeblocktState)
            and before.stage in (ROLL, DECIDE)
            and after.stage == ROLL
            and after.attempts == 0
        ):
            return before
        return None

    def hint_areas(self, state: State, action: int) -> list[pygame.Rect]:
        """A cell to mark, or the dice to keep (when all are to be rolled, the stop and
        pass buttons: the hint's words say so)."""
        if not isinstance(state, AusgeblocktState):
            return []
        if 0 <= action < CELLS:
            return [self.cell_rect(action)]
        if action < REROLL_BASE:
            return []
        kept = list(state.dice)
        for face in dice_of(action - REROLL_BASE):
            kept.remove(face)
        areas = []
        for slot, face in enumerate(self.slots):
            if face in kept:
                kept.remove(face)
                areas.append(self.die_rect(slot))
        return areas

    def counts(self) -> list[tuple[int, str]]:
        """The attempts left in the turn."""
        state = self.state
        if not isinstance(state, AusgeblocktState) or self.play.state.is_terminal():
            return []
        left = ATTEMPTS - state.attempts
        lines = [
            (state.side, ngettext("{n} attempt left", "{n} attempts left", left).format(n=left))
        ]
        if self.play.coach.shows_odds():
            lines += [(-1, line) for line in self._odds_lines(state)]
        return lines

    def _odds_lines(self, state: AusgeblocktState) -> tuple[str, str, str]:
        """The chances of a mark and of a quad for the dice kept now, and the best choice
        (three lines, blank when a person here has no dice to decide on)."""
        coach = self.play.coach
        if not coach.wants_odds(state) or self.play.locked:
            return "", "", ""
        odds = coach.odds(state)
        if odds is None:
            return _("Working out the odds…"), "", ""
        if state.stage != DECIDE:  # before the first roll: all five dice, no choice yet
            chances = odds.of(())
            return (
                _("Chance of a mark: {chance}").format(chance=percent(chances.mark)),
                _("Chance of a quad: {chance}").format(chance=percent(chances.quad)),
                "",
            )
        kept = tuple(sorted(f for slot, f in enumerate(self.slots) if slot in self.held))
        chances, best = odds.of(kept), odds.best
        return (
            _odds_line(_("Mark: {chance}"), chances.mark, best.mark),
            _odds_line(_("Quad: {chance}"), chances.quad, best.quad),
            _best_keep(odds.best_keep_for_mark, state.dice, chances.mark < best.mark - 5e-4),
        )

    # -- animation ------------------------------------------------------------------------

    def played(self, before: State, action: int, after: State) -> None:
        assert isinstance(before, AusgeblocktState) and isinstance(after, AusgeblocktState)
        if before.stage == ROLL:
            self._thrown(before, action)
        elif before.stage == DECIDE and action >= REROLL_BASE:
            self._set_aside(before, after)
        elif action < CELLS:
            if after.side == before.side and not after.is_terminal():  # a quad: chain on
                centre = floats(self.cell_rect(action).center)
                colour = self.seat_colour(before.side)
                self.sparks(centre, [colour, self.palette.accent], strength=1.5)
                self.play.app.sound.play("chain")
                return
            self.play.app.sound.play("move")

    def _thrown(self, before: AusgeblocktState, outcome: int) -> None:
        """The dice not kept tumble and settle on what the engine received."""
        self._follow(before)
        if before.kept:
            rolled = frozenset(range(DICE)) - self.held
        else:  # a new turn: all five are thrown
            self.slots, self.held, rolled = [0] * DICE, set(), frozenset(range(DICE))
        for slot, face in zip(sorted(rolled), dice_of(outcome), strict=True):
            self.slots[slot] = face
        self.live, self.thrower = True, before.side
        self._place_dice()
        tween = Tween(TUMBLE)
        self.tumble = (tween, rolled)
        self._throws += 1
        self.tweens.append(tween)
        self.play.app.sound.play("roll")

    def _set_aside(self, before: AusgeblocktState, after: AusgeblocktState) -> None:
        """A reroll chosen: the dice kept slide into the kept row (at once for a person here,
        who put them there already; visibly for another seat's choice)."""
        self._follow(before)
        kept = self._columns_showing(after.kept)
        moved = frozenset(kept ^ self.held)
        self.held = kept
        self._place_dice()
        if moved:
            tween = Tween(SET_ASIDE)
            self.glide = (tween, moved)
            self.tweens.append(tween)

    def elements(self, version: Hashable) -> list[Element]:
        """Each cell and what is on it (a mark, the last turn's tint, the winning chain, a
        hint, the cell a chain must touch), and the tray (the dice)."""
        state = self.state
        if not isinstance(state, AusgeblocktState):
            return super().elements(version)
        starts = set(state.starts(0) + state.starts(1))
        chain = state.winning_chain()
        last = {cell for _, cell in self.marked}
        hints: set[int] = set()
        if not self.play.locked and state.stage == MARK and state.to_move >= 0:
            hints = {cell for cell in state.legal_actions() if cell < CELLS}
        touch = state.chain if state.chain >= 0 and not state.is_terminal() else -1
        cells: list[Element] = []
        for cell in range(CELLS):
            marked = [seat for seat in (0, 1) if state.cells[seat] >> cell & 1]
            mark = marked[0] if marked and cell not in starts else None
            drawn = (bool(chain >> cell & 1), mark, mark is not None and cell in last,
                     cell in hints, state.side if cell == touch else None)  # fmt: skip
            cells.append((f"cell {cell}", self.cell_rect(cell), drawn))
        return cells + super().elements(version)[1:]  # the tray as by default

    def moving_areas(self) -> list[pygame.Rect]:
        """The dice, tumbling or gliding to the kept row (thrown up a little above it)."""
        if not self.animating:
            return []
        return [self.tray.inflate(self.tray.height // 2, self.tray.height)]

    def update(self, dt: float) -> None:
        super().update(dt)
        if self.tumble and self.tumble[0].done:
            self.tumble = None
        if self.glide and self.glide[0].done:
            self.glide = None
