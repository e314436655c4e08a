"""Taking a move back gives exactly the race a replay of the moves that stood gives, and the
race's file then holds only those moves and verifies."""

from __future__ import annotations

import pytest

from racetrack.ai import make_driver
from racetrack.game import Race, RaceState
from racetrack.model import CarSetup
from racetrack.replay import load_replay, save_replay
from racetrack.rules import load_rules
from racetrack.takeback import replayed, take_back_point, taken_back
from racetrack.track import find_track, load_track


def looks(state: RaceState) -> tuple:
    """Everything a state holds that the race goes on from, as comparable values."""
    return (tuple(state.cars), state.turn, state.round, tuple(state.history),
            tuple(tuple(t) for t in state.trails), state.over, tuple(state.unplaced),
            tuple(state.held), tuple(state.gadgets.missiles), tuple(state.gadgets.oil),
            frozenset(state.gadgets.taken), tuple(state.gadgets.to_steer), state.last_round)


def race_on(variant: str, track: str = "oval", seed: int = 3) -> tuple[Race, dict]:
    """Ann (car 0, the player, driven here by a computer) against two computer cars."""
    race = Race(load_track(find_track(track)), load_rules(variant),
                [CarSetup("Ann", "red", "human"), CarSetup("Bob", "blue", "easy"),
                 CarSetup("Cy", "green", "medium")], seed=seed)
    return race, {0: make_driver("medium", seed), 1: make_driver("easy", seed + 1),
                  2: make_driver("medium", seed + 2)}


def drive(state: RaceState, drivers: dict, moves: int) -> None:
    for _ in range(moves):
        if state.is_over:
            return
        state.apply(drivers[state.current_car].choose(state))


@pytest.mark.parametrize("variant, track", [("baker", "oval"), ("nystrom", "oval"),
                                            ("karopapier", "oval"), ("baker-advanced", "hazards")])
def test_taking_back_gives_the_race_the_moves_that_stood_replay_to(variant, track, tmp_path):
    race, drivers = race_on(variant, track)
    state = race.start()
    drive(state, drivers, 14)
    assert not state.is_over
    point = take_back_point(state, {0})
    assert point is not None and state.history[point][0] == 0
    assert all(car != 0 for car, _ in state.history[point + 1:])
    back = taken_back(state, {0})
    assert back.history == state.history[:point]
    assert back.current_car == 0  # the player chooses again
    assert looks(back) == looks(replayed(state, point))
    assert back.take_events() == []  # the replayed turns are not told again
    # Racing on from there, the file holds only the moves that stood, and verifies.
    drive(back, drivers, 12)
    path = tmp_path / "race.yaml"
    save_replay(back, path)
    final = load_replay(path).verify()
    assert looks(final) == looks(back)


def test_taking_back_again_walks_further_back_and_stops_at_the_start():
    race, drivers = race_on("baker")
    state = race.start()
    drive(state, drivers, 9)
    lengths = []
    while take_back_point(state, {0}) is not None:
        state = taken_back(state, {0})
        lengths.append(len(state.history))
    assert lengths == sorted(lengths, reverse=True) and lengths[-1] == 0
    assert looks(state) == looks(race.start())
    with pytest.raises(ValueError, match="no move to take back"):
        taken_back(state, {0})


def test_a_computer_cars_moves_are_never_taken_back_alone():
    race, drivers = race_on("baker")
    state = race.start()
    drive(state, drivers, 1)  # Ann's first move only
    assert take_back_point(state, {1, 2}) is None
    assert take_back_point(state, {0}) == 0


def test_hot_seat_takes_back_the_last_move_of_either_player():
    race, drivers = race_on("gardner")
    state = race.start()
    drive(state, drivers, 5)
    movers = [car for car, _ in state.history]
    last_of_two = max(n for n, car in enumerate(movers) if car in (0, 1))
    assert take_back_point(state, {0, 1}) == last_of_two
    assert take_back_point(state, {0}) == max(n for n, car in enumerate(movers) if car == 0)


def test_replayed_refuses_a_number_of_moves_the_race_has_not_made():
    race, drivers = race_on("baker")
    state = race.start()
    drive(state, drivers, 2)
    with pytest.raises(ValueError, match="has no state after 3 moves"):
        replayed(state, 3)
