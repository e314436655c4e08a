"""Each variant against its source text's own examples and rules."""

from __future__ import annotations

import textwrap
from dataclasses import replace

import pytest

from racetrack.base.errors import IllegalMoveError
from racetrack.board.geometry import Vec
from racetrack.engine.model import CarSetup, CarStatus, EventKind, Move, MoveKind
from racetrack.games.race import Race
from racetrack.rules import load_rules
from tests.conftest import make_track

# A straight 20 x 6 corridor: lattice rows y = 1..5 are inside, walls at y = 0 and y = 6.
CORRIDOR = textwrap.dedent("""
    outer: [[0, 0], [30, 0], [30, 6], [0, 6]]
    start: {a: [2, 0], b: [2, 6], forward: [1, 0]}
    finish: {a: [26, 0], b: [26, 6], forward: [1, 0]}
""")


def race(variant, cars=("Ann",), body=CORRIDOR, seed=0, **rule_changes):
    rules = load_rules(variant)
    if rule_changes:
        rules = rules.replace(**rule_changes)
    return Race(make_track(body), rules, [CarSetup(name) for name in cars], seed=seed)


def reachable(state):
    return {tuple(c.target) for c in state.candidates()}


def legal(state):
    return {tuple(c.target) for c in state.candidates() if c.legal}


def moves_of(candidates):
    return {tuple(c.velocity) for c in candidates}


class TestGardner:
    def test_the_first_move_is_one_unit_in_either_or_both_directions(self):
        # "The first move, following this rule, is one unit horizontally or vertically, or
        # both" and "a player simply moves his car ahead along the track": the start line's
        # arrow points east, so the car goes east, north-east or south-east; never staying
        # put, sideways or backwards.
        state = race("gardner").start()
        assert moves_of(state.candidates()) == {(dx, dy) for dx in (-1, 0, 1)
                                                for dy in (-1, 0, 1)}
        assert moves_of(c for c in state.candidates() if c.legal) == {(1, -1), (1, 0), (1, 1)}
        stay = next(c for c in state.candidates() if c.velocity == Vec(0, 0))
        assert "must go somewhere" in stay.reason
        # Later, a car at rest mid-race is not making a first move: it may stay or go back.
        state.place(0, Vec(10, 3), Vec(0, 0), progress=2)
        assert len([c for c in state.candidates() if c.legal]) == 9

    @pytest.mark.parametrize(("variant", "first"), [
        ("classroom", 9),   # "may move into any of the 8 neighboring intersections or may stay"
        ("baker", 5),       # "from stationary you are allowed to move off at a speed of one"
        ("simulation", 3),  # "the green circles in front of it"
    ])
    def test_each_source_s_first_move(self, variant, first):
        state = race(variant).start()
        state.place(0, Vec(2, 3))  # mid-line, away from the walls
        assert len([c for c in state.candidates() if c.legal]) == first

    def test_each_component_changes_by_at_most_one(self):
        state = race("gardner").start()
        state.place(0, Vec(10, 3), Vec(3, 1))
        assert moves_of(state.candidates()) == {(3 + dx, 1 + dy) for dx in (-1, 0, 1)
                                                for dy in (-1, 0, 1)}

    def test_no_two_cars_on_one_point(self):
        state = race("gardner", cars=("Ann", "Bob"), turn_order="seating").start()
        state.place(0, Vec(10, 3), Vec(1, 0))
        state.place(1, Vec(12, 3), Vec(0, 0))
        blocked = next(c for c in state.candidates() if c.target == Vec(12, 3))
        assert not blocked.legal and blocked.reason == "occupied by Bob"

    def test_the_move_must_stay_on_the_track(self):
        state = race("gardner").start()
        state.place(0, Vec(10, 4), Vec(2, 2))
        off = next(c for c in state.candidates() if c.target == Vec(13, 7))
        assert not off.legal and off.reason == "off the track"
        along = next(c for c in state.candidates() if c.target == Vec(12, 6))
        assert along.legal  # ending on the wall: touching is allowed

    def test_a_car_that_must_leave_the_track_is_out(self):
        state = race("gardner").start()
        state.place(0, Vec(10, 4), Vec(0, 4))  # heading into the wall far too fast
        events = state.take_events()
        assert events == []
        # Every candidate leaves the track: the car is out at once.
        state = race("gardner", cars=("Ann", "Bob"), turn_order="seating").start()
        state.place(1, Vec(10, 4), Vec(0, 4))
        events = state.apply(Move(Vec(3, 1)))
        assert [e.kind for e in events][-3:] == [EventKind.STUCK, EventKind.CRASHED,
                                                 EventKind.OUT]
        assert state.cars[1].status is CarStatus.OUT

    def test_turn_order_is_drawn_by_lot_from_the_seed(self):
        orders = {race("gardner", cars=("A", "B", "C", "D"), seed=s).order for s in range(12)}
        assert len(orders) > 1
        assert race("gardner", cars=("A", "B", "C"), seed=5).order == \
            race("gardner", cars=("A", "B", "C"), seed=5).order

    def test_in_the_same_round_the_car_farthest_over_the_line_wins(self):
        state = race("gardner", cars=("Ann", "Bob"), turn_order="seating").start()
        state.place(0, Vec(24, 2), Vec(2, 0))
        state.place(1, Vec(24, 4), Vec(4, 0))
        state.apply(Move(Vec(27, 2)))  # Ann crosses first, ending 1 past the line
        assert not state.is_over  # the round is played out
        state.apply(Move(Vec(29, 4)))  # Bob ends 3 past it
        assert state.is_over
        assert state.outcome.winner == 1 and state.outcome.ranking == (1, 0)


