"""The operator's settings of a kiosk: ``kiosk.toml`` in the config directory.

Every key is documented in docs/kiosk.md.  A missing file gives the defaults; a file that is
not TOML, a value of the wrong kind or out of range, or an unknown key is logged and replaced
by the default — a kiosk never refuses to start over its configuration.  The operator menu
writes the file back atomically.
"""

from __future__ import annotations

import logging
import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path

from game.client.settings import clean_name
from game.i18n import LANGUAGES
from game.rules import VARIANTS
from game.session.saves import atomic_write

log = logging.getLogger(__name__)

FILE = "kiosk.toml"


def _seconds(low: float, high: float):
    return lambda v: isinstance(v, int | float) and not isinstance(v, bool) and low <= v <= high


CHECKS = {
    "pin": lambda v: isinstance(v, str) and v.isdigit() and 4 <= len(v) <= 8,
    "games": lambda v: isinstance(v, list) and v and all(g in VARIANTS for g in v),
    "languages": lambda v: isinstance(v, list) and v and all(lang in LANGUAGES for lang in v),
    "volume": lambda v: isinstance(v, int | float) and not isinstance(v, bool) and 0 <= v <= 1,
    "attract_after": _seconds(10, 3600),
    "abandon_after": _seconds(20, 3600),
    "countdown": _seconds(5, 120),
    "dim_after": _seconds(30, 86400),
    "lan_hosting": lambda v: isinstance(v, bool),
    "lan_name": lambda v: isinstance(v, str) and clean_name(v) == v,
}
"""What each key accepts (docs/kiosk.md says the same in words)."""


@dataclass
class KioskConfig:
    pin: str = "2580"
    games: list[str] = field(default_factory=lambda: list(VARIANTS))
    languages: list[str] = field(default_factory=lambda: list(LANGUAGES))
    volume: float = 0.5
    attract_after: float = 90.0
    abandon_after: float = 180.0
    countdown: float = 15.0
    dim_after: float = 900.0
    lan_hosting: bool = False
    lan_name: str = "Tavolo"
    """The name others on the LAN see for whoever plays at the kiosk (nobody types one)."""

    @classmethod
    def load(cls, directory: Path) -> KioskConfig:
        config = cls()
        path = directory / FILE
        try:
            stored = tomllib.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            log.info("no %s: the kiosk runs with the default settings", path)
            return config
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
            log.warning("kiosk settings %s unreadable (%s): using the defaults", path, error)
            return config
        known = {spec.name for spec in fields(cls)}
        for key in sorted(set(stored) - known):
            log.warning("kiosk setting %r in %s is unknown: ignored", key, path)
        for name in sorted(known & set(stored)):
            value = stored[name]
            if CHECKS[name](value):
                setattr(config, name, list(value) if isinstance(value, list) else value)
            else:
                log.warning(
                    "kiosk setting %s = %r in %s is not valid: using %r",
                    name,
                    value,
                    path,
                    getattr(config, name),
                )
        return config

    def save(self, directory: Path) -> None:
        lines = ["# Tavolo kiosk settings: every key is explained in docs/kiosk.md", ""]
        for spec in fields(self):
            lines.append(f"{spec.name} = {_toml(getattr(self, spec.name))}")
        atomic_write(directory / FILE, ("\n".join(lines) + "\n").encode("utf-8"))


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return repr(value)
