"""One board view per game; :func:`view_for` picks it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.client.views.checkers import CheckersView
from game.client.views.mill import MillView
from game.client.views.sheet import SheetView
from game.client.views.track import TrackView

if TYPE_CHECKING:
    from game.client.scenes.play import PlayScene
    from game.client.views.base import BoardView


def view_for(variant_name: str, play: PlayScene) -> BoardView:
    game = variant_name.split(":")[0]
    views = {
        "ausgeblockt": SheetView,
        "numeri": TrackView,
        "dama": CheckersView,
        "mulino": MillView,
    }
    return views[game](play)
