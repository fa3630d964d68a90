"""A private two-computer LAN for discovery tests and benchmarks: two network namespaces
joined by a veth pair, so multicast DNS never reaches the machine's real interfaces.

Needs root and iproute2 (``ip``).  The addresses come from 198.18.0.0/15, the range set
aside for network benchmarks, and exist only inside the two namespaces.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass


@dataclass(frozen=True)
class Side:
    namespace: str
    address: str

    def command(self, *argv: str) -> list[str]:
        """``argv`` run inside this side's namespace."""
        return ["ip", "netns", "exec", self.namespace, *argv]


def available() -> str | None:
    """Why a private LAN cannot be made here, or None if it can."""
    if os.geteuid() != 0:
        return "network namespaces need root"
    if shutil.which("ip") is None:
        return "iproute2's ip command is missing"
    return None


@contextmanager
def private_lan(tag: str = "t") -> Iterator[tuple[Side, Side]]:
    """Two namespaces, each with one end of a veth pair, up and addressed; removed after."""
    suffix = f"{tag}{os.getpid() % 100000}"
    a, b = Side(f"tavolo-a-{suffix}", "198.18.77.1"), Side(f"tavolo-b-{suffix}", "198.18.77.2")
    link_a, link_b = f"tva{suffix}"[:15], f"tvb{suffix}"[:15]
    steps = [
        ["ip", "netns", "add", a.namespace],
        ["ip", "netns", "add", b.namespace],
        ["ip", "link", "add", link_a, "type", "veth", "peer", "name", link_b],
        ["ip", "link", "set", link_a, "netns", a.namespace],
        ["ip", "link", "set", link_b, "netns", b.namespace],
        ["ip", "-n", a.namespace, "addr", "add", f"{a.address}/24", "dev", link_a],
        ["ip", "-n", b.namespace, "addr", "add", f"{b.address}/24", "dev", link_b],
        ["ip", "-n", a.namespace, "link", "set", link_a, "up"],
        ["ip", "-n", b.namespace, "link", "set", link_b, "up"],
        ["ip", "-n", a.namespace, "link", "set", "lo", "up"],
        ["ip", "-n", b.namespace, "link", "set", "lo", "up"],
    ]
    try:
        for step in steps:
            subprocess.run(step, check=True, capture_output=True)
        yield a, b
    finally:
        for side in (a, b):
            subprocess.run(["ip", "netns", "del", side.namespace], capture_output=True)
