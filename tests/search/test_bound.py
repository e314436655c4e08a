"""The solver's lower bound (``racetrack.search.bound``) never overestimates, and the best-first
search it guides proves the same optima as the breadth-first search.

A table that keeps every edge (``ValueTable``) holds the true turns to go from every state a
lone car can reach from a standing start anywhere on the track; the bound must be no more than
that for every one of them, under rules that move a car as each part of the bound allows for: the
ordinary moves, 25 choices (a faster speed-up), crashes that put a car back (a coordinate
jumps), turns missed after a crash, a set-back that leaves the car where it is, skids,
checkpoint areas, zones.
"""

from __future__ import annotations

import os

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from racetrack.board.course import Course
from racetrack.board.track import find_track, load_track
from racetrack.search.bound import bound_for, turns_at_least
from racetrack.search.solver import UNSOLVED, BestFirst, StateSpace, lone_car, standing_starts
from tests.board.test_kernel import courses, edge_table
from tests.board.test_kernel_rules import VARIANTS, _rules, course_for
from tests.reference_bfs import fewest_moves_with

pytestmark = pytest.mark.skipif(os.environ.get("RACETRACK_KERNEL") == "off",
                                reason="the kernel is switched off")

#: Rule sets whose searches the bound guides, each on a small track.
BOUNDED = {
    "gardner": ("riddler-opolis", _rules("gardner")),
    "square-24": ("riddler-opolis", _rules("classroom-24")),
    "baker": ("zones", VARIANTS["baker"][1]),
    "simulation": ("riddler-opolis", VARIANTS["simulation"][1]),
    "skidding": ("zones", VARIANTS["skidding"][1]),
    "karopapier": ("areas", VARIANTS["karopapier"][1]),
    "stays": ("areas", VARIANTS["karopapier-stays"][1]),
    # a car that leaves the track must come back behind where it left: levels by the distance
    # along the track, a stuck car's crash putting it back (or ending its race)
    "nystrom": ("zones", VARIANTS["nystrom"][1]),
    "nystrom-oval": ("oval", VARIANTS["nystrom"][1]),
    "nystrom-out": ("oval", VARIANTS["nystrom-oval"][1]),
    "nystrom-stays": ("zones", _rules("nystrom", crash_outcome="set-back", crash_set_back=0)),
}


def table_and_bound(track_name: str, rules):
    table = edge_table(course_for(track_name, rules), rules)
    transition = table.search.transition
    space = StateSpace(transition, table.search.space.columns, table.search.damage_limit)
    bound = bound_for(transition, space, table.search.damage_limit)
    return table, space, bound


@pytest.mark.parametrize("name", BOUNDED)
def test_the_bound_never_exceeds_the_turns_to_go(name):
    table, space, bound = table_and_bound(*BOUNDED[name])
    assert bound is not None, name
    states = table.search.states(np.arange(table.search.count))
    truth = table.value.astype(np.int64)
    found = turns_at_least(bound, space, states)
    known = truth < UNSOLVED
    assert (found[known] <= truth[known]).all(), name
    # ... and falls by no more than a move's turns from a state to the next (the best-first
    # search expands each state once)
    src, dst, cost, _ = table.search.edges()
    racing_src = states.progress[src] < table.search.goal
    assert (found[src] <= cost + found[dst])[racing_src].all(), name
    # ... and it bounds: most states get more than nothing, and some the truth itself
    racing = known & (states.progress < table.search.goal)
    assert (found[racing] > 0).mean() > 0.9 and (found[racing] == truth[racing]).any()


def test_a_state_that_cannot_finish_is_bounded_out():
    """Where the distances say the finish cannot be reached, the bound is large: such states
    are never searched (a car heading at the wall faster than it can stop)."""
    table, space, bound = table_and_bound(*BOUNDED["gardner"])
    states = table.search.states(np.arange(table.search.count))
    found = turns_at_least(bound, space, states)
    assert (found[table.value == UNSOLVED] >= 1 << 28).any()


