"""The drivers' turns-to-go tables: every edge a search that keeps them finds, against a plain
re-expansion of each state; and every value of the drivers' compact table (which keeps no
plain move), and of the edge-keeping table, against a plain Bellman-Ford over those edges."""

from __future__ import annotations

import numpy as np
import pytest

import racetrack.search.compact
from racetrack.board.course import Course
from racetrack.board.graphs import HashIndex
from racetrack.rules import load_rules
from racetrack.search import solver
from racetrack.search.compact import NONE16, CompactBuild, CompactTable
from racetrack.search.drivers import tables
from racetrack.search.drivers.tables import build_value_table, table_setup
from racetrack.search.solver import UNSOLVED, Search, StateSpace, ValueTable
from tests.conftest import make_track

# A 12 x 9 ring with a pit, oil and a checkpoint, small enough to relax every edge until
# nothing changes.
RING = """
    outer: [[0, 0], [12, 0], [12, 9], [0, 9]]
    holes: [[[3, 3], [9, 3], [9, 6], [3, 6]]]
    start: {a: [5, 0], b: [5, 3], forward: [1, 0]}
    checkpoints: [{a: [7, 6], b: [7, 9], forward: [-1, 0]}]
    zones: [{kind: oil, polygon: [[10, 2], [12, 2], [12, 5], [10, 5]]},
            {kind: pit, polygon: [[1, 6], [3, 6], [3, 8], [1, 8]]}]
"""


def plain_edges(table: ValueTable) -> np.ndarray:
    """Every edge out of every state, found by asking the rules about each state again and
    looking each successor up in the index: rows of source, destination, cost, crash."""
    search = table.search
    cars = search.states(np.arange(search.count))
    racing = np.flatnonzero(cars.progress < search.goal)
    src, found = search.transition.successors(cars.take(racing), search.damage_limit)
    keep = found.out == 0
    if not search.leave_track and found.left is not None:
        keep &= ~found.left
    keep = np.flatnonzero(keep)
    dst = search.index.find(search.space.encode(found.cars.take(keep)))
    assert (dst >= 0).all()
    return np.column_stack([racing[src[keep]], dst, found.cost[keep],
                            found.crashed[keep]]).astype(np.int64)


