"""Turns-to-go tables for the computer drivers, built once per track, rule set and car kind.

A table answers "how many turns from this state to the finish, driving perfectly?" for every
state a lone car can reach on the track: it is built (``racetrack.compact``: a byte or two a
state, no move kept) from every point at rest at
every progress (and every damage the car may still take), so a car put back after a crash or
stopped by a collision is covered too, and it holds the states off the track where the rules
let cars leave it. The state carries what the rules' options ask for (``Option.state``) except
a kit: a special move is valued by where it leads. Tables are kept for the rest of the
program's life.
"""

from __future__ import annotations

import contextlib
import itertools
import threading
from collections import OrderedDict
from dataclasses import dataclass

import numpy as np

from racetrack.compact import CompactBuild, CompactTable, compacted
from racetrack.course import Course
from racetrack.geometry import Vec
from racetrack.model import Kit
from racetrack.rules.ruleset import RuleSet
from racetrack.rules.transition import Cars, Transition, moves_key
from racetrack.shop import standard_kit
from racetrack.solver import (
    MEMORY_BUDGET,
    Search,
    Solution,
    SolverError,
    StateSpace,
    ValueTable,
    lone_car,
    solve,
)

#: Tables kept for reuse (a rematch on the same track and rules needs no new one).
KEEP = 6
#: Bytes a driver's table may take while it is built (its states with a bit for each plain
#: move, and the few edges that are not plain moves): the solver's own budget, so a table fits
#: wherever a solve does (it keeps six or seven bytes a state while it is built, five once
#: built, where the solver keeps eight); a track that needs more is driven by the plan.
TABLE_MEMORY = MEMORY_BUDGET
#: Bytes a table may take while it is worked out over every edge kept (quicker, where it
#: fits), and what that takes for each possible state (about a quarter of them are reached,
#: with a hundred bytes of edges and index each): a larger space is not tried that way.
EDGES_MEMORY = 256 << 20
EDGE_BYTES_PER_KEY = 24

_lock = threading.Lock()
_tables: OrderedDict[tuple, CompactTable | SolverError] = OrderedDict()


def value_table(course: Course, rules: RuleSet, can_swim: bool = False) -> CompactTable:
    """The turns-to-go table for one car kind on a course (built on first use, then cached).

    Safe to call from a background thread while the window draws: the build holds no lock.
    """
    key = (course.track, moves_key(rules), can_swim)
    with _lock:
        if key in _tables:
            _tables.move_to_end(key)
            found = _tables[key]
            if isinstance(found, SolverError):
                raise found
            return found
    try:
        table: CompactTable | SolverError = build_value_table(course, rules, can_swim)
    except SolverError as error:  # remembered: a track too large is not tried again
        table = error
    with _lock:
        _tables[key] = table
        while len(_tables) > KEEP:
            _tables.popitem(last=False)
    if isinstance(table, SolverError):
        raise table
    return table


def table_damage_limit(rules: RuleSet) -> int | None:
    """The damage limit a table is built for: the rules' own (a car with more damage points
    is looked up by the damage it can still take, up to this)."""
    return rules.damage_limit


@dataclass(frozen=True)
class TableSetup:
    """What a driver's table is built over: the transition, the columns its states carry,
    the damage limit, the states it starts from (every point at rest at every progress, and
    every value of the columns) and whether it keeps states off the track."""

    transition: Transition
    columns: tuple[str, ...]
    limit: int | None
    sources: Cars
    leave_track: bool


def table_setup(course: Course, rules: RuleSet, can_swim: bool = False) -> TableSetup:
    transition, columns, limit = lone_car(course, rules, can_swim,
                                          damage_limit=table_damage_limit(rules))
    # Nystrom's detour, Levi's crawl that must come back no farther on: a car off the track
    # carries how far from the finish it left, so its states are far too many to tabulate; the
    # table keeps to the track, and a car off it steers by the lookahead.
    carries_exit = "exit" in columns
    if carries_exit:
        columns = tuple(c for c in columns if c not in ("off", "exit"))
    points = transition.land.points
    values = {"progress": range(course.goal), "pitted": [0], "launch": [0], "damage": [0]}
    for name in ("pitted", "launch"):
        if name in columns:
            values[name] = [0, 1]
    if "damage" in columns:
        values["damage"] = range((limit or 0) + 1)
    if "areas" in columns:  # every set of checkpoint areas passed (racetrack.areas)
        values["areas"] = range(1 << transition.marks.count)
    combos = np.array(list(itertools.product(*values.values())), dtype=np.int64).reshape(
        -1, len(values))
    n, m = len(points), len(combos)
    parts = {name: np.repeat(combos[:, k], n) for k, name in enumerate(values)}
    sources = Cars(x=np.tile(points[:, 0], m), y=np.tile(points[:, 1], m), vx=np.zeros(n * m),
                   vy=np.zeros(n * m), **parts)
    return TableSetup(transition, columns, limit, sources, not carries_exit)


def build_value_table(course: Course, rules: RuleSet, can_swim: bool = False) -> CompactTable:
    """The table, kept compactly: worked out over every edge where they fit in
    ``EDGES_MEMORY`` (the quickest way, the compiled kernel's where it applies), else keeping
    a bit for each plain move instead of the move (``racetrack.compact``)."""
    setup = table_setup(course, rules, can_swim)
    space = StateSpace(setup.transition, setup.columns, setup.limit)
    edges_memory = min(EDGES_MEMORY, TABLE_MEMORY)
    if space.size * EDGE_BYTES_PER_KEY <= edges_memory:
        with contextlib.suppress(SolverError):
            return compacted(ValueTable(Search(setup.transition, setup.sources, setup.columns,
                                               setup.limit, keep_edges=True,
                                               leave_track=setup.leave_track,
                                               memory=edges_memory)))
    return CompactBuild(setup.transition, space, setup.sources, setup.limit,
                        leave_track=setup.leave_track, memory=TABLE_MEMORY).build()


_pars: OrderedDict[tuple, Solution | None] = OrderedDict()


def par_kit(rules: RuleSet) -> Kit | None:
    """The kit a lone car races a time trial with: the rules' own (none in the shop)."""
    kit = standard_kit(rules) if rules.equipment_shop == "none" else Kit()
    return kit if kit != Kit() or rules.equipment_shop == "design" else None


def par(course: Course, rules: RuleSet, can_swim: bool = False,
        start: Vec | None = None) -> Solution | None:
    """The track's par (fewest turns from the best start, or from ``start``, for a lone car
    with the rules' kit) and its optimal "ghost" line.

    Cached like the tables, so the window can ask for it every frame once it is prepared.
    """
    key = (course.track, moves_key(rules), can_swim, start)
    with _lock:
        if key in _pars:
            _pars.move_to_end(key)
            return _pars[key]
    found = solve(course, rules, start=start, can_swim=can_swim, kit=par_kit(rules))
    with _lock:
        _pars[key] = found
        while len(_pars) > KEEP:
            _pars.popitem(last=False)
    return found
