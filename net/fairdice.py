"""Fair dice for peers who do not trust each other: commit, reveal, combine, map exactly.

**Commit.** Each peer picks a secret 32-byte seed ``s`` and hashes it ``n`` times:
``c_n = s``, ``c_{i-1} = H(c_i)``.  At the start of the match it announces ``c_0`` (the
*commitment*) — which fixes every value it will ever reveal, but shows none of them.

**Reveal.** For chance event ``k`` (1, 2, …) every peer reveals ``c_k``; anyone checks
``H(c_k) = c_{k-1}``.  A peer can delay or refuse, but never choose its value: it was fixed
before the first die was cast.

**Combine.** The event's randomness is ``R = H("tavolo-dice" ‖ k ‖ reveals in peer order)``:
unpredictable unless *every* peer's value is known, so no peer — the host included — can
foresee or bias a die.

**Map.** The outcomes of a chance event have exact rational probabilities ``a_i / D``.  From
``R`` a stream of 64-bit numbers is drawn (``H(R ‖ j)``); the first one below the largest
multiple of ``D`` under ``2**64`` gives ``u = x mod D``, uniform on ``0 … D-1`` without any
bias; the outcome is the one whose cumulative range contains ``u``.

``H`` is BLAKE2b with 32-byte digests; numbers are big-endian.  docs/PROTOCOL.md repeats
this to the byte.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass, field
from fractions import Fraction

from game.rules import RulesError
from game.rules.chance import common_denominator, outcome_at

DIGEST = 32
DOMAIN = b"tavolo-dice"
CHAIN_LENGTH = 4096
"""Chance events one commitment covers; a longer match commits again."""


class DiceError(ValueError):
    """A reveal or commitment that does not check out."""


def digest(data: bytes) -> bytes:
    return hashlib.blake2b(data, digest_size=DIGEST).digest()


@dataclass
class HashChain:
    """One peer's secret chain: it reveals ``values[1]``, ``values[2]``, … in turn."""

    seed: bytes = field(default_factory=lambda: secrets.token_bytes(DIGEST))
    length: int = CHAIN_LENGTH
    values: list[bytes] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if len(self.seed) != DIGEST:
            raise DiceError(f"a chain seed has {DIGEST} bytes")
        chain = [self.seed]
        for _ in range(self.length):
            chain.append(digest(chain[-1]))
        self.values = chain[::-1]  # values[0] is the commitment, values[length] the seed

    @property
    def commitment(self) -> bytes:
        return self.values[0]

    def reveal(self, event: int) -> bytes:
        """The value for chance event ``event`` (from 1)."""
        if not 1 <= event <= self.length:
            raise DiceError(f"this chain covers events 1 to {self.length}, not {event}")
        return self.values[event]


def check_reveal(previous: bytes, revealed: bytes, steps: int = 1) -> None:
    """Raise :class:`DiceError` unless ``revealed`` hashed ``steps`` times is ``previous``:
    the value of the event ``steps`` after the one ``previous`` was revealed for (or
    committed before), the events between skipped by a peer not in their groups."""
    if steps < 1:
        raise DiceError("a reveal is for an event after the one it is checked against")
    check = revealed
    for _ in range(steps):
        check = digest(check)
    if len(revealed) != DIGEST or check != previous:
        raise DiceError("the revealed value does not hash to the previous one")


def combine(event: int, reveals: list[bytes]) -> bytes:
    """The randomness of chance event ``event`` from every peer's reveal, in peer order."""
    if not reveals or any(len(r) != DIGEST for r in reveals):
        raise DiceError(f"reveals are {DIGEST}-byte values, one per peer")
    return digest(DOMAIN + event.to_bytes(8, "big") + b"".join(reveals))


def uniform(randomness: bytes, bound: int) -> int:
    """An exactly uniform whole number in ``0 … bound-1`` drawn from ``randomness``."""
    if bound < 1:
        raise DiceError("the bound must be positive")
    limit = (1 << 64) // bound * bound
    counter = 0
    while True:
        block = digest(randomness + counter.to_bytes(8, "big"))
        for start in range(0, DIGEST, 8):
            x = int.from_bytes(block[start : start + 8], "big")
            if x < limit:
                return x % bound
        counter += 1


def pick(randomness: bytes, outcomes: list[tuple[int, Fraction]]) -> int:
    """The outcome ``randomness`` selects, each exactly with its probability."""
    try:
        denominator = common_denominator(outcomes)
        return outcome_at(outcomes, uniform(randomness, denominator), denominator)
    except RulesError as error:
        raise DiceError(str(error)) from error