class TestBaker:
    def test_three_east_and_one_north(self):
        """Baker's pictures: after 3 east and 1 north, five points; then turning south."""
        state = race("baker").start()
        state.place(0, Vec(5, 4), Vec(3, -1))  # north is up the page: y decreases
        assert moves_of(state.candidates()) == {(3, -1), (4, -1), (2, -1), (3, 0), (3, -2)}
        state.apply(Move(Vec(8, 4)))  # "suppose we chose to turn toward the South"
        assert state.cars[0].velocity == Vec(3, 0)
        assert moves_of(state.candidates()) == {(3, 0), (4, 0), (2, 0), (3, 1), (3, -1)}

    def test_stopping_and_moving_off(self):
        state = race("baker").start()
        state.place(0, Vec(5, 3), Vec(1, 0))
        assert (0, 0) in moves_of(state.candidates())
        state.apply(Move(Vec(5, 3)))
        assert moves_of(state.candidates()) == {(0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)}

    def test_hitting_the_wall_costs_the_speed_and_restarts_from_rest(self):
        state = race("baker").start()
        state.place(0, Vec(10, 3), Vec(0, 3))
        crash = next(c for c in state.candidates() if c.target == Vec(10, 6 + 1))
        assert crash.legal and crash.kind is MoveKind.CRASH
        events = state.apply(crash.move)
        car = state.cars[0]
        assert car.damage == 4 and car.velocity == Vec(0, 0) and car.racing
        assert car.position == Vec(10, 6)  # the track's edge nearest where it crashed
        assert {EventKind.CRASHED, EventKind.DAMAGED} <= {e.kind for e in events}

    def test_more_than_five_damage_and_the_car_is_out(self):
        state = race("baker").start()
        state.place(0, Vec(10, 3), Vec(0, 3), damage=2)
        state.apply(Move(Vec(10, 7)))
        assert state.cars[0].status is CarStatus.OUT and state.cars[0].damage == 6

    def test_exactly_five_damage_is_survived(self):
        state = race("baker").start()
        state.place(0, Vec(10, 3), Vec(0, 3), damage=1)
        state.apply(Move(Vec(10, 7)))
        assert state.cars[0].racing and state.cars[0].damage == 5

    def test_a_collision_is_allowed_only_when_unavoidable(self):
        state = race("baker", cars=("Ann", "Bob")).start()
        state.place(0, Vec(10, 3), Vec(2, 0))
        state.place(1, Vec(12, 3), Vec(0, 0))
        onto = next(c for c in state.candidates() if c.target == Vec(12, 3))
        assert not onto.legal and "only when it cannot be avoided" in onto.reason

    def test_an_unavoidable_collision_damages_both_by_the_squares_apart(self):
        # A wide start, then a one-lane dead end: Ann at speed 3 behind Bob in the lane, where
        # every point but Bob's is off the track, so she hits the wall or hits Bob.
        body = """
            outer: [[0, 0], [5, 0], [5, 2.5], [12.5, 2.5], [12.5, 3.5], [5, 3.5], [5, 6], [0, 6]]
            start: {a: [2, 0], b: [2, 6], forward: [1, 0]}
            finish: {a: [4, 0], b: [4, 6], forward: [1, 0]}
        """
        state = race("baker", cars=("Ann", "Bob"), body=body).start()
        state.place(0, Vec(10, 3), Vec(3, 0))
        state.place(1, Vec(12, 3), Vec(0, 0))
        collision = [c for c in state.candidates() if c.kind is MoveKind.COLLISION]
        assert [c.target for c in collision] == [Vec(12, 3)] and collision[0].legal
        assert all(c.kind is MoveKind.CRASH for c in state.candidates() if c not in collision)
        events = state.apply(collision[0].move)
        assert EventKind.COLLIDED in {e.kind for e in events}
        ann, bob = state.cars
        assert (ann.damage, bob.damage) == (2, 2)  # they were two squares apart
        assert ann.velocity == Vec(0, 0) == bob.velocity

    # A one-lane road (y = 3 only) after a wide start: every move but along the lane crashes.
    LANE = """
        outer: [[0, 0], [4, 0], [4, 2.5], [24, 2.5], [24, 3.5], [4, 3.5], [4, 6], [0, 6]]
        start: {a: [2, 0], b: [2, 6], forward: [1, 0]}
        finish: {a: [3, 0], b: [3, 6], forward: [1, 0]}
    """

    def boxed_in(self, ann, bob):
        """Ann on the lane with every point she can reach along it taken: Bob on the middle
        one (placed as ``bob``: point and velocity), two parked cars on the others."""
        state = race("baker", cars=("Ann", "Bob", "Cy", "Dee"), body=self.LANE).start()
        state.place(0, *ann)
        state.place(1, *bob)
        middle = ann[0] + ann[1]
        state.place(2, middle - Vec(1, 0))
        state.place(3, middle + Vec(1, 0))
        return state

    def test_a_head_on_collision_counts_the_squares_apart_last_turn(self):
        # "count how many squares apart the two cars were last turn ... head on collisions
        # nearly always fatal": Ann at 3 east meets Bob who came 3 west: they were 6 apart.
        state = self.boxed_in((Vec(6, 3), Vec(3, 0)), (Vec(9, 3), Vec(-3, 0)))
        bump = next(c for c in state.candidates() if c.target == Vec(9, 3))
        assert bump.kind is MoveKind.COLLISION and bump.legal
        events = state.apply(bump.move)
        assert [e.amount for e in events if e.kind is EventKind.COLLIDED] == [6]
        assert state.cars[0].status is CarStatus.OUT and state.cars[1].status is CarStatus.OUT

    def test_rear_ending_a_slower_car_is_usually_survived(self):
        # "but you can usually survive rear-ending another car": Ann at 4 onto Bob doing 1,
        # who stood at 8 last turn: 3 squares apart, 3 damage each.
        state = self.boxed_in((Vec(5, 3), Vec(4, 0)), (Vec(9, 3), Vec(1, 0)))
        state.apply(Move(Vec(9, 3)))
        ann, bob = state.cars[:2]
        assert (ann.damage, bob.damage) == (3, 3) and ann.racing and bob.racing

    def test_the_seating_order_moves_first_and_the_first_across_wins(self):
        state = race("baker", cars=("Ann", "Bob")).start()
        assert state.race.order == (0, 1) and state.current_car == 0
        state.place(0, Vec(24, 2), Vec(2, 0))
        state.place(1, Vec(24, 4), Vec(4, 0))
        state.apply(Move(Vec(27, 2)))
        assert state.is_over and state.outcome.winner == 0

    def test_oil_skid_forces_the_unchanged_move(self):
        body = CORRIDOR + "zones: [{kind: oil, polygon: [[13, 2], [15, 2], [15, 4], [13, 4]]}]\n"
        state = race("baker", body=body).start()
        state.place(0, Vec(10, 3), Vec(3, 0))  # unchanged move 10 -> 13 touches the oil
        assert legal(state) == {(13, 3)}
        skid = next(c for c in state.candidates() if c.target == Vec(14, 3))
        assert "skidding on oil" in skid.reason
        state.place(0, Vec(10, 5), Vec(3, 0))  # unchanged 10 -> 13 along y = 5 misses it
        assert len(legal(state)) == 5


