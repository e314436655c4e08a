"""Drivers among other cars: two cars head on in a one-lane passage sort themselves out, a
race of every level through a narrow passage finishes, and the ``stalled`` rule decides what
cars that will not give way do."""

from __future__ import annotations

from dataclasses import replace

import pytest

from racetrack.ai import LEVELS, make_driver
from racetrack.ai.driver import TableDriver, standing
from racetrack.game import STALL_TURNS, Race
from racetrack.geometry import ZERO, Vec
from racetrack.lineup import computer_line_up
from racetrack.model import CarSetup, Move, Termination
from racetrack.playout import play_out, race_drivers
from racetrack.rules import load_rules
from racetrack.track import find_track, load_track

# The one-lane passage of the Narrows runs along y = 4 from x = 15 to x = 19.
LANE = [Vec(x, 4) for x in range(15, 20)]


def head_on(levels, variant="gardner", seed=0, **changes):
    """Two cars at rest, side by side in the passage and facing each other: each one's best
    next point is the other car's."""
    rules = load_rules(variant).replace(start_direction="either", cars="forbidden", **changes)
    cars = [CarSetup("East", "red", levels[0]), CarSetup("West", "blue", levels[1], reverse=True)]
    race = Race(load_track(find_track("narrows")), rules, cars, seed=seed)
    state = race.start()
    state.place(0, Vec(16, 4))
    state.place(1, Vec(17, 4))
    return race, state


def test_head_on_each_wants_the_others_point():
    race, state = head_on(["expert", "expert"])
    for index in (0, 1):
        other = state.cars[1 - index].position
        refused = [c for c in state.candidates_for(index) if c.target == other]
        assert refused and not refused[0].legal


@pytest.mark.parametrize(("levels", "seed"), [(("expert", "expert"), 0),
                                              (("expert", "expert"), 1),
                                              (("expert", "hard"), 2),
                                              (("hard", "expert"), 3),
                                              (("medium", "easy"), 4)])
def test_two_cars_head_on_in_a_one_lane_passage_sort_it_out(levels, seed):
    race, state = head_on(levels, seed=seed)
    play_out(state, race_drivers(race))
    outcome = state.outcome
    assert outcome.termination is not Termination.STALLED
    assert outcome.winner is not None and outcome.rounds < 40
    # Both got through the passage: one gave way, then followed.
    assert all(car.moves > 2 for car in state.cars)


def facing(levels, west, east, seed):
    """Two cars at rest in the passage, facing each other ``east - west`` squares apart."""
    race, state = head_on(levels, seed=seed)
    state.place(0, Vec(west, 4))
    state.place(1, Vec(east, 4))
    return race, state


@pytest.mark.parametrize("seed", range(4))
def test_two_experts_head_on_four_squares_apart_never_stand_off(seed):
    """Neither stands where the other could go, so neither is held up face to face: each
    once waited for the other for ever. Now one comes on, and they sort it out."""
    race, state = facing(["expert", "expert"], 15, 19, seed)
    drivers = race_drivers(race)
    longest = 0
    while not state.is_over:
        state.apply(drivers[state.current_car].choose(state))
        racing = [i for i, car in enumerate(state.cars) if car.racing]
        if len(racing) > 1:
            longest = max(longest, min(state.still[i] for i in racing))
    assert state.outcome.termination is not Termination.STALLED
    assert state.outcome.winner is not None and state.outcome.rounds < 40
    assert longest < STALL_TURNS - 1  # broken long before the rule would step in


@pytest.mark.parametrize("race_seed", [0, 3])
def test_the_standoff_is_broken_the_same_way_whatever_the_drivers_seeds(race_seed,
                                                                          monkeypatch):
    """Drivers with every reason to wait (each would stand still whenever it may): the car
    that comes on is the one whose turn comes once the other stood still, a matter of the
    position and the order, never of a draw among equal moves."""
    pick = TableDriver._pick

    def waiting(self, state, options, values, pool):
        here = state.cars[state.current_car].position
        still = [i for i in pool if standing(options[i], here)]
        return still[0] if still else pick(self, state, options, values, pool)

    monkeypatch.setattr(TableDriver, "_pick", waiting)
    first = set()
    for seed in range(5):
        race, state = facing(["expert", "expert"], 15, 19, race_seed)
        drivers = [make_driver("expert", seed), make_driver("expert", seed + 100)]
        while True:
            index = state.current_car
            waited = state.still[1 - index] > 0
            before = state.cars[index].position
            state.apply(drivers[index].choose(state))
            if state.cars[index].position != before:
                first.add(index)
                assert waited
                break
    assert len(first) == 1


