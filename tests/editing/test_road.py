"""The road tool's geometry: smoothing through clicks, freehand strokes, widths and lines."""

from __future__ import annotations

import math

import pytest
import shapely
from shapely.geometry import Polygon

from racetrack.board.track.draft import Draft
from racetrack.editing.road import (
    RoadError,
    build_road,
    is_closing,
    join_track,
    simplify_stroke,
    smooth,
)


def test_the_smoothed_line_passes_through_every_clicked_point():
    clicks = [(0, 0), (10, 0), (14, 8), (4, 12)]
    curve = smooth(clicks, closed=True)
    for point in clicks:
        assert min(math.dist(point, p) for p in curve) < 1e-9
    assert all(math.dist(a, b) <= 0.75 for a, b in zip(curve, curve[1:], strict=False))


@pytest.mark.parametrize("width", [2, 4, 7.5])
def test_a_circuit_is_an_outline_with_one_infield_and_the_road_as_wide_as_asked(width):
    road = build_road([(0, 0), (30, 0), (30, 20), (0, 20)], width, closed=True)
    assert len(road.holes) == 1
    surface = Polygon(road.outer, road.holes)
    assert surface.is_valid
    # Across the road, a probe square to the centreline meets the surface for `width` squares.
    probe = shapely.LineString([(15, -10), (15, 10)])
    inside = surface.intersection(probe)
    assert inside.length == pytest.approx(width, abs=0.3)
    track = Draft(outer=road.outer, holes=road.holes, start=road.start).to_track()
    assert track.start_positions()


def test_corners_are_kept_to_tenths():
    road = build_road([(0, 0), (17, 3), (9, 15)], 3.3, closed=True)
    for x, y in (*road.outer, *road.holes[0]):
        assert round(x, 1) == x and round(y, 1) == y


def test_a_freehand_stroke_closes_when_it_ends_where_it_began():
    stroke = [(10 * math.cos(a / 30 * 2 * math.pi), 10 * math.sin(a / 30 * 2 * math.pi))
              for a in range(31)]
    assert is_closing(stroke, 4)
    assert not is_closing(stroke[:20], 4)
    assert len(simplify_stroke(stroke)) < len(stroke)


def test_too_few_points_is_a_plain_refusal():
    with pytest.raises(RoadError, match="at least two points"):
        build_road([(0, 0)], 4, closed=False)


def test_a_road_that_misses_the_track_is_refused():
    first = build_road([(0, 0), (20, 0), (20, 10), (0, 10)], 4, closed=True)
    far = build_road([(100, 100), (120, 100)], 4, closed=False)
    with pytest.raises(RoadError, match="does not meet the track"):
        join_track(first.outer, first.holes, far)
