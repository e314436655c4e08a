"""Racetrack: the graph-paper car race of Gardner, Baker and Nystrom.

The core (this package, less ``racetrack.ui``) is plain Python with numpy, shapely and yaml and
never imports pygame, so races, solvers and replays run and test without a window.
"""

__version__ = "0.1.0"
