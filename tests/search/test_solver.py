"""The exact solver: known optima, agreement with a plain BFS, routes that race, refusals."""

from __future__ import annotations

import json
import math
import re
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from racetrack.board.course import Course
from racetrack.board.geometry import ZERO, Vec
from racetrack.board.track import Track, find_track, load_track, parse_track
from racetrack.cli import main
from racetrack.engine.model import CarSetup, CarState, CarStatus, Move
from racetrack.engine.position import parse_car_position
from racetrack.engine.transition import Cars, transition_for
from racetrack.games.race import Race, RaceState
from racetrack.rules import load_rules
from racetrack.search.solver import SolverError, solve, solve_each_start, solve_position
from tests.conftest import make_track
from tests.reference_bfs import (
    PLUS,
    SQUARE,
    SQUARE_24,
    fewest_moves,
    fewest_moves_to_finish_line,
    fewest_turns_in_game,
)

# Optimum under Gardner's rules for every bundled track (his oil rule and water as a wall count).
PINNED = {"canyon": 28, "figure-eight": 34, "grand-prix": 73, "hairpins": 45, "hazards": 46,
          "oval": 25, "rally": 46, "riddler-opolis": 12, "spiral": 29, "wide-speedway": 30}


@pytest.mark.parametrize("name", sorted(PINNED))
def test_pinned_optimum_of_every_bundled_track(name):
    track = load_track(find_track(name))
    solution = solve(Course(track), load_rules("gardner"))
    assert solution is not None and solution.moves == PINNED[name]


def race_route(track, rules, path):
    """Drive the route in a one-car race: every move must be legal, and it must finish."""
    race = Race(track, rules, [CarSetup("Solo")])
    state = race.start()
    state.place(0, path[0])
    for point in path[1:]:
        state.apply(Move(point))
    return state


def test_riddler_route_is_a_legal_race_of_twelve_moves():
    track = load_track(find_track("riddler-opolis"))
    rules = load_rules("gardner")
    solution = solve(Course(track), rules, start=Vec(0, -5))
    assert solution.moves == 12 and solution.start == (0, -5) and len(solution.path) == 13
    state = race_route(track, rules, solution.path)
    assert state.cars[0].status is CarStatus.FINISHED and state.is_over


@pytest.mark.parametrize("variant, changes, must_change, touching", [
    ("gardner", SQUARE, False, True),
    ("baker", PLUS, False, True),
    ("simulation", SQUARE, False, False),
    ("classroom-24", SQUARE_24, False, True),
])
def test_agrees_with_a_plain_bfs_on_bundled_tracks(variant, changes, must_change, touching):
    track = load_track(find_track("riddler-opolis"))
    rules = load_rules(variant)
    expected = fewest_moves(track, changes=changes, must_change=must_change,
                            touching_allowed=touching, first_move=rules.movement_first_move)
    solution = solve(Course(track), rules)
    assert solution.moves == expected
    # Played choice by choice (an optimal route may crash on purpose, where the rules put the
    # car back: the simulation sheet's crash into the finish), it races in as many turns.
    state = race_plays(track, rules, solution)
    assert state.cars[0].finish is not None and state.last_round == solution.moves


def race_plays(track, rules, solution, car=None):
    """Play a solution's choices in a one-car race (the game settles crashes with no choice
    and missed turns itself), from a standing start or from ``car``'s state; returns the state
    after the last."""
    race = Race(track, rules.replace(start_grid="spread"), [CarSetup("Solo")])
    if car is not None:
        state = RaceState(race, [car], placed=True)
    else:
        state = race.start()
        state.set_car(0, replace(state.cars[0], position=solution.start))
    for point in solution.plays:
        if point is not None:
            state.apply(Move(point))
    return state


def u_course(finish_x: float, mirrored: bool) -> Track:
    """A U of arms three squares wide, closed at one end, open at the other: the start line
    crosses the top arm at its dead end (x = 1), the finish the bottom arm at ``finish_x``,
    arrows pointing opposite ways. At ``finish_x`` = 1 the finish lies on the start line's
    straight line, on the last column of points: a car finishes only by ending a move on it.
    ``mirrored`` flips the course left to right, arrows and all."""
    def x(value: float) -> float:
        return 13 - value if mirrored else value
    outer = [[x(a), b] for a, b in ([0.5, 0.5], [12.5, 0.5], [12.5, 8.5], [0.5, 8.5], [0.5, 5.5],
                                    [9.5, 5.5], [9.5, 3.5], [0.5, 3.5])]
    sign = -1 if mirrored else 1
    return make_track(f"""
        outer: {outer[::sign]}
        start: {{a: [{x(1)}, 0.5], b: [{x(1)}, 3.5], forward: [{sign}, 0]}}
        finish: {{a: [{x(finish_x)}, 5.5], b: [{x(finish_x)}, 8.5], forward: [{-sign}, 0]}}
    """, name="U")


