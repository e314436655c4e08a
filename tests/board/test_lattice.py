"""The lattice's fast move questions against shapely, which stays their reference.

``LatticeRegion`` settles most moves by clearance and ``EdgeSet``'s signs; whatever they answer
(sure or deferred to shapely) must be what shapely says of the same move, on random tracks with
corners on quarters (the exact case) and on odd decimals (where signs near zero are deferred).
"""

from __future__ import annotations

import math

import numpy as np
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from racetrack.board.course import Course
from racetrack.board.edges import EdgeSet
from racetrack.board.lattice import SMALL_BATCH, LatticeRegion, SheetGrid, ZoneLattice
from racetrack.board.track import parse_track


@st.composite
def rings(draw):
    """A star-shaped outline around a hexagonal hole; corners on quarters or on hundredths."""
    n = draw(st.integers(5, 9))
    quarter = draw(st.booleans())
    unit = 4 if quarter else 100
    radii = draw(st.lists(st.floats(5.5, 10), min_size=n, max_size=n))
    inner = draw(st.floats(1.5, 3.5))

    def at(r, angle):
        return [round(r * math.cos(angle) * unit) / unit, round(r * math.sin(angle) * unit) / unit]

    outer = [at(r, 2 * math.pi * i / n) for i, r in enumerate(radii)]
    hole = [at(inner, 2 * math.pi * i / 6) for i in range(6)]
    return parse_track("racetrack-track: 1\nname: Random\n"
                       f"outer: {outer}\nholes: [{hole}]\n"
                       f"start: {{a: [0, {-inner}], b: [0, {-min(radii)}], forward: [1, 0]}}\n")


def random_moves(rng, points: np.ndarray, count: int, reach: int):
    a = points[[rng.randrange(len(points)) for _ in range(count)]]
    d = np.array([[rng.randint(-reach, reach), rng.randint(-reach, reach)]
                  for _ in range(count)])
    return a[:, 0], a[:, 1], a[:, 0] + d[:, 0], a[:, 1] + d[:, 1]


@settings(max_examples=20, deadline=None)
@given(rings(), st.booleans(), st.randoms(use_true_random=False))
def test_moves_inside_agree_with_shapely(track, closed, rng):
    course = Course(track)
    region = LatticeRegion(course.surface, SheetGrid(course.sheet), closed)
    px, py, qx, qy = random_moves(rng, region.points, 4 * SMALL_BATCH, 6)
    found = region.segments_inside(px, py, qx, qy)
    ends = region.contains(px, py) & region.contains(qx, qy)
    truth = np.zeros(len(px), dtype=bool)
    truth[ends] = course.surface.covers_segments(
        np.column_stack([px, py])[ends], np.column_stack([qx, qy])[ends], closed)
    assert (found == truth).all()


@settings(max_examples=20, deadline=None)
@given(rings(), st.booleans(), st.randoms(use_true_random=False))
def test_first_exits_agree_with_shapely(track, closed, rng):
    course = Course(track)
    region = LatticeRegion(course.surface, SheetGrid(course.sheet), closed)
    px, py, qx, qy = random_moves(rng, region.points, 2 * SMALL_BATCH, 8)
    fast = EdgeSet(course.surface.geometry).first_exit(px, py, qx, qy, closed)
    slow = region._exit_fractions_by_shapely(px, py, qx, qy)
    sure = ~fast.unsure
    assert np.allclose(fast.value[sure], slow[sure], atol=1e-9)
    assert np.allclose(region.exit_fractions(px, py, qx, qy), slow, atol=1e-9)


@settings(max_examples=20, deadline=None)
@given(rings(), st.randoms(use_true_random=False))
def test_zone_touches_agree_with_shapely(track, rng):
    course = Course(track)
    x0, y0, x1, y1 = course.sheet
    zones = []
    for _ in range(3):
        x, y = rng.uniform(x0, x1 - 3), rng.uniform(y0, y1 - 3)
        w, h = rng.choice([0.5, 1, 1.5, 2.25]), rng.choice([0.5, 1, 2, 2.75])
        zones.append(shapely.box(round(x * 4) / 4, round(y * 4) / 4,
                                 round(x * 4) / 4 + w, round(y * 4) / 4 + h))
    lattice = ZoneLattice(zones, SheetGrid(course.sheet))
    points = SheetGrid(course.sheet).all_points()
    px, py, qx, qy = random_moves(rng, points, 4 * SMALL_BATCH, 5)
    found = lattice.touches(px, py, qx, qy)
    shapes = [shapely.LineString([(a, b), (c, d)]) if (a, b) != (c, d) else shapely.Point(a, b)
              for a, b, c, d in zip(px, py, qx, qy, strict=True)]
    truth = np.zeros(len(px), dtype=bool)
    for zone in zones:
        truth |= np.asarray(shapely.intersects(zone, shapes))
    assert (found == truth).all()


def test_nearest_points_agree_with_the_region():
    track = parse_track("racetrack-track: 1\nname: Box\n"
                        "outer: [[0, 0], [20, 0], [20, 12], [0, 12]]\n"
                        "holes: [[[4, 4], [16, 4], [16, 8], [4, 8]]]\n"
                        "start: {a: [10, 0], b: [10, 4], forward: [1, 0]}\n")
    course = Course(track)
    region = LatticeRegion(course.surface, SheetGrid(course.sheet), True)
    places = [(5.3, 5.9), (10.5, 6.0), (-3.0, 2.2), (19.9, 12.6), (8.0, 4.4)]
    ex = np.array([p[0] for p in places])
    ey = np.array([p[1] for p in places])
    found = region.nearest_points(ex, ey, ex.round().astype(int), ey.round().astype(int),
                                  exclude=[(5, 4)])
    for (x, y), spot in zip(places, found, strict=True):
        expected = course.surface.nearest_lattice_point((x, y), True, prefer=(round(x), round(y)),
                                                        exclude=[(5, 4)])
        assert tuple(spot) == tuple(expected)