def test_a_race_of_every_level_through_a_narrow_passage_finishes():
    track = load_track(find_track("narrows"))
    rules = load_rules("gardner").replace(finish_end="all")
    race = Race(track, rules, computer_line_up(list(LEVELS)), seed=5)
    state = play_out(race.start(), race_drivers(race))
    assert state.outcome.termination is Termination.NO_CAR_RACING
    assert all(car.finish is not None for car in state.cars)
    assert state.outcome.rounds < 60


class Stubborn:
    """Stands still whenever it may; else the first legal move."""

    def choose(self, state):
        car = state.cars[state.current_car]
        legal = [c for c in state.candidates() if c.legal]
        still = [c for c in legal if c.target == car.position and c.velocity == ZERO]
        return (still or legal)[0].move


def test_stalled_end_stops_a_race_of_cars_that_will_not_give_way():
    race, state = head_on(["expert", "expert"], stalled="end")
    play_out(state, [Stubborn(), Stubborn()])
    assert state.outcome.termination is Termination.STALLED
    assert state.outcome.rounds == STALL_TURNS
    assert state.outcome.reason == "stopped: the cars held each other up"


def test_stalled_pass_lets_held_up_cars_take_each_others_points():
    race, state = head_on(["expert", "expert"], stalled="pass")
    for _ in range(2 * STALL_TURNS):
        state.apply(Stubborn().choose(state))
    index = state.current_car
    other = state.cars[1 - index].position
    assert state.passable(index) == {1 - index}
    passing = next(c for c in state.candidates() if c.target == other)
    assert passing.legal
    state.apply(Move(other))
    assert state.cars[0].position == state.cars[1].position


def test_a_car_waiting_alone_is_not_stalled():
    race, state = head_on(["expert", "expert"])
    state.set_car(1, replace(state.cars[1], position=Vec(30, 17)))
    stubborn, driver = Stubborn(), race_drivers(race)[1]
    for _ in range(4 * STALL_TURNS):
        mover = stubborn if state.current_car == 0 else driver
        state.apply(mover.choose(state))
    assert not state.is_over and not state.stalled


def test_cars_standing_still_far_apart_are_stalled():
    """Every car still racing stands still, far from the others: nothing would ever change."""
    race, state = head_on(["expert", "expert"], stalled="end")
    state.set_car(1, replace(state.cars[1], position=Vec(30, 17)))
    play_out(state, [Stubborn(), Stubborn()])
    assert state.outcome.termination is Termination.STALLED
    assert state.outcome.rounds == STALL_TURNS


def test_under_pass_a_standstill_that_passing_cannot_end_stops_the_race():
    race, state = head_on(["expert", "expert"], stalled="pass")
    state.set_car(1, replace(state.cars[1], position=Vec(30, 17)))
    play_out(state, [Stubborn(), Stubborn()])
    assert state.outcome.termination is Termination.STALLED
    assert state.outcome.rounds == 2 * STALL_TURNS


def test_a_car_a_move_from_the_line_finishes_with_a_rival_beside_it():
    race = Race(load_track(find_track("narrows")), load_rules("gardner"),
                computer_line_up(["easy", "expert"]), seed=0)
    state = race.start()
    last_lap = race.course.goal - 1
    state.place(0, Vec(18, 15), progress=last_lap)
    state.place(1, Vec(18, 16), progress=last_lap)
    drivers = race_drivers(race)
    first = state.current_car
    state.apply(drivers[first].choose(state))
    assert state.cars[first].finish is not None
