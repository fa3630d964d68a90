"""The gate's limits at their boundaries (issue 28: every limit pinned by a test that fails
without it): the strangers one address may hold, the wait after each wrong join code and
the words it is told in, when an address is forgotten, when the host hears of wrong codes,
and whom an address belongs to.  Every time comes from a hand-turned clock."""

from __future__ import annotations

import asyncio
import logging

import pytest

from net.gate import (
    CHECK_EVERY,
    FIRST_DELAY,
    FORGET_AFTER,
    MAX_DELAY,
    MAX_STRANGERS_PER_ADDRESS,
    NOTICE_EVERY,
    THROTTLE_AFTER,
    THROTTLE_WINDOW,
    Gate,
    address_key,
    delay_after,
    install_quiet_handler,
)

CODE = "4711"


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_one_address_holds_exactly_its_share_of_places() -> None:
    gate = Gate(Clock())
    slots = [gate.admit("10.0.0.5", lambda: None) for _ in range(MAX_STRANGERS_PER_ADDRESS)]
    assert all(slot is not None for slot in slots)
    assert gate.admit("10.0.0.5", lambda: None) is None
    assert gate.admit("10.0.0.6", lambda: None) is not None
    slots[0].release()
    assert gate.admit("10.0.0.5", lambda: None) is not None


@pytest.mark.parametrize(
    ("failures", "wait"),
    [(-1, 0.0), (0, 0.0), (1, FIRST_DELAY), (2, 2 * FIRST_DELAY), (10, 512.0), (11, MAX_DELAY),
     (10**6, MAX_DELAY)],
)  # fmt: skip
def test_the_wait_doubles_after_every_wrong_code_up_to_its_cap(failures: int, wait: float) -> None:
    assert delay_after(failures) == wait


def _wrong(gate: Gate, clock: Clock, times: int, address: str = "10.0.0.7") -> str | None:
    said = None
    for _ in range(times):
        clock.now += MAX_DELAY  # its turn has come
        said = gate.try_code(address, "0000", CODE)
    return said


def test_the_wait_is_told_in_seconds_under_two_minutes_and_in_minutes_from_two() -> None:
    clock = Clock()
    gate = Gate(clock)
    assert _wrong(gate, clock, 1) == "wrong join code (the next try in 1 s)"
    assert _wrong(gate, clock, 6) == "wrong join code (the next try in 64 s)"
    assert _wrong(gate, clock, 1) == "wrong join code (the next try in 3 min)"  # 128 s
    last = clock.now
    for later, words in [(7.0, "3 min"), (8.0, "2 min"), (9.0, "119 s"), (127.5, "1 s")]:
        clock.now = last + later
        said = gate.try_code("10.0.0.7", CODE, CODE)
        assert said == f"too many wrong join codes from this address: try again in {words}"


def test_an_address_quiet_for_a_day_starts_afresh() -> None:
    clock = Clock()
    gate = Gate(clock)
    assert _wrong(gate, clock, 2) == "wrong join code (the next try in 2 s)"
    clock.now += FORGET_AFTER  # exactly a day after its last wrong code
    assert gate.try_code("10.0.0.7", "0000", CODE) == "wrong join code (the next try in 1 s)"


def test_the_host_hears_of_wrong_codes_at_most_once_a_minute() -> None:
    clock = Clock()
    gate = Gate(clock)
    _wrong(gate, clock, 1)
    assert gate.summary() is not None
    told = clock.now
    clock.now += 1
    assert gate.try_code("10.0.0.8", "0000", CODE) is not None  # another address, at once
    clock.now = told + NOTICE_EVERY - 1
    assert gate.summary() is None
    clock.now += 1  # exactly a minute after the last notice
    assert gate.summary() is not None


@pytest.mark.parametrize(
    ("address", "owner"),
    [
        ("192.0.2.7", "192.0.2.7"),
        ("::ffff:192.0.2.7", "192.0.2.7"),
        ("2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"),
        ("fe80::1%eth0", "fe80::/64"),
        ("fe80::2%2", "fe80::/64"),
        ("not an address", "not an address"),
    ],
)
def test_an_address_belongs_to_its_ipv4_host_or_its_ipv6_64(address: str, owner: str) -> None:
    assert address_key(address) == owner


def test_wrong_codes_stop_counting_for_the_throttle_exactly_a_window_later() -> None:
    """Twenty wrong codes from twenty addresses at once: from then on new addresses are
    checked once per :data:`CHECK_EVERY` seconds, until those codes are a window old."""
    clock = Clock()
    gate = Gate(clock)
    start = clock.now
    for n in range(THROTTLE_AFTER):
        assert gate.try_code(f"10.1.0.{n}", "0000", CODE) is not None
    clock.now = start + THROTTLE_WINDOW - 10
    assert gate.code_wait("10.2.0.1") == 0.0  # the last check of a new address: long ago
    gate.try_code("10.2.0.1", "0000", CODE)
    clock.now = start + THROTTLE_WINDOW - 1
    assert gate.code_wait("10.2.0.2") == CHECK_EVERY - 9  # still throttled
    clock.now = start + THROTTLE_WINDOW
    assert gate.code_wait("10.2.0.2") == 0.0  # the twenty are a window old: one is left


class _Handle:
    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"<Handle BaseSelectorEventLoop.{self.name}(<socket fd=-1>)>"


@pytest.mark.parametrize(
    ("error", "handle", "quiet"),
    [
        (ValueError("Invalid file descriptor: -1"), _Handle("_start_serving"), True),
        (ValueError("Invalid file descriptor: -1"), _Handle("_read_ready"), False),
        (ValueError("Invalid file descriptor: -1"), None, False),
        (ValueError("another value"), _Handle("_start_serving"), False),
        (OSError("Invalid file descriptor: -1"), _Handle("_start_serving"), False),
    ],
)
def test_only_accepts_retry_after_the_server_closed_is_kept_quiet(
    error: Exception, handle: object, quiet: bool, caplog: pytest.LogCaptureFixture
) -> None:
    loop = asyncio.new_event_loop()
    try:
        install_quiet_handler(loop, lambda text: None, Clock())
        with caplog.at_level(logging.ERROR, logger="asyncio"):
            loop.call_exception_handler({"message": "x", "exception": error, "handle": handle})
    finally:
        loop.close()
    assert (caplog.records == []) == quiet
