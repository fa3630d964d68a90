"""docs/PROTOCOL.md's worked dice example, number for number, computed as a stranger would
from the document: BLAKE2b, big-endian counters, peer-id order, rejection sampling."""

from __future__ import annotations

import hashlib
from pathlib import Path

from game.rules import new_game
from net.fairdice import pick
from net.identity import Identity

MATCH = "5a" * 16
DOC = (Path(__file__).resolve().parent.parent / "docs" / "PROTOCOL.md").read_text()


def h(data: bytes) -> bytes:
    return hashlib.blake2b(data, digest_size=32).digest()


def by_the_document(secret: bytes) -> tuple[str, bytes, bytes]:
    """Peer id, commitment and event-1 value derived with the document's formulas only."""
    key = h(b"tavolo-key" + secret)
    seed = h(b"tavolo-chain" + secret + bytes.fromhex(MATCH) + (1).to_bytes(8, "big"))
    chain = [seed]
    for _ in range(4096):
        chain.append(h(chain[-1]))
    chain.reverse()  # chain[i] is c_i
    return h(key)[:16].hex(), chain[0], chain[1]


def test_the_worked_example_follows_from_the_document_and_matches_the_code() -> None:
    a_id, a_commit, a_value = by_the_document(bytes([1]) * 32)
    b_id, b_commit, b_value = by_the_document(bytes([2]) * 32)
    for number in (a_id, b_id, a_commit.hex(), b_commit.hex(), a_value.hex(), b_value.hex()):
        assert number in DOC
    assert Identity(bytes([1]) * 32).peer == a_id
    assert Identity(bytes([1]) * 32).chain(MATCH, 1, 4096).commitment == a_commit
    ordered = [v for _, v in sorted([(a_id, a_value), (b_id, b_value)])]
    randomness = h(b"tavolo-dice" + (1).to_bytes(8, "big") + b"".join(ordered))
    assert randomness.hex() in DOC
    block = h(randomness + (0).to_bytes(8, "big"))
    x = int.from_bytes(block[:8], "big")
    assert str(x) in DOC and x < (2**64 // 2) * 2
    lot = new_game("numeri", players=2)
    outcome = pick(randomness, lot.chance_outcomes())
    assert lot.action_to_str(outcome) == ("first2" if x % 2 else "first1") == "first2"