def test_no_bound_where_a_car_may_crawl_anywhere_off_the_track():
    for name in ("levi", "levi-as-written"):
        track_name, rules = VARIANTS[name]
        course = course_for(track_name, rules)
        transition, columns, limit = lone_car(course, rules)
        assert bound_for(transition, StateSpace(transition, columns, limit), limit) is None


def test_a_detours_bound_too_weak_at_the_start_is_left_out():
    """On the grand prix under Nystrom's rules (fourteen lines) the levels by the distance
    along the track, widened by every progress a detour may give, bound the start at 8 turns
    where moves on the track alone give 61: the search goes by turns."""
    rules = VARIANTS["nystrom"][1]
    course = course_for("grand-prix", rules)
    transition, columns, limit = lone_car(course, rules)
    space = StateSpace(transition, columns, limit)
    sources = standing_starts(transition, course.start_positions)
    assert bound_for(transition, space, limit) is not None
    assert bound_for(transition, space, limit, sources) is None
    course = course_for("oval", rules)
    transition, columns, limit = lone_car(course, rules)
    sources = standing_starts(transition, course.start_positions)
    assert bound_for(transition, StateSpace(transition, columns, limit), limit,
                     sources) is not None


def test_a_detours_search_past_its_share_of_memory_starts_again_by_turns(monkeypatch):
    """A best-first search under a detour's bound that passes its share of the memory budget
    (``DETOUR_TRIAL``) is not refused: the search by turns alone finds the optimum."""
    from racetrack.search import solver

    rules = VARIANTS["nystrom"][1]
    course = course_for("oval", rules)
    transition, columns, limit = lone_car(course, rules)
    sources = standing_starts(transition, course.start_positions)
    bounded = BestFirst(transition, sources, columns, limit)
    assert bounded.bound is not None
    monkeypatch.setattr(solver, "DETOUR_TRIAL", 1 << 40)  # (a share of no bytes at all)
    again = BestFirst(transition, sources, columns, limit)
    plain = BestFirst(transition, sources, columns, limit, bounded=False)
    assert again.bound is None
    assert again.goal_turns == plain.goal_turns == bounded.goal_turns
    assert again.expanded >= plain.expanded > bounded.expanded  # (the trial's counted too)


@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(course=courses())
def test_the_best_first_search_proves_the_breadth_first_optimum(course):
    """On random rings (corners on quarters or hundredths, checkpoints, laps, rule 6), under
    Gardner's rules and Baker's: the same optimum, and never more states."""
    for name in ("gardner", "baker"):
        rules = _rules(name)
        transition, columns, limit = lone_car(course, rules)
        sources = standing_starts(transition, course.start_positions)
        bounded = BestFirst(transition, sources, columns, limit)
        plain = BestFirst(transition, sources, columns, limit, bounded=False)
        assert bounded.bound is not None
        assert bounded.goal_turns == plain.goal_turns
        assert bounded.expanded <= plain.expanded


@settings(max_examples=5, deadline=None, suppress_health_check=list(HealthCheck))
@given(course=courses())
def test_the_best_first_search_proves_the_optimum_of_a_detour(course):
    """On random rings under Nystrom's rules (a car may leave the track and must come back
    behind where it left; a stuck car crashes and is put back), and with a stuck car out: the
    optimum of the search by turns alone, whether the bound is taken or left out."""
    for rules in (VARIANTS["nystrom"][1], VARIANTS["nystrom-oval"][1]):
        transition, columns, limit = lone_car(course, rules)
        sources = standing_starts(transition, course.start_positions)
        bounded = BestFirst(transition, sources, columns, limit)
        plain = BestFirst(transition, sources, columns, limit, bounded=False)
        assert bounded.goal_turns == plain.goal_turns


def test_the_best_first_route_races_in_its_turns():
    from tests.search.test_solver import race_plays

    rules = _rules("baker")
    track = load_track(find_track("oval"))
    course = Course.for_rules(track, rules)
    transition, columns, limit = lone_car(course, rules)
    found = BestFirst(transition, standing_starts(transition, course.start_positions), columns,
                      limit)
    solution = found.route()
    state = race_plays(track, rules, solution)
    assert state.cars[0].finish is not None and state.last_round == solution.moves
    assert solution.states == found.expanded > 0


