"""The player's settings, kept in the user's config directory as JSON.

A missing file gives the defaults; a damaged file or a bad value is logged and replaced by
the default, never a crash.  Saving is atomic, like every save.
"""

from __future__ import annotations

import json
import logging
from dataclasses import asdict, dataclass, fields
from pathlib import Path

from game.i18n import LANGUAGES
from game.session.saves import atomic_write

log = logging.getLogger(__name__)

ANIMATION_SPEEDS = (0.5, 1.0, 2.0)
THINKING_SECONDS = (0.5, 1.0, 2.0, 5.0)
"""How long the computer may think per decision; its search budget scales with it."""


@dataclass
class Settings:
    language: str = "en"
    volume: float = 0.7
    fullscreen: bool = False
    animation_speed: float = 1.0
    colour_blind: bool = False
    thinking_seconds: float = 1.0
    show_coordinates: bool = True
    """Letters and numbers along the Mulino board and the Ausgeblockt sheet, as the move
    lists write them."""
    player_name: str = ""
    """The name others see on the LAN; empty: the computer account's name."""
    lan_interface: str = ""
    """The address whose network LAN play uses; empty: every LAN interface."""

    def valid(self, name: str, value: object) -> bool:
        checks = {
            "language": lambda v: v in LANGUAGES,
            "volume": lambda v: (
                isinstance(v, int | float) and not isinstance(v, bool) and 0 <= v <= 1
            ),
            "fullscreen": lambda v: isinstance(v, bool),
            "animation_speed": lambda v: v in ANIMATION_SPEEDS and not isinstance(v, bool),
            "colour_blind": lambda v: isinstance(v, bool),
            "show_coordinates": lambda v: isinstance(v, bool),
            "thinking_seconds": lambda v: v in THINKING_SECONDS and not isinstance(v, bool),
            "player_name": lambda v: isinstance(v, str) and len(v) <= 40 and v.isprintable(),
            "lan_interface": lambda v: v == "" or _is_ipv4(v),
        }
        return checks[name](value)

    @classmethod
    def load(cls, path: Path) -> Settings:
        settings = cls()
        try:
            stored = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return settings
        except (OSError, ValueError) as error:
            log.warning("settings file %s unreadable (%s): using the defaults", path, error)
            return settings
        if not isinstance(stored, dict):
            log.warning("settings file %s is not a table: using the defaults", path)
            return settings
        for spec in fields(cls):
            if spec.name not in stored:
                continue
            value = stored[spec.name]
            if settings.valid(spec.name, value):
                setattr(settings, spec.name, value)
            else:
                log.warning(
                    "setting %s=%r is not valid: using %r",
                    spec.name,
                    value,
                    getattr(settings, spec.name),
                )
        return settings

    def save(self, path: Path) -> None:
        atomic_write(path, json.dumps(asdict(self), indent=2).encode("utf-8"))


def _is_ipv4(text: object) -> bool:
    parts = text.split(".") if isinstance(text, str) else []
    return len(parts) == 4 and all(p.isdigit() and int(p) < 256 for p in parts)
