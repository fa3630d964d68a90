"""Who may talk to a host before proving who they are: the limits that hold under abuse.

A host meets strangers: connections that have not yet finished the handshake.  The
:class:`Gate` keeps them in bounds — so many at once in all and from one address, the
oldest turned away when a newcomer needs the room — and rations join-code checks, so a
four-digit code cannot be found by trying them all.  Each address waits longer after each
wrong code, and once wrong codes pile up on the whole network each pool of addresses (those
trying for the first time, those trying again) gets one check per :data:`CHECK_EVERY`
seconds, however many addresses an attacker takes.  The host's screen hears of it in one
summarised notice a minute, never one line per attempt.  :func:`install_quiet_handler` keeps
the noise of a busy network (a full file table, connections reset) from filling stderr with
tracebacks while real bugs stay visible.

Every time comes from the clock the gate is given, so tests need no sleeping.  The numbers
and the arithmetic of a brute force are in ``docs/PROTOCOL.md`` ("Limits under abuse").
"""

from __future__ import annotations

import asyncio
import errno
import hmac
import ipaddress
import math
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from game.i18n import _, ngettext

MAX_STRANGERS = 64
"""Connections at most that have not finished the handshake (a match's 4 players and 32
spectators all reconnecting after a host change fit with room to spare)."""
MAX_STRANGERS_PER_ADDRESS = 8
"""The same from one address (one computer may run a few peers; filling the gate then
takes at least eight addresses)."""
FIRST_DELAY = 1.0
"""Seconds an address waits after its first wrong code; each further one doubles it..."""
MAX_DELAY = 600.0
"""... up to this."""
FORGET_AFTER = 86_400.0
"""Seconds after its last wrong code that an address counts as new again."""
THROTTLE_AFTER = 20
"""Wrong codes within :data:`THROTTLE_WINDOW` from which every check is rationed..."""
THROTTLE_WINDOW = 600.0
CHECK_EVERY = 40.0
"""... to one per this many seconds for new addresses, and one for addresses trying again."""
NOTICE_EVERY = 60.0
"""Seconds at least between two notices on the host's screen."""
SHORTAGE = {errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM}
"""What ``accept()`` fails with when the process or the system is out of room."""
LINE_NOISE = {errno.ETIMEDOUT, errno.EHOSTUNREACH, errno.ENETUNREACH, errno.ENOTCONN}
"""Socket errors that say a line went bad, beside :class:`ConnectionError`'s."""