class TestNystrom:
    def test_eight_choices_the_vector_must_change(self):
        state = race("nystrom").start()
        state.place(0, Vec(10, 3), Vec(2, 0))
        assert len(legal(state)) == 8 and (12, 3) not in legal(state)
        unchanged = next(c for c in state.candidates() if c.unchanged)
        assert "must change" in unchanged.reason

    def test_on_oil_the_vector_must_be_duplicated(self):
        body = CORRIDOR + "zones: [{kind: oil, polygon: [[13, 0], [15, 0], [15, 6], [13, 6]]}]\n"
        state = race("nystrom", body=body).start()
        state.place(0, Vec(10, 3), Vec(3, 0))
        # The unchanged move into the oil is allowed (and the only one that enters it); braking
        # short of the patch is a change of vector, which is fine.
        assert legal(state) == {(13, 3), (12, 2), (12, 3), (12, 4)}
        into = next(c for c in state.candidates() if c.target == Vec(14, 3))
        assert "through oil the move must repeat" in into.reason

    def test_a_jump_flies_over_an_obstacle(self):
        body = """
            outer: [[0, 0], [30, 0], [30, 6], [0, 6]]
            holes: [[[13.5, 0.5], [14.5, 0.5], [14.5, 5.5], [13.5, 5.5]]]
            start: {a: [2, 0], b: [2, 0.5], forward: [1, 0]}
            finish: {a: [26, 0], b: [26, 6], forward: [1, 0]}
            zones: [{kind: jump, polygon: [[12, 0], [16, 0], [16, 6], [12, 6]]}]
        """
        state = race("nystrom", body=body.replace("[2, 0.5]", "[2, 6]")).start()
        state.place(0, Vec(11, 3), Vec(4, 0))
        assert legal(state) == {(15, 3)}  # over the wall in the jump zone, unchanged
        without_jumps = race("baker", body=body.replace("[2, 0.5]", "[2, 6]")).start()
        without_jumps.place(0, Vec(11, 3), Vec(4, 0))
        flight = next(c for c in without_jumps.candidates() if c.target == Vec(15, 3))
        assert flight.kind is MoveKind.CRASH

    def test_leave_the_track_and_come_back_behind_where_you_left(self):
        ring = """
            outer: [[0, 0], [16, 0], [16, 16], [0, 16]]
            holes: [[[5, 5], [11, 5], [11, 11], [5, 11]]]
            start: {a: [8, 0], b: [8, 5], forward: [1, 0]}
        """
        state = race("nystrom", body=ring).start()
        state.place(0, Vec(15, 7), Vec(2, 1))  # going down the right-hand side
        leave = next(c for c in state.candidates() if c.target == Vec(18, 8))
        assert leave.legal and leave.kind is MoveKind.LEAVE
        state.apply(leave.move)
        car = state.cars[0]
        assert car.off_track and car.position == Vec(18, 8)
        # Heading back up and left: (15, 7) is where it left; (14, 7) is no farther from the
        # finish along the track, (15, 6) is behind it.
        state.set_car(0, replace(car, velocity=Vec(-3, -1)))
        verdicts = {tuple(c.target): c for c in state.candidates()}
        for not_behind in ((14, 7), (14, 8)):
            assert verdicts[not_behind].kind is MoveKind.RETURN
            assert not verdicts[not_behind].legal
            assert "behind the point where it left" in verdicts[not_behind].reason
        assert verdicts[(15, 6)].legal and verdicts[(15, 6)].kind is MoveKind.RETURN
        state.apply(Move(Vec(15, 6)))
        assert not state.cars[0].off_track


