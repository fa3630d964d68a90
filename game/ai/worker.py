"""Thinking in another process, so the screen never waits for the computer.

A :class:`Thinker` keeps one worker process (started with *spawn*, so it shares nothing with
the window) and sends it positions as their canonical bytes.  Each request carries a
generation number; :meth:`Thinker.cancel` moves the shared counter on, the search notices
within a few hundred nodes and returns None, and a stale answer is never used.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from typing import TYPE_CHECKING, ParamSpec, TypeVar

if TYPE_CHECKING:
    from multiprocessing.sharedctypes import Synchronized, SynchronizedArray

    from game.ai.odds import TurnOdds
    from game.ai.review import Review
    from game.rules import MatchRecord, State

P = ParamSpec("P")
T = TypeVar("T")

_generation: Synchronized[int] | None = None  # the shared counter, in the worker process
_progress: SynchronizedArray[int] | None = None  # the review's done and to do, in the worker
PR_SET_PDEATHSIG = 1
"""Linux's ``prctl`` option: a signal for this process when the one that started it ends."""


def _start(generation: Synchronized[int], progress: SynchronizedArray[int], parent: int) -> None:
    global _generation, _progress
    _generation, _progress = generation, progress
    _die_with(parent)


def _die_with(parent: int) -> None:
    """Have the kernel kill this worker when the process that started it ends, even by
    SIGKILL: a kiosk restarted after a crash must not leave a worker behind each time (with
    the worker gone, multiprocessing's resource tracker reads the end of its pipe and ends
    too).  Linux only; elsewhere the worker ends when its parent closes it."""
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return
    prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the parent ended before the request took effect
        os._exit(0)


class _Cancelled:
    """The search's cancel flag: set once the counter has moved past this request."""

    def __init__(self, generation: int) -> None:
        self.generation = generation

    def is_set(self) -> bool:
        return _generation is not None and _generation.value != self.generation


def _warm() -> bool:
    import game.ai.players  # noqa: F401 - load the players (and the Lupo table) ahead

    return True


def _think(
    data: bytes, level: str, seed: int, seconds: float | None, generation: int
) -> int | None:
    from game.ai.players import choose
    from game.rules import decode_state

    cancel = _Cancelled(generation)
    scale = 1.0 if seconds is None else seconds
    decision = choose(
        decode_state(data), level, seed, cancel=cancel, max_seconds=seconds, scale=scale
    )
    return None if cancel.is_set() else decision.action


def _review(data: bytes, people: list[int], generation: int) -> Review | None:
    from game.ai.review import review
    from game.rules import MatchRecord

    cancel = _Cancelled(generation)

    def progress(done: int, of: int) -> None:
        if _progress is not None:
            _progress[0], _progress[1] = done, of

    return review(MatchRecord.decode(data), set(people), progress, cancel.is_set)


def _odds(data: bytes) -> TurnOdds | None:
    from game.ai.odds import turn_odds
    from game.rules import decode_state
    from game.rules.ausgeblockt import AusgeblocktState

    state = decode_state(data)
    return turn_odds(state) if isinstance(state, AusgeblocktState) else None


class Thinker:
    def __init__(self, on_done: Callable[[], None] | None = None) -> None:
        """``on_done`` is called (on a thread of the pool's) whenever an answer is ready, so a
        frame loop asleep while nothing moves wakes for it instead of polling the future."""
        self._on_done = on_done
        context = multiprocessing.get_context("spawn")
        self._counter = context.Value(ctypes.c_int, 0)
        self._progress = context.Array(ctypes.c_int, 2)
        self._pool = ProcessPoolExecutor(
            1,
            mp_context=context,
            initializer=_start,
            initargs=(self._counter, self._progress, os.getpid()),
        )
        self._pool.submit(_warm)

    def think(
        self, state: State, level: str, seed: int, seconds: float | None = None
    ) -> Future[int | None]:
        """Start choosing an action for the seat to move; the future gives it (or None if
        cancelled).  ``seconds`` is the player's thinking-time setting, the one budget of
        local and LAN play: it scales the level's node budget (so the choice does not depend
        on the machine's speed) and caps the search's clock for safety; None: the level's
        budget and no clock."""
        generation = self.cancel()
        return self._submit(_think, state.encode(), level, seed, seconds, generation)

    def odds(self, state: State) -> Future[TurnOdds | None]:
        """Work out the odds of an Ausgeblockt turn (:func:`game.ai.odds.turn_odds`); the
        future gives the :class:`~game.ai.odds.TurnOdds`, or None when the state has none
        (another game's among them).
        Queued behind a search under way, never cancelling it."""
        return self._submit(_odds, state.encode())

    def review(self, record: MatchRecord, people: set[int]) -> Future[Review | None]:
        """Start reviewing ``record`` for the decisions of ``people``: the future gives the
        :class:`~game.ai.review.Review` (None if cancelled); :meth:`review_progress` says
        how far it is."""
        generation = self.cancel()
        self._progress[0], self._progress[1] = 0, 0
        return self._submit(_review, record.encode(), sorted(people), generation)

    def _submit(self, function: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        future = self._pool.submit(function, *args, **kwargs)
        if self._on_done is not None:
            on_done = self._on_done
            future.add_done_callback(lambda _future: on_done())
        return future

    def review_progress(self) -> tuple[int, int]:
        """The review under way: (decisions looked at, decisions in all)."""
        return self._progress[0], self._progress[1]

    def cancel(self) -> int:
        """Stop whatever is being thought about; returns the new generation."""
        with self._counter.get_lock():
            self._counter.value += 1
            return self._counter.value

    def close(self, wait: bool = True) -> None:
        """Stop thinking and let the worker go; ``wait``: until it has ended (quick: the
        search was cancelled)."""
        self.cancel()
        self._pool.shutdown(wait=wait, cancel_futures=True)
