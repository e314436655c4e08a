"""Gardner's addenda and the readers' variants, each from its source text, and the solver's
agreement with a plain search under every new option."""

from __future__ import annotations

from dataclasses import replace

import pytest

from racetrack.base.errors import IllegalMoveError
from racetrack.board.course import Course
from racetrack.board.geometry import Vec
from racetrack.board.track import find_track, load_track
from racetrack.engine.model import CarSetup, CarStatus, EventKind, Move, MoveKind
from racetrack.engine.moves import power_brakes
from racetrack.games.race import Race
from racetrack.games.replay import load_replay, save_replay
from racetrack.rules import load_rules
from racetrack.search.solver import solve
from tests.conftest import make_track
from tests.reference_bfs import fewest_moves_with

# A 30 x 8 corridor (rows y = 1..7 inside), an upgrade, a downgrade and a pit.
CORRIDOR = """
    outer: [[0, 0], [40, 0], [40, 8], [0, 8]]
    start: {a: [2, 0], b: [2, 8], forward: [1, 0]}
    finish: {a: [36, 0], b: [36, 8], forward: [1, 0]}
"""
SLOPES = CORRIDOR + """
    zones:
    - {kind: upgrade, polygon: [[10, 0], [14, 0], [14, 8], [10, 8]]}
    - {kind: downgrade, polygon: [[22, 0], [26, 0], [26, 8], [22, 8]]}
"""
PIT = CORRIDOR + """
    zones:
    - {kind: pit, polygon: [[16, 5], [20, 5], [20, 8], [16, 8]]}
"""
# A small ring for the solver checks: 12 x 9, an infield, every kind of zone.
RING = """
    outer: [[0, 0], [12, 0], [12, 9], [0, 9]]
    holes: [[[4, 3], [8, 3], [8, 6], [4, 6]]]
    start: {a: [6, 5], b: [6, 9.5], forward: [1, 0]}
    zones:
    - {kind: upgrade, polygon: [[9, 2], [12, 2], [12, 4], [9, 4]]}
    - {kind: downgrade, polygon: [[0, 4], [3, 4], [3, 7], [0, 7]]}
    - {kind: oil, polygon: [[4, 0], [6, 0], [6, 2], [4, 2]]}
    - {kind: pit, polygon: [[8, 7], [11, 7], [11, 9], [8, 9]]}
"""


def start(variant, body=CORRIDOR, cars=("Ann",), seed=0, **changes):
    rules = load_rules(variant)
    if changes:
        rules = rules.replace(**changes)
    setups = [c if isinstance(c, CarSetup) else CarSetup(c) for c in cars]
    return Race(make_track(body), rules, setups, seed=seed).start()


def replays_equal(state, folder) -> bool:
    """Save the race, load it back and re-simulate it: the same history and positions."""
    save_replay(state, folder / "race.yaml")
    final = load_replay(folder / "race.yaml").verify()
    return final.history == state.history and final.cars == state.cars


def legal(state):
    return {tuple(c.target) for c in state.candidates() if c.legal}


def reasons(state):
    return {tuple(c.target): c.reason for c in state.candidates() if not c.legal}


# -- upgrades and downgrades (J. P. Schell) -------------------------------------------------


def test_an_upgrade_forces_a_car_to_slow_down():
    state = start("gardner-addenda", SLOPES)
    state.place(0, Vec(8, 4), velocity=Vec(3, 0))
    # Every move from (8, 4) at speed 3 reaches the upgrade at x = 10: only slower ones remain.
    assert legal(state) == {(10, 3), (10, 4), (10, 5)}
    assert reasons(state)[(11, 4)] == "on an upgrade the car must slow down"


def test_a_downgrade_forces_a_car_to_speed_up():
    state = start("gardner-addenda", SLOPES)
    state.place(0, Vec(20, 4), velocity=Vec(2, 0))
    # Braking short of the slope at x = 22 is free; on it, only faster moves remain.
    assert legal(state) == {(21, 3), (21, 4), (21, 5), (23, 3), (23, 4), (23, 5)}
    assert "must speed up" in reasons(state)[(22, 4)]


