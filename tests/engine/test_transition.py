"""The transition against the game: state by state, the same moves lead to the same places.

For random tracks (a ring with zones of every kind) and every bundled variant, a random state
of a lone car is given to the game (a race with one car) and to the solver's search. Every legal
move the game offers, applied, must give exactly one of the search's successors with the same
cost in turns (crashes and missed turns included), and every successor must come from one of
the game's moves; a car with no legal move must crash the same way in both.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest
import shapely
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from racetrack.base.errors import TrackError
from racetrack.board.course import Course
from racetrack.board.distance import distance_field
from racetrack.board.geometry import Vec
from racetrack.board.track import parse_track
from racetrack.engine.model import CarSetup, CarState, CarStatus, EventKind, Kit, Move
from racetrack.engine.moves import car_batch
from racetrack.engine.transition import COLUMNS, Cars, transition_for
from racetrack.games.race import Race, RaceState
from racetrack.rules import bundled_variant_names, load_rules
from racetrack.search.solver import Search, lone_car

VARIANTS = bundled_variant_names()
ZONE_KINDS = ("oil", "jump", "water", "upgrade", "downgrade", "pit")


@st.composite
def tracks(draw):
    """A random ring (a star-shaped outline around a hexagonal hole) with a few square zones
    lying across it and, sometimes, a checkpoint; sometimes a checkpoint area and a finish
    area (format version 2) instead of a finish line."""
    n = draw(st.integers(5, 8))
    radii = draw(st.lists(st.floats(6.5, 9.5), min_size=n, max_size=n))
    inner = draw(st.floats(1.5, 3.0))
    outer = [[round(r * math.cos(2 * math.pi * i / n), 2),
              round(r * math.sin(2 * math.pi * i / n), 2)] for i, r in enumerate(radii)]
    hole = [[round(inner * math.cos(2 * math.pi * i / 6), 2),
             round(inner * math.sin(2 * math.pi * i / 6), 2)] for i in range(6)]
    zones = []
    middle = (inner + min(radii)) / 2
    for kind in draw(st.lists(st.sampled_from(ZONE_KINDS), max_size=3, unique=True)):
        angle = draw(st.floats(0, 2 * math.pi))
        x, y = round(middle * math.cos(angle)), round(middle * math.sin(angle))
        size = draw(st.integers(1, 2))
        zones.append(f"{{kind: {kind}, polygon: [[{x - 0.5}, {y - 0.5}], [{x + size - 0.5}, "
                     f"{y - 0.5}], [{x + size - 0.5}, {y + size - 0.5}], "
                     f"[{x - 0.5}, {y + size - 0.5}]]}}")
    checkpoint = ""
    if draw(st.booleans()):
        checkpoint = (f"checkpoints: [{{a: [0, {inner}], b: [0, {min(radii) - 0.5}], "
                      "forward: [-1, 0]}]\n")
    areas = ""
    if draw(st.booleans()):
        squares = []
        for _ in range(2):
            angle = draw(st.floats(0, 2 * math.pi))
            x, y = round(middle * math.cos(angle)), round(middle * math.sin(angle))
            squares.append(f"[[{x - 1.5}, {y - 1.5}], [{x + 1.5}, {y - 1.5}], "
                           f"[{x + 1.5}, {y + 1.5}], [{x - 1.5}, {y + 1.5}]]")
        areas = f"checkpoint-areas: [[{squares[0]}]]\nfinish-area: [{squares[1]}]\n"
    text = (f"name: Random\nouter: {outer}\nholes: [{hole}]\n"
            f"start: {{a: [0, {-inner}], b: [0, {-min(radii) + 0.5}], forward: [1, 0]}}\n"
            + checkpoint)
    zoned = f"zones: [{', '.join(zones)}]\n" if zones else ""
    # A zone or an area that does not fit the track: race without it.
    for drawn, zoning in ((areas, zoned), (areas, ""), ("", zoned), ("", "")):
        try:
            return parse_track(f"racetrack-track: {2 if drawn else 1}\n" + text + drawn
                               + zoning)
        except TrackError:
            continue
    raise AssertionError("the plain ring is a valid track")


def random_car(data, course: Course, rules) -> CarState:
    """A car somewhere on (or, where the rules allow it, off) the track, with whatever the
    rules make it carry."""
    transition = transition_for(course, rules)
    off = rules.leaving_track in ("detour", "crawl") and data.draw(st.booleans(), label="off")
    if off:
        grid = transition.grid
        x = data.draw(st.integers(grid.x0, grid.x0 + grid.width - 1), label="x")
        y = data.draw(st.integers(grid.y0, grid.y0 + grid.height - 1), label="y")
        assume(not transition.land.contains(np.array([x]), np.array([y]))[0])
    else:
        points = transition.land.points
        x, y = (int(v) for v in points[data.draw(st.integers(0, len(points) - 1),
                                                 label="point")])
    crawling = off and rules.leaving_track == "crawl"
    if crawling:
        vx, vy = data.draw(st.sampled_from([(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)
                                            if dx or dy]), label="step")
    else:
        vx = data.draw(st.integers(-3, 3), label="vx")
        vy = data.draw(st.integers(-3, 3), label="vy")
    progress = data.draw(st.integers(0, course.goal - 1), label="progress")
    exit_distance = None
    if off and "exit" in transition.columns():  # a detour, or a crawl back no farther on
        field = distance_field(course, rules.boundary_counts)
        points = transition.land.points
        px, py = points[data.draw(st.integers(0, len(points) - 1), label="exit point")]
        exit_distance = int(transition.exit_units(np.array([px]), np.array([py]),
                                                  np.array([progress]))[0]) / 5
        assert field is not None
    limit = rules.damage_limit
    kit = Kit()
    if rules.equipment_brakes or rules.equipment_turbo or rules.equipment_shop == "design":
        kit = Kit(brakes=data.draw(st.integers(0, 2), label="brakes"),
                  turbo=data.draw(st.integers(0, 2), label="turbo"),
                  boosters=data.draw(st.integers(0, 1), label="boosters"),
                  damage=0 if rules.equipment_shop == "none" else (limit or 0))
    count = transition.marks.count
    areas = data.draw(st.integers(0, (1 << count) - 1), label="areas") if count else 0
    return CarState(position=Vec(x, y), velocity=Vec(vx, vy), progress=progress, areas=areas,
                    pitted=data.draw(st.booleans(), label="pitted"),
                    launch=vx == 0 and vy == 0 and data.draw(st.booleans(), label="launch"),
                    off_track=off, exit_distance=exit_distance,
                    damage=data.draw(st.integers(0, limit or 0), label="damage"), kit=kit)


def row_of(car: CarState, columns: tuple[str, ...], goal: int,
           finish_anywhere: bool = False, crawl: bool = False) -> tuple[int, ...]:
    """The columns the search carries (a finished car's extras count for nothing there, nor,
    where the race may end off the track, its speed: such a state is its point alone; a
    crawling car is numbered at rest, ``StateSpace.encode``)."""
    batch = car_batch(car)
    names = (*COLUMNS[:5], *columns)
    if car.progress >= goal:
        zeroed = set(range(5, len(names))) | ({2, 3} if finish_anywhere else set())
    else:
        zeroed = {2, 3} if crawl and car.off_track else set()  # vx, vy
    return tuple(0 if k in zeroed else int(getattr(batch, name)[0])
                 for k, name in enumerate(names))


def game_successors(race: Race, car: CarState, columns) -> set[tuple]:
    """Every legal move of the lone car, applied by the game: (state, turns it cost). The game
    plays on until the car has a choice to make: a car left with no legal move crashes, and
    turns it must miss go by."""
    state = RaceState(race, [car])
    events = state.take_events()
    if any(e.kind is EventKind.STUCK for e in events):
        return {_outcome(state, events, columns, 0)}
    found = set()
    for move in state.legal_moves():
        after = state.clone()
        found.add(_outcome(after, after.apply(Move(move.target)), columns, 1))
    return found


def _outcome(state: RaceState, events, columns, moves: int) -> tuple:
    car = state.cars[0]
    if car.status is CarStatus.OUT:
        return ("out",)
    turns = moves + sum(e.kind in (EventKind.MISSED_TURN, EventKind.STUCK) for e in events)
    anywhere = state.race.rules.finish_landing == "anywhere"
    crawl = state.race.rules.leaving_track == "crawl"
    return (*row_of(car, columns, state.course_of(0).goal, anywhere, crawl), turns)


def search_successors(race: Race, car: CarState) -> tuple[set[tuple], tuple[str, ...]]:
    """The same, as the solver's search sees them (out cars have no successor there), played
    on in the same way while the car has no legal move."""
    kit = car.kit if (car.kit.brakes or car.kit.turbo or car.kit.boosters) else None
    transition, columns, limit = lone_car(race.course, race.rules, kit=kit,
                                          damage_limit=race.rules.damage_limit
                                          if race.rules.equipment_shop == "none"
                                          else car.kit.damage)
    names = (*COLUMNS[:5], *columns)
    source = car_batch(car)
    search = Search(transition, Cars(**{n: getattr(source, n) for n in names}), columns, limit,
                    kit, run=False)

    def rows(cars: Cars) -> list[tuple[int, ...]]:
        return [tuple(int(getattr(cars, n)[i]) for n in names) for i in range(len(cars))]

    def settle(state: tuple[int, ...], cost: int, depth: int = 0) -> set[tuple]:
        batch = Cars(**dict(zip(names, ([v] for v in state), strict=True)))
        moves = transition.candidates(batch, explain=False)
        if state[4] >= transition.goal or moves.legal.any():
            return {(*state, cost)}
        if depth >= 3:  # (a fixed example never gets this deep)
            assume(False)
        _, after, more = search.one_turn(batch)
        found = set()
        for row, extra in zip(rows(after), more, strict=True):
            found |= settle(row, cost + int(extra), depth + 1)
        return found

    first = Cars(**{n: getattr(source, n) for n in names})
    if not transition.candidates(first, explain=False).legal.any():
        return settle(rows(first)[0], 0), columns
    _, after, cost = search.one_turn(source)
    found: set[tuple] = set()
    for row, c in zip(rows(after), cost, strict=True):
        found |= settle(row, int(c))
    return found, columns


@pytest.mark.parametrize("variant", VARIANTS)
@settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))
@given(track=tracks(), data=st.data())
def test_the_games_moves_are_the_searchs_successors(variant, track, data):
    rules = load_rules(variant).replace(start_grid="spread")  # no choosing: the car is placed
    if rules.crash_outcome == "set-back":
        # A set-back goes back along the car's own way, which a lone car's search does not
        # carry; set back by no moves, the two must agree exactly (longer set-backs:
        # tests/board/test_areas.py).
        rules = rules.replace(crash_set_back=0)
    race = Race(track, rules, [CarSetup("Solo")])
    car = random_car(data, race.course, rules)
    expected, columns = search_successors(race, car)
    game = game_successors(race, car, columns)
    assert {g for g in game if g != ("out",)} == expected


def test_example_a_crash_that_puts_the_car_over_the_finish_misses_no_turn_after_it():
    """One fixed state, kept as an example (the random states above found it). The simulation
    sheet: a crashed car stops near the boundary "and miss[es] a turn". Put
    back at the end of the finish line, the car has finished with the crash, so the game
    counts no missed turn after it, and the search must not either (found by the random
    states above: the game said 2 turns, the search 3)."""
    track = parse_track(
        "racetrack-track: 1\nname: Pentagon\n"
        "outer: [[7, 0], [2.16, 6.66], [-5.66, 4.11], [-5.26, -3.82], [2.32, -7.13]]\n"
        "holes: [[[3, 0], [1.5, 2.6], [-1.5, 2.6], [-3, 0], [-1.5, -2.6], [1.5, -2.6]]]\n"
        "start: {a: [0, -3], b: [0, -6], forward: [1, 0]}\n"
        "checkpoints: [{a: [0, 3], b: [0, 6], forward: [-1, 0]}]\n")
    rules = load_rules("simulation").replace(start_grid="spread")
    race = Race(track, rules, [CarSetup("Solo")])
    car = CarState(Vec(-5, 0), Vec(2, -3), progress=2)
    expected, columns = search_successors(race, car)
    game = game_successors(race, car, columns)
    assert game == expected
    finished = [row for row in game if row[4] == race.course.goal]
    assert finished == [(0, -6, 0, 0, 3, 2)]  # its move, then the crash with no choice left


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(track=tracks(), walls=st.sampled_from(["touching-allowed", "off-track"]),
       data=st.data())
def test_a_lone_cars_legal_moves_are_the_nine_points_whose_move_stays_on_the_track(
        track, walls, data):
    """Gardner's rule said plainly, with shapely alone: from any point of the track with any
    velocity, the car may go to the nine points round where its velocity leads, and it is
    allowed exactly those whose whole move lies on the track (its edge counting as track
    where touching is allowed). Zones are left off the track: they have rules of their own."""
    track = replace(track, zones=())
    # The first move from the start has its own rule (movement.first-move): left free here.
    rules = load_rules("gardner").replace(walls=walls, movement_first_move="free")
    race = Race(track, rules, [CarSetup("Solo")])
    points = transition_for(race.course, rules).land.points
    assume(len(points))
    x, y = (int(v) for v in points[data.draw(st.integers(0, len(points) - 1), label="point")])
    vx = data.draw(st.integers(-5, 5), label="vx")  # past the ring's width: crashes too
    vy = data.draw(st.integers(-5, 5), label="vy")
    state = RaceState(race, [CarState(Vec(x, y), Vec(vx, vy))])
    assume(state.current_car == 0)  # a car with no legal move at all crashes at once

    paper = shapely.Polygon(track.outer, track.holes)
    stays_on = shapely.covers if walls == "touching-allowed" else shapely.contains_properly
    here = Vec(x, y)
    nine = {Vec(x + vx + dx, y + vy + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)} - {here}
    expected = {p for p in nine if stays_on(paper, shapely.LineString([(x, y), tuple(p)]))}
    # Staying put (from rest) moves no distance: not a move the wall can judge, left out.
    assert {c.target for c in state.legal_moves()} - {here} == expected
