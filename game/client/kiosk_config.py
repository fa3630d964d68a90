"""The operator's settings of a kiosk: ``kiosk.toml`` in the config directory.

Every key is documented in docs/kiosk.md.  **A typo costs one key, never the others**: the
file is read statement by statement (:mod:`game.client.toml_lines`), and a key whose value
is not TOML, of the wrong kind or out of range keeps its last good value (kept in
``kiosk-last-good.json``), or the default if it never had one; an unknown key is ignored.
Each problem is logged and listed in the operator menu.  A kiosk never refuses to start over
its configuration.

**The file holds no PIN in clear.**  An operator may write ``pin = 0731`` (quoted or not, a
leading zero kept); at the next start the kiosk replaces that line with ``pin_hash``, a
salted scrypt hash, and keeps the file readable by its owner only (0600).  The last good
hash is kept apart too (``kiosk-pin``), so that a file whose PIN cannot be used never
brings back the published default: that one opens the menu only on a kiosk that has never
had a PIN (where a mistyped first PIN leaves it no weaker than it was).  PINs that are
guessed first (one digit, two digits, runs, repeats, the default) are refused when set.

Operator changes are written into the file line by line: only the keys changed, every
other line — comments and mistakes included — as the operator wrote it.
"""

from __future__ import annotations

import copy
import hashlib
import hmac
import itertools
import json
import logging
import os
import re
import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tomlkit

from game.client import toml_lines
from game.client.settings import TABLE_LAYOUTS, clean_name
from game.files import atomic_write
from game.i18n import LANGUAGES, _
from game.rules import VARIANTS

log = logging.getLogger(__name__)

FILE = "kiosk.toml"
KEPT_PIN = "kiosk-pin"
"""The last good PIN's salted hash, beside ``kiosk.toml``."""
LAST_GOOD = "kiosk-last-good.json"
"""The last good value of every setting, for a key the operator mistyped."""
PIN_LENGTHS = range(4, 13)
DEFAULT_PIN = "2580"
DEFAULT = "default"
"""``pin_hash`` of a kiosk that has never had a PIN: the published default opens it."""
HEADER = "# Tavolo kiosk settings: every key is explained in docs/kiosk.md\n"
SECRET = 0o600
HOURS = re.compile(r"^([01]\d|2[0-3]):([0-5]\d)-([01]\d|2[0-4]):([0-5]\d)$")
COMMON_PINS = frozenset(
    {"1004", "2000", "2001", "1357", "2468", "1470", "0741", "3690", "0963", "0852", "1590",
     "0951", "7530", "0357", "1379", "1397", "7913", "9731", "1998", "1999", "6969", "8520"}
)  # fmt: skip
"""Four-digit PINs found near the top of leaked PIN lists (keypad lines, years, words)."""
ROTATIONS = (0, 90, 180, 270)


def _number(low: float, high: float) -> Callable[[object], bool]:
    return lambda v: isinstance(v, int | float) and not isinstance(v, bool) and low <= v <= high


def _whole(low: int, high: int) -> Callable[[object], bool]:
    return lambda v: isinstance(v, int) and not isinstance(v, bool) and low <= v <= high


CHECKS: dict[str, Callable[[object], bool]] = {
    "games": lambda v: isinstance(v, list) and bool(v) and all(g in VARIANTS for g in v),
    "languages": lambda v: isinstance(v, list) and bool(v) and all(x in LANGUAGES for x in v),
    "volume": _number(0, 1),
    "attract_after": _number(10, 3600),
    "abandon_after": _number(20, 3600),
    "countdown": _number(5, 120),
    "dim_after": _number(30, 86400),
    "keep_finished": _whole(0, 100_000),
    "keep_finished_days": _number(1, 3650),
    "lan_hosting": lambda v: isinstance(v, bool),
    "lan_name": lambda v: isinstance(v, str) and bool(v) and clean_name(v) == v,
    "opening_hours": lambda v: isinstance(v, str) and (v == "" or _hours(v) is not None),
    "rotation": lambda v: v in ROTATIONS and not isinstance(v, bool),
    "initials_only": lambda v: isinstance(v, bool),
    "table_layout": lambda v: v in TABLE_LAYOUTS,
}
"""What each key accepts (docs/kiosk.md says the same in words)."""
SETTINGS = tuple(CHECKS)
RANGES: dict[str, tuple[float, float]] = {
    "attract_after": (10, 3600),
    "abandon_after": (20, 3600),
    "countdown": (5, 120),
    "dim_after": (30, 86400),
    "keep_finished": (0, 100_000),
    "keep_finished_days": (1, 3650),
}
"""The numbers the operator menu takes, as the file does."""


