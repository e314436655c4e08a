"""The drivers' plan for a track too large for their table: a short search ahead, batched.

Where the solver refuses to tabulate a track, a driver still sees the rules' own successors
of a lone car: this module follows every sequence of ``DEPTH`` moves from each of the car's
options at once (through the transition, as the table would), keeps the ones that neither crash
nor put the car out, and scores an option by the fewest squares still to go (the distance
field, round the water for a car that cannot cross it) at the end of any of its sequences
whose last state can still brake to a stop on the track, or brake over the finish. Going as far
as it can while always able to stop is what keeps the car both fast and whole; an option that
finishes within the horizon wins outright, the sooner the better. Forced on every bundled
track and tournament map, the expert so drives within 1.14 times the optimum (the waypoints
sheet; most within 1.03), where three moves ahead it took up to 1.39 times it, and braking
for the wall beyond a drag strip's finish 1.33.
"""

from __future__ import annotations

import numpy as np

from racetrack.distance import DistanceField
from racetrack.game import RaceState
from racetrack.model import Candidate
from racetrack.rules.moves import successors_of, transition_of
from racetrack.rules.transition import Cars, MoveMemo, Transition

#: Moves looked ahead (the option itself is the first): four see far enough round a corner or
#: onto a waypoint for a line within a fifth of the optimum, in a few milliseconds a move.
DEPTH = 4
#: States kept per level of the search (the ones nearest the finish, per option).
FRONTIER = 6000
#: Weight of the first move's own squares to go, to break ties between sequences.
NOW = 1e-3
#: Score of an option with no sequence that can stop on the track.
UNSAFE = 1e9


def plan_scores(state: RaceState, options: list[Candidate], depth: int = DEPTH) -> list[float]:
    """A score per option (lower is better): squares to go after the best safe sequence of
    ``depth`` moves, or less than zero for one that finishes (the sooner, the lower)."""
    horizon = depth
    race = state.race
    index = state.current_car
    assert index is not None
    car, setup = state.cars[index], race.cars[index]
    course = race.course_of(index)
    transition = transition_of(course, race.rules, setup, car)
    field = guide_field(state, index)
    limit = state.damage_limit(index)
    first = successors_of(course, race.rules, setup, car, options, limit)
    scores = np.full(len(options), UNSAFE, dtype=float)
    roots = np.arange(len(options))
    keep = (first.out == 0) & ~first.crashed
    # Of sequences that end as near, the one whose first move gets nearest: standing still
    # must never tie with going on.
    nearer = NOW * field.values(first.cars.x, first.cars.y, first.cars.progress,
                                first.cars.areas)
    cars, roots = first.cars.take(np.flatnonzero(keep)), roots[keep]
    for depth in range(1, horizon + 1):
        if not len(cars):
            break
        done = cars.progress >= course.goal
        if done.any():
            np.minimum.at(scores, roots[done], -1000.0 + depth)
            cars, roots = cars.take(np.flatnonzero(~done)), roots[~done]
        if not len(cars):
            break
        togo = field.values(cars.x, cars.y, cars.progress, cars.areas)
        if depth == horizon:
            safe = can_stop(transition, cars)
            np.minimum.at(scores, roots[safe], togo[safe])
            break
        cars, roots = _trim(cars, roots, togo)
        rows, after = transition.successors(cars, limit)
        good = (after.out == 0) & ~after.crashed
        cars, roots = after.cars.take(np.flatnonzero(good)), roots[rows[good]]
    return (scores + np.where(scores < UNSAFE, np.minimum(nearer, 1.0), 0.0)).tolist()


def guide_field(state: RaceState, index: int) -> DistanceField:
    """The squares-to-go field the drivers steer by off their table: round the water where
    the car cannot cross it."""
    race = state.race
    course = race.course_of(index)
    transition = transition_of(course, race.rules, race.cars[index], state.cars[index])
    return course.distance_field(race.rules.boundary_counts, race.rules.areas_checkpoints,
                                 without_water=transition.wet)


def _trim(cars: Cars, roots: np.ndarray, togo: np.ndarray) -> tuple[Cars, np.ndarray]:
    """At most ``FRONTIER`` states, the nearest the finish, shared fairly among the options."""
    if len(cars) <= FRONTIER:
        return cars, roots
    share = max(1, FRONTIER // len(np.unique(roots)))
    order = np.lexsort((togo, roots))
    ranked = np.empty(len(order), dtype=np.int64)
    sorted_roots = roots[order]
    starts = np.r_[0, np.flatnonzero(np.diff(sorted_roots)) + 1]
    counts = np.diff(np.r_[starts, len(order)])
    ranked[order] = np.arange(len(order)) - np.repeat(starts, counts)
    chosen = np.flatnonzero(ranked < share)
    return cars.take(chosen), roots[chosen]


def can_stop(transition: Transition, cars: Cars) -> np.ndarray:
    """Whether each car could brake to a stop, one square a turn off each component of its
    velocity, without leaving the track on the way, or brake so over the finish (a car
    racing down a drag strip need not be able to stop before its end)."""
    x, y = cars.x.astype(np.int64), cars.y.astype(np.int64)
    vx, vy = cars.vx.astype(np.int64), cars.vy.astype(np.int64)
    progress, areas = cars.progress.astype(np.int64), cars.areas.astype(np.int64)
    anywhere = transition.finish_anywhere
    safe = np.ones(len(x), dtype=bool)
    braking = np.ones(len(x), dtype=bool)
    while True:
        vx, vy = vx - np.sign(vx), vy - np.sign(vy)
        braking &= (vx != 0) | (vy != 0)
        if not braking.any():
            return safe
        rows = np.flatnonzero(braking)
        tx, ty = x[rows] + vx[rows], y[rows] + vy[rows]
        on = (transition.move_flags(x[rows], y[rows], tx, ty) & MoveMemo.ON) > 0
        progress[rows], areas[rows] = progress_over(transition, progress[rows], areas[rows],
                                                    x[rows], y[rows], tx, ty)
        over = (progress[rows] >= transition.goal) & (on | anywhere)
        safe[rows[~on & ~over]] = False
        braking[rows[over | ~on]] = False
        x[rows], y[rows] = tx, ty


def progress_over(transition: Transition, progress: np.ndarray, areas: np.ndarray,
                  px: np.ndarray, py: np.ndarray, qx: np.ndarray,
                  qy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Progress and checkpoint areas after moves p -> q driven on the track, by the lines and
    the areas alike."""
    course = transition.course
    after = course.progress_after(progress, px, py, qx, qy)
    if transition.marks:
        bits, finish = transition.marks.passed(px, py, qx, qy)
        after, areas = transition.marks.advance(course, progress, after, areas, bits, finish)
    return after.astype(np.int64), np.asarray(areas, dtype=np.int64)
