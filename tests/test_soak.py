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


def test_the_ledger_counts_a_swept_left_match_as_thrown_away_not_lost(tmp_path: Path) -> None:
    """The kiosk deletes a match nobody came back to by design: the soak must not call it
    lost — and a match that vanished otherwise still is."""
    import time

    from game.client.kiosk_config import KioskConfig
    from game.rules import variant
    from game.session.match import Match
    from game.session.seats import Seat
    from tests.client_driver import Driver
    from tools.soak import Ledger

    driver = Driver(tmp_path, kiosk=KioskConfig(abandon_after=20, countdown=5))
    try:
        ledger = Ledger()
        ledger.watch(driver.app)
        left, other = (Match.new(variant("dama:classic"), [Seat(), Seat()], s) for s in (1, 2))
        for match in (left, other):
            match.play(match.state.legal_actions()[0])
            driver.app.saves.save(match)
        driver.app.saves.flush()
        driver.app.wall_clock = lambda: time.time() + 60
        assert driver.app.sweep_abandoned() == 2
        ledger.check(driver.app.saves.store)
        assert ledger.lost()["vanished_matches"] == 0  # both swept, by design
        driver.app.saves.save(left)
        driver.app.saves.flush()
        driver.app.saves.store.path_of(left).unlink()  # gone, but not by the sweep
        ledger.check(driver.app.saves.store)
        assert ledger.lost()["vanished_matches"] == 1
    finally:
        driver.app.close()
