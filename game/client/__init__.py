"""The pygame-ce client: scenes, board views, animation, sound and input for every game."""

import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # no banner on the player's console
# The game draws every frame on the CPU.  SDL's default then hands the window surface to an
# OpenGL renderer to present it, which on a machine without a GPU (Mesa's llvmpipe) costs
# about 10 ms a frame at 1080p; the plain framebuffer path (X11 shared memory) costs about 1.
# Set SDL_FRAMEBUFFER_ACCELERATION in the environment to choose otherwise.
os.environ.setdefault("SDL_FRAMEBUFFER_ACCELERATION", "0")
