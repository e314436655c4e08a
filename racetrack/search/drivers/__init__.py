"""Computer drivers, all behind one small protocol: given a race state, choose a move.

``make_driver("medium", seed=3)`` gives a driver for a level name; every driver is seeded, so a
race of computer drivers with the same seed is the same race, move for move.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from racetrack.search.drivers.driver import Driver, make_driver

#: The computer drivers' levels, easiest first (here, so a command line can offer them
#: without loading the drivers).
LEVELS = ("easy", "medium", "hard", "expert")


def __getattr__(name: str):
    if name in ("Driver", "make_driver"):
        value = getattr(importlib.import_module("racetrack.search.drivers.driver"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'racetrack.search.drivers' has no attribute {name!r}")

__all__ = ["LEVELS", "Driver", "make_driver"]
