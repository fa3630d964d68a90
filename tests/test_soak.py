"""A short soak of the kiosk (the long one is ``tools/soak.py``): a seeded monkey taps and
drags through every screen it finds for a few thousand frames without one error."""

from tools.soak import soak


def test_a_monkey_at_the_kiosk_finds_no_error() -> None:
    report = soak(frames=4000, minutes=3, dt=1 / 30, seed=5, size=(1024, 600))
    assert report["unhandled_exceptions"] == 0, report["escaped"]
    assert report["taps"] > 300 and report["matches_started"] > 2
