"""The app's saves, written by a thread of their own so that the frame loop never waits
for the disk.

An autosave is an atomic write with two ``fsync`` calls: a few milliseconds on a desktop's
SSD, tens on a kiosk's SD card — long enough to hitch the frame in which a move lands.  The
frame loop now only takes the snapshot (the match's bytes, made at once) and hands it over;
a writer thread does the disk's part.  For each match only the newest snapshot waits: one
the writer has not started yet is replaced by the next, and deleting a match replaces its
waiting save, so a save can never bring back a match its players threw away.

Whatever reads the directory (the saved matches, the title's "Resume") first waits for the
writes handed over before, and the app waits for all of them when it closes, so a quit or a
crash of the frame loop loses nothing; only a power cut within milliseconds of a move loses
that move, as it could while the move's own ``fsync`` ran on the frame loop.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass

from game.session.match import Match
from game.session.saves import Finished, SaveStore, Shelf, Snapshot

log = logging.getLogger(__name__)

FLUSH_SECONDS = 10.0
"""How long a read or the app's close waits for the writes before it goes on without them
(a disk that hangs must not hang the game)."""


@dataclass(frozen=True, slots=True)
class _Job:
    snapshot: Snapshot | None
    """What to write; None: delete the match's unfinished save."""
    report: Callable[[OSError | None], None] | None
    """Told how the write went: the disk's refusal, or None once it is written."""


class SaveWriter:
    """:class:`SaveStore` with its writes done by a writer thread (started at the first)."""

    def __init__(self, store: SaveStore) -> None:
        self.store = store
        self._waiting: dict[int, tuple[Match, _Job]] = {}
        """By match seed, in the order handed over: the newest job of each match."""
        self._busy = False
        self._closing = False
        self._changed = threading.Condition()
        self._thread: threading.Thread | None = None

    # -- writing (the frame loop hands over, the thread writes) ----------------------------

    def save(self, match: Match, report: Callable[[OSError | None], None] | None = None) -> None:
        """Autosave ``match`` soon; ``report`` is told on the writer thread how it went: the
        error if the disk refuses (a full disk must not end the game, but the player should
        know), None once written (the disk has room again)."""
        self._hand_over(match, _Job(self.store.snapshot(match), report))

    def discard(self, match: Match) -> None:
        """Delete the save of an unfinished match, after any of its saves handed over."""
        self._hand_over(match, _Job(None, None))

    def _hand_over(self, match: Match, job: _Job) -> None:
        with self._changed:
            self._waiting.pop(match.seed, None)  # the newest goes to the end of the line
            self._waiting[match.seed] = (match, job)
            if self._thread is None:
                self._thread = threading.Thread(target=self._write, name="saves", daemon=True)
                self._thread.start()
            self._changed.notify_all()

    def _write(self) -> None:
        while True:
            with self._changed:
                while not self._waiting and not self._closing:
                    self._changed.wait()
                if not self._waiting:  # closed: the thread ends, holding nothing
                    self._thread = None
                    self._changed.notify_all()
                    return
                seed = next(iter(self._waiting))
                match, job = self._waiting.pop(seed)
                self._busy = True
            try:
                if job.snapshot is None:
                    self.store.discard(match)
                else:
                    self.store.write(job.snapshot)
                    _tell(job, None)
            except OSError as error:
                log.error("saving match %016x failed: %s", seed, error)
                _tell(job, error)
            except Exception as error:  # a bug must not end the writer: every later save
                log.exception("saving match %016x failed", seed)
                _tell(job, OSError(f"the save failed: {error}"))
            finally:
                del match, job  # a waiting thread must not keep the last match (and its app)
                with self._changed:
                    self._busy = False
                    self._changed.notify_all()

    def close(self, timeout: float = FLUSH_SECONDS) -> bool:
        """Write what was handed over, then end the writer thread (a later save starts
        another); False if the writes did not finish within ``timeout``."""
        done = self.flush(timeout)
        with self._changed:
            self._closing = True
            self._changed.notify_all()
            self._changed.wait_for(lambda: self._thread is None, timeout if done else 0)
            self._closing = False
        return done

    def flush(self, timeout: float = FLUSH_SECONDS) -> bool:
        """Wait until every write handed over is on disk; False if ``timeout`` ran out."""
        with self._changed:
            done = self._changed.wait_for(lambda: not self._waiting and not self._busy, timeout)
        if not done:
            log.error("the saves were not written within %g s", timeout)
        return done

    # -- reading (after the writes handed over) --------------------------------------------

    def unfinished(self, limit: int | None = None) -> Shelf:
        self.flush()
        return self.store.unfinished(limit)

    def finished(self) -> list[Finished]:
        self.flush()
        return self.store.finished()


def _tell(job: _Job, error: OSError | None) -> None:
    """Tell ``job``'s caller how its write went; whatever its callback does wrong is
    logged, never the end of the writer."""
    if job.report is None:
        return
    try:
        job.report(error)
    except Exception:
        log.exception("the report of a save failed")
