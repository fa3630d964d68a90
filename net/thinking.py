"""The computer seats a peer plays, thinking in the worker process of local play.

A hosting client runs its :class:`~net.peer.Peer` on an asyncio loop in a thread of the
pygame process.  A search in a thread there would hold the interpreter's lock for whole
switch intervals and the frame loop would wait for it; :class:`SeatThinker` sends each
decision to a :class:`game.ai.worker.Thinker` instead — a spawned process, with the budget of
local play (the thinking-time setting scales the level's node budget) — and awaits the
answer without blocking the loop.  A worker that dies (killed, out of memory) is replaced.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Any

from game.ai.worker import Thinker

if TYPE_CHECKING:
    from game.rules import State

ATTEMPTS = 2
"""Workers tried for one decision: one dying is an accident, two in a row is reported."""


class ThinkingError(RuntimeError):
    """The worker process died under every attempt at one decision."""


class SeatThinker:
    """Decisions of the computer seats, one at a time, in a worker process started at the
    first decision (a peer that never plays a computer seat never starts one).

    ``seconds`` is the thinking-time setting, as in local play (``PeerConfig.think_seconds``).
    """

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds
        self._thinker: Thinker | None = None
        self._current: Future[Any] | None = None
        self._closed = False

    async def decide(self, state: State, level: str, seed: int) -> int | None:
        """The action a computer player of ``level`` chooses in ``state`` (the same for the
        same state, level and seed).  None if the decision was given up: a later
        :meth:`decide` began meanwhile, or the thinker was closed.  Cancelling the task
        that awaits this stops the search in the worker at once.  Raises
        :class:`ThinkingError` if the worker dies under every attempt."""
        failure: BrokenProcessPool | None = None
        for _ in range(ATTEMPTS):
            if self._closed:
                return None
            if self._thinker is None:
                self._thinker = Thinker()
            thinker = self._thinker
            try:
                self._current = future = thinker.think(state, level, seed, self.seconds)
                try:
                    return await asyncio.wrap_future(future)
                except asyncio.CancelledError:
                    if self._current is future:  # not a later decision's search
                        thinker.cancel()
                    raise
            except BrokenProcessPool as error:  # the worker died: a new one, once
                failure = error
                if self._thinker is thinker:
                    self._thinker = None
                    thinker.close(wait=False)
        raise ThinkingError(
            f"the computer player's process stopped {ATTEMPTS} times in a row ({failure})"
        )

    def close(self) -> None:
        """Give up the decision under way (it returns None) and let the worker end; returns
        at once, without waiting for the process."""
        self._closed = True
        if self._thinker is not None:
            self._thinker.close(wait=False)
            self._thinker = None

    async def aclose(self) -> None:
        """Give up the decision under way and wait, off the event loop, until the worker
        has ended (quick: its search stops at once).  For a peer whose process exits next: a
        pool let go without waiting may still be writing to its pipes while the interpreter
        closes them, and prints ``OSError: [Errno 9] Bad file descriptor`` on the way out
        (CPython gh-83386)."""
        self._closed = True
        thinker, self._thinker = self._thinker, None
        if thinker is not None:
            thinker.cancel()
            await asyncio.to_thread(thinker.close, True)
