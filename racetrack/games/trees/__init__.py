"""Graph Trees: Levi's territory game on the racing paper, with the racing movement.

Players grow trees of tracks from the middle of their side of the sheet; tracks never cross,
and a track may branch from any node. Territory is what a player's tracks fence off from the
others. See ``docs/graph-trees.md`` for the rules as implemented.
"""

from racetrack.games.trees.game import Player, TreesGame, TreesState
from racetrack.games.trees.model import Candidate, Move, MoveKind, Outcome, Termination, Track
from racetrack.games.trees.rules import TreeRules, bundled_names, load_tree_rules

__all__ = ["Candidate", "Move", "MoveKind", "Outcome", "Player", "Termination",
           "Track", "TreeRules", "TreesGame", "TreesState", "bundled_names", "load_tree_rules"]
