"""A race's moves: the current car's candidate points, each with the rules' verdict.

The rules of a car's own move live in the transition (``racetrack.engine.transition``); this
module asks it about one car, as a batch of one, and adds what only a race knows: the other cars
on the track (a point may be taken, or a collision forced) and the oil sprayed during the race.
It also turns a car's state into the transition's columns and back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np
from shapely.geometry.base import BaseGeometry

from racetrack.board.course import Course
from racetrack.board.geometry import Vec
from racetrack.engine.model import Candidate, CarSetup, CarState, Refusal, Special
from racetrack.engine.movement import (  # noqa: F401  (re-exported for callers)
    CHANGES,
    CRAWL_STEPS,
    SPECIALS,
    power_brakes,
    special_velocities,
)
from racetrack.engine.transition import (
    COLLISION,
    COLUMNS,
    CRASH,
    EXIT_CAP,
    KINDS,
    REFUSALS,
    SPECIAL_CODES,
    Cars,
    Moves,
    Successors,
    Transition,
    pit_stop_required,
    transition_for,
)
from racetrack.rules.ruleset import RuleSet

__all__ = ["CHANGES", "CRAWL_STEPS", "SPECIALS", "candidates", "car_after", "car_batch",
           "pit_stop_required", "power_brakes", "race_moves", "special_velocities",
           "successors_of", "swims", "to_candidates", "transition_of"]


def swims(setup: CarSetup, car: CarState | None = None) -> bool:
    """Whether a car may cross water: it was set up so, or it carries a submarine."""
    return setup.can_swim or (car is not None and car.kit.submarine)


def transition_of(course: Course, rules: RuleSet, setup: CarSetup,
                  car: CarState | None = None) -> Transition:
    return transition_for(course, rules, swims(setup, car))


def car_batch(car: CarState) -> Cars:
    """One car's state as a batch of one for the transition."""
    exit_units = 0 if car.exit_distance is None else int(round(car.exit_distance * 5))
    kit = car.kit
    row = np.array([[car.position.x], [car.position.y], [car.velocity.x], [car.velocity.y],
                    [car.progress], [int(car.pitted)], [int(car.launch)],
                    [int(car.off_track) + car.lines_lost * int(car.off_track)],
                    [min(exit_units, EXIT_CAP)], [car.damage], [kit.brakes],
                    [kit.turbo], [kit.boosters], [car.areas]], dtype=np.int32)
    return Cars(**dict(zip(COLUMNS, row, strict=True)))


def car_after(car: CarState, after: Cars, i: int = 0) -> CarState:
    """``car`` changed to row ``i`` of the transition's states (what it does not hold, such
    as the car's status, money and gadgets, is kept)."""
    off = bool(after.off[i])
    return replace(car, position=Vec(int(after.x[i]), int(after.y[i])),
                   velocity=Vec(int(after.vx[i]), int(after.vy[i])),
                   progress=int(after.progress[i]), pitted=bool(after.pitted[i]),
                   launch=bool(after.launch[i]), off_track=off,
                   exit_distance=int(after.exit[i]) / 5 if off and after.exit[i] else None,
                   lines_lost=max(int(after.off[i]) - 1, 0),
                   damage=int(after.damage[i]), areas=int(after.areas[i]),
                   kit=replace(car.kit, brakes=int(after.brakes[i]), turbo=int(after.turbo[i]),
                               boosters=int(after.boosters[i])))


def race_moves(course: Course, rules: RuleSet, setups: Sequence[CarSetup],
               cars: Sequence[CarState], index: int,
               oil: Sequence[BaseGeometry] = (), passable: frozenset[int] = frozenset(),
               ) -> Moves:
    """The transition's judged moves for car ``index``, with the other cars on the track taken
    into account (``Moves.other`` names the car whose point a refused move would take).
    ``oil`` is extra oil sprayed during the race (James Bond mode); the cars in ``passable``
    do not stand in its way (cars that held each other up, under ``stalled: pass``)."""
    car, setup = cars[index], setups[index]
    moves = transition_of(course, rules, setup, car).candidates(car_batch(car), oil)
    assert moves.kind is not None and moves.legal is not None and moves.refusal is not None
    moves.other = np.full(len(moves), -1, dtype=np.int16)
    others = [(j, c.position) for j, c in enumerate(cars)
              if j != index and c.racing and j not in passable]
    if not others or rules.cars == "shared":
        return moves
    ids = np.array([j for j, _ in others], dtype=np.int16)
    where = np.array([(p.x, p.y) for _, p in others])
    at = (moves.tx[:, None] == where[None, :, 0]) & (moves.ty[:, None] == where[None, :, 1])
    # The last car listed at a point names it (cars never share a point unless shared).
    last = len(others) - 1 - np.argmax(at[:, ::-1], axis=1)
    taken = np.where(at.any(axis=1), ids[last], -1).astype(np.int16)
    blocking = (taken >= 0) & (moves.kind != CRASH)
    legal = moves.legal
    if rules.cars == "forbidden":
        why = Refusal.OCCUPIED
    else:  # collide: only when every other move is impossible
        clean = legal & ~blocking & (moves.kind != CRASH)
        if not clean.any():
            moves.kind[blocking & legal] = COLLISION
            return moves
        why = Refusal.AVOIDABLE_COLLISION
    newly = blocking & legal
    moves.refusal[newly] = REFUSALS.index(why)
    moves.other[newly] = taken[newly]
    legal[blocking] = False
    return moves


