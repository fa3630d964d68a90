"""An outsider on the LAN that re-announces a real match under the real host's key, pointing
at itself, and plays the host there, for the discovery tests:

    python -m tests.mdns_impostor INTERFACE MATCH_ID HOST_NAME KEY_HEX

It listens on ``INTERFACE``, announces ``HOST_NAME``'s match ``MATCH_ID`` under the key
``KEY_HEX`` (which it does not hold) at that port, and answers every hello with a challenge
under that key, signed by a key of its own.  Prints ``ready`` once announced, then one line
per message it hears (``repr``), so the test can see whether a join code ever came.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import sys

from zeroconf import IPVersion
from zeroconf.asyncio import AsyncServiceInfo, AsyncZeroconf

from net.connection import Closed, Connection
from net.discovery import SERVICE
from net.identity import Identity
from net.signing import host_payload
from tests.mdns_spoofer import record

MALLORY = Identity.fresh()


async def serve(claimed: bytes, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    connection = Connection(reader, writer)
    with contextlib.suppress(Closed):
        while True:
            message = await connection.receive(30)
            print(repr(message), flush=True)
            if message["t"] == "hello":
                sig = MALLORY.sign(host_payload("cd" * 16, message["key"], message["nonce"]))
                connection.send(
                    {"t": "challenge", "match": "cd" * 16, "key": claimed,
                     "nonce": bytes(32), "sig": sig}
                )  # fmt: skip


async def impersonate(interface: str, match: str, host: str, key: str) -> None:
    claimed = bytes.fromhex(key)
    server = await asyncio.start_server(lambda r, w: serve(claimed, r, w), interface, 0)
    port = server.sockets[0].getsockname()[1]
    zc = AsyncZeroconf(interfaces=[interface], ip_version=IPVersion.V4Only)
    info = AsyncServiceInfo(
        SERVICE, f"{host} {match[:6]} again.{SERVICE}", addresses=[socket.inet_aton(interface)],
        port=port, properties=record(host, "lobby", 1, match, key), server="impostor.local.",
    )  # fmt: skip
    await (await zc.async_register_service(info, allow_name_change=True))
    print("ready", flush=True)
    await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(impersonate(*sys.argv[1:5]))
