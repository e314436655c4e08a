"""Moves-to-go tables for the computer drivers, built once per track, rule set and car kind.

A table answers "how many moves from this (point, velocity, progress) to the finish, driving
perfectly?" for every state on the track. It is built by the exact solver from every point at
rest at every progress (so a car put back after a crash or a collision is covered too) and kept
for the rest of the program's life.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

import numpy as np

from racetrack.course import Course
from racetrack.geometry import Vec
from racetrack.rules.ruleset import RuleSet
from racetrack.solver import Layer, MoveTable, Solution, StateGraph, ValueTable, solve
from racetrack.track import Track

#: Tables kept for reuse (a rematch on the same track and rules needs no new one).
KEEP = 6

_lock = threading.Lock()
_tables: OrderedDict[tuple[Track, RuleSet, bool], ValueTable] = OrderedDict()


def value_table(course: Course, rules: RuleSet, can_swim: bool = False) -> ValueTable:
    """The moves-to-go table for one car kind on a course (built on first use, then cached).

    Safe to call from a background thread while the window draws: the build holds no lock.
    """
    key = (course.track, _movement_rules(rules), can_swim)
    with _lock:
        if key in _tables:
            _tables.move_to_end(key)
            return _tables[key]
    table = build_value_table(course, rules, can_swim)
    with _lock:
        _tables[key] = table
        while len(_tables) > KEEP:
            _tables.popitem(last=False)
    return table


def build_value_table(course: Course, rules: RuleSet, can_swim: bool = False) -> ValueTable:
    moves = MoveTable(course, rules, can_swim)
    n, lines, flags = len(moves.points), course.goal, moves.flag_count
    count = n * lines * flags
    at_rest = np.zeros(count, dtype=np.int64)
    sources = Layer(np.tile(np.arange(n, dtype=np.int64), lines * flags), at_rest,
                    at_rest.copy(), np.tile(np.repeat(np.arange(lines, dtype=np.int64), n), flags),
                    np.repeat(np.arange(flags, dtype=np.int64), n * lines))
    return ValueTable(StateGraph(moves, sources))


def _movement_rules(rules: RuleSet) -> RuleSet:
    """Only the options the table depends on, so variants that share them share a table."""
    return RuleSet.from_options("table", {key: rules.option(key) for key in (
        "movement.choices", "movement.must-change", "movement.launch",
        "movement.power-braking", "movement.skid-speed", "walls", "laps", "checkpoints",
        "zones.oil", "zones.jump", "zones.water", "zones.slopes", "pit-stop")})


_pars: OrderedDict[tuple[Track, RuleSet, bool, Vec | None], Solution | None] = OrderedDict()


def par(course: Course, rules: RuleSet, can_swim: bool = False,
        start: Vec | None = None) -> Solution | None:
    """The track's par (fewest moves from the best start, or from ``start``) and its optimal
    "ghost" line.

    Cached like the tables, so the window can ask for it every frame once it is prepared.
    """
    key = (course.track, _movement_rules(rules), can_swim, start)
    with _lock:
        if key in _pars:
            _pars.move_to_end(key)
            return _pars[key]
    found = solve(course, rules, start=start, can_swim=can_swim)
    with _lock:
        _pars[key] = found
        while len(_pars) > KEEP:
            _pars.popitem(last=False)
    return found
