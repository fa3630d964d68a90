"""The board's markers — a hint, the last move, the legal targets, the focus — stand out from
the board under them on every board theme and palette: WCAG 2.x non-text contrast, at least
3:1 (issue 27: on the high-contrast boards they nearly vanished).

Two checks.  What is declared: the colour each marker meets the board with, from
:func:`theme.marker`, against every colour of the board it is drawn over.  What is drawn: each
game's match screen drawn with and without each marker, and every pixel a marker changed
that touches a pixel of the board it left alone compared with that pixel.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import numpy as np
import pygame
import pytest

from game.client import sprites, theme
from game.client.scenes.play import PlayScene
from game.client.turns import last_turn
from game.client.views.base import Step
from game.client.views.sheet import START_WASH, wash
from game.rules import variant
from game.rules.ausgeblockt import CELLS, MARK, PASS, STOP, AusgeblocktState
from game.rules.chance import random_action
from game.rules.mulino import MOVE_BASE, REMOVE_BASE, MulinoState
from game.rules.numeri import CHOOSE, OFF, NumeriState
from game.session.match import Match
from game.session.seats import Seat

from .client_driver import Driver

Colour = tuple[int, int, int]
MINIMUM = 3.0
"""WCAG 2.x success criterion 1.4.11, non-text contrast."""
KINDS = ("hint", "last_move", "legal", "focus")
PALETTES = {"standard": theme.STANDARD, "colour-blind": theme.COLOUR_BLIND_SAFE}
SIZE = (1280, 720)


# -- the formula ----------------------------------------------------------------------------


def luminance(colour: Colour) -> float:
    """WCAG 2.x relative luminance: each sRGB channel linearised, then weighted."""

    def linear(channel: int) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: Colour, b: Colour) -> float:
    """WCAG 2.x contrast ratio, 1 (the same) to 21 (black on white), either way round."""
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_the_contrast_formula_gives_wcags_figures() -> None:
    assert contrast((0, 0, 0), (255, 255, 255)) == pytest.approx(21.0)
    assert contrast((255, 255, 255), (0, 0, 0)) == pytest.approx(21.0)
    assert contrast((60, 150, 240), (60, 150, 240)) == pytest.approx(1.0)
    assert contrast((118, 118, 118), (255, 255, 255)) == pytest.approx(4.54, abs=0.01)
    assert contrast((255, 0, 0), (255, 255, 255)) == pytest.approx(4.0, abs=0.01)
    assert theme.contrast((96, 200, 255), (255, 214, 0)) == pytest.approx(
        contrast((96, 200, 255), (255, 214, 0))
    )


# -- what is declared -----------------------------------------------------------------------


def board_grounds(game: str, boards: theme.Boards) -> list[tuple[Colour, ...]]:
    """The colours of ``game``'s board a marker is drawn over, grouped as one look of the
    marker must serve them: Dama's squares together (a ring straddles a light and a dark
    one); each of Numeri's spaces alone (no one colour stands out from its red start and its
    white and yellow spaces alike, so a marker takes the look of the space it is on)."""
    return {
        "dama": [(boards.dama_light, boards.dama_dark)],
        "mulino": [(boards.mill_board,)],
        "ausgeblockt": [(boards.sheet_paper,)],
        "numeri": [(boards.track_start,), (boards.track_plain,), (boards.track_end,)],
    }[game]


@pytest.mark.parametrize("boards", theme.BOARD_THEMES.values(), ids=lambda b: b.name)
@pytest.mark.parametrize("palette", PALETTES.values(), ids=list(PALETTES))
@pytest.mark.parametrize("game", ["dama", "mulino", "ausgeblockt", "numeri"])
def test_each_marker_meets_each_board_with_three_to_one(
    game: str, palette: theme.Palette, boards: theme.Boards
) -> None:
    weak = []
    for kind in KINDS:
        colour = theme.marker_colour(kind, palette)
        for grounds in board_grounds(game, boards):
            marker = theme.marker(colour, grounds)
            weak += [(kind, g, round(contrast(marker.edge, g), 2)) for g in grounds
                     if contrast(marker.edge, g) < MINIMUM]  # fmt: skip
            if marker.halo is not None:  # the palette's colour shows inside its outline
                assert contrast(marker.colour, marker.halo) >= MINIMUM, (kind, marker)
    assert not weak


@pytest.mark.parametrize("palette", PALETTES.values(), ids=list(PALETTES))
def test_the_markers_keep_the_palettes_colours_and_stay_told_apart(
    palette: theme.Palette,
) -> None:
    colours = {kind: theme.marker_colour(kind, palette) for kind in KINDS}
    assert len(set(colours.values())) == len(KINDS)
    assert colours["legal"] == palette.legal and colours["last_move"] == palette.last_move
    for boards in theme.BOARD_THEMES.values():
        for game in ("dama", "mulino", "ausgeblockt", "numeri"):
            for grounds in board_grounds(game, boards):
                for kind, colour in colours.items():  # the hue is the palette's; the halo
                    assert theme.marker(colour, grounds).colour == colour, kind  # outlines it


def test_a_marker_that_stands_out_already_gets_no_outline() -> None:
    dark_wood = theme.WOOD.dama_dark
    assert theme.marker(theme.STANDARD.legal, (dark_wood,)) == theme.Marker(theme.STANDARD.legal)
    on_yellow = theme.marker(theme.STANDARD.legal, (theme.CONTRAST.mill_board,))
    assert on_yellow.halo is not None and on_yellow.edge == on_yellow.halo


# -- what is drawn --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory):
    driver = Driver(tmp_path_factory.mktemp("markers"), size=SIZE)
    yield driver.app
    driver.app.settings.board_theme, driver.app.settings.colour_blind = "wood", False
    sprites.use_theme("wood")
    driver.app.close()
    pygame.event.clear()


def _step(match: Match, rng: random.Random) -> None:
    """A random legal action; in Ausgeblockt a mark whenever one can be made."""
    state = match.state
    if state.is_chance():
        match.roll()
        return
    legal = state.legal_actions()
    if isinstance(state, AusgeblocktState):
        marks = [a for a in legal if a < PASS]
        match.play(rng.choice(marks) if marks else STOP)
        return
    match.play(random_action(state, rng))


def _dama_ready(match: Match) -> bool:
    return len(match.record.actions) >= 8 and not match.state.is_chance()


def _mill_ready(match: Match) -> bool:
    state = match.state
    return (isinstance(state, MulinoState) and state.hand == (0, 0)
            and any(MOVE_BASE <= a < REMOVE_BASE for a in state.legal_actions()))  # fmt: skip


def _sheet_ready(match: Match) -> bool:
    """Marking, after a turn of the other side's that marked a cell."""
    state = match.state
    if not isinstance(state, AusgeblocktState) or state.stage != MARK or state.chain >= 0:
        return False
    marked = any(step.before.stage == MARK and step.action < CELLS for step in _turn_before(match))
    return marked and sum(a < PASS for a in state.legal_actions()) > 1


