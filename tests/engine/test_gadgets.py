"""The gadget module on its own: a narrow interface with no way back into the game."""

from __future__ import annotations

import ast
from pathlib import Path

from racetrack.board.geometry import Vec
from racetrack.engine.gadgets import Gadgets, Hit, heading, missile_boost, oil_patch
from racetrack.engine.model import CarSetup, CarState, Kit, Missile
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
