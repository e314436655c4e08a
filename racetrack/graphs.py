"""Backward searches over big state graphs, in numpy: who leads into a set of states?

The solver's moves-to-go table and the distance-to-go field both search backwards from the
finish. Edges are kept as two parallel arrays (source, destination); sorting them once by
destination makes "every source with an edge into these states" a pair of binary searches and
a gather, with no Python loop over states.
"""

from __future__ import annotations

import numpy as np


class ReverseEdges:
    """Edges sorted by destination, for finding the sources that lead into given states."""

    def __init__(self, sources: np.ndarray, destinations: np.ndarray,
                 weights: np.ndarray | None = None):
        order = np.argsort(destinations, kind="stable")
        self.destinations = destinations[order]
        self.sources = sources[order]
        self.weights = weights[order] if weights is not None else None

    def into(self, states: np.ndarray) -> np.ndarray:
        """Positions (in the sorted edge arrays) of every edge ending in one of ``states``."""
        lo = np.searchsorted(self.destinations, states, "left")
        hi = np.searchsorted(self.destinations, states, "right")
        counts = hi - lo
        total = int(counts.sum())
        if not total:
            return np.empty(0, dtype=np.int64)
        offsets = np.repeat(lo - np.concatenate([[0], np.cumsum(counts)[:-1]]), counts)
        return np.arange(total) + offsets