#: Rule sets the plain reference (``fewest_moves_with``) searches as the game does: the car
#: stays on the track, or has no legal move and that is the end of it.
ON_THE_TRACK = ("gardner", "gardner-addenda", "karopapier", "simulation", "skidding",
                "westinghouse")


@pytest.mark.parametrize("track_name", ["riddler-opolis", "narrows", "oval"])
@pytest.mark.parametrize("name", ON_THE_TRACK)
def test_the_bounded_search_finds_the_plain_searchs_optimum(track_name, name):
    """On bundled tracks (a lap round corners, a narrow S, an oval) under every rule set that
    keeps the car on the track: the optimum the best-first search proves is a plain
    breadth-first search's, judging every move with its own shapely call."""
    rules = _rules(name)
    track = load_track(find_track(track_name))
    course = Course.for_rules(track, rules)
    transition, columns, limit = lone_car(course, rules)
    found = BestFirst(transition, standing_starts(transition, course.start_positions), columns,
                      limit)
    assert found.bound is not None, name
    assert found.goal_turns == fewest_moves_with(track, rules)


#: Every bundled rule set the compiled search covers (the best-first search takes them all;
#: the bound those where a car stays on the track or is put back on it).
COMPILED = ("gardner", "gardner-addenda", "classroom", "classroom-24", "simulation",
            "skidding", "westinghouse", "karopapier", "baker", "baker-advanced", "baker-bond",
            "baker-teams", "nystrom", "levi")


@pytest.mark.parametrize("track_name, name", [
    (track_name, name) for name in COMPILED for track_name in ("oval", "riddler-opolis", "hairpins")
    if (track_name, name) != ("hairpins", "nystrom")])  # (seconds; its bound is too weak to take)
def test_the_bounded_search_proves_the_breadth_first_optimum_under_every_rule_set(track_name,
                                                                                   name):
    """Crashes put back or set back, restarts, missed turns, detours and crawls included:
    the same optimum as the search by turns alone, never more states, and a route that
    races in the game in as many turns."""
    from tests.search.test_solver import race_plays

    rules = _rules(name)
    track = load_track(find_track(track_name))
    course = Course.for_rules(track, rules)
    transition, columns, limit = lone_car(course, rules)
    sources = standing_starts(transition, course.start_positions)
    bounded = BestFirst(transition, sources, columns, limit)
    if bounded.bound is not None:  # (none: it is the search by turns alone)
        plain = BestFirst(transition, sources, columns, limit, bounded=False)
        assert bounded.goal_turns == plain.goal_turns
        assert bounded.expanded < plain.expanded
    if rules.equipment_shop == "design":
        return  # a lone car with no kit in the race has no damage points: it races otherwise
    solution = bounded.route()
    state = race_plays(track, rules, solution)
    assert state.cars[0].finish is not None and state.last_round == solution.moves


def axis_turns_by_hand(lo, hi, first, width, vmax, accel):
    """``axis_turns`` without crashes, worked out the plain way: for each number of levels
    still to pass, every (coordinate, velocity)'s fewest turns, relaxed until nothing
    changes; a move passes the levels below, in order, while its stretch meets their spans."""
    far = 0xFFFF
    levels = len(lo)
    table = np.full((levels + 1, width, 2 * vmax + 1), far, dtype=np.int64)
    table[0] = 0
    for j in range(1, levels + 1):
        changed = True
        while changed:
            changed = False
            for x in range(width):
                for v in range(-vmax, vmax + 1):
                    best = table[j, x, v + vmax]
                    for d in range(-accel, accel + 1):
                        w, to = v + d, x + v + d
                        if abs(w) > vmax or not 0 <= to < width:
                            continue
                        a, z = first + min(x, to), first + max(x, to)
                        jj = j
                        while jj > 0 and lo[jj - 1] <= z and hi[jj - 1] >= a:
                            jj -= 1
                        after = table[jj, to, w + vmax]
                        if after < far and after + 1 < best:
                            best = after + 1
                    if best < table[j, x, v + vmax]:
                        table[j, x, v + vmax] = best
                        changed = True
    return table