class SettingsNotSaved(Exception):  # noqa: N818 - what the operator is told
    """``kiosk.toml`` could not be written; the message says why, for the operator."""


@dataclass(frozen=True, slots=True)
class Problem:
    """A key of ``kiosk.toml`` that could not be used as written."""

    key: str
    line: int
    """1-based; 0 when the problem has no line (the file as a whole)."""
    written: str
    """What the file says, as written (never a PIN's digits)."""
    used: str
    """What the kiosk uses instead."""
    why: str = ""

    def text(self) -> str:
        """In the player's language, for the operator menu."""
        if self.key == "pin":
            return _("kiosk.toml line {line}: the PIN cannot be used ({why}).").format(
                line=self.line, why=self.why
            )
        if not self.used:
            return _("kiosk.toml line {line}: {key} is not a setting: ignored.").format(
                line=self.line, key=self.key
            )
        return _("kiosk.toml line {line}: {key} = {written} cannot be used: {used} is.").format(
            line=self.line, key=self.key, written=self.written, used=self.used
        )


@dataclass
class KioskConfig:
    games: list[str] = field(default_factory=lambda: list(VARIANTS))
    languages: list[str] = field(default_factory=lambda: list(LANGUAGES))
    volume: float = 0.5
    attract_after: float = 90.0
    abandon_after: float = 180.0
    countdown: float = 15.0
    dim_after: float = 900.0
    keep_finished: int = 500
    """Finished matches kept (the newest); older ones are deleted as matches finish."""
    keep_finished_days: float = 90.0
    """Finished matches older than this many days are deleted too."""
    lan_hosting: bool = False
    lan_name: str = "Tavolo"
    """The name others on the LAN see for whoever plays at the kiosk (nobody types one)."""
    opening_hours: str = ""
    """``"HH:MM-HH:MM"`` (may run past midnight); outside them the screen sleeps. Empty:
    always open."""
    rotation: int = 0
    """Degrees clockwise the picture is turned, for a table mounted either way."""
    initials_only: bool = False
    """High-score names are three initials (nobody's full name on a public screen)."""
    table_layout: str = "beside"
    """The match screen: ``beside`` the board, or ``facing`` — a touch table with people
    on two opposite sides, each side's panel turned to face it."""
    pin_hash: str = field(default=DEFAULT, compare=False, repr=False)
    """The salted hash of the PIN that opens the operator menu; :data:`DEFAULT` for the
    published PIN; empty while none can (the menu is locked)."""
    unreadable: str = field(default="", compare=False, repr=False)
    """Why ``kiosk.toml`` could not be read at all (then it is never written)."""
    problems: list[Problem] = field(default_factory=list, compare=False, repr=False)
    """The keys the file got wrong, in the order of its lines."""
    _as_loaded: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    """The settings as the file holds them (none known: a saved new config writes all)."""

    # -- the PIN ----------------------------------------------------------------------------

    @property
    def locked(self) -> bool:
        """No PIN can open the operator menu: the file's cannot be used and none was kept."""
        return not self.pin_hash

    @property
    def default_pin(self) -> bool:
        """The published PIN still opens the menu: the operator must change it."""
        return self.pin_hash == DEFAULT

    def pin_matches(self, typed: str) -> bool:
        if self.pin_hash == DEFAULT:
            return hmac.compare_digest(typed.encode(), DEFAULT_PIN.encode())
        return bool(self.pin_hash) and _matches(self.pin_hash, typed)

    def set_pin(self, pin: str, directory: Path) -> None:
        """The operator's new PIN (check it with :func:`pin_weakness` first): it works at
        once and is kept apart, then saved as its hash (:meth:`save` may raise)."""
        self.pin_hash = _keep(pin, directory)
        self.save(directory)

    def warning(self) -> str:
        """What the operator must know first about ``kiosk.toml``, in the player's
        language ("" when all is well); :attr:`problems` lists every key."""
        if self.unreadable:
            return _(
                "kiosk.toml cannot be read ({error}): the last good settings are used and "
                "nothing is saved to it."
            ).format(error=self.unreadable)
        if self.locked:
            return _("kiosk.toml has no usable PIN and none is kept: the menu stays locked.")
        pin = [p for p in self.problems if p.key == "pin"]
        if pin:
            return pin[0].text() + " " + _("The last good PIN opens this menu.")
        if self.problems:
            return self.problems[0].text()
        if self.default_pin:
            return _("The PIN is still the published 2580: change it.")
        return ""

    def is_open(self, minutes: int) -> bool:
        """Whether the kiosk is open ``minutes`` after midnight (local time)."""
        span = _hours(self.opening_hours)
        if span is None:
            return True
        opens, closes = span
        if opens <= closes:
            return opens <= minutes < closes
        return minutes >= opens or minutes < closes  # open past midnight

    # -- the file ---------------------------------------------------------------------------

    @classmethod
    def load(cls, directory: Path) -> KioskConfig:
        config = cls()
        path = directory / FILE
        text: str | None = None
        try:
            text = path.read_bytes().decode("utf-8", "surrogateescape")
        except FileNotFoundError:
            log.info("no %s: the kiosk runs with the default settings", path)
        except OSError as error:
            config.unreadable = (error.strerror or str(error))[:200]
            log.warning("kiosk settings %s unreadable (%s): using the last good ones", path, error)
        statements = toml_lines.read(text or "")
        last_good = _read_last_good(directory)
        for statement in statements:
            config._take(statement, last_good, path)
        for name in SETTINGS:  # a file that cannot be read: the last good settings hold
            if config.unreadable and name in last_good:
                setattr(config, name, copy.deepcopy(last_good[name]))
        config._settle_pin(directory, statements, text)
        if text is not None:
            _secure(path)
        config._remember()
        _write_last_good(directory, config)
        return config

    def _take(self, statement: toml_lines.Statement, last_good: dict[str, Any], path: Path) -> None:
        """One statement of the file: its value if good, else the last good one (or the
        default), the problem logged and listed."""
        key = statement.key
        if key in ("pin", "pin_hash") and not statement.section:
            return  # the PIN's statements are settled together, after the rest
        if statement.section or key not in CHECKS:
            shown = f"[{statement.section}] {key}" if statement.section else key
            self.problems.append(Problem(shown, statement.line, "", ""))
            log.warning("kiosk setting %r (line %d of %s) is unknown: ignored", shown,
                        statement.line, path)  # fmt: skip
            return
        if not statement.error and CHECKS[key](statement.value):
            value = statement.value
            setattr(self, key, list(value) if isinstance(value, list) else value)
            return
        fallback = last_good.get(key, getattr(type(self)(), key))
        setattr(self, key, copy.deepcopy(fallback))
        written = toml_lines.raw_value(statement)[:60]
        why = statement.error or "out of range or of the wrong kind"
        self.problems.append(Problem(key, statement.line, written, _shown(fallback), why))
        log.warning("kiosk setting %s = %s (line %d of %s) cannot be used (%s): using %s",
                    key, written, statement.line, path, why, _shown(fallback))  # fmt: skip

    def _settle_pin(
        self, directory: Path, statements: list[toml_lines.Statement], text: str | None
    ) -> None:
        """The file's PIN if it is good (then written back as its hash); else the file's
        hash; else the kept one; else, for a kiosk that never had a PIN, the default (a
        mistyped first PIN leaves it as open as it was); a kiosk whose file has a hash but
        whose kept copy is gone stays locked."""
        path = directory / FILE
        kept = _read_kept(directory)
        top = {s.key: s for s in statements if not s.section}
        written, hashed = top.get("pin"), top.get("pin_hash")
        if written is not None:
            pin = _pin_of(written)
            why = pin_weakness(pin) if pin is not None else _("4 to 12 digits")
            if pin is not None and why is None:
                self.pin_hash = kept if kept and _matches(kept, pin) else _keep(pin, directory)
                self._hide_pin(path, text)
                return
            self.problems.append(Problem("pin", written.line, "", "", why or ""))
            log.warning("kiosk setting pin (line %d of %s) cannot be used: %s",
                        written.line, path, why)  # fmt: skip
        if hashed is not None:
            if _well_formed(hashed.value):
                self.pin_hash = hashed.value
                return
            self.problems.append(Problem("pin", hashed.line, "", "", _("not a hash")))
            log.warning("kiosk setting pin_hash (line %d of %s) is not a hash", hashed.line, path)
        if kept:
            self.pin_hash = kept
            if written or hashed or self.unreadable:
                log.warning("kiosk: the last good PIN opens the operator menu")
        elif hashed is not None:  # a PIN was kept once and the copy is gone: never the default
            self.pin_hash = ""
            log.error("kiosk: no usable PIN in %s and none kept: the operator menu is locked", path)
        elif written is not None or self.unreadable:  # it never had one: no weaker than it was
            log.warning("kiosk: no PIN was ever set: the published default opens the menu")

    def _hide_pin(self, path: Path, text: str | None) -> None:
        """Replace the PIN written in clear by its hash, in the file, readable by its owner
        only; a file that cannot be written keeps the PIN (logged)."""
        assert text is not None
        new = toml_lines.replace(text, "pin", _line("pin_hash", self.pin_hash))
        new = toml_lines.replace(new, "pin_hash", _line("pin_hash", self.pin_hash))
        try:
            atomic_write(path, new.encode("utf-8", "surrogateescape"), mode=SECRET)
            os.chmod(path, SECRET)
        except OSError as error:
            log.error("kiosk: the PIN in %s could not be replaced by its hash: %s", path, error)
            return
        log.info("kiosk: the PIN in %s was replaced by its salted hash", path)

    def save(self, directory: Path, keys: Iterable[str] = ()) -> None:
        """Write ``keys`` (the operator just set them, whatever the file says now) and the
        settings changed since loading into ``kiosk.toml``, line by line; raises
        :class:`SettingsNotSaved` (with a message for the operator) if it cannot."""
        if self.unreadable:
            raise SettingsNotSaved(self.warning())
        path = directory / FILE
        try:
            text = path.read_bytes().decode("utf-8", "surrogateescape")
        except FileNotFoundError:
            text = HEADER
        except OSError as error:
            raise SettingsNotSaved(
                _("kiosk.toml cannot be read: {error}").format(error=error.strerror or error)
            ) from error
        chosen = set(keys) | self._changed()
        for name in SETTINGS:
            if name in chosen:
                text = toml_lines.replace(text, name, _line(name, getattr(self, name)))
        if self.pin_hash not in (DEFAULT, "") and self.pin_hash != self._as_loaded.get("pin"):
            text = toml_lines.replace(text, "pin", None)
            text = toml_lines.replace(text, "pin_hash", _line("pin_hash", self.pin_hash))
        try:
            atomic_write(path, text.encode("utf-8", "surrogateescape"), mode=SECRET)
            os.chmod(path, SECRET)
        except OSError as error:
            why = error.strerror or str(error)
            raise SettingsNotSaved(
                _("kiosk.toml cannot be written: {error}").format(error=why)
            ) from error
        self.problems = [p for p in self.problems if p.key not in chosen]
        self._remember()
        _write_last_good(directory, self)

    def _changed(self) -> set[str]:
        return {n for n in SETTINGS if getattr(self, n) != self._as_loaded.get(n)}

    def _remember(self) -> None:
        """What the file holds now: :meth:`save` writes only what changes after this."""
        self._as_loaded = {name: copy.deepcopy(getattr(self, name)) for name in SETTINGS}
        self._as_loaded["pin"] = self.pin_hash


