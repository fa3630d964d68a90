"""Crash-safe saves: every unfinished match in a file of its own, and the finished matches.

An unfinished match lives in ``unfinished/<its seed>.tavolo`` — the seed is drawn at random
for each match and kept for its whole life — so starting a new game never touches another
match's save; when the match ends it moves to ``finished/``.

Every file is written atomically — a temporary file beside it, flushed and fsynced, renamed
over the old one, the directory fsynced — and carries a checksum, so a power cut leaves
either the old save or the new one, and a torn or corrupt file is recognised, set aside
with a message, and never stops the program from starting.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import logging
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from game.files import atomic_write
from game.i18n import _, ngettext
from game.rules import RulesError
from game.session.match import Match

log = logging.getLogger(__name__)
T = TypeVar("T")

MAGIC = b"TAVOLO-SAVE-1\n"
_DIGEST = 16
UNFINISHED = "unfinished"
FINISHED = "finished"
LEGACY = "current.tavolo"  # the one autosave of versions that kept a single match
SET_ASIDE = ".damaged-"
"""Set-aside saves are named ``<save>.damaged-<n>``."""
LEFTOVER_DAYS = 7.0
"""Set-aside saves and the temporary files of writes a crash cut short are deleted once
they are this many days old."""


class SaveError(Exception):
    """A save file that cannot be used; the message says which and why."""


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
class Unfinished:
    """An unfinished match on disk, with when it was last played (seconds since the epoch)."""

    match: Match
    saved_at: float


@dataclass(frozen=True, slots=True)
class Shelf:
    """The unfinished matches: those read, newest first; how many there are in all (read or
    only counted); and a message if a save was bad."""

    matches: tuple[Unfinished, ...]
    total: int
    problem: str | None = None


@dataclass(frozen=True, slots=True)
class Finished:
    """A finished match on disk, with when it was saved (seconds since the epoch)."""

    path: Path
    match: Match
    saved_at: float


@dataclass(frozen=True, slots=True)
class SetAside:
    """A save set aside because it could not be opened: its file, size and date."""

    path: Path
    size: int
    saved_at: float


@dataclass(frozen=True, slots=True)
class Keep:
    """How many finished matches a store keeps, and for how long (a kiosk's, for weeks of
    visitors); the newest are kept."""

    count: int
    days: float


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A match's save, sealed: its unfinished save's path, and the name it takes among the
    finished matches if it is over.  No data: the match is not kept (nobody has played in
    it yet), and any save it had goes."""

    unfinished: Path
    data: bytes | None
    finished: str | None