@settings(max_examples=25, deadline=None)
@given(spans=st.lists(st.tuples(st.integers(-3, 14), st.integers(0, 5)), min_size=1,
                      max_size=7),
       vmax=st.integers(1, 4), accel=st.integers(1, 2))
def test_a_lone_coordinate_passes_the_levels_in_as_few_turns_as_by_hand(spans, vmax, accel):
    """The kernel's axis tables (where the runs of levels a move passes are kept per
    coordinate rather than walked) are the plain relaxation's, on random spans: some beyond
    the axis, some passed in one move, some not reachable at all."""
    from racetrack.board import kernel

    first, width = 3, 12
    lo = np.array([s for s, _ in spans], dtype=np.int32) + first
    hi = lo + np.array([n for _, n in spans], dtype=np.int32)
    out = np.empty((len(lo) + 1) * width * (2 * vmax + 1), dtype=np.uint16)
    kernel._kernel.axis_turns(lo, hi, first, width, vmax, accel, (0, 0, 0, 0), out)
    expected = axis_turns_by_hand(lo, hi, first, width, vmax, accel)
    assert np.array_equal(out.reshape(expected.shape).astype(np.int64), expected)


def cover_turns_by_hand(squares, speeds, accel, slack, cost, most):
    """``cover_turns`` worked out the plain way: a breadth of turns over (squares still to
    go, speed), each turn a move (its length within ``accel`` of the last, below ``speeds``)
    or a crash (as far as the longest move and ``slack`` more: one turn where that may reach
    the finish, else only on a move no longer than ``most``, ``cost`` turns and at rest)."""
    table = np.full((squares, speeds), 1 << 30, dtype=np.int64)
    table[0] = 0
    for _ in range(squares * speeds + 2):  # relaxed until nothing changes
        before = table.copy()
        for d in range(1, squares):
            for s in range(speeds):
                options = [1 + table[max(d - w, 0), w]
                           for w in range(max(s - accel, 1), min(s + accel, speeds - 1) + 1)]
                if d <= s + accel + slack:
                    options.append(1)
                elif s - accel <= most:
                    rest = d - min(s + accel, most) - slack
                    options.append(1 if rest <= 0 else cost + table[rest, 0])
                table[d, s] = min([table[d, s], *options])
        if np.array_equal(before, table):
            break
    return np.minimum(table, 0xFFFF)  # the kernel's "cannot"


@settings(max_examples=25, deadline=None)
@given(squares=st.integers(1, 40), speeds=st.integers(1, 7), accel=st.integers(1, 2),
       slack=st.integers(0, 2), cost=st.integers(1, 3), most=st.integers(0, 8))
def test_the_turns_to_cover_with_crashes_are_those_by_hand(squares, speeds, accel, slack, cost,
                                                            most):
    """The crashes' table of the bound is the plain relaxation's, and never fewer turns than
    covering the squares with every turn ``slack`` longer (the bound it replaced)."""
    from racetrack.board import kernel
    from racetrack.search.bound import _cover

    out = np.empty(squares * speeds, dtype=np.uint16)
    kernel._kernel.cover_turns(accel, slack, cost, most, speeds, out)
    found = out.reshape(squares, speeds).astype(np.int64)
    assert np.array_equal(found, cover_turns_by_hand(squares, speeds, accel, slack, cost, most))
    d = np.repeat(np.arange(squares), speeds)
    s = np.tile(np.arange(speeds), squares)
    assert (found.reshape(-1) >= _cover(d, s + slack, accel)).all()


