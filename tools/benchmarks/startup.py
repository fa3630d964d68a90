"""``python tools/bench.py startup``: seconds from starting ``python -m game`` to its first
interactive frame (the title screen drawn, input accepted), over several runs, headless.

The app exits right after that frame when TAVOLO_EXIT_AFTER_FIRST_FRAME is set.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time

from tools.benchmarks.common import machine

TARGET_SECONDS = 1.0


def bench_startup(runs: int) -> dict:
    timings = []
    with tempfile.TemporaryDirectory() as home:
        env = {
            **os.environ,
            "SDL_VIDEODRIVER": "dummy",
            "SDL_AUDIODRIVER": "dummy",
            "TAVOLO_EXIT_AFTER_FIRST_FRAME": "1",
            "TAVOLO_HOME": home,
        }
        for _ in range(runs + 1):  # the first run warms the file cache and is not counted
            began = time.perf_counter()
            process = subprocess.Popen(
                [sys.executable, "-m", "game"], env=env, stdout=subprocess.PIPE, text=True
            )
            assert process.stdout is not None
            for line in process.stdout:
                if line.strip() == "first frame":
                    timings.append(time.perf_counter() - began)
                    break
            process.wait(timeout=60)
    timings = timings[1:]
    return {
        "benchmark": "startup",
        "machine": machine(),
        "runs": len(timings),
        "seconds_median": round(sorted(timings)[len(timings) // 2], 3),
        "seconds_max": round(max(timings), 3),
        "target_seconds": TARGET_SECONDS,
        "met": max(timings) <= TARGET_SECONDS,
    }
