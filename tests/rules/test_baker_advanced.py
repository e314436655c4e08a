"""Baker's advanced rules, James Bond mode and team racing, from the examples on his page."""

from __future__ import annotations

import textwrap
from dataclasses import replace

import pytest

from racetrack.base.errors import IllegalMoveError
from racetrack.board.geometry import Vec
from racetrack.engine.model import (
    Action,
    CarSetup,
    CarStatus,
    EventKind,
    Kit,
    Missile,
    Move,
    MoveKind,
    Special,
    team_standings,
)
from racetrack.engine.moves import special_velocities
from racetrack.engine.shop import buy, check_kit, suggested_kit
from racetrack.games.race import Race
from racetrack.rules import load_rules
from tests.conftest import make_track

# A straight 30 x 6 corridor: lattice rows y = 1..5 are inside, walls at y = 0 and y = 6.
CORRIDOR = """
    outer: [[0, 0], [40, 0], [40, 6], [0, 6]]
    start: {a: [2, 0], b: [2, 6], forward: [1, 0]}
    finish: {a: [36, 0], b: [36, 6], forward: [1, 0]}
"""


def race(variant="baker-advanced", cars=("Ann", "Bob"), body=CORRIDOR, kits=None, extra="",
         **changes):
    rules = load_rules(variant)
    if changes:
        rules = rules.replace(**changes)
    kits = kits or {}
    # Without a shop every car starts with the rules' kit; a kit given by hand is set on the
    # race's state as a script would (``set_car``), not on the car's setup.
    by_hand = rules.equipment_shop != "design"
    setups = [name if isinstance(name, CarSetup)
              else CarSetup(name, kit=None if by_hand else kits.get(name)) for name in cars]
    made = Race(make_track(textwrap.dedent(body) + textwrap.dedent(extra)), rules, setups)
    if by_hand and kits:
        start = made.start

        def start_with_kits():
            state = start()
            for i, setup in enumerate(made.cars):
                if setup.name in kits:
                    state.set_car(i, replace(state.cars[i], kit=kits[setup.name]))
            return state

        made.start = start_with_kits
    return made


def specials(state):
    return {tuple(c.velocity): c.note for c in state.candidates() if c.note}


def velocity_of(state, target):
    return next(c for c in state.candidates() if c.target == Vec(*target))


class TestGoodBrakesAndTurbo:
    def test_good_brakes_slow_down_by_two_squares_instead_of_one(self):
        # "Three Squares EAST": with good brakes the car may slow to one square east.
        state = race().start()
        state.place(0, Vec(10, 3), Vec(3, 0))
        assert specials(state)[(1, 0)] == "good brakes"
        ordinary = {tuple(c.velocity) for c in state.candidates() if not c.note}
        assert ordinary == {(3, 0), (4, 0), (2, 0), (3, 1), (3, -1)}

    def test_turbo_speeds_up_by_two_squares(self):
        state = race().start()
        state.place(0, Vec(10, 3), Vec(3, 0))
        found = specials(state)
        assert found[(5, 0)] == "turbo"
        assert found[(3, 2)] == found[(3, -2)] == "turbo"  # a component at rest: either way

    def test_only_twice_in_each_race(self):
        state = race(cars=("Ann",)).start()
        state.place(0, Vec(4, 3), Vec(1, 0))
        for expected_left in (1, 0):
            car = state.cars[0]
            target = car.position + Vec(car.velocity.x + 2, 0)
            events = state.apply(Move(target))
            used = [e for e in events if e.kind is EventKind.USED]
            assert used and used[0].amount == expected_left
        assert state.cars[0].kit.turbo == 0
        assert "turbo" not in specials(state).values()
        assert "good brakes" in specials(state).values()  # the brakes are still unused

    def test_a_move_an_ordinary_change_reaches_spends_nothing(self):
        state = race(cars=("Ann",)).start()
        state.place(0, Vec(10, 3), Vec(3, 0))
        state.apply(Move(Vec(12, 3)))  # slowing by one: ordinary
        assert state.cars[0].kit == Kit(brakes=2, turbo=2)

    def test_square_movement_brakes_each_component_by_up_to_two(self):
        found = set(special_velocities(Vec(3, 2), "square", "slower", 2))
        assert Vec(1, 0) in found and Vec(1, 3) in found and Vec(-1, 2) not in found

    def test_plain_baker_has_no_special_moves(self):
        state = race("baker").start()
        state.place(0, Vec(10, 3), Vec(3, 0))
        assert specials(state) == {}


OIL = """
    zones: [{kind: oil, polygon: [[14.5, 2], [16.5, 2], [16.5, 4], [14.5, 4]]}]
"""


class TestOil:
    def test_good_brakes_and_turbo_do_not_work_on_oil(self):
        state = race(extra=OIL).start()
        state.place(0, Vec(10, 3), Vec(5, 0))  # the unchanged move would cross the puddle
        legal = [c for c in state.candidates() if c.legal]
        assert [tuple(c.velocity) for c in legal] == [(5, 0)]
        assert specials(state) == {}

    def test_a_car_at_rest_on_the_oil_gets_no_grip_either(self):
        state = race(extra=OIL).start()
        state.place(0, Vec(15, 3))  # stopped in the middle of the puddle
        assert specials(state) == {}
        assert len([c for c in state.candidates() if c.legal]) > 1  # it is not forced

    def test_off_the_oil_they_work_again(self):
        state = race(extra=OIL).start()
        state.place(0, Vec(10, 3), Vec(2, 0))
        assert "turbo" in specials(state).values()


