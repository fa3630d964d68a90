"""Word from outside the frame loop: the computer's answer, the network's news.

Work that ends on another thread (the worker process's futures, the LAN link's thread)
calls :meth:`Wakeup.notify`.  The app, asleep in ``pygame.event.wait`` while nothing on the
screen moves, wakes at once on the :data:`WAKE` event it posts instead of at the end of its
idle wait; code that runs frames itself (the test driver) waits on :meth:`Wakeup.wait`.
"""

from __future__ import annotations

import contextlib
import threading

import pygame

WAKE = pygame.event.custom_type()
"""The event that wakes the frame loop; it carries nothing (the screens read the news)."""


class Wakeup:
    """A count of the times word came from outside, and a condition to wait on it."""

    def __init__(self) -> None:
        self._count = 0
        self._changed = threading.Condition()
        self._posted = False
        """A :data:`WAKE` is in the event queue: news until it is taken needs no other (a
        long catch-up must not fill the queue, which then refuses input too)."""

    def notify(self) -> None:
        """Word came (callable from any thread): wake whoever waits for it."""
        with self._changed:
            self._count += 1
            self._changed.notify_all()
            post, self._posted = not self._posted, True
        if post:
            with contextlib.suppress(pygame.error):  # the window is gone: nobody to wake
                pygame.event.post(pygame.event.Event(WAKE))

    def taken(self) -> None:
        """The frame loop took the :data:`WAKE` from its queue (it reads the news after
        this): the next word posts another."""
        with self._changed:
            self._posted = False

    def mark(self) -> int:
        """Where the count stands: :meth:`wait` returns as soon as it has moved past it."""
        with self._changed:
            return self._count

    def wait(self, since: int, timeout: float) -> bool:
        """Wait until word has come after :meth:`mark` gave ``since`` (at once if it has
        already), or ``timeout`` seconds; True if it came."""
        with self._changed:
            return self._changed.wait_for(lambda: self._count != since, timeout)
