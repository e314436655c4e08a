"""The plan for tracks too large for a table: it finishes, close to the optimum."""

from __future__ import annotations

import pytest

from racetrack.ai import make_driver, tables
from racetrack.ai.planner import can_stop
from racetrack.game import Race
from racetrack.geometry import Vec
from racetrack.model import CarSetup
from racetrack.rules import load_rules
from racetrack.rules.moves import transition_of
from racetrack.rules.transition import Cars
from racetrack.solver import SolverError, solve
from tests.conftest import make_track

RING = """
    outer: [[0, 0], [70, 0], [70, 46], [0, 46]]
    holes: [[[12, 12], [58, 12], [58, 34], [12, 34]]]
    start: {a: [35, 0], b: [35, 12], forward: [1, 0]}
"""


# The ring's optimum from its first grid point, by ``solve`` (Baker's takes it 15 s).
RING_BEST = {"gardner": 33, "baker": 38}


@pytest.mark.parametrize("variant", ["gardner", "baker"])
def test_a_track_refused_a_table_is_driven_within_a_fifth_of_the_optimum(variant, monkeypatch):
    track = make_track(RING, name=f"Big ring {variant}")
    rules = load_rules(variant)
    race = Race(track, rules, [CarSetup("Big", driver="expert")])
    best = RING_BEST[variant]
    if variant == "gardner":
        assert solve(race.course, rules, start=race.grid[0]).moves == best
    monkeypatch.setattr(tables, "TABLE_MEMORY", 1 << 16)  # as if the track were far larger
    with pytest.raises(SolverError):
        tables.value_table(race.course, rules)
    state = race.start()
    driver = make_driver("expert")
    while not state.is_over:
        state.apply(driver.choose(state))
    car = state.cars[0]
    assert car.finish is not None and car.damage == 0
    assert car.moves <= 1.2 * best


def test_a_car_that_cannot_brake_in_time_is_not_safe():
    track = make_track(RING, name="Braking ring")
    race = Race(track, load_rules("gardner"), [CarSetup("A")])
    transition = transition_of(race.course, race.rules, race.cars[0])
    cars = Cars(x=[50, 50, 50], y=[6, 6, 6], vx=[6, 8, 0], vy=[0, 0, 0], progress=[1, 1, 1])
    # Braking from 6 takes 5 + 4 + 3 + 2 + 1 squares, short of the wall at x = 70; from 8,
    # 28 squares do not fit.
    assert can_stop(transition, cars).tolist() == [True, False, True]


STRIP = """
    outer: [[0, 0], [300, 0], [300, 6], [0, 6]]
    start: {a: [2, 0], b: [2, 6], forward: [1, 0]}
    finish: {a: [296, 0], b: [296, 6], forward: [1, 0]}
"""


def test_a_car_braking_over_the_finish_need_not_stop_before_it():
    race = Race(make_track(STRIP, name="Strip"), load_rules("gardner"), [CarSetup("A")])
    transition = transition_of(race.course, race.rules, race.cars[0])
    # From 20 squares a turn, braking takes 190 squares: from x = 153 past the wall, but over
    # the finish on the way, landing at 298 on the track; from x = 150 its move over the
    # finish lands in the wall (the rules want a finishing move to land on the track); from
    # x = 50 it stops short of the finish; and a car going back brakes into the wall behind.
    cars = Cars(x=[153, 150, 50, 150], y=[3, 3, 3, 3], vx=[20, 20, 20, -20], vy=[0] * 4,
                progress=[1] * 4)
    assert can_stop(transition, cars).tolist() == [True, False, True, False]


