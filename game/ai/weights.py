"""Evaluation weights tuned by self-play — in hundredths of a piece, Numeri's in points per
pawn number (see ``game/ai/track_player.py``): ``python tools/tune_weights.py --write``
rewrites this table; what it measured is in docs/PERFORMANCE.md."""

WEIGHTS: dict[str, dict[str, int]] = {
    "mulino": {
        "piece": 100,
        "mill": 30,
        "open_mill": 18,
        "mobility": 4,
        "blocked": 6,
        "running_mill": 150,
        "cramped": 10,
    },
    "ceylonese": {
        "piece": 100,
        "mill": 20,
        "open_mill": 12,
        "mobility": 10,
        "blocked": 25,
        "running_mill": 150,
        "cramped": 0,
    },
    "dama": {"man": 100, "king": 280, "advance": 3, "back_row": 8, "centre": 4, "mobility": 1},
    "mangia": {"man": -100, "king": -220, "advance": 0, "back_row": 0, "centre": 0, "mobility": 2},
    "numeri": {"waiting": -8, "advance": 3, "to_roll": 8},
}