class TestDesignYourOwnCar:
    def test_one_hundred_dollars_and_the_prices(self):
        rules = load_rules("baker-bond")
        assert rules.equipment_budget == 100
        assert Kit(brakes=1).cost() == 10 and Kit(turbo=1).cost() == 10
        assert Kit(damage=1).cost() == 5
        kit = Kit(money=100)
        for _ in range(30):
            kit = buy(rules, kit, 100, "damage")
        assert kit.damage == 20 and kit.money == 0  # as many as you can afford, no more

    def test_a_kit_over_budget_is_refused(self):
        rules = load_rules("baker-bond")
        assert "more than its $100" in check_kit(rules, CarSetup("Ann", kit=Kit(turbo=11)))
        with pytest.raises(ValueError, match="costs \\$110"):
            race("baker-bond", kits={"Ann": Kit(turbo=11)})

    def test_gadgets_only_in_james_bond_mode(self):
        rules = load_rules("baker-bond").replace(equipment_bond=False)
        assert "James Bond" in check_kit(rules, CarSetup("Ann", kit=Kit(missiles=1)))

    def test_no_damage_points_blows_up_at_the_first_hit(self):
        # "If you don't buy any damage points then your car blows up the first time it hits
        # ANYTHING!"
        state = race("baker-bond", kits={"Ann": Kit(turbo=10), "Bob": Kit(damage=20)}).start()
        state.place(0, Vec(10, 4), Vec(0, 3))  # must hit the wall
        state.place(1, Vec(10, 2), Vec(0, -3))
        events = state.apply(Move(Vec(10, 7)))
        assert state.cars[0].status is CarStatus.OUT
        assert any(e.kind is EventKind.OUT and e.car == 0 for e in events)
        state.apply(Move(Vec(10, -1)))
        assert state.cars[1].racing and state.cars[1].damage == 3  # bought 20 points

    def test_plain_baker_keeps_its_limit_of_five(self):
        state = race("baker").start()
        assert state.damage_limit(0) == 5

    def test_computer_cars_buy_damage_points_first(self):
        kit = suggested_kit(load_rules("baker-bond"), 100)
        assert kit.damage >= 5 and kit.cost() + kit.money == 100 and kit.missiles == 1


COINS = """
    collectables:
      - {kind: penny, at: [6, 3]}
      - {kind: nickel, at: [8, 3]}
      - {kind: dime, at: [10, 3]}
      - {kind: money, at: [12, 3], value: 20}
      - {kind: missile, at: [14, 3]}
"""


class TestCollectables:
    def test_the_first_car_to_drive_into_a_collectable_takes_it(self):
        state = race(extra=COINS).start()
        state.place(0, Vec(4, 3), Vec(0, 0))
        state.place(1, Vec(4, 2), Vec(0, 0))
        state.place(0, Vec(4, 3), Vec(8, 0))  # runs over every coin at once: (12, 3)
        events = state.apply(Move(Vec(12, 3)))
        kinds = [e.message for e in events if e.kind is EventKind.COLLECTED]
        assert len(kinds) == 4  # penny, nickel, dime, money; the missile lies beyond
        kit = state.cars[0].kit
        # A penny: two turbo boosts; a nickel: two good-brakes uses; a dime: five damage
        # points; money for the next race.
        assert (kit.turbo, kit.brakes, kit.damage, kit.money) == (4, 4, 5, 20)
        assert state.damage_limit(0) == 10
        assert [i for i, _ in state.collectables()] == [4]

    def test_ignored_unless_the_rules_say(self):
        state = race("baker", extra=COINS).start()
        state.place(0, Vec(4, 3), Vec(2, 0))
        state.apply(Move(Vec(6, 3)))
        assert state.cars[0].kit == Kit() and len(state.collectables()) == 5

    def test_a_gadget_can_be_a_collectable(self):
        state = race(extra=COINS).start()
        state.place(0, Vec(12, 3), Vec(2, 0))
        state.apply(Move(Vec(14, 3)))
        assert state.cars[0].kit.missiles == 1