def _turn_before(match: Match) -> tuple[Step, ...]:
    """The turn before the one under way."""
    played = len(match.record.actions)
    return last_turn(match, played - len(last_turn(match, played)))


def _track_ready(match: Match) -> bool:
    """Choosing, after the other side moved a pawn along the track (not into it), with a
    move that takes pawns already on the track."""
    state = match.state
    if not isinstance(state, NumeriState) or state.stage != CHOOSE:
        return False
    moved = [step for step in last_turn(match, len(match.record.actions))
             if step.before.stage == CHOOSE]  # fmt: skip
    along = any(step.before.pawns[step.before.side][step.action % 10 - 1] != OFF
                for step in moved if step.action < 10)  # fmt: skip
    return along and bool(_on_track(state))


def _on_track(state: NumeriState) -> list[int]:
    """The moves of ``state`` whose pawns (two for a split) are all on the track already."""
    pawns = state.pawns[state.side]

    def moved(action: int) -> tuple[int, ...]:
        return divmod(action, 10) if action > 9 else (action,)

    return [a for a in state.legal_actions() if all(pawns[p - 1] != OFF for p in moved(a))]


def _hint_action(play: PlayScene) -> int:
    """A move for the hint to show on the board (not a die or a pawn waiting in the panel),
    away from the last move's marks where it can be."""
    state = play.state
    if isinstance(state, NumeriState):
        spaces = {int(name.split()[1]) for name in play.view.highlighted()}
        pawns = state.pawns[state.side]
        moves = _on_track(state)
        return next((a for a in moves if pawns[a % 10 - 1] not in spaces), moves[0])
    legal = state.legal_actions()
    if isinstance(state, AusgeblocktState):
        return next(a for a in legal if a < PASS)
    return legal[len(legal) // 2]


READY: dict[str, Callable[[Match], bool]] = {
    "dama:classic": _dama_ready,
    "mulino:classic": _mill_ready,
    "ausgeblockt": _sheet_ready,
    "numeri": _track_ready,
}


def a_match(name: str) -> Match:
    """A match of random play between people at this screen, stopped where ``READY`` says."""
    chosen = variant(name)
    for seed in range(40):
        match = Match.new(chosen, [Seat()] * chosen.players, seed)
        rng = random.Random(seed)
        while not match.state.is_terminal() and len(match.record.actions) < 300:
            if READY[name](match):
                return match
            _step(match, rng)
    raise AssertionError(f"no position found for {name}")


def picture(play: PlayScene) -> np.ndarray:
    """The match screen drawn whole, as a height × width × 3 array."""
    surface = pygame.Surface(SIZE)
    play.draw_whole(surface)
    return pygame.surfarray.array3d(surface).swapaxes(0, 1).astype(np.int32)


def _luminances(image: np.ndarray) -> np.ndarray:
    c = image / 255
    linear = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    return linear @ np.array([0.2126, 0.7152, 0.0722])


def _showing(image: np.ndarray, colours: set[Colour]) -> np.ndarray:
    """Where ``image`` shows one of ``colours`` exactly."""
    shown = np.zeros(image.shape[:2], bool)
    for colour in colours:
        shown |= (image == np.array(colour)).all(axis=2)
    return shown


def _amid(shown: np.ndarray, reach: int = 2) -> np.ndarray:
    """Where ``shown`` holds for every pixel within ``reach`` (the open board, not the
    glyph of a number in a square's colour)."""
    amid = shown.copy()
    for dy, dx in itertools.product(range(-reach, reach + 1), repeat=2):
        amid &= np.roll(shown, (dy, dx), axis=(0, 1))
    return amid


def weakest_edge(marked: np.ndarray, bare: np.ndarray, board: pygame.Rect,
                 grounds: set[Colour], lines: set[Colour]) -> float | None:  # fmt: skip
    """The least contrast between a pixel of the marker drawn over the board (one that
    showed one of ``grounds`` or ``lines`` before) and a neighbouring pixel of the board it
    left alone that shows one of ``grounds`` amid the board (None if the marker touches
    none).  A piece, a number or a label drawn over the marker is not the marker, nor is a
    number's glyph the board beside it: where the picture showed something else than the
    board before, it is not looked at."""
    changed = (marked != bare).any(axis=2)
    board_shown = _showing(bare, grounds | lines)
    ground = _showing(marked, grounds) & ~changed & _amid(board_shown)
    inside = np.zeros(changed.shape, bool)
    inside[board.top : board.bottom, board.left : board.right] = True
    mark = changed & board_shown & inside
    light = _luminances(marked)
    worst = None
    for dy, dx in ((0, 1), (0, -1), (1, 0), (-1, 0)):
        beside = mark & np.roll(ground, (dy, dx), axis=(0, 1))
        if beside.any():
            a, b = light[beside], np.roll(light, (dy, dx), axis=(0, 1))[beside]
            ratio = (np.maximum(a, b) + 0.05) / (np.minimum(a, b) + 0.05)
            worst = min(99.0 if worst is None else worst, float(ratio.min()))
    return worst


@contextmanager
def locked(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The screen as it is while nobody here may act: no legal targets shown."""
    with monkeypatch.context() as patch:
        patch.setattr(PlayScene, "locked", property(lambda self: True))
        yield


def _grounds_drawn(name: str, play: PlayScene, bare: np.ndarray) -> tuple[set[Colour], set[Colour]]:
    """The colours of the board's squares, points, cells or spaces as drawn in ``bare`` (a
    marker must stand out from them), and of its lines (a marker may be drawn over them)."""
    boards = play.app.boards
    if name.startswith("dama"):
        return {boards.dama_light, boards.dama_dark}, set()
    if name.startswith("mulino"):
        return {boards.mill_board}, {boards.mill_line}
    if name == "numeri":
        return {boards.track_start, boards.track_plain, boards.track_end}, {boards.track_edge}
    view, state = play.view, play.state
    paper = boards.sheet_paper
    grounds = {paper, *(wash(view.seat_colour(seat), START_WASH, paper) for seat in (0, 1))}
    lines = {boards.sheet_grid}
    for cell in range(CELLS):  # a marked cell's wash, and the grid under it, as drawn
        if any(state.cells[seat] >> cell & 1 for seat in (0, 1)):
            box = view.cell_rect(cell)
            grounds.add(tuple(int(c) for c in bare[box.y + 2, box.x + 2]))
            lines.add(tuple(int(c) for c in bare[box.centery, box.x]))
    return grounds, lines


def _focus_targets(name: str, play: PlayScene) -> list:
    """Board targets to put the keyboard focus on: a few squares or points; on the track its
    start, a plain space and an end space; on the sheet an empty cell and a marked one."""
    board = [t for t in play.targets if t.draw is None and play.view.rect.contains(t.rect)]
    if name == "numeri":
        length = play.state.track.length
        wanted = {"space 0", "space 5", f"space {length - 1}"}
        return [t for t in board if t.name in wanted]
    return board[:: max(1, len(board) // 5)]


def _selection(name: str, play: PlayScene) -> Callable[[], None] | None:
    """Choose a piece on the board, as a first tap does (its square or point is marked in
    the focus colour, where it may go in the legal one); None where nothing is chosen so."""
    view, state = play.view, play.state
    if name.startswith("dama"):
        moves = view._moves()
        return (lambda: view.path.append(moves[0][0][0])) if moves else None
    if name.startswith("mulino"):
        movable = sorted(view._movable(state))
        return (lambda: setattr(view, "selected", movable[0])) if movable else None
    return None


def _board_area(play: PlayScene) -> pygame.Rect:
    """The board and a margin round it (a ring reaches beyond a square), not the panel."""
    rect = play.view.rect
    return rect.inflate(rect.width // 8, rect.height // 8).clip(0, 0, play.panel.rect.x, SIZE[1])


def measured(name: str, play: PlayScene, monkeypatch: pytest.MonkeyPatch) -> dict[str, float]:
    """Each marker's least contrast with the board beside it, as drawn: the last move, the
    legal targets, a hint, the keyboard's focus on a few places, and a piece chosen (its
    place marked in the focus colour, where it may go in the legal one).  (Numeri's hint
    rings a pawn that can move, whose legal ring lies between it and its space: it meets
    the space's edge and the ground round the track, no space.)"""
    view = play.view
    if name == "ausgeblockt":  # the marks of the turn before, as shown when this one began
        view.show_last_turn(_turn_before(play.match))
    base = picture(play)
    steps = view.last_turn
    view.show_last_turn(())
    unmarked = picture(play)
    view.show_last_turn(steps)
    area, grounds, lines = _board_area(play), *_grounds_drawn(name, play, unmarked)

    def weakest(marked: np.ndarray, bare: np.ndarray) -> float | None:
        return weakest_edge(marked, bare, area, grounds, lines)

    found: dict[str, list[float | None]] = {kind: [] for kind in (*KINDS, "chosen")}
    found["last_move"].append(weakest(base, unmarked))
    with locked(monkeypatch):
        found["legal"].append(weakest(base, picture(play)))
    hint = _hint_action(play)
    with monkeypatch.context() as patch:
        patch.setattr(play.coach, "hint", lambda state: hint)
        found["hint"].append(weakest(picture(play), base))
    for target in _focus_targets(name, play):
        play.focus = target
        found["focus"].append(weakest(picture(play), base))
    play.focus = None
    choose = _selection(name, play)
    if choose is not None:
        choose()
        found["chosen"].append(weakest(picture(play), base))
        view.clear_selection()
    results = {}
    for kind, ratios in found.items():
        known = [r for r in ratios if r is not None]
        alongside = (kind == "chosen" and not ratios) or (name, kind) == ("numeri", "hint")
        assert known or alongside, f"{kind}: nothing beside the board"
        if known:
            results[kind] = min(known)
    return results


@pytest.mark.slow  # each draws a match screen a dozen times: 2-3 s a screen
@pytest.mark.parametrize("colour_blind", [False, True], ids=["standard", "colour-blind"])
@pytest.mark.parametrize("boards", ["contrast"])  # the wood's colours: the declared check
@pytest.mark.parametrize("name", list(READY))
def test_each_marker_drawn_stands_out_from_the_board_beside_it(
    app, monkeypatch: pytest.MonkeyPatch, name: str, boards: str, colour_blind: bool
) -> None:
    app.settings.board_theme, app.settings.colour_blind = boards, colour_blind
    sprites.use_theme(boards)
    play = PlayScene(app, a_match(name))
    app.reset(play)
    app.frame(0.1)
    assert not play.locked and not play.view.animating
    ratios = measured(name, play, monkeypatch)
    shown = {kind: round(ratio, 2) for kind, ratio in ratios.items()}
    palette = "colour-blind" if colour_blind else "standard"
    assert min(ratios.values()) >= MINIMUM, f"{name} on {boards}, {palette}: {shown}"
