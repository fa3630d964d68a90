"""The gate before the handshake: caps on strangers, rationed join-code checks, one notice,
and a quiet loop when the file table runs out.  Every time comes from a hand-turned clock."""

from __future__ import annotations

import asyncio
import errno
import heapq
import logging

import pytest

from game import i18n
from net.gate import (
    CHECK_EVERY,
    FIRST_DELAY,
    FORGET_AFTER,
    MAX_DELAY,
    MAX_STRANGERS,
    MAX_STRANGERS_PER_ADDRESS,
    NOTICE_EVERY,
    THROTTLE_AFTER,
    THROTTLE_WINDOW,
    Gate,
    address_key,
    delay_after,
    install_quiet_handler,
)

DAY = 86_400.0
CODE = "4711"
"""The join code: the brute force below tries it last."""


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def gate(clock: Clock) -> Gate:
    return Gate(clock)


def never_evicted() -> None:
    raise AssertionError("nobody should be evicted here")


# -- strangers ---------------------------------------------------------------------------


def test_one_address_holds_at_most_its_share_and_gets_it_back(gate: Gate) -> None:
    slots = [gate.admit("192.168.1.50", never_evicted) for _ in range(MAX_STRANGERS_PER_ADDRESS)]
    assert all(slots)
    assert gate.admit("192.168.1.50", never_evicted) is None
    assert gate.admit("192.168.1.51", never_evicted) is not None  # others are not held up
    slots[0].release()
    slots[0].release()  # a second release gives back nothing more
    assert gate.admit("192.168.1.50", never_evicted) is not None
    assert gate.admit("192.168.1.50", never_evicted) is None


def test_ipv6_counts_per_64_and_mapped_ipv4_as_ipv4() -> None:
    assert address_key("fe80::1%eth0") == address_key("fe80::ffff:2") == "fe80::/64"
    assert address_key("2001:db8:0:1::5") != address_key("2001:db8:0:2::5")
    assert address_key("::ffff:10.0.0.7") == "10.0.0.7"
    assert address_key("?") == "?"


def test_ipv6_aliases_in_one_64_share_one_address_cap(gate: Gate) -> None:
    for n in range(MAX_STRANGERS_PER_ADDRESS):
        assert gate.admit(f"2001:db8::{n + 1:x}", never_evicted) is not None
    assert gate.admit("2001:db8::ffff", never_evicted) is None


def test_a_full_gate_turns_the_oldest_stranger_away_for_a_newcomer(gate: Gate) -> None:
    evicted: list[int] = []
    slots = []
    for n in range(MAX_STRANGERS):  # an attacker with a subnet of aliases fills the gate
        address = f"10.0.0.{n // MAX_STRANGERS_PER_ADDRESS + 1}"
        slots.append(gate.admit(address, lambda n=n: evicted.append(n)))
    assert evicted == []
    newcomer = gate.admit("10.0.9.9", never_evicted)
    assert newcomer is not None and evicted == [0]
    slots[0].release()  # the evicted handler's own release later changes nothing
    assert gate.admit("10.0.9.10", never_evicted) is not None and evicted == [0, 1]
    # The oldest's address got its place back: it may connect again.
    assert gate.admit("10.0.0.1", never_evicted) is not None and evicted == [0, 1, 2]


# -- join codes from one address ---------------------------------------------------------


def test_each_wrong_code_doubles_the_wait_up_to_the_cap(gate: Gate, clock: Clock) -> None:
    waits = []
    for _ in range(14):
        wait = gate.code_wait("10.0.0.5")
        clock.advance(wait)
        reason = gate.try_code("10.0.0.5", "0000", CODE)
        assert reason is not None and reason.startswith("wrong join code")
        waits.append(gate.code_wait("10.0.0.5"))
    assert waits[:10] == [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0, 512.0]
    assert waits[10:] == [MAX_DELAY] * 4
    assert waits[0] == FIRST_DELAY