def to_candidates(moves: Moves, rules: RuleSet, setups: Sequence[CarSetup],
                  rows: Sequence[int] | None = None) -> list[Candidate]:
    """Judged moves (of one car) as the candidates players and drivers see."""
    assert moves.kind is not None and moves.legal is not None and moves.refusal is not None
    found = []
    # Plain Python numbers first: reading numpy scalars one by one costs more than the rules.
    legal_, refusal_, kind_, special_, unchanged_ = (
        v.tolist() for v in (moves.legal, moves.refusal, moves.kind, moves.special,
                             moves.unchanged))
    tx, ty, wx, wy = (v.tolist() for v in (moves.tx, moves.ty, moves.wx, moves.wy))
    other_ = [-1] * len(moves) if moves.other is None else moves.other.tolist()
    for i in range(len(moves)) if rows is None else rows:
        legal = legal_[i]
        refusal = Refusal.NONE if legal else REFUSALS[refusal_[i]]
        other = other_[i]
        detail: object = setups[other].name if other >= 0 else \
            rules.movement_skid_speed if refusal is Refusal.SKID else ""
        found.append(Candidate(target=Vec(tx[i], ty[i]), velocity=Vec(wx[i], wy[i]),
                               legal=legal, kind=KINDS[kind_[i]], reason=refusal.text(detail),
                               unchanged=unchanged_[i], note=SPECIAL_CODES[special_[i]],
                               refusal=refusal))
    return found


def candidates(course: Course, rules: RuleSet, setups: Sequence[CarSetup],
               cars: Sequence[CarState], index: int,
               oil: Sequence[BaseGeometry] = ()) -> list[Candidate]:
    """Every point car ``index`` might go to this turn, legal or not, and why not.
    ``oil`` is extra oil sprayed during the race (James Bond mode)."""
    return to_candidates(race_moves(course, rules, setups, cars, index, oil), rules, setups)


def moves_of(candidates_: Sequence[Candidate], car: CarState) -> Moves:
    """Candidates (of one car) back as the transition's judged moves."""
    n = len(candidates_)
    return Moves(row=np.zeros(n, dtype=np.int64),
                 wx=np.array([c.velocity.x for c in candidates_], dtype=np.int32),
                 wy=np.array([c.velocity.y for c in candidates_], dtype=np.int32),
                 special=np.array([SPECIAL_CODES.index(c.note) for c in candidates_],
                                  dtype=np.int8),
                 tx=np.array([c.target.x for c in candidates_], dtype=np.int32),
                 ty=np.array([c.target.y for c in candidates_], dtype=np.int32),
                 kind=np.array([KINDS.index(c.kind) for c in candidates_], dtype=np.int8),
                 legal=np.array([c.legal for c in candidates_], dtype=bool),
                 unchanged=np.array([c.unchanged for c in candidates_], dtype=bool))


def successors_of(course: Course, rules: RuleSet, setup: CarSetup, car: CarState,
                  candidates_: Sequence[Candidate], damage_limit: int | None = None,
                  ) -> Successors:
    """Where each of a car's candidates leads it, if it were alone on the track: its state
    after the move (a crash puts it back, or out), the turns the move costs and whether it is
    out. A race adds collisions and what the other cars do."""
    transition = transition_of(course, rules, setup, car)
    return transition.after(car_batch(car), moves_of(candidates_, car), None, damage_limit)


#: Special moves that spend a use of the car's kit.
SPENDING = frozenset(s for s in Special if s.item)
