"""A host that shows two guests two different matches, played live over loopback: both
guests catch it through each other's signed heads (docs/PROTOCOL.md §6.7), stop, and keep
the proof; ``python -m net verify`` names the fork.  And the witnesses' port, played by an
outsider: forged heads, other matches, junk and floods change nothing.

Three peers in one process, each on its own sockets: the host and the guests Anna and
Bert, all people (nobody decides, so the match waits at the first turn after the lot and
the die: mid-match, and still)."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import time
from pathlib import Path
from typing import Any

import msgpack
import pytest

from game.rules import variant
from net import records
from net.__main__ import main
from net.identity import Identity
from net.matchlog import placed, replay, signed
from net.peer import Peer, PeerConfig
from net.witness import EVERY, Head, head_at

LOOPBACK = "127.0.0.1"


def _config(name: str) -> PeerConfig:
    return PeerConfig(name, interface=LOOPBACK, autostart=True, drop_timeout=600.0)


class Seen:
    """What a peer told its observer, with when."""

    def __init__(self) -> None:
        self.events: list[tuple[float, str, dict[str, Any]]] = []

    def __call__(self, kind: str, data: dict[str, Any]) -> None:
        self.events.append((time.monotonic(), kind, data))

    def first(self, kind: str) -> tuple[float, dict[str, Any]] | None:
        return next(((at, data) for at, k, data in self.events if k == kind), None)


async def _until(condition, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.02)


async def _mid_match() -> tuple[Peer, Peer, Peer, Seen, Seen]:
    """Host, Anna and Bert at the first person's turn of a Numeri match of three."""
    host = Peer(Identity.fresh(), _config("host"))
    seen_a, seen_b = Seen(), Seen()
    anna = Peer(Identity.fresh(), _config("anna"), seen_a)
    bert = Peer(Identity.fresh(), _config("bert"), seen_b)
    port = await host.host(variant("numeri", 3))
    await anna.join(LOOPBACK, port)
    await bert.join(LOOPBACK, port)
    peers = (host, anna, bert)

    def waiting() -> bool:
        logs = [p.log for p in peers]
        return (
            all(log is not None and log.phase == "playing" for log in logs)
            and logs[0] is not None
            and logs[0].state.to_move >= 0
            and len({len(log) for log in logs if log is not None}) == 1
        )

    await _until(waiting)
    await asyncio.sleep(2 * EVERY)  # witnesses have compared the honest heads meanwhile
    return host, anna, bert, seen_a, seen_b


def _fork(host: Peer, anna: Peer, bert: Peer) -> int:
    """The dishonest host: tells Anna that Bert left and Bert that Anna left — two entries
    at one position, each signed and placed by the host, each valid in its own log — and
    from then on relays its own branch to Anna only.  Returns the position."""
    log = host.log
    assert log is not None
    twin = replay(list(log.entries))  # Bert's branch
    line_to_bert = host.host_side.clients.pop(bert.me)  # Bert hears no more of the host's branch
    seq = len(log)
    number = host._n + 1
    leave = {"k": "leave", "peer": anna.me, "reason": "connection lost"}
    told_bert = placed(twin, host.identity, signed(twin, host.identity, leave, number))
    twin.apply(told_bert)
    host._make({"k": "leave", "peer": bert.me, "reason": "connection lost"})  # to Anna
    line_to_bert.send({"t": "entry", "seq": seq, "e": told_bert})
    return seq


