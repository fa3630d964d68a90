"""Every screen of the game, registered with the navigator (:mod:`game.client.navigator`):
the one module that knows them all.  The app imports it once; nothing else does."""

from __future__ import annotations

from game.client import tutorial
from game.client.navigator import Screen, register
from game.client.scenes import (
    cards,
    highscores,
    import_game,
    kiosk,
    lan,
    lobby,
    operator,
    operator_scores,
    pause,
    play,
    players,
    replay,
    results,
    review,
    rules,
    saved,
    settings_screen,
    setup,
    table,
    title,
    tournament,
    tournament_tv,
)

register(Screen.TITLE, title.TitleScene)
register(Screen.SETUP, setup.SetupScene)
register(Screen.LAN_SETUP, lobby.LanSetupScene)
register(Screen.SETTINGS, settings_screen.SettingsScene)
register(Screen.CHOOSE, cards.ChooseScene)
register(Screen.RULES_INDEX, cards.RulesIndexScene)
register(Screen.PLAYERS, players.PlayersScene)
register(Screen.PICK_PLAYER, players.PickPlayerScene)
register(Screen.HIGH_SCORES, highscores.HighScoresScene)
register(Screen.TUTORIALS, tutorial.TutorialsScene)
register(Screen.UNFINISHED, saved.UnfinishedScene)
register(Screen.FINISHED, replay.FinishedScene)
register(Screen.LAN, lobby.LanScene)
register(Screen.TOURNAMENTS, tournament.TournamentsScene)
register(Screen.TOURNAMENT_JOIN, tournament.JoinLevelScene)
register(Screen.TOURNAMENT_TV, tournament_tv.TournamentTvScene)
register(Screen.TOURNAMENT_RESULTS, tournament.TournamentResultsScene)
register(Screen.TOURNAMENT_PAUSE, tournament.TournamentPauseScene)
register(Screen.RULES, rules.RulesScene)
register(Screen.PAUSE, pause.PauseScene)
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
