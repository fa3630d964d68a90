"""The high-score board of this table: per game, the best results of the day and of all time.

What counts, per game (one number per result, so every board reads the same way):

* Numeri: a person's points at the end (more is better), won or not;
* Ausgeblockt: a person's win, in the turns it took (fewer is better), against anyone;
* Dama, Mangia la dama, Lupo e pecore and the three Mulino: a person's win against the
  computer on *hard*, in the turns it took (fewer is better).

A turn is a seat's run of decisions between two other seats' (a Dama multiple capture is
one, a Mulino move and its removal are one, an Ausgeblockt roll and its rerolls are one).
Only matches played at this screen count, never a LAN match.

The board lives in the data directory as ``highscores.json`` (written whole, atomically).
The day's and the all-time board are two views of one list of results per game, so a
result the kiosk's operator removes (a rude name) goes from both at once.
A file that cannot be read is set aside as ``highscores.json.broken`` and the board starts
empty, with a message for the screen — never a crash, and never written over the old file.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Literal, TypedDict

from game.files import atomic_write
from game.rules import VARIANTS, HighScore, Outcome, State
from game.session.match import Match
from game.session.saves import read_json_or_set_aside

log = logging.getLogger(__name__)

FILE = "highscores.json"
PLACES = 10
"""Results kept on each board (the day's and all time's)."""
NAME_LENGTH = 20

Measure = Literal["points", "turns"]


@dataclass(frozen=True, slots=True)
class Score:
    name: str
    value: int
    day: str
    """The local date of the result, ``YYYY-MM-DD``."""


class Stored(TypedDict):
    """A result as ``highscores.json`` keeps it: the fields of a :class:`Score`."""

    name: str
    value: int
    day: str


@dataclass(frozen=True, slots=True)
class Entry:
    """A stored result as the operator's list names it: the result, and its place in the
    game's stored list — so that of two identical results only the one pressed goes."""

    score: Score
    index: int


@dataclass(frozen=True, slots=True)
class Qualifier:
    """A result at this screen that makes a board: whose seat, what it counts, its places."""

    variant: str
    seat: int
    value: int
    today_place: int
    all_time_place: int
    """1 for the best; ``PLACES + 1`` when off that board."""


def measure(variant: str) -> Measure:
    spec = VARIANTS.get(variant)
    return "points" if spec and spec.high_score is HighScore.MOST_POINTS else "turns"


def better(variant: str, a: int, b: int) -> bool:
    """Whether result ``a`` beats ``b`` on ``variant``'s board."""
    return a > b if measure(variant) == "points" else a < b


def results(match: Match) -> list[tuple[int, int]]:
    """The seats of people here whose result counts on the board, with its number."""
    state: State = match.state
    result = state.result()
    kind = match.variant.spec.high_score
    if result is None:
        return []
    people = [seat for seat, who in enumerate(match.seats) if who.is_human]
    if kind is HighScore.MOST_POINTS:
        scores = result.scores or ()
        return [(seat, scores[seat]) for seat in people if seat < len(scores)]
    winners = [seat for seat in people if result.outcomes[seat] is Outcome.WIN]
    if kind is HighScore.FEWEST_TURNS_AGAINST_HARD:
        hard = any(seat.level == "hard" for seat in match.seats)
        winners = winners if hard else []
    return [(seat, turns_taken(match, seat)) for seat in winners]


def turns_taken(match: Match, seat: int) -> int:
    """How many turns ``seat`` played: its runs of decisions between other seats' (dice
    throws and lots are no one's decision, so extra rolls stay in the turn)."""
    turns, last = 0, None
    for state in match.states[:-1]:
        if state.is_chance() or state.to_move < 0:
            continue
        if state.to_move != last:
            last = state.to_move
            turns += state.to_move == seat
    return turns


