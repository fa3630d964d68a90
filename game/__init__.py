"""Tavolo: the classic Schmidt/NSV table games. ``game.rules`` is the pure rules engine."""
