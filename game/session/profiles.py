"""The people who play at this machine: a name each, and their record per game and level.

A profile keeps, per game (variant) and per opposition — the computer at *easy*, *medium*
or *hard* (the strongest computer at the table), or *people* — the matches played, won,
lost and drawn (a shared win counts as won); and over all matches the best Numeri score and
the fastest Ausgeblockt win, in turns.  Only matches at this screen count, for the seats
that were given a profile's name in the setup.

Each person also has their own rating per game (:mod:`game.session.adaptive`), moved by
every two-seat match against the computer, and — while their ``adaptive`` setting is on, as
it is for a new profile — the level the computer plays them at next.

The profiles live in the data directory as ``profiles.json`` (written whole, atomically); a
file that cannot be read is set aside as ``profiles.json.broken`` with a message, never a
crash, never written over.
"""

from __future__ import annotations

import json
import logging
import math
from dataclasses import dataclass, field
from pathlib import Path

from game.files import atomic_write
from game.levels import LADDER
from game.rules import VARIANTS, HighScore, Outcome
from game.session.adaptive import LEAN_BOUND, RUN_LONGEST, Standing
from game.session.highscores import turns_taken
from game.session.match import Match
from game.session.saves import read_json_or_set_aside

log = logging.getLogger(__name__)

FILE = "profiles.json"
OPPOSITIONS = (*LADDER, "people")
NAME_LENGTH = 20
MOST = 12
"""Profiles one machine keeps: a family's or a club's, on one screen."""


@dataclass
class Tally:
    played: int = 0
    won: int = 0
    lost: int = 0
    drawn: int = 0


@dataclass
class Profile:
    name: str
    records: dict[str, dict[str, Tally]] = field(default_factory=dict)
    """Per variant, per opposition."""
    best_numeri: int | None = None
    fastest_ausgeblockt: int | None = None
    adaptive: bool = True
    """Whether the computer's level follows this person's rating (:meth:`next_level`)."""
    standings: dict[str, Standing] = field(default_factory=dict)
    """Per variant: this person's rating and the computer's next level."""

    def next_level(self, variant: str) -> str | None:
        """The level the adaptive opponent plays this person at ``variant`` next (None: the
        setting is off, or no match against the computer counted yet)."""
        standing = self.standings.get(variant)
        return standing.level if self.adaptive and standing is not None else None

    def tally(self, variant: str, opposition: str) -> Tally:
        return self.records.get(variant, {}).get(opposition, Tally())

    def total(self) -> Tally:
        out = Tally()
        for per_variant in self.records.values():
            for tally in per_variant.values():
                out.played += tally.played
                out.won += tally.won
                out.lost += tally.lost
                out.drawn += tally.drawn
        return out


def opposition(match: Match, seat: int) -> str:
    """Whom ``seat`` played against: the strongest computer among the others, or people."""
    levels = [s.level for n, s in enumerate(match.seats) if n != seat and s.level]
    return max(levels, key=LADDER.index) if levels else "people"


class Profiles:
    """The profiles of one data directory.  ``problem`` says (once) that an unreadable file
    was set aside."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / FILE
        self.problem: str | None = None
        self._profiles: dict[str, Profile] = {}
        self._load()

    def names(self) -> list[str]:
        return sorted(self._profiles, key=str.casefold)

    def get(self, name: str) -> Profile | None:
        return self._profiles.get(name)

    def full(self) -> bool:
        return len(self._profiles) >= MOST

    def add(self, name: str) -> Profile:
        """A new profile (or the one of that name); saved. Raises OSError if not saved,
        ValueError if :meth:`full`."""
        if name not in self._profiles and self.full():
            raise ValueError(f"at most {MOST} players")
        profile = self._profiles.setdefault(name[:NAME_LENGTH], Profile(name[:NAME_LENGTH]))
        self._save()
        return profile

    def record(self, match: Match) -> list[str]:
        """Count a finished match for every seat that played under a profile's name;
        returns those names.  Raises OSError if not saved (the counts stay in memory)."""
        result = match.state.result()
        if result is None:
            return []
        counted = []
        variant = match.variant.name
        for seat, who in enumerate(match.seats):
            profile = self._profiles.get(who.name) if who.is_human else None
            if profile is None:
                continue
            outcome = result.outcomes[seat]
            per_variant = profile.records.setdefault(variant, {})
            tally = per_variant.setdefault(opposition(match, seat), Tally())
            tally.played += 1
            tally.won += outcome is Outcome.WIN
            tally.lost += outcome is Outcome.LOSS
            tally.drawn += outcome is Outcome.DRAW
            kind = match.variant.spec.high_score
            if kind is HighScore.MOST_POINTS and result.scores is not None:
                score = result.scores[seat]
                if profile.best_numeri is None or score > profile.best_numeri:
                    profile.best_numeri = score
            if kind is HighScore.FEWEST_TURNS and outcome is Outcome.WIN:
                turns = turns_taken(match, seat)
                if profile.fastest_ausgeblockt is None or turns < profile.fastest_ausgeblockt:
                    profile.fastest_ausgeblockt = turns
            against = opposition(match, seat)
            if against != "people" and len(match.seats) == 2:
                _rate(profile, variant, against, outcome, len(result.winners()))
            counted.append(profile.name)
        if counted:
            self._save()
        return counted

    def set_adaptive(self, name: str, on: bool) -> None:
        """Turn a person's adaptive opponent on or off; saved (OSError if not)."""
        self._profiles[name].adaptive = on
        self._save()

    def _save(self) -> None:
        data = {
            "version": 1,
            "profiles": {
                name: {
                    "records": {v: {o: [t.played, t.won, t.lost, t.drawn] for o, t in per.items()}
                                for v, per in p.records.items()},
                    "best_numeri": p.best_numeri,
                    "fastest_ausgeblockt": p.fastest_ausgeblockt,
                    "adaptive": p.adaptive,
                    "ladder": {v: [round(t.rating, 1), t.matches, t.level,
                                   round(t.lean, 4), t.run]
                               for v, t in p.standings.items()},
                }
                for name, p in self._profiles.items()
            },
        }  # fmt: skip
        atomic_write(self.path, json.dumps(data, ensure_ascii=False, indent=1).encode("utf-8"))

    def _load(self) -> None:
        profiles, self.problem = read_json_or_set_aside(self.path, _parse, "profiles")
        self._profiles = profiles or {}


