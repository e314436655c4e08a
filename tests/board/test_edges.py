"""The edge buckets' junctions: vertices where two rings meet, found for all rings at once."""

from __future__ import annotations

import numpy as np
import shapely
from shapely.geometry import Polygon

from racetrack.board.edges import EdgeSet, _rings


def reference_junctions(rings: list[np.ndarray]) -> np.ndarray:
    """Each ring's vertices against the union of every other ring, and a ring's repeated
    vertices: plain, and quadratic in the rings."""
    lines = [shapely.LinearRing(ring) for ring in rings]
    flags = []
    for i, ring in enumerate(rings):
        others = [line for j, line in enumerate(lines) if j != i]
        near = np.zeros(len(ring), dtype=bool)
        if others:
            near = np.asarray(shapely.distance(shapely.union_all(others),
                                               shapely.points(ring))) < 1e-9
        _, index, counts = np.unique(ring, axis=0, return_inverse=True, return_counts=True)
        flags.append(near | (counts[index.ravel()] > 1))
    return np.concatenate(flags)


def test_junctions_match_the_plain_reference():
    outer = [(0, 0), (20, 0), (20, 20), (0, 20)]
    holes = [[(0, 5), (4, 5), (4, 8)],  # touching the outline at a vertex of its own
             [(6, 6), (9, 6), (9, 9), (6, 9)],
             [(9, 9), (12, 9), (12, 12)],  # touching the hole before at a shared corner
             [(14, 2), (16, 2), (15, 4)],
             [(2, 14), (5, 14), (5, 17), (3.5, 15.5)],
             [(10, 0.0), (11, 3), (9, 3)]]  # its corner on the outline's edge
    region = Polygon(outer, holes)
    rings = _rings(region)
    found = EdgeSet(region).junction
    assert found.tolist() == reference_junctions(rings).tolist()
    assert found.sum() == 4  # (0, 5), (10, 0), and (9, 9) in each of the two holes


def test_many_holes_are_measured_against_each_other_in_one_pass():
    holes = [[(x, y), (x + 1, y), (x + 1, y + 1), (x, y + 1)] for x in range(2, 70, 7)
             for y in range(2, 70, 7)]
    holes.append([(80, 80), (81, 79), (82, 80)])  # one shares a corner with the next
    holes.append([(82, 80), (83, 81), (82, 82)])
    region = Polygon([(0, 0), (90, 0), (90, 90), (0, 90)], holes)
    found = EdgeSet(region).junction
    assert found.tolist() == reference_junctions(_rings(region)).tolist()
    assert found.sum() == 2