def test_a_drag_strip_refused_a_table_is_driven_flat_out(monkeypatch):
    """Down a long straight the plan speeds up all the way: it braked for a wall beyond the
    finish (1.33 times the optimum on a 1002 x 12 strip)."""
    race = Race(make_track(STRIP, name="Drag strip refused a table"), load_rules("gardner"),
                [CarSetup("A", driver="expert")])
    best = solve(race.course, race.rules, start=race.grid[0]).moves
    monkeypatch.setattr(tables, "TABLE_MEMORY", 1 << 12)
    state = race.start()
    driver = make_driver("expert")
    while not state.is_over:
        state.apply(driver.choose(state))
    assert state.cars[0].finish is not None and state.cars[0].moves <= best + 1


LAKE = """
    outer: [[0, 0], [40, 0], [40, 16], [0, 16]]
    start: {a: [2, 0], b: [2, 16], forward: [1, 0]}
    finish: {a: [38, 0], b: [38, 16], forward: [1, 0]}
    zones: [{kind: water, polygon: [[10, 0], [14, 0], [14, 13], [10, 13]]},
            {kind: water, polygon: [[24, 3], [28, 3], [28, 16], [24, 16]]}]
"""


def test_a_car_that_cannot_swim_is_guided_round_the_water(monkeypatch):
    """The squares to go that the plan steers by run round the lakes for a car that cannot
    cross them: over them, a car stood at a lake's shore for ever."""
    rules = load_rules("gardner").replace(zones_water="wall")
    race = Race(make_track(LAKE, name="Lakes"), rules, [CarSetup("A", driver="expert")])
    course = race.course
    over = course.distance_field(rules.boundary_counts, rules.areas_checkpoints)
    around = course.distance_field(rules.boundary_counts, rules.areas_checkpoints,
                                   without_water=True)
    assert around(Vec(9, 5), 1) > over(Vec(9, 5), 1) + 10
    best = solve(course, rules, start=race.grid[0]).moves
    monkeypatch.setattr(tables, "TABLE_MEMORY", 1 << 12)
    state = race.start()
    driver = make_driver("expert")
    while not state.is_over:
        state.apply(driver.choose(state))
    assert state.cars[0].finish is not None and state.cars[0].moves <= 1.2 * best


def test_the_round_limit_scales_with_the_course():
    long_ring = make_track("""
        outer: [[0, 0], [300, 0], [300, 200], [0, 200]]
        holes: [[[4, 4], [296, 4], [296, 196], [4, 196]]]
        start: {a: [150, 0], b: [150, 4], forward: [1, 0]}
    """, name="Long ring")
    rules = load_rules("gardner")
    assert rules.max_rounds is None
    race = Race(long_ring, rules, [CarSetup("A")])
    # About 970 squares round: twice that, so even a car crawling a square a turn finishes.
    assert 1800 < race.max_rounds < 2100
    assert Race(make_track(RING, name="Short ring"), rules, [CarSetup("A")]).max_rounds == 500
    assert Race(long_ring, rules.replace(max_rounds=40), [CarSetup("A")]).max_rounds == 40


def test_a_map_refused_a_table_is_driven_over_every_checkpoint_cell(monkeypatch):
    """The plan steers by the distance to go, which runs over the checkpoint areas a car has
    still to pass: on the hairpin, round all three and home, near the optimum."""
    from dataclasses import replace

    from racetrack.imports import bundled_map_paths, import_map

    path = next(p for p in bundled_map_paths() if p.name == "karo-hairpin.txt")
    track = replace(import_map(path).track(), name="Hairpin refused a table")
    rules = load_rules("karopapier").replace(max_rounds=60)
    race = Race(track, rules, [CarSetup("Ann", driver="medium")], seed=1)
    best = solve(race.course, rules).moves
    monkeypatch.setattr(tables, "TABLE_MEMORY", 1 << 12)
    with pytest.raises(SolverError):
        tables.value_table(race.course, rules)
    state = race.start()
    driver = make_driver("medium", seed=1)
    while not state.is_over:
        state.apply(driver.choose(state))
    car = state.cars[0]
    assert car.finish is not None and car.areas == 0b111
    assert car.moves <= 1.2 * best
