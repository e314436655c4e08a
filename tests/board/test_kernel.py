"""The compiled kernel against the numpy reference it stands in for.

Where the package is built with its kernel (``racetrack.board.kernel``), the kernel answers a
search's innermost questions: whether moves stay on a region, the progress they make over the
course's lines, and what a batch of states leads to. Each answer must be the numpy one (and so
shapely's): on random tracks with corners on quarters (exact signs) and on hundredths (signs
near zero are unsure and go to shapely), with the wall counting or not, on every bundled track
and map, and for every rule set whose moves the kernel judges.
"""

from __future__ import annotations

import os
import random
from contextlib import contextmanager
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from racetrack.board import kernel
from racetrack.board.course import Course
from racetrack.board.geometry import Line
from racetrack.board.lattice import LatticeRegion, SheetGrid
from racetrack.board.track import bundled_track_paths, find_track, load_track
from racetrack.engine.transition import Cars
from racetrack.rules import load_rules
from racetrack.search.drivers.tables import build_value_table, table_setup
from racetrack.search.solver import Search, ValueTable, lone_car, solve, standing_starts
from tests.board.test_kernel_rules import numpy_only, random_states
from tests.board.test_lattice import random_moves, rings
from tests.conftest import make_track

# Switched off on purpose (``RACETRACK_KERNEL=off``), there is nothing to compare; a kernel
# lost by the build is not skipped over: ``test_the_kernel_is_built`` fails.
pytestmark = pytest.mark.skipif(os.environ.get("RACETRACK_KERNEL") == "off",
                                reason="the kernel is switched off")

#: Rule sets whose moves the kernel judges (on a track with no zones): Gardner's, skids, must
#: change, Baker's five choices with the wall a crash that puts the car back (a stuck car's
#: crash goes to the numpy transition), the open track.
COMPILED_RULES = {
    "gardner": load_rules("gardner"),
    "skidding": load_rules("skidding"),
    "must-change": load_rules("gardner").replace(movement_must_change=True,
                                                 movement_first_move="free"),
    "plus-restart": load_rules("gardner").replace(movement_choices="plus",
                                                  crash_outcome="restart",
                                                  crash_miss_turns=1),
    "open-track": load_rules("gardner").replace(walls="off-track", movement_choices="square-24"),
}


def test_the_kernel_is_built():
    """The README's install builds it (a machine without a C compiler installs without it,
    and the game runs on numpy alone): a test run that lost it must say so."""
    assert kernel._kernel is not None, "racetrack.board._kernel was not built (no C compiler?)"


def test_the_kernel_checks_every_length_it_is_given():
    """An array shorter than the call needs is a ValueError, never a read or write beyond it."""
    course = Course(load_track(find_track("oval")))
    region = LatticeRegion(course.surface, SheetGrid(course.sheet), True)
    cells = region.compiled
    moves = np.zeros(4, dtype=np.int64)
    with pytest.raises(ValueError, match="items where 4 are needed"):
        kernel._kernel.segments_inside(cells.packed, moves, moves[:3], moves, moves,
                                       np.empty(4, dtype=np.int8))
    with pytest.raises(ValueError, match="items where 4 are needed"):
        course.compiled_lines.progress_after(np.zeros(4, np.int32), moves, moves, moves,
                                             moves[:2])


# -- moves on a region ------------------------------------------------------------------------

def shapely_truth(region: LatticeRegion, course: Course, px, py, qx, qy, closed):
    ends = region.contains(px, py) & region.contains(qx, qy)
    truth = np.zeros(len(px), dtype=bool)
    truth[ends] = course.surface.covers_segments(
        np.column_stack([px, py])[ends], np.column_stack([qx, qy])[ends], closed)
    return truth


@settings(max_examples=25, deadline=None)
@given(rings(), st.booleans(), st.randoms(use_true_random=False))
def test_moves_on_a_region_are_shapelys_answer(track, closed, rng):
    course = Course(track)
    region = LatticeRegion(course.surface, SheetGrid(course.sheet), closed)
    px, py, qx, qy = random_moves(rng, region.points, 600, 12)
    truth = shapely_truth(region, course, px, py, qx, qy, closed)
    verdict = region.compiled.segments_inside(px, py, qx, qy)
    sure = verdict >= 0
    assert ((verdict == 1) == truth)[sure].all()
    assert (region.segments_inside(px, py, qx, qy) == truth).all()
    corners = np.concatenate([np.asarray(r.coords) for r in (track.polygon().exterior,
                                                             *track.polygon().interiors)])
    if np.all(corners * 4 == np.round(corners * 4)):  # exact signs: nothing left unsure
        assert sure.all()


