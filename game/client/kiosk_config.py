"""The operator's settings of a kiosk: ``kiosk.toml`` in the config directory.

Every key is documented in docs/kiosk.md.  A missing file gives the defaults; a value of the
wrong kind or out of range, or an unknown key, is logged and replaced by the default — a
kiosk never refuses to start over its configuration.  The PIN is the exception: a broken file
must never bring back the published default.  The last good PIN is kept apart (``kiosk-pin``,
a salted scrypt hash); while the file's PIN cannot be used, that one opens the operator menu,
and with none kept the menu stays locked until the file is fixed.  The operator menu says
what is wrong.

Operator changes are written into the file in place (tomlkit): only the keys changed, the
operator's comments, order and other keys kept.  A file that is not TOML is never written.
"""

from __future__ import annotations

import copy
import hashlib
import hmac
import logging
import secrets
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import tomlkit
from tomlkit.exceptions import TOMLKitError

from game.client.settings import clean_name
from game.files import atomic_write
from game.i18n import LANGUAGES, _
from game.rules import VARIANTS

log = logging.getLogger(__name__)

FILE = "kiosk.toml"
KEPT_PIN = "kiosk-pin"
"""The last good PIN's salted hash, beside ``kiosk.toml``."""
PIN_LENGTHS = range(4, 13)
DEFAULT_PIN = "2580"
HEADER = "# Tavolo kiosk settings: every key is explained in docs/kiosk.md\n"


def _between(low: float, high: float):
    return lambda v: isinstance(v, int | float) and not isinstance(v, bool) and low <= v <= high


def _pin(value: object) -> str | None:
    """``value`` as a PIN (4 to 12 digits; a number written without quotes counts), or None."""
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        value = str(value)
    if isinstance(value, str) and value.isascii() and value.isdigit():
        return value if len(value) in PIN_LENGTHS else None
    return None


CHECKS = {
    "pin": lambda v: _pin(v) is not None,
    "games": lambda v: isinstance(v, list) and v and all(g in VARIANTS for g in v),
    "languages": lambda v: isinstance(v, list) and v and all(lang in LANGUAGES for lang in v),
    "volume": lambda v: isinstance(v, int | float) and not isinstance(v, bool) and 0 <= v <= 1,
    "attract_after": _between(10, 3600),
    "abandon_after": _between(20, 3600),
    "countdown": _between(5, 120),
    "dim_after": _between(30, 86400),
    "keep_finished": lambda v: isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 100_000,
    "keep_finished_days": _between(1, 3650),
    "lan_hosting": lambda v: isinstance(v, bool),
    "lan_name": lambda v: isinstance(v, str) and clean_name(v) == v,
}
"""What each key accepts (docs/kiosk.md says the same in words)."""
SETTINGS = tuple(CHECKS)


class SettingsNotSaved(Exception):  # noqa: N818 - what the operator is told
    """``kiosk.toml`` could not be written; the message says why, for the operator."""