U_COURSES = [(finish_x, mirrored) for finish_x in (1, 2) for mirrored in (False, True)]


@pytest.mark.parametrize("finish_x, mirrored", U_COURSES)
@pytest.mark.parametrize("first_move", ["ahead", "free"])
def test_a_course_that_finishes_on_the_start_lines_straight_line(finish_x, mirrored, first_move):
    """A move that ends on the finish line has reached it, also where the finish lies on the
    start line's straight line pointing the other way (a U, both ways round): the optimum is
    a plain search's that judges the finish line alone, and the route races in."""
    track = u_course(finish_x, mirrored)
    rules = load_rules("gardner").replace(movement_first_move=first_move)
    expected = fewest_moves_to_finish_line(track, SQUARE, first_move)
    solution = solve(Course.for_rules(track, rules), rules)
    assert expected is not None and solution.moves == expected
    state = race_plays(track, rules, solution)
    assert state.cars[0].finish is not None and state.last_round == solution.moves


@pytest.mark.parametrize("mirrored", [False, True])
def test_ending_a_move_on_a_finish_on_the_start_lines_straight_line_finishes(mirrored):
    course = Course(u_course(1, mirrored))
    x = 12 if mirrored else 1
    step = 1 if mirrored else -1
    assert course.advance_one(course.start_progress, (x - 2 * step, 7), (x, 7)) == course.goal
    assert course.advance_one(course.start_progress, (x - 2 * step, 7), (x - step, 7)) \
        == course.start_progress


# Cars a few turns from the finish of riddler-opolis (whose line runs from the infield to the
# wall), where the game's own search over every legal move is quick: on a detour in the infield
# or over the wall that must come back on behind where it left, crashing (no legal move:
# put back, a turn missed), finishing with a move that flies off the track, crawling.
NEAR_THE_FINISH = [
    ("nystrom", "-2,1 0,-1 1 off@3"),
    ("nystrom", "-2,-8 0,-1 1 off@2"),
    ("nystrom", "-6,-6 4,4 1"),
    ("nystrom", "-5,1 0,-2 1"),
    ("levi", "-2,0 0,0 2 off"),
    ("levi", "-2,3 -1,-1 2"),
    ("levi", "-3,0 2,4 2"),
    ("levi", "-2,-8 0,0 2 off"),
    # In the infield, off the track since (-3, -3): back on there or behind, not at the line.
    ("levi", "-2,-2 0,-1 2 off@3"),
]
# Cars just off the track past the start line, the start of a lap: crawling back round the
# line's end and over it forwards takes a few turns, and must not finish the lap.
ROUND_THE_LINE_END = [("nystrom", "1,-8 0,-2 1 off@23", 4), ("levi", "1,-8 -1,-1 1 off", 4)]


@pytest.mark.parametrize("variant, position", NEAR_THE_FINISH)
def test_sees_the_moves_that_leave_the_track(variant, position):
    """Nystrom's detour and Levi's crawl: the solver's optimum is the game's own, searched
    over every legal move of the race (off the track, back on and crashing included), and
    its route races in that many turns."""
    track = load_track(find_track("riddler-opolis"))
    rules = load_rules(variant)
    car = parse_car_position(position)
    solution = solve_position(Course.for_rules(track, rules), rules, car)
    assert solution.moves == fewest_turns_in_game(track, rules, car=car, limit=12)
    state = race_plays(track, rules, solution, car=car)
    assert state.cars[0].finish is not None and state.last_round == solution.moves


@pytest.mark.parametrize("variant, position, turns", ROUND_THE_LINE_END)
def test_no_lap_by_going_round_the_line_end(variant, position, turns):
    """Neither the game nor the solver lets a car that has just started go back round the end
    of the line and over it again for a finish: the game finds none within the turns that
    takes, and the solver's optimum is a lap, which races."""
    track = load_track(find_track("riddler-opolis"))
    rules = load_rules(variant)
    car = parse_car_position(position)
    assert fewest_turns_in_game(track, rules, car=car, limit=turns) is None
    solution = solve_position(Course.for_rules(track, rules), rules, car)
    assert solution.moves >= PINNED["riddler-opolis"]
    state = race_plays(track, rules, solution, car=car)
    assert state.cars[0].finish is not None and state.last_round == solution.moves


