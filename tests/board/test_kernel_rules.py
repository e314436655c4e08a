"""The compiled kernel's ``successors`` pinned to the numpy transition, rule by rule.

The kernel judges every move of a lone car under the rules ``COMPILED_OPTIONS`` lists (leaving
the track, crashes, detours, crawls, set-backs, zones, checkpoint areas); the numpy transition
(``racetrack.engine.transition``) stays the one definition. Here both expand the same random
states and must queue the same successors at the same costs, under rule sets that between
them take every value of every option the kernel claims (``test_every_claimed_value_is_raced``
keeps that so), on tracks that have what those rules act on: zones of every kind, Levi's
rule-6 checkpoints, checkpoint areas.

The states are drawn to reach each rule: speeds over the numbering's whole range (so skids,
crashes at speed and moves beyond the track's own limit come up), cars on the start line at
rest, cars off the track (on a detour, having lost lines round their ends, crawling),
damage up to the limit, every set of areas passed.
"""

from __future__ import annotations

import os
from contextlib import contextmanager, nullcontext

import numpy as np
import pytest

from racetrack.board import kernel
from racetrack.board.course import Course
from racetrack.board.track import find_track, load_track
from racetrack.board.track.maps import import_map
from racetrack.engine.transition import COMPILED_OPTIONS, Cars, transition_for
from racetrack.rules import load_rules
from racetrack.rules.options import OPTIONS_BY_KEY
from racetrack.search.solver import Search, SolverError, lone_car, solve
from tests.conftest import make_track

pytestmark = pytest.mark.skipif(os.environ.get("RACETRACK_KERNEL") == "off",
                                reason="the kernel is switched off")

#: A ring with a zone of every kind a move can touch (oil, a jump over a post, an upgrade, a
#: downgrade, a puddle of water) and a checkpoint on the far straight.
ZONES = make_track("""
    outer: [[0, 0], [24, 0], [24, 16], [0, 16]]
    holes: [[[6, 6], [18, 6], [18, 10], [6, 10]], [[20.5, 7.5], [21.5, 7.5], [21.5, 8.5],
             [20.5, 8.5]]]
    start: {a: [12, 0], b: [12, 6], forward: [1, 0]}
    checkpoints: [{a: [12, 10], b: [12, 16], forward: [-1, 0]}]
    zones:
    - {kind: oil, polygon: [[14, 1], [17, 1], [17, 4], [14, 4]]}
    - {kind: jump, polygon: [[19, 6.5], [23, 6.5], [23, 9.5], [19, 9.5]]}
    - {kind: upgrade, polygon: [[14, 11], [18, 11], [18, 15], [14, 15]]}
    - {kind: downgrade, polygon: [[6, 11], [10, 11], [10, 15], [6, 15]]}
    - {kind: water, polygon: [[1, 7], [5, 7], [5, 9], [1, 9]]}
""", "Zones")


def _rules(name: str, **changes):
    return load_rules(name).replace(**changes)


#: The rule sets raced, by the track they race on: between them every value the kernel claims
#: of every option that changes a lone car's moves.
VARIANTS = {
    "gardner": ("zones", _rules("gardner")),
    "moving-first": ("zones", _rules("gardner", movement_first_move="moving",
                                     movement_skid_speed=1, zones_oil="none")),
    "skidding": ("zones", _rules("skidding", movement_must_change=True)),
    "slopes": ("zones", _rules("gardner", zones_slopes="force", zones_water="none",
                               walls="off-track", checkpoints="ignored", laps=2)),
    "baker": ("zones", _rules("baker")),
    "baker-tight": ("zones", _rules("baker", damage_limit=0, crash_miss_turns=2,
                                    zones_jump="fly", walls="off-track", pit_stop="required")),
    "baker-free": ("oval", _rules("baker", damage_limit=None, crash_damage="none")),
    "classroom": ("zones", _rules("classroom")),
    "classroom-24": ("oval", _rules("classroom-24")),
    "simulation": ("zones", _rules("simulation")),
    "nystrom": ("zones", _rules("nystrom")),
    "nystrom-oval": ("oval", _rules("nystrom", crash_outcome="out")),
    "levi": ("oval", _rules("levi")),
    "levi-zones": ("zones", _rules("levi", crawl_step=2, movement_choices="square")),
    "levi-as-written": ("oval", _rules("levi", crawl_return="anywhere", crawl_step=3,
                                       start_line_checkpoints="none")),
    "karopapier": ("areas", _rules("karopapier")),
    "karopapier-stays": ("areas", _rules("karopapier", crash_set_back=0,
                                         areas_checkpoints="ignored")),
}

#: Values sampled of options that take whole numbers (every value of the others is raced).
SAMPLED = {"movement.skid-speed": {None, 1, 4}, "crash.set-back": {0, 2},
           "crash.miss-turns": {0, 1, 2}, "damage-limit": {None, 0, 5}, "laps": {None, 2},
           "crawl-step": {1, 2, 3}, "movement.power-braking-limit": {2}}
