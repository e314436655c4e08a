"""Progress through a race: lines in order, laps, backward crossings, several lines at once."""

from __future__ import annotations

import numpy as np
import pytest

from racetrack.board.course import Course
from racetrack.board.geometry import Vec
from racetrack.board.track import find_track, load_track
from tests.conftest import make_track


def advance(course, progress, p, q):
    return course.advance_one(progress, Vec(*p), Vec(*q))


def test_cars_start_on_lattice_points_of_the_start_line_inside_the_track(square_ring):
    course = Course(square_ring)
    # The line runs from the outer wall (6, 0) to the infield (6, 4): both ends are on walls.
    assert course.start_positions == (Vec(6, 1), Vec(6, 2), Vec(6, 3))
    assert course.start_progress == 1 and course.goal == 2


def test_a_circuit_is_won_by_crossing_the_start_line_after_a_whole_lap(square_ring):
    course = Course(square_ring)
    assert advance(course, 1, (6, 2), (8, 2)) == 1  # leaving the line forwards: nothing yet
    assert advance(course, 1, (4, 2), (7, 2)) == 2  # coming round from behind: finished


def test_backing_over_the_start_line_costs_progress(square_ring):
    course = Course(square_ring)
    assert advance(course, 1, (6, 2), (5, 2)) == 0
    assert advance(course, 0, (5, 2), (6, 2)) == 1  # and crossing it again restores it


def test_one_move_never_counts_the_same_drawn_line_twice():
    track = make_track("""
        outer: [[0, 0], [12, 0], [12, 12], [0, 12]]
        holes: [[[4, 4], [8, 4], [8, 8], [4, 8]]]
        start: {a: [6, 0], b: [6, 4], forward: [1, 0]}
        laps: 3
    """)
    course = Course(track)
    assert course.goal == 4
    assert advance(course, 2, (4, 2), (7, 2)) == 3


def test_a_move_passing_two_lines_passes_both_in_order():
    track = make_track("""
        outer: [[0, 0], [30, 0], [30, 4], [0, 4]]
        start: {a: [2, 0], b: [2, 4], forward: [1, 0]}
        finish: {a: [20, 0], b: [20, 4], forward: [1, 0]}
        checkpoints:
          - {a: [10, 0], b: [10, 4], forward: [1, 0]}
          - {a: [12, 0], b: [12, 4], forward: [1, 0]}
    """)
    course = Course(track)
    assert course.goal == 4
    assert advance(course, 1, (8, 2), (13, 2)) == 3
    assert advance(course, 1, (8, 2), (21, 2)) == 4
    assert advance(course, 1, (11, 2), (21, 2)) == 1  # checkpoint 1 was not passed: out of order
    assert advance(course, 3, (13, 2), (8, 2)) == 1  # backwards over both, in reverse order
    assert course.lap_and_checkpoint(3) == (0, 2)


def test_checkpoints_repeat_every_lap():
    track = make_track("""
        outer: [[0, 0], [12, 0], [12, 12], [0, 12]]
        holes: [[[4, 4], [8, 4], [8, 8], [4, 8]]]
        start: {a: [6, 0], b: [6, 4], forward: [1, 0]}
        checkpoints: [{a: [6, 8], b: [6, 12], forward: [-1, 0]}]
        laps: 2
    """)
    course = Course(track)
    assert course.goal == 5
    assert course.lap_and_checkpoint(1) == (0, 0)
    assert advance(course, 1, (7, 10), (5, 10)) == 2
    assert advance(course, 2, (5, 2), (7, 2)) == 3
    assert course.lap_and_checkpoint(3) == (1, 0)


def test_batched_advance_matches_one_at_a_time(square_ring):
    course = Course(square_ring)
    rng = np.random.default_rng(7)
    p = rng.integers(0, 13, size=(200, 2))
    q = rng.integers(0, 13, size=(200, 2))
    progress = rng.integers(0, 3, size=200)
    batch = course.advance(progress, p, q)
    for i in range(200):
        assert batch[i] == course.advance_one(int(progress[i]), Vec(*p[i]), Vec(*q[i]))


def test_finish_fraction_and_distance(square_ring):
    course = Course(square_ring)
    assert course.finish_fraction(Vec(4, 2), Vec(8, 2)) == pytest.approx(0.5)
    assert course.distance_past_finish(Vec(8, 2)) == pytest.approx(2)


def test_the_sheet_reaches_past_the_outline(square_ring):
    course = Course(square_ring)
    assert course.sheet == (-4, -4, 16, 16)
    assert list(course.on_sheet(np.array([[16, 0], [17, 0]]))) == [True, False]


@pytest.mark.parametrize("name, variant", [("oval", "levi"), ("grand-prix", "levi"),
                                           ("waypoints", "gardner"), ("hairpins", "nystrom")])
def test_one_move_in_plain_python_advances_as_the_batch_does(name, variant):
    """``advance_one`` and small batches take a plain-Python path: the same answers as the
    numpy batch for random moves near the lines, from every progress, forwards and back."""
    from racetrack.rules import load_rules

    course = Course.for_rules(load_track(find_track(name)), load_rules(variant))
    rng = np.random.default_rng(3)
    lines = list(course.lines)
    n = 600
    anchor = np.array([lines[k].a for k in rng.integers(len(lines), size=n)])
    starts = np.rint(anchor + rng.integers(-4, 5, (n, 2))).astype(float)
    ends = starts + rng.integers(-4, 5, (n, 2))
    progress = rng.integers(0, course.goal + 1, n)
    batch = course.advance(progress, starts, ends)
    plain = [course.advance_one(int(k), Vec(*map(int, p)), Vec(*map(int, q)))
             for k, p, q in zip(progress, starts, ends, strict=True)]
    assert plain == batch.tolist()
    assert (batch != progress).sum() >= 5  # moves that do pass lines were asked