class HighScores:
    """The boards of one data directory.  ``problem`` says (once) why an unreadable file
    was set aside."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / FILE
        self.problem: str | None = None
        self._boards: dict[str, list[Stored]] = {}
        self._load()

    # -- reading --------------------------------------------------------------------------

    def all_time(self, variant: str) -> list[Score]:
        return self._ranked(variant, None)

    def today(self, variant: str, today: date) -> list[Score]:
        return self._ranked(variant, today.isoformat())

    def _ranked(self, variant: str, day: str | None) -> list[Score]:
        return [Score(**s) for s in self._raw_ranked(variant, day)]

    def entries(self, variant: str) -> list[Entry]:
        """Every stored result of ``variant`` (the all-time board's, today's, and another
        day's not trimmed yet), best first, equal ones in the order they came."""
        stored = self._boards.get(variant, [])
        order = sorted(range(len(stored)), key=lambda i: _rank_key(variant, stored[i]))
        return [Entry(Score(**stored[i]), i) for i in order]

    def empty(self) -> bool:
        return not any(self._boards.values())

    def qualifiers(self, match: Match, today: date) -> list[Qualifier]:
        """The results of ``match`` that make the day's or the all-time board."""
        name = match.variant.name
        found = []
        for seat, value in results(match):
            day_place = _place(name, value, self.today(name, today))
            all_place = _place(name, value, self.all_time(name))
            if min(day_place, all_place) <= PLACES:
                found.append(Qualifier(name, seat, value, day_place, all_place))
        return found

    # -- writing --------------------------------------------------------------------------

    def add(self, qualifier: Qualifier, name: str, today: date) -> None:
        """Put a qualifying result on the boards under ``name`` and save; raises OSError if
        the disk refuses (the board in memory has it all the same)."""
        board = self._boards.setdefault(qualifier.variant, [])
        board.append(Stored(name=name[:NAME_LENGTH], value=qualifier.value, day=today.isoformat()))
        self._trim(qualifier.variant, today)
        self._save()

    def reset(self) -> None:
        """Empty every board (the operator's choice); raises OSError if not saved."""
        self._boards = {}
        self._save()

    def remove(self, variant: str, entry: Entry) -> None:
        """Take one stored result off ``variant``'s boards (the operator's choice) and save.

        LookupError if ``entry`` is not stored as it says.  OSError if the disk refuses: the
        result then stays in memory too, so what the screens show is what the file holds
        and the operator can see the removal did not happen."""
        stored = self._boards.get(variant, [])
        if not (0 <= entry.index < len(stored) and Score(**stored[entry.index]) == entry.score):
            raise LookupError(f"no such high score on {variant}: {entry}")
        self._replace(variant, stored[: entry.index] + stored[entry.index + 1 :])

    def clear(self, variant: str) -> None:
        """Empty ``variant``'s boards (the operator's choice) and save; OSError as
        :meth:`remove`, the boards kept."""
        self._replace(variant, [])

    def _replace(self, variant: str, scores: list[Stored]) -> None:
        """Store ``scores`` as ``variant``'s and save; on OSError put back what was."""
        before = self._boards.get(variant)
        self._boards[variant] = scores
        try:
            self._save()
        except OSError:
            if before is None:
                del self._boards[variant]
            else:
                self._boards[variant] = before
            raise

    def _trim(self, variant: str, today: date) -> None:
        """Keep only what can still show: the all-time board and today's."""
        keep = {id(s) for s in self._raw_ranked(variant, None)}
        keep |= {id(s) for s in self._raw_ranked(variant, today.isoformat())}
        self._boards[variant] = [s for s in self._boards[variant] if id(s) in keep]

    def _raw_ranked(self, variant: str, day: str | None) -> list[Stored]:
        """The board's stored results, best first (equal ones in the order they came)."""
        scores = [s for s in self._boards.get(variant, []) if day is None or s["day"] == day]
        scores.sort(key=lambda s: _rank_key(variant, s))
        return scores[:PLACES]

    def _save(self) -> None:
        data = {"version": 1, "boards": self._boards}
        atomic_write(self.path, json.dumps(data, ensure_ascii=False, indent=1).encode("utf-8"))

    def _load(self) -> None:
        boards, self.problem = read_json_or_set_aside(self.path, _parse, "high scores")
        self._boards = boards or {}


def _rank_key(variant: str, score: Stored) -> int:
    """Sorting by this puts the best stored result first."""
    return -score["value"] if measure(variant) == "points" else score["value"]


def _place(variant: str, value: int, board: list[Score]) -> int:
    """Where ``value`` would rank on ``board`` (1 the best; after equal results)."""
    return 1 + sum(1 for s in board if not better(variant, value, s.value))


def _parse(data: object) -> dict[str, list[Stored]]:
    """The boards of a file, checked field by field (anything else raises ValueError)."""
    if not isinstance(data, dict) or data.get("version") != 1:
        raise ValueError("not a version 1 high-score file")
    boards = data["boards"]
    if not isinstance(boards, dict):
        raise ValueError("boards is not a map")
    checked: dict[str, list[Stored]] = {}
    for variant, scores in boards.items():
        if variant not in VARIANTS or not isinstance(scores, list):
            raise ValueError(f"no such board: {variant!r}")
        for score in scores:
            if not (
                isinstance(score, dict)
                and set(score) == {"name", "value", "day"}
                and isinstance(score["name"], str)
                and 0 < len(score["name"]) <= NAME_LENGTH
                and type(score["value"]) is int
                and isinstance(score["day"], str)
            ):
                raise ValueError(f"a bad score on {variant}: {score!r}")
            date.fromisoformat(score["day"])
        checked[variant] = scores
    return checked
