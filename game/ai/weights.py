"""Evaluation weights, in hundredths of a piece, tuned by self-play: ``python
tools/tune_weights.py --write`` rewrites this table; what it measured is in
docs/PERFORMANCE.md."""

WEIGHTS: dict[str, dict[str, int]] = {
    "mulino": {"piece": 100, "mill": 30, "open_mill": 18, "mobility": 4, "blocked": 6},
    "ceylonese": {"piece": 100, "mill": 20, "open_mill": 12, "mobility": 10, "blocked": 25},
    "dama": {"man": 100, "king": 280, "advance": 3, "back_row": 8, "centre": 4, "mobility": 1},
    "mangia": {"man": -100, "king": -220, "advance": 0, "back_row": 0, "centre": 0, "mobility": 2},
}
