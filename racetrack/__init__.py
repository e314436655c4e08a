"""Racetrack: the graph-paper car race of Gardner, Baker and Nystrom.

The core (this package, less ``racetrack.ui``) is plain Python with numpy, shapely and yaml and
never imports pygame, so races, solvers and replays run and test without a window. The names
below are the scripting API (docs/scripting.md has an example).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from racetrack.errors import IllegalMoveError, RacetrackError
    from racetrack.game import Race, RaceState
    from racetrack.geometry import Vec
    from racetrack.model import (
        Candidate,
        CarSetup,
        Event,
        EventKind,
        Move,
        MoveKind,
        Outcome,
    )
    from racetrack.rules import RuleSet, load_rules
    from racetrack.track import Track, load_track

#: Where each name of the scripting API lives. They are imported on first use, so a command
#: such as ``racetrack --help`` starts without loading numpy, shapely and the game.
_LAZY = {"IllegalMoveError": "racetrack.errors", "RacetrackError": "racetrack.errors",
         "Race": "racetrack.game", "RaceState": "racetrack.game", "Vec": "racetrack.geometry",
         "Candidate": "racetrack.model", "CarSetup": "racetrack.model",
         "Event": "racetrack.model", "EventKind": "racetrack.model", "Move": "racetrack.model",
         "MoveKind": "racetrack.model", "Outcome": "racetrack.model",
         "RuleSet": "racetrack.rules", "load_rules": "racetrack.rules",
         "Track": "racetrack.track", "load_track": "racetrack.track"}


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'racetrack' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


__version__ = "0.1.0"

__all__ = ["Candidate", "CarSetup", "Event", "EventKind", "IllegalMoveError", "Move",
           "MoveKind", "Outcome", "Race", "RaceState", "RacetrackError", "RuleSet", "Track",
           "Vec", "load_rules", "load_track"]