def test_a_code_before_its_turn_is_refused_unchecked(gate: Gate, clock: Clock) -> None:
    for _ in range(3):
        clock.advance(gate.code_wait("10.0.0.5"))
        gate.try_code("10.0.0.5", "0000", CODE)
    clock.advance(3.0)  # 4 s are due after the third wrong code
    reason = gate.try_code("10.0.0.5", CODE, CODE)  # even the right code is not looked at
    assert reason == "too many wrong join codes from this address: try again in 1 s"
    assert gate.code_wait("10.0.0.5") == pytest.approx(1.0)  # and costs nothing more
    clock.advance(1.0)
    assert gate.try_code("10.0.0.5", CODE, CODE) is None
    assert gate.code_wait("10.0.0.5") == 0.0  # the right code wipes the slate clean
    assert gate.try_code("10.0.0.5", "0000", CODE) == "wrong join code (the next try in 1 s)"


def test_an_honest_typo_costs_a_second(gate: Gate, clock: Clock) -> None:
    assert gate.try_code("10.0.0.5", "4712", CODE) is not None
    clock.advance(FIRST_DELAY)
    assert gate.try_code("10.0.0.5", CODE, CODE) is None


def test_no_code_given_is_a_wrong_code(gate: Gate) -> None:
    assert gate.try_code("10.0.0.5", None, CODE) == "wrong join code (the next try in 1 s)"


def test_an_address_is_forgotten_a_day_after_its_last_wrong_code(gate: Gate, clock: Clock) -> None:
    for _ in range(12):
        clock.advance(gate.code_wait("10.0.0.5"))
        gate.try_code("10.0.0.5", "0000", CODE)
    clock.advance(FORGET_AFTER - 1)
    gate.try_code("10.0.0.5", "0000", CODE)
    assert gate.code_wait("10.0.0.5") == MAX_DELAY  # still remembered
    clock.advance(FORGET_AFTER)
    gate.try_code("10.0.0.6", "0000", CODE)
    assert list(gate._records) == ["10.0.0.6"]  # the forgotten take no room
    gate.try_code("10.0.0.5", "0000", CODE)
    assert gate.code_wait("10.0.0.5") == FIRST_DELAY


# -- the whole network -------------------------------------------------------------------


def fill_the_window(gate: Gate, clock: Clock) -> None:
    """THROTTLE_AFTER wrong codes from as many addresses, each on its first try."""
    for n in range(THROTTLE_AFTER):
        assert gate.code_wait(f"10.0.1.{n + 1}") == 0.0
        gate.try_code(f"10.0.1.{n + 1}", "0000", CODE)
        clock.advance(1.0)


def test_the_normal_case_a_newcomer_is_checked_at_once(gate: Gate, clock: Clock) -> None:
    for n in range(THROTTLE_AFTER - 1):  # a few typos here and there
        gate.try_code(f"10.0.1.{n + 1}", "0000", CODE)
    assert gate.code_wait("10.0.2.1") == 0.0
    assert gate.try_code("10.0.2.1", CODE, CODE) is None


def test_once_wrong_codes_pile_up_checks_are_rationed_per_pool(gate: Gate, clock: Clock) -> None:
    fill_the_window(gate, clock)
    # New addresses: one check per CHECK_EVERY, however many addresses there are.
    assert gate.code_wait("10.0.2.1") == pytest.approx(CHECK_EVERY - 1.0)
    reason = gate.try_code("10.0.2.1", CODE, CODE)
    assert reason == "too many wrong join codes from this network: try again in 39 s"
    clock.advance(CHECK_EVERY - 1.0)
    assert gate.try_code("10.0.2.2", "0000", CODE).startswith("wrong join code")
    assert gate.code_wait("10.0.2.3") == CHECK_EVERY
    # Addresses trying again have a pool of their own, rationed alike.
    assert gate.code_wait("10.0.1.1") == 0.0
    assert gate.try_code("10.0.1.1", "0000", CODE).startswith("wrong join code")
    assert gate.code_wait("10.0.1.2") == CHECK_EVERY
    assert gate.code_wait("10.0.2.3") == CHECK_EVERY