class TestStraightMissiles:
    """The house rule ``gadgets.missile-flight: straight``: a missile flies on by itself,
    straight, turbo boosted every turn (as the engine's missiles did before they were
    steered, so replays of that time verify)."""

    def test_starts_with_your_velocity_and_turbo_boosts_every_turn(self):
        state = race(kits={"Ann": Kit(missiles=1)}, gadgets_missile_flight="straight").start()
        state.place(0, Vec(5, 3), Vec(3, 0))
        state.place(1, Vec(5, 1), Vec(0, 0))
        events = state.apply(Move(Vec(8, 3), Action.MISSILE))
        assert any(e.kind is EventKind.MISSILE_FIRED for e in events)
        # Fired from (5, 3) at 3 east; on Ann's turn it moves with turbo: 5 east.
        assert state.missiles == [Missile(0, Vec(10, 3), Vec(5, 0))]
        state.apply(Move(Vec(6, 1)))  # Bob
        state.apply(Move(Vec(11, 3)))  # Ann; the missile: 7 east
        assert state.missiles == [Missile(0, Vec(17, 3), Vec(7, 0))]
        assert state.cars[0].kit.missiles == 0

    def test_explodes_on_a_car_for_three_damage(self):
        state = race(kits={"Ann": Kit(missiles=1)}, gadgets_missile_flight="straight").start()
        state.place(0, Vec(5, 3), Vec(3, 0))
        state.place(1, Vec(10, 3), Vec(0, 0))
        events = state.apply(Move(Vec(8, 2), Action.MISSILE))
        hit = [e for e in events if e.kind is EventKind.MISSILE_HIT]
        assert hit and hit[0].car == 1 and state.cars[1].damage == 3
        assert state.missiles == []

    def test_your_own_car_too(self):
        state = race(cars=("Ann",), kits={"Ann": Kit(missiles=1, turbo=1)},
                     variant="baker-advanced", gadgets_missile_flight="straight").start()
        state.place(0, Vec(5, 3), Vec(3, 0))
        state.apply(Move(Vec(10, 3), Action.MISSILE))  # turbo to where the missile lands
        assert state.cars[0].damage == 3

    def test_two_missiles_that_meet_both_vanish(self):
        state = race(kits={"Ann": Kit(missiles=1)}, gadgets_missile_flight="straight").start()
        state.place(0, Vec(5, 3), Vec(3, 0))
        state.missiles.append(Missile(1, Vec(10, 3), Vec(-3, 0)))
        events = state.apply(Move(Vec(8, 2), Action.MISSILE))
        assert state.missiles == []
        assert any(e.kind is EventKind.MISSILE_GONE for e in events)

    def test_a_car_at_rest_cannot_fire_and_a_car_without_one_cannot_either(self):
        state = race(kits={"Ann": Kit(missiles=1)}).start()
        assert Action.MISSILE not in state.actions()
        with pytest.raises(IllegalMoveError, match="at rest"):
            state.apply(Move(state.legal_moves()[0].target, Action.MISSILE))
        state.apply(state.legal_moves()[0])
        with pytest.raises(IllegalMoveError, match="no missile"):
            state.apply(Move(state.legal_moves()[0].target, Action.MISSILE))


# An L: a corridor east (y 0..8), then a bend north... on screen, south (y grows) up x 8..16.
BEND = """
    outer: [[0, 0], [16, 0], [16, 30], [8, 30], [8, 8], [0, 8]]
    start: {a: [2, 0], b: [2, 8], forward: [1, 0]}
    finish: {a: [8, 26], b: [16, 26], forward: [0, 1]}
"""


def bend_race(flight):
    """Ann (a missile) at (5, 4) doing 2 east; Bob at rest round the bend at (12, 14)."""
    state = race(body=BEND, kits={"Ann": Kit(missiles=1, damage=10)},
                 gadgets_missile_flight=flight).start()
    state.place(0, Vec(5, 4), Vec(2, 0))
    state.place(1, Vec(12, 14), Vec(0, 0))
    return state


