"""The window: the only package that imports pygame.

Data flows one way: the core's model is drawn here, and clicks are turned here into moves that
the core checks and applies. Nothing in this package decides whether a move is legal.
"""

import os

# pygame prints a banner on import unless asked not to; the game's output is the game's own.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
