"""Where the files under ``assets/`` are, in a source checkout or an installed copy.

An installed distribution carries them as the package ``game.assets``; an editable install or
a plain checkout reads them from the ``assets/`` folder beside ``game/``.
"""

from __future__ import annotations

from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path


class MissingAssetError(FileNotFoundError):
    """An asset the program needs is not where the installation should have put it."""


def asset_root() -> Traversable:
    try:
        return files("game.assets")
    except ModuleNotFoundError:
        return Path(__file__).resolve().parent.parent / "assets"


def asset_bytes(relative: str) -> bytes:
    """The bytes of the asset at ``relative`` (a ``/``-separated path under ``assets/``)."""
    path = asset_root()
    for part in relative.split("/"):  # one part at a time: namespace packages take no more
        path = path.joinpath(part)
    try:
        return path.read_bytes()
    except OSError as error:
        raise MissingAssetError(
            f"asset {relative!r} cannot be read ({error}); reinstall tavolo to restore it"
        ) from error


def asset_text(relative: str) -> str:
    """The text of the asset at ``relative``, decoded as UTF-8."""
    return asset_bytes(relative).decode("utf-8")
