"""The player's settings, kept in the user's config directory as JSON.

A missing file gives the defaults; a damaged file or a bad value is logged and replaced by
the default, never a crash.  Saving is atomic, like every save.
"""

from __future__ import annotations

import getpass
import json
import logging
import math
from collections.abc import Callable
from dataclasses import asdict, dataclass, fields
from pathlib import Path

from game.files import atomic_write
from game.i18n import LANGUAGES
from game.levels import LADDER
from game.rules import VARIANTS

BOARD_THEME_NAMES = ("wood", "contrast")
"""The board themes (their colours are ``game.client.theme.BOARD_THEMES``)."""

log = logging.getLogger(__name__)

ANIMATION_SPEEDS = (0.5, 1.0, 2.0)
THINKING_SECONDS = (0.5, 1.0, 2.0, 5.0)
"""How long the computer may think per decision; its search budget scales with it."""
VOLUME_STEP = 0.1
"""One press of "−" or "+": the volume moves on a grid of tenths, from 0 to 1."""
ODDS_MODES = ("on", "off")
"""Whether the dice odds are shown to the people at this screen (in every match with
dice; a LAN room decides for its own).  ``auto`` — once the default, "against the easy
computer" only, which hid them from hot-seat, medium and hard games — is read as on."""
TABLE_LAYOUTS = ("beside", "facing")
"""The match screen's layout: ``beside`` — one panel beside the board (under it in a narrow
window); ``facing`` — a touch table with people on two opposite sides, each side's panel at
its own edge and turned to face it."""
NAME_LENGTH = 20
"""The longest name a player may give: it has to fit on seat buttons and in lists."""


@dataclass
class Settings:
    language: str = "en"
    volume: float = 0.7
    """Loudness of the sounds, 0 (silent) to 1 (full)."""
    muted: bool = False
    """Sounds off, whatever the volume: one tap away on the match screen (the music too)."""
    music: bool = False
    """The soft music loop: off unless the player turns it on."""
    music_volume: float = 0.4
    """Loudness of the music, 0 to 1, apart from the sounds'."""
    fullscreen: bool = False
    animation_speed: float = 1.0
    reduce_motion: bool = False
    """No sparks, bursts or confetti (the pieces still move, at the animation speed)."""
    colour_blind: bool = False
    board_theme: str = "wood"
    """The boards' paint: ``wood`` (the leaflets' boards) or ``contrast``."""
    thinking_seconds: float = 1.0
    dice_odds: str = "on"
    """The exact odds of an Ausgeblockt turn beside the dice: ``on``, ``off``, or ``auto``
    (in matches against the *easy* computer)."""
    table_layout: str = "beside"
    """The match screen's layout (:data:`TABLE_LAYOUTS`)."""
    show_coordinates: bool = True
    """Letters and numbers along the Mulino board and the Ausgeblockt sheet, as the move
    lists write them."""
    player_name: str = ""
    """The name others see on the LAN; empty: not given yet (the LAN screen asks for it)."""
    lan_interface: str = ""
    """The address whose network LAN play uses; empty: every LAN interface."""
    last_game: str = "mulino:classic"
    """The game last set up here: what *Play* on the title starts."""
    last_level: str = "medium"
    """The computer's level last chosen: *Play* and new setups start with it."""

    def valid(self, name: str, value: object) -> bool:
        checks: dict[str, Callable[[object], bool]] = {
            "language": lambda v: v in LANGUAGES,
            "volume": lambda v: (
                isinstance(v, int | float) and not isinstance(v, bool) and 0 <= v <= 1
            ),
            "muted": lambda v: isinstance(v, bool),
            "music": lambda v: isinstance(v, bool),
            "music_volume": lambda v: (
                isinstance(v, int | float) and not isinstance(v, bool) and 0 <= v <= 1
            ),
            "fullscreen": lambda v: isinstance(v, bool),
            "animation_speed": lambda v: v in ANIMATION_SPEEDS and not isinstance(v, bool),
            "colour_blind": lambda v: isinstance(v, bool),
            "reduce_motion": lambda v: isinstance(v, bool),
            "board_theme": lambda v: v in BOARD_THEME_NAMES,
            "show_coordinates": lambda v: isinstance(v, bool),
            "dice_odds": lambda v: v in ODDS_MODES,
            "table_layout": lambda v: v in TABLE_LAYOUTS,
            "thinking_seconds": lambda v: v in THINKING_SECONDS and not isinstance(v, bool),
            "player_name": lambda v: v == "" or (isinstance(v, str) and clean_name(v) == v),
            "lan_interface": lambda v: v == "" or _is_ipv4(v),
            "last_game": lambda v: v in VARIANTS,
            "last_level": lambda v: v in LADDER,
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
            if spec.name == "dice_odds" and value == "auto":
                value = "on"  # the old default: odds for people, now in every match
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


def stepped_volume(volume: float, steps: int) -> float:
    """The volume ``steps`` presses louder (fewer than 0: quieter), on the grid of
    :data:`VOLUME_STEP` and never outside 0–1; a volume between two marks of the grid (an old
    setting of 0.75, say) goes to the next mark in that direction.

    >>> stepped_volume(0.7, 1), stepped_volume(0.75, -1), stepped_volume(0.95, 3)
    (0.8, 0.7, 1.0)
    >>> stepped_volume(0.1, -1), stepped_volume(0.0, -1)
    (0.0, 0.0)
    """
    marks = round(1 / VOLUME_STEP)
    tenths = volume * marks
    if steps > 0:
        tenths = math.floor(tenths + 1e-9) + steps
    elif steps < 0:
        tenths = math.ceil(tenths - 1e-9) + steps
    return round(min(max(tenths, 0), marks) / marks, 2)


def clean_name(text: str) -> str | None:
    """``text`` as a player's name: trimmed of spaces at both ends, 1 to :data:`NAME_LENGTH`
    printable characters; None if it is not a name.

    >>> clean_name("  Carla "), clean_name("Jürgen Groß"), clean_name("   "), clean_name("a\\tb")
    ('Carla', 'Jürgen Groß', None, None)
    """
    name = text.strip()
    if 1 <= len(name) <= NAME_LENGTH and name.isprintable():
        return name
    return None


def suggested_name() -> str:
    """A name to offer a player who has not given one: their login name, capitalised, if it
    can be one — never the administrator's account ("Root" names nobody)."""
    try:
        login = getpass.getuser()
    except (OSError, KeyError):
        return ""
    if login.lower() in ("root", "administrator"):
        return ""
    return clean_name(login.capitalize()) or ""


def _is_ipv4(text: object) -> bool:
    parts = text.split(".") if isinstance(text, str) else []
    return len(parts) == 4 and all(p.isdigit() and int(p) < 256 for p in parts)
