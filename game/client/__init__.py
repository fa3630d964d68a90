"""The pygame-ce client: scenes, board views, animation, sound and input for every game."""

import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # no banner on the player's console