@pytest.mark.slow
def test_a_host_that_shows_two_guests_two_matches_is_caught_by_both(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    async def scenario() -> tuple[int, float, float, list[Peer]]:
        host, anna, bert, seen_a, seen_b = await _mid_match()
        assert seen_a.first("fork") is None and seen_b.first("fork") is None  # honest so far
        try:
            seq = _fork(host, anna, bert)
            forked_at = time.monotonic()
            await _until(lambda: anna.finished.is_set() and bert.finished.is_set(), 10.0)
            took = []
            for peer, seen in ((anna, seen_a), (bert, seen_b)):
                fork = seen.first("fork")
                assert fork is not None, f"{peer.config.name} did not catch the fork"
                at, data = fork
                assert data["entry"] == seq + 1
                assert data["key"] == host.identity.fingerprint
                took.append(at - forked_at)
                assert peer.failure is not None and "different match" in peer.failure
                assert peer.log is not None and len(peer.log) == seq + 1  # nothing after it
            return seq, took[0], took[1], [anna, bert]
        finally:
            for peer in (host, anna, bert):
                await peer.close()

    seq, anna_took, bert_took, (anna, bert) = asyncio.run(asyncio.wait_for(scenario(), 60))
    print(f"fork at entry {seq + 1}: Anna caught it in {anna_took * 1000:.0f} ms, "
          f"Bert in {bert_took * 1000:.0f} ms")  # fmt: skip
    # The promise is a second; a loaded two-core machine gets three before this flakes.
    # Deterministically: each caught it from the other's first head after the fork
    # (sent SOON after the entry, then every EVERY seconds), not from a later exchange.
    assert max(anna_took, bert_took) < 3.0
    for peer, other in ((anna, bert), (bert, anna)):  # each from the other's head
        assert peer.witness.proof is not None and other.log is not None
        assert peer.witness.proof.theirs.head == other.log.heads[seq]
    a, b = tmp_path / "anna.tavolo-net", tmp_path / "bert.tavolo-net"
    for path, peer in ((a, anna), (b, bert)):
        assert peer.log is not None and peer.witness.proof is not None
        records.save(path, peer.log, peer.witness.proof.to_record())
    capsys.readouterr()
    for path in (a, b):
        assert main(["verify", str(path)]) == 1
        out = capsys.readouterr().out
        assert f"signed two different logs at entry {seq + 1}" in out
    assert main(["verify", str(a), str(b)]) == 1
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert f"a fork at entry {seq + 1}" in last
    assert f"{a} holds" in last and f"{b} holds" in last
    with capsys.disabled():
        print(f"\n  fork detection: Anna {anna_took * 1000:.0f} ms, Bert {bert_took * 1000:.0f} ms")


def _send(port: int, datagrams: list[bytes]) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as outsider:
        for datagram in datagrams:
            with contextlib.suppress(OSError):  # a datagram too long for the socket: fine
                outsider.sendto(datagram, (LOOPBACK, port))


@pytest.mark.slow
def test_an_outsiders_heads_change_nothing_and_an_honest_match_is_never_forked() -> None:
    """Forged signatures, another match's heads, a real head moved to another position,
    junk and a flood, sent to Anna's port: nothing is found, nothing breaks, and the match
    still follows its host; nor does any honest peer ever see a fork."""

    async def scenario() -> None:
        host, anna, bert, seen_a, seen_b = await _mid_match()
        try:
            log = anna.log
            assert log is not None
            real = head_at(log, len(log) - 1)
            earlier = head_at(log, len(log) - 2)
            stranger = Identity.fresh().sign(b"x" * 40)

            def datagram(seen: Head, match: str = log.match_id, **changes: Any) -> bytes:
                return msgpack.packb({**seen.message(match), **changes}, use_bin_type=True)

            forged = [
                datagram(Head(real.seq, "ab" * 16, real.hs, real.since, real.root)),
                datagram(Head(real.seq, earlier.head, earlier.hs, real.since, real.root)),
                datagram(Head(real.seq, real.head, bytes(64), real.since, real.root)),
                datagram(Head(real.seq, "cd" * 16, stranger, real.since, real.root)),
                datagram(real, match="ab" * 16, head="ef" * 16),
                datagram(Head(real.seq + 50, "ab" * 16, real.hs, 0, real.root)),
                b"\x00" * 60_000,
                b"\xc1" * 100,
                msgpack.packb({"t": "heads"}),
                msgpack.packb({"t": "heads", "match": log.match_id, "seq": 2**40}),
            ]
            _send(anna.listen_port, forged + forged[:1] * 3000)
            await asyncio.sleep(3 * EVERY)
            assert seen_a.first("fork") is None and anna.failure is None
            before = len(log)
            anna.request({"k": "offer", "ply": log.ply})  # anything the host logs: Numeri
            await asyncio.sleep(0.3)  # has no draws, so it is refused and answered
            assert anna.log is not None and len(anna.log) >= before
            assert any(k == "rejected" for _, k, _ in seen_a.events)  # the host still answers
            for seen in (seen_a, seen_b):
                assert seen.first("fork") is None and seen.first("error") is None
        finally:
            for peer in (host, anna, bert):
                await peer.close()

    asyncio.run(asyncio.wait_for(scenario(), 60))


def test_the_match_screen_stops_and_says_the_host_showed_another_match(tmp_path: Path) -> None:
    """The link turns a peer's ``fork`` into a stopped match; the match screen says plainly
    what happened (through the catalogue), takes no decision and offers no hand-over."""
    from types import SimpleNamespace

    from game.client.net_control import NetControl
    from net.link import LinkView, NetLink, SeatView

    link = NetLink(Identity.fresh(), _config("carla"), advertise=False)
    try:
        link._observe("fork", {"entry": 12, "text": "…"})
        assert link.view().fork == 12 and link.view().paused
    finally:
        link.close()
    seats = (SeatView("carla", "c", "", True, True), SeatView("anna", "a", "", True, True))
    view = LinkView("playing", variant("dama"), my_seat=0, seats=seats, paused=True, fork=12)
    peer = SimpleNamespace(log=None, witness=SimpleNamespace(proof=None))
    fake = SimpleNamespace(view=lambda: view, peer=peer, decide=lambda text: None)
    control = NetControl(SimpleNamespace(paths=SimpleNamespace(data=tmp_path)), fake)
    control.update(0.0, True)
    assert control.status() == "Stopped: the host showed two different matches"
    assert control.notices()[0] == (
        "The host showed another player a different match at entry 12. The match is "
        "stopped: it cannot be trusted. Both records hold the proof."
    )
    assert control.pending and not control.can_resign()  # no move offered, no resigning
    assert not control.decide(control.match.state.legal_actions()[0])
    assert control.controls() == []
