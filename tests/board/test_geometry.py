"""The geometry layer: walls, lines, crossings, zones and nearest points."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely

from racetrack.board.geometry import Line, Region, Vec, line_crossings


def region(outer, holes=()):
    return Region(shapely.Polygon(outer, list(holes)))


SQUARE = [(0, 0), (10, 0), (10, 10), (0, 10)]


def covers(reg, p, q, boundary_counts=True):
    return bool(reg.covers_segments(np.array([p]), np.array([q]), boundary_counts)[0])


class TestWalls:
    def test_touching_allowed_accepts_a_move_along_the_wall(self):
        assert covers(region(SQUARE), (0, 0), (10, 0))

    def test_walls_off_the_track_rejects_a_move_along_the_wall(self):
        assert not covers(region(SQUARE), (0, 0), (10, 0), boundary_counts=False)

    def test_walls_off_the_track_rejects_a_move_ending_on_the_wall(self):
        assert not covers(region(SQUARE), (5, 5), (10, 5), boundary_counts=False)
        assert covers(region(SQUARE), (5, 5), (9, 5), boundary_counts=False)

    def test_a_move_through_a_hole_is_off_the_track(self):
        reg = region(SQUARE, [[(4, 4), (6, 4), (6, 6), (4, 6)]])
        assert not covers(reg, (3, 5), (7, 5))
        assert covers(reg, (3, 4), (7, 4))  # runs along the hole's edge: touching

    def test_a_move_tangent_to_a_round_infield_is_on_the_track(self):
        n = 720
        circle = [(3 * math.cos(2 * math.pi * i / n), 3 * math.sin(2 * math.pi * i / n))
                  for i in range(n)]
        reg = region([(-7, -7), (7, -7), (7, 7), (-7, 7)], [circle])
        assert covers(reg, (-2, -3), (2, -3))  # touches the circle at (0, -3)
        assert not covers(reg, (-2, -2), (2, -2))  # cuts through it
        assert covers(reg, (3, -4), (5, 0))  # tangent at a point between the polygon's vertices

    def test_a_move_outside_the_outline_is_off_the_track(self):
        assert not covers(region(SQUARE), (5, 5), (11, 5))

    def test_a_move_across_a_concave_notch_is_off_the_track(self):
        u_shape = [(0, 0), (3, 0), (3, 8), (5, 8), (5, 0), (8, 0), (8, 10), (0, 10)]
        assert not covers(region(u_shape), (1, 1), (7, 1))
        assert covers(region(u_shape), (1, 9), (7, 9))

    def test_staying_put_is_on_the_track_where_the_point_is(self):
        assert covers(region(SQUARE), (5, 5), (5, 5))
        assert covers(region(SQUARE), (0, 5), (0, 5))
        assert not covers(region(SQUARE), (0, 5), (0, 5), boundary_counts=False)

    def test_an_empty_batch_gives_an_empty_answer(self):
        assert region(SQUARE).covers_segments(np.empty((0, 2)), np.empty((0, 2))).shape == (0,)


class TestLines:
    line = Line((5, 0), (5, 10), (1, 0))  # a vertical line crossed left to right

    def test_a_point_on_the_line_has_reached_it(self):
        assert self.line.reached(np.array([[5, 3]]))[0]
        assert not self.line.behind(np.array([[5, 3]]))[0]

    def test_a_point_strictly_opposite_forward_is_behind(self):
        assert self.line.behind(np.array([[4, 3]]))[0]
        assert self.line.reached(np.array([[6, 3]]))[0]

    def test_forward_decides_the_side_whatever_the_order_of_a_and_b(self):
        flipped = Line((5, 10), (5, 0), (1, 0))
        assert flipped.behind(np.array([[4, 3]]))[0]

    @pytest.mark.parametrize("p, q, expected", [
        ((3, 5), (7, 5), 1),     # straight across
        ((7, 5), (3, 5), -1),    # backwards
        ((3, 5), (5, 5), 1),     # ends on the line: reached it
        ((5, 5), (7, 5), 0),     # starts on the line: had already reached it
        ((5, 5), (3, 5), -1),    # from the line back behind it
        ((3, 9), (7, 11), 1),    # crosses at the very end point b = (5, 10)
        ((3, 11), (7, 11), 0),   # passes beyond the end
        ((3, -1), (7, 1), 1),    # crosses at the very start point a = (5, 0)
        ((3, 5), (4, 5), 0),     # stays behind
        ((5, 2), (5, 8), 0),     # runs along the line
    ])
    def test_crossings(self, p, q, expected):
        assert self.line.crossings(np.array([p]), np.array([q]))[0] == expected

    def test_crossing_fraction_and_distance_past(self):
        p, q = np.array([[3, 5]]), np.array([[7, 5]])
        assert self.line.crossing_fraction(p, q)[0] == pytest.approx(0.5)
        assert self.line.distance_past(np.array([[8, 1], [5, 2], [2, 2]])) == \
            pytest.approx([3, 0, -3])

    def test_lattice_points_of_a_slanted_line(self):
        assert Line((0, 0), (4, 2), (0, 1)).lattice_points() == [Vec(0, 0), Vec(2, 1), Vec(4, 2)]
        assert Line((0.5, 0), (0.5, 3), (1, 0)).lattice_points() == []

    def test_degenerate_lines(self):
        assert Line((0, 0), (0, 0), (1, 0)).is_degenerate
        assert Line((0, 0), (0, 4), (0, 1)).is_degenerate
        assert not Line((0, 0), (0, 4), (1, 1)).is_degenerate

    def test_batched_crossings_against_a_line_per_move(self):
        a = np.array([[5, 0], [0, 5]], float)
        b = np.array([[5, 10], [10, 5]], float)
        forward = np.array([[1, 0], [0, 1]], float)
        p = np.array([[3, 5], [4, 3]], float)
        q = np.array([[7, 5], [4, 7]], float)
        assert list(line_crossings(a, b, forward, p, q)) == [1, 1]


class TestRegionQueries:
    def test_lattice_points_follow_the_wall_rule(self):
        reg = region([(0, 0), (2, 0), (2, 2), (0, 2)])
        assert len(reg.lattice_points(True)) == 9
        assert reg.lattice_points(False).tolist() == [[1, 1]]

    def test_nearest_lattice_point_prefers_the_side_the_car_came_from(self):
        reg = region([(0, 0), (10, 0), (10, 2), (0, 2)])
        # (4.5, 3) is as near (4, 2) as (5, 2); the car came from the left.
        assert reg.nearest_lattice_point((4.5, 3), prefer=(0, 1)) == Vec(4, 2)
        assert reg.nearest_lattice_point((4.5, 3), prefer=(10, 1)) == Vec(5, 2)

    def test_exit_fraction(self):
        reg = region(SQUARE)
        assert reg.exit_fraction((5, 5), (15, 5)) == pytest.approx(0.5)
        assert reg.exit_fraction((5, 5), (9, 5)) is None
        assert reg.exit_fraction((5, 5), (10, 5)) is None
        assert reg.exit_fraction((5, 5), (10, 5), boundary_counts=False) == pytest.approx(1.0)


def test_vec_arithmetic_and_speed():
    assert Vec(3, -1) + (1, 1) == Vec(4, 0)
    assert Vec(3, -1) - Vec(1, 1) == Vec(2, -2)
    assert Vec(3, -1).speed == 3 and Vec(0, 0).is_zero
    assert repr(Vec(1, 2)) == "Vec(1, 2)"


def test_a_lattice_point_on_a_decimal_line_has_reached_it():
    """4.1 is not exact in binary: the point (10, 4.5 * 4 / 3 ...) on the line must not come
    out a hair behind it, or its first move would count as crossing."""
    line = Line((4.1, -1.2), (16.1, 14.8), (-4, 3))
    on_line = [p for p in line.lattice_points()]
    assert on_line and all(line.side(np.array([p]))[0] == 0 for p in on_line)
    assert all(line.crossings(np.array([p]), np.array([[p.x - 1, p.y]]))[0] == 0
               for p in on_line)
