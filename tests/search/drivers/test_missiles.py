"""The computer drivers' steered missiles (``racetrack.search.drivers.missiles``): they fire at a
rival ahead and steer at it, round a bend too, never onto their own car while another point is open,
and the same state always gives the same move."""

from __future__ import annotations

import textwrap

from racetrack.board.geometry import Vec
from racetrack.engine.model import Action, CarSetup, EventKind, Kit, Missile, Move
from racetrack.games.race import Race
from racetrack.rules import load_rules
from racetrack.search.drivers import make_driver
from racetrack.search.drivers.missiles import quarry, steer_missile, worth_firing
from tests.conftest import make_track

# An L: a corridor east (y 0..8), then on down x 8..16 to the finish.
BEND = """
    outer: [[0, 0], [16, 0], [16, 30], [8, 30], [8, 8], [0, 8]]
    start: {a: [2, 0], b: [2, 8], forward: [1, 0]}
    finish: {a: [8, 26], b: [16, 26], forward: [0, 1]}
"""


def bend_state(bob=(12, 14)):
    rules = load_rules("baker-bond")
    race = Race(make_track(textwrap.dedent(BEND)), rules,
                [CarSetup("Ann", kit=Kit(missiles=1, damage=10, money=20)),
                 CarSetup("Bob", kit=Kit(damage=10, money=50))])
    state = race.start()
    state.place(0, Vec(5, 4), Vec(2, 0))
    state.place(1, Vec(*bob), Vec(0, 0))
    return state


def test_a_driver_steers_its_missile_round_the_bend_onto_the_rival_ahead():
    state = bend_state()
    driver = make_driver("expert", 1)
    assert worth_firing(state)  # Bob is ahead by the course, within reach
    state.apply(Move(Vec(7, 4), Action.MISSILE))
    assert quarry(state, 0, state.steering.position) == 1
    hit = False
    for _ in range(6):
        move = driver.choose(state)  # the missile's move: the driver answers for it
        assert move.missile
        hit = any(e.kind is EventKind.MISSILE_HIT and e.car == 1 for e in state.apply(move))
        if hit or not state.missiles:
            break
        state.apply(Move(state.cars[1].position))  # Bob waits
        ann = state.cars[0]  # Ann slows down along the corridor
        state.apply(min(state.legal_moves(), key=lambda m: ((m.target - ann.position).speed,
                                                            -m.target.x)))
    assert hit and state.cars[1].damage == 3


def test_it_never_ends_on_its_own_car_while_another_point_is_open_and_is_deterministic():
    state = bend_state()
    state.apply(Move(Vec(7, 4), Action.MISSILE))
    state.gadgets.to_steer = [Missile(0, Vec(5, 4), Vec(2, 0))]  # unchanged: onto Ann
    state._forget_moves()
    first = steer_missile(state)
    assert first.target != Vec(7, 4)
    assert all(steer_missile(state.clone()) == first for _ in range(3))


def test_no_shot_at_a_rival_behind():
    state = bend_state(bob=(3, 2))
    assert not worth_firing(state)