@st.composite
def small_tracks(draw):
    """A random ring: a star-shaped outline around a smaller star-shaped hole."""
    n = draw(st.integers(5, 9))
    radii = draw(st.lists(st.floats(5.5, 9), min_size=n, max_size=n))
    inner = draw(st.floats(1.5, 3.5))
    outer = [[round(r * math.cos(2 * math.pi * i / n), 2), round(r * math.sin(2 * math.pi * i / n),
                                                                  2)] for i, r in enumerate(radii)]
    hole = [[round(inner * math.cos(2 * math.pi * i / 6), 2),
             round(inner * math.sin(2 * math.pi * i / 6), 2)] for i in range(6)]
    return parse_track(
        "racetrack-track: 1\nname: Random\n"
        f"outer: {outer}\nholes: [{hole}]\n"
        f"start: {{a: [0, {-inner}], b: [0, {-min(radii) - 2}], forward: [1, 0]}}\n")


@pytest.mark.long
@settings(max_examples=12, deadline=None)
@given(small_tracks(), st.sampled_from(["gardner", "baker", "simulation"]))
def test_agrees_with_a_plain_bfs_on_random_tracks(track, variant):
    """The plain BFS keeps to the track. Under Baker's rules a car may also hit the wall on
    purpose (it is put back on the nearest point, which can be a short cut): there the solver
    may beat the plain BFS, and its route must then race in the game in as many turns."""
    rules = load_rules(variant)
    changes = PLUS if variant == "baker" else SQUARE
    expected = fewest_moves(track, changes=changes, touching_allowed=rules.boundary_counts,
                            first_move=rules.movement_first_move)
    solution = solve(Course(track), rules)
    found = solution.moves if solution else None
    if rules.leaving_track == "illegal":
        assert found == expected
    else:
        assert found is not None and (expected is None or found <= expected)
        state = race_plays(track, rules, solution)
        assert state.cars[0].finish is not None and state.last_round == found


def test_water_counts_unless_the_car_can_swim():
    track = make_track("""
        outer: [[0, 0], [30, 0], [30, 6], [0, 6]]
        start: {a: [2, 0], b: [2, 6], forward: [1, 0]}
        finish: {a: [26, 0], b: [26, 6], forward: [1, 0]}
        zones: [{kind: water, polygon: [[12, 0], [14, 0], [14, 6], [12, 6]]}]
    """)
    rules = load_rules("gardner")
    assert solve(Course(track), rules) is None
    assert solve(Course(track), rules, can_swim=True).moves == fewest_moves(track)


def test_fairness_report_for_every_start():
    track = load_track(find_track("oval"))
    report = solve_each_start(Course(track), load_rules("gardner"))
    assert set(report) == set(Course(track).start_positions)
    assert min(report.values()) == PINNED["oval"]


def test_an_absurdly_large_track_is_refused_within_the_memory_budget():
    """The refusal comes from the states the search has found, not from a worst-case count
    of them (so a big sheet with few reachable states still solves): an open 990 x 990 square
    is refused once its states pass the budget (a small one here, to keep the test quick; the
    bench times the refusal at the default budget)."""
    track = make_track("""
        outer: [[0, 0], [990, 0], [990, 990], [0, 990]]
        start: {a: [2, 0], b: [2, 990], forward: [1, 0]}
        finish: {a: [900, 0], b: [900, 990], forward: [1, 0]}
    """)
    with pytest.raises(SolverError, match="too large"):
        solve(Course(track), load_rules("gardner"), memory=48 << 20)


def test_a_growing_search_far_from_the_finish_is_refused_before_it_fills_the_budget():
    """An open sheet whose frontier grows every turn, with the finish still many turns away,
    is refused from that growth, long before its states would fill the budget."""
    track = make_track("""
        outer: [[0, 0], [400, 0], [400, 400], [0, 400]]
        start: {a: [2, 0], b: [2, 400], forward: [1, 0]}
        finish: {a: [390, 0], b: [390, 400], forward: [1, 0]}
    """)
    with pytest.raises(SolverError, match="at least 2[0-9] turns away") as refused:
        solve(Course(track), load_rules("gardner"), memory=64 << 20)
    found = int(str(refused.value).split()[3].replace(",", ""))
    assert found < (64 << 20) // 12 // 4


