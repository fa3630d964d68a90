"""How long a review of a finished match takes (game/ai/review.py), per game: matches between
the *medium* and *easy* computers (people's mistakes, not random moves), every decision of
both seats reviewed as the review screen's worker does, in seconds per 100 actions; and the
coach's other work — a hint (*hard*'s choice) and the Ausgeblockt odds of a fresh symbol set.
"""

from __future__ import annotations

import random
import statistics
import time

from game.ai.odds import _tables, turn_odds
from game.ai.players import choose
from game.ai.review import review
from game.rules import VARIANTS, variant
from game.rules.ausgeblockt import DECIDE
from game.session.match import Match
from game.session.seats import Seat, SeatKind
from tools.benchmarks.common import machine

GAMES = ("dama:classic", "mulino:classic", "numeri", "ausgeblockt", "dama:lupo")


def _match(name: str, seed: int) -> Match:
    game = variant(name)
    levels = ["medium", "easy", "easy", "easy"][: game.players]
    seats = [Seat(SeatKind.COMPUTER, level) for level in levels]
    match = Match.new(game, seats, seed)
    rng = random.Random(seed)
    while not match.state.is_terminal() and len(match.record.actions) < 400:
        state = match.state
        if state.is_chance():
            match.roll()
        else:
            level = seats[state.to_move].level or "easy"
            match.play(choose(state, level, rng.randrange(1 << 30)).action)
    return match


def bench_review(matches: int) -> dict:
    results: dict = {"benchmark": "review", "machine": machine(), "games": {}}
    for name in GAMES:
        assert name in VARIANTS
        per_hundred, actions = [], []
        for seed in range(matches):
            match = _match(name, seed)
            people = set(range(match.variant.players))
            began = time.perf_counter()
            review(match.record, people)
            seconds = time.perf_counter() - began
            per_hundred.append(100 * seconds / max(1, len(match.record.actions)))
            actions.append(len(match.record.actions))
        results["games"][name] = {
            "matches": matches,
            "mean_actions": round(statistics.mean(actions)),
            "seconds_per_100_actions_mean": round(statistics.mean(per_hundred), 3),
            "seconds_per_100_actions_max": round(max(per_hundred), 3),
        }
    hints = []
    for seed in range(matches):
        match = _match("dama:classic", seed)
        state = match.state_at(len(match.record.actions) // 3)
        if state.to_move < 0:
            continue
        began = time.perf_counter()
        choose(state, "hard", seed, max_seconds=1.0, scale=1.0)
        hints.append(time.perf_counter() - began)
    results["hint_dama_seconds_mean"] = round(statistics.mean(hints), 3)
    sheet = _match("ausgeblockt", 1)
    state = next(s for s in sheet.states if turn_odds(s) is not None and s.stage == DECIDE)
    _tables.cache_clear()
    began = time.perf_counter()
    turn_odds(state)
    results["ausgeblockt_odds_first_time_ms"] = round(1000 * (time.perf_counter() - began), 1)
    began = time.perf_counter()
    turn_odds(state)
    results["ausgeblockt_odds_again_ms"] = round(1000 * (time.perf_counter() - began), 2)
    return results