class TestClassroom:
    def test_each_player_marks_their_own_start_point(self):
        # "Each player selects a shape or color and marks a point on the start/finish line
        # (no two players can start in same spot)."
        state = race("classroom", cars=("Ann", "Bob")).start()
        assert state.placing and state.current_car == 1  # the last to move chooses first
        assert legal(state) == {(2, y) for y in range(1, 6)}
        state.apply(Move(Vec(2, 4)))
        taken = next(c for c in state.candidates() if c.target == Vec(2, 4))
        assert not taken.legal and "taken by Bob" in taken.reason
        state.apply(Move(Vec(2, 2)))
        assert not state.placing and state.cars[0].position == Vec(2, 2)

    def test_nine_choices_including_staying_put(self):
        state = race("classroom").start()
        state.apply(Move(Vec(2, 1)))  # marks its start point
        assert len(legal(state)) == 9 and (2, 1) in legal(state)

    def test_leaving_the_track_means_starting_over_nearby(self):
        state = race("classroom", cars=("Ann", "Bob")).start()
        state.place(0, Vec(2, 1))
        state.place(1, Vec(10, 4), Vec(0, 4))
        events = state.apply(Move(Vec(3, 1)))
        bob = state.cars[1]
        assert bob.racing and bob.velocity == Vec(0, 0) and bob.damage == 0
        assert bob.position == Vec(10, 6)
        assert EventKind.CRASHED in {e.kind for e in events}

    def test_the_24_neighbour_variation(self):
        state = race("classroom-24").start()
        state.place(0, Vec(10, 3), Vec(1, 0))
        assert moves_of(state.candidates()) == {(1 + dx, dy) for dx in range(-2, 3)
                                                for dy in range(-2, 3)}


