"""Racetrack: the graph-paper car race of Gardner, Baker and Nystrom.

The core (this package, less ``racetrack.ui``) is plain Python with numpy, shapely and yaml and
never imports pygame, so races, solvers and replays run and test without a window. The names
below are the scripting API (see the README for an example).
"""

from racetrack.errors import IllegalMoveError, RacetrackError
from racetrack.game import Race, RaceState
from racetrack.geometry import Vec
from racetrack.model import Candidate, CarSetup, Event, EventKind, Move, MoveKind, Outcome
from racetrack.rules import RuleSet, load_rules
from racetrack.track import Track, load_track

__version__ = "0.1.0"

__all__ = ["Candidate", "CarSetup", "Event", "EventKind", "IllegalMoveError", "Move",
           "MoveKind", "Outcome", "Race", "RaceState", "RacetrackError", "RuleSet", "Track",
           "Vec", "load_rules", "load_track"]
