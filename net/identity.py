"""Who a peer is, across restarts: a secret kept in a file, and what is derived from it.

* the **secret** (32 random bytes) never leaves the machine;
* the **key** ``H("tavolo-key" ‖ secret)`` is shown to the host in ``hello``: a peer that
  comes back with the same key is the same peer and gets its seat back;
* the **peer id** ``H(key)`` (16 bytes, hex) is what everybody else sees;
* each match's **dice chain** seeds are ``H("tavolo-chain" ‖ secret ‖ match id ‖ first
  event)``, so a peer that crashed and restarts reveals exactly the values it committed to —
  and the host, which sees only the key, cannot work them out.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import tempfile
from dataclasses import dataclass
from pathlib import Path

from net.fairdice import HashChain, digest

SECRET_SIZE = 32


class IdentityError(ValueError):
    """An identity file that cannot be read or written; the text says why."""


def peer_id(key: bytes) -> str:
    """The id everybody sees for the peer whose key is ``key``."""
    return digest(key)[:16].hex()


@dataclass(frozen=True)
class Identity:
    secret: bytes

    @classmethod
    def fresh(cls) -> Identity:
        return cls(secrets.token_bytes(SECRET_SIZE))

    @classmethod
    def load(cls, path: Path) -> Identity:
        """The identity kept in ``path``, created there on first use."""
        try:
            text = path.read_text(encoding="ascii").strip()
        except FileNotFoundError:
            identity = cls.fresh()
            identity.save(path)
            return identity
        except (OSError, UnicodeDecodeError) as error:
            raise IdentityError(f"cannot read the identity file {path}: {error}") from error
        try:
            secret = bytes.fromhex(text)
        except ValueError:
            secret = b""
        if len(secret) != SECRET_SIZE:
            raise IdentityError(
                f"{path} is not an identity file ({SECRET_SIZE * 2} hex digits); "
                "move it away to start as a new peer"
            )
        return cls(secret)

    def save(self, path: Path) -> None:
        """Write atomically, readable by the owner only."""
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".identity-")
            try:
                with os.fdopen(handle, "w", encoding="ascii") as file:
                    file.write(self.secret.hex() + "\n")
                    file.flush()
                    os.fsync(file.fileno())
                os.chmod(temporary, 0o600)
                os.replace(temporary, path)
            finally:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(temporary)
        except OSError as error:
            raise IdentityError(f"cannot write the identity file {path}: {error}") from error

    @property
    def key(self) -> bytes:
        return digest(b"tavolo-key" + self.secret)

    @property
    def peer(self) -> str:
        return peer_id(self.key)

    def chain(self, match: str, first: int, length: int) -> HashChain:
        """The dice chain this peer commits to in ``match`` from chance event ``first``."""
        seed = digest(
            b"tavolo-chain" + self.secret + bytes.fromhex(match) + first.to_bytes(8, "big")
        )
        return HashChain(seed, length)
