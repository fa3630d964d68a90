"""One board view per game; :func:`view_for` picks it."""

from __future__ import annotations

from game.client.views.base import BoardView, Table
from game.client.views.checkers import CheckersView
from game.client.views.mill import MillView
from game.client.views.sheet import SheetView
from game.client.views.track import TrackView
from game.rules import VARIANTS, State
from game.rules.ausgeblockt import AusgeblocktState
from game.rules.dama import DamaState
from game.rules.lupo import LupoState
from game.rules.mulino import MulinoState
from game.rules.numeri import NumeriState

VIEWS: dict[type[State], type[BoardView[State]]] = {
    AusgeblocktState: SheetView,
    NumeriState: TrackView,
    DamaState: CheckersView,
    LupoState: CheckersView,
    MulinoState: MillView,
}
"""The view that draws each kind of game (its state's class)."""


def view_for(variant_name: str, play: Table) -> BoardView[State]:
    return VIEWS[VARIANTS[variant_name].state_class](play)