def test_a_newcomer_is_not_queued_behind_the_attackers_retries(gate: Gate, clock: Clock) -> None:
    fill_the_window(gate, clock)
    clock.advance(CHECK_EVERY)
    for n in range(5):  # the attacker's known addresses use up their pool
        address = f"10.0.1.{n + 1}"
        clock.advance(gate.code_wait(address))
        assert gate.try_code(address, "0000", CODE).startswith("wrong")
    assert gate.code_wait("10.0.1.9") > 0
    assert gate.code_wait("10.0.3.1") == 0.0  # while a fresh address is checked at once
    assert gate.try_code("10.0.3.1", CODE, CODE) is None


def test_the_ration_ends_when_the_wrong_codes_stop(gate: Gate, clock: Clock) -> None:
    fill_the_window(gate, clock)
    assert gate.code_wait("10.0.2.1") > 0
    clock.advance(THROTTLE_WINDOW)
    assert gate.code_wait("10.0.2.1") == 0.0


def forgotten(gate: Gate, address: str) -> bool:
    gate.code_wait(address)  # (which forgets an address whose day is over)
    return address not in gate._records


def brute_force(gate: Gate, clock: Clock, addresses: list[str], codes: int = 10_000) -> float:
    """Seconds an attacker needs to have ``codes`` codes checked, the right one last, always
    using the address whose turn comes first."""
    start = clock.now
    fresh = list(reversed(addresses))
    known: list[tuple[float, int, str]] = []  # (when its own wait is over, tie, address)
    for tried in range(codes):
        candidates = [(gate.code_wait(fresh[-1]), fresh[-1])] if fresh else []
        while known and forgotten(gate, known[0][2]):
            fresh.append(heapq.heappop(known)[2])  # a day after its last try: new again
        if known:
            candidates.append((gate.code_wait(known[0][2]), known[0][2]))
        wait, address = min(candidates)
        if fresh and address == fresh[-1]:
            fresh.pop()
        else:
            heapq.heappop(known)
        while wait > 0:  # (sums of floats may leave a few picoseconds to wait)
            clock.advance(wait)
            wait = gate.code_wait(address)
        right = tried == codes - 1
        reason = gate.try_code(address, f"{(tried + 4712) % 10_000:04d}", CODE)
        assert reason is None if right else reason.startswith("wrong join code"), reason
        own_wait = delay_after(gate._records[address].failures) if not right else 0.0
        heapq.heappush(known, (clock.now + own_wait, tried, address))
    return clock.now - start


@pytest.mark.slow
def test_trying_all_codes_from_one_address_takes_over_two_months(gate: Gate, clock: Clock) -> None:
    seconds = brute_force(gate, clock, ["10.0.0.66"])
    doubling = sum(FIRST_DELAY * 2**k for k in range(10))  # 1 + 2 + ... + 512 s
    assert seconds == pytest.approx(doubling + (9_999 - 10) * MAX_DELAY)  # as PROTOCOL.md says
    assert seconds >= 60 * DAY


@pytest.mark.slow
@pytest.mark.parametrize("count", [250, 65_536])
def test_trying_all_codes_from_a_subnet_of_aliases_takes_over_a_day(
    gate: Gate, clock: Clock, count: int
) -> None:
    addresses = [f"10.{n // 65_536}.{n // 256 % 256}.{n % 256}" for n in range(count)]
    seconds = brute_force(gate, clock, addresses)
    assert seconds >= DAY
    # However many addresses: after the first THROTTLE_AFTER, two checks per CHECK_EVERY.
    assert seconds >= (10_000 - THROTTLE_AFTER - 2) * CHECK_EVERY / 2


def test_a_subnet_of_aliases_runs_out_of_new_addresses(gate: Gate, clock: Clock) -> None:
    """250 addresses: once each has tried, only the pool of retries is left."""
    seconds = brute_force(gate, clock, [f"10.0.0.{n}" for n in range(1, 251)])
    assert seconds >= 3 * DAY


# -- the notice --------------------------------------------------------------------------