def test_every_bundled_track_and_map_agrees_with_shapely():
    """Every move of up to three squares each way from a sample of each track's points, both
    wall rules: curves of many short edges, decimal corners, imported maps whose road cells
    meet only at a corner."""
    rng = random.Random(7)
    paths = [*bundled_track_paths()]
    for path in paths:
        course = Course(load_track(path))
        for closed in (True, False):
            region = LatticeRegion(course.surface, SheetGrid(course.sheet), closed)
            sample = region.points[rng.sample(range(len(region.points)),
                                              min(60, len(region.points)))]
            d = np.array([(dx, dy) for dx in range(-3, 4) for dy in range(-3, 4)])
            px = np.repeat(sample[:, 0], len(d))
            py = np.repeat(sample[:, 1], len(d))
            qx, qy = px + np.tile(d[:, 0], len(sample)), py + np.tile(d[:, 1], len(sample))
            truth = shapely_truth(region, course, px, py, qx, qy, closed)
            assert (region.segments_inside(px, py, qx, qy) == truth).all(), (path.stem, closed)


def test_imported_maps_with_corner_joins_agree_with_shapely():
    from racetrack.board.track.maps import bundled_map_paths, import_map

    for path in bundled_map_paths():
        course = Course(import_map(path).track())
        region = LatticeRegion(course.surface, SheetGrid(course.sheet), True)
        rng = random.Random(3)
        px, py, qx, qy = random_moves(rng, region.points, 1500, 4)
        truth = shapely_truth(region, course, px, py, qx, qy, True)
        assert (region.segments_inside(px, py, qx, qy) == truth).all(), path.name


def assert_spots_agree(transition, px, py, qx, qy) -> float:
    """The kernel's restart points are the numpy transition's wherever it is sure of them;
    returns the share it is sure of."""
    found = kernel.restart_spots(transition.drive.compiled, transition.land.compiled,
                                 px, py, qx, qy)
    spots = transition.restart_points(Cars(x=px, y=py), qx, qy)
    truth = transition.land.point_index(spots[:, 0], spots[:, 1])
    sure = found >= 0
    assert (found == truth)[sure].all(), np.flatnonzero(sure & (found != truth))[:5]
    return float(sure.mean())


@settings(max_examples=20, deadline=None)
@given(rings(), st.randoms(use_true_random=False))
def test_where_a_crash_puts_the_car_back_is_the_numpy_transitions(track, rng):
    """Moves from points of the track in every direction (most leave it), corners on
    quarters and on hundredths, the wall counting as the track or not."""
    rules = COMPILED_RULES["plus-restart"]
    for walls in ("touching-allowed", "off-track"):
        course = Course.for_rules(track, rules.replace(walls=walls))
        transition = lone_car(course, rules.replace(walls=walls))[0]
        px, py, qx, qy = random_moves(rng, transition.land.points, 300, 9)
        sure = assert_spots_agree(transition, px, py, qx, qy)
        if walls == "touching-allowed":
            assert sure > 0.5


def test_where_a_crash_puts_the_car_back_on_every_bundled_track_and_map():
    """Baker's rules on every bundled track and imported map: the kernel is sure of nearly
    every crash's put-back point, and each is the numpy transition's."""
    from racetrack.board import lattice
    from racetrack.board.track.maps import bundled_map_paths, import_map

    assert lattice.NEAREST_WINDOW == 2, "_kernel.c's NEAREST_WINDOW must follow it"
    rules = load_rules("baker")
    rng = random.Random(11)
    tracks = [load_track(path) for path in bundled_track_paths()]
    tracks += [import_map(path).track() for path in bundled_map_paths()]
    for track in tracks:
        transition = lone_car(Course.for_rules(track, rules), rules)[0]
        px, py, qx, qy = random_moves(rng, transition.land.points, 400, 9)
        assert assert_spots_agree(transition, px, py, qx, qy) > 0.9, track.name


# -- progress ---------------------------------------------------------------------------------

@st.composite
def courses(draw):
    """A random ring (``rings``: quarters or hundredths), sometimes with a checkpoint across the
    far side (the start line turned round), laps, and sometimes Levi's rule-6 checkpoints on
    the start line's extension."""
    track = draw(rings())
    if draw(st.booleans()):
        start = track.start
        turned = Line((start.a[0], -start.a[1]), (start.b[0], -start.b[1]), (-1, 0))
        track = replace(track, checkpoints=(turned,))
    return Course(track, laps=draw(st.integers(1, 3)),
                  start_line_checkpoints=draw(st.booleans()))


