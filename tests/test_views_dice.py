"""The Ausgeblockt and Numeri views: dice that are kept where a person can see them, one Roll
button, the last turn kept visible, a prompt for every step, the counts, the coordinates, and
the two sides' marks told apart by shape and colour."""

from __future__ import annotations

import pygame
import pytest

from game import i18n
from game.client.scenes.picture import Preview, board_picture, draw_position
from game.client.scenes.play import PlayScene
from game.client.sprites import sprite
from game.client.theme import COLOUR_BLIND_SAFE, STANDARD, WOOD
from game.client.views import view_for
from game.client.views.base import Step
from game.client.views.sheet import SheetView, ink
from game.client.views.track import TrackView
from game.rules import State, new_game, resign_action
from game.rules.ausgeblockt import DECIDE, parse_cell
from game.rules.numeri import NumeriState
from game.session.match import Match
from game.session.seats import Seat

from .client_driver import Driver, played

SIZES = [(1920, 1080), (1024, 600), (700, 1050)]
SHEET = new_game("ausgeblockt", first=1)
TRACK = new_game("numeri", 2, first=1)
"""The starting positions, the first seat to begin."""


@pytest.fixture
def app(driver: Driver):
    return driver.app


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    i18n.set_language("en")


def view_of(app, state: State, size=(1280, 720), playable: bool = True):
    """A view of ``state`` laid out as the match screen lays it out, taps allowed if
    ``playable``."""
    preview = Preview(app, state, locked=not playable)
    view = view_for(state.variant.name, preview)
    width, height = size
    u = max(8, round(min(height, width * 9 / 16) / 54))
    panel = max(width * 3 // 10, 16 * u)
    view.layout(
        pygame.Rect(u, u, width - panel - 2 * u, height - 2 * u),
        pygame.Rect(width - panel + u, 10 * u, panel - 2 * u, 6 * u),
    )
    return view


def shown(view, state: State, steps: tuple[Step, ...] = ()):
    """Show ``state`` after ``steps``, as the match screen does after each action."""
    view.play.state = state
    view.show_last_turn(steps)
    return view


def picture(view, size=(1280, 720)) -> pygame.Surface:
    surface = pygame.Surface(size)
    view.draw(surface)
    return surface


def control(view, name: str):
    return next(c for c in view.controls() if c.name == name)


def cell(name: str) -> int:
    number = parse_cell(name)
    assert number is not None
    return number


# -- Ausgeblockt: the dice ------------------------------------------------------------------


def test_one_button_rolls_the_dice_not_kept_and_says_how_many(app) -> None:
    start = SHEET
    view = view_of(app, start)
    assert control(view, "roll").label() == "Roll 5 dice"
    thrown, _ = played(start, "=1134C")
    shown(view, thrown)
    roll = control(view, "roll")
    assert roll.enabled() and roll.label() == "Roll 5 dice"
    view.tap_die(0)
    view.tap_die(1)
    assert roll.label() == "Roll 3 dice"
    view.tap_die(2)
    view.tap_die(3)
    assert roll.label() == "Roll 1 die"
    view.tap_die(4)
    assert not roll.enabled(), "with every die kept, Stop is the way on"
    assert control(view, "stop").enabled()
    i18n.set_language("de")
    view.tap_die(4)
    assert roll.label() == "1 Würfel werfen"


def test_a_kept_die_moves_to_the_kept_row_and_its_target_with_it(app) -> None:
    """Bug 6: the focus box of a held die stayed where the die was."""
    thrown, _ = played(SHEET, "=1134C")
    view = shown(view_of(app, thrown), thrown)
    die = next(t for t in view.targets() if t.name == "die 2")
    before = die.rect.copy()
    die.action()
    assert view.held == {2}
    assert die.rect != before and die.rect == view.die_rect(2)
    assert view.dice_tray.band.contains(die.rect), "set aside into the kept row"
    die.action()
    assert die.rect == before


def test_the_focus_ring_of_a_tapped_die_follows_it_on_the_match_screen(driver: Driver) -> None:
    play = PlayScene(driver.app, Match.new(SHEET.variant, [Seat(), Seat()], seed=3))
    driver.app.push(play)
    driver.frame(2)
    play.roll()
    driver.settle()
    view = play.view
    assert isinstance(view, SheetView) and play.state.stage == DECIDE
    start = view.die_rect(1).center
    driver.click(start)
    target = play.focus
    assert target is not None and target.name == "die 1" and view.held == {1}
    assert target.rect == view.die_rect(1) and not target.rect.collidepoint(start)
    driver.click(target.rect.center)  # the die is tapped where it now lies
    assert view.held == set() and target.rect.collidepoint(start)


def test_another_seats_reroll_sets_its_kept_dice_aside_before_the_others_tumble(app) -> None:
    thrown, steps = played(SHEET, "=1134C")
    view = shown(view_of(app, thrown, playable=False), thrown, steps)
    after, (reroll,) = played(thrown, "r34C")
    view.played(reroll.before, reroll.action, reroll.after)
    shown(view, after, (*steps, reroll))
    kept = {slot for slot, face in enumerate(view.slots) if face == 1}
    assert view.held == kept and len(kept) == 2
    assert view.animating, "the kept dice slide aside, visibly"
    assert all(view.dice_tray.band.contains(view.die_rect(slot)) for slot in kept)
    while view.animating:
        view.update(0.1)
    rolled, (roll,) = played(after, "=555")
    view.played(roll.before, roll.action, roll.after)
    assert view.tumble is not None and view.tumble[1] == frozenset(range(5)) - kept
    assert sorted(view.slots) == list(rolled.dice)


def test_the_last_throw_stays_dimmed_with_its_thrower_until_the_next_roll(app) -> None:
    marked, steps = played(SHEET, "=11123 stop a5")
    view = shown(view_of(app, marked), marked, steps)
    assert sorted(view.slots) == [1, 1, 1, 2, 3]
    assert (view.live, view.thrower) == (False, 0)
    picture(view)  # drawn dimmed, with the mark and name of Crosses
    thrown, (roll,) = played(marked, "=CCC45")
    view.played(roll.before, roll.action, roll.after)
    shown(view, thrown, (roll,))
    assert sorted(view.slots) == list(thrown.dice)
    assert (view.live, view.thrower) == (True, 1)


# -- Ausgeblockt: the last turn, the prompts, the counts ------------------------------------


def test_the_cells_of_the_last_turn_stay_highlighted_chain_included(app) -> None:
    after, steps = played(SHEET, "=11113 stop c5 =CC123 stop d4")
    view = shown(view_of(app, after), after, steps)
    assert view.highlighted() == {f"cell {cell('c5')}", f"cell {cell('d4')}"}
    names = {target.name for target in view.targets()}
    assert view.highlighted() <= names
    shown(view, after, ())
    assert view.highlighted() == frozenset()


@pytest.mark.parametrize(
    ("moves", "prompt"),
    [
        ("", "Roll the dice"),
        ("=1134C", "Roll again: tap the dice to keep (2 attempts left)"),
        ("=1134C r34C =111", "Roll again: tap the dice to keep (1 attempt left)"),
        ("=1134C r34C", "Roll the dice"),
        ("=11123 stop", "Mark a cell with 1"),
        ("=CC123 stop", "Mark a cow cell"),
        ("=111CC stop", "Choose: mark a cow cell or a 1"),
        ("=11113 stop", "Quad! Mark a cell and play again"),
        ("=11113 stop c5", "Quad! Roll again for a mark next to c5"),
        ("=11113 stop c5 =CC123 stop", "Chain: mark a cell next to c5"),
        ("=12345 stop", "Crosses could not mark: the turn passes"),
        ("=12345 r12345 =12345 r12345 =12345", "Crosses could not mark: the turn passes"),
        ("=11123 stop a5", "Roll the dice"),
        ("=11123 stop pass", "Roll the dice"),
    ],
)
def test_every_step_of_an_ausgeblockt_turn_has_its_prompt(app, moves: str, prompt: str) -> None:
    state, steps = played(SHEET, moves)
    view = shown(view_of(app, state), state, steps)
    assert view.prompt() == prompt


def test_prompts_are_translated_and_the_game_over_has_none(app) -> None:
    state, steps = played(SHEET, "=11113 stop c5 =CC123 stop")
    view = shown(view_of(app, state), state, steps)
    i18n.set_language("it")
    assert view.prompt() == "Catena: marca una casella accanto a c5"
    i18n.set_language("en")
    resigned = state.apply(resign_action(1))
    assert shown(view, resigned).prompt() == ""
    assert view.counts() == []


def test_the_counts_say_the_attempts_left(app) -> None:
    start = SHEET
    view = shown(view_of(app, start), start)
    assert view.counts() == [(0, "3 attempts left")]
    thrown, _ = played(start, "=1134C r34C =111")
    assert shown(view, thrown).counts() == [(0, "1 attempt left")]


# -- Ausgeblockt: the sheet -----------------------------------------------------------------


def test_coordinates_are_drawn_if_and_only_if_the_setting_is_on(app) -> None:
    state = SHEET
    view = view_of(app, state)
    left = pygame.Rect(view.paper.x, view.rect.y, view.band, view.rect.height)
    below = pygame.Rect(view.rect.x, view.rect.bottom + 2, view.rect.width, view.band - 2)
    app.settings.show_coordinates = True
    surface = picture(view)
    assert pygame.transform.average_color(surface, left)[:3] != WOOD.sheet_paper
    assert pygame.transform.average_color(surface, below)[:3] != WOOD.sheet_paper
    app.settings.show_coordinates = False
    surface = picture(view)
    assert pygame.transform.average_color(surface, left)[:3] == WOOD.sheet_paper
    assert pygame.transform.average_color(surface, below)[:3] == WOOD.sheet_paper


@pytest.mark.parametrize("colour_blind", [False, True])
def test_the_two_sides_mark_in_their_own_shape_and_ink(app, colour_blind: bool) -> None:
    """A cross is inked at its centre, a circle is not (it is inked on its ring); the inks
    are the two seats' colours, in either palette."""
    app.settings.colour_blind = colour_blind
    palette = COLOUR_BLIND_SAFE if colour_blind else STANDARD
    state, _ = played(SHEET, "=11123 stop a5 =CC123 stop b5")
    view = view_of(app, state)
    surface = picture(view)
    cross, circle = view.cell_rect(cell("a5")), view.cell_rect(cell("b5"))  # b5 is a cow
    x_ink, o_ink = ink(palette.seats[0]), ink(palette.seats[1])
    assert _near(surface.get_at(cross.center)[:3], x_ink)
    assert not _near(surface.get_at(circle.center)[:3], o_ink)
    ring = (circle.centerx + round(circle.width * 0.205), circle.centery)  # on the ring
    assert _near(surface.get_at(ring)[:3], o_ink)
    assert not _near(x_ink, o_ink)
    assert sprite("mark_x", 64).get_at((32, 32)).a > 200
    assert sprite("mark_o", 64).get_at((32, 32)).a == 0


def _near(a, b, tolerance: int = 40) -> bool:
    return sum(abs(p - q) for p, q in zip(a, b, strict=True)) <= tolerance


# -- Numeri ---------------------------------------------------------------------------------


def test_numeri_highlights_the_moved_pawns_spaces_and_keeps_the_die(app) -> None:
    state, _ = played(TRACK, "d3 3 d1 1")  # pawn 3 of each seat on the track
    entering = state.pawns[0][2]
    after, steps = played(state, "d3 3")
    view = shown(view_of(app, after), after, steps)
    assert isinstance(view, TrackView)
    assert view.highlighted() == {f"space {entering}", f"space {after.pawns[0][2]}"}
    assert view.highlighted() <= {target.name for target in view.targets()}
    assert view.shown_die(after) == (3, 0, False)
    rolled, (roll,) = played(after, "d*")
    shown(view, rolled, (roll,))
    assert view.shown_die(rolled) == (6, 1, True)
    assert view.highlighted() == frozenset()


def test_numeri_entering_pawn_highlights_where_it_entered(app) -> None:
    after, steps = played(TRACK, "d2 2")
    view = shown(view_of(app, after), after, steps)
    assert view.highlighted() == {"space 0"}


def _numeri(pawns, side: int, stage: int, die: int, unlocked: bool) -> NumeriState:
    return NumeriState.from_fields(TRACK.variant, [pawns, side, stage, die, unlocked, None])


OFF = -1


@pytest.mark.parametrize(
    ("position", "prompt"),
    [
        (([[OFF] * 5, [OFF] * 5], 0, 1, 0, False), "Roll the die"),
        (([[OFF] * 5, [OFF] * 5], 0, 2, 4, False), "Move a pawn: tap pawn 4"),
        (([[OFF] * 5, [OFF] * 5], 0, 2, 6, False), "Star: move any pawn"),
        (
            ([[12, 11, OFF, OFF, OFF], [OFF] * 5], 0, 2, 3, True),
            "Move pawn 3, or split: tap two pawns",
        ),
        (([[5, 6, 36, OFF, OFF], [OFF] * 5], 0, 2, 3, True), "Split the roll: tap the first pawn"),
    ],
)
def test_every_step_of_a_numeri_turn_has_its_prompt(app, position, prompt: str) -> None:
    state = _numeri(*position)
    view = shown(view_of(app, state), state)
    assert view.prompt() == prompt


def test_a_split_asks_for_its_second_pawn(app) -> None:
    state = _numeri([[12, 11, OFF, OFF, OFF], [OFF] * 5], 0, 2, 3, True)
    view = shown(view_of(app, state), state)
    view.tap_pawn(1)
    assert view.prompt() == "Split: choose the second pawn"
    view.clear_selection()
    assert view.prompt().startswith("Move pawn 3")


def test_a_roll_that_moves_nothing_says_the_turn_passes(app) -> None:
    state = _numeri([[OFF, OFF, 36, OFF, OFF], [OFF] * 5], 0, 1, 0, False)
    after, steps = played(state, "d3")
    assert after.side == 1
    view = shown(view_of(app, after), after, steps)
    assert view.prompt() == "No move possible — turn passes"
    assert view.shown_die(after) == (3, 0, False)


def test_numeri_counts_the_running_score_of_each_seat(app) -> None:
    state, _ = played(TRACK, "d3 3 d1 1")
    view = shown(view_of(app, state), state)
    scores = state.scores()
    assert view.counts() == [(0, f"Red: {scores[0]} points"), (1, f"Blue: {scores[1]} points")]
    i18n.set_language("de")
    assert view.counts()[0] == (0, f"Rot: {scores[0]} Punkte")


def test_only_the_barrier_of_this_number_of_players_is_drawn(app) -> None:
    state = TRACK
    view = view_of(app, state)
    surface = picture(view)
    track = state.track

    def middle(after: int) -> tuple[int, int]:
        a, b = view.space_center(after), view.space_center(after + 1)
        return (a[0] + b[0]) // 2, (a[1] + b[1]) // 2

    assert surface.get_at(middle(track.barrier(2)))[:3] == WOOD.track_barrier
    for players in (3, 4):
        assert surface.get_at(middle(track.barrier(players)))[:3] != WOOD.track_barrier


# -- every size, and the pictures outside a match -------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_the_dice_views_lay_out_and_draw_at_every_size(app, size) -> None:
    sheet, sheet_steps = played(SHEET, "=11123 r23 =45")
    track, track_steps = played(new_game("numeri", 4, first=1), "d3 3 d2 2")
    for state, steps in ((sheet, sheet_steps), (track, track_steps)):
        view = shown(view_of(app, state, size), state, steps)
        picture(view, size)
        for target in view.targets():
            assert target.rect.width > 0 and target.rect.height > 0
    sheet_view = view_of(app, sheet, size)
    assert sheet_view.dice_tray.die >= 20, "dice too small to read"
    for slot in range(5):
        assert sheet_view.tray.contains(sheet_view.die_rect(slot, held=True))
        assert sheet_view.tray.contains(sheet_view.die_rect(slot, held=False))


def test_pictures_outside_a_match_show_the_dice_games(app) -> None:
    """The rules screens' starting positions, and a position with the turn that led to it
    (results, replay)."""
    for name in ("ausgeblockt", "numeri"):
        assert board_picture(app, name, (300, 300)).get_size() == (300, 300)
    for start, moves in ((SHEET, "=11123 stop a5"), (TRACK, "d2 2 d*")):
        state, steps = played(start, moves)
        assert draw_position(app, state, (300, 300), last_turn=steps).get_size() == (300, 300)


def test_the_winning_chain_is_lit_over_the_marked_cells(app) -> None:
    """Every cell of the chain that joined the starts wears the accent's ring — over the
    wash of its marks, which once hid it."""
    import random

    from game.rules.ausgeblockt import CELLS

    for seed in range(40):
        match = Match.new(new_game("ausgeblockt").variant, [Seat(), Seat()], seed)
        rng = random.Random(seed)
        for _ in range(3000):
            if match.state.is_terminal():
                break
            if match.state.is_chance():
                match.roll()
            else:
                match.play(rng.choice(match.state.legal_actions()))
        if match.state.is_terminal() and match.state.winning_chain():
            break
    state = match.state
    chain = [c for c in range(CELLS) if state.winning_chain() >> c & 1]
    view = shown(view_of(app, state, playable=False), state)
    surface = picture(view)
    accent = app.palette.accent
    for cell in chain:
        box = view.cell_rect(cell)
        edge = surface.get_at((box.centerx, box.top + 1))[:3]
        assert max(abs(a - b) for a, b in zip(edge, accent, strict=True)) < 40, (cell, edge)