class TestSimulation:
    def test_the_nine_options_listed_on_the_sheet(self):
        """Red moved (+1, +1): it may go to the nine moves the sheet lists."""
        state = race("simulation").start()
        state.place(0, Vec(10, 3), Vec(1, 1))
        listed = {(1, 1), (0, 1), (2, 1), (1, 0), (1, 2), (2, 0), (2, 2), (0, 2), (0, 0)}
        assert moves_of(state.candidates()) == listed

    def test_the_boundary_is_off_the_track(self):
        state = race("simulation").start()
        state.place(0, Vec(10, 4), Vec(0, 1))
        on_wall = next(c for c in state.candidates() if c.target == Vec(10, 6))
        assert not on_wall.legal

    def test_a_crash_misses_a_turn_and_restarts_from_rest(self):
        state = race("simulation", cars=("Ann", "Bob")).start()
        state.place(1, Vec(10, 4), Vec(0, 3))  # every choice is on or outside the wall
        events = state.apply(Move(Vec(3, 1)))
        bob = state.cars[1]
        assert bob.position == Vec(10, 5) and bob.velocity == Vec(0, 0)
        assert [e.kind for e in events][-2:] == [EventKind.STUCK, EventKind.CRASHED]
        events = state.apply(Move(Vec(4, 1)))
        assert EventKind.MISSED_TURN in {e.kind for e in events}
        assert state.current_car == 0

    def test_equal_turns_then_farthest_through_the_line(self):
        state = race("simulation", cars=("Ann", "Bob")).start()
        state.place(0, Vec(24, 2), Vec(2, 0))
        state.place(1, Vec(24, 4), Vec(3, 0))
        state.apply(Move(Vec(26, 2)))  # Ann ends on the line: finished, 0 past
        assert not state.is_over
        state.apply(Move(Vec(27, 4)))
        assert state.outcome.ranking == (1, 0)

    def test_a_solo_race_counts_turns(self):
        state = race("simulation").start()
        turns = 0
        while not state.is_over:
            target = min((c for c in state.candidates() if c.legal),
                         key=lambda c: (-c.target.x, abs(c.target.y - 3)))
            state.apply(target.move)
            turns += 1
        assert state.outcome.rounds == turns == state.cars[0].moves


