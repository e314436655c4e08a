"""Computer drivers: the expert is optimal, every level obeys the rules and never throws the
race away, and the same seed gives the same driving."""

from __future__ import annotations

import gc

import pytest

from racetrack.board.course import Course
from racetrack.board.track import find_track, load_track
from racetrack.engine.model import CarSetup, CarStatus, EventKind
from racetrack.engine.transition import Cars
from racetrack.games.race import Race
from racetrack.rules import bundled_variant_names, load_rules
from racetrack.search.drivers import LEVELS, make_driver
from racetrack.search.drivers.driver import STYLES
from racetrack.search.drivers.tables import value_table
from racetrack.search.solver import SolverError, solve


def run_race(track_name, variant, levels, seed=0, **changes):
    track = load_track(find_track(track_name))
    rules = load_rules(variant).replace(**changes) if changes else load_rules(variant)
    race = Race(track, rules, [CarSetup(level, driver=level) for level in levels], seed=seed)
    drivers = [make_driver(level, seed * 10 + i) for i, level in enumerate(levels)]
    state = race.start()
    events = []
    while not state.is_over:
        events += state.apply(drivers[state.current_car].choose(state))
    return state, events


@pytest.mark.parametrize("variant", ["gardner", "baker", "nystrom", "simulation",
                                     "classroom-24"])
def test_the_expert_alone_drives_an_optimal_race(variant):
    state, _ = run_race("oval", variant, ["expert"])
    track = load_track(find_track("oval"))
    rules = load_rules(variant)
    start = Race(track, rules, [CarSetup("x")]).grid[0]
    best = solve(Course(track), rules, start=start)
    assert state.cars[0].finish is not None
    # The expert drives its table's optimum, and that is the solver's. The table holds every
    # state a lone car can reach except Nystrom's detours off the track (a car off the track
    # carries how far from the finish it left); the solver, which searches them, finds no
    # detour that wins a turn on the oval.
    table = value_table(Course(track), rules)
    at_rest = Cars(x=[start.x], y=[start.y], vx=[0], vy=[0], progress=[1])
    assert state.cars[0].moves == table.values_of(at_rest)[0] == best.moves


@pytest.mark.long
@pytest.mark.parametrize("variant", bundled_variant_names())
def test_no_level_crashes_or_is_put_out(variant):
    levels = ["easy", "medium", "hard"]
    state, events = run_race("hairpins", variant, levels, seed=3, finish_end="all")
    kinds = {e.kind for e in events}
    assert EventKind.CRASHED not in kinds and EventKind.OUT not in kinds
    assert all(car.status is CarStatus.FINISHED for car in state.cars)


@pytest.mark.long
def test_levels_are_ordered_on_average():
    # Turns lost against each car's own optimum from its grid point: no level throws moves
    # away, so a better grid point would otherwise weigh more than the level.
    lost = {level: 0 for level in LEVELS}
    for seed, track in enumerate(["oval", "canyon", "spiral", "wide-speedway"]):
        levels = list(LEVELS[seed % 4:] + LEVELS[:seed % 4])
        state, _ = run_race(track, "gardner", levels, seed=seed, finish_end="all",
                            turn_order="seating")
        race = state.race
        table = value_table(race.course, race.rules)
        for index, car in enumerate(state.cars):
            spot = race.grid[index]
            best = table.values_of(Cars(x=[spot.x], y=[spot.y], vx=[0], vy=[0],
                                        progress=[race.course.start_progress]))[0]
            lost[levels[index]] += car.moves - int(best)
    assert lost["expert"] <= lost["hard"] < lost["medium"] < lost["easy"]


@pytest.mark.parametrize("track_name", ["oval", "spiral"])
def test_each_level_alone_keeps_within_its_share_of_the_optimum(track_name):
    """A level's handicap is in proportion to the track: alone it takes at most
    1 / (1 - slack) times the optimum (1.09, 1.23, 1.45), and more than the level above."""
    taken = {}
    for level in LEVELS:
        state, _ = run_race(track_name, "gardner", [level], seed=2)
        race = state.race
        spot = race.grid[0]
        best = int(value_table(race.course, race.rules).values_of(Cars(
            x=[spot.x], y=[spot.y], vx=[0], vy=[0], progress=[race.course.start_progress]))[0])
        taken[level] = state.cars[0].moves
        assert best <= taken[level] <= best / (1 - STYLES[level].slack)
    assert taken["expert"] < taken["hard"] < taken["medium"] < taken["easy"]