class TestSteeredMissiles:
    """Baker: "It moves on your turn just like it was another car - so it starts off moving
    the same speed as you are. It's advantage is that it can use turbo-boost every turn until
    it hits something. (Not 'good brakes' though - it's boost only makes it go faster!). If it
    ends up on the same square as any car (including your own!) then it explodes and causes 3
    points of damage. If two missiles hit each other then they both vanish."
    """

    def test_it_starts_with_your_speed_and_moves_with_a_car_s_choices_plus_turbo(self):
        state = race(kits={"Ann": Kit(missiles=1)}).start()
        state.place(0, Vec(5, 3), Vec(3, 0))
        state.place(1, Vec(5, 1), Vec(0, 0))
        state.apply(Move(Vec(8, 3), Action.MISSILE))
        # Fired from Ann's point at Ann's speed; on Ann's turn, after the car, it moves.
        assert state.steering == Missile(0, Vec(5, 3), Vec(3, 0)) and state.current_car == 0
        assert state.actions() == []
        plain = {c.target for c in state.candidates() if not c.note}
        boosted = {c.target for c in state.candidates() if c.note is Special.TURBO}
        # Baker's five choices round (8, 3); turbo two faster, never two slower.
        assert plain == {Vec(8, 3), Vec(9, 3), Vec(7, 3), Vec(8, 4), Vec(8, 2)}
        assert boosted == {Vec(10, 3), Vec(8, 5), Vec(8, 1)}
        assert Vec(6, 3) not in plain | boosted
        with pytest.raises(IllegalMoveError, match="missile moves now"):
            state.apply(Move(Vec(11, 3)))  # the car has moved this turn
        state.apply(Move(Vec(10, 3), missile=True))
        assert state.missiles == [Missile(0, Vec(10, 3), Vec(5, 0))]
        assert state.current_car == 1 and state.steering is None
        with pytest.raises(IllegalMoveError, match="no missile to move"):
            state.apply(Move(Vec(5, 1), missile=True))
        state.apply(Move(Vec(5, 1)))  # Bob waits; Ann's turn: the car, then the missile
        state.apply(Move(Vec(11, 3)))
        assert {c.target for c in state.candidates()} >= {Vec(15, 3), Vec(17, 3)}
        state.apply(Move(Vec(17, 3), missile=True))  # turbo again: every turn
        assert state.missiles == [Missile(0, Vec(17, 3), Vec(7, 0))]

    def test_steered_round_a_bend_it_hits_a_car_a_straight_missile_misses(self):
        straight = bend_race("straight")
        straight.apply(Move(Vec(7, 4), Action.MISSILE))
        for _ in range(3):
            straight.apply(Move(Vec(12, 14)))  # Bob waits
            ann = straight.cars[0]
            straight.apply(Move(ann.position + ann.velocity))
        assert straight.cars[1].damage == 0 and straight.missiles == []  # into the wall

        state = bend_race("steered")
        state.apply(Move(Vec(7, 4), Action.MISSILE))
        state.apply(Move(Vec(7, 6), missile=True))  # turbo south
        state.apply(Move(Vec(12, 14)))
        state.apply(Move(Vec(9, 4)))
        state.apply(Move(Vec(9, 10), missile=True))  # turbo south, round the corner
        state.apply(Move(Vec(12, 14)))
        state.apply(Move(Vec(11, 4)))
        events = state.apply(Move(Vec(12, 14), missile=True))  # one more east: onto Bob
        hit = [e for e in events if e.kind is EventKind.MISSILE_HIT]
        assert hit and hit[0].car == 1 and state.cars[1].damage == 3
        assert state.missiles == []

    def test_it_explodes_on_its_own_car_too_and_a_wall_ends_it(self):
        state = race(kits={"Ann": Kit(missiles=1)}).start()
        state.place(0, Vec(5, 3), Vec(1, 0))
        state.place(1, Vec(5, 1), Vec(0, 0))
        events = state.apply(Move(Vec(5, 3), Action.MISSILE))  # fire and stop
        assert not any(e.kind is EventKind.MISSILE_HIT for e in events)  # launched, not hit
        own = next(c for c in state.candidates() if c.target == Vec(5, 3))
        assert own.legal  # "including your own!": allowed, and it explodes
        state.apply(own.move)
        assert state.cars[0].damage == 3 and state.missiles == []

        state = race(kits={"Ann": Kit(missiles=1)}).start()
        state.place(0, Vec(5, 3), Vec(0, 2))
        state.place(1, Vec(9, 1), Vec(0, 0))
        state.apply(Move(Vec(5, 4), Action.MISSILE))
        wall = next(c for c in state.candidates() if c.target == Vec(5, 7))  # turbo on
        assert wall.kind is MoveKind.CRASH and wall.legal
        events = state.apply(wall.move)
        assert state.missiles == [] and any(e.kind is EventKind.MISSILE_GONE for e in events)

    def test_two_missiles_that_meet_vanish_and_a_car_ending_on_one_is_hit(self):
        state = race(kits={"Ann": Kit(missiles=1)}).start()
        state.place(0, Vec(5, 3), Vec(3, 0))
        state.place(1, Vec(5, 1), Vec(0, 0))
        state.missiles.append(Missile(1, Vec(10, 3), Vec(-3, 0)))
        state.apply(Move(Vec(8, 2), Action.MISSILE))
        state.apply(Move(Vec(10, 3), missile=True))
        assert state.missiles == []
        state = race(kits={"Ann": Kit(missiles=1)}).start()
        state.place(0, Vec(5, 3), Vec(1, 0))
        state.place(1, Vec(9, 1), Vec(0, 0))
        state.missiles.append(Missile(1, Vec(6, 3), Vec(0, 0)))  # Bob's, standing
        state.apply(Move(Vec(6, 3)))  # Ann ends her move on it
        assert state.cars[0].damage == 3 and state.missiles == []

    def test_it_moves_on_a_turn_its_car_sits_out_and_falls_when_its_car_is_out(self):
        state = race(kits={"Ann": Kit(missiles=1)}).start()
        state.place(0, Vec(5, 3), Vec(2, 0))
        state.place(1, Vec(5, 1), Vec(0, 0))
        state.apply(Move(Vec(7, 3), Action.MISSILE))
        state.apply(Move(Vec(8, 3), missile=True))
        state.set_car(0, replace(state.cars[0], missed_turns=1))
        state.apply(Move(Vec(5, 1)))  # Bob; Ann sits her turn out, her missile moves
        assert state.current_car == 0 and state.steering == Missile(0, Vec(8, 3), Vec(3, 0))
        state.apply(Move(Vec(11, 3), missile=True))
        state.set_car(0, replace(state.cars[0], status=CarStatus.OUT))
        events = state.apply(Move(Vec(5, 1)))  # Bob; Ann races no more: her missile falls
        assert state.missiles == [] and any("falls" in e.message for e in events)


