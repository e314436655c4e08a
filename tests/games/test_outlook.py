"""What each candidate does, told before the click, checked against what the move then does."""

from __future__ import annotations

import pytest

from racetrack.board.geometry import Vec
from racetrack.board.track import find_track, load_track
from racetrack.engine.model import CarSetup, CarStatus, EventKind
from racetrack.games.outlook import Look, outlook, outlooks, tables_apply
from racetrack.games.race import Race, RaceState
from racetrack.rules import load_rules
from racetrack.rules.overrides import apply_overrides
from racetrack.search.drivers.tables import value_table


def race_on_oval(rules, cars: int = 2) -> RaceState:
    """The oval (cars run east along the bottom straight, y 20 to 24, towards the right-hand
    bend at x 36) with the other cars parked out of the way."""
    rules = load_rules(rules) if isinstance(rules, str) else rules
    names = ["Ann", "Bob", "Cy"]
    race = Race(load_track(find_track("oval")), rules,
                [CarSetup(names[i], colour) for i, colour in enumerate(["red", "blue",
                                                                         "green"][:cars])])
    state = race.start()
    for index in range(1, cars):
        state.place(index, Vec(8 + index, 20))
    return state


def by_target(found) -> dict[tuple[int, int], object]:
    return {tuple(item.target): item for item in found}


def test_a_wall_at_speed_six_says_the_damage_and_that_the_car_is_out():
    state = race_on_oval("baker")
    state.place(0, Vec(30, 22), Vec(6, 0), damage=1)
    found = by_target(outlooks(state))
    into_wall = found[(36, 22)]
    assert into_wall.look is Look.WALL and into_wall.out
    assert (into_wall.damage, into_wall.damage_after, into_wall.damage_limit) == (6, 7, 5)
    assert into_wall.words() == "hits the wall: +6 damage, 7/5: out"
    # The two points that stay on the track are safe now but leave no safe point next turn.
    assert found[(35, 22)].look is Look.SAFE and found[(35, 22)].no_way_on
    assert "too fast for the bend" in found[(35, 22)].words()


def test_a_wall_the_car_survives_restarts_it_and_misses_the_rules_turns():
    rules = apply_overrides(load_rules("baker"), {"crash.miss-turns": 2})
    state = race_on_oval(rules)
    state.place(0, Vec(32, 22), Vec(4, 0))
    crash = by_target(outlooks(state))[(36, 22)]
    assert crash.look is Look.WALL and not crash.out
    assert crash.damage == 4 and crash.missed_turns == 2 and crash.restart is not None
    assert crash.words() == "hits the wall: +4 damage, 4/5 · restarts from rest · misses 2 turns"
    # What the outlook promised is what the move does.
    events = state.apply(crash.candidate.move)
    assert state.cars[0].damage == 4 and state.cars[0].position == crash.restart
    assert any(e.kind is EventKind.CRASHED for e in events)


def test_a_lone_car_that_crashes_still_counts_its_missed_turn():
    rules = apply_overrides(load_rules("baker"), {"crash.miss-turns": 1})
    state = race_on_oval(rules, cars=1)
    state.place(0, Vec(32, 22), Vec(4, 0))
    assert by_target(outlooks(state))[(36, 22)].missed_turns == 1


def test_a_collision_names_the_other_car_and_the_damage_each_takes():
    state = race_on_oval("baker", cars=3)
    state.place(0, Vec(30, 22), Vec(6, 0), damage=1)
    state.place(1, Vec(35, 22))
    state.place(2, Vec(36, 21))  # every clean point is taken: a collision is allowed
    bump = by_target(outlooks(state))[(35, 22)]
    assert bump.look is Look.COLLIDE and bump.other == "Bob"
    assert bump.words() == "collides with Bob: +5 damage each, 6/5: out"


def test_a_finish_says_how_far_past_the_line():
    state = race_on_oval("baker")
    state.place(0, Vec(18, 21), Vec(3, 0))
    found = by_target(outlooks(state))
    assert found[(22, 21)].look is Look.FINISH
    assert found[(22, 21)].past == pytest.approx(2.0)
    assert found[(22, 21)].words() == "finishes: 2.0 past the line · wins"
    assert found[(20, 21)].words().startswith("finishes: 0.0 past the line")


def test_leaving_the_track_says_how_to_come_back():
    state = race_on_oval("nystrom")
    state.place(0, Vec(30, 22), Vec(6, 0))
    found = by_target(outlooks(state))
    assert found[(37, 22)].look is Look.LEAVE
    assert "behind the point where it left" in found[(37, 22)].words()
    assert found[(36, 22)].look is Look.ILLEGAL
    assert found[(36, 22)].words() == "not allowed: the move must change (brake and/or turn)"


def test_special_moves_are_named_and_stay_special_only_when_safe():
    state = race_on_oval("baker-advanced")
    state.place(0, Vec(30, 22), Vec(5, 0))
    found = by_target(outlooks(state))
    assert found[(33, 22)].look is Look.SPECIAL and "good brakes" in found[(33, 22)].words()
    assert found[(37, 22)].look is Look.WALL and "turbo" in found[(37, 22)].words()
    assert not tables_apply(state)


def test_the_table_sees_a_bend_taken_too_fast_before_the_next_turn_does():
    state = race_on_oval("gardner")
    state.place(0, Vec(26, 22), Vec(5, 0))
    race = state.race
    table = value_table(race.course, race.rules)
    found = by_target(outlooks(state, table))
    late = found[(31, 21)]
    assert late.doomed and not late.no_way_on
    assert late.words().endswith("too fast for the bend: every way on hits the wall")
    assert not found[(30, 21)].doomed
    # Without the table only the one-turn look ahead warns.
    assert not by_target(outlooks(state))[(31, 21)].doomed


def test_illegal_points_carry_the_reason_and_start_points_say_so():
    state = race_on_oval("gardner")
    state.place(0, Vec(38, 22), Vec(0, 0))
    refused = next(item for item in outlooks(state) if item.look is Look.ILLEGAL)
    assert refused.words() == "not allowed: off the track"
    race = Race(load_track(find_track("oval")), load_rules("westinghouse"),
                [CarSetup("Ann"), CarSetup("Bob", "blue")])
    placing = race.start()
    assert {item.look for item in outlooks(placing)} <= {Look.START, Look.ILLEGAL}


@pytest.mark.parametrize("rules", ["gardner", "baker", "nystrom", "levi", "simulation",
                                   "classroom", "baker-advanced"])
def test_outlooks_leave_the_state_alone_and_agree_with_apply(rules):
    state = race_on_oval(rules)
    state.place(0, Vec(30, 22), Vec(4, 0), damage=1)
    before = (list(state.cars), list(state.history), [list(t) for t in state.trails])
    found = outlooks(state)
    assert (list(state.cars), list(state.history), [list(t) for t in state.trails]) == before
    assert len(found) == len(state.candidates())
    for item in found:
        if item.look in (Look.ILLEGAL, Look.START):
            continue
        trial = state.clone()
        trial.apply(item.candidate.move)
        car = trial.cars[0]
        assert item.out == (car.status is CarStatus.OUT)
        assert (item.look is Look.FINISH) == (car.status is CarStatus.FINISHED)
        assert item.damage_after == car.damage


def test_outlook_needs_a_car_to_move():
    state = race_on_oval("baker")
    candidate = state.candidates()[0]
    state.over = True
    with pytest.raises(ValueError):
        outlook(state, candidate)
