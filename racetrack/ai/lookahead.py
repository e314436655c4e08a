"""The driver protocol and the lookahead driver used at every level.

A driver looks two moves ahead for its own car (other cars standing still) and scores where it
would be by the steps still to go along the track. Levels differ in how often they settle for
less than the best and in how much speed they dare to carry; the randomness is seeded.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Protocol

from racetrack.game import RaceState
from racetrack.model import Candidate, Move, MoveKind
from racetrack.rules.moves import candidates as generate_candidates

LEVELS = ("easy", "medium", "hard", "expert")

#: Score added for a move after which the car would have no legal move at all.
DEAD_END = 1_000.0
#: Score added for a move that crashes, collides or leaves the track.
TROUBLE = 60.0


class Driver(Protocol):
    """Anything that can choose a move for the current car of a race state."""

    name: str

    def choose(self, state: RaceState) -> Move: ...


@dataclass(frozen=True)
class Style:
    """How a level drives: how often it blunders and how fast it dares to go."""

    blunder: float    # chance of taking a random safe move instead of the best
    max_speed: int    # squares per turn it will not exceed (a cautious driver stays slower)


STYLES = {
    "easy": Style(blunder=0.35, max_speed=3),
    "medium": Style(blunder=0.15, max_speed=4),
    "hard": Style(blunder=0.05, max_speed=6),
    "expert": Style(blunder=0.0, max_speed=99),
}


class LookaheadDriver:
    """Scores each legal move by the best place it leads to one move later."""

    def __init__(self, level: str = "medium", seed: int = 0):
        if level not in STYLES:
            raise ValueError(f"unknown driver level {level!r}; levels: {', '.join(LEVELS)}")
        self.name = level
        self.style = STYLES[level]
        self.random = random.Random(seed)

    def choose(self, state: RaceState) -> Move:
        options = [c for c in state.candidates() if c.legal]
        if not options:
            raise ValueError("no legal move to choose from")
        scored = sorted(((self._score(state, c), i, c) for i, c in enumerate(options)),
                        key=lambda item: (item[0], item[1]))
        safe = [c for score, _, c in scored if score < DEAD_END]
        if safe and self.random.random() < self.style.blunder:
            return self.random.choice(safe[: max(2, len(safe) // 2)]).move
        return scored[0][2].move

    def _score(self, state: RaceState, first: Candidate) -> float:
        race = state.race
        index = state.current_car
        assert index is not None
        field = race.course.distance_field(race.rules.boundary_counts)
        car = state.cars[index]
        penalty = TROUBLE if first.kind in (MoveKind.CRASH, MoveKind.COLLISION,
                                            MoveKind.LEAVE, MoveKind.OFF) else 0.0
        if first.velocity.speed > self.style.max_speed:
            penalty += 5.0 * (first.velocity.speed - self.style.max_speed)
        progress = race.course.advance_one(car.progress, car.position, first.target)
        if progress >= race.course.goal:
            return -100.0 - race.course.distance_past_finish(first.target)
        moved = replace(car, position=first.target, velocity=first.velocity, progress=progress)
        cars = list(state.cars)
        cars[index] = moved
        follow = [c for c in generate_candidates(race.course, race.rules, race.cars, cars, index)
                  if c.legal and c.kind is not MoveKind.CRASH]
        if not follow:
            return DEAD_END + field(first.target, progress) + penalty
        best = min(field(c.target, race.course.advance_one(progress, first.target, c.target))
                   for c in follow)
        return best + penalty


def make_driver(level: str, seed: int = 0) -> Driver:
    """A computer driver for a level name (see ``LEVELS``)."""
    return LookaheadDriver(level, seed)