def test_least_turns_is_a_lower_bound_on_every_solved_track():
    from racetrack.search.solver import least_turns, standing_starts

    rules = load_rules("gardner")
    for name in ("riddler-opolis", "oval", "canyon"):
        course = Course(load_track(find_track(name)))
        transition = transition_for(course, rules)
        for start in course.start_positions[:3]:
            sources = standing_starts(transition, [start])
            bound = least_turns(transition, sources, transition.step)
            assert bound <= solve(course, rules, start).moves


def test_cli_json_shape(capsys):
    assert main(["solve", "riddler-opolis", "--from", "0,-5", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["moves"] == 12 and result["start"] == [0, -5]
    assert len(result["path"]) == 13 and result["path"][0] == [0, -5]


def test_cli_text_and_starts(capsys):
    assert main(["solve", "oval", "--rules", "baker"]) == 0
    out = capsys.readouterr().out
    assert "moves from" in out and out.count("route:") == 1
    assert main(["solve", "oval", "--starts", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["best"] == PINNED["oval"] and len(report["starts"]) == 5


#: A car heading for the wall too fast to turn: under the simulation sheet's rules it has no
#: legal move, so every route from there starts with a crash and a missed turn.
HEADING_FOR_THE_WALL = ("-6,-6 -4,0 1", Vec(-4, 0))


@pytest.mark.parametrize("track_name, variant, position", [
    ("oval", "baker", None), ("riddler-opolis", "simulation", HEADING_FOR_THE_WALL)])
def test_cli_json_steps_race_as_clicks(capsys, track_name, variant, position):
    """``steps``: one a turn, each where the car stands after it (the path's points) and the
    point a player clicks (none for a turn the game plays itself). Clicking the targets in
    order drives the same race, the crash included: the put-back point alone would be a
    different move."""
    where = [] if position is None else ["--position", position[0]]
    assert main(["solve", track_name, "--rules", variant, *where, "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    steps = found["steps"]
    assert len(steps) == found["moves"] and found["states"] > 0
    assert [step["position"] for step in steps] == found["path"][1:]
    assert "crash" in [step["event"] for step in steps] and steps[-1]["event"] == "finish"
    rules = load_rules(variant)
    race = Race(load_track(find_track(track_name)), rules.replace(start_grid="spread"),
                [CarSetup("Solo")])
    # (a race begun with the car there plays at once the turns it has no choice in)
    state = RaceState(race, [replace(race.start().cars[0], position=Vec(*found["start"]),
                                     velocity=ZERO if position is None else position[1])],
                      placed=True)
    clicked = [i for i, step in enumerate(steps) if step["target"] is not None]
    for i, after in zip(clicked, [*clicked[1:], len(steps)], strict=True):
        state.apply(Move(Vec(*steps[i]["target"])))
        # the turns with no choice that follow, the game plays at once
        assert list(state.cars[0].position) == steps[after - 1]["position"]
    assert state.cars[0].finish is not None and state.last_round == found["moves"]


def test_cli_text_marks_a_crash(capsys):
    assert main(["solve", "oval", "--rules", "baker"]) == 0
    out = capsys.readouterr().out
    # (the start is the search's pick among those equally fast)
    assert re.search(r"27 moves from \(\d+, \d+\), 1 crash", out)
    assert "2,9(crash at 1,9) 2,10" in out
    assert main(["solve", "riddler-opolis", "--rules", "simulation", "--position",
                 HEADING_FOR_THE_WALL[0]]) == 0
    assert "-6,-6 -6,-6(crash) -6,-6(missed) " in capsys.readouterr().out


def test_either_way_round_both_ways_are_solved_and_the_faster_named(capsys):
    """Levi's "players can go either way around the course": on the wide speedway the way
    against the arrow is a turn faster. The JSON answers with it, says so and holds both; the
    text gives both ways and their routes; the reverse route races in as many turns by a car
    set to race in reverse."""
    assert main(["solve", "wide-speedway", "--rules", "levi", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    ways = found["directions"]
    assert (ways["forward"]["moves"], ways["reverse"]["moves"]) == (31, 30)
    assert found["faster"] == found["direction"] == "reverse"
    assert {key: found[key] for key in ways["reverse"]} == ways["reverse"]
    assert main(["solve", "wide-speedway", "--rules", "levi"]) == 0
    out = capsys.readouterr().out
    assert "forward (with the arrow): 31 moves" in out and "reverse (against it): 30 moves" in out
    assert "faster: reverse, by 1 move" in out and out.count("route:") == 2
    track = load_track(find_track("wide-speedway"))
    rules = load_rules("levi")
    race = Race(track, rules.replace(start_grid="spread"), [CarSetup("Solo", reverse=True)])
    state = race.start()
    state.set_car(0, replace(state.cars[0], position=Vec(*found["start"])))
    for step in found["steps"]:
        if step["target"] is not None:
            state.apply(Move(Vec(*step["target"])))
    assert state.cars[0].finish is not None and state.last_round == 30


def test_a_tie_either_way_round_and_one_way_rules(capsys):
    assert main(["solve", "oval", "--rules", "levi", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["faster"] is None and found["direction"] == "forward" and found["moves"] == 28
    assert main(["solve", "oval", "--rules", "levi"]) == 0
    assert "both ways take 28 moves" in capsys.readouterr().out
    assert main(["solve", "oval", "--json"]) == 0  # Gardner's: one way round, as before
    assert "directions" not in json.loads(capsys.readouterr().out)


def test_cli_refuses_a_point_that_is_not_a_standing_start(capsys):
    assert main(["solve", "oval", "--from=-3,4"]) == 1  # off the track
    assert "not a start point" in capsys.readouterr().err
    # On the track but behind the start line of a circuit: one step would "finish" a lap.
    assert main(["solve", "oval", "--from", "19,22"]) == 1
    assert "not a start point" in capsys.readouterr().err


def test_a_skid_off_the_track_is_the_only_move():
    """Baker's oil: if the unchanged move touches oil, it is the only move, even when it
    leaves the track: the search's one successor is that crash."""
    track = make_track("""
        outer: [[0, 0], [30, 0], [30, 6], [0, 6]]
        start: {a: [2, 0], b: [2, 6], forward: [1, 0]}
        finish: {a: [26, 0], b: [26, 6], forward: [1, 0]}
        zones: [{kind: oil, polygon: [[9, 4], [11, 4], [11, 6], [9, 6]]}]
    """)
    transition = transition_for(Course(track), load_rules("baker"))
    skid = Cars(x=[10], y=[4], vx=[0], vy=[3], progress=[1])  # heading into the wall
    moves = transition.candidates(skid)
    assert [bool(k) for k in moves.legal] == [bool(u) for u in moves.unchanged]
    _, found = transition.successors(skid)
    assert found.crashed.tolist() == [True] and (found.cars.x[0], found.cars.y[0]) == (10, 6)
    steer = Cars(x=[10], y=[4], vx=[3], vy=[0], progress=[1])  # along the straight
    _, found = transition.successors(steer)
    assert found.crashed.tolist() == [False] and (found.cars.x[0], found.cars.y[0]) == (13, 4)


def test_solving_a_standing_start_position_is_solving_from_that_start():
    track = load_track(find_track("oval"))
    rules = load_rules("gardner")
    start = Course(track).start_positions[0]
    from_start = solve(Course(track), rules, start=start)
    from_position = solve_position(Course(track), rules, CarState(start, progress=1))
    assert from_position.moves == from_start.moves and from_position.start == start


def test_a_position_with_turns_to_miss_counts_them_first():
    rules = load_rules("baker")
    course = Course(load_track(find_track("oval")))
    moving = parse_car_position("31,23 3,1 1")
    waiting = parse_car_position("31,23 3,1 1 miss=2")
    a, b = solve_position(course, rules, moving), solve_position(course, rules, waiting)
    assert b.moves == a.moves + 2 and b.path[:3] == (Vec(31, 23),) * 3


def test_cli_solves_from_a_position(capsys):
    assert main(["solve", "oval", "--position", "31,23 3,1 1", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["start"] == [31, 23] and result["moves"] == len(result["path"]) - 1
    state = race_plays(load_track(find_track("oval")), load_rules("gardner"),
                       solve_position(Course(load_track(find_track("oval"))),
                                      load_rules("gardner"), parse_car_position("31,23 3,1 1")),
                       car=parse_car_position("31,23 3,1 1"))
    assert state.cars[0].finish is not None and state.last_round == result["moves"]
    # On a detour beyond the outer wall, a few squares before the line (a whole lap from a
    # detour is a Nystrom search of seconds).
    assert main(["solve", "oval", "--rules", "nystrom", "--position",
                 "14,26 1,0 1 off@8"]) == 0
    assert "9 moves from (14, 26)" in capsys.readouterr().out


@pytest.mark.parametrize("position, message", [
    ("31,23 3 1", "velocity must be two whole numbers"),
    ("-30,23 3,1 1", "cannot start from"),
    ("31,23 3,1 1 nitro", "unknown part 'nitro'"),
])
def test_cli_refuses_a_bad_position_in_one_line(capsys, position, message):
    assert main(["solve", "oval", "--position", position]) == 1
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1