#: Options whose values change nothing a lone car without a kit does (a kit is not compiled).
KIT = {"equipment.brakes", "equipment.turbo", "equipment.shop", "equipment.brakes-reach",
       "equipment.turbo-reach", "equipment.boosters-reach"}


def course_for(track_name: str, rules) -> Course:
    if track_name == "zones":
        track = ZONES
    elif track_name == "areas":
        from racetrack.board.track.maps import bundled_map_paths

        path = next(p for p in bundled_map_paths() if p.name == "karo-zigzag.txt")
        track = import_map(path).track()
    else:
        track = load_track(find_track(track_name))
    return Course.for_rules(track, rules)


@contextmanager
def numpy_only():
    """Courses and transitions built inside answer in numpy alone."""
    was, kernel.ENABLED = kernel.ENABLED, False
    try:
        yield
    finally:
        kernel.ENABLED = was


def random_states(transition, columns, limit, rng: np.random.Generator, n: int = 400,
                  top_speed: bool = False) -> Cars:
    """States a lone car may be in, drawn to reach every rule: points of the track at any
    speed the numbering holds short of the last step (most of them too fast to stay on; with
    ``top_speed`` up to the bound itself, where a legal move may lie beyond it), a few at rest
    on the start points; where the rules let a car leave the track, points off it with the
    exit and lines lost a detour carries; damage up to the limit, any set of areas passed."""
    from racetrack.search.solver import StateSpace

    space = StateSpace(transition, columns, limit)
    goal = transition.goal
    land = transition.land.points
    grid = transition.grid
    pick = rng.integers(0, len(land), n)
    x, y = land[pick, 0].copy(), land[pick, 1].copy()
    fast = rng.random(n) < 0.5
    margin = 0 if top_speed else transition.step
    top_x, top_y = space.vmax_x - margin, space.vmax_y - margin
    slow_x, slow_y = rng.integers(-5, 6, n), rng.integers(-5, 6, n)
    vx = np.where(fast, rng.integers(-top_x, top_x + 1, n), slow_x.clip(-top_x, top_x))
    vy = np.where(fast, rng.integers(-top_y, top_y + 1, n), slow_y.clip(-top_y, top_y))
    progress = rng.integers(0, goal, n)
    off = np.zeros(n, dtype=np.int64)
    exit_ = np.zeros(n, dtype=np.int64)
    columns_all = {"off": off, "exit": exit_}
    starts = np.array(transition.course.start_positions)[: n // 10]
    k = len(starts)
    x[:k], y[:k], vx[:k], vy[:k] = starts[:, 0], starts[:, 1], 0, 0
    progress[:k] = transition.course.start_progress
    if "off" in columns:  # a third off the track, anywhere on the paper but the land
        sheet = grid.all_points()
        away = sheet[transition.land.index[grid.cells(sheet[:, 0], sheet[:, 1])] < 0]
        rows = np.arange(k, n)[rng.random(n - k) < 0.33]
        spot = rng.integers(0, len(away), len(rows))
        x[rows], y[rows] = away[spot, 0], away[spot, 1]
        off[rows] = 1
        if transition.keeps_exit:
            lost = rng.integers(0, 3, len(rows))
            lost = np.minimum(lost, goal - 1 - progress[rows])
            off[rows] = 1 + np.maximum(lost, 0)
            left = rng.integers(0, len(land), len(rows))
            when = np.minimum(progress[rows] + rng.integers(0, 2, len(rows)), goal)
            exit_[rows] = transition.exit_units(land[left, 0], land[left, 1], when,
                                                np.zeros(len(rows), np.int64))
            exit_[rows] = np.clip(exit_[rows] + rng.integers(-1, 2, len(rows)), 0,
                                  transition.exit_cap)
    extra = {name: columns_all[name] for name in ("off", "exit") if name in columns}
    if "damage" in columns:
        extra["damage"] = np.maximum(limit - rng.integers(0, 3, n), 0)
    if "areas" in columns:
        extra["areas"] = rng.integers(0, 1 << transition.marks.count, n)
    cars = Cars(x=x, y=y, vx=vx, vy=vy, progress=progress, **extra)
    cars = cars.take(np.flatnonzero(space.fits(cars)))
    # (states the search numbers alike, as it numbers a crawling car at rest, are one)
    first = np.unique(space.encode(cars), return_index=True)[1]
    return cars.take(np.sort(first))


def one_turn(track_name: str, rules, seed: int, compiled: bool, leave_track: bool = True,
             top_speed: bool = False):
    """What one turn leads to from random states, as the search queues it with the kernel's
    ``successors`` or with the numpy transition alone: sorted (state, successor, cost) rows,
    or the error a legal move beyond the speed bound raises."""
    with nullcontext() if compiled else numpy_only():
        course = course_for(track_name, rules)
        course = Course(course.track, course.laps, rules.checkpoints == "in-order",
                        rules.start_line_checkpoints == "overlaps")
        transition, columns, limit = lone_car(course, rules)
        if not leave_track:  # as the drivers' tables have it: the track kept to
            columns = tuple(c for c in columns if c not in ("off", "exit"))
        assert transition.compiled == compiled
        cars = random_states(transition, columns, limit, np.random.default_rng(seed),
                             top_speed=top_speed)
        search = Search(transition, cars, columns, limit, run=False, leave_track=leave_track)
        assert (search.kernel_rules is not None or search.compiled is not None) == compiled
        try:
            rows, after, cost = search.one_turn(cars)
        except SolverError as error:
            return str(error)
    names = ("x", "y", "vx", "vy", "progress", "off", "exit", "damage", "areas")
    return sorted(zip(rows.tolist(), *(getattr(after, n).tolist() for n in names),
                      cost.tolist(), strict=True))


@pytest.mark.parametrize("name", VARIANTS)
def test_the_kernel_queues_what_the_numpy_transition_does(name):
    track_name, rules = VARIANTS[name]
    for seed in range(2):
        compiled = one_turn(track_name, rules, seed, True)
        reference = one_turn(track_name, rules, seed, False)
        assert compiled == reference, (name, seed)
        assert not isinstance(compiled, str) and len(compiled) > 100
    # At the speed bound itself a legal move may lie beyond it: both refuse the search alike.
    assert one_turn(track_name, rules, 9, True, top_speed=True) \
        == one_turn(track_name, rules, 9, False, top_speed=True)


@pytest.mark.parametrize("name", ["levi", "nystrom"])
def test_the_kernel_keeps_to_the_track_as_the_tables_do(name):
    """The drivers' tables keep to the track under rules that carry a detour's exit: a move
    off it is legal (the car is not stuck) but not followed."""
    track_name, rules = VARIANTS[name]
    compiled = one_turn(track_name, rules, 5, True, leave_track=False)
    assert compiled == one_turn(track_name, rules, 5, False, leave_track=False)


def test_every_claimed_value_is_raced():
    """Every value ``COMPILED_OPTIONS`` claims of an option (a sample of the whole numbers)
    is raced by some rule set above: a claim the differential tests never exercise is not
    made."""
    for key, allowed in COMPILED_OPTIONS.items():
        if key in KIT:
            continue
        option = OPTIONS_BY_KEY[key]
        if allowed is not None:
            values = set(allowed)
        elif option.choices:
            values = set(option.choices)
        elif option.is_bool:
            values = {False, True}
        else:
            values = SAMPLED[key]
        raced = {rules.option(key) for _, rules in VARIANTS.values()}
        assert values <= raced, (key, values - raced)


def test_the_states_drawn_reach_each_rule():
    """The generator above is worth its name: among its states are cars fast enough to skid,
    at the numbering's speed limit, at rest on a start point, off the track having lost a
    line, at the damage limit."""
    _, rules = VARIANTS["nystrom"]
    course = course_for("zones", rules)
    transition, columns, limit = lone_car(course, rules)
    cars = random_states(transition, columns, limit, np.random.default_rng(0))
    from racetrack.search.solver import StateSpace

    space = StateSpace(transition, columns, limit)
    speed = np.maximum(np.abs(cars.vx), np.abs(cars.vy))
    assert (speed >= 4).sum() > 50 and (np.abs(cars.vx) == space.vmax_x - 1).any()
    fastest = random_states(transition, columns, limit, np.random.default_rng(0), top_speed=True)
    assert (np.abs(fastest.vx) == space.vmax_x).any()
    assert (cars.off > 1).any() and (cars.off == 1).any() and (cars.damage == limit).any()
    assert ((speed == 0) & (cars.progress == course.start_progress)).any()


@pytest.mark.parametrize("name", ["baker", "nystrom", "levi", "classroom", "simulation",
                                  "karopapier"])
def test_optima_are_the_same_with_the_kernel_and_without(name):
    _, rules = VARIANTS[name]
    track = load_track(find_track("riddler-opolis"))
    def fresh() -> Course:  # never the shared course: its transition is kept with it
        return Course(track, rules.laps, rules.checkpoints == "in-order",
                      rules.start_line_checkpoints == "overlaps")

    with numpy_only():
        expected = solve(fresh(), rules)
    found = solve(fresh(), rules)
    assert found.moves == expected.moves and found.states > 0


def test_rules_the_kernel_does_not_judge_go_to_numpy():
    """Launches, power braking, finishing off the track, and a pit to stop in: the transition
    says so, and the search uses numpy."""
    track = load_track(find_track("oval"))
    for name in ("pope", "gordon", "sutton-barto"):
        rules = load_rules(name)
        assert not transition_for(Course.for_rules(track, rules), rules).compiled, name
    rules = load_rules("gardner-addenda")
    pits = load_track(find_track("pit-lane"))
    assert not transition_for(Course.for_rules(pits, rules), rules).compiled