@dataclass
class KioskConfig:
    pin: str = DEFAULT_PIN
    """The PIN that opens the operator menu; empty while only the kept one does."""
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
    unreadable: str = field(default="", compare=False, repr=False)
    """Why ``kiosk.toml`` could not be read, if it could not (then it is never written)."""
    kept_pin: str = field(default="", compare=False, repr=False)
    """The last good PIN's hash, which opens the menu while ``pin`` is empty."""
    _as_loaded: dict = field(default_factory=dict, compare=False, repr=False)
    """The settings as the file holds them (none known: a saved new config writes all)."""

    # -- the PIN ----------------------------------------------------------------------------

    @property
    def locked(self) -> bool:
        """No PIN can open the operator menu: the file's cannot be used and none was kept."""
        return not self.pin and not self.kept_pin

    def pin_matches(self, typed: str) -> bool:
        if self.pin:
            return hmac.compare_digest(typed.encode(), self.pin.encode())
        return bool(self.kept_pin) and _matches(self.kept_pin, typed)

    def set_pin(self, pin: str, directory: Path) -> None:
        """The operator's new PIN: kept apart at once, then saved (:meth:`save` may raise)."""
        self.pin = pin
        self.kept_pin = _keep(pin, directory)
        self.save(directory)

    def warning(self) -> str:
        """What the operator must know about ``kiosk.toml``, in the player's language."""
        if self.unreadable:
            return _(
                "kiosk.toml has an error ({error}): fix it by hand. Until then the defaults "
                "are used and nothing is saved to it."
            ).format(error=self.unreadable)
        if self.locked:
            return _("kiosk.toml has no valid PIN and none is kept: the menu stays locked.")
        if not self.pin:
            return _("The PIN in kiosk.toml cannot be used: the last good PIN opens this menu.")
        return ""

    # -- the file ---------------------------------------------------------------------------

    @classmethod
    def load(cls, directory: Path) -> KioskConfig:
        config = cls()
        path = directory / FILE
        stored: dict = {}
        try:
            stored = tomllib.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            log.info("no %s: the kiosk runs with the default settings", path)
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
            config.unreadable = str(error)[:200]
            log.warning("kiosk settings %s unreadable (%s): using the defaults", path, error)
        for key in sorted(set(stored) - set(SETTINGS)):
            log.warning("kiosk setting %r in %s is unknown: ignored", key, path)
        for name in sorted(set(SETTINGS) & set(stored)):
            value = stored[name]
            if CHECKS[name](value):
                value = _pin(value) if name == "pin" else value
                setattr(config, name, list(value) if isinstance(value, list) else value)
            elif name != "pin":
                log.warning(
                    "kiosk setting %s = %r in %s is not valid: using %r",
                    name, value, path, getattr(config, name),
                )  # fmt: skip
        config._settle_pin(directory, stored)
        config._remember()
        return config

    def _settle_pin(self, directory: Path, stored: dict) -> None:
        """The file's PIN if it is good (and kept from now on); else the kept one; the
        default only for a kiosk that has neither a file nor a kept PIN — never over a file
        whose PIN cannot be read."""
        path = directory / FILE
        kept = _read_kept(directory)
        if "pin" in stored and CHECKS["pin"](stored["pin"]):
            same = bool(kept) and _matches(kept, self.pin)
            self.kept_pin = kept if same else _keep(self.pin, directory)
            return
        broken = bool(self.unreadable) or "pin" in stored
        if "pin" in stored:
            log.warning("kiosk setting pin in %s is not valid (4 to 12 digits)", path)
        if kept:
            self.pin, self.kept_pin = "", kept
            if broken:
                log.warning("kiosk: the last good PIN opens the operator menu")
        elif broken:
            self.pin = ""
            log.error("kiosk: no usable PIN in %s and none kept: the operator menu is locked", path)

    def save(self, directory: Path) -> None:
        """Write the settings changed since loading into ``kiosk.toml``, in place; raises
        :class:`SettingsNotSaved` (with a message for the operator) if it cannot."""
        if self.unreadable:
            raise SettingsNotSaved(self.warning())
        path = directory / FILE
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            text = HEADER
        except (OSError, UnicodeDecodeError) as error:
            raise SettingsNotSaved(_cannot_read(error)) from error
        try:
            document = tomlkit.parse(text)
        except TOMLKitError as error:
            raise SettingsNotSaved(_cannot_read(error)) from error
        for name in SETTINGS:
            value = getattr(self, name)
            if value != self._as_loaded.get(name) and not (name == "pin" and not value):
                document[name] = value
        try:
            atomic_write(path, tomlkit.dumps(document).encode("utf-8"))
        except OSError as error:
            why = error.strerror or str(error)
            raise SettingsNotSaved(
                _("kiosk.toml cannot be written: {error}").format(error=why)
            ) from error
        self._remember()

    def _remember(self) -> None:
        """What the file holds now: :meth:`save` writes only what changes after this."""
        self._as_loaded = {name: copy.deepcopy(getattr(self, name)) for name in SETTINGS}


def _cannot_read(error: Exception) -> str:
    return _("kiosk.toml cannot be read: {error}").format(error=error)


def _hash(pin: str, salt: bytes) -> bytes:
    return hashlib.scrypt(pin.encode(), salt=salt, n=2**14, r=8, p=1, dklen=32)


def _matches(kept: str, typed: str) -> bool:
    try:
        salt, digest = (bytes.fromhex(part) for part in kept.split("$")[1:3])
    except ValueError:
        return False
    return hmac.compare_digest(_hash(typed, salt), digest)


def _keep(pin: str, directory: Path) -> str:
    """Keep ``pin``'s hash apart from ``kiosk.toml``; returns it (kept in memory even if the
    file cannot be written, which is logged)."""
    salt = secrets.token_bytes(16)
    kept = f"scrypt${salt.hex()}${_hash(pin, salt).hex()}"
    try:
        directory.mkdir(parents=True, exist_ok=True)
        atomic_write(directory / KEPT_PIN, (kept + "\n").encode("ascii"))
    except OSError as error:
        log.error("kiosk: the PIN could not be kept in %s: %s", directory / KEPT_PIN, error)
    return kept


def _read_kept(directory: Path) -> str:
    try:
        kept = (directory / KEPT_PIN).read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return ""
    return kept if kept.startswith("scrypt$") and kept.count("$") == 2 else ""