def _rate(profile: Profile, variant: str, level: str, outcome: Outcome, winners: int) -> None:
    """Move ``profile``'s rating at ``variant`` by a match against the computer at
    ``level``; a shared win scores like a draw."""
    if outcome is Outcome.WIN:
        score = 1.0 / max(1, winners)
    else:
        score = 0.5 if outcome is Outcome.DRAW else 0.0
    standing = profile.standings.get(variant) or Standing.starting(variant, level)
    profile.standings[variant] = standing.after(variant, level, score)


def _standing(value: object) -> Standing:
    """A standing as saved: rating, matches, level, then the mix's lean and the run of
    results (files from before the mix have only the first three)."""
    if not (isinstance(value, list) and len(value) in (3, 5)):
        raise ValueError(f"not a standing: {value!r}")
    rating, matches, level, lean, run = value if len(value) == 5 else [*value, 0.0, 0]
    if (type(rating) not in (int, float) or not math.isfinite(rating) or level not in LADDER
            or type(lean) not in (int, float) or not abs(lean) <= LEAN_BOUND
            or type(run) is not int or abs(run) > RUN_LONGEST):  # fmt: skip
        raise ValueError(f"not a standing: {value!r}")
    return Standing(float(rating), _count(matches), level, float(lean), run)


def _count(value: object) -> int:
    if type(value) is not int or value < 0:
        raise ValueError(f"not a count: {value!r}")
    return value


def _optional(value: object) -> int | None:
    if value is not None and type(value) is not int:
        raise ValueError(f"not a number: {value!r}")
    return value


def _parse(data: object) -> dict[str, Profile]:
    """The profiles of a file, checked field by field (anything else raises ValueError)."""
    if not isinstance(data, dict) or data.get("version") != 1:
        raise ValueError("not a version 1 profiles file")
    profiles = {}
    if len(data["profiles"]) > MOST:
        raise ValueError("too many profiles")
    for name, entry in data["profiles"].items():
        if not (isinstance(name, str) and 0 < len(name) <= NAME_LENGTH and name.isprintable()):
            raise ValueError(f"a bad name: {name!r}")
        records: dict[str, dict[str, Tally]] = {}
        for variant, per in entry["records"].items():
            if variant not in VARIANTS:
                raise ValueError(f"no such game: {variant!r}")
            records[variant] = {}
            for against, counts in per.items():
                if against not in OPPOSITIONS or len(counts) != 4:
                    raise ValueError(f"a bad record: {against!r} {counts!r}")
                records[variant][against] = Tally(*(_count(c) for c in counts))
        adaptive = entry.get("adaptive", True)  # files before the ladder have none
        if type(adaptive) is not bool:
            raise ValueError(f"not a setting: {adaptive!r}")
        standings = {}
        for variant, value in entry.get("ladder", {}).items():
            if variant not in VARIANTS:
                raise ValueError(f"no such game: {variant!r}")
            standings[variant] = _standing(value)
        profiles[name] = Profile(name, records, _optional(entry["best_numeri"]),
                                 _optional(entry["fastest_ausgeblockt"]), adaptive,
                                 standings)  # fmt: skip
    return profiles
