"""``finish.landing: anywhere`` (the sutton-barto rules): a move that reaches the finish while it
is still on the track ends the race there, wherever it would land. The game, the solver, the
drivers' tables and replays see the same finishing moves."""

from __future__ import annotations

import pytest

from racetrack.board.course import Course
from racetrack.board.geometry import Vec
from racetrack.board.track import parse_track
from racetrack.board.track.maps import import_map
from racetrack.engine.model import CarSetup, CarState, EventKind, Move, MoveKind
from racetrack.games.playout import race_drivers
from racetrack.games.race import Race
from racetrack.games.replay import load_replay, save_replay
from racetrack.rules import load_rules
from racetrack.search.solver import solve
from tests.board.track.maps.test_round_trips import EDGE
from tests.engine.test_transition import game_successors, search_successors

#: A corridor to a finish line at x = 10 with the wall right behind it (x = 10.5), and a
#: finish area version of the same.
CORRIDOR = """\
racetrack-track: 1
name: Corridor
outer: [[-0.5, -0.5], [10.5, -0.5], [10.5, 2.5], [-0.5, 2.5]]
start: {a: [0, -0.5], b: [0, 2.5], forward: [1, 0]}
finish: {a: [9.5, -0.5], b: [9.5, 2.5], forward: [1, 0]}
"""


@pytest.fixture(scope="module")
def edge_track(tmp_path_factory):
    path = tmp_path_factory.mktemp("maps") / "edge.txt"
    path.write_text(EDGE)
    return import_map(path).track()


def lone(track, rules="sutton-barto", car: CarState | None = None):
    ruleset = load_rules(rules).replace(start_grid="spread")
    state = Race(track, ruleset, [CarSetup("Solo")]).start()
    if car is not None:
        state.set_car(0, car)
    return state


def test_a_move_over_the_finish_cells_and_off_the_map_finishes(edge_track):
    car = CarState(position=Vec(3, 9), velocity=Vec(2, 0), progress=1)
    # (3, 9) + (3, 0) passes over the finish cell (5, 9) and ends off the map at (6, 9).
    over = lone(edge_track, car=car)
    finishing = [c for c in over.candidates() if c.target == Vec(6, 9)]
    assert finishing[0].legal and finishing[0].kind is MoveKind.FINISH
    events = over.apply(Move(Vec(6, 9)))
    assert EventKind.FINISHED in [e.kind for e in events]
    assert over.cars[0].position == Vec(6, 9) and over.cars[0].finish is not None
    # Karopapier's own rules: the car must land on the road, and (6, 9) is not.
    landing = lone(edge_track, "karopapier", car)
    refused = [c for c in landing.candidates() if c.target == Vec(6, 9)]
    assert not refused[0].legal


def test_only_the_part_before_the_finish_is_judged():
    track = parse_track(CORRIDOR)
    state = lone(track, car=CarState(position=Vec(8, 2), velocity=Vec(2, 1), progress=1))
    by_target = {c.target: c for c in state.candidates()}
    assert by_target[Vec(11, 2)].kind is MoveKind.FINISH  # over the line, then the wall
    assert by_target[Vec(11, 3)].kind is MoveKind.FINISH  # over the line, the wall at y 2.5
    assert by_target[Vec(11, 4)].legal is False  # through the wall before the line
    # A car that has not come round to the finish yet does not finish by leaving.
    early = lone(track, car=CarState(position=Vec(8, 2), velocity=Vec(2, 1), progress=0))
    assert not {c.target: c for c in early.candidates()}[Vec(11, 2)].legal


@pytest.mark.parametrize(("position", "velocity"), [((3, 9), (2, 0)), ((4, 8), (1, 1)),
                                                    ((2, 8), (2, 0)), ((4, 9), (0, 0))])
def test_the_games_finishes_over_the_edge_are_the_searchs_successors(edge_track, position,
                                                                     velocity):
    car = CarState(position=Vec(*position), velocity=Vec(*velocity), progress=1)
    # Set back by no moves, as the search knows no history (tests/engine/test_transition.py).
    race = Race(edge_track, load_rules("sutton-barto").replace(start_grid="spread",
                                                               crash_set_back=0),
                [CarSetup("Solo")])
    expected, columns = search_successors(race, car)
    assert {g for g in game_successors(race, car, columns) if g != ("out",)} == expected


def test_a_drivers_race_over_the_edge_takes_the_optimum_and_replays(edge_track, tmp_path):
    rules = load_rules("sutton-barto")
    best = solve(Course.for_rules(edge_track, rules), rules)
    race = Race(edge_track, rules, [CarSetup("Ann")], seed=1)
    drivers = race_drivers(race, ["expert"])
    state = race.start()
    while not state.is_over:
        state.apply(drivers[state.current_player].choose(state))
    car = state.cars[0]
    assert car.finish is not None and car.moves == best.moves
    assert car.position.x > 5  # it could only be that quick by running off the map
    path = tmp_path / "race.yaml"
    save_replay(state, path)
    again = load_replay(path).verify()
    assert again.outcome.ranking == state.outcome.ranking
    assert again.cars[0].position == car.position
