"""The lines a child process writes, read as they come, and a wait for a line that blocks on
a condition the reader signals (never a sleep)."""

from __future__ import annotations

import subprocess
import threading
from collections.abc import Callable


class Lines:
    """What ``popen``'s stdout (text mode) has said so far, and waits on what it says next."""

    def __init__(self, popen: subprocess.Popen) -> None:
        assert popen.stdout is not None, "the process's output must be a pipe"
        self.popen = popen
        self._lines: list[str] = []
        self._ended = False
        self._arrived = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.popen.stdout is not None
        for line in self.popen.stdout:
            with self._arrived:
                self._lines.append(line)
                self._arrived.notify_all()
        with self._arrived:
            self._ended = True
            self._arrived.notify_all()

    def wait(self, condition: Callable[[], bool], seconds: float) -> bool:
        """Wait until ``condition()`` (which may read :attr:`text`, :meth:`count` and
        :attr:`latest`) holds after a line came; False if ``seconds`` went by first."""
        with self._arrived:
            return self._arrived.wait_for(condition, seconds)

    def count(self, text: str) -> int:
        """The lines written so far that contain ``text``."""
        with self._arrived:
            return sum(text in line for line in self._lines)

    def since(self, start: int) -> list[str]:
        """The lines written after the first ``start``."""
        with self._arrived:
            return self._lines[start:]

    def __len__(self) -> int:
        with self._arrived:
            return len(self._lines)

    @property
    def latest(self) -> str:
        """The last line written ('' before the first)."""
        with self._arrived:
            return self._lines[-1] if self._lines else ""

    def wait_for(self, wanted: str | Callable[[str], bool], seconds: float) -> str | None:
        """The first line containing ``wanted`` (or for which it is true), once written;
        None if the output ended or ``seconds`` went by first."""
        found: list[str] = []

        def seen() -> bool:
            for line in self._lines:
                if wanted(line) if callable(wanted) else wanted in line:
                    found.append(line)
                    return True
            return self._ended

        with self._arrived:
            self._arrived.wait_for(seen, seconds)
        return found[0] if found else None

    def all(self, seconds: float) -> str:
        """Everything written, once the output has ended (or ``seconds`` went by)."""
        with self._arrived:
            self._arrived.wait_for(lambda: self._ended, seconds)
            return "".join(self._lines)

    @property
    def text(self) -> str:
        """What has been written so far."""
        with self._arrived:
            return "".join(self._lines)