def test_one_summarised_notice_a_minute(gate: Gate, clock: Clock) -> None:
    assert gate.summary() is None
    gate.try_code("10.0.0.5", "1", CODE)
    assert gate.summary() == (
        "1 wrong join code from 1 address: each address waits longer after every wrong code"
    )
    addresses = [f"10.0.0.{n}" for n in range(10, 14)]
    for _ in range(3):
        for address in addresses:
            clock.advance(gate.code_wait(address))
            assert gate.try_code(address, "1", CODE).startswith("wrong join code")
            assert gate.summary() is None  # attempts pile up, the screen is not flooded
    clock.advance(NOTICE_EVERY)
    assert gate.summary() == (
        "12 wrong join codes from 4 addresses: each address waits longer after every wrong code"
    )
    assert gate.summary() is None
    for n in range(8):
        clock.advance(gate.code_wait(f"10.0.1.{n}"))
        assert gate.try_code(f"10.0.1.{n}", "1", CODE).startswith("wrong join code")
    clock.advance(NOTICE_EVERY)
    assert gate.summary() == (
        "8 wrong join codes from 8 addresses: join codes are now checked only every 40 s"
    )
    clock.advance(NOTICE_EVERY)
    assert gate.summary() is None  # nothing new, nothing to say


def test_the_notice_is_in_the_hosts_language(gate: Gate, clock: Clock) -> None:
    for n in range(THROTTLE_AFTER):
        gate.try_code(f"10.0.0.{n % 3}", "1", CODE)
        clock.advance(gate.code_wait(f"10.0.0.{(n + 1) % 3}"))
    try:
        i18n.set_language("it")
        text = gate.summary()
        told: list[str] = []
        loop = asyncio.new_event_loop()
        install_quiet_handler(loop, told.append, clock)
        loop.call_exception_handler(accept_failure(errno.EMFILE))
        loop.close()
    finally:
        i18n.set_language("en")
    assert text == (
        "20 codici di accesso sbagliati da 3 indirizzi: "
        "ora i codici di accesso si controllano solo ogni 40 s"
    )
    assert told == ["Troppe connessioni aperte: per ora le nuove vengono respinte"]


# -- a quiet loop ------------------------------------------------------------------------


def accept_failure(code: int) -> dict:
    return {"message": "socket.accept() out of system resource", "exception": OSError(code, "x")}


def test_a_full_file_table_is_told_once_a_minute_without_tracebacks(
    clock: Clock, caplog: pytest.LogCaptureFixture
) -> None:
    loop = asyncio.new_event_loop()
    told: list[str] = []
    try:
        install_quiet_handler(loop, told.append, clock)
        for _ in range(500):  # what asyncio's accept loop does a few times a second
            loop.call_exception_handler(accept_failure(errno.EMFILE))
        loop.call_exception_handler(accept_failure(errno.ENFILE))
        assert told == ["Too many open connections: new ones are turned away for now"]
        clock.advance(NOTICE_EVERY)
        loop.call_exception_handler(accept_failure(errno.EMFILE))
        assert len(told) == 2
        for error in (ConnectionResetError(), BrokenPipeError(), ConnectionAbortedError(),
                      OSError(errno.ETIMEDOUT, "x")):  # fmt: skip
            loop.call_exception_handler({"message": "Fatal read error", "exception": error})
    finally:
        loop.close()
    assert caplog.records == []


def test_real_bugs_still_reach_the_log(clock: Clock, caplog: pytest.LogCaptureFixture) -> None:
    loop = asyncio.new_event_loop()
    try:
        install_quiet_handler(loop, lambda text: None, clock)
        with caplog.at_level(logging.ERROR, logger="asyncio"):
            loop.call_exception_handler(
                {"message": "Task exception was never retrieved", "exception": KeyError("seat")}
            )
            loop.call_exception_handler(
                {"message": "accept", "exception": OSError(errno.EBADF, "Bad file descriptor")}
            )
    finally:
        loop.close()
    assert [r.exc_info[1].__class__ for r in caplog.records] == [KeyError, OSError]
