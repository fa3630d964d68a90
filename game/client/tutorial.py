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

from game.client.control import MatchControl
from game.client.scenes.menus import Item, MenuScene, item, start_match
from game.client.turns import actor
from game.i18n import _
from game.names import variant_title
from game.rules import State, variant
from game.session.match import Match
from game.session.seats import Seat, SeatKind

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


def _scripts() -> dict[str, Script]:
    return {
        "ausgeblockt": Script(
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
                Step(
                    "stop", lambda: _("Four 3s: a quad! A quad mark gives another turn. Tap Stop.")
                ),
                Step("d3", lambda: _("Mark a 3: tap d3. Your next mark must touch it.")),
            ),
            lambda: _(
                "Connect your three starts with your own cells before the circles do. "
                "Two cows mark a cow cell; a quad keeps you rolling."
            ),
        ),
        "numeri": Script(
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
                    "3",
                    lambda: _("Pawn 3 enters the first free space, beside your 1 and 2. Tap it."),
                ),
            ),
            lambda: _(
                "Three of your pawns side by side: an extra roll! Each pawn scores its "
                "number times the value of its space; the game ends when the last three "
                "spaces are full."
            ),
        ),
        "dama": Script(
            "dama:classic",
            (
                Step(
                    "22-18",
                    lambda: _("You play white and begin. Move a man forward: tap 22, then 18."),
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
        ),
        "mulino": Script(
            "mulino:classic",
            (
                Step("a1", lambda: _("You play white. Place a piece: tap a1.")),
                Step("d7", lambda: _("Black places on d7.")),
                Step("d1", lambda: _("Place another on the same line: tap d1.")),
                Step("b4", lambda: _("Black does not block your line…")),
                Step("g1", lambda: _("Close a mill, three in a row: tap g1.")),
                Step(
                    None, lambda: _("A mill removes one of the other's pieces: tap a black piece.")
                ),
            ),
            lambda: _(
                "When all nine pieces are placed, move them along the lines to close "
                "mills. A player with two pieces, or no move, loses."
            ),
        ),
    }


def script_for(game: str) -> Script | None:
    """The guided game of ``game`` (a game's family or variant name), if there is one."""
    return _scripts().get(game.split(":")[0])


class TutorialControl(MatchControl):
    """Plays a :class:`Script` on the match screen."""

    def __init__(self, app, script: Script) -> None:
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
        instruction = step.say() if step.say is not None else ""
        self._said = _("Not that one. {instruction}").format(instruction=instruction).strip()
        return False

    def can_roll(self, state: State) -> bool:
        return state.is_chance() and self._persons_turn(state) and self.step is not None

    def roll(self) -> None:
        step = self.step
        if step is not None and self.can_roll(self.match.state):
            self._said = ""
            self.match.play(self.match.state.parse_action(step.action or ""))

    # -- the rest of the script, at the screen's pace -------------------------------------

    def update(self, dt: float, ready: bool) -> bool:
        if not ready:
            return False
        step, state = self.step, self.match.state
        if step is None:
            self._over_for += dt
            if self._over_for >= 1.2:  # a moment to see the last move, then the last words
                self.app.replace(TutorialDoneScene(self.app, self.script))
            return False
        if self._persons_turn(state):
            return False
        self.match.play(state.parse_action(step.action or ""))
        self._said = step.say() if step.say is not None else ""
        return True


class TutorialDoneScene(MenuScene):
    """The end of a guided game: what the player has learnt, and a real game next."""

    def __init__(self, app, script: Script) -> None:
        super().__init__(app)
        self.script = script

    def title(self) -> str:
        return _("Well done!")

    def subtitle(self) -> str:
        return self.script.done()

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
        for game, script in _scripts().items():
            if allowed is None or any(name.split(":")[0] == game for name in allowed):
                label = lambda s=script: variant_title(s.name)  # noqa: E731
                start = lambda g=game: start_tutorial(self.app, g)  # noqa: E731
                entries.append(item(label, start, f"learn {game}"))
        entries.append(item(lambda: _("Back"), self.app.pop, "back"))
        return entries


def start_tutorial(app, game: str) -> None:
    """The guided game of ``game`` on the match screen."""
    from game.client.scenes.play import PlayScene

    script = script_for(game)
    if script is not None:
        app.push(PlayScene(app, TutorialControl(app, script)))
