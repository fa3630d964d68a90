"""Computer opponents: one player per game, at three levels, deterministic from a seed.

Nothing here imports pygame or the network; the client runs the players in a worker
process so that the screen keeps moving while they think.
"""
