"""The match screen for a touch table: people on two opposite sides, the board between them,
and each side's panel at its own edge, turned to face it (the far one upside down) — the
match screen composed with :class:`~game.client.table_panels.FacingPanels`, where the
layout, the sides' buttons and their drawing live.  The pause menu faces the side that
opened it (the whole picture turns while it is up).  A lesson keeps the usual screen (it is
one learner's).

Chosen in Settings (*Layout*) and by a kiosk's ``table_layout`` in ``kiosk.toml``; the
factory :func:`match_scene` is what the other screens call to start a match.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.client.control import MatchControl
from game.client.scenes.play import PlayScene
from game.client.settings import TABLE_LAYOUTS
from game.client.table_panels import FacingPanels
from game.i18n import _
from game.session.match import Match

if TYPE_CHECKING:
    from game.client.app import App


class FaceToFaceScene(PlayScene):
    """The match screen laid out for people facing each other across a touch table."""

    def __init__(self, app: App, source: Match | MatchControl) -> None:
        super().__init__(app, source, FacingPanels)


def match_scene(app: App, source: Match | MatchControl) -> PlayScene:
    """The match screen the table is set up for (``table_layout``: ``beside`` or ``facing``)."""
    if app.table_layout == "facing":
        return FaceToFaceScene(app, source)
    return PlayScene(app, source)


def layout_label(layout: str) -> str:
    """The Settings button's words for a layout."""
    if layout == "facing":
        return _("Layout: face to face (touch table)")
    return _("Layout: panel beside the board")


def next_layout(layout: str) -> str:
    return TABLE_LAYOUTS[(TABLE_LAYOUTS.index(layout) + 1) % len(TABLE_LAYOUTS)]
