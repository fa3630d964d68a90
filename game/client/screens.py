"""Every screen of the game, registered with the navigator (:mod:`game.client.navigator`):
the one module that knows them all.  The app imports it once; nothing else does."""

from __future__ import annotations

from game.client.navigator import Screen, register
from game.client.scenes import (
    import_game,
    kiosk,
    lan,
    lobby,
    menus,
    operator,
    operator_scores,
    play,
    replay,
    results,
    review,
    table,
)

register(Screen.TITLE, menus.TitleScene)
register(Screen.SETUP, menus.SetupScene)
register(Screen.LAN_SETUP, lobby.LanSetupScene)
register(Screen.SETTINGS, menus.SettingsScene)
register(Screen.RULES, menus.RulesScene)
register(Screen.PAUSE, menus.PauseScene)
register(Screen.PLAY, play.PlayScene)
register(Screen.MATCH, table.match_scene)
register(Screen.RESULTS, results.ResultsScene)
register(Screen.REVIEW, review.ReviewScene)
register(Screen.REVIEW_MATCH, review.ReviewScene.of_match)
register(Screen.REPLAY, replay.ReplayScene.of_match)
register(Screen.IMPORT, import_game.ImportScene)
register(Screen.NET_PAUSE, lan.NetPauseScene)
register(Screen.NET_RESULTS, lan.NetResultsScene)
register(Screen.PIN, kiosk.pin_keypad)
register(Screen.OPERATOR, operator.OperatorScene)
register(Screen.OPERATOR_SCORES, operator_scores.OperatorScoresScene)
register(Screen.ATTRACT, kiosk.AttractScene)
register(Screen.ABANDON, kiosk.AbandonScene)
register(Screen.CLOSED, kiosk.ClosedScene)
