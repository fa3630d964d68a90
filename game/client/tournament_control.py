"""A person's own game of a tournament on the match screen: an ordinary LAN match
(:class:`~game.client.net_control.NetControl`) whose results and menu lead back to the
tournament's room rather than to the title screen (which would leave the tournament)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.client.navigator import Screen, make
from game.client.net_control import NetControl

if TYPE_CHECKING:
    from game.client.app import App
    from game.client.scene import Scene
    from game.client.scenes.play import PlayScene


class TournamentGameControl(NetControl):
    """See the module's docstring."""

    def finished(self, app: App) -> Scene:
        return make(Screen.TOURNAMENT_RESULTS, app, self.match)

    def pause_menu(self, app: App, play: PlayScene) -> Scene:
        return make(Screen.TOURNAMENT_PAUSE, app, play)