@settings(max_examples=30, deadline=None)
@given(courses(), st.booleans(), st.randoms(use_true_random=False))
def test_progress_is_the_courses_own(course, reach_points, rng):
    x0, y0, x1, y1 = course.sheet
    n = 400
    px = np.array([rng.randint(x0, x1) for _ in range(n)])
    py = np.array([rng.randint(y0, y1) for _ in range(n)])
    qx = px + np.array([rng.randint(-9, 9) for _ in range(n)])
    qy = py + np.array([rng.randint(-9, 9) for _ in range(n)])
    progress = np.array([rng.randint(0, course.goal) for _ in range(n)], dtype=np.int32)
    found = course.compiled_lines.progress_after(progress, px, py, qx, qy, reach_points)
    starts = np.column_stack([px, py]).astype(float)
    ends = np.column_stack([qx, qy]).astype(float)
    assert (found == course.advance(progress, starts, ends, reach_points)).all()


def test_a_move_from_the_point_a_continuation_stops_short_of_is_tested_in_full():
    """A start line's continuation across the infield stops a hair short of the far side
    (2.9999999 where the wall is at 3): the crossing tests count a move from (0, 3) as touching
    it, so the boxes that spare moves the full test must not leave that move out: the kernel,
    the plain-Python path and numpy agree that it backs over the start."""
    track = make_track("""
        outer: [[6, 0], [3, 5.25], [-3, 5.25], [-6, 0], [-3, -5.25], [3, -5.25]]
        holes: [[[3.5, 0], [1.75, 3], [-1.75, 3], [-3.5, 0], [-1.75, -3], [1.75, -3]]]
        start: {a: [0, -3.4999999999999996], b: [0, -6], forward: [1, 0]}
        laps: 3
    """)
    course = Course(track)
    reached = course.advance(np.array([1]), np.array([[0.0, 3.0]]), np.array([[-1.0, 6.0]]),
                             False)
    assert reached.tolist() == [0]
    assert course.advance_one(1, (0, 3), (-1, 6), False) == 0
    assert course.progress_after(np.array([1]), np.array([0]), np.array([3]), np.array([-1]),
                                 np.array([6]), False).tolist() == [0]


def test_progress_over_waypoints_is_the_courses_own():
    """Singleton's waypoints: marks of no length, reached by ending a move on them."""
    course = Course(load_track(find_track("waypoints")))
    rng = random.Random(5)
    points = np.array(course.track.waypoints, dtype=np.int64)
    px, py, qx, qy = [], [], [], []
    for _ in range(500):
        wx, wy = points[rng.randrange(len(points))]
        qx.append(wx if rng.random() < 0.5 else wx + rng.randint(-2, 2))
        qy.append(wy if rng.random() < 0.5 else wy + rng.randint(-2, 2))
        px.append(qx[-1] + rng.randint(-5, 5))
        py.append(qy[-1] + rng.randint(-5, 5))
    progress = np.array([rng.randint(0, course.goal) for _ in range(500)], dtype=np.int32)
    px, py, qx, qy = (np.array(v) for v in (px, py, qx, qy))
    for reach_points in (True, False):
        found = course.compiled_lines.progress_after(progress, px, py, qx, qy, reach_points)
        expected = course.advance(progress, np.column_stack([px, py]).astype(float),
                                  np.column_stack([qx, qy]).astype(float), reach_points)
        assert (found == expected).all()


# -- a batch of states expanded ---------------------------------------------------------------

@st.composite
def plain_tracks(draw):
    """A random ring with no zones, on quarters or hundredths, sometimes with a checkpoint."""
    course = draw(courses())
    return course.track


def one_turns(track, rules, seed: int):
    """What one turn leads to from random states, as the search with its kernel and the search
    in numpy alone queue it: sorted (state, successor, cost) rows."""
    found = []
    for compiled in (True, False):
        context = numpy_only() if not compiled else _nothing()
        with context:
            course = Course(track)
            transition, columns, limit = lone_car(course, rules)
            assert transition.compiled == compiled
            # Speeds over the numbering's range (skids start at 4), starts at rest, ...
            cars = random_states(transition, columns, limit, np.random.default_rng(seed), 300)
            search = Search(transition, cars, columns, limit, run=False)
            assert (search.compiled is not None) == compiled
            rows, after, cost = search.one_turn(cars)
            found.append(sorted(zip(rows.tolist(), after.x.tolist(), after.y.tolist(),
                                    after.vx.tolist(), after.vy.tolist(),
                                    after.progress.tolist(), cost.tolist(), strict=True)))
    return found


@contextmanager
def _nothing():
    yield


@pytest.mark.parametrize("name", COMPILED_RULES)
@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
@given(track=plain_tracks(), seed=st.integers(0, 2**16))
def test_the_kernel_queues_what_the_numpy_transition_does(name, track, seed):
    compiled, reference = one_turns(track, COMPILED_RULES[name], seed)
    assert compiled == reference