def _secure(path: Path) -> None:
    """A file others can read is made the owner's alone."""
    try:
        if os.stat(path).st_mode & 0o077:
            os.chmod(path, SECRET)
            log.info("kiosk: %s is now readable by its owner only", path)
    except OSError as error:
        log.warning("kiosk: the mode of %s could not be changed: %s", path, error)


def pin_weakness(pin: str) -> str | None:
    """Why ``pin`` is among the first a guesser tries, in the player's language; None for a
    PIN that will do."""
    if not (pin.isascii() and pin.isdigit() and len(pin) in PIN_LENGTHS):
        return _("a PIN has 4 to 12 digits")
    if pin == DEFAULT_PIN:
        return _("that is the published default PIN")
    if len(set(pin)) < 3:
        return _("a PIN needs at least three different digits")
    steps = {(int(b) - int(a)) % 10 for a, b in itertools.pairwise(pin)}
    if steps in ({1}, {9}):
        return _("digits in a row are guessed first")
    if any(len(pin) % n == 0 and pin == pin[:n] * (len(pin) // n) for n in range(1, len(pin))):
        return _("a group of digits repeated is guessed first")
    if pin in COMMON_PINS or (len(pin) == 4 and pin[:2] in ("19", "20")):
        return _("that PIN is among the first a guesser tries")
    return None


def _pin_of(statement: toml_lines.Statement) -> str | None:
    """The digits of ``pin = …`` as the operator meant them: quoted or not, a leading zero
    kept (``pin = 0731`` is not TOML, but it is a PIN)."""
    value = statement.value if not statement.error else toml_lines.raw_value(statement)
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        value = str(value)
    if isinstance(value, str) and value.isascii() and value.isdigit():
        return value
    return None


def _hours(text: str) -> tuple[int, int] | None:
    """``"09:00-23:30"`` as minutes after midnight (opening, closing); None if not that."""
    match = HOURS.match(text.strip())
    if match is None:
        return None
    oh, om, ch, cm = (int(g) for g in match.groups())
    opens, closes = oh * 60 + om, ch * 60 + cm
    return None if opens == closes or closes > 24 * 60 else (opens, closes)


def _shown(value: object) -> str:
    return tomlkit.item(value).as_string() if value is not None else ""


def _line(key: str, value: object) -> str:
    return f"{key} = {_shown(value)}\n"


PIN_WORK = 2**14
"""scrypt's cost for a PIN's hash (its ``n``): about 50 ms a try on a modest machine, which
makes guessing a six-digit PIN from a stolen hash take hours rather than seconds."""


def _hash(pin: str, salt: bytes) -> bytes:
    return hashlib.scrypt(pin.encode(), salt=salt, n=PIN_WORK, r=8, p=1, dklen=32)


def _well_formed(kept: object) -> bool:
    if not isinstance(kept, str) or not kept.startswith("scrypt$") or kept.count("$") != 2:
        return False
    try:
        salt, digest = (bytes.fromhex(part) for part in kept.split("$")[1:3])
    except ValueError:
        return False
    return len(salt) >= 16 and len(digest) == 32


def _matches(kept: str, typed: str) -> bool:
    if not _well_formed(kept):
        return False
    salt, digest = (bytes.fromhex(part) for part in kept.split("$")[1:3])
    return hmac.compare_digest(_hash(typed, salt), digest)


def _keep(pin: str, directory: Path) -> str:
    """Keep ``pin``'s hash apart from ``kiosk.toml`` (owner only); returns it (kept in
    memory even if the file cannot be written, which is logged)."""
    salt = secrets.token_bytes(16)
    kept = f"scrypt${salt.hex()}${_hash(pin, salt).hex()}"
    try:
        atomic_write(directory / KEPT_PIN, (kept + "\n").encode("ascii"), mode=SECRET)
    except OSError as error:
        log.error("kiosk: the PIN could not be kept in %s: %s", directory / KEPT_PIN, error)
    return kept


def _read_kept(directory: Path) -> str:
    try:
        kept = (directory / KEPT_PIN).read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return ""
    return kept if _well_formed(kept) else ""


def _read_last_good(directory: Path) -> dict[str, Any]:
    try:
        stored = json.loads((directory / LAST_GOOD).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(stored, dict):
        return {}
    return {k: v for k, v in stored.items() if k in CHECKS and CHECKS[k](v)}


def _write_last_good(directory: Path, config: KioskConfig) -> None:
    values = {name: getattr(config, name) for name in SETTINGS}
    data = json.dumps(values, indent=1, sort_keys=True).encode("utf-8")
    try:
        if (directory / LAST_GOOD).read_bytes() == data:
            return
    except OSError:
        pass
    try:
        atomic_write(directory / LAST_GOOD, data, mode=SECRET)
    except OSError as error:
        log.warning("kiosk: the last good settings could not be kept: %s", error)
