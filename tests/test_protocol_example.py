"""docs/PROTOCOL.md's worked example (§12), number for number, computed as a stranger would
from the document alone — BLAKE2b, Ed25519 from PyNaCl, msgpack with sorted keys, big-endian
counters, peer-id order, rejection sampling — then checked against ``net/``: the log built
from the document's formulas is the log the code accepts, and the signed byte strings of §5.2
are the code's."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import msgpack
import pytest
from nacl.signing import SigningKey

from game.rules import new_game
from net import signing
from net.identity import Identity
from net.matchlog import replay

DOC = (Path(__file__).resolve().parent.parent / "docs" / "PROTOCOL.md").read_text()
MATCH = bytes([0x5A]) * 16
NONCES = {"anna join": bytes([0xA0]) * 32, "bert hello": bytes([0xB0]) * 32}
CHALLENGE = bytes([0xC0]) * 32


def h(data: bytes) -> bytes:
    return hashlib.blake2b(data, digest_size=32).digest()


def pack(entry: dict) -> bytes:
    return msgpack.packb(dict(sorted(entry.items())), use_bin_type=True)


def number(value: int) -> bytes:
    return value.to_bytes(8, "big")


class Person:
    """An identity as §5.2 derives it from a secret."""

    def __init__(self, secret: bytes, name: str, addr: str) -> None:
        self.secret, self.name, self.addr = secret, name, addr
        self.seed = h(b"tavolo-sign" + secret)
        self.signer = SigningKey(self.seed)
        self.key = bytes(self.signer.verify_key)
        self.id = h(self.key)[:16].hex()
        grouped = self.id[:12].upper()
        self.fingerprint = "-".join(grouped[i : i + 4] for i in range(0, 12, 4))

    def sign(self, message: bytes) -> bytes:
        return self.signer.sign(message).signature

    def chain(self, length: int = 4096) -> list[bytes]:
        """c_0 … c_L of §7 for the chain from event 1."""
        values = [h(b"tavolo-chain" + self.secret + MATCH + number(1))]
        for _ in range(length):
            values.append(h(values[-1]))
        return values[::-1]


ANNA = Person(bytes([1]) * 32, "Anna", "192.168.1.20:40001")
BERT = Person(bytes([2]) * 32, "Bert", "192.168.1.31:40123")


def join_proof(person: Person, nonce: bytes) -> bytes:
    wish = msgpack.packb([person.name, "player", -1], use_bin_type=True)
    return person.sign(b"tavolo-join\0" + MATCH + ANNA.key + nonce + wish)


class Log:
    """The log of §12, each entry signed by its author and placed by Anna."""

    def __init__(self) -> None:
        self.entries: list[dict] = []
        self.heads: list[bytes] = []
        self.payloads: list[bytes] = []

    def head_of_first(self, count: int) -> bytes:
        return self.heads[count - 1] if count else bytes(16)

    def add(self, author: Person, fields: dict, n: int, at: int) -> None:
        entry = {**fields, "n": n, "at": at}
        payload = b"tavolo-entry\0" + MATCH + number(at) + self.head_of_first(at) + pack(entry)
        entry["sig"] = author.sign(payload)
        previous = self.heads[-1] if self.heads else b""
        head = h(previous + pack(entry))[:16]
        entry["hs"] = ANNA.sign(b"tavolo-order\0" + MATCH + number(len(self.entries)) + head)
        self.entries.append(entry)
        self.heads.append(head)
        self.payloads.append(payload)


def the_log() -> tuple[Log, list[bytes], list[bytes]]:
    log, a, b = Log(), ANNA.chain(), BERT.chain()
    match = {
        "k": "match", "id": MATCH.hex(), "setup": ["numeri", 2, [["first", "lot"]]],
        "seats": ["", ""], "code": False, "host": ANNA.id, "name": "Anna", "chain": 4096,
        "key": ANNA.key,
    }  # fmt: skip
    log.add(ANNA, match, 1, 0)
    for person, nonce, n in ((ANNA, NONCES["anna join"], 2), (BERT, CHALLENGE, 3)):
        join = {
            "k": "join", "peer": person.id, "key": person.key, "addr": person.addr,
            "nonce": nonce, "name": person.name, "role": "player", "seat": -1,
            "proof": join_proof(person, nonce),
        }  # fmt: skip
        log.add(ANNA, join, n, n - 1)
    log.add(BERT, {"k": "ready", "peer": BERT.id, "ready": True}, 1, 3)
    log.add(ANNA, {"k": "start", "peer": ANNA.id}, 4, 4)
    log.add(ANNA, {"k": "commit", "peer": ANNA.id, "first": 1, "c": a[0]}, 5, 5)
    log.add(BERT, {"k": "commit", "peer": BERT.id, "first": 1, "c": b[0]}, 2, 5)
    log.add(ANNA, {"k": "reveal", "peer": ANNA.id, "event": 1, "v": a[1]}, 6, 7)
    log.add(BERT, {"k": "reveal", "peer": BERT.id, "event": 1, "v": b[1]}, 3, 7)
    return log, a, b


def test_identities_and_the_handshake_follow_from_the_document() -> None:
    for person in (ANNA, BERT):
        for value in (person.seed.hex(), person.key.hex(), person.id, person.fingerprint):
            assert value in DOC
        mine = Identity(person.secret)
        assert (mine.key, mine.peer) == (person.key, person.id)
        assert mine.fingerprint == person.fingerprint
    challenge = ANNA.sign(b"tavolo-host\0" + MATCH + BERT.key + NONCES["bert hello"])
    assert f"challenge.sig {challenge.hex()}" in DOC
    assert f"proof         {join_proof(BERT, CHALLENGE).hex()}" in DOC
    spaced = "93 a4 42657274 a6 706c61796572 ff"  # as §12 annotates the packed wish
    assert spaced in DOC
    assert msgpack.packb(["Bert", "player", -1], use_bin_type=True).hex() == spaced.replace(" ", "")


def test_every_head_of_the_log_is_in_the_document_and_the_code_accepts_the_log() -> None:
    log, _, _ = the_log()
    for position, head in enumerate(log.heads):
        assert f"| {position} | `{log.entries[position]['k']}` " in DOC
        assert f"`{head.hex()}` |" in DOC
    accepted = replay([dict(entry) for entry in log.entries])
    assert accepted.heads == [head.hex() for head in log.heads]
    assert accepted.seat_of(ANNA.id) == 0 and accepted.seat_of(BERT.id) == 1


def test_the_signed_request_is_in_the_document_byte_for_byte() -> None:
    log, _, _ = the_log()
    ready, payload = log.entries[3], log.payloads[3]
    pieces = [
        b"tavolo-entry\0".hex(), MATCH.hex(), number(3).hex(), log.heads[2].hex(),
        pack({k: v for k, v in ready.items() if k not in ("sig", "hs")}).hex(),
    ]  # fmt: skip
    assert "".join(pieces) == payload.hex()
    for piece in pieces:  # each begins a line of its own, annotated
        assert re.search(rf"^{piece}(\s|$)", DOC, re.MULTILINE), piece
    assert f"What B signs, {len(payload)} bytes" in DOC
    assert f"sig  {ready['sig'].hex()}" in DOC
    assert f"hs   {ready['hs'].hex()}" in DOC
    order = [b"tavolo-order\0".hex(), MATCH.hex(), number(3).hex(), log.heads[3].hex()]
    assert all(piece in DOC for piece in order)
    assert signing.entry_payload(MATCH.hex(), 3, log.heads[2], ready) == payload


def test_the_lot_follows_from_the_document_and_matches_the_code() -> None:
    log, a, b = the_log()
    for person, chain in ((ANNA, a), (BERT, b)):
        assert h(chain[1]) == chain[0]
        assert f"commits c0 = {chain[0].hex()}" in DOC
        assert f"reveals c1 = {chain[1].hex()}" in DOC
        assert Identity(person.secret).chain(MATCH.hex(), 1, 4096).commitment == chain[0]
    ordered = [value for _, value in sorted([(ANNA.id, a[1]), (BERT.id, b[1])])]
    assert ordered == [b[1], a[1]]  # 0e0c… < aecb…: Bert's value first
    randomness = h(b"tavolo-dice" + number(1) + b"".join(ordered))
    assert f"   = {randomness.hex()}" in DOC
    block = h(randomness + number(0))
    x = int.from_bytes(block[:8], "big")
    assert f"B0 = H(R ‖ 0000000000000000) = {block[:8].hex()}…" in DOC
    assert f"x = 0x{block[:8].hex()} = {x}" in DOC
    limit = (2**64 // 2) * 2
    assert x < limit
    lot = new_game("numeri", players=2)
    outcomes = [(lot.action_to_str(o), p) for o, p in lot.chance_outcomes()]
    assert [(name, str(p)) for name, p in outcomes] == [("first1", "1/2"), ("first2", "1/2")]
    expected = outcomes[x % 2][0]
    assert f"u = x mod 2 = {x % 2}  →  {expected}" in DOC
    accepted = replay([dict(entry) for entry in log.entries])
    assert [roll.outcome for roll in accepted.rolls] == [expected] == ["first2"]


@pytest.mark.parametrize(
    ("name", "ours", "theirs"),
    [
        (
            "order",
            b"tavolo-order\0" + MATCH + number(7) + bytes(range(16)),
            lambda: signing.order_payload(MATCH.hex(), 7, bytes(range(16))),
        ),
        (
            "join",
            b"tavolo-join\0" + MATCH + ANNA.key + CHALLENGE
            + msgpack.packb(["Bert", "spectator", 2], use_bin_type=True),
            lambda: signing.join_payload(MATCH.hex(), ANNA.key, CHALLENGE, "Bert", "spectator", 2),
        ),
        (
            "host",
            b"tavolo-host\0" + MATCH + BERT.key + NONCES["bert hello"],
            lambda: signing.host_payload(MATCH.hex(), BERT.key, NONCES["bert hello"]),
        ),
        (
            "vote",
            b"tavolo-vote\0" + MATCH + bytes.fromhex(ANNA.id) + bytes.fromhex(BERT.id)
            + number(9) + bytes(range(16)),
            lambda: signing.vote_payload(MATCH.hex(), ANNA.id, BERT.id, 9, bytes(range(16))),
        ),
    ],
)  # fmt: skip
def test_every_signed_byte_string_is_the_documents(name: str, ours: bytes, theirs) -> None:
    """§5.2's table, row by row, against net/signing.py (the entry row is checked above)."""
    label = ours.split(b"\0")[0].decode()
    assert f'`"{label}\\0"`' in DOC
    assert f"| *{name}* |" in DOC
    assert theirs() == ours
