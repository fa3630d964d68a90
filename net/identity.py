"""Who a peer is, across restarts: a secret kept in a file, and the key pair made from it.

* the **secret** (32 random bytes, in the identity file) never leaves the machine;
* the **signing key** is an Ed25519 key pair whose seed is ``H("tavolo-sign" ‖ secret)``:
  the peer proves who it is by signing fresh challenges and signs every match-log entry it
  makes, so nobody else — the host included — can make one in its name;
* the **peer id** ``H(public key)`` (16 bytes, hex) is what everybody else sees; its first
  twelve digits, grouped, are the **fingerprint** shown beside a host's name;
* each match's **dice chain** seeds are ``H("tavolo-chain" ‖ secret ‖ match id ‖ first
  event)``, so a peer that crashed and restarts reveals exactly the values it committed to —
  and nobody else can work them out.

``H`` is BLAKE2b-256.  Ed25519 is PyNaCl's (libsodium): no cryptography is written here.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from pathlib import Path

from nacl.exceptions import BadSignatureError
from nacl.signing import SigningKey, VerifyKey

from game.files import atomic_write
from net.fairdice import HashChain, digest

SECRET_SIZE = 32
KEY_SIZE = 32
SIGNATURE_SIZE = 64


class IdentityError(ValueError):
    """An identity file that cannot be read or written; the text says why."""


def peer_id(public_key: bytes) -> str:
    """The id everybody sees for the peer whose public key is ``public_key``."""
    return digest(public_key)[:16].hex()


def fingerprint(public_key: bytes) -> str:
    """A short form of the key people can compare by eye: ``6C2C-751B-B07D``."""
    text = peer_id(public_key)[:12].upper()
    return "-".join(text[i : i + 4] for i in range(0, 12, 4))


def verify(public_key: bytes, message: bytes, signature: bytes) -> bool:
    """Whether ``signature`` is the owner of ``public_key``'s signature of ``message``."""
    if len(public_key) != KEY_SIZE or len(signature) != SIGNATURE_SIZE:
        return False
    try:
        VerifyKey(public_key).verify(message, signature)
    except (BadSignatureError, ValueError):
        return False
    return True


@dataclass(frozen=True)
class Identity:
    secret: bytes
    _signer: SigningKey = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if len(self.secret) != SECRET_SIZE:
            raise IdentityError(f"an identity secret has {SECRET_SIZE} bytes")
        seed = digest(b"tavolo-sign" + self.secret)
        object.__setattr__(self, "_signer", SigningKey(seed))

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
            atomic_write(path, (self.secret.hex() + "\n").encode("ascii"), mode=0o600)
        except OSError as error:
            raise IdentityError(f"cannot write the identity file {path}: {error}") from error

    @property
    def key(self) -> bytes:
        """The public key (32 bytes): safe to show anyone."""
        return bytes(self._signer.verify_key)

    @property
    def peer(self) -> str:
        return peer_id(self.key)

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.key)

    def sign(self, message: bytes) -> bytes:
        """The 64-byte Ed25519 signature of ``message``."""
        return self._signer.sign(message).signature

    def chain(self, match: str, first: int, length: int) -> HashChain:
        """The dice chain this peer commits to in ``match`` from chance event ``first``."""
        seed = digest(
            b"tavolo-chain" + self.secret + bytes.fromhex(match) + first.to_bytes(8, "big")
        )
        return HashChain(seed, length)
