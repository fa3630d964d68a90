"""The Mulino and checkerboard views: the last turn kept visible, a prompt for every step, the
counts, the coordinates, the marks of what can move, and passing only where it exists."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from game.client.scenes.picture import Preview
from game.client.theme import WOOD
from game.client.views import view_for
from game.client.views.base import Step
from game.client.views.checkers import CheckersView
from game.client.views.mill import MillView
from game.rules import State, new_game, resign_action, variant
from game.rules.dama import DamaState
from game.rules.lupo import LupoState
from game.rules.mulino import PASS, POINTS, MulinoState

from .client_driver import Driver, played

SIZES = [(1920, 1080), (1024, 600), (700, 1050)]


@pytest.fixture
def app(tmp_path: Path):
    driver = Driver(tmp_path)
    yield driver.app
    driver.app.close()
    pygame.event.clear()


def view_of(app, state: State, size=(1280, 720), playable: bool = True):
    """A view of ``state`` laid out as the match screen would, taps allowed if ``playable``."""
    preview = Preview(app, state)
    preview.locked = not playable
    view = view_for(state.variant.name, preview)
    width, height = size
    view.layout(
        pygame.Rect(0, 0, width * 7 // 10, height), pygame.Rect(width * 7 // 10, 0, 200, 100)
    )
    return view


def picture(view, size=(1280, 720)) -> pygame.Surface:
    surface = pygame.Surface(size)
    view.draw(surface)
    return surface


def squares(*numbers: int) -> int:
    return sum(1 << (n - 1) for n in numbers)


# -- Mulino ---------------------------------------------------------------------------------

CLASSIC = variant("mulino:classic")
CEYLONESE = variant("mulino:ceylonese")


def test_mulino_shows_a_move_and_its_removal_until_the_next_turn(app) -> None:
    start = MulinoState.setup(CLASSIC, "a1 d1 g4 c3", "a7 d7 f6 e5 b6")
    after, steps = played(start, "g4-g1 xb6")
    view = view_of(app, after)
    assert view.highlighted() == frozenset()
    view.show_last_turn(steps)
    assert view.highlighted() == {"point g4", "point g1", "point b6"}
    assert view.ghosts == ((14, "stone_black"),)  # b6
    view.show_last_turn(played(after, "d7-g7")[1])
    assert view.highlighted() == {"point d7", "point g7"}


def test_mulino_highlights_a_placement_and_ignores_a_resignation(app) -> None:
    after, steps = played(new_game("mulino"), "d2")
    view = view_of(app, after)
    resigned = after.apply(resign_action(1))
    view.show_last_turn((*steps, Step(after, resign_action(1), resigned)))
    assert view.highlighted() == {"point d2"}


def test_mulino_draws_the_last_turn_and_the_removed_stone(app) -> None:
    start = MulinoState.setup(CLASSIC, "a1 d1 g4 c3", "a7 d7 f6 e5 b6")
    after, steps = played(start, "g4-g1 xb6")
    view = view_of(app, after, playable=False)
    plain = picture(view)
    view.show_last_turn(steps)
    shown = picture(view)
    for point in (3, 14):  # g4, left empty, and b6, where the ghost stands
        x, y = view.point_center(point)
        assert plain.get_at((x + view.step // 4, y + view.step // 4)) != shown.get_at(
            (x + view.step // 4, y + view.step // 4)
        )
    assert shown.get_at(view.point_center(14))[:3] != WOOD.mill_board


@pytest.mark.parametrize(
    ("name", "moves", "prompt"),
    [
        ("mulino", "", "Place a piece (9 left)"),
        ("mulino", "a1 g7 d1 f6", "Place a piece (7 left)"),
        ("mulino", "a1 g7 d1 f6 g1", "Remove one of Black's pieces"),
        ("mulino", "a1 g7 d1 d7 b2 a7", "Remove one of White's pieces"),
        ("mulino:misto", "a1 g7", "Place a piece (8 left) or move one"),
        ("mulino:misto", "", "Place a piece (9 left)"),
    ],
)
def test_mulino_prompts_while_placing(app, name: str, moves: str, prompt: str) -> None:
    state, _steps = played(new_game(name), moves)
    assert view_of(app, state).prompt() == prompt


def test_mulino_prompts_while_moving_flying_and_choosing_where(app) -> None:
    moving = MulinoState.setup(CLASSIC, "a1 d1 g4 c3", "a7 d7 f6 e5 b6")
    view = view_of(app, moving)
    assert view.prompt() == "Move a piece"
    view.tap(3)  # g4
    assert view.selected == 3 and view.prompt() == "Tap a point to move it to"
    flying = MulinoState.setup(CLASSIC, "a1 d1 g4", "a7 d7 f6 e5 b6")
    assert view_of(app, flying).prompt() == "Move a piece — you may fly"


def test_mulino_ceylonese_prompts_the_extra_move_and_the_pass_says_what_it_declines(
    app,
) -> None:
    start = MulinoState.setup(CEYLONESE, "a1 d1 g4 c3", "a7 d7 f6 e5 b6")
    extra, _steps = played(start, "g4-g1 xb6")
    view = view_of(app, extra)
    assert view.prompt() == "Extra move: move a piece or pass"
    [control] = view.controls()
    assert control.name == "pass" and control.enabled()
    assert control.label() == "Decline the extra move"
    assert not view_of(app, start).controls()[0].enabled()


def test_mulino_ceylonese_prompts_the_extra_placement(app) -> None:
    extra, _steps = played(new_game("mulino:ceylonese"), "a1 g7 d1 f6 g1")
    assert PASS in extra.legal_actions()
    view = view_of(app, extra)
    assert view.prompt() == "Extra placement: place a piece or pass"
    assert view.controls()[0].label() == "Decline the extra placement"


def test_mulino_prompts_nothing_at_the_end(app) -> None:
    start = MulinoState.setup(CLASSIC, "a1 d1 g4", "a7 d7 b6")
    ended, _steps = played(start, "g4-g1 xa7")
    assert ended.is_terminal()
    assert view_of(app, ended).prompt() == ""


@pytest.mark.parametrize("name", ["mulino:classic", "mulino:misto"])
def test_only_ceylonese_offers_a_pass(app, name: str) -> None:
    """Bug 6: a greyed Pass showed in every Mulino variant."""
    assert view_of(app, new_game(name)).controls() == []
    assert [c.name for c in view_of(app, new_game("mulino:ceylonese")).controls()] == ["pass"]


def test_mulino_counts_hand_and_board_for_both_sides(app) -> None:
    state, _steps = played(new_game("mulino"), "a1 g7 d1 f6 g1 xf6")
    assert [line for _seat, line in view_of(app, state).counts()] == [
        "White: 6 in hand, 3 on the board",
        "Black: 7 in hand, 1 on the board",
    ]
    moving = MulinoState.setup(CLASSIC, "a1 d1 g4", "a7 d7 f6 e5 b6")
    assert view_of(app, moving).counts()[1] == (1, "Black: 0 in hand, 5 on the board")


@pytest.mark.parametrize("size", SIZES)
def test_mulino_coordinates_follow_the_setting(app, size) -> None:
    view = view_of(app, new_game("mulino"), size)
    band = (view.margin - view.step * 0.39) / 2
    d_label = pygame.Rect(0, 0, view.step // 3, view.step // 3)
    d_label.center = (view.point_center(1)[0], round(view.rect.bottom - band))  # under d1
    four_label = d_label.copy()
    four_label.center = (round(view.rect.x + band), view.point_center(7)[1])  # left of a4
    app.settings.show_coordinates = True
    shown = picture(view, size)
    app.settings.show_coordinates = False
    hidden = picture(view, size)
    for label in (d_label, four_label):
        pixels = {hidden.get_at((x, y))[:3] for x in range(label.left, label.right)
                  for y in range(label.top, label.bottom)}  # fmt: skip
        assert pixels == {WOOD.mill_board}
        assert any(
            shown.get_at((x, y))[:3] != WOOD.mill_board
            for x in range(label.left, label.right)
            for y in range(label.top, label.bottom)
        )


def test_mulino_rings_the_stones_that_can_move(app) -> None:
    moving = MulinoState.setup(CLASSIC, "a1 d1 g4 c3", "a7 d7 f6 e5 b6")
    view = view_of(app, moving)
    surface = picture(view)
    ring_at = round(view.step * 0.45) - 1
    for point, can_move in ((3, True), (0, True), (6, False)):  # g4, a1: White's; a7: Black's
        x, y = view.point_center(point)
        assert (surface.get_at((x, y - ring_at))[:3] == app.palette.legal) is can_move
    view.tap(3)
    chosen = picture(view)
    x, y = view.point_center(0)
    assert chosen.get_at((x, y - ring_at))[:3] != app.palette.legal  # one chosen: no rings


# -- Dama, Mangia and Lupo ------------------------------------------------------------------

DAMA = variant("dama:classic")
HUFFING = variant("dama:classic", options={"huffing": True})


def test_a_multi_capture_shows_its_whole_path_and_what_it_took(app) -> None:
    start = DamaState.from_pieces(DAMA, (squares(26, 30), squares(23, 16, 8, 1)), (0, 0))
    after, steps = played(start, "26x19x12x3")
    view = view_of(app, after)
    view.show_last_turn(steps)
    path = {"square 26", "square 19", "square 12", "square 3"}
    assert view.highlighted() == path | {"square 23", "square 16", "square 8"}
    assert {name for _square, name in view.ghosts} == {"man_black"}
    assert view.jumps == ((25, 18, 11, 2),)


def test_a_simple_move_is_tinted_without_a_path_line(app) -> None:
    after, steps = played(new_game("dama"), "22-18")
    view = view_of(app, after, playable=False)
    plain = picture(view)
    view.show_last_turn(steps)
    shown = picture(view)
    assert view.highlighted() == {"square 22", "square 18"} and view.jumps == ()
    corner = view.square_rect(21).move(view.cell // 3, view.cell * 3 // 4).topleft  # 22, empty
    assert plain.get_at(corner) != shown.get_at(corner)


def test_a_huff_leaves_a_ghost_and_the_move_after_it_is_highlighted(app) -> None:
    start = DamaState.from_pieces(HUFFING, (squares(22, 23, 30), squares(18, 11, 3)), (0, 0))
    refused, _steps = played(start, "30-26")  # 22 and 23 could have captured
    after, steps = played(refused, "h22 11-16")
    view = view_of(app, after)
    view.show_last_turn(steps)
    assert view.highlighted() == {"square 22", "square 11", "square 16"}
    assert view.ghosts == ((21, "man_white"),)


def test_lupo_highlights_the_wolf_placed_and_not_the_lot(app) -> None:
    lot = new_game("dama:lupo")
    assert lot.is_chance()
    placing = lot.apply(1)
    placed = placing.apply(7)  # the wolf on 8
    view = view_of(app, placed)
    view.show_last_turn((Step(lot, 1, placing), Step(placing, 7, placed)))
    assert view.highlighted() == {"square 8"}


@pytest.mark.parametrize(
    ("state", "prompt"),
    [
        (new_game("dama"), "Move a piece"),
        (played(new_game("dama"), "22-18 9-13 18-14")[0], "You must capture"),
        (played(new_game("dama:mangia"), "22-18 9-13 18-14")[0], "You must capture"),
        (played(new_game("dama", huffing=True), "22-18 9-13 18-14")[0], "Move a piece"),
        (
            played(new_game("dama", huffing=True), "22-18 9-13 18-14 6-9")[0],
            "You may huff: remove Black's piece that failed to capture, or move",
        ),
        (new_game("dama:lupo", wolf="2"), "Place the wolf"),
        (new_game("dama:lupo", wolf="2").apply(7), "Move a sheep"),
        (played(new_game("dama:lupo", wolf="2").apply(7), "29-25")[0], "Move the wolf"),
        (new_game("dama:lupo"), ""),
    ],
    ids=["move", "capture", "mangia", "huffing", "huff", "place", "sheep", "wolf", "lot"],
)
def test_checkers_prompts(app, state: State, prompt: str) -> None:
    assert view_of(app, state).prompt() == prompt


def test_a_capture_begun_asks_to_continue(app) -> None:
    start = DamaState.from_pieces(DAMA, (squares(26, 30), squares(23, 16, 8, 1)), (0, 0))
    view = view_of(app, start)
    assert view.prompt() == "You must capture"
    view.tap(25)
    assert view.prompt() == "You must capture"  # the piece chosen, no jump yet
    view.tap(18)
    assert view.path == [25, 18] and view.prompt() == "Continue the capture"


def test_checkers_prompt_nothing_at_the_end(app) -> None:
    over = DamaState.from_pieces(DAMA, (squares(22), 0), (0, 0), side=1)
    assert over.is_terminal()
    assert view_of(app, over).prompt() == ""


def test_dama_counts_pieces_and_kings(app) -> None:
    state = DamaState.from_pieces(DAMA, (squares(26, 30), squares(9)), (squares(5), 0))
    assert view_of(app, state).counts() == [(0, "White: 3 pieces (1 king)"), (1, "Black: 1 piece")]
    assert view_of(app, new_game("dama")).counts()[1] == (1, "Black: 12 pieces")
    assert view_of(app, new_game("dama:lupo", wolf="1")).counts() == []


def test_the_can_move_mark_leaves_the_wolf_s_face_visible(app) -> None:
    """Bug 6: the "can move" dot covered the wolf's face."""
    state = LupoState.from_pieces(
        variant("dama:lupo", options={"wolf": "2"}), squares(29, 30, 31, 32), 7, 1, False
    )
    marked = picture(view_of(app, state))
    unmarked = picture(view_of(app, state, playable=False))
    view = view_of(app, state)
    face = pygame.Rect(0, 0, view.cell // 2, view.cell // 2)
    face.center = view.square_center(7)
    assert all(
        marked.get_at((x, y)) == unmarked.get_at((x, y))
        for x in range(face.left, face.right)
        for y in range(face.top, face.bottom)
    )
    x, y = view.square_center(7)
    assert marked.get_at((x, y - round(view.cell * 0.46) + 1))[:3] == app.palette.legal


def test_square_numbers_stay_readable_under_pieces(app) -> None:
    """A number's glyphs are drawn the same whether a piece stands on its square or not."""
    full = new_game("dama")  # White's men on 21–32
    empty = DamaState.from_pieces(DAMA, (squares(5), squares(28)), (0, 0))
    view = view_of(app, full, playable=False)
    with_piece = picture(view)
    view.play.state = empty
    without = picture(view)
    corner = view.square_rect(21)  # 22
    corner.size = (view.cell // 3, view.cell // 4)

    def glyphs(surface: pygame.Surface) -> set[tuple[int, int]]:
        return {
            (x, y)
            for x in range(corner.left, corner.right)
            for y in range(corner.top, corner.bottom)
            if surface.get_at((x, y))[:3] == WOOD.dama_number
        }

    assert len(glyphs(without)) > 10
    assert glyphs(with_piece) == glyphs(without)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("name", ["mulino:ceylonese", "dama:classic", "dama:lupo"])
def test_views_draw_a_last_turn_at_every_size(app, size, name: str) -> None:
    state = new_game(name, **({"wolf": "1"} if name == "dama:lupo" else {}))
    first = state.legal_actions()[0]
    after = state.apply(first)
    view = view_of(app, after, size)
    view.show_last_turn((Step(state, first, after),))
    picture(view, size)
    assert view.highlighted()
    assert all(view.rect.colliderect(t.rect) for t in view.targets())
    assert isinstance(view, MillView | CheckersView)


def test_panel_colours_are_the_pieces_colours(app) -> None:
    mill = view_of(app, new_game("mulino"))
    assert mill.seat_colour(0) != mill.seat_colour(1)
    lupo = view_of(app, new_game("dama:lupo", wolf="1"))
    dama = view_of(app, new_game("dama"))
    assert lupo.seat_colour(0) == dama.seat_colour(1)  # the wolf is dark, as Black is


@pytest.mark.parametrize(
    ("name", "tap"), [("mulino:ceylonese", "point a1"), ("dama:classic", "square 22")]
)
def test_the_match_screen_shows_the_computer_s_last_move(tmp_path: Path, name, tap) -> None:
    driver = Driver(tmp_path)
    try:
        driver.start(name, computers={1: "easy"})
        play = driver.scene
        driver.press(tap)
        if name.startswith("dama"):
            driver.press("square 18")
        driver.settle()
        assert play.state.to_move == 0
        last = play.view.last_turn
        assert last and last[0].before.to_move == 1
        assert play.view.highlighted()
        assert play.view.prompt()
        names = {t.name for t in play.targets}
        assert ("pass" in names) is (name == "mulino:ceylonese")
    finally:
        driver.app.close()
        pygame.event.clear()


def test_mulino_numbers_the_points_of_a_turn_that_touched_more_than_two(app) -> None:
    """A move that closes a mill and its removal (or ceylonese's extra moves) leave several
    rings: each gets its number, in the order the turn touched it; a plain move none."""
    start = MulinoState.setup(CLASSIC, "a1 d1 g4 c3", "a7 d7 f6 e5 b6")
    after, steps = played(start, "g4-g1 xb6")
    view = view_of(app, after)
    view.show_last_turn(steps)
    numbers = {name: drawn[-1] for name, _rect, drawn in view.elements(0) if name != "tray"}
    g4, g1, b6 = (f"point {POINTS.index(p)}" for p in ("g4", "g1", "b6"))
    assert (numbers[g4], numbers[g1], numbers[b6]) == (1, 2, 3)
    assert sum(1 for n in numbers.values() if n) == 3
    view.show_last_turn(played(after, "d7-g7")[1])
    assert not any(drawn[-1] for name, _rect, drawn in view.elements(0) if name != "tray")