class TestOilSprayerBoostersSubmarineGuns:
    def test_the_sprayer_lays_a_three_by_three_slick_behind_the_car(self):
        state = race(kits={"Ann": Kit(sprayers=1)}).start()
        state.place(0, Vec(10, 3), Vec(2, 0))
        state.place(1, Vec(6, 3), Vec(3, 0))
        state.apply(Move(Vec(12, 3), Action.OIL))
        assert state.oil == [((8.5, 1.5), (11.5, 1.5), (11.5, 4.5), (8.5, 4.5))]
        assert state.cars[0].kit.sprayers == 0
        # "it behaves just like a normal oil slick": Bob's unchanged move crosses it.
        assert [tuple(c.velocity) for c in state.candidates() if c.legal] == [(3, 0)]

    def test_rocket_boosters_speed_up_by_three_once(self):
        state = race(cars=("Ann",), kits={"Ann": Kit(boosters=1)}).start()
        state.place(0, Vec(5, 3), Vec(2, 0))
        assert specials(state)[(5, 0)] == "rocket boosters"
        state.apply(Move(Vec(10, 3)))
        assert state.cars[0].kit.boosters == 0 and specials(state) == {}

    WATER = """
        zones: [{kind: water, polygon: [[12, 0], [16, 0], [16, 6], [12, 6]]}]
    """

    def test_a_submarine_crosses_water_and_any_other_car_crashes(self):
        state = race("baker-bond", kits={"Ann": Kit(submarine=True, damage=5),
                                         "Bob": Kit(damage=5)}, extra=self.WATER).start()
        state.place(0, Vec(10, 3), Vec(3, 0))
        state.place(1, Vec(10, 2), Vec(3, 0))
        into = velocity_of(state, (13, 3))
        assert into.legal and into.kind is MoveKind.DRIVE
        state.apply(Move(Vec(13, 3)))
        crash = velocity_of(state, (13, 2))
        assert crash.kind is MoveKind.CRASH

    def test_a_submarine_collectable_lets_the_car_swim(self):
        extra = textwrap.dedent(self.WATER) + "collectables: [{kind: submarine, at: [11, 3]}]\n"
        state = race(extra=extra).start()
        state.place(0, Vec(9, 3), Vec(2, 0))
        state.apply(Move(Vec(11, 3)))
        assert state.cars[0].kit.submarine

    def test_rear_guns_hit_a_car_one_square_behind_at_the_start_of_the_turn(self):
        state = race(kits={"Ann": Kit(guns=2)}).start()
        state.place(0, Vec(10, 3), Vec(2, 0))
        state.place(1, Vec(9, 3), Vec(1, 0))  # one square behind Ann
        events = state.apply(Move(Vec(12, 3)))
        shots = [e for e in events if e.kind is EventKind.SHOT]
        assert len(shots) == 1 and state.cars[1].damage == 2  # two sets, two points

    def test_and_at_the_end_of_the_turn(self):
        state = race(kits={"Ann": Kit(guns=1)}).start()
        state.place(0, Vec(10, 3), Vec(2, 0))
        state.place(1, Vec(11, 3), Vec(0, 0))
        state.apply(Move(Vec(12, 3)))  # Bob is now one square behind
        assert state.cars[1].damage == 1

    def test_no_car_behind_no_shot(self):
        state = race(kits={"Ann": Kit(guns=1)}).start()
        state.place(0, Vec(10, 3), Vec(2, 0))
        state.place(1, Vec(8, 3), Vec(0, 0))
        state.apply(Move(Vec(12, 3)))
        assert state.cars[1].damage == 0


class TestTeams:
    def test_a_team_moves_all_its_cars_before_the_other_team(self):
        cars = [CarSetup("Ann", team="Red"), CarSetup("Bob", team="Blue"),
                CarSetup("Cid", team="Red"), CarSetup("Dan", team="Blue")]
        r = race("baker-teams", cars=cars)
        assert r.order == (0, 2, 1, 3)

    def test_three_two_one_points_and_the_most_points_wins(self):
        cars = (CarSetup("Ann", team="Red"), CarSetup("Bob", team="Blue"),
                CarSetup("Cid", team="Red"), CarSetup("Dan", team="Blue"))
        # Bob wins, Ann second, Dan third, Cid fourth: Blue 3 + 1, Red 2.
        assert team_standings(cars, (1, 0, 3, 2)) == [("Blue", 4), ("Red", 2)]
        # Without a team a car is its own.
        assert team_standings((CarSetup("Ann"), CarSetup("Bob")), (1, 0)) == [("Bob", 3),
                                                                             ("Ann", 2)]


# -- replays and computer drivers ------------------------------------------------------------


def bond_race(seed=1):
    """Three computer drivers race James Bond mode on the hazards track, with its gadgets."""
    from racetrack.board.track import find_track, load_track
    from racetrack.search.drivers import make_driver

    levels = ("expert", "medium", "hard")
    cars = [CarSetup(level.title(), colour, level)
            for level, colour in zip(levels, ("red", "blue", "green"), strict=True)]
    race = Race(load_track(find_track("hazards")), load_rules("baker-bond"), cars, seed=seed)
    drivers = [make_driver(level, seed * 10 + i) for i, level in enumerate(levels)]
    state = race.start()
    while not state.is_over:
        state.apply(drivers[state.current_car].choose(state))  # raises if ever illegal
    return state


@pytest.fixture(scope="module")
def bond_replay(tmp_path_factory):
    from racetrack.games.replay import save_replay

    state = bond_race(2)  # a race in which a driver gets a shot (seed 1 now has none)
    path = tmp_path_factory.mktemp("bond") / "race.yaml"
    save_replay(state, path)
    return state, path