def test_slopes_never_force_a_car_at_rest_and_are_plain_track_without_the_rule():
    state = start("gardner-addenda", SLOPES)
    state.place(0, Vec(11, 4))
    assert (12, 4) in legal(state) and (11, 4) in legal(state)
    plain = start("gardner", SLOPES)
    plain.place(0, Vec(8, 4), velocity=Vec(3, 0))
    assert (11, 4) in legal(plain)


# -- pit stops (Gardner's readers) -------------------------------------------------------------


def test_the_finish_does_not_count_before_the_pit_stop():
    state = start("gardner-addenda", PIT)
    state.place(0, Vec(34, 4), velocity=Vec(3, 0))
    events = state.apply(Move(Vec(37, 4)))
    assert state.car(0).status is CarStatus.RACING
    assert EventKind.NEEDS_PIT in {e.kind for e in events}


def test_coming_to_zero_velocity_in_a_pit_is_the_stop_and_then_the_finish_counts():
    state = start("gardner-addenda", PIT)
    state.place(0, Vec(17, 6), velocity=Vec(1, 0))
    events = state.apply(Move(Vec(18, 6)))  # still moving: no stop yet
    assert not state.car(0).pitted
    events = state.apply(Move(Vec(18, 6)))  # zero velocity inside the pit: "lose one move"
    assert state.car(0).pitted and EventKind.PIT_STOP in {e.kind for e in events}
    state.place(0, Vec(34, 4), velocity=Vec(3, 0))
    state.apply(Move(Vec(37, 4)))
    assert state.car(0).status is CarStatus.FINISHED


def test_a_track_without_a_pit_needs_no_stop():
    state = start("gardner-addenda", CORRIDOR)
    state.place(0, Vec(34, 4), velocity=Vec(3, 0))
    state.apply(Move(Vec(37, 4)))
    assert state.car(0).status is CarStatus.FINISHED


# -- fast acceleration after a full stop (David Pope) -----------------------------------------


def test_a_car_that_slows_to_a_full_stop_may_next_go_any_distance():
    state = start("pope", CORRIDOR)
    # The standing start is no stop: no launch, just Gardner's first move (one unit ahead).
    assert len(legal(state)) == 3
    state.place(0, Vec(5, 4), velocity=Vec(1, 0))
    state.apply(Move(Vec(5, 4)))  # slows to a full stop
    assert state.car(0).launch
    launches = {tuple(c.target): c for c in state.candidates() if c.legal}
    # "Any desired distance in either or both of the two directions."
    assert {(30, 4), (5, 7), (25, 1), (39, 7)} <= set(launches)
    assert launches[(30, 4)].note == "fast acceleration after a stop"
    state.apply(Move(Vec(20, 4)))
    assert state.car(0).velocity == Vec(15, 0) and not state.car(0).launch


def test_staying_at_rest_is_not_slowing_to_a_stop():
    # Gardner's first move must go somewhere; a house rule that lets it stay put still gives
    # no launch for staying at rest.
    state = start("pope", CORRIDOR, movement_first_move="free")
    state.apply(Move(state.car(0).position))  # stays put from rest
    assert not state.car(0).launch


# -- power braking (Tom Gordon) ------------------------------------------------------------


def test_power_braking_shortens_a_straight_move_by_up_to_two():
    # "Reduce both coordinates by two units, provided the move continues the preceding move
    # in a straight line."
    assert power_brakes(Vec(4, 4)) == [Vec(3, 3), Vec(2, 2)]
    assert power_brakes(Vec(5, 0)) == [Vec(4, 0), Vec(3, 0)]
    assert power_brakes(Vec(4, 2)) == [Vec(2, 1)]
    assert power_brakes(Vec(4, 3)) == []  # no shorter move on the same line
    assert power_brakes(Vec(0, 0)) == []
    state = start("gordon", CORRIDOR)
    state.place(0, Vec(5, 3), velocity=Vec(4, 2))
    braked = {tuple(c.target): c for c in state.candidates()}
    assert braked[(7, 4)].legal and braked[(7, 4)].note == "power braking"
    assert (7, 4) not in {tuple(c.target) for c in start("gardner", CORRIDOR).candidates()}


