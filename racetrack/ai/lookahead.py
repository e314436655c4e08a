"""A two-move lookahead by the distance-to-go field: the fallback for states off the table.

The value table covers every state on the track; a car that has left it (Nystrom's detour,
Levi's crawl) is steered by this instead: it scores each legal move by the best place it leads
to one move later, measured as squares still to go along the track.
"""

from __future__ import annotations

from dataclasses import replace

from racetrack.ai.planner import guide_field
from racetrack.game import RaceState
from racetrack.model import Candidate, CarState, MoveKind
from racetrack.rules.moves import candidates as generate_candidates
from racetrack.rules.moves import car_after, pit_stop_required, successors_of

#: Score added for a move after which the car would have no legal move at all.
DEAD_END = 1e12
#: Score added for a move that crashes, collides or leaves the track.
TROUBLE = 60.0
#: Score of any place before the pit stop, where one is required: more than any distance to
#: go, so a car heads for the nearest pit first and stops there, then races.
PIT_FIRST = 1e9


def lookahead_scores(state: RaceState, options: list[Candidate]) -> list[float]:
    """A score per candidate (lower is better): squares to go after the best next move."""
    return [_score(state, candidate) for candidate in options]


def _estimate(state: RaceState, index: int, car: CarState) -> float:
    """Squares still to go for a car in this state (to the pit first, if it owes a stop)."""
    race = state.race
    course = race.course_of(index)
    field = guide_field(state, index)
    if pit_stop_required(course, race.rules) and not car.pitted:
        return PIT_FIRST + field.to_pit(car.position)
    return field(car.position, car.progress, car.areas)


def _score(state: RaceState, first: Candidate) -> float:
    race = state.race
    index = state.current_car
    assert index is not None
    course = race.course_of(index)
    car, setup = state.cars[index], race.cars[index]
    penalty = TROUBLE if first.kind in (MoveKind.CRASH, MoveKind.COLLISION, MoveKind.LEAVE,
                                        MoveKind.OFF) else 0.0
    if first.kind is MoveKind.PLACE:
        return _estimate(state, index, replace(car, position=first.target))
    limit = state.damage_limit(index)
    found = successors_of(course, race.rules, setup, car, [first], limit)
    if found.out[0]:
        return DEAD_END + _estimate(state, index, car) + penalty
    moved = car_after(car, found.cars)
    if moved.progress >= course.goal:
        return -100.0 - course.distance_past_finish(first.target)
    cars = list(state.cars)
    cars[index] = moved
    follow = [c for c in generate_candidates(course, race.rules, race.cars, cars, index)
              if c.legal and c.kind is not MoveKind.CRASH]
    if not follow:
        return DEAD_END + _estimate(state, index, moved) + penalty
    after = successors_of(course, race.rules, setup, moved, follow, limit).cars
    best = min(_estimate(state, index, car_after(moved, after, i)) for i in range(len(follow)))
    return best + penalty