def plain_values(count: int, goals: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """Turns to go by relaxing every edge at once until nothing changes (Bellman-Ford)."""
    src, dst, cost = edges[:, 0], edges[:, 1], edges[:, 2]
    value = np.full(count, UNSOLVED, dtype=np.int64)
    value[goals] = 0
    while True:
        before = value.copy()
        np.minimum.at(value, src, np.minimum(value[dst] + cost, UNSOLVED))
        if np.array_equal(before, value):
            return value


def sorted_rows(rows: np.ndarray) -> np.ndarray:
    return rows[np.lexsort(rows.T[::-1])]


def edge_table(course: Course, rules) -> ValueTable:
    """The table over the same states as the drivers', keeping every edge."""
    setup = table_setup(course, rules)
    return ValueTable(Search(setup.transition, setup.sources, setup.columns, setup.limit,
                             keep_edges=True, leave_track=setup.leave_track))


def regenerated(course: Course, rules) -> CompactTable:
    """The drivers' table built keeping no plain move (as on a track too large for every
    edge)."""
    setup = table_setup(course, rules)
    space = StateSpace(setup.transition, setup.columns, setup.limit)
    return CompactBuild(setup.transition, space, setup.sources, setup.limit,
                        setup.leave_track).build()


@pytest.mark.parametrize("index", ["dense", "hash"])
@pytest.mark.parametrize("variant", ["gardner", "baker", "levi", "simulation", "pope",
                                     "gardner-addenda", "nystrom", "classroom"])
def test_every_edge_and_value_is_what_a_plain_search_finds(monkeypatch, variant, index):
    if index == "hash":  # the same tables whichever structure numbers the states
        monkeypatch.setattr(solver, "DenseIndex", lambda space: HashIndex())
    rules = load_rules(variant)
    course = Course(make_track(RING), laps=rules.laps)
    table = edge_table(course, rules)
    assert isinstance(table.search.index, HashIndex) == (index == "hash")
    src, dst, cost, crashed = table.search.edges()
    kept = np.column_stack([src, dst, cost, crashed]).astype(np.int64)
    plain = plain_edges(table)
    assert np.array_equal(sorted_rows(kept), sorted_rows(plain))

    count = table.search.count
    states = table.search.states(np.arange(count))
    goals = np.flatnonzero(states.progress >= table.search.goal)
    value = plain_values(count, goals, plain)
    careful = plain_values(count, goals, plain[plain[:, 3] == 0])
    assert np.array_equal(table.value, value)
    assert np.array_equal(table.careful, careful)
    assert len(goals) and (table.value[goals] == 0).all() and (table.value > 0).any()

    for compact in (regenerated(course, rules), build_value_table(course, rules)):
        assert compact.count == count
        assert np.array_equal(compact.values_of(states), value)
        assert np.array_equal(compact.values_of(states, careful=True), careful)


@pytest.mark.parametrize("edges", [True, False])
def test_the_table_keeps_a_byte_a_state_and_its_key(monkeypatch, edges):
    if not edges:  # as where every edge would not fit
        monkeypatch.setattr(tables, "EDGES_MEMORY", 0)
    rules = load_rules("gardner")
    table = build_value_table(Course(make_track(RING), laps=rules.laps), rules)
    assert table.value.itemsize == 1 and table.careful is table.value
    assert table.nbytes == table.count * (table.keys.itemsize + 1)


def test_values_past_a_byte_take_two():
    value = np.array([0, 300, NONE16], dtype=np.uint16)
    table = CompactTable(None, np.arange(3, dtype=np.uint32), value, value)
    assert table.value.itemsize == 2
    small = CompactTable(None, np.arange(3, dtype=np.uint32),
                         np.array([0, 254, NONE16], dtype=np.uint16), value)
    assert small.value.itemsize == 1 and small.value[2] == 255


@pytest.mark.parametrize("variant", ["pope", "gardner"])
def test_small_batches_build_the_same_table(monkeypatch, variant):
    """Expanded a few states at a time (cars that may launch first, in batches of their own),
    the table is the same."""
    rules = load_rules(variant)
    course = Course(make_track(RING), laps=rules.laps)
    whole = regenerated(course, rules)
    monkeypatch.setattr(racetrack.search.compact, "CHUNK", 50)
    setup = table_setup(course, rules)
    build = CompactBuild(setup.transition, StateSpace(setup.transition, setup.columns,
                                                      setup.limit),
                         setup.sources, setup.limit, setup.leave_track)
    if variant == "pope":
        assert build.launch_chunk is not None
        build.launch_chunk = 7
    small = build.build()
    assert np.array_equal(small.keys, whole.keys)
    assert np.array_equal(small.value, whole.value)
    assert np.array_equal(small.careful, whole.careful)


#: The ring with no zone: the compiled kernel expands its states under the ordinary rules.
PLAIN_RING = """
    outer: [[0, 0], [12, 0], [12, 9], [0, 9]]
    holes: [[[3, 3], [9, 3], [9, 6], [3, 6]]]
    start: {a: [5, 0], b: [5, 3], forward: [1, 0]}
    checkpoints: [{a: [7, 6], b: [7, 9], forward: [-1, 0]}]
"""


@pytest.mark.parametrize("variant", ["gardner", "classroom-24"])
def test_the_kernel_reads_the_plain_moves_backwards_as_numpy_does(variant):
    """The compiled reading of the plain moves into a state (two bytes of bits a state under
    Gardner's nine changes, four under the 25 of ``square-24``) finds the states the numpy
    reading finds, and the table it builds holds the values of the table of every edge."""
    rules = load_rules(variant)
    course = Course(make_track(PLAIN_RING), laps=rules.laps)
    table = edge_table(course, rules)
    states = table.search.states(np.arange(table.search.count))
    assert np.array_equal(regenerated(course, rules).values_of(states), table.value)
    setup = table_setup(course, rules)
    build = CompactBuild(setup.transition, StateSpace(setup.transition, setup.columns,
                                                      setup.limit),
                         setup.sources, setup.limit, setup.leave_track)
    assert build.compiled is not None
    build.keys, build.plain, _ = build._forward(setup.sources)  # (no starts found yet)
    assert build.plain.itemsize == (2 if variant == "gardner" else 4)
    ids = np.arange(0, len(build.keys), 3)
    compiled = build._plain_sources(ids)
    build.compiled = None
    by_numpy = build._plain_sources(ids)
    assert len(compiled) > len(ids) and np.array_equal(np.sort(compiled), np.sort(by_numpy))