# -- skidding (Vaughan-Williams and Kinory) --------------------------------------------------


def test_at_high_speed_a_car_cannot_brake_and_turn_at_once():
    state = start("skidding", CORRIDOR)
    state.place(0, Vec(5, 4), velocity=Vec(4, 0))
    assert "would skid" in reasons(state)[(8, 5)]  # slower and turning
    assert {(9, 4), (8, 4), (10, 5), (9, 5)} <= legal(state)  # straight braking, or turning on
    slow = start("skidding", CORRIDOR)
    slow.place(0, Vec(5, 4), velocity=Vec(3, 0))
    assert (7, 5) in legal(slow)  # below speed 4 a car may brake into a turn


# -- the Westinghouse rules (Michael D. Greenberg) ---------------------------------------


def test_on_a_slanted_line_the_second_player_chooses_between_the_two_starting_points():
    track = load_track(find_track("slanted-oval"))
    race = Race(track, load_rules("westinghouse"), [CarSetup("First"), CarSetup("Second")])
    state = race.start()
    assert state.placing and state.current_car == 1
    choices = state.candidates()
    assert {c.kind for c in choices} == {MoveKind.PLACE}
    assert [tuple(c.target) for c in choices] == [(20, 20), (22, 23)]
    state.apply(Move(Vec(20, 20)))
    # The first player takes the other point without a choice to make, and moves first.
    assert not state.placing and state.current_car == 0
    assert state.car(0).position == Vec(22, 23) and state.car(1).position == Vec(20, 20)
    assert state.history == [(1, Move(Vec(20, 20)))]


def test_westinghouse_cars_may_share_a_point():
    state = start("westinghouse", CORRIDOR, cars=("Ann", "Bob"))
    state.apply(Move(Vec(2, 4)))  # Bob, moving last, chooses first
    assert "taken by Bob" in reasons(state)[(2, 4)]  # each starts on a point of its own
    state.apply(Move(Vec(2, 3)))
    state.apply(Move(Vec(3, 4)))  # Ann
    assert (3, 4) in legal(state)  # Bob may go where Ann stands


def test_placing_is_recorded_in_the_replay_and_replays(tmp_path):
    track = load_track(find_track("slanted-oval"))
    race = Race(track, load_rules("westinghouse"), [CarSetup("A", driver="expert"),
                                                     CarSetup("B", driver="expert")], seed=4)
    from racetrack.search.drivers import make_driver

    state = race.start()
    drivers = [make_driver("expert", 1), make_driver("expert", 2)]
    while not state.is_over:
        state.apply(drivers[state.current_car].choose(state))
    assert state.history[0][0] == 1
    assert replays_equal(state, tmp_path)


# -- either direction (Levi) ----------------------------------------------------------------


def test_a_car_may_race_a_circuit_in_reverse_where_the_rules_allow(square_ring):
    with pytest.raises(ValueError, match="forwards"):
        Race(square_ring, load_rules("baker"), [CarSetup("Ann", reverse=True)])
    race = Race(square_ring, load_rules("levi"), [CarSetup("Ann"), CarSetup("Bob", reverse=True)])
    forward, backward = race.course_of(0), race.course_of(1)
    assert backward.lines[0].forward == (-1, 0)
    # Leaving the line to the left backs Ann over it, but sets Bob off the right way.
    assert forward.advance_one(1, Vec(6, 2), Vec(4, 2)) == 0
    assert backward.advance_one(1, Vec(6, 2), Vec(4, 2)) == 1
    # Rule 6's checkpoint across the bottom straight, taken the other way round by Bob: it
    # must be crossed before coming round over the line finishes.
    assert backward.lines[1].forward == (1, 0) and forward.lines[1].forward == (-1, 0)
    assert backward.advance_one(1, Vec(5, 10), Vec(7, 10)) == 2
    assert backward.advance_one(1, Vec(7, 2), Vec(5, 2)) == 1  # the line without it: nothing
    assert backward.advance_one(2, Vec(7, 2), Vec(5, 2)) == backward.goal  # coming round
    one_way = solve(forward, race.rules)
    other_way = solve(backward, race.rules)
    assert one_way.moves == other_way.moves  # the ring is symmetric