@pytest.mark.long
def test_drivers_finish_a_bond_race_using_their_kit(bond_replay):
    state, _ = bond_replay
    assert state.outcome.winner is not None
    assert any(move.action for _, move in state.history)  # a missile fired or oil sprayed
    assert any(c.kit != state.race.cars[i].kit for i, c in enumerate(state.cars))


def test_a_replay_records_kits_and_actions_and_re_simulates_them(bond_replay):
    import yaml

    from racetrack.games.replay import load_replay

    state, path = bond_replay
    data = yaml.safe_load(path.read_text())
    assert data["cars"][0]["kit"]["damage"] >= 5
    assert any(len(row) == 4 for row in data["moves"])
    final = load_replay(path).verify()
    assert final.cars == state.cars and final.missiles == state.missiles
    assert final.oil == state.oil and final.taken == state.taken


def test_a_replay_records_a_steered_missile_s_moves(bond_replay, tmp_path):
    import yaml

    from racetrack.games.replay import load_replay

    state, path = bond_replay
    data = yaml.safe_load(path.read_text())
    assert data["racetrack-replay"] == 3 and data["rules"]["gadgets"]["missile-flight"] == \
        "steered"
    steered = [row for row in data["moves"] if row[3:] == ["steer"]]
    assert steered and any(move.missile for _, move in state.history)
    final = load_replay(path).verify()
    assert final.missiles == state.missiles and final.history == state.history

    def moved(data):  # a missile's move where the file says the car's
        row = next(i for i, r in enumerate(data["moves"]) if r[3:] == ["steer"])
        data["moves"][row] = data["moves"][row][:3]
    with pytest.raises(Exception, match="missile moves now"):
        load_replay(_tamper(path, tmp_path, moved)).verify()


def test_a_replay_of_straight_missiles_from_format_1_still_verifies(tmp_path):
    """Replays written before missiles were steered (format 1, no ``missile-flight`` in the
    rules) raced missiles that fly straight: they load so, and verify."""
    import yaml

    from racetrack.games.replay import load_replay, save_replay

    state = race(variant="baker-bond", kits={"Ann": Kit(missiles=1, damage=10, money=20),
                                             "Bob": Kit(damage=10, money=50)},
                 gadgets_missile_flight="straight").start()
    for turn in range(6):  # each car east, one faster a turn; Ann fires on her third turn
        move = max(state.legal_moves(), key=lambda m: (m.target.x, -abs(m.target.y - 3)))
        state.apply(Move(move.target, Action.MISSILE) if turn == 4 else move)
    flying = list(state.missiles)
    assert len(flying) == 1
    path = tmp_path / "old.yaml"
    save_replay(state, path)
    data = yaml.safe_load(path.read_text())
    data["racetrack-replay"] = 1
    del data["rules"]["gadgets"]["missile-flight"]
    path.write_text(yaml.safe_dump(data))
    loaded = load_replay(path)
    assert loaded.race.rules.gadgets_missile_flight == "straight"
    assert loaded.verify().missiles == flying
    data["moves"].append([0, 11, 3, "steer"])  # format 1 knows no missile's moves
    path.write_text(yaml.safe_dump(data))
    with pytest.raises(Exception, match="unknown action 'steer'"):
        load_replay(path)


def _tamper(path, tmp_path, change):
    import yaml

    data = yaml.safe_load(path.read_text())
    change(data)
    out = tmp_path / "bad.yaml"
    out.write_text(yaml.safe_dump(data))
    return out


def test_hostile_rows_are_refused_with_the_move_number(bond_replay, tmp_path):
    from racetrack.base.errors import ReplayError
    from racetrack.games.replay import load_replay

    _, path = bond_replay

    def nuke(data):
        data["moves"][2].append("nuke")
    with pytest.raises(ReplayError, match="move 3: unknown action 'nuke'"):
        load_replay(_tamper(path, tmp_path, nuke))

    def extra_missile(data):
        data["moves"][0].append("missile")  # at rest on the grid: cannot fire
    with pytest.raises(ReplayError, match=r"move 1 \(.* and missile\) is illegal"):
        load_replay(_tamper(path, tmp_path, extra_missile)).verify()

    def rich(data):
        data["cars"][0]["kit"] = {"missiles": 9}
    with pytest.raises(ReplayError, match="costs \\$270"):
        load_replay(_tamper(path, tmp_path, rich))

    def strange(data):
        data["cars"][0]["kit"] = {"lasers": 1}
    with pytest.raises(ReplayError, match="unknown kit item 'lasers'"):
        load_replay(_tamper(path, tmp_path, strange))


def test_move_text_round_trips_with_an_action():
    move = Move(Vec(5, 3), Action.MISSILE)
    assert str(move) == "5,3+missile" and Move.parse(str(move)) == move
    assert Move.parse("5,3") == Move(Vec(5, 3))


# -- championships ---------------------------------------------------------------------------


