"""The menu over a match: go on, the rules, the settings, leave."""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.client.navigator import Screen, make
from game.client.scenes.menu import Item, MenuScene, item
from game.i18n import _

if TYPE_CHECKING:
    from game.client.app import App
    from game.client.scenes.play import PlayScene


class PauseScene(MenuScene):
    """Over a match: go on, read the rules, change settings, or leave (saying what leaving
    keeps)."""

    def __init__(self, app: App, play: PlayScene) -> None:
        self.play = play
        super().__init__(app)

    def title(self) -> str:
        return _("Paused")

    def subtitle(self) -> str:
        return self.play.control.kept_on_leaving()

    def items(self) -> list[Item]:
        entries = [
            item(lambda: _("Continue"), self.app.pop, "continue"),
            item(
                lambda: _("Rules"),
                lambda: self.app.push(make(Screen.RULES, self.app, self.play.match.variant)),
                "rules",
            ),
            item(
                lambda: _("Settings"),
                lambda: self.app.push(make(Screen.SETTINGS, self.app)),
                "settings",
            ),
            item(lambda: _("Leave to the title screen"), self._leave, "leave"),
        ]
        if self.app.kiosk is not None:  # settings are the operator's
            entries = [e for e in entries if e[3] != "settings"]
        return entries

    def _leave(self) -> None:
        self.app.reset(make(Screen.TITLE, self.app))
