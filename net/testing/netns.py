"""A private LAN for tests and benchmarks: each computer a network namespace, all joined
by a switch (a bridge in a namespace of its own), so multicast DNS and the match's traffic
never reach the machine's real interfaces.  The switch can cut the line between two
computers both ways and heal it again, as a pulled cable would (``Lan.cut``/``Lan.heal``);
this kernel has no netem, so the cut is an nftables filter on the bridge.

Needs root, iproute2 (``ip``) and nftables (``nft``).  The addresses come from
198.18.0.0/15, the range set aside for network benchmarks, and exist only inside the
namespaces.  Everything made is removed when the ``with`` block ends, however it ends;
namespaces left behind by a run that was killed outright are removed by the next one.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

PREFIX = "tavolo"
SUBNET = "198.18.77"
_CUTS = "bridge tavolo cuts"
"""The nftables set of (in port, out port) pairs the switch drops between."""
_SWITCH_RULES = """
table bridge tavolo {
    set cuts { type ifname . ifname; }
    chain forward {
        type filter hook forward priority 0; policy accept;
        iifname . oifname @cuts drop
    }
}
"""


@dataclass(frozen=True)
class Side:
    """One computer on the LAN: its namespace, address, and its port on the switch."""

    namespace: str
    address: str
    port: str = ""

    def command(self, *argv: str) -> list[str]:
        """``argv`` run inside this side's namespace."""
        return ["ip", "netns", "exec", self.namespace, *argv]


class NetnsError(RuntimeError):
    """A step of building or changing the LAN failed; the message has the tool's words."""


def available() -> str | None:
    """Why a private LAN cannot be made here, or None if it can."""
    if os.geteuid() != 0:
        return "network namespaces need root"
    for tool, package in (("ip", "iproute2"), ("nft", "nftables")):
        if shutil.which(tool) is None:
            return f"{package}'s {tool} command is missing"
    return None


class Lan:
    """The computers of one private LAN, and the switch between them."""

    def __init__(self, switch: str, hosts: tuple[Side, ...]) -> None:
        self.switch = switch
        self.hosts = hosts

    def cut(self, a: Side, b: Side) -> None:
        """Drop every frame between ``a`` and ``b``, both ways; the rest of the LAN is
        untouched.  Nothing is refused or reset: to both of them the other just goes
        silent, as behind a pulled cable."""
        self._switch_set("add", a, b)

    def heal(self, a: Side, b: Side) -> None:
        """Undo ``cut(a, b)``: frames between them pass again."""
        self._switch_set("delete", a, b)

    def _switch_set(self, verb: str, a: Side, b: Side) -> None:
        pairs = f'{{ "{a.port}" . "{b.port}", "{b.port}" . "{a.port}" }}'
        _run("ip", "netns", "exec", self.switch, "nft", verb, "element", *_CUTS.split(), pairs)


@contextmanager
def lan(computers: int, tag: str = "t") -> Iterator[Lan]:
    """``computers`` namespaces on one switch, up and addressed (.1, .2, …); removed after."""
    if not 1 <= computers <= 250:
        raise ValueError("a private LAN has 1 to 250 computers")
    _remove_abandoned()
    base = f"{PREFIX}{os.getpid()}-{tag}"
    switch = f"{base}-sw"
    hosts = tuple(Side(f"{base}-{n}", f"{SUBNET}.{n}", f"port{n}") for n in range(1, computers + 1))
    made: list[str] = []
    try:
        for namespace in (switch, *(h.namespace for h in hosts)):
            _run("ip", "netns", "add", namespace)
            made.append(namespace)
            _run("ip", "-n", namespace, "link", "set", "lo", "up")
        _run("ip", "-n", switch, "link", "add", "br0", "type", "bridge", "mcast_snooping", "0")
        _run("ip", "-n", switch, "link", "set", "br0", "up")
        _run("ip", "netns", "exec", switch, "nft", "-f", "-", stdin=_SWITCH_RULES)
        for host in hosts:
            _run("ip", "link", "add", "eth0", "netns", host.namespace, "type", "veth",
                 "peer", "name", host.port, "netns", switch)  # fmt: skip
            _run("ip", "-n", switch, "link", "set", host.port, "master", "br0", "up")
            _run("ip", "-n", host.namespace, "addr", "add", f"{host.address}/24", "dev", "eth0")
            _run("ip", "-n", host.namespace, "link", "set", "eth0", "up")
        yield Lan(switch, hosts)
    finally:
        for namespace in reversed(made):
            subprocess.run(["ip", "netns", "del", namespace], capture_output=True, check=False)


@contextmanager
def private_lan(tag: str = "t") -> Iterator[tuple[Side, Side]]:
    """Two computers on a private LAN, for the discovery test and benchmark."""
    with lan(2, tag) as network:
        yield network.hosts[0], network.hosts[1]


def _run(*argv: str, stdin: str | None = None) -> None:
    done = subprocess.run(argv, input=stdin, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise NetnsError(f"{' '.join(argv)}: {done.stderr.strip() or done.returncode}")


def _remove_abandoned() -> None:
    """Namespaces of runs whose process is gone (killed before it could clean up)."""
    listing = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True, check=False)
    for line in listing.stdout.splitlines():
        found = re.match(rf"({PREFIX}(\d+)-\S+)", line)
        if found and not os.path.exists(f"/proc/{found[2]}"):
            subprocess.run(["ip", "netns", "del", found[1]], capture_output=True, check=False)
