"""The system's requests to end the program — ``systemctl stop``, logout, shutdown, Ctrl+C —
heard by the app itself.

SDL would turn them into the quit event a window's close button sends, which a kiosk
ignores, so shutdown would hang: :class:`StopSignals` handles them before SDL starts (SDL
then leaves them be) and tells the app, which ends its loop after the frame under way, the
match on the screen having been saved at its last change.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Callable
from types import FrameType

SignalHandler = Callable[[int, FrameType | None], object] | int | signal.Handlers | None
"""What ``signal.signal`` answers and takes: a function, ``SIG_DFL``/``SIG_IGN``, or None."""

STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)
"""What the system sends to end a program (``systemctl stop``, logout, shutdown, Ctrl+C)."""


class StopSignals:
    """:data:`STOP_SIGNALS` handled by calling ``stop`` with the signal's name (in the main
    thread only: only it may handle signals, and elsewhere SDL's quit event remains)."""

    def __init__(self, stop: Callable[[str], None]) -> None:
        self._stop = stop
        self._handlers = self._hear()
        """The handlers the signals had, for :meth:`close` to put back."""

    def _hear(self) -> dict[int, SignalHandler]:
        if threading.current_thread() is not threading.main_thread():
            return {}
        os.environ["SDL_NO_SIGNAL_HANDLERS"] = "1"
        return {signum: signal.signal(signum, self._heard) for signum in STOP_SIGNALS}

    def _heard(self, signum: int, _frame: object) -> None:
        """Runs between two steps of the frame loop."""
        self._stop(signal.Signals(signum).name)

    def close(self) -> None:
        """Put back the handlers the signals had."""
        for signum, handler in self._handlers.items():
            signal.signal(signum, handler)
        self._handlers = {}