def test_a_crash_that_puts_the_car_back_keeps_every_point_in_the_bounds_reach():
    """On the bundled maps (road cells meeting only at a corner: the way through is a crash)
    under rules whose crashes put the car back: the bounded search proves the optimum of the
    search by turns alone. The put-back's steps of two squares were once queued a turn of the
    distance field's ring of buckets early and lost, so the zigzag's way to the finish was
    held unreachable and the solve found none."""
    from racetrack.board.track.maps import bundled_map_paths, import_map

    for path in bundled_map_paths():
        track = import_map(path).track()
        for name in ("classroom", "baker", "simulation"):
            rules = _rules(name)
            course = Course.for_rules(track, rules)
            transition, columns, limit = lone_car(course, rules)
            sources = standing_starts(transition, course.start_positions)
            bounded = BestFirst(transition, sources, columns, limit)
            plain = BestFirst(transition, sources, columns, limit, bounded=False)
            assert bounded.goal_turns == plain.goal_turns, (path.name, name)


def unit_levels_by_hand(transition, vmax, band, levels, from_only=None):
    """``unit_levels``' spans without crashes, worked out the plain way: every move of at
    most ``vmax`` between points of the track that stays on it (or is unsure there), from
    every progress short of the goal (or those ``from_only`` marks); each level it passes
    (the distance band (i + 1) to go: farther at its start, no farther at its end) spans from
    the least end of such moves' stretches to the greatest start."""
    land, course = transition.land, transition.course
    units = transition.exit_table
    points = land.points
    n = len(points)
    lo = np.full((levels, 2), np.iinfo(np.int32).max, dtype=np.int64)
    hi = np.full((levels, 2), np.iinfo(np.int32).min, dtype=np.int64)
    for dx in range(-vmax[0], vmax[0] + 1):
        for dy in range(-vmax[1], vmax[1] + 1):
            to = land.point_index(points[:, 0] + dx, points[:, 1] + dy)
            a = np.flatnonzero((to >= 0) & ((dx, dy) != (0, 0)))
            b = to[a]
            inside = transition.drive.compiled.segments_inside(points[a, 0], points[a, 1],
                                                               points[b, 0], points[b, 1])
            a, b = a[inside != 0], b[inside != 0]
            least = np.minimum(points[a], points[b])
            most = np.maximum(points[a], points[b])
            for k in range(course.goal):
                mine = np.ones(len(a), dtype=bool) if from_only is None \
                    else from_only[k * n + a] > 0
                after = course.advance(np.full(len(a), k), points[a].astype(float),
                                       points[b].astype(float))
                start, end = units[k * n + a], units[after * n + b]
                for i in range(levels):
                    level = band * (i + 1)
                    passes = mine & (start > level) & (end <= level)
                    if passes.any():
                        lo[i] = np.minimum(lo[i], most[passes].min(axis=0))
                        hi[i] = np.maximum(hi[i], least[passes].max(axis=0))
    none = lo[:, 0] == np.iinfo(np.int32).max
    lo[none], hi[none] = np.iinfo(np.int32).min, np.iinfo(np.int32).max
    return np.minimum(lo, hi), np.maximum(lo, hi)


@pytest.mark.parametrize("track_name", ["oval", "riddler-opolis"])
def test_the_levels_by_the_distance_along_the_track_span_every_move_that_passes_them(
        track_name):
    """The detour's levels (``unit_levels`` in ``_kernel.c``) are those worked out by hand from
    every move on the track, from every progress and from some only."""
    from racetrack.board import kernel

    rules = VARIANTS["nystrom-oval"][1]
    course = course_for(track_name, rules)
    transition, columns, limit = lone_car(course, rules)
    space = StateSpace(transition, columns, limit)
    vmax = (space.vmax_x, space.vmax_y)
    units = np.ascontiguousarray(transition.exit_table, dtype=np.int32)
    band, levels = 7, 20
    rng = np.random.default_rng(5)
    packed = (transition.land.compiled.packed, transition.drive.compiled.packed,
              course.compiled_lines.packed)
    grid = transition.grid
    for from_only in (None, (rng.random(len(units)) < 0.5).astype(np.uint8)):
        spans = [np.empty(levels, dtype=np.int32) for _ in range(4)]
        marks = [np.empty((levels + 1) * grid.width * (2 * vmax[0] + 1), dtype=np.uint16),
                 np.empty((levels + 1) * grid.height * (2 * vmax[1] + 1), dtype=np.uint16)]
        no_crash = (0, 0, 1 << 20, None, np.zeros(0, np.int64))
        kernel._kernel.unit_levels(*packed, units, vmax, band, no_crash, from_only, *spans,
                                   *marks)
        lo, hi = unit_levels_by_hand(transition, vmax, band, levels, from_only)
        assert np.array_equal(spans[0], lo[:, 0]) and np.array_equal(spans[1], hi[:, 0])
        assert np.array_equal(spans[2], lo[:, 1]) and np.array_equal(spans[3], hi[:, 1])
        assert (marks[0] == 0xFFFF).all() and (marks[1] == 0xFFFF).all()  # (no crash taken)