class SaveStore:
    """The saves in one directory (the user's data directory, or a test's temporary one).

    With ``keep``, finished matches beyond its count or older than its days are deleted
    whenever a match finishes (and on :meth:`prune`); only the directory is listed, no save
    is read."""

    def __init__(self, directory: Path, keep: Keep | None = None) -> None:
        self.directory = directory
        self.keep = keep

    def path_of(self, match: Match) -> Path:
        """Where ``match`` is saved while it is unfinished."""
        return self.directory / UNFINISHED / f"{match.seed:016x}.tavolo"

    def save(self, match: Match) -> None:
        """Autosave ``match``; a finished match moves to the finished matches."""
        self.write(self.snapshot(match))

    def snapshot(self, match: Match) -> Snapshot:
        """What saving ``match`` as it stands writes, taken now (the match plays on).  The
        same from every way into a match: an unfinished match is kept once somebody has
        made a move (a lot or a die alone is none), and not after an undo back to before
        the first."""
        path = self.path_of(match)
        if match.state.is_terminal():
            name = f"{match.seed:016x}-{len(match.record.actions)}.tavolo"
            return Snapshot(path, seal(match.to_bytes()), name)
        return Snapshot(path, seal(match.to_bytes()) if match.begun else None, None)

    def write(self, snapshot: Snapshot) -> None:
        """Write ``snapshot`` (raises OSError if the disk refuses)."""
        if snapshot.data is None:
            snapshot.unfinished.unlink(missing_ok=True)
        elif snapshot.finished is None:
            atomic_write(snapshot.unfinished, snapshot.data)
        else:
            atomic_write(self.directory / FINISHED / snapshot.finished, snapshot.data)
            snapshot.unfinished.unlink(missing_ok=True)
            self.prune()

    def discard(self, match: Match) -> None:
        """Delete the save of an unfinished match (its players asked, or walked away)."""
        self.path_of(match).unlink(missing_ok=True)

    def unfinished(self, limit: int | None = None) -> Shelf:
        """The unfinished matches, newest first: the first ``limit`` that can be read are read,
        the others only counted.  Damaged saves are set aside; the shelf says so in words
        for the screen (which may be a public one: never a file's name), and the log in
        full."""
        paths = sorted(self._finished_elsewhere(self._unfinished_paths()), key=_mtime, reverse=True)
        matches: list[Unfinished] = []
        problems: list[str] = []
        damaged = 0
        for index, path in enumerate(paths):
            if len(matches) == limit:
                return Shelf(tuple(matches), len(paths) - index + limit, _joined(problems, damaged))
            try:
                match = _read(path)
            except OSError as error:
                log.error("saved match %s unreadable: %s", path, error)
                problems.append(
                    _("A saved match could not be read: {error}").format(error=plain(error))
                )
                continue
            except (SaveError, RulesError) as error:
                if _set_aside(path, error) is None:
                    problems.append(_("A saved match could not be opened."))
                else:
                    damaged += 1
                continue
            matches.append(Unfinished(match, _mtime(path)))
            if path != self.path_of(match) and (problem := self._move_home(path, match)):
                problems.append(problem)
        return Shelf(tuple(matches), len(matches), _joined(problems, damaged))

    def abandon(self, before: float, keep: frozenset[Path] = frozenset()) -> list[Path]:
        """Delete the unfinished saves last written before ``before`` (seconds since the
        epoch) but those in ``keep``: a kiosk's matches whose visitors have gone.  The
        saves deleted."""
        gone: list[Path] = []
        for path in self._unfinished_paths():
            if path in keep or _mtime(path) >= before:
                continue
            try:
                path.unlink()
            except FileNotFoundError:
                continue
            except OSError as error:
                log.warning("an abandoned match %s could not be deleted: %s", path, error)
                continue
            gone.append(path)
        if gone:
            log.info("%d unfinished match(es) nobody came back to deleted", len(gone))
        return gone

    def set_aside(self) -> list[SetAside]:
        """The saves set aside as damaged, newest first (for the operator, and for whoever
        wants to look: they are kept :data:`LEFTOVER_DAYS` days)."""
        found = []
        for path in (self.directory / UNFINISHED).glob(f"*{SET_ASIDE}*"):
            with contextlib.suppress(OSError):
                status = path.stat()
                found.append(SetAside(path, status.st_size, status.st_mtime))
        return sorted(found, key=lambda aside: aside.saved_at, reverse=True)

    def recover(self) -> int:
        """Put back the set-aside saves that open now (an older version refused a save a
        later one reads: the hints kept past an undo), unless their match has a save again;
        how many came back."""
        back = 0
        for aside in self.set_aside():
            try:
                match = _read(aside.path)
            except (OSError, SaveError, RulesError):
                continue
            home = self.path_of(match)
            if match.state.is_terminal():
                home = self.directory / FINISHED / f"{home.stem}-{len(match.record.actions)}.tavolo"
            if home.exists():
                continue
            try:
                home.parent.mkdir(parents=True, exist_ok=True)
                os.replace(aside.path, home)
            except OSError as error:
                log.warning("%s could not be put back: %s", aside.path, error)
                continue
            log.info("put back %s as %s: it opens now", aside.path.name, home.name)
            back += 1
        return back

    def tidy(self, now: float | None = None) -> int:
        """Delete set-aside saves and the temporary files of cut-short writes older than
        :data:`LEFTOVER_DAYS`; how many went."""
        oldest = (time.time() if now is None else now) - LEFTOVER_DAYS * 86400
        gone = 0
        for folder in (self.directory, self.directory / UNFINISHED, self.directory / FINISHED):
            try:
                with os.scandir(folder) as entries:
                    leftovers = [
                        entry.path
                        for entry in entries
                        if (SET_ASIDE in entry.name or entry.name.endswith(".tmp"))
                        and entry.is_file()
                        and entry.stat().st_mtime < oldest
                    ]
            except OSError:
                continue
            for path in leftovers:
                try:
                    os.unlink(path)
                except OSError as error:
                    log.warning("%s could not be deleted: %s", path, error)
                    continue
                log.info("deleted %s (left over for more than %g days)", path, LEFTOVER_DAYS)
                gone += 1
        return gone

    def _finished_elsewhere(self, paths: list[Path]) -> list[Path]:
        """``paths`` less the saves of matches that have finished: a process killed while a
        match moved to the finished ones (written there, not yet deleted here) leaves its
        last unfinished save behind, which must not be offered to play on."""
        try:
            with os.scandir(self.directory / FINISHED) as entries:
                finished = {entry.name.split("-", 1)[0] for entry in entries}
        except OSError:
            return paths
        kept = []
        for path in paths:
            if path.stem in finished:
                log.info("%s: its match has finished, the unfinished save goes", path.name)
                with contextlib.suppress(OSError):
                    path.unlink()
                continue
            kept.append(path)
        return kept

    def _unfinished_paths(self) -> list[Path]:
        legacy = self.directory / LEGACY
        found = list((self.directory / UNFINISHED).glob("*.tavolo"))
        return [*found, legacy] if legacy.exists() else found

    def _move_home(self, path: Path, match: Match) -> str | None:
        """Move a save found under another name — the single autosave of an earlier version —
        to its match's own file, where saving and deleting the match look; a message if it
        cannot be moved.  A file already there is never replaced."""
        home = self.path_of(match)
        if home.exists():
            log.warning("%s duplicates %s: both are kept", path, home)
            return None
        try:
            home.parent.mkdir(parents=True, exist_ok=True)
            os.replace(path, home)
        except OSError as error:
            log.warning("%s could not be moved to %s: %s", path, home, error)
            return _("A saved match could not be moved: {error}").format(error=plain(error))
        return None

    def prune(self, now: float | None = None) -> int:
        """Delete the finished matches :attr:`keep` does not keep; how many went."""
        if self.keep is None:
            return 0
        oldest = (time.time() if now is None else now) - self.keep.days * 86400
        try:
            with os.scandir(self.directory / FINISHED) as entries:
                found = [
                    (entry.stat().st_mtime, entry.path)
                    for entry in entries
                    if entry.name.endswith(".tavolo") and entry.is_file()
                ]
        except OSError:
            return 0
        found.sort(reverse=True)
        gone = [path for number, (mtime, path) in enumerate(found)
                if number >= self.keep.count or mtime < oldest]  # fmt: skip
        for path in gone:
            with contextlib.suppress(OSError):
                os.unlink(path)
        if gone:
            log.info("deleted %d finished matches (keeping %d, %g days)", len(gone),
                     self.keep.count, self.keep.days)  # fmt: skip
        return len(gone)

    def has_finished(self) -> bool:
        """Whether any match has finished, by listing the directory (no save is read)."""
        return next((self.directory / FINISHED).glob("*.tavolo"), None) is not None

    def finished(self) -> list[Finished]:
        """The finished matches that can be read, newest first (damaged ones are skipped)."""
        matches = []
        for path in sorted((self.directory / FINISHED).glob("*.tavolo"), key=_mtime, reverse=True):
            try:
                match = _read(path)
            except (OSError, SaveError, RulesError) as error:
                log.warning("skipping finished match %s: %s", path.name, error)
                continue
            matches.append(Finished(path, match, _mtime(path)))
        return matches


