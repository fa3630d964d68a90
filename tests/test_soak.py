"""A short soak of the kiosk (the long one is ``tools/soak.py``): a seeded monkey taps and
drags through every screen it finds for a few thousand frames without one error, while the
system stops and starts the kiosk and its disk fills with finished matches."""

from game.client.surface_cache import limit_megabytes
from tools.soak import soak


def test_a_monkey_at_the_kiosk_finds_no_error() -> None:
    report = soak(
        frames=4000, minutes=3, dt=1 / 30, seed=5, size=(1024, 600), restart_every=1500, grow=300
    )
    assert report["unhandled_exceptions"] == 0, report["escaped"]
    assert report["taps"] > 300 and report["matches_started"] > 2
    assert report["restarts_by_sigterm"] == 2  # stopped by the system and started again
    assert report["finished_on_disk_at_end"] <= report["keep_finished"] + 20  # pruned
    held = [mb for _, mb in report["drawing_caches_mb_samples"]]
    assert held and 0 < max(held) <= limit_megabytes()
