"""What each point of the track sees: the targets of Pope's launches.

A launch goes from a full stop to any point of the track the car can reach in one straight move
on it, however far, so a point's view is a test of one move to every point of the track. A
search meets the same stopping points again and again (with other progress, other kit), so each
point's view is worked out once and kept, within a budget.

Seeing is symmetric: a straight move from a to b stays on the track exactly when the move from
b to a does. So once some points' views are known, a new point's view needs testing only against
the points whose own views are still unknown; the others say whether they see it. Over a whole
table that halves the segments tested. The known views are kept as one square matrix of
booleans, on tracks of up to ``SYMMETRY_POINTS`` points (36 MB at most); larger tracks test
every view in full.
"""

from __future__ import annotations

import numpy as np

from racetrack.board.lattice import LatticeRegion


class LaunchViews:
    """Each start point's view: the indexes of the ``land`` points a straight move on
    ``drive`` reaches from it."""

    #: How many (point, visible point) pairs the kept views may hold in all.
    BUDGET = 20_000_000
    #: The largest track (in land points) whose known views are kept as a matrix.
    SYMMETRY_POINTS = 6_000

    def __init__(self, drive: LatticeRegion, land: LatticeRegion, symmetric: bool = True):
        """``symmetric=False`` tests every view in full (the reference the reuse is checked
        against)."""
        self.drive = drive
        self.land = land
        self._cache: dict[tuple[int, int], np.ndarray] = {}
        self._kept = 0
        n = len(land.points)
        self._symmetric = symmetric and n <= self.SYMMETRY_POINTS
        self._matrix: np.ndarray | None = None  # made on the first launch asked for
        self._done = np.zeros(n, dtype=bool)

    def of(self, starts: np.ndarray) -> list[np.ndarray]:
        """For each distinct start point (an (m, 2) array), the indexes of the land points it
        sees, the points not seen before tested in one batched call."""
        keys = [(int(x), int(y)) for x, y in starts.tolist()]
        missing = [i for i, key in enumerate(keys) if key not in self._cache]
        found: dict[tuple[int, int], np.ndarray] = {}
        if missing:
            rows = self._rows(starts[missing])
            for j, i in enumerate(missing):
                view = np.flatnonzero(rows[j])
                found[keys[i]] = view
                if self._kept + len(view) <= self.BUDGET:
                    self._cache[keys[i]] = view
                    self._kept += len(view)
        return [self._cache.get(key, found.get(key)) for key in keys]

    def _rows(self, starts: np.ndarray) -> np.ndarray:
        """Whether each start sees each land point, an (m, n) array."""
        points = self.land.points
        m, n = len(starts), len(points)
        rows = np.zeros((m, n), dtype=bool)
        if not self._symmetric:
            index = np.full(m, -1)
        else:
            if self._matrix is None:
                self._matrix = np.zeros((n, n), dtype=bool)
            index = self.land.point_index(starts[:, 0], starts[:, 1]).astype(np.int64)
        seen_before = np.flatnonzero(index >= 0)[self._done[index[index >= 0]]]
        rows[seen_before] = self._matrix[index[seen_before]] if len(seen_before) else False
        on = np.flatnonzero(index >= 0)
        on = on[~self._done[index[on]]]
        known = np.flatnonzero(self._done)
        if len(on) and len(known):
            rows[np.ix_(on, known)] = self._matrix[np.ix_(known, index[on])].T
        # The points whose views are still unknown: those outside this batch are tested from
        # each start; within the batch each pair once, and mirrored.
        outside = ~self._done
        outside[index[on]] = False
        rest = np.flatnonzero(outside)
        rows[np.ix_(on, rest)] = self._test(starts[on], rest)
        first, second = np.triu_indices(len(on))
        a, b = on[first], on[second]
        both = self._test_pairs(starts[a], self.land.points[index[b]])
        rows[a, index[b]] = both
        rows[b, index[a]] = both
        off = np.flatnonzero(index < 0)
        rows[off] = self._test(starts[off], np.arange(n))
        if len(on):
            self._matrix[index[on]] = rows[on]
            self._done[index[on]] = True
        return rows

    def _test(self, starts: np.ndarray, targets: np.ndarray) -> np.ndarray:
        """Whether each start sees each of the ``targets`` (land point indexes): one batch."""
        m, k = len(starts), len(targets)
        points = self.land.points[targets]
        return self._test_pairs(np.repeat(starts, k, axis=0), np.tile(points, (m, 1))) \
            .reshape(m, k)

    def _test_pairs(self, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
        """Whether each straight move from a start to its end stays on the track."""
        if not len(starts):
            return np.zeros(0, dtype=bool)
        return self.drive.segments_inside(starts[:, 0], starts[:, 1], ends[:, 0], ends[:, 1])
