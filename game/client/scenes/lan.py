"""LAN play around the lobby: the player's name and network link, and the screens over a
LAN match (its menu, its results).  The lobby — the live list of matches, hosting, the room —
is in :mod:`game.client.scenes.lobby`; the match is the one match screen with a
:class:`~game.client.net_control.NetControl`.

The network runs on threads of its own (:mod:`net.link`); these screens only read its
snapshots and post requests, so the frame loop never waits on a socket.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.client.navigator import Screen, make
from game.client.net_control import DROP_TIMEOUT
from game.client.scenes.menu import Item, MenuScene, item
from game.client.scenes.play import PlayScene
from game.client.scenes.results import ResultsScene
from game.i18n import _
from net.identity import Identity, IdentityError
from net.link import NetLink
from net.peer import PeerConfig

if TYPE_CHECKING:
    from game.client.app import App


def player_name(app: App) -> str:
    """The name others see on the LAN: the one the player gave, a kiosk's own (kiosk.toml),
    or a neutral "Player" if the player skipped giving one — never the computer account's."""
    if app.kiosk is not None:
        return app.kiosk.lan_name
    return app.settings.player_name or _("Player")


def open_link(app: App, code: str | None = None) -> NetLink | None:
    """A network link for this player, or None with the reason shown on the title screen."""
    try:
        identity = Identity.load(app.paths.data / "identity")
    except IdentityError as error:
        app.reset(make(Screen.TITLE, app, notice=str(error)))
        return None
    config = PeerConfig(
        name=player_name(app),
        code=code,
        interface=app.settings.lan_interface,
        drop_timeout=DROP_TIMEOUT,
        think_seconds=app.settings.thinking_seconds,
    )
    return NetLink(identity, config, on_change=app.wakeup.notify)


class NetPauseScene(MenuScene):
    """Over a LAN match: the match goes on meanwhile; leaving leaves it (you may rejoin)."""

    def __init__(self, app: App, play: PlayScene) -> None:
        self.play = play
        super().__init__(app)

    def title(self) -> str:
        return _("Menu")

    def subtitle(self) -> str:
        return _(
            "The match goes on meanwhile. If you leave, you can join it again from the LAN list."
        )

    def items(self) -> list[Item]:
        return [
            item(lambda: _("Continue"), self.app.pop, "continue"),
            item(lambda: _("Rules"),
                 lambda: self.app.push(make(Screen.RULES, self.app, self.play.match.variant)),
                 "rules"),
            item(lambda: _("Settings"), lambda: self.app.push(make(Screen.SETTINGS, self.app)),
                 "settings"),
            item(lambda: _("Leave the match"), self._leave, "leave"),
        ]  # fmt: skip

    def _leave(self) -> None:
        self.app.reset(make(Screen.TITLE, self.app))  # the match screen closes its link


class NetResultsScene(ResultsScene):
    """Results of a LAN match: a rematch is hosted anew, so only the way to the title."""

    def layout(self, size: tuple[int, int]) -> None:
        super().layout(size)
        self.set_targets([t for t in self.targets if t.name != "rematch"])
