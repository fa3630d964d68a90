"""Crash-safe saves: the autosave of the match in progress and the finished matches.

Every file is written atomically — a temporary file beside it, flushed and fsynced, renamed
over the old one, the directory fsynced — and carries a checksum, so a power cut leaves
either the old save or the new one, and a torn or corrupt file is recognised, set aside
with a message, and never stops the program from starting.
"""

from __future__ import annotations

import hashlib
import logging
import os
from dataclasses import dataclass
from pathlib import Path

from game.rules import RulesError
from game.session.match import Match

log = logging.getLogger(__name__)

MAGIC = b"TAVOLO-SAVE-1\n"
_DIGEST = 16
CURRENT = "current.tavolo"
FINISHED = "finished"


class SaveError(Exception):
    """A save file that cannot be used; the message says which and why."""


def atomic_write(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` so that a crash at any moment leaves old or new, whole."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.tmp")
    with open(temporary, "wb") as file:
        file.write(data)
        file.flush()
        os.fsync(file.fileno())
    os.replace(temporary, path)
    directory = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(directory)
    finally:
        os.close(directory)


def seal(payload: bytes) -> bytes:
    """``payload`` framed with the magic line and its BLAKE2b checksum."""
    return MAGIC + hashlib.blake2b(payload, digest_size=_DIGEST).digest() + payload


def unseal(data: bytes, name: str) -> bytes:
    """The payload of a sealed file; :class:`SaveError` if it is torn or not a save."""
    if not data.startswith(MAGIC):
        raise SaveError(f"{name} is not a Tavolo save")
    digest, payload = data[len(MAGIC) : len(MAGIC) + _DIGEST], data[len(MAGIC) + _DIGEST :]
    if hashlib.blake2b(payload, digest_size=_DIGEST).digest() != digest:
        raise SaveError(f"{name} is damaged (incomplete or altered)")
    return payload


@dataclass(frozen=True, slots=True)
class Resumed:
    """What start-up found: the unfinished match, if any, and a message if a save was bad."""

    match: Match | None
    problem: str | None = None


@dataclass(frozen=True, slots=True)
class Finished:
    """A finished match on disk, with when it was saved (seconds since the epoch)."""

    path: Path
    match: Match
    saved_at: float


class SaveStore:
    """The saves in one directory (the user's data directory, or a test's temporary one)."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    @property
    def current_path(self) -> Path:
        return self.directory / CURRENT

    def save(self, match: Match) -> None:
        """Autosave ``match``; a finished match moves to the finished matches."""
        if match.state.is_terminal():
            name = f"{match.seed:016x}-{len(match.record.actions)}.tavolo"
            atomic_write(self.directory / FINISHED / name, seal(match.to_bytes()))
            self.current_path.unlink(missing_ok=True)
        else:
            atomic_write(self.current_path, seal(match.to_bytes()))

    def resume(self) -> Resumed:
        """The unfinished match saved last, if there is one that can be read."""
        path = self.current_path
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return Resumed(None)
        except OSError as error:
            return Resumed(None, f"the saved match could not be read ({error})")
        try:
            return Resumed(Match.from_bytes(unseal(data, path.name)))
        except (SaveError, RulesError) as error:
            aside = _set_aside(path)
            where = f"set aside as {aside.name}" if aside else "left in place (it cannot be moved)"
            message = f"the saved match was damaged and has been {where}"
            log.warning("%s: %s", message, error)
            return Resumed(None, message)

    def finished(self) -> list[Finished]:
        """The finished matches that can be read, newest first (damaged ones are skipped)."""
        matches = []
        for path in sorted((self.directory / FINISHED).glob("*.tavolo"), key=_mtime, reverse=True):
            try:
                match = Match.from_bytes(unseal(path.read_bytes(), path.name))
            except (OSError, SaveError, RulesError) as error:
                log.warning("skipping finished match %s: %s", path.name, error)
                continue
            matches.append(Finished(path, match, _mtime(path)))
        return matches


def _set_aside(path: Path) -> Path | None:
    """Move a damaged file out of the way under a new name; None if that fails."""
    number = 1
    while (aside := path.with_name(f"{path.name}.damaged-{number}")).exists():
        number += 1
    try:
        os.replace(path, aside)
    except OSError:
        return None
    return aside


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0