def test_a_reverse_car_finishes_by_coming_round_the_other_way(square_ring, tmp_path):
    from racetrack.search.drivers import make_driver

    race = Race(square_ring, load_rules("levi"), [CarSetup("Bob", reverse=True)])
    state = race.start()
    driver = make_driver("expert")
    while not state.is_over:
        state.apply(driver.choose(state))
    assert state.outcome.winner == 0
    assert state.trails[0][1].x <= state.trails[0][0].x  # it set off to the left
    assert replays_equal(state, tmp_path)


def test_reverse_needs_a_circuit():
    with pytest.raises(ValueError, match="not a circuit"):
        Race(make_track(CORRIDOR), load_rules("levi"), [CarSetup("Ann", reverse=True)])


# -- gates and checkpoint points (C. R. S. Singleton) ----------------------------------------


def test_gates_must_be_passed_in_order():
    track = load_track(find_track("gates"))
    course = Course(track)
    assert course.goal == 1 + len(track.checkpoints) + 1
    # Driving through gate 2 first counts for nothing.
    assert course.advance_one(1, Vec(50, 31), Vec(50, 25)) == 1
    assert course.advance_one(1, Vec(18, 33), Vec(22, 33)) == 2


def test_waypoints_count_only_when_a_move_ends_on_them():
    track = load_track(find_track("waypoints"))
    course = Course(track)
    first = track.waypoints[0]
    assert course.goal == 1 + len(track.waypoints)
    assert course.advance_one(1, first - Vec(2, 0), first + Vec(2, 0)) == 1  # passing through
    assert course.advance_one(1, first - Vec(2, 0), first) == 2  # ending on it
    assert course.advance_one(2, first, first + Vec(1, 0)) == 2  # leaving it takes nothing away
    assert course.finish_fraction(first, track.waypoints[-1]) == 1.0


def test_a_waypoint_off_the_track_is_a_located_error():
    from racetrack.base.errors import TrackError

    with pytest.raises(TrackError, match=r"test.yaml:7: waypoint 2 at \(50, 4\) is off the track"):
        make_track(CORRIDOR + "    waypoints: [[10, 4], [50, 4]]\n")
    with pytest.raises(TrackError, match="whole numbers"):
        make_track(CORRIDOR + "    waypoints: [[10.5, 4]]\n")


# -- several laps on the simulation sheet ------------------------------------------------


def test_joining_the_finish_to_the_start_races_several_laps(square_ring):
    rules = load_rules("simulation")
    one = solve(Course(square_ring), rules).moves
    two = solve(Course(square_ring, laps=2), rules.replace(laps=2)).moves
    assert two > one + 3


# -- the solver against a plain search ---------------------------------------------------


@pytest.mark.parametrize("variant, changes", [
    ("gardner-addenda", {}),
    ("gardner", {"zones_slopes": "force"}),
    ("gordon", {}),
    ("skidding", {"movement_skid_speed": 2}),
    ("pope", {}),
    ("gardner-addenda", {"movement_launch": True, "movement_power_braking": True}),
    ("classroom", {"pit_stop": "required", "movement_power_braking": True}),
])
def test_the_solver_agrees_with_a_plain_search(variant, changes):
    track = make_track(RING)
    rules = load_rules(variant).replace(**changes)
    found = solve(Course(track), rules)
    assert found is not None and found.moves == fewest_moves_with(track, rules)


def test_the_solver_agrees_on_waypoints():
    body = """
        outer: [[0, 0], [10, 0], [10, 8], [0, 8]]
        holes: [[[4, 3], [6, 3], [6, 5], [4, 5]]]
        start: {a: [1, 0.5], b: [1, 7.5], forward: [1, 0]}
        waypoints: [[8, 6], [8, 2], [3, 2]]
    """
    track = make_track(body)
    rules = load_rules("gardner")
    found = solve(Course(track), rules)
    assert found is not None and found.moves == fewest_moves_with(track, rules)
    assert found.path[-1] == Vec(3, 2)


