"""What the match screen says, whichever panel shows it: whose turn it is (:func:`status`),
what to do now (:func:`prompt`), the moves so far (:func:`history`), and a lesson's words
fitted to their room (:func:`lesson_lines`); with the wrapping of the panel's lines, worked
out once rather than at every frame (:func:`wrapped`)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from game.client import theme
from game.i18n import _
from game.names import action_text, hint_text, seat_names
from game.session.seats import SeatKind

if TYPE_CHECKING:
    from game.client.scenes.play import PlayScene

HISTORY_LINES = 8
"""The most moves the history lists."""
LESSON_SIZES = (1.4, 1.25, 1.1, 1.0)
"""Units of a lesson's words, the largest that fits its room (the prompt's is 1)."""

LessonLine = tuple[str, int, bool]
"""A line of a lesson's words: its text, its size and whether it is the instruction."""


def status(play: PlayScene) -> str:
    """Whose turn it is, and how it stands: thinking, playing, a draw offered, the end."""
    state = play.state
    names = seat_names(state)
    if state.is_terminal():
        return _("Game over")
    special = play.control.status()
    if special and play.caught_up:
        return special
    offer = play.actions.draw_offer
    if offer is not None:
        other = names[1 - offer] if len(names) == 2 else ""
        return _("{name}: accept the draw?").format(name=other)
    seat = play.actor(state)
    if seat is None:
        return _("Drawing lots…")
    name = names[seat]
    if play.control.here(seat):
        if play.holding or not play.caught_up:  # the other's move still shows: no input yet
            return _("{name} is next…").format(name=name)
        if play.control.people_here() == 1:
            return _("Your turn ({name})").format(name=name)
        return _("{name} to play").format(name=name)
    if play.control.thinking(seat):
        return _("{name} is thinking…").format(name=name)
    if play.match.seats[seat].kind is SeatKind.COMPUTER:
        return _("{name} is playing…").format(name=name)
    return _("{name} to play").format(name=name)


def prompt(play: PlayScene) -> str:
    """What the person to act must do now (empty when nobody here acts), or that the turn
    just passed because no move was possible (whoever acts next)."""
    view = play.view
    if view.passed() and not view.animating:
        return view.prompt()
    if play.locked and not view.animating:
        return ""
    seat = play.actor(play.state)
    if seat is None or not play.control.here(seat) or play.actions.draw_offer is not None:
        return ""
    instruction = play.control.instruction()
    if instruction:
        return instruction
    hint = play.actions.shown_hint()
    if hint is not None:
        return _("Hint: {advice}").format(advice=hint_text(play.state, hint))
    return view.prompt()


def history(play: PlayScene) -> list[tuple[int, str]]:
    """The last actions on screen as the panel lists them, each with the seat that made it
    (-1: none), made on each change rather than each frame."""
    lines = []
    for index in range(max(0, play.shown - HISTORY_LINES), play.shown):
        step = play.step(index)
        seat = play.actor(step.before)
        if seat is None and step.before.is_chance():  # a lot: the seat it chose
            seat = step.action
        lines.append((-1 if seat is None else seat,
                      f"{index + 1}. {action_text(step.before, step.action)}"))  # fmt: skip
    return lines


def lesson_lines(
    paragraphs: Sequence[tuple[str, bool]], width: int, height: int, u: int
) -> tuple[LessonLine, ...]:
    """A lesson's paragraphs (text, whether it is the instruction) in lines as large as a
    room of ``width`` by ``height`` allows (:data:`LESSON_SIZES`); lines that fit at no size
    are left off, never drawn over the buttons."""
    lines: list[LessonLine] = []
    for scale in LESSON_SIZES:
        size = round(scale * u)
        lines = [(line, size, instruction) for text, instruction in paragraphs
                 for line in wrapped(text, size, True, width)]  # fmt: skip
        if lines_height(lines, u) <= height:
            break
    while lines and lines_height(lines, u) > height:
        lines.pop()  # never over the buttons; tests keep every lesson clear of this
    return tuple(lines)


def lines_height(lines: Sequence[LessonLine], u: int) -> int:
    """The height of a lesson's lines, with the gap between its two parts."""
    height = sum(theme.font(size, True).get_linesize() for _, size, _ in lines)
    parts = len({instruction for _, _, instruction in lines})
    return height + (u // 2 if parts > 1 else 0)


@lru_cache(maxsize=64)
def wrapped(text: str, size: int, bold: bool, width: int) -> tuple[str, ...]:
    """The panel's lines of ``text`` (worked out once, not at every frame)."""
    return tuple(theme.wrap(text, theme.font(size, bold), width))