def address_key(address: str) -> str:
    """Whom ``address`` belongs to: an IPv4 address, or an IPv6 /64 (one host's share)."""
    try:
        ip = ipaddress.ip_address(address.split("%")[0])
    except ValueError:
        return address
    if ip.version == 6:
        mapped = ip.ipv4_mapped
        if mapped is not None:
            return str(mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


class Slot:
    """A stranger's place at the gate, held until the handshake ends one way or another."""

    def __init__(self, gate: Gate, key: str, evict: Callable[[], object]) -> None:
        self._gate, self.key, self._evict = gate, key, evict

    def release(self) -> None:
        """Give the place back (the stranger is in, or gone); later calls do nothing."""
        self._gate._free(self)


@dataclass
class _Record:
    """An address's wrong codes."""

    failures: int = 0
    last: float = 0.0
    """When its last wrong code was checked."""


class Gate:
    """The host's door: strangers' places and the ration of join-code checks."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._slots: OrderedDict[Slot, None] = OrderedDict()
        self._per_key: dict[str, int] = {}
        self._records: dict[str, _Record] = {}
        self._wrong: deque[float] = deque()
        """When each wrong code of the last :data:`THROTTLE_WINDOW` was checked."""
        self._last_check = {True: -float("inf"), False: -float("inf")}
        """When a code was last checked for a new address (True) and a known one (False)."""
        self._unreported = 0
        self._unreported_from: set[str] = set()
        self._last_notice = -float("inf")

    # -- strangers -----------------------------------------------------------------------

    def admit(self, address: str, evict: Callable[[], object]) -> Slot | None:
        """A place for a new connection from ``address``, or None when its address has
        :data:`MAX_STRANGERS_PER_ADDRESS` already.  When all :data:`MAX_STRANGERS` places are
        taken, the oldest stranger's ``evict`` is called and its place given over: to keep
        honest newcomers out, an attacker would have to fill the gate faster than they
        finish a handshake, not merely keep it full."""
        key = address_key(address)
        if self._per_key.get(key, 0) >= MAX_STRANGERS_PER_ADDRESS:
            return None
        if len(self._slots) >= MAX_STRANGERS:
            oldest = next(iter(self._slots))
            self._free(oldest)
            oldest._evict()
        slot = Slot(self, key, evict)
        self._slots[slot] = None
        self._per_key[key] = self._per_key.get(key, 0) + 1
        return slot

    def _free(self, slot: Slot) -> None:
        if slot not in self._slots:
            return
        del self._slots[slot]
        left = self._per_key[slot.key] - 1
        if left:
            self._per_key[slot.key] = left
        else:
            del self._per_key[slot.key]

    # -- join codes ----------------------------------------------------------------------

    def code_wait(self, address: str) -> float:
        """Seconds before a join code from ``address`` may be checked (0: now)."""
        now = self._clock()
        record = self._record(address_key(address), now)
        wait = 0.0
        if record is not None:
            wait = record.last + delay_after(record.failures) - now
        if self._throttled(now):
            wait = max(wait, self._last_check[record is None] + CHECK_EVERY - now)
        return max(0.0, wait)

    def try_code(self, address: str, given: str | None, code: str) -> str | None:
        """Check the join code ``given`` from ``address`` against ``code`` if its turn has
        come: None when right, else why the newcomer is refused (a code that came too early
        is refused unchecked, so it tells nothing)."""
        wait = self.code_wait(address)
        key = address_key(address)
        if wait > 0:
            where = "this address" if key in self._records else "this network"
            return f"too many wrong join codes from {where}: try again in {_seconds(wait)}"
        now = self._clock()
        new = self._record(key, now) is None
        self._last_check[new] = now
        if given is not None and hmac.compare_digest(given.encode(), code.encode()):
            self._records.pop(key, None)
            return None
        record = self._records.pop(key, None) or _Record()
        record.failures += 1
        record.last = now
        self._records[key] = record  # kept in the order of their last wrong code
        self._forget(now)
        self._wrong.append(now)
        self._unreported += 1
        self._unreported_from.add(key)
        return f"wrong join code (the next try in {_seconds(self.code_wait(address))})"

    def _record(self, key: str, now: float) -> _Record | None:
        record = self._records.get(key)
        if record is not None and now - record.last >= FORGET_AFTER:
            del self._records[key]
            return None
        return record

    def _forget(self, now: float) -> None:
        """Drop the records of addresses quiet for :data:`FORGET_AFTER` seconds."""
        for key, record in list(self._records.items()):
            if now - record.last < FORGET_AFTER:
                break
            del self._records[key]

    def _throttled(self, now: float) -> bool:
        while self._wrong and self._wrong[0] <= now - THROTTLE_WINDOW:
            self._wrong.popleft()
        return len(self._wrong) >= THROTTLE_AFTER

    # -- the host's screen ---------------------------------------------------------------

    def summary(self) -> str | None:
        """The notice for the host's screen, if one is due: the wrong codes since the last
        notice, at most one notice per :data:`NOTICE_EVERY` seconds.  Call it after each
        wrong code and from time to time, so the last of a burst is told too."""
        now = self._clock()
        if not self._unreported or now - self._last_notice < NOTICE_EVERY:
            return None
        codes, addresses = self._unreported, len(self._unreported_from)
        self._unreported = 0
        self._unreported_from.clear()
        self._last_notice = now
        fields = {
            "codes": ngettext("{n} wrong join code", "{n} wrong join codes", codes).format(n=codes),
            "addresses": ngettext("{n} address", "{n} addresses", addresses).format(n=addresses),
        }
        if self._throttled(now):
            text = _("{codes} from {addresses}: join codes are now checked only every {seconds} s")
            return text.format(**fields, seconds=round(CHECK_EVERY))
        text = _("{codes} from {addresses}: each address waits longer after every wrong code")
        return text.format(**fields)


def delay_after(failures: int) -> float:
    """Seconds an address waits after its ``failures``-th wrong code in a row."""
    if failures <= 0:
        return 0.0
    return min(MAX_DELAY, FIRST_DELAY * 2.0 ** min(failures - 1, 64))


def _seconds(wait: float) -> str:
    whole = max(1, math.ceil(wait))
    return f"{whole} s" if whole < 120 else f"{math.ceil(whole / 60)} min"


def _accept_retry_after_close(context: dict[str, Any]) -> bool:
    """asyncio's retry of ``accept()`` after a shortage, run once the server has closed:
    its socket is gone (``Invalid file descriptor: -1``).  After a flood, every pending retry
    fires at the end of the match; nothing is wrong, and each would print a traceback."""
    error, handle = context.get("exception"), context.get("handle")
    return (
        isinstance(error, ValueError)
        and "Invalid file descriptor" in str(error)
        and "_start_serving" in repr(handle)
    )


def install_quiet_handler(
    loop: asyncio.AbstractEventLoop,
    report: Callable[[str], None],
    clock: Callable[[], float] = time.monotonic,
) -> None:
    """Make ``loop`` quiet about a busy network: ``accept()`` out of file descriptors or
    buffers is told to ``report`` once per :data:`NOTICE_EVERY` seconds (asyncio would log
    a traceback for every try, hundreds a second); connections reset or aborted are
    dropped silently; everything else goes to the default handler, real bugs included."""
    last = [-float("inf")]

    def handle(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        error = context.get("exception")
        if isinstance(error, OSError) and error.errno in SHORTAGE:
            now = clock()
            if now - last[0] >= NOTICE_EVERY:
                last[0] = now
                report(_("Too many open connections: new ones are turned away for now"))
            return
        if isinstance(error, ConnectionError) or (
            isinstance(error, OSError) and error.errno in LINE_NOISE
        ):
            return
        if _accept_retry_after_close(context):
            return
        loop.default_exception_handler(context)

    loop.set_exception_handler(handle)
