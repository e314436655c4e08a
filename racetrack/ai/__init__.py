"""Computer drivers, all behind one small protocol: given a race state, choose a move.

``make_driver("medium", seed=3)`` gives a driver for a level name; every driver is seeded, so a
race of computer drivers with the same seed is the same race, move for move.
"""

from racetrack.ai.driver import LEVELS, Driver, make_driver

__all__ = ["LEVELS", "Driver", "make_driver"]
