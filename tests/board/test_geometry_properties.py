"""Property tests: the batched checks agree with plain one-segment-at-a-time shapely checks."""

from __future__ import annotations

import math

import numpy as np
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from racetrack.board.geometry import Line, Region


@st.composite
def tracks(draw):
    """A random star-shaped outline around the origin, sometimes with a star-shaped hole."""
    n = draw(st.integers(5, 14))
    outer_r = draw(st.lists(st.floats(6, 14), min_size=n, max_size=n))
    halves = draw(st.booleans())  # walls on half-integers, or anywhere
    outer = []
    for i, r in enumerate(outer_r):
        angle = 2 * math.pi * i / n
        x, y = r * math.cos(angle), r * math.sin(angle)
        # Walls anywhere are written as a track file would hold them: to six decimals (trig
        # noise such as 3.7e-16 for zero puts a lattice point 1e-16 outside, which only the
        # exact predicates, not the length-based check below, can tell).
        outer.append((round(x * 2) / 2, round(y * 2) / 2) if halves
                     else (round(x, 6), round(y, 6)))
    holes = []
    if draw(st.booleans()):
        m = draw(st.integers(3, 8))
        inner_r = draw(st.lists(st.floats(1, 4), min_size=m, max_size=m))
        holes.append([(r * math.cos(2 * math.pi * i / m), r * math.sin(2 * math.pi * i / m))
                      for i, r in enumerate(inner_r)])
    polygon = shapely.Polygon(outer, holes)
    return polygon if polygon.is_valid else shapely.Polygon(outer)


lattice = st.tuples(st.integers(-15, 15), st.integers(-15, 15))
segments = st.lists(st.tuples(lattice, lattice), min_size=1, max_size=40)


@settings(max_examples=60, deadline=None)
@given(tracks(), segments, st.booleans())
def test_batched_segment_test_matches_one_at_a_time(polygon, moves, boundary_counts):
    region = Region(shapely.Polygon(polygon.exterior, polygon.interiors))
    starts = np.array([m[0] for m in moves], float)
    ends = np.array([m[1] for m in moves], float)
    batched = region.covers_segments(starts, ends, boundary_counts)
    for (p, q), got in zip(moves, batched, strict=True):
        piece = shapely.LineString([p, q]) if p != q else shapely.Point(p)
        expected = polygon.covers(piece) if boundary_counts else polygon.contains_properly(piece)
        assert got == expected, (p, q)


@settings(max_examples=60, deadline=None)
@given(tracks(), segments)
def test_covered_segments_have_nothing_outside(polygon, moves):
    """An independent formulation: a covered segment leaves no length outside the track."""
    region = Region(polygon)
    starts = np.array([m[0] for m in moves], float)
    ends = np.array([m[1] for m in moves], float)
    for (p, q), got in zip(moves, region.covers_segments(starts, ends), strict=True):
        if p == q:
            continue
        outside = shapely.LineString([p, q]).difference(polygon).length
        assert got == (outside < 1e-9), (p, q, outside)


half_lattice = st.tuples(st.integers(-20, 20).map(lambda v: v / 2),
                         st.integers(-20, 20).map(lambda v: v / 2))


@settings(max_examples=100, deadline=None)
@given(half_lattice, half_lattice, lattice.filter(lambda f: f != (0, 0)), segments)
def test_crossings_match_a_plain_shapely_check(a, b, forward, moves):
    line = Line(a, b, forward)
    if line.is_degenerate:
        return
    starts = np.array([m[0] for m in moves], float)
    ends = np.array([m[1] for m in moves], float)
    got = line.crossings(starts, ends)
    drawn = shapely.LineString([a, b])

    def side(point):
        cross = (b[0] - a[0]) * (point[1] - a[1]) - (b[1] - a[1]) * (point[0] - a[0])
        along = (b[0] - a[0]) * forward[1] - (b[1] - a[1]) * forward[0]
        return np.sign(cross) * np.sign(along)

    for (p, q), value in zip(moves, got, strict=True):
        piece = shapely.LineString([p, q]) if p != q else shapely.Point(p)
        touching = drawn.intersects(piece)
        expected = 0
        if touching and side(p) < 0 <= side(q):
            expected = 1
        elif touching and side(q) < 0 <= side(p):
            expected = -1
        assert value == expected, (p, q)
