"""The gadget module on its own: a narrow interface with no way back into the game."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
import shapely
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from racetrack.board.course import Course
from racetrack.board.geometry import Vec
from racetrack.board.track import parse_track
from racetrack.engine.gadgets import (
    Gadgets,
    Hit,
    heading,
    missile_boost,
    missile_candidates,
    missile_stays_on,
    oil_patch,
)
from racetrack.engine.model import CarSetup, CarState, EventKind, Kit, Missile, MoveKind
from racetrack.rules import load_rules


def test_the_gadgets_never_import_the_game():
    source = Path(__file__).parents[2] / "racetrack" / "engine" / "gadgets.py"
    imported = {node.module for node in ast.walk(ast.parse(source.read_text()))
                if isinstance(node, ast.ImportFrom)}
    assert "racetrack.games.race" not in imported


def test_heading_and_boost():
    assert heading(Vec(3, -1)) == Vec(1, 0) and heading(Vec(2, 2)) == Vec(1, 1)
    assert missile_boost(Vec(3, 1)) == Vec(5, 1) and missile_boost(Vec(0, -2), 3) == Vec(0, -5)


def test_the_slick_lies_right_behind_the_car_at_any_size():
    assert oil_patch(Vec(10, 3), Vec(2, 0)) == ((6.5, 1.5), (9.5, 1.5), (9.5, 4.5), (6.5, 4.5))
    # A 5 x 5 slick: its near edge still half a square behind the car.
    assert oil_patch(Vec(10, 3), Vec(2, 0), 5)[1][0] == 9.5


def test_hits_come_out_for_the_race_to_deal():
    rules = load_rules("baker-bond").replace(gadgets_gun_damage=2)
    gadgets = Gadgets(rules, ("Ann", "Bob"))
    cars = [CarState(Vec(5, 3), Vec(2, 0), kit=Kit(guns=1)), CarState(Vec(4, 3))]
    events, hits = gadgets.guns(0, cars, [CarSetup("Ann"), CarSetup("Bob")], set())
    assert hits == [Hit(1, 2, Vec(4, 3), "machine guns")] and len(events) == 1
    gadgets.missiles.append(Missile(0, Vec(4, 3), Vec(1, 0)))
    events, hits = gadgets.strikes(cars)
    assert hits == [Hit(1, 3, Vec(4, 3), "a missile")] and gadgets.missiles == []


# -- one wall test for every missile ------------------------------------------------------------

#: A ring whose walls run along lattice lines, so a move can touch a corner or run along an
#: edge, with a puddle of water (a wall to a missile, which cannot swim) in its bottom lane.
OUTER = [(0, 0), (12, 0), (12, 8), (0, 8)]
HOLE = [(4, 3), (8, 3), (8, 5), (4, 5)]
WATER = [(9, 5), (11, 5), (11, 7), (9, 7)]
RING = parse_track(
    "racetrack-track: 1\nname: Ring\n"
    f"outer: {[list(p) for p in OUTER]}\nholes: [{[list(p) for p in HOLE]}]\n"
    "start: {a: [6, 5], b: [6, 8], forward: [1, 0]}\n"
    f"zones: [{{kind: water, polygon: {[list(p) for p in WATER]}}}]\n")
WALLS = ("touching-allowed", "off-track")


def rules_with(walls: str, flight: str = "steered"):
    return load_rules("baker-bond").replace(walls=walls, gadgets_missile_flight=flight,
                                            gadgets_missile_boost=1)


def reference_stays_on(walls: str, start: Vec, target: Vec) -> bool:
    """The rule said plainly, with shapely alone: the move from start to target lies on the
    ring without its water, its edge counting as track only where touching is allowed."""
    land = shapely.Polygon(OUTER, [HOLE]).difference(shapely.Polygon(WATER))
    move = shapely.LineString([tuple(start), tuple(target)])
    return bool(shapely.covers(land, move) if walls == "touching-allowed"
                else shapely.contains_properly(land, move))


def straight_stays_on(walls: str, start: Vec, move: Vec) -> bool | None:
    """Whether a straight missile from ``start`` flies the ``move`` and stays on the track
    (None: no velocity boosts to that move)."""
    rules = rules_with(walls, "straight")
    before = [Vec(x, y) for x in range(-9, 10) for y in range(-9, 10)
              if missile_boost(Vec(x, y), rules.gadgets_missile_boost) == move]
    if not before:
        return None
    gadgets = Gadgets(rules, ("Ann",))
    gadgets.missiles.append(Missile(0, start, before[0]))
    events, _ = gadgets.fly(0, Course(RING), [CarState(Vec(-50, -50))])
    assert [e.kind for e in events] in ([EventKind.MISSILE_MOVED], [EventKind.MISSILE_GONE])
    return events[0].kind is EventKind.MISSILE_MOVED


def steered_stays_on(walls: str, start: Vec, move: Vec) -> bool:
    """Whether a steered missile from ``start`` that keeps its velocity ``move`` stays on."""
    candidates = missile_candidates(Course(RING), rules_with(walls), Missile(0, start, move))
    kept = next(c for c in candidates if c.unchanged)
    assert kept.target == start + move
    return kept.kind is MoveKind.DRIVE


#: Moves that graze the walls: (start, move, stays on with touching allowed).
GRAZING = [
    ((1, 0), (4, 0), True),     # along the outer wall's top edge
    ((3, 3), (6, 0), True),     # along the hole's top edge, corner to beyond the far corner
    ((2, 5), (4, -4), True),    # through the hole's top-left corner, touching it only
    ((2, 2), (0, -2), True),    # ending on the outer wall
    ((2, 6), (0, 2), True),     # ending on the outer wall below
    ((1, 1), (0, -3), False),   # through the wall
    ((2, 4), (8, 0), False),    # across the hole
    ((8, 6), (4, 0), False),    # across the water
    ((8, 5), (4, 0), True),     # along the water's top edge
    ((8, 7), (4, 0), True),     # along the water's bottom edge
    ((9, 4), (2, 1), True),     # onto the water's corner from above
    ((10, 4), (0, 2), False),   # into the water
]


@pytest.mark.parametrize("walls", WALLS)
@pytest.mark.parametrize(("start", "move", "touching"), GRAZING)
def test_straight_and_steered_missiles_hit_the_same_walls(walls, start, move, touching):
    start, move = Vec(*start), Vec(*move)
    expected = reference_stays_on(walls, start, start + move)
    if walls == "touching-allowed":
        assert expected == touching  # the examples say what they mean
    assert steered_stays_on(walls, start, move) == expected
    assert straight_stays_on(walls, start, move) in (expected, None)
    assert missile_stays_on(Course(RING), rules_with(walls), start, [start + move]) == [expected]


def test_touching_the_wall_is_leaving_the_track_where_the_rules_say_so():
    start, move = Vec(1, 0), Vec(4, 0)  # along the top edge
    assert steered_stays_on("touching-allowed", start, move)
    assert not steered_stays_on("off-track", start, move)
    assert straight_stays_on("touching-allowed", start, move)
    assert not straight_stays_on("off-track", start, move)


@settings(max_examples=150, deadline=None)
@given(walls=st.sampled_from(WALLS), x=st.integers(-1, 13), y=st.integers(-1, 9),
       dx=st.integers(-6, 6), dy=st.integers(-6, 6))
def test_any_missile_flight_meets_the_wall_as_the_rule_says(walls, x, y, dx, dy):
    move = Vec(dx, dy)
    assume(move != Vec(0, 0))
    start = Vec(x, y)
    expected = reference_stays_on(walls, start, start + move)
    assert steered_stays_on(walls, start, move) == expected
    assert straight_stays_on(walls, start, move) in (expected, None)
