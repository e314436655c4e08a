"""Position strings: a car's state written down and read back."""

from __future__ import annotations

import pytest

from racetrack.board.geometry import Vec
from racetrack.engine.model import CarState, CarStatus, Kit
from racetrack.engine.position import PositionError, car_position, parse_car_position


@pytest.mark.parametrize("text", [
    "20,24 0,0 1",
    "31,5 4,-2 3 pit dmg=2",
    "12,30 1,1 2 off@41.6",
    "12,30 1,1 1 off@41.6 lost=1",
    "12,30 1,1 2 off",
    "8,3 -2,0 1 launch kit=1/2/0",
    "8,3 0,0 0 miss=2 out",
    "-4,-7 -1,3 2 finished",
])
def test_car_positions_round_trip(text):
    assert car_position(parse_car_position(text)) == text


def test_a_position_keeps_what_it_does_not_hold_from_its_base():
    base = CarState(Vec(0, 0), kit=Kit(brakes=2, money=30))
    car = parse_car_position("5,6 1,0 2 kit=0/1/0", base)
    assert car.kit.money == 30 and (car.kit.brakes, car.kit.turbo) == (0, 1)
    assert car.position == Vec(5, 6) and car.status is CarStatus.RACING


@pytest.mark.parametrize("text, message", [
    ("20,24 0,0", "needs a point, a velocity and a progress"),
    ("20;24 0,0 1", "point must be two whole numbers"),
    ("20,24 0,0 x", "progress must be a whole number"),
    ("20,24 0,0 1 dmg=-1", "must not be negative"),
    ("20,24 0,0 1 kit=1/2", "brakes/turbo/boosters"),
    ("20,24 0,0 1 off@far", "needs a distance"),
    ("20,24 0,0 1 turbo", "unknown part 'turbo'"),
])
def test_bad_positions_say_what_is_wrong(text, message):
    with pytest.raises(PositionError, match=message):
        parse_car_position(text)
