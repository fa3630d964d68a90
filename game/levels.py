"""The computer players' levels, weakest first: the names seats, saves, settings, the LAN
protocol and the engine protocol all use (one list, so that no layer knows a level another
does not)."""

from __future__ import annotations

LEVELS = ("easy", "medium", "hard")
