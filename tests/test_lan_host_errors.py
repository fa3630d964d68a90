"""A host's own error while it serves a line ends that line with a word, never silently:
the guest hears why, rejoins, and the match goes on."""

from __future__ import annotations

import asyncio
import time

import pytest

from game.rules import variant
from net.identity import Identity
from net.peer import Peer, PeerConfig

LOOPBACK = "127.0.0.1"


async def _until(condition, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.02)


@pytest.mark.slow
@pytest.mark.parametrize("error", [ConnectionResetError, KeyError])
def test_a_host_that_fails_on_a_request_hangs_up_and_the_guest_rejoins(
    error: type[Exception],
) -> None:
    async def scenario() -> None:
        host = Peer(Identity.fresh(), PeerConfig("host", interface=LOOPBACK, autostart=True))
        seen: list[str] = []
        told: list[str] = []

        def observe(kind: str, data: dict) -> None:
            seen.append(kind)
            told.append(str(data.get("text", "")))

        anna = Peer(
            Identity.fresh(), PeerConfig("anna", interface=LOOPBACK, autostart=True), observe
        )
        serve = host.host_side.handle_request
        failed: list[str] = []

        def fails_once(member, entry, connection) -> None:
            if member == anna.me and not failed:
                failed.append(entry["k"])
                raise error("a bug of the host's")
            serve(member, entry, connection)

        host.host_side.handle_request = fails_once  # type: ignore[method-assign]
        loop = asyncio.get_running_loop()
        loop.set_exception_handler(lambda loop, context: None)  # the bug, reported elsewhere
        try:
            port = await host.host(variant("dama"))
            await anna.join(LOOPBACK, port)
            await _until(lambda: bool(failed))  # her first request met the host's bug
            await _until(lambda: "rejoined" in seen)  # the line was hung up, not left silent
            assert "lost the host: the host stopped serving this line" in told  # and why
            await _until(lambda: anna.me in host.host_side.clients)
            host.request({"k": "coach", "allow": True})  # the host's next entry reaches her
            await _until(lambda: len(anna.log or ()) == len(host.log or ()))
        finally:
            for peer in (anna, host):
                await peer.close()

    asyncio.run(asyncio.wait_for(scenario(), 60))
