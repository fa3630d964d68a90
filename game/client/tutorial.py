"""Guided first games: a short scripted match against the computer for each game, on fixed
dice and moves, in which the screen says what to do and why, waits for the player to do it
(the move ringed on the board), and says what happened.

A script is the whole match as the record would write it: the lot, the dice, the computer's
moves and the moves the player is asked for, each with its words.  :class:`TutorialControl`
plays it on the ordinary match screen: the player's taps must make the next move of the
script — another move is refused gently and the instruction said again, never an error —
the dice the player throws and everything else come from the script at the screen's pace.
When the script is over, :class:`TutorialDoneScene` says what comes next.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pygame

from game.client import theme
from game.client.control import MatchControl
from game.client.navigator import Screen, make
from game.client.scenes.menu import Item, MenuScene, item
from game.client.scenes.seats import start_match
from game.client.turns import actor
from game.client.widgets import button
from game.i18n import _
from game.names import variant_title
from game.rules import State, variant
from game.session.match import Match
from game.session.seats import Seat, SeatKind

if TYPE_CHECKING:
    from game.client.app import App

Words = Callable[[], str]
PERSON = 0
"""The seat the player plays; the computer (the tutor's opponent) plays the other."""


@dataclass(frozen=True, slots=True)
class Step:
    """One action of the script: its notation (None: any legal action the player likes) and
    its words — for the player's own steps what to do and why, for the others what happened."""

    action: str | None
    say: Words | None = None


@dataclass(frozen=True, slots=True)
class Script:
    name: str
    steps: tuple[Step, ...]
    done: Words
    """The last words: what the player has learnt, and what the game is about."""
    key: int = 0
    """How many actions are played at the lesson's key step (its picture in the docs)."""


def _scripts() -> dict[str, Script]:
    """The lessons by variant name, in the order the rules index lists the variants."""
    lessons = (_ausgeblockt, _numeri, _dama, _mangia, _lupo, _mulino, _misto, _ceylonese)
    return {script.name: script for script in (lesson() for lesson in lessons)}


def _ausgeblockt() -> Script:
    return Script(
        "ausgeblockt",
        (
            Step("first1", lambda: _("You play the crosses and begin.")),
            Step("=1134C", lambda: _("Tap Roll to throw the five dice.")),
            Step(
                "r34C",
                lambda: _(
                    "Three of a kind make a mark. Keep the two 1s: tap both, "
                    "then roll the other three."
                ),
            ),
            Step("=15C"),
            Step("stop", lambda: _("Three 1s: a mark! Tap Stop to keep this throw.")),
            Step("c2", lambda: _("Mark a cell showing 1: tap c2, next to your start c1.")),
            Step("=2223C", lambda: _("The circles throw three 2s…")),
            Step("stop"),
            Step("c4", lambda: _("…and mark c4, in your way. Blocking is allowed.")),
            Step("=3333C", lambda: _("Your turn again: tap Roll.")),
            Step("stop", lambda: _("Four 3s: a quad! A quad mark gives another turn. Tap Stop.")),
            Step("d3", lambda: _("Mark a 3: tap d3. Your next mark must touch it.")),
        ),
        lambda: _(
            "Connect your three starts with your own cells before the circles do. "
            "Two cows mark a cow cell; a quad keeps you rolling."
        ),
        key=9,
    )


def _numeri() -> Script:
    return Script(
        "numeri",
        (
            Step("first1", lambda: _("You play red and begin.")),
            Step("d1", lambda: _("Tap Roll to throw the die.")),
            Step("1", lambda: _("The die says 1: pawn 1 enters the track. Tap it.")),
            Step("d1", lambda: _("Blue rolls a 1…")),
            Step("1", lambda: _("…and its pawn 1 takes the next free space.")),
            Step("d*", lambda: _("Your turn: tap Roll.")),
            Step("2", lambda: _("A star: move any pawn you like. Tap pawn 2.")),
            Step("d1", lambda: _("Blue rolls a 1 again…")),
            Step("1", lambda: _("…its pawn jumps over yours: occupied spaces are skipped.")),
            Step("d3", lambda: _("Tap Roll.")),
            Step(
                "3", lambda: _("Pawn 3 enters the first free space, beside your 1 and 2. Tap it.")
            ),
        ),
        lambda: _(
            "Three of your pawns side by side: an extra roll! Each pawn scores its "
            "number times the value of its space; the game ends when the last three "
            "spaces are full."
        ),
        key=9,
    )


def _dama() -> Script:
    return Script(
        "dama:classic",
        (
            Step(
                "22-18", lambda: _("You play white and begin. Move a man forward: tap 22, then 18.")
            ),
            Step("11-15", lambda: _("Black moves 11-15…")),
            Step("18x11", lambda: _("A man must capture when it can: tap 18, then 11.")),
            Step("8x15", lambda: _("Black must capture too: 8x15.")),
            Step("21-17", lambda: _("Even. Now move 21-17: tap 21, then 17.")),
        ),
        lambda: _(
            "Capturing is compulsory; a man that reaches the far side becomes a king, "
            "which flies along the diagonals. Take all of the other's pieces, or "
            "leave them no move."
        ),
        key=2,
    )


def _mangia() -> Script:
    """Losing draughts: the player gives men away where Black must take them, and is
    made to take one in the end (every capture here is the only legal move)."""
    return Script(
        "dama:mangia",
        (
            Step(
                "21-17",
                lambda: _(
                    "You play white. In Mangia la dama you win by losing: give all your "
                    "pieces away. Move 21-17: tap 21, then 17."
                ),
            ),
            Step("9-14", lambda: _("Black moves 9-14, beside your man on 17.")),
            Step(
                "22-18",
                lambda: _(
                    "Black can now jump your man on 17, and capturing is compulsory. "
                    "Let it: tap 22, then 18."
                ),
            ),
            Step("14x21", lambda: _("Black had to take it: 14x21. One man fewer for you, good!")),
            Step(
                "18-14",
                lambda: _(
                    "Use the rule as a weapon: put a man where Black must take it. Tap 18, then 14."
                ),
            ),
            Step("10x17", lambda: _("Black is forced again: 10x17.")),
            Step("26-22", lambda: _("Once more, in front of Black's man on 17: tap 26, then 22.")),
            Step("17x26", lambda: _("17x26: three men given away!")),
            Step(
                "31x22",
                lambda: _("The rule binds you too: you must take the man on 26. Tap 31, then 22."),
            ),
        ),
        lambda: _(
            "In Mangia la dama you win when, at your turn, you have no piece left or no "
            "move. Capturing is compulsory: offer men where the other must take them, "
            "and beware of the other's offers."
        ),
        key=4,
    )


def _lupo() -> Script:
    """The player keeps the sheep (the side that wins with good play) and traps a wolf
    that dives at the gaps; the match ends there, won."""
    return Script(
        "dama:lupo",
        (
            Step(
                "wolf2",
                lambda: _("The lot gives the wolf to the computer: you play the four sheep."),
            ),
            Step(
                "@9",
                lambda: _(
                    "The wolf is placed on 9. It steps one square diagonally, "
                    "forwards or backwards."
                ),
            ),
            Step(
                "29-25",
                lambda: _("Sheep step one square diagonally forward, never back. Tap 29, then 25."),
            ),
            Step("9-14", lambda: _("The wolf comes down to 14…")),
            Step("25-22", lambda: _("Stand in its way: tap 25, then 22.")),
            Step("14-17", lambda: _("The wolf tries the edge: 17.")),
            Step("30-25", lambda: _("Close the gap behind your sheep: tap 30, then 25.")),
            Step("17-21", lambda: _("The wolf slips down to 21…")),
            Step(
                "22-17",
                lambda: _(
                    "…against the edge. Trap it: tap 22, then 17. It will have no square left."
                ),
            ),
        ),
        lambda: _(
            "The sheep win when the wolf cannot move; the wolf wins once it is past every "
            "sheep. Move your sheep together and leave no gap behind them."
        ),
        key=8,
    )


def _mulino() -> Script:
    return Script(
        "mulino:classic",
        (
            Step("a1", lambda: _("You play white. Place a piece: tap a1.")),
            Step("d7", lambda: _("Black places on d7.")),
            Step("d1", lambda: _("Place another on the same line: tap d1.")),
            Step("b4", lambda: _("Black does not block your line…")),
            Step("g1", lambda: _("Close a mill, three in a row: tap g1.")),
            Step(None, lambda: _("A mill removes one of the other's pieces: tap a black piece.")),
        ),
        lambda: _(
            "When all nine pieces are placed, move them along the lines to close "
            "mills. A player with two pieces, or no move, loses."
        ),
        key=4,
    )


def _misto() -> Script:
    """Placing and moving mixed: a mill opened by a move and closed again by the next,
    while both players still have pieces in hand."""
    return Script(
        "mulino:misto",
        (
            Step(
                "a1",
                lambda: _(
                    "You play white. In misto, each turn you place a piece or move one "
                    "already on the board. Place one: tap a1."
                ),
            ),
            Step("d7", lambda: _("Black places on d7.")),
            Step("d1", lambda: _("Place another on the same line: tap d1.")),
            Step("b4", lambda: _("Black places on b4.")),
            Step("g1", lambda: _("Close a mill, three in a row: tap g1.")),
            Step("xb4", lambda: _("A mill removes one of Black's pieces: tap b4.")),
            Step("g4", lambda: _("Black places on g4.")),
            Step(
                "d1-d2",
                lambda: _("Now move instead of placing: tap d1, then d2. This opens your mill."),
            ),
            Step("f4", lambda: _("Black places on f4, two in a row with g4.")),
            Step("d2-d1", lambda: _("Move back: tap d2, then d1. The mill closes again!")),
            Step("xf4", lambda: _("Remove f4: that also breaks Black's two in a row.")),
        ),
        lambda: _(
            "In misto, while you have pieces in hand you choose every turn: place one, or "
            "move one along a line. A mill opened and closed again removes another piece. "
            "A player with two pieces, or no move, loses."
        ),
        key=7,
    )


def _ceylonese() -> Script:
    """A mill made while placing removes nothing: it earns an extra placement, used once
    and declined once (the extra *move* of a mill made with the last piece in hand, and
    the removal of the moving phase, are said in the last words: too far for a lesson)."""
    return Script(
        "mulino:ceylonese",
        (
            Step("a1", lambda: _("You play white. Place a piece: tap a1.")),
            Step("d7", lambda: _("Black places on d7.")),
            Step("d1", lambda: _("Place another on the same line: tap d1.")),
            Step("b4", lambda: _("Black places on b4.")),
            Step("g1", lambda: _("Close a mill, three in a row: tap g1.")),
            Step(
                "g4",
                lambda: _(
                    "In ceylonese a mill made while placing takes nothing: it gives you an "
                    "extra placement. Use it: tap g4."
                ),
            ),
            Step("g7", lambda: _("Black blocks your line on g7.")),
            Step("a4", lambda: _("Start another line: tap a4.")),
            Step("d6", lambda: _("Black places on d6.")),
            Step("a7", lambda: _("Close this mill: tap a7.")),
            Step(
                "pass",
                lambda: _(
                    "Another extra placement. You may decline it: tap “{button}”. A piece "
                    "kept in hand can block Black later."
                ).format(button=_("Decline the extra placement")),
            ),
        ),
        lambda: _(
            "In ceylonese a mill made while placing earns an extra action instead of a "
            "removal: one more placement, or a move if it was your last piece. You may "
            "always decline it. Once every piece is placed, a mill removes a piece and "
            "gives an extra move."
        ),
        key=5,
    )


def script_for(game: str) -> Script | None:
    """The lesson of the variant ``game`` (a game's family name stands for its classic
    variant), if there is one."""
    scripts = _scripts()
    return scripts.get(game) or scripts.get(f"{game}:classic")


class TutorialControl(MatchControl):
    """Plays a :class:`Script` on the match screen."""

    lesson = True
    """The match screen shows the lesson's words large in its panel: what to do now (the
    prompt) and what just happened (:meth:`notices`: the computer's move, a refused tap)."""

    def __init__(self, app: App, script: Script) -> None:
        self.app = app
        self.script = script
        seats = [Seat(name=app.settings.player_name or ""), Seat(SeatKind.COMPUTER, "easy")]
        self.match = Match.new(variant(script.name), seats, 0)
        self._said = ""
        self.refused = 0
        """Taps that made another move than the script's (each answered by the hint)."""
        self._over_for = 0.0

    def kept_on_leaving(self) -> str:
        return _("Lessons are not saved: leaving ends this one.")

    # -- where the script stands ----------------------------------------------------------

    @property
    def step(self) -> Step | None:
        index = len(self.match.record.actions)
        return self.script.steps[index] if index < len(self.script.steps) else None

    def _persons_turn(self, state: State) -> bool:
        return actor(state) == PERSON

    def here(self, seat: int) -> bool:
        return seat == PERSON

    def known_hint(self, state: State) -> int | None:
        """The move the script asks for now, to ring on the board."""
        step = self.step
        if step is None or step.action is None or state is not self.match.state:
            return None
        if state.is_chance() or not self._persons_turn(state):
            return None
        return state.parse_action(step.action)

    def instruction(self) -> str | None:
        step = self.step
        state = self.match.state
        if step is not None and step.say is not None and self._persons_turn(state):
            return step.say()
        return None

    def notices(self) -> tuple[str, ...]:
        """The words for what the computer just did, or for a refused tap."""
        return (self._said,) if self._said else ()

    # -- the player's moves ---------------------------------------------------------------

    def decide(self, action: int) -> bool:
        state, step = self.match.state, self.step
        if step is None or state.is_chance() or not self._persons_turn(state):
            return False
        wanted = None if step.action is None else state.parse_action(step.action)
        if (wanted is None and action in state.legal_actions()) or action == wanted:
            self._said = ""
            self.match.play(action)
            return True
        self.refused += 1
        self._said = _("Not that one.")  # the instruction stays on screen below it
        return False

    def can_roll(self, state: State) -> bool:
        return state.is_chance() and self._persons_turn(state) and self.step is not None

    def roll(self) -> None:
        step = self.step
        if step is not None and self.can_roll(self.match.state):
            self._said = ""
            self.match.play(self.match.state.parse_action(step.action or ""))

    def advance_to(self, index: int) -> None:
        """Play the script's first ``index`` actions at once, as the lesson plays them (the
        computer's with their words): a lesson's step for its picture in the docs, or a test."""
        while len(self.match.record.actions) < index and self.step is not None:
            state, step = self.match.state, self.step
            if not self._persons_turn(state):
                self.update(0.0, True)
            elif state.is_chance():
                self.roll()
            elif step.action is None:
                self.decide(state.legal_actions()[0])
            else:
                self.decide(state.parse_action(step.action))

    # -- the rest of the script, at the screen's pace -------------------------------------

    def update(self, dt: float, ready: bool) -> bool:
        if not ready:
            return False
        step, state = self.step, self.match.state
        if step is None:
            if state.is_terminal():  # a lesson won: the screen asks for :meth:`finished`
                return False
            self._over_for += dt
            if self._over_for >= 1.2:  # a moment to see the last move, then the last words
                self.app.replace(TutorialDoneScene(self.app, self.script))
            return False
        if self._persons_turn(state):
            return False
        self.match.play(state.parse_action(step.action or ""))
        self._said = step.say() if step.say is not None else ""
        return True

    def finished(self, app: App) -> TutorialDoneScene:
        """A lesson that ends the match (the sheep trap the wolf) ends on its last words,
        not on the results."""
        return TutorialDoneScene(app, self.script)


class TutorialDoneScene(MenuScene):
    """The end of a guided game: what the player has learnt, and a real game next."""

    def __init__(self, app: App, script: Script) -> None:
        super().__init__(app)
        self.script = script

    def title(self) -> str:
        return _("Well done!")

    def last_words(self) -> str:
        """What the player has learnt and the game's goal: several lines under the title
        (a menu's subtitle is one line, and these are longer)."""
        return self.script.done()

    def layout(self, size: tuple[int, int]) -> None:
        """The last words wrapped under the title, the buttons below them."""
        self.u = u = theme.unit(size)
        font = theme.font(round(1.3 * u))
        self.lines = theme.wrap(self.last_words(), font, min(size[0] - 4 * u, 44 * u))
        top = 9 * u + len(self.lines) * font.get_linesize() + 2 * u
        width, pitch = min(size[0] - 4 * u, 22 * u), max(round(3.9 * u), theme.TOUCH + u // 2)
        targets = []
        for index, (label, action, enabled, name) in enumerate(self.items()):
            rect = pygame.Rect((size[0] - width) // 2, top + index * pitch, width, pitch - u // 2)
            targets.append(button(rect, label, action, self.palette, enabled, name))
        self.set_targets(targets)

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)  # the title and the buttons
        u = self.u
        size = round(1.3 * u)
        y = 9 * u
        for line in self.lines:
            words = theme.text(line, size, self.palette.text)
            surface.blit(words, words.get_rect(midtop=(surface.get_width() // 2, y)))
            y += theme.font(size).get_linesize()

    def items(self) -> list[Item]:
        name = self.script.name
        return [
            item(lambda: _("Play {game} against the computer").format(game=variant_title(name)),
                 self._play, "play"),
            item(lambda: _("Back"), self.app.pop, "back"),
        ]  # fmt: skip

    def _play(self) -> None:
        seats = [Seat(), Seat(SeatKind.COMPUTER, "easy")]
        start_match(self.app, variant(self.script.name), seats)


class TutorialsScene(MenuScene):
    """The guided games of the games this table offers (a kiosk's title leads here)."""

    def title(self) -> str:
        return _("Learn to play")

    def subtitle(self) -> str:
        return _("A short game against the computer that shows you how")

    def items(self) -> list[Item]:
        allowed = self.app.kiosk.games if self.app.kiosk is not None else None
        entries = []
        for name in _scripts():
            if allowed is None or name in allowed:
                label = lambda n=name: variant_title(n)  # noqa: E731
                start = lambda n=name: start_tutorial(self.app, n)  # noqa: E731
                entries.append(item(label, start, f"learn {name}"))
        entries.append(item(lambda: _("Back"), self.app.pop, "back"))
        return entries


def start_tutorial(app: App, game: str) -> None:
    """The lesson of the variant ``game`` on the match screen."""
    script = script_for(game)
    if script is not None:
        app.push(make(Screen.PLAY, app, TutorialControl(app, script)))
