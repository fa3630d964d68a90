"""An outsider on the LAN announcing bogus Tavolo matches with zeroconf directly, for the
discovery tests:

    python -m tests.mdns_spoofer INTERFACE MATCH_ID HOST_NAME

It announces eight "abandoned" matches under keys of their own, a copy of the match
``MATCH_ID`` hosted by ``HOST_NAME`` under another key, and records no Tavolo host writes:
a TXT key that is not UTF-8, control characters in the host's name, a name far too long.
Prints ``ready`` once they are all out, then stays until killed.
"""

from __future__ import annotations

import asyncio
import secrets
import socket
import sys

from zeroconf import IPVersion
from zeroconf.asyncio import AsyncServiceInfo, AsyncZeroconf

from game.rules.registry import fingerprint
from net.discovery import SERVICE
from net.messages import PROTOCOL_VERSION


def record(host: str, state: str, free: int, match: str = "", key: str = "") -> dict[str, str]:
    return {
        "v": str(PROTOCOL_VERSION), "rules": fingerprint()[:16], "game": "dama:classic",
        "players": "2", "free": str(free), "code": "0", "state": state, "host": host,
        "match": match or secrets.token_hex(16), "key": key or secrets.token_hex(32),
    }  # fmt: skip


def packed(txt: dict[str, str], extra: bytes) -> bytes:
    """``txt`` as TXT record bytes, with one more raw string of ``extra``."""
    strings = [f"{k}={v}".encode() for k, v in txt.items()] + [extra]
    return b"".join(bytes([len(s)]) + s for s in strings)


def announcements(match: str, host: str) -> list[tuple[str, dict[str, str] | bytes]]:
    return [
        *((f"Abandoned {n}", record(f"Abandoned {n}", "abandoned", 0)) for n in range(8)),
        (f"{host} copy", record(host, "lobby", 1, match)),
        ("Not UTF-8", packed(record("Not UTF-8", "lobby", 1), b"\xff\xfe=1")),
        ("Escapes", record("Corner\x1b[2J\x00table", "lobby", 1)),
        ("Long", record("L" * 200, "lobby", 1)),
    ]


async def announce(interface: str, match: str, host: str) -> None:
    """Every announcement at once: each one's probing and announcing takes zeroconf about
    1.7 s, which twelve in a row would spend twelve times over."""
    zc = AsyncZeroconf(interfaces=[interface], ip_version=IPVersion.V4Only)
    infos = []
    for n, (label, txt) in enumerate(announcements(match, host)):
        infos.append(AsyncServiceInfo(
            SERVICE, f"{label}.{SERVICE}", addresses=[socket.inet_aton(interface)],
            port=40000 + n, properties=txt, server=f"spoof-{n}.local.",
        ))  # fmt: skip
    sent = await asyncio.gather(
        *(zc.async_register_service(info, allow_name_change=True) for info in infos)
    )
    await asyncio.gather(*sent)
    print("ready", flush=True)
    await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(announce(*sys.argv[1:4]))