def test_championship_prize_money_carries_to_the_next_shop(tmp_path):
    from racetrack.games.championship import Championship, Entrant, load_championship, run_headless

    series = Championship("baker-bond", ["oval", "oval"],
                          [Entrant("Ann", "red", "expert"), Entrant("Bob", "blue", "easy")],
                          seed=3)
    assert series.budget("Ann") == 100
    states = run_headless(series)
    first = series.results[0]
    winner = first["ranking"][0]
    assert first["prizes"][winner] == 30
    # The next race's shop had $100 plus the prize and the money the car kept.
    second_race_car = next(c for c in states[1].race.cars if c.name == winner)
    assert second_race_car.budget == 100 + 30 + first["kept"][winner]
    # 3 and 2 points a race, none for a car put out (steered missiles put cars out now).
    scored = [(3, 2)[place] for state in states
              for place, index in enumerate(state.outcome.ranking)
              if state.cars[index].status is not CarStatus.OUT]
    assert sum(series.points.values()) == sum(scored) >= 3 + 3
    path = series.save(tmp_path / "series.yaml")
    again = load_championship(path)
    assert again.standings() == series.standings() and again.is_over


def test_championship_cli_is_deterministic(capsys):
    import json

    from racetrack.cli import main

    runs = []
    for _ in range(2):
        assert main(["championship", "--tracks", "oval", "--driver", "hard", "--driver",
                     "medium", "--seed", "5", "--json"]) == 0
        runs.append(json.loads(capsys.readouterr().out))
    assert runs[0] == runs[1] and len(runs[0]["standings"]) == 2


def test_championship_teams_places_and_overrides_round_trip(tmp_path):
    from racetrack.games.championship import (
        Championship,
        ChampionshipError,
        Entrant,
        load_championship,
        run_headless,
        set_aside,
    )

    series = Championship("baker-teams", ["oval"],
                          [Entrant("Ann", "red", "hard", "Team A"),
                           Entrant("Bob", "blue", "easy", "Team B"),
                           Entrant("Cy", "green", "medium", "Team A")],
                          seed=2, overrides={"movement.choices": "square"})
    assert series.ruleset().movement_choices == "square"
    states = run_headless(series)
    # No shop under these rules: every car has the rules' two brakes and two turbos, and
    # keeps only the money it picked up.
    rules = series.ruleset()
    assert all(car.kit is None and car.budget is None for car in states[0].race.cars)
    assert sorted(series.money.values()) == [10, 20, 30]  # the oval has no money lying about
    assert states[0].race.start().cars[0].kit.brakes == rules.equipment_brakes == 2
    teams = series.team_standings()
    assert {team for team, _, _ in teams} == {"Team A", "Team B"}
    assert sum(points for _, points, _ in teams) == 6
    assert sorted(series.places("Ann") + series.places("Bob") + series.places("Cy")) == [1, 2, 3]
    path = series.save(tmp_path / "series.yaml")
    again = load_championship(path)
    assert again.overrides == series.overrides and again.team_standings() == teams
    path.write_text(path.read_text().replace("square", "hexagonal"))
    try:
        load_championship(path)
    except ChampionshipError as exc:
        assert "damaged" in str(exc)
    else:
        raise AssertionError("a bad override loaded")
    assert set_aside(path) == tmp_path / "series-damaged-1.yaml" and not path.exists()
    assert set_aside(path) is None


def test_a_collectable_past_the_item_cap_is_clamped_not_a_crash():
    import textwrap

    from racetrack.board.geometry import Vec
    from racetrack.engine.model import MAX_ITEMS, CarSetup, Kit, Move
    from racetrack.games.race import Race
    from racetrack.rules import load_rules
    from tests.conftest import make_track

    track = make_track(textwrap.dedent("""
        outer: [[0, 0], [40, 0], [40, 6], [0, 6]]
        start: {a: [2, 0], b: [2, 6], forward: [1, 0]}
        finish: {a: [36, 0], b: [36, 6], forward: [1, 0]}
        collectables:
          - {kind: dime, at: [6, 3]}
          - {kind: penny, at: [7, 3]}
    """))
    from dataclasses import replace

    state = Race(track, load_rules("baker-advanced"), [CarSetup("Ann")]).start()
    state.place(0, Vec(4, 3), Vec(3, 0))
    # Kits this large only come from many collectables (or a script).
    state.set_car(0, replace(state.cars[0], kit=Kit(damage=MAX_ITEMS - 2, turbo=MAX_ITEMS)))
    state.apply(Move(Vec(7, 3)))
    assert state.cars[0].kit.damage == MAX_ITEMS and state.cars[0].kit.turbo == MAX_ITEMS


BOND_CORRIDOR = """
    outer: [[0, 0], [40, 0], [40, 6], [0, 6]]
    start: {a: [2, 0], b: [2, 6], forward: [1, 0]}
    finish: {a: [36, 0], b: [36, 6], forward: [1, 0]}
"""


#: James Bond mode with the house rule of missiles that fly straight by themselves.
STRAIGHT_FLIGHT = load_rules("baker-bond").replace(gadgets_missile_flight="straight")


def corridor_race(cars=("Ann", "Bob"), extra="", variant="baker-bond", budget=None, kits=None):
    """A race on the corridor; ``variant`` a bundled name, or a rule set."""
    import textwrap

    from racetrack.engine.model import CarSetup
    from racetrack.games.race import Race
    from racetrack.rules import load_rules
    from tests.conftest import make_track

    kits = kits or {}
    setups = [CarSetup(name, kit=kits.get(name), budget=budget) for name in cars]
    return Race(make_track(textwrap.dedent(BOND_CORRIDOR) + textwrap.dedent(extra)),
                load_rules(variant) if isinstance(variant, str) else variant, setups)


