"""What an entry of the tournament log tells, as the headless director and players print it
(one JSON event a line): the same events from the same log on every participant."""

from __future__ import annotations

from typing import Any

from game.tournament import Format
from net.tournament_log import TournamentLog
from net.tournament_records import standings_of

Event = tuple[str, dict[str, Any]]


def events_after(log: TournamentLog, entry: dict[str, Any]) -> list[Event]:
    """The events of ``entry``, just applied to ``log``: ``entered``, ``round`` and a
    ``pairing`` per board, ``result`` (and ``standings`` once its round is complete),
    ``withdrawn``, ``over`` (the final standings and the log's digest)."""
    kind = entry["k"]
    names = {player: entrant.name for player, entrant in log.entrants.items()}
    if kind == "joined":
        return [("entered", {"player": entry["player"], "name": entry["name"],
                             "computer": entry["computer"]})]  # fmt: skip
    if kind == "withdrawn":
        return [("withdrawn", {"player": entry["player"], "name": names[entry["player"]],
                               "reason": entry["reason"]})]  # fmt: skip
    if kind == "round":
        pairings = [
            ("pairing", {"round": entry["round"], "board": board, "white": names[white],
                         "black": names[black], "players": [white, black]})
            for board, (white, black) in enumerate(entry["pairings"])
        ]  # fmt: skip
        byes = [names[bye] for bye in entry["byes"]]
        return [("round", {"round": entry["round"], "games": len(pairings), "byes": byes}),
                *pairings]  # fmt: skip
    if kind == "result":
        return _result(log, entry, names)
    assert kind == "over"
    return [("over", {"standings": standings_of(log), "digest": log.head, "entries": len(log)})]


def _result(log: TournamentLog, entry: dict[str, Any], names: dict[str, str]) -> list[Event]:
    assert log.tournament is not None
    number, board = entry["round"], entry["board"]
    played = log.tournament.rounds[number - 1]
    white, black = played.pairings[board].players
    events: list[Event] = [
        ("result", {"round": number, "board": board, "result": entry["result"],
                    "white": names[white], "black": names[black],
                    "record": entry["record"] is not None})
    ]  # fmt: skip
    last = len(played.pairings) - 1
    drawn_knockout = log.format is Format.KNOCKOUT and entry["result"] == "½-½"
    if drawn_knockout and last > board and played.outcomes[last] is None:
        # a knockout's drawn match goes to its decider, paired in advance on the last board;
        # a draw in any other format leaves the last board's pairing as it was announced
        decider_white, decider_black = played.pairings[last].players
        events.append(("pairing", {"round": number, "board": last, "white": names[decider_white],
                                   "black": names[decider_black],
                                   "players": [decider_white, decider_black]}))  # fmt: skip
    if played.complete:
        events.append(("standings", {"round": number, "standings": standings_of(log)}))
    return events