class TestLevi:
    def test_off_the_track_the_car_crawls_one_square_at_a_time(self):
        state = race("levi").start()
        state.place(0, Vec(10, 4), Vec(0, 3))
        leave = next(c for c in state.candidates() if c.target == Vec(10, 7))
        assert leave.legal and leave.kind is MoveKind.LEAVE
        state.apply(leave.move)
        assert state.cars[0].off_track
        assert moves_of(state.candidates()) == {(dx, dy) for dx in (-1, 0, 1)
                                                for dy in (-1, 0, 1) if dx or dy}
        back = next(c for c in state.candidates() if c.target == Vec(10, 6))
        assert back.kind is MoveKind.RETURN and back.legal
        state.apply(back.move)
        assert not state.cars[0].off_track and state.cars[0].velocity == Vec(0, -1)

    def test_a_move_may_not_cut_across_off_track_ground(self):
        body = """
            outer: [[0, 0], [30, 0], [30, 12], [0, 12]]
            holes: [[[8, 5], [22, 5], [22, 7], [8, 7]]]
            start: {a: [2, 0], b: [2, 12], forward: [1, 0]}
            finish: {a: [26, 0], b: [26, 12], forward: [1, 0]}
        """
        state = race("levi", body=body).start()
        state.place(0, Vec(10, 3), Vec(0, 5))
        cut = next(c for c in state.candidates() if c.target == Vec(10, 8))
        assert not cut.legal and "in one go" in cut.reason


def test_water_is_off_the_track_for_cars_that_cannot_swim():
    body = CORRIDOR + "zones: [{kind: water, polygon: [[12, 0], [14, 0], [14, 6], [12, 6]]}]\n"
    state = race("gardner", body=body).start()
    state.place(0, Vec(10, 3), Vec(3, 0))
    wet = next(c for c in state.candidates() if c.target == Vec(13, 3))
    assert not wet.legal and "water" in wet.reason
    swimmer = Race(make_track(body), load_rules("gardner"), [CarSetup("Sub", can_swim=True)])
    state = swimmer.start()
    state.place(0, Vec(10, 3), Vec(3, 0))
    assert next(c for c in state.candidates() if c.target == Vec(13, 3)).legal


def test_an_illegal_move_raises_and_changes_nothing():
    state = race("gardner").start()
    state.place(0, Vec(10, 4), Vec(2, 2))
    before = (list(state.cars), state.turn, state.round, list(state.history))
    with pytest.raises(IllegalMoveError, match="off the track"):
        state.apply(Move(Vec(13, 7)))
    with pytest.raises(IllegalMoveError, match="cannot reach"):
        state.apply(Move(Vec(0, 0)))
    assert (list(state.cars), state.turn, state.round, list(state.history)) == before


class TestBoxedInByCars:
    """A crash is the boundary (the classroom and simulation sheets): a car boxed in by cars
    has not crashed."""

    LANE = TestBaker.LANE

    def boxed(self, variant):
        """Bob drives onto the lane's point 7; then Ann (at 2 east from 6) finds her on-track
        points 7, 8 and 9 all taken."""
        state = race(variant, cars=("Bob", "Ann", "Cy", "Dee"), body=self.LANE,
                     turn_order="seating").start()
        state.place(0, Vec(5, 3), Vec(2, 0))
        state.place(1, Vec(6, 3), Vec(2, 0))
        state.place(2, Vec(8, 3))
        state.place(3, Vec(9, 3))
        return state, state.apply(Move(Vec(7, 3)))

    @pytest.mark.parametrize("variant", ["classroom", "simulation"])
    def test_a_car_boxed_in_by_cars_waits_at_rest(self, variant):
        # "If an opponent is already there, you must choose another grid intersection"; only
        # points "on or outside of the race track boundary" make a crash.
        state, events = self.boxed(variant)
        mine = [e.kind for e in events if e.car == 1]
        assert mine == [EventKind.BLOCKED]
        ann = state.cars[1]
        assert (ann.position, ann.velocity, ann.status, ann.missed_turns) == (
            Vec(6, 3), Vec(0, 0), CarStatus.RACING, 0)
        assert state.current_car == 2

    def test_gardner_s_car_that_can_only_collide_is_out(self):
        # "A car that collides with another car or leaves the track is out of the race."
        state, events = self.boxed("gardner")
        assert EventKind.CRASHED in [e.kind for e in events if e.car == 1]
        assert state.cars[1].status is CarStatus.OUT
