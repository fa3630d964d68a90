"""Wrong operator PINs: a few tries are free, then the keypad locks for a time that doubles
with each further wrong PIN, up to an hour.  Guessing all 10,000 four-digit PINs then takes
more than a year (docs/kiosk.md); the operator, who knows the PIN, never waits."""

from __future__ import annotations

FREE_TRIES = 3
FIRST_LOCK = 30.0
LONGEST_LOCK = 3600.0


class PinGuard:
    """Counts wrong PINs in a row on the app's clock (seconds), which tools may hurry."""

    def __init__(self) -> None:
        self.failures = 0
        self.locked_until = 0.0

    def wait(self, now: float) -> float:
        """Seconds before another PIN may be tried (0: now)."""
        return max(0.0, self.locked_until - now)

    def failed(self, now: float) -> float:
        """A wrong PIN at ``now``; returns for how long the keypad is now locked."""
        self.failures += 1
        if self.failures < FREE_TRIES:
            return 0.0
        lock = min(LONGEST_LOCK, FIRST_LOCK * 2 ** (self.failures - FREE_TRIES))
        self.locked_until = now + lock
        return lock

    def succeeded(self) -> None:
        self.failures = 0
        self.locked_until = 0.0
