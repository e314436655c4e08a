"""Checkpoints and finishes drawn as areas (``racetrack.board.areas``), and Karopapier's set-back.

What a move passes over follows ``docs/track-format.md``: the inside of an area, or its end on
it; touching an edge in passing does not count. Progress: checkpoint areas in any order, then
the finish area passed either way; a finish line stays shut until every area is passed."""

from __future__ import annotations

import numpy as np

from racetrack.board.areas import AreaMarks
from racetrack.board.course import Course
from racetrack.board.geometry import Vec
from racetrack.board.track import parse_track
from racetrack.board.track.maps import bundled_map_paths, import_map
from racetrack.engine.model import CarSetup, EventKind, Move
from racetrack.games.playout import race_drivers
from racetrack.games.race import Race
from racetrack.games.replay import load_replay, save_replay
from racetrack.rules import load_rules

#: The drivers of the race on a map.
LEVEL = "expert"
#: A 12 x 5 box; checkpoint area A around (3, 2), B around (8, 2), the finish cells at x = 11.
BOX = """\
racetrack-track: 2
name: Box
outer: [[-0.5, -0.5], [11.5, -0.5], [11.5, 4.5], [-0.5, 4.5]]
start-points: [[0, 2]]
checkpoint-areas:
  - [[[2.5, 1.5], [3.5, 1.5], [3.5, 2.5], [2.5, 2.5]]]
  - [[[7.5, 1.5], [8.5, 1.5], [8.5, 2.5], [7.5, 2.5]]]
finish-area: [[[10.5, -0.5], [11.5, -0.5], [11.5, 4.5], [10.5, 4.5]]]
"""


def passed(marks: AreaMarks, p, q):
    bits, finish = marks.passed(np.array([p[0]]), np.array([p[1]]), np.array([q[0]]),
                                np.array([q[1]]))
    return int(bits[0]), bool(finish[0])


def test_a_move_passes_over_the_cells_its_line_goes_through():
    marks = AreaMarks(parse_track(BOX))
    assert passed(marks, (0, 2), (5, 2)) == (1, False)      # through A
    assert passed(marks, (0, 2), (11, 2)) == (3, True)      # through A, B and the finish
    assert passed(marks, (9, 2), (7, 2)) == (2, False)      # B passed backwards counts
    assert passed(marks, (3, 2), (3, 2)) == (1, False)      # standing on A
    assert passed(marks, (2, 0), (4, 2)) == (0, False)      # through A's corner only
    assert passed(marks, (2, 3), (4, 3)) == (0, False)      # along A's edge... a half away
    assert passed(marks, (10, 0), (10, 4)) == (0, False)    # beside the finish cells


def test_edges_touched_in_passing_do_not_count_but_ending_on_one_does():
    track = parse_track(BOX.replace("[[[2.5, 1.5], [3.5, 1.5], [3.5, 2.5], [2.5, 2.5]]]",
                                    "[[[2, 1], [4, 1], [4, 2], [2, 2]]]"))
    marks = AreaMarks(track)
    assert passed(marks, (1, 2), (5, 2)) == (0, False)  # along the area's lower edge
    assert passed(marks, (3, 3), (3, 2)) == (1, False)  # ends on its edge
    assert passed(marks, (3, 2), (3, 3)) == (0, False)  # leaves it from its edge


def test_the_finish_counts_once_every_checkpoint_area_is_passed_in_any_order():
    rules = load_rules("karopapier")
    course = Course.for_rules(parse_track(BOX), rules)
    marks = course.area_marks
    before = np.array([1, 1, 1, 1])
    bits = np.array([3, 1, 2, 0])
    finish = np.array([True, True, False, True])
    areas = np.array([0, 2, 0, 3])
    progress, after = marks.advance(course, before, before, areas, bits, finish)
    assert progress.tolist() == [2, 2, 1, 2] and course.goal == 2
    assert after.tolist()[2] == 2


def test_checkpoint_areas_ignored_leave_only_the_finish():
    rules = load_rules("karopapier").replace(areas_checkpoints="ignored")
    course = Course.for_rules(parse_track(BOX), rules)
    from racetrack.search.solver import solve

    with_areas = solve(course, load_rules("karopapier"))
    without = solve(course, rules)
    assert without.moves <= with_areas.moves


def test_a_finish_line_waits_for_the_checkpoint_areas():
    track = parse_track(BOX.replace(
        "finish-area: [[[10.5, -0.5], [11.5, -0.5], [11.5, 4.5], [10.5, 4.5]]]",
        "finish: {a: [10, -0.5], b: [10, 4.5], forward: [1, 0]}"))
    rules = load_rules("karopapier")
    course = Course.for_rules(track, rules)
    marks = course.area_marks
    lines = course.progress_after(np.array([1, 1]), np.array([9, 9]), np.array([2, 2]),
                                  np.array([11, 11]), np.array([2, 2]))
    assert lines.tolist() == [2, 2]
    progress, _ = marks.advance(course, np.array([1, 1]), lines, np.array([3, 1]),
                                np.array([0, 0]), np.array([False, False]))
    assert progress.tolist() == [2, 1]  # the second car has not passed area B


def test_a_race_on_a_map_passes_every_checkpoint_area_and_replays(tmp_path):
    hairpin = next(p for p in bundled_map_paths() if p.name == "karo-hairpin.txt")
    track = import_map(hairpin).track()
    race = Race(track, load_rules("karopapier"), [CarSetup("Ann"), CarSetup("Bob")], seed=3)
    drivers = race_drivers(race, [LEVEL, LEVEL])
    state = race.start()
    told = state.take_events()
    while not state.is_over:
        told += state.apply(drivers[state.current_player].choose(state))
    assert state.is_over and state.outcome.winner is not None
    for index, car in enumerate(state.cars):
        if car.finish:
            assert car.areas == 0b111
            passed = {e.amount for e in told if e.kind is EventKind.CHECKPOINT
                      and e.car == index}
            assert passed == {1, 2, 3}
    path = tmp_path / "race.yaml"
    save_replay(state, path)
    assert load_replay(path).verify().outcome.ranking == state.outcome.ranking


def test_a_car_with_no_move_is_set_back_along_its_own_way():
    """Karopapier's ZZZ: set back two of its own moves, at rest, keeping the checkpoint areas
    it has passed."""
    rules = load_rules("karopapier").replace(start_grid="spread")
    state = Race(parse_track(BOX), rules, [CarSetup("Solo")]).start()
    for target in (Vec(1, 2), Vec(3, 2), Vec(6, 2)):
        state.apply(Move(target))
    # At speed 4 east, with nothing but the wall ahead:
    kinds = [e.kind for e in state.apply(Move(Vec(10, 2)))]
    assert EventKind.STUCK in kinds and EventKind.CRASHED in kinds
    car = state.cars[0]
    assert car.position == Vec(3, 2) and car.velocity == Vec(0, 0)
    assert car.areas == 0b11 and car.racing


def test_a_set_back_of_no_moves_leaves_the_car_where_it_stands():
    rules = load_rules("karopapier").replace(start_grid="spread", crash_set_back=0)
    state = Race(parse_track(BOX), rules, [CarSetup("Solo")]).start()
    for target in (Vec(1, 2), Vec(3, 2), Vec(6, 2), Vec(10, 2)):
        state.apply(Move(target))
    assert state.cars[0].position == Vec(10, 2) and state.cars[0].velocity == Vec(0, 0)
