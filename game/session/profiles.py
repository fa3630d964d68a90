"""The people who play at this machine: a name each, and their record per game and level.

A profile keeps, per game (variant) and per opposition — the computer at *easy*, *medium*
or *hard* (the strongest computer at the table), or *people* — the matches played, won,
lost and drawn (a shared win counts as won); and over all matches the best Numeri score and
the fastest Ausgeblockt win, in turns.  Only matches at this screen count, for the seats
that were given a profile's name in the setup.

The profiles live in the data directory as ``profiles.json`` (written whole, atomically); a
file that cannot be read is set aside as ``profiles.json.broken`` with a message, never a
crash, never written over.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from pathlib import Path

from game.files import atomic_write
from game.levels import LEVELS
from game.rules import VARIANTS, HighScore, Outcome
from game.session.highscores import turns_taken
from game.session.match import Match
from game.session.saves import read_json_or_set_aside

log = logging.getLogger(__name__)

FILE = "profiles.json"
OPPOSITIONS = (*LEVELS, "people")
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
    return max(levels, key=LEVELS.index) if levels else "people"


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
            counted.append(profile.name)
        if counted:
            self._save()
        return counted

    def _save(self) -> None:
        data = {
            "version": 1,
            "profiles": {
                name: {
                    "records": {v: {o: [t.played, t.won, t.lost, t.drawn] for o, t in per.items()}
                                for v, per in p.records.items()},
                    "best_numeri": p.best_numeri,
                    "fastest_ausgeblockt": p.fastest_ausgeblockt,
                }
                for name, p in self._profiles.items()
            },
        }  # fmt: skip
        atomic_write(self.path, json.dumps(data, ensure_ascii=False, indent=1).encode("utf-8"))

    def _load(self) -> None:
        profiles, self.problem = read_json_or_set_aside(self.path, _parse, "profiles")
        self._profiles = profiles or {}


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
        profiles[name] = Profile(name, records, _optional(entry["best_numeri"]),
                                 _optional(entry["fastest_ausgeblockt"]))  # fmt: skip
    return profiles
