"""A short soak of the kiosk (the long one is ``tools/soak.py``): a seeded monkey taps and
drags through every screen it finds for a few thousand frames without one error, while the
system stops and starts the kiosk and its disk fills with finished matches."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from game.client.surface_cache import limit_megabytes

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_a_monkey_at_the_kiosk_finds_no_error() -> None:
    options = ["--frames", "4000", "--minutes", "3", "--seed", "5", "--size", "1024x600"]
    restarts = ["--restart-every", "1500", "--grow", "300"]
    soak = subprocess.run(
        [sys.executable, ROOT / "tools" / "soak.py", "--kiosk", *options, *restarts],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert soak.returncode == 0, soak.stderr[-3000:]
    report = json.loads(soak.stdout)
    assert report["unhandled_exceptions"] == 0, report["escaped"]
    assert report["taps"] > 300 and report["matches_started"] > 2
    assert report["restarts_by_sigterm"] == 2  # stopped by the system and started again
    assert report["finished_on_disk_at_end"] <= report["keep_finished"] + 20  # pruned
    held = [mb for _, mb in report["drawing_caches_mb_samples"]]
    assert held and 0 < max(held) <= limit_megabytes()
