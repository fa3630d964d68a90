"""A kiosk's usage counters, as an arcade cabinet's bookkeeping page keeps them: plays and
play time per game, starts, crashes, damaged saves and time switched on.

Kept in ``kiosk-usage.json`` in the data directory, written every minute and at a clean
stop.  A crash is known by its footprint: ``kiosk-running`` is made at start and removed at
a clean stop, so a start that finds it counts the run before as a crash (a kill, a power
cut, a crash systemd restarted).  The last warnings and errors of the log are kept in
memory for the operator's health page (:class:`RecentProblems`).
"""

from __future__ import annotations

import collections
import json
import logging
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from game.files import atomic_write

log = logging.getLogger(__name__)

FILE = "kiosk-usage.json"
RUNNING = "kiosk-running"
SAVE_EVERY = 60.0
"""Seconds of app time between two writes of the counters."""


@dataclass
class Counters:
    plays: dict[str, int] = field(default_factory=dict)
    """Matches a visitor began (made a move in), per game."""
    seconds: dict[str, float] = field(default_factory=dict)
    """Time a visitor spent on a match's screen, per game."""
    starts: int = 0
    crashes: int = 0
    damaged_saves: int = 0
    uptime: float = 0.0
    """Seconds switched on, over every run counted."""
    since: float = 0.0
    """When counting began (seconds since the epoch)."""


class KioskUsage:
    """The counters of one kiosk, with this run's share."""

    def __init__(self, folder: Path, clock: Callable[[], float] = time.time) -> None:
        self.folder = folder
        self.counters = self._read()
        self._clock = clock
        self.run_seconds = 0.0
        """Seconds this run has been on (app time)."""
        self._unsaved = 0.0
        self._begun: set[int] = set()
        """The matches (by seed) counted as plays in this run."""
        self._seen_damaged: set[str] = set()

    def started(self) -> None:
        """Count this start, and the run before as a crash if it left its footprint."""
        counters = self.counters
        counters.starts += 1
        if not counters.since:
            counters.since = self._clock()
        footprint = self.folder / RUNNING
        if footprint.exists():
            counters.crashes += 1
            log.warning("kiosk: the last run ended without a clean stop (counted as a crash)")
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            footprint.write_text(str(self._clock()), encoding="ascii")
        except OSError as error:
            log.warning("kiosk: %s could not be written: %s", footprint, error)
        self.save()

    def stopped(self) -> None:
        """A clean stop: the counters written, the footprint removed."""
        self.save()
        try:
            (self.folder / RUNNING).unlink(missing_ok=True)
        except OSError as error:
            log.warning("kiosk: %s could not be removed: %s", self.folder / RUNNING, error)

    def tick(self, dt: float, playing: tuple[str, int, bool] | None) -> None:
        """``dt`` seconds went by; ``playing`` is the visitor's match on the screen, if one
        is (game, seed, whether a move was made in it)."""
        self.run_seconds += dt
        self.counters.uptime += dt
        if playing is not None:
            game, seed, begun = playing
            seconds = self.counters.seconds
            seconds[game] = seconds.get(game, 0.0) + dt
            if begun and seed not in self._begun:
                self._begun.add(seed)
                self.counters.plays[game] = self.counters.plays.get(game, 0) + 1
        self._unsaved += dt
        if self._unsaved >= SAVE_EVERY:
            self.save()

    def saw_damaged(self, names: set[str]) -> None:
        """The saves set aside now on disk: those not seen before are counted."""
        fresh = names - self._seen_damaged
        self._seen_damaged |= names
        if fresh:
            self.counters.damaged_saves += len(fresh)

    def reset(self) -> None:
        """Every counter back to zero, counting from now (the operator's factory reset)."""
        self.counters = Counters(since=self._clock())
        self._begun.clear()
        self.save()

    def save(self) -> None:
        self._unsaved = 0.0
        data = json.dumps(asdict(self.counters), indent=1, sort_keys=True).encode("utf-8")
        try:
            atomic_write(self.folder / FILE, data)
        except OSError as error:
            log.warning("kiosk: the usage counters could not be saved: %s", error)

    def _read(self) -> Counters:
        path = self.folder / FILE
        try:
            stored = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return Counters()
        except (OSError, ValueError) as error:
            log.warning("kiosk: the usage counters in %s are unreadable (%s): from 0", path, error)
            return Counters()
        return _counters(stored)


def _counters(stored: object) -> Counters:
    """What the file holds, each counter checked (a bad one starts again from 0)."""
    counters = Counters()
    if not isinstance(stored, dict):
        return counters
    for name in ("plays", "seconds"):
        table = stored.get(name)
        if isinstance(table, dict):
            setattr(counters, name, {
                str(k): v for k, v in table.items()
                if isinstance(v, int | float) and not isinstance(v, bool) and v >= 0
            })  # fmt: skip
    for name in ("starts", "crashes", "damaged_saves"):
        value = stored.get(name)
        if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
            setattr(counters, name, value)
    for name in ("uptime", "since"):
        value = stored.get(name)
        if isinstance(value, int | float) and not isinstance(value, bool) and value >= 0:
            setattr(counters, name, float(value))
    return counters


class RecentProblems(logging.Handler):
    """The last warnings and errors logged, for the operator's health page."""

    def __init__(self, keep: int = 50, clock: Callable[[], float] = time.time) -> None:
        super().__init__(logging.WARNING)
        self.records: collections.deque[tuple[float, str, str]] = collections.deque(maxlen=keep)
        self._clock = clock

    def emit(self, record: logging.LogRecord) -> None:
        try:
            message = record.getMessage()
        except Exception:  # a bad log call must not break the kiosk
            message = str(record.msg)
        self.records.append((self._clock(), record.levelname, message.splitlines()[0][:300]))

    def newest(self, count: int) -> list[tuple[float, str, str]]:
        return list(self.records)[-count:][::-1]
