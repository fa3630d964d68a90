"""The pygame-ce client: scenes, board views, animation, sound and input for every game."""
