"""One worker process for the computer's thinking, lent to every client a test process makes.

Each `App` starts its own :class:`game.ai.worker.Thinker` — a fresh Python process that
imports the computer players, about 0.3 s of CPU — and a few dozen client tests each make
one: a fifth of the quick loop's CPU on a 2-core machine.  The tests' apps borrow one
process instead; what the game does with it is the same calls (think, odds, review,
cancel, close).  A borrower's close cancels its work, drops what it queued and waits for
what was running, so no answer of an earlier test wakes a later one.  A worker that died
(a test may break one) is replaced at the next borrowing.  The worker's own behaviour —
started, cancelled, killed, ended with its parent — is tested on real ones in
tests/test_worker.py and by the tests that run the game as a process.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent import futures
from concurrent.futures import Future
from typing import Any

from game.ai.worker import Thinker

_shared: Thinker | None = None


def _worker() -> Thinker:
    global _shared
    if _shared is None or getattr(_shared._pool, "_broken", False):
        _shared = Thinker()
    return _shared


def close_shared() -> None:
    """End the lent worker (when the test process ends)."""
    global _shared
    if _shared is not None:
        _shared.close()
        _shared = None


class LentThinker:
    """Stands in for ``Thinker(on_done)`` in an app under test."""

    def __init__(self, on_done: Callable[[], None] | None = None) -> None:
        self._thinker = _worker()
        self._on_done = on_done
        self._futures: list[Future[Any]] = []

    def _lent(self, future: Future[Any]) -> Future[Any]:
        self._futures = [f for f in self._futures if not f.done()] + [future]
        future.add_done_callback(self._done)
        return future

    def _done(self, _future: Future[Any]) -> None:
        on_done = self._on_done
        if on_done is not None:  # none once the borrower has closed
            on_done()

    def think(self, *args: Any, **kwargs: Any) -> Future[Any]:
        return self._lent(self._thinker.think(*args, **kwargs))

    def odds(self, *args: Any, **kwargs: Any) -> Future[Any]:
        return self._lent(self._thinker.odds(*args, **kwargs))

    def review(self, *args: Any, **kwargs: Any) -> Future[Any]:
        return self._lent(self._thinker.review(*args, **kwargs))

    def review_progress(self) -> tuple[int, int]:
        return self._thinker.review_progress()

    def cancel(self) -> int:
        return self._thinker.cancel()

    def close(self, wait: bool = True) -> None:
        self._on_done = None
        self._thinker.cancel()
        for future in self._futures:
            future.cancel()
        if wait:
            futures.wait(self._futures, timeout=30)
        self._futures = []
