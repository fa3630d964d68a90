"""A peer run as a child process — ``python -m net`` or one of this harness's own clients —
that writes one JSON event a line: what the tests, the benchmarks and the soak drive real
peers with.

Every line is kept with the moment it came and parsed only when someone asks, so that the
reading costs the peers sharing the machine next to nothing; waiting for an event blocks on
a condition the reader signals, never on a sleep.  Everything the child writes on stderr is
kept too (a pipe nobody read would stop the writer).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
"""The folder holding ``game`` and ``net``: the child imports the same code as its parent."""

Event = dict[str, Any]


class PeerWaitError(AssertionError):
    """A peer ended, or let the time go by, without the event waited for."""


class PeerProcess:
    """One child process and the JSON events it has written so far."""

    def __init__(
        self, argv: Sequence[str | Path], *, cwd: Path, env: Mapping[str, str] | None = None
    ) -> None:
        self.argv = [str(a) for a in argv]
        self.popen = subprocess.Popen(
            self.argv,
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
        )
        self._lines: list[tuple[float, str]] = []
        self._events: list[Event] = []
        self._cursor = 0
        self._stdout_ended = False
        self._stderr: list[str] = []
        self._arrived = threading.Condition()
        self._readers = [
            threading.Thread(target=self._read_stdout, daemon=True),
            threading.Thread(target=self._read_stderr, daemon=True),
        ]
        for reader in self._readers:
            reader.start()

    @classmethod
    def net(cls, *args: str | Path, cwd: Path, prefix: Sequence[str] = ()) -> PeerProcess:
        """``python -m net ARGS``, run under ``prefix`` (``ip netns exec …``, a limit)."""
        return cls([*prefix, sys.executable, "-m", "net", *args], cwd=cwd)

    # -- the readers ----------------------------------------------------------------------

    def _read_stdout(self) -> None:
        assert self.popen.stdout is not None
        for line in self.popen.stdout:
            with self._arrived:
                self._lines.append((time.monotonic(), line))
                self._arrived.notify_all()
        with self._arrived:
            self._stdout_ended = True
            self._arrived.notify_all()

    def _read_stderr(self) -> None:
        assert self.popen.stderr is not None
        for line in self.popen.stderr:
            self._stderr.append(line)

    # -- the events -----------------------------------------------------------------------

    def _parsed(self) -> list[Event]:
        """Every event so far (under the lock): each line parsed once, with its ``at``, the
        peer's own stamp when it traces, else the moment its line came."""
        for at, line in self._lines[len(self._events) :]:
            event = json.loads(line)
            event.setdefault("at", at)
            self._events.append(event)
        return self._events

    @property
    def events(self) -> list[Event]:
        with self._arrived:
            return list(self._parsed())

    def wait_until(self, accept: Callable[[Event], bool], timeout: float, what: str) -> Event:
        """The first event not yet handed out that ``accept`` takes; the ones before it are
        passed over for good."""
        deadline = time.monotonic() + timeout
        with self._arrived:
            while True:
                events = self._parsed()
                while self._cursor < len(events):
                    event = events[self._cursor]
                    self._cursor += 1
                    if accept(event):
                        return event
                if self._stdout_ended:
                    raise PeerWaitError(f"the peer ended before {what}: {self.tail()}")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise PeerWaitError(f"no {what} within {timeout} s: {self.tail()}")
                self._arrived.wait(left)

    def wait_for(self, kind: str, timeout: float = 30.0, **fields: Any) -> Event:
        """The next event of ``kind`` (with ``fields``, if given) from now on."""
        return self.wait_until(
            lambda e: e.get("event") == kind and all(e.get(k) == v for k, v in fields.items()),
            timeout,
            f"a {kind} event",
        )

    def next_event(self, timeout: float) -> Event | None:
        """The next event not yet handed out, or None once the peer has ended."""
        try:
            return self.wait_until(lambda _: True, timeout, "another event")
        except PeerWaitError:
            with self._arrived:
                if self._stdout_ended:
                    return None
            raise

    def last(self, kind: str) -> Event:
        return next(e for e in reversed(self.events) if e.get("event") == kind)

    # -- the end --------------------------------------------------------------------------

    def finish(self, timeout: float = 60.0) -> int | None:
        """The exit status once the peer ends by itself, or None if it had to be killed
        after ``timeout``; its output is read to the end either way."""
        try:
            return self.popen.wait(timeout)
        except subprocess.TimeoutExpired:
            return None
        finally:
            self.kill()

    def kill(self) -> None:
        if self.popen.poll() is None:
            self.popen.kill()
            self.popen.wait()
        for reader in self._readers:
            reader.join(10)

    def stderr(self) -> str:
        """All the peer wrote on stderr (whole once it has ended)."""
        return "".join(self._stderr)

    def tail(self) -> str:
        """The last events and lines of stderr, for a failure's message."""
        with self._arrived:
            last = self._parsed()[-5:]
        return f"{last} {''.join(self._stderr)[-2000:]}"