def read_json_or_set_aside(
    path: Path, parse: Callable[[object], T], what: str
) -> tuple[T | None, str | None]:
    """``parse`` of the JSON file at ``path``: (its result, None); (None, None) if there is no
    file; (None, "unreadable") if the disk refuses it; (None, "broken") if it is not what
    ``parse`` accepts (which raises ValueError, TypeError, KeyError or AttributeError) — then
    the file is set aside as ``<name>.broken``, kept for whoever wants to look, never written
    over.  ``what`` names it in the log."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None, None
    except OSError as error:
        log.error("%s unreadable: %s", what, error)
        return None, "unreadable"
    try:
        return parse(json.loads(raw)), None
    except (ValueError, TypeError, KeyError, AttributeError) as error:
        log.error("%s broken (%s): set aside as %s.broken", what, error, path.name)
        try:
            os.replace(path, path.with_name(path.name + ".broken"))
        except OSError as move_error:
            log.error("%s could not be set aside: %s", what, move_error)
        return None, "broken"


def plain(error: OSError) -> str:
    """What went wrong with the disk, in the player's words: never a path (a kiosk's screen
    is public) nor the system's English."""
    if error.errno == errno.ENOSPC:
        return _("the disk is full")
    if error.errno in (errno.EACCES, errno.EPERM):
        return _("there is no permission to write there")
    if error.errno == errno.EROFS:
        return _("the disk can only be read")
    return _("the disk could not be used")


def _read(path: Path) -> Match:
    """The match saved in ``path``; OSError, SaveError or RulesError if there is none."""
    return Match.from_bytes(unseal(path.read_bytes(), path.name))


def _joined(problems: list[str], damaged: int) -> str | None:
    """What went wrong, in the player's words: the disk's refusals, then the damaged saves
    counted (the same words for one or many, so that a screen never fills with them)."""
    if damaged:
        problems = [*problems, ngettext(
            "A match could not be opened and was put aside.",
            "{n} matches could not be opened and were put aside.", damaged,
        ).format(n=damaged)]  # fmt: skip
    return " ".join(dict.fromkeys(problems)) or None


def _set_aside(path: Path, error: Exception) -> Path | None:
    """Move a damaged save out of the way under a new name, saying in the log which, why
    and where it went; None if it cannot be moved (it is then tried again next time)."""
    number = 1
    while (aside := path.with_name(f"{path.name}{SET_ASIDE}{number}")).exists():
        number += 1
    try:
        os.replace(path, aside)
        os.utime(aside)  # kept a week from now, not from the save's last write
    except OSError as move_error:
        log.error("saved match %s is damaged (%s) and cannot be set aside: %s",
                  path, error, move_error)  # fmt: skip
        return None
    log.error("saved match %s is damaged (%s): set aside as %s", path, error, aside.name)
    return aside


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0