def test_every_option_of_a_cars_moves_is_decided_for_the_kernel():
    """A new option that changes a car's moves must say whether the kernel judges them
    (``COMPILED_OPTIONS``); until it does the kernel stands aside, but the table must not
    silently fall behind the options."""
    from racetrack.engine.transition import COMPILED_OPTIONS
    from racetrack.rules.options import OPTIONS

    assert {o.key for o in OPTIONS if o.moves} == set(COMPILED_OPTIONS)


# -- whole searches ---------------------------------------------------------------------------

@pytest.mark.parametrize("name", COMPILED_RULES)
@pytest.mark.parametrize("track_name", ["riddler-opolis", "narrows", "oval"])
def test_optima_are_the_same_with_the_kernel_and_without(name, track_name):
    rules = COMPILED_RULES[name]
    track = load_track(find_track(track_name))
    with numpy_only():
        expected = solve(Course(track), rules)
    found = solve(Course(track), rules)
    assert (found is None) == (expected is None)
    if found is not None:
        assert found.moves == expected.moves
        assert len(found.path) == found.moves + 1


def edge_table(course: Course, rules) -> ValueTable:
    """A table over the drivers' states that keeps every edge."""
    setup = table_setup(course, rules)
    return ValueTable(Search(setup.transition, setup.sources, setup.columns, setup.limit,
                             keep_edges=True, leave_track=setup.leave_track))


@pytest.mark.parametrize("name", ["gardner", "plus-restart"])
def test_tables_are_the_same_with_the_kernel_and_without(name):
    """A table that keeps every edge finds every state's value the same with the kernel and
    without, and so does the drivers' compact table (which works in numpy alone)."""
    rules = COMPILED_RULES[name]
    track = load_track(find_track("riddler-opolis"))
    with numpy_only():
        course = Course(track)
        expected = edge_table(course, rules)
    found = edge_table(Course(track), rules)
    compact = build_value_table(Course(track), rules)
    assert found.search.compiled is not None and expected.search.compiled is None
    states = expected.search.states(np.arange(expected.search.count))
    for careful in (False, True):
        values = expected.values_of(states, careful=careful)
        assert (found.values_of(states, careful=careful) == values).all()
        assert (compact.values_of(states, careful=careful) == values).all()
    assert found.search.count == expected.search.count == compact.count


@pytest.mark.parametrize("track_name, name", [("oval", "simulation"), ("oval", "classroom"),
                                             ("narrows", "plus-restart")])
def test_every_turn_numbers_the_same_states_with_the_kernel_and_without(track_name, name):
    """A crash puts the car back at rest and costs it turns (the simulation sheet: "miss a
    turn"), so its put-back waits in a later turn's queue; a move of that turn's other states
    may reach the same state, and the kernel marks what it reaches as seen at once. Every turn
    must still number the states it numbers without the kernel (a put-back taken for seen was
    numbered a turn late, and an optimum from a moving start came out a move too long)."""
    rules = load_rules(name) if name in ("simulation", "classroom") else COMPILED_RULES[name]
    track = load_track(find_track(track_name))
    layers = []
    for compiled in (True, False):
        with numpy_only() if not compiled else _nothing():
            course = Course(track)
            transition, columns, limit = lone_car(course, rules)
            search = Search(transition, standing_starts(transition, course.start_positions),
                            columns, limit)
            assert (search.compiled is not None) == compiled
            layers.append(search._layers)
    assert layers[0] == layers[1]


def test_an_optimum_from_a_moving_car_is_the_same_with_the_kernel_and_without():
    from racetrack.board.geometry import Vec
    from racetrack.engine.model import CarState
    from racetrack.search.solver import solve_position

    rules = load_rules("simulation")
    track = load_track(find_track("oval"))
    found = []
    for compiled in (True, False):
        with numpy_only() if not compiled else _nothing():
            car = CarState(position=Vec(31, 24), velocity=Vec(-2, 0), progress=0)
            found.append(solve_position(Course(track), rules, car).moves)
    assert found == [30, 30]


def test_a_search_from_several_starts_is_the_same():
    track = load_track(find_track("oval"))
    rules = load_rules("gardner")
    with numpy_only():
        course = Course(track)
        transition, columns, limit = lone_car(course, rules)
        reference = Search(transition, standing_starts(transition, course.start_positions),
                           columns, limit, stop_at_goal=True)
    course = Course(track)
    transition, columns, limit = lone_car(course, rules)
    search = Search(transition, standing_starts(transition, course.start_positions), columns,
                    limit, stop_at_goal=True)
    assert search.goal_turns == reference.goal_turns
    route = search.route(search.first_goal)
    assert route.moves == reference.route(reference.first_goal).moves
