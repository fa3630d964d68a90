"""Files written so that a crash, a power cut or a full disk at any moment leaves either the
old file or the new one, whole: saves, settings, high scores, match records, identities."""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path


def atomic_write(path: Path, data: bytes, *, mode: int = 0o666) -> None:
    """Replace ``path`` with ``data``: written to a temporary file of its own beside it
    (``mode`` less the umask; 0o600 keeps a secret the owner's), flushed to the disk,
    renamed over ``path``, and the rename itself flushed with the directory.  On failure the
    temporary file is removed and ``path`` is as it was."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
    directory = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(directory)
    finally:
        os.close(directory)