def test_a_move_that_leaves_the_track_over_the_finish_ends_the_race_for_the_bound():
    """Off the track a car keeps the distance it left at, but a move that leaves the track
    across the finish line finishes: from (4, 7) at (4, 5) on a ring round a thin island
    (24 choices) the way is 6 turns, the last a move off the track over the line, and the
    bound must allow it (it said 8 once, and the best-first search answered 8)."""
    from racetrack.engine.transition import Cars
    from tests.conftest import make_track

    track = make_track("""
        outer: [[0, 0], [12, 0], [12, 8], [0, 8]]
        holes: [[[2, 3.8], [10, 3.8], [10, 4.2], [2, 4.2]]]
        start: {a: [6, 0], b: [6, 3.8], forward: [1, 0]}
    """, "thin")
    rules = _rules("nystrom", movement_choices="square-24")
    course = Course.for_rules(track, rules)
    transition, columns, limit = lone_car(course, rules)
    space = StateSpace(transition, columns, limit)
    car = Cars(x=np.array([4]), y=np.array([7]), vx=np.array([4]), vy=np.array([5]),
               progress=np.array([1]), damage=np.zeros(1, dtype=np.int64))
    bound = bound_for(transition, space, limit)
    assert bound is not None and turns_at_least(bound, space, car)[0] <= 6
    plain = BestFirst(transition, car, columns, limit, bounded=False)
    assert plain.goal_turns == 6
    assert BestFirst(transition, car, columns, limit).goal_turns == 6


def test_the_detours_bound_never_exceeds_the_turns_to_go_off_the_track_too():
    """The drivers' tables keep cars on the track; a table that follows every detour (cars
    off the track, their exits, crashes of cars with no legal move) holds the true turns to
    go from every state a car reaches from rest anywhere on a ring round a thin island: the
    bound is never more, and falls by no more than a move's turns along every edge."""
    from racetrack.engine.transition import Cars
    from racetrack.search.solver import Search, ValueTable
    from tests.conftest import make_track

    track = make_track("""
        outer: [[0, 0], [12, 0], [12, 8], [0, 8]]
        holes: [[[2, 3.8], [10, 3.8], [10, 4.2], [2, 4.2]]]
        start: {a: [6, 0], b: [6, 3.8], forward: [1, 0]}
    """, "thin")
    rules = _rules("nystrom", damage_limit=0)  # (a crash from speed puts the car out)
    course = Course.for_rules(track, rules)
    transition, columns, limit = lone_car(course, rules)
    points = transition.land.points
    n = len(points) * course.goal
    sources = Cars(x=np.tile(points[:, 0], course.goal), y=np.tile(points[:, 1], course.goal),
                   vx=np.zeros(n), vy=np.zeros(n),
                   progress=np.repeat(np.arange(course.goal), len(points)),
                   damage=np.zeros(n, dtype=np.int64))
    table = ValueTable(Search(transition, sources, columns, limit, keep_edges=True,
                              leave_track=True))
    space = StateSpace(transition, columns, limit)
    bound = bound_for(transition, space, limit)
    states = table.search.states(np.arange(table.search.count))
    assert (states.off > 0).mean() > 0.5  # (most of them off the track)
    truth = table.value.astype(np.int64)
    found = turns_at_least(bound, space, states)
    known = truth < UNSOLVED
    assert (found[known] <= truth[known]).all()
    src, dst, cost, _ = table.search.edges()
    racing = states.progress[src] < table.search.goal
    assert (found[src] <= cost + found[dst])[racing].all()