def test_the_same_seed_drives_the_same_race():
    first, _ = run_race("oval", "gardner", ["easy", "medium"], seed=9)
    second, _ = run_race("oval", "gardner", ["easy", "medium"], seed=9)
    assert first.history == second.history


def test_an_unknown_level_is_refused():
    with pytest.raises(ValueError, match="levels: easy, medium, hard, expert"):
        make_driver("wizard")


def test_the_table_is_built_once_per_course_and_rules():
    track = load_track(find_track("oval"))
    course = Course(track)
    gardner = load_rules("gardner")
    first = value_table(course, gardner)
    # Options that do not change a lone car's moves share the table; a rematch reuses it.
    assert value_table(course, gardner.replace(cars="shared", turn_order="seating")) is first
    assert value_table(Course(track), gardner) is first
    assert value_table(course, load_rules("baker")) is not first
    assert first.moves_to_go(course.start_positions[0], (0, 0), course.start_progress) == 25


def test_par_and_ghost_line_are_cached_for_the_window():
    from racetrack.search.drivers.tables import par

    course = Course(load_track(find_track("riddler-opolis")))
    first = par(course, load_rules("gardner"))
    assert first.moves == 12 and len(first.path) == 13
    assert par(course, load_rules("gardner")) is first


def test_a_track_too_large_for_a_table_is_driven_by_the_lookahead(monkeypatch):
    from racetrack.search.drivers import tables
    from tests.conftest import make_track

    # "Too large" is a memory budget: a small one makes a small sheet too large, so the
    # refusal comes in a second rather than after millions of states.
    monkeypatch.setattr(tables, "TABLE_MEMORY", 1 << 20)
    track = make_track("""
        outer: [[0, 0], [60, 0], [60, 60], [0, 60]]
        start: {a: [2, 0], b: [2, 60], forward: [1, 0]}
        finish: {a: [12, 0], b: [12, 60], forward: [1, 0]}
    """)
    race = Race(track, load_rules("gardner"), [CarSetup("Big", driver="expert")])
    state = race.start()
    driver = make_driver("expert")
    with pytest.raises(SolverError):
        tables.value_table(race.course, race.rules)
    driver.prepare(state, 0)  # refused quietly
    while not state.is_over:
        state.apply(driver.choose(state))
    assert state.cars[0].finish is not None


def test_two_cars_can_shut_a_car_in_as_surely_as_one():
    from racetrack.board.geometry import Vec
    from racetrack.search.drivers.driver import can_shut

    a, b = Vec(1, 0), Vec(2, 0)
    assert can_shut({a}, [{a, b}])
    assert can_shut({a, b}, [{a}, {a, b}])  # one takes a, the other b
    assert not can_shut({a, b}, [{a}, {a}])  # both can only take a
    assert not can_shut({a, b}, [{a, b}])  # one car takes one point
    assert not can_shut(set(), [{a}])  # no way on at all: nothing for a car to shut


def test_a_move_among_other_cars_leaves_no_reference_cycle_behind():
    """What a driver works out for a move is freed as soon as the move is chosen: a cycle
    (a closure calling itself) waits for the cycle collector, whose full passes, visiting
    every object, then fall in the middle of moves."""
    track = load_track(find_track("narrows"))
    race = Race(track, load_rules("gardner"), [CarSetup(level, driver=level)
                                              for level in LEVELS], seed=4)
    drivers = [make_driver(level, i) for i, level in enumerate(LEVELS)]
    state = race.start()
    for index, driver in enumerate(drivers):
        driver.prepare(state, index)
    was_enabled = gc.isenabled()
    gc.disable()
    # Everything made before the first move (the prepared drivers, and whatever earlier tests
    # left in this process) is frozen out of the collector's passes: they visit only what the
    # moves make, so a pass is quick however much the process holds.
    gc.collect()
    gc.freeze()
    try:
        for _ in range(3 * len(LEVELS)):  # three moves of each level
            if state.is_over:
                break
            gc.collect()
            move = drivers[state.current_car].choose(state)
            assert gc.collect() == 0
            state.apply(move)
    finally:
        gc.unfreeze()
        if was_enabled:
            gc.enable()