def test_the_optimal_route_is_a_legal_race_under_each_option():
    track = make_track(RING)
    for variant in ("gardner-addenda", "pope", "gordon"):
        rules = load_rules(variant)
        found = solve(Course(track), rules)
        state = Race(track, rules, [CarSetup("Solo")]).start()
        state.place(0, found.path[0])
        for point in found.path[1:]:
            state.apply(Move(point))
        assert state.car(0).status is CarStatus.FINISHED, variant
        assert state.last_round == found.moves


def test_an_illegal_launch_is_refused():
    state = start("pope", CORRIDOR)
    state.place(0, Vec(5, 4))
    with pytest.raises(IllegalMoveError):
        state.apply(Move(Vec(30, 4)))


@pytest.mark.parametrize("track_name, variant", [
    ("pit-lane", "gardner-addenda"), ("oval", "pope"), ("oval", "gordon"),
    ("oval", "skidding"), ("slanted-oval", "westinghouse"), ("waypoints", "gardner"),
])
def test_the_expert_alone_drives_an_optimal_race(track_name, variant):
    from racetrack.search.drivers import make_driver

    track = load_track(find_track(track_name))
    rules = load_rules(variant)
    state = Race(track, rules, [CarSetup("Solo", driver="expert")]).start()
    driver = make_driver("expert")
    while not state.is_over:
        state.apply(driver.choose(state))
    best = solve(Course(track), rules, start=None if rules.start_grid == "choose"
                 else state.trails[0][0])
    assert state.car(0).status is CarStatus.FINISHED
    assert state.last_round == best.moves


def test_the_expert_races_in_reverse_as_well_as_forwards():
    from racetrack.search.drivers import make_driver

    track = load_track(find_track("riddler-opolis"))
    rules = load_rules("levi")
    state = Race(track, rules, [CarSetup("Back", driver="expert", reverse=True)]).start()
    driver = make_driver("expert")
    while not state.is_over:
        state.apply(driver.choose(state))
    best = solve(state.race.course_of(0), rules, start=state.trails[0][0])
    assert state.car(0).status is CarStatus.FINISHED and state.last_round == best.moves


def test_without_a_table_the_drivers_still_make_the_pit_stop(monkeypatch):
    from racetrack.search.drivers import driver as driver_module
    from racetrack.search.drivers import make_driver
    from racetrack.search.solver import SolverError

    def no_table(*args, **kwargs):
        raise SolverError("too large")

    monkeypatch.setattr(driver_module, "value_table", no_table)
    state = start("gardner-addenda", PIT, cars=(CarSetup("Solo", driver="expert"),))
    driver = make_driver("expert")
    while not state.is_over:
        state.apply(driver.choose(state))
    assert state.car(0).pitted and state.car(0).status is CarStatus.FINISHED


def test_an_unpitted_car_ranks_behind_one_that_has_stopped():
    state = start("gardner-addenda", PIT, cars=("Ann", "Bob"), max_rounds=1)
    state.set_car(0, replace(state.car(0), position=Vec(30, 4), pitted=False))
    state.set_car(1, replace(state.car(1), position=Vec(28, 4), pitted=True))
    state.apply(Move(Vec(30, 4)))
    state.apply(Move(Vec(28, 4)))
    assert state.outcome.ranking == (1, 0)


def test_a_crash_restart_onto_a_waypoint_does_not_reach_it():
    body = """
        outer: [[0, 0], [12, 0], [12, 9], [0, 9]]
        start: {a: [1, 0], b: [1, 9], forward: [1, 0]}
        waypoints: [[12, 8]]
    """
    state = start("baker", body)
    state.place(0, Vec(11, 8), velocity=Vec(5, 0))
    crash = next(c for c in state.candidates() if c.kind is MoveKind.CRASH)
    state.apply(crash.move)
    assert state.car(0).position == Vec(12, 8)  # put back on the waypoint...
    assert state.car(0).status is CarStatus.RACING  # ...but a restart is not a move onto it
