"""A short run of the benchmark's mutation fuzzer (the long one is ``bench.py net``):
mutated frames end accepted or refused with a reason, never in a crash."""

from tools.benchmarks.net import fuzz


def test_mutated_frames_never_crash_the_decoder_the_validation_or_the_log() -> None:
    report = fuzz(5000, seed=7)
    assert report["crashes"] == 0, report["crash_examples"]
    assert report["outcomes"]["accepted"] > 0
    assert report["distinct_outcomes"] > 20  # the mutations reach many different checks
