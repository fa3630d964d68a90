"""``python tools/bench.py ai mcts``: *hard* Mulino against OpenSpiel's MCTS bot (issue 32).

OpenSpiel's ``nine_mens_morris`` (C++ through its Python bindings, ``open-spiel`` from PyPI,
the ``bench`` extra) with its C++ ``MCTSBot``: UCT constant 2, ``simulations`` a move, one
random rollout a leaf, proven wins and losses solved — the set-up of OpenSpiel's own MCTS
example.  Each game starts from the empty board, *hard* White in the even games and Black in
the odd ones, seeded by the game's number (a run is repeatable).

The two engines play one game: every action is applied to Tavolo's state and to OpenSpiel's,
each checking it is legal (a move one engine refuses is reported as a mismatch and ends that
game).  Tavolo's rules decide the result; a game OpenSpiel ends by its length limit (214
actions) while Tavolo's goes on is a draw.  Every game's actions are reported in Tavolo's
notation, so a loss becomes a regression position (tests/test_mulino_blind_spot.py).
"""

from __future__ import annotations

import time
from typing import Any

POINTS = (
    "a7", "d7", "g7", "b6", "d6", "f6", "c5", "d5", "e5", "a4", "b4", "c4",
    "e4", "f4", "g4", "c3", "d3", "e3", "b2", "d2", "f2", "a1", "d1", "g1",
)  # fmt: skip
"""OpenSpiel's points, numbered row by row from the top left, in Tavolo's notation."""
INDEX = {point: n for n, point in enumerate(POINTS)}
MOVES = 24
"""OpenSpiel's actions below 24 are points (a placement, or a removal after a mill); a move
from ``a`` to ``b`` is ``24 + 24 a + b``."""


def to_spiel(text: str) -> int:
    """Tavolo's action ``text`` (``a1``, ``xd7``, ``d2-b2``) as OpenSpiel's action."""
    if "-" in text:
        start, end = text.split("-")
        return MOVES + MOVES * INDEX[start] + INDEX[end]
    return INDEX[text.removeprefix("x")]


def to_text(action: int, capturing: bool) -> str:
    """OpenSpiel's ``action`` in Tavolo's notation (``capturing``: a point is a removal)."""
    if action >= MOVES:
        start, end = divmod(action - MOVES, MOVES)
        return f"{POINTS[start]}-{POINTS[end]}"
    return ("x" if capturing else "") + POINTS[action]


def play(game: int, simulations: int) -> dict[str, Any]:
    """One game; *hard*'s score (1, ½, 0), its colour, the actions and the seconds."""
    import pyspiel

    from game.ai.players import choose
    from game.rules import new_game

    began = time.perf_counter()
    spiel_game = pyspiel.load_game("nine_mens_morris")
    bot = pyspiel.MCTSBot(
        spiel_game, pyspiel.RandomRolloutEvaluator(1, game), 2.0, simulations, 1000, True,
        game, False,
    )  # fmt: skip
    ours = new_game("mulino:classic")
    theirs = spiel_game.new_initial_state()
    hard = game % 2  # the seat hard plays: White in the even games
    actions: list[str] = []
    ending = ""
    while ours.result() is None:
        if theirs.is_terminal():
            ending = "OpenSpiel's length limit"
            break
        legal = {ours.action_to_str(a): a for a in ours.legal_actions()}
        capturing = any(text.startswith("x") for text in legal)
        if ours.to_move == hard:
            text = ours.action_to_str(choose(ours, "hard", seed=game).action)
            spiel_action = to_spiel(text)
            if spiel_action not in theirs.legal_actions():
                ending = f"mismatch: OpenSpiel refuses {text}"
                break
        else:
            spiel_action = bot.step(theirs)
            text = to_text(spiel_action, capturing)
            if text not in legal:
                ending = f"mismatch: Tavolo refuses {text}"
                break
        actions.append(text)
        ours = ours.apply(legal[text])
        theirs.apply_action(spiel_action)
    result = ours.result()
    if result is None:
        score = 0.5
    else:
        winners = result.winners()
        score = 0.5 if len(winners) != 1 else float(winners == (hard,))
        ending = str(result.reason)
    return {
        "game": game,
        "hard": "white" if hard == 0 else "black",
        "score": score,
        "ending": ending,
        "plies": len(actions),
        "actions": " ".join(actions),
        "seconds": round(time.perf_counter() - began, 1),
    }


def bench_mcts(games: int, simulations: int, workers: int) -> dict[str, Any]:
    from tools.benchmarks.common import hard_games, machine

    tally, played = hard_games(play, games, workers, simulations)
    return {
        "benchmark": "ai mcts",
        "machine": machine(),
        "opponent": f"OpenSpiel MCTSBot, {simulations} simulations, random rollouts, solver",
        **tally,
        "mismatches": [g for g in played if g["ending"].startswith("mismatch")],
    }
