"""Waiting for processes to end, on the kernel's word."""

from __future__ import annotations

import contextlib
import os
import select
import time


def wait_for_the_end_of(pids: list[int], seconds: float) -> list[int]:
    """Wait until every process of ``pids`` has ended, or ``seconds`` went by; the ones
    still running.  A pidfd becomes readable when its process ends, whoever its parent is
    and whether or not it has been reaped (which a multiprocessing sentinel's readiness
    does not promise either)."""
    watched: dict[int, int] = {}
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):  # already gone and reaped
            watched[os.pidfd_open(pid)] = pid
    deadline = time.monotonic() + seconds
    try:
        while watched and time.monotonic() < deadline:
            ended, _, _ = select.select(list(watched), [], [], deadline - time.monotonic())
            for fd in ended:
                del watched[fd]
                os.close(fd)
        return sorted(watched.values())
    finally:
        for fd in watched:
            os.close(fd)
