"""Wrong operator PINs: a few tries are free, then the keypad locks for a time that doubles
with each further wrong PIN, up to an hour.  Guessing all 10,000 four-digit PINs then takes
more than a year (docs/kiosk.md); the operator, who knows the PIN, never waits.

The count and the lock are kept on disk (``kiosk-pin-tries``), so pulling the plug or
crashing the kiosk does not give a guesser free tries again.  The file is made when the
guard starts and always keeps its size, so that when the disk fills up (a visitor cannot
fill it, but logs and saves can) the count is written over the old one in place, where no
new room is needed; only if even that fails is it kept in memory alone, for as long as the
kiosk runs.
"""

from __future__ import annotations

import json
import logging
import os
import time
from collections.abc import Callable
from pathlib import Path

from game.files import atomic_write

log = logging.getLogger(__name__)

FREE_TRIES = 3
FIRST_LOCK = 30.0
LONGEST_LOCK = 3600.0
TRIES_FILE = "kiosk-pin-tries"
RECORD_BYTES = 96
"""The file's fixed size: its JSON padded with spaces."""


class PinGuard:
    """Counts wrong PINs in a row on the app's clock (seconds), which tools may hurry.

    With a ``path``, the count and the end of the lock (on the wall clock, the app's clock
    starting again at each start) are written there at each change and read back by the
    next start's guard; a lock read back never lasts longer than :data:`LONGEST_LOCK`, even if
    the wall clock was turned back meanwhile."""

    def __init__(
        self, path: Path | None = None, now: float = 0.0, wall: Callable[[], float] = time.time
    ) -> None:
        self.failures = 0
        self.locked_until = 0.0
        self._path = path
        self._wall = wall
        if path is not None:
            self._restore(path, now)
            self._keep(now)  # the file is there, at its size, before the disk can fill up

    def wait(self, now: float) -> float:
        """Seconds before another PIN may be tried (0: now)."""
        return max(0.0, self.locked_until - now)

    def failed(self, now: float) -> float:
        """A wrong PIN at ``now``; returns for how long the keypad is now locked."""
        self.failures += 1
        lock = 0.0
        if self.failures >= FREE_TRIES:
            lock = min(LONGEST_LOCK, FIRST_LOCK * 2 ** (self.failures - FREE_TRIES))
            self.locked_until = now + lock
        self._keep(now)
        return lock

    def succeeded(self, now: float = 0.0) -> None:
        self.failures = 0
        self.locked_until = 0.0
        self._keep(now)

    def _keep(self, now: float) -> None:
        """Write the count and the lock: atomically, else in place over the old record (a
        full disk), else nowhere (the count stays in memory; the keypad works)."""
        if self._path is None:
            return
        until = self._wall() + self.wait(now)
        record = json.dumps({"failures": self.failures, "locked_until": until})
        data = record.encode("ascii").ljust(RECORD_BYTES)
        try:
            atomic_write(self._path, data, mode=0o600)  # the operator's business alone
            return
        except OSError as error:
            log.warning("kiosk: cannot replace the count of wrong PINs (%s): writing in place",
                        error)  # fmt: skip
        try:
            handle = os.open(self._path, os.O_WRONLY | os.O_CREAT, 0o600)
            try:
                os.pwrite(handle, data, 0)
                os.ftruncate(handle, len(data))  # a longer file's tail goes (no room needed)
                os.fsync(handle)
            finally:
                os.close(handle)
        except OSError as error:
            log.error("kiosk: cannot keep the count of wrong PINs (%s): kept in memory only "
                      "until the kiosk stops", error)  # fmt: skip

    def _restore(self, path: Path, now: float) -> None:
        try:
            record = json.loads(path.read_bytes())
            failures, until = record["failures"], record["locked_until"]
            if not (isinstance(failures, int) and isinstance(until, int | float)):
                raise ValueError("wrong types")
        except FileNotFoundError:
            return
        except (OSError, ValueError, KeyError, TypeError) as error:
            # Whoever can edit this file can edit the PIN too: no weaker than before.
            log.warning("kiosk: the count of wrong PINs is unreadable (%s); starting at 0", error)
            return
        self.failures = max(0, failures)
        left = min(LONGEST_LOCK, max(0.0, until - self._wall()))
        self.locked_until = now + left
        if left:
            log.warning("kiosk: the PIN keypad stays locked for %d s after the restart", left)