def test_firing_while_stopping_does_not_blow_up_the_car_and_the_missile_flies():
    from racetrack.board.geometry import Vec
    from racetrack.engine.model import Action, EventKind, Kit, Missile, Move

    state = corridor_race(kits={"Ann": Kit(missiles=1, damage=5, money=45)}).start()
    state.place(0, Vec(5, 3), Vec(1, 0))
    state.place(1, Vec(5, 1), Vec(0, 0))
    events = state.apply(Move(Vec(5, 3), Action.MISSILE))  # fire and stop
    assert not any(e.kind is EventKind.MISSILE_HIT for e in events)
    assert state.cars[0].damage == 0
    # It moves on Ann's turn, after the car: its owner steers it away, turbo boosted.
    assert state.steering == Missile(0, Vec(5, 3), Vec(1, 0)) and state.current_car == 0
    state.apply(Move(Vec(8, 3), missile=True))
    assert state.missiles == [Missile(0, Vec(8, 3), Vec(3, 0))] and state.current_car == 1


def test_drivers_do_not_fire_into_their_own_car_or_drive_onto_a_missile():
    from racetrack.board.geometry import Vec
    from racetrack.engine.model import Action, Kit, Missile
    from racetrack.search.drivers import make_driver

    state = corridor_race(kits={"Ann": Kit(missiles=1, turbo=1, damage=5, money=35)},
                      variant=STRAIGHT_FLIGHT).start()
    state.place(0, Vec(5, 3), Vec(1, 0))
    state.place(1, Vec(8, 3), Vec(0, 0))  # a rival where the missile lands
    driver = make_driver("expert", 1)

    def worth(target):
        candidate = next(c for c in state.candidates() if c.target == Vec(*target))
        return driver._worth(state, candidate, Action.MISSILE)

    assert worth((5, 3))  # fire and stop: the missile flies on to Bob
    assert not worth((8, 3))  # turbo onto Bob's point: the missile would hit Ann too
    # A rival's missile lying on a point: no driver ends its move there.
    state.place(1, Vec(5, 1), Vec(0, 0))
    state.missiles.append(Missile(1, Vec(7, 3), Vec(0, 0)))
    move = driver.choose(state)
    assert move.target != Vec(7, 3)


def test_kits_are_checked_under_rules_without_a_shop_and_money_against_the_budget():
    from racetrack.engine.model import MAX_MONEY, CarSetup, Kit
    from racetrack.engine.shop import check_kit, suggested_kit
    from racetrack.rules import load_rules

    advanced, bond = load_rules("baker-advanced"), load_rules("baker-bond")
    assert check_kit(advanced, CarSetup("Ann", kit=Kit(brakes=2, turbo=2))) is None
    assert check_kit(advanced, CarSetup("Ann")) is None
    for kit in (Kit(brakes=2, turbo=2, missiles=1), Kit(brakes=9, turbo=2),
                Kit(brakes=2, turbo=2, money=50), Kit(brakes=2, turbo=2, damage=5)):
        assert "standard kit" in check_kit(advanced, CarSetup("Ann", kit=kit))
    assert "no shop" in check_kit(advanced, CarSetup("Ann", budget=500))
    bought = suggested_kit(bond, 100)
    assert check_kit(bond, CarSetup("Ann", kit=bought)) is None
    rich = Kit(**{**bought.__dict__, "money": bought.money + 1000})
    assert "more than" in check_kit(bond, CarSetup("Ann", kit=rich))
    assert "budget" in check_kit(bond, CarSetup("Ann", budget=100 + MAX_MONEY + 1))
    with pytest.raises(ValueError, match="standard kit"):
        corridor_race(variant="baker-advanced", kits={"Ann": Kit(brakes=2, turbo=2, guns=3)})


def test_a_replay_with_two_cars_of_one_name_is_refused(tmp_path):
    import yaml

    from racetrack.base.errors import ReplayError
    from racetrack.games.replay import load_replay, replay_data

    state = corridor_race(cars=("Ann", "Bob")).start()
    data = replay_data(state)
    data["cars"][1]["name"] = "Ann"
    path = tmp_path / "twice.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    with pytest.raises(ReplayError, match="two cars are named 'Ann'"):
        load_replay(path)


def test_a_special_move_into_the_wall_spends_its_use():
    from racetrack.board.geometry import Vec
    from racetrack.engine.model import Kit, MoveKind

    state = corridor_race(variant="baker-advanced").start()
    state.place(0, Vec(3, 3), Vec(0, 2))  # turbo: 4 south, through the wall at y = 6
    crash = next(c for c in state.candidates()
                 if c.kind is MoveKind.CRASH and c.note == "turbo")
    before = state.cars[0].kit
    state.apply(crash.move)
    assert state.cars[0].kit == Kit(brakes=before.brakes, turbo=before.turbo - 1)


def test_a_car_that_went_out_scores_no_team_points_in_the_race_results():
    from racetrack.engine.model import CarSetup, team_standings

    cars = [CarSetup("A", team="Red"), CarSetup("B", team="Blue"), CarSetup("C", team="Red")]
    assert team_standings(cars, (0, 1, 2)) == [("Red", 4), ("Blue", 2)]
    assert team_standings(cars, (0, 1, 2), out=frozenset({2})) == [("Red", 3), ("Blue", 2)]
