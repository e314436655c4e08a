"""Computer drivers: one protocol, four levels, all driving from the moves-to-go table.

``expert`` always takes a legal move with the fewest moves to go (so alone on the track it
drives an optimal race), and because it only considers the legal candidates it steers around
other cars and never into a state from which the finish cannot be reached. The lower levels are
the same driver with seeded, deliberate imperfection: a speed they will not exceed when they can
help it, and now and then a move a little worse than the best. None of them ever picks a move
with no way out when it has one with a way out.
"""

from __future__ import annotations

import contextlib
import random
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from racetrack.ai import LEVELS
from racetrack.ai.lookahead import lookahead_scores
from racetrack.ai.planner import UNSAFE, plan_scores
from racetrack.ai.tables import table_damage_limit, value_table
from racetrack.ai.traffic import gives_way, giving_way, hold_up, reachable_points
from racetrack.gadgets import heading, missile_boost
from racetrack.game import RaceState
from racetrack.geometry import Vec
from racetrack.model import Action, Candidate, Move
from racetrack.rules.moves import (
    SPENDING,
    pit_stop_required,
    successors_of,
    swims,
    transition_of,
)
from racetrack.rules.transition import Cars
from racetrack.solver import UNSOLVED, SolverError


class Driver(Protocol):
    """Anything that can choose a move for the current car of a race state."""

    name: str

    def choose(self, state: RaceState) -> Move: ...


@dataclass(frozen=True)
class Style:
    """How a level drives."""

    slack: int         # how many moves worse than the best a sloppy choice may be
    sloppiness: float  # chance, each turn, of a sloppy choice
    max_speed: int     # speed it will not exceed while a slower move keeps a way out
    margin: int = 2    # turns it will give up to keep two ways on where a car could shut one


STYLES = {
    "easy": Style(slack=3, sloppiness=0.5, max_speed=3),
    "medium": Style(slack=2, sloppiness=0.3, max_speed=4),
    "hard": Style(slack=1, sloppiness=0.15, max_speed=6),
    "expert": Style(slack=0, sloppiness=0.0, max_speed=10**6),
}

#: The speed a driver keeps to when it must steer by the lookahead alone.
FALLBACK_SPEED = 2


class TableDriver:
    """Drives by the exact moves-to-go table, with a level's style of imperfection."""

    def __init__(self, level: str = "expert", seed: int = 0):
        if level not in STYLES:
            raise ValueError(f"unknown driver level {level!r}; levels: {', '.join(LEVELS)}")
        self.name = level
        self.style = STYLES[level]
        self.seed = seed
        self.random = random.Random(seed)

    def prepare(self, state: RaceState, car: int) -> None:
        """Build the table now (it is cached), so the first move is as quick as the rest."""
        race = state.race
        with contextlib.suppress(SolverError):  # too large a track: the lookahead drives
            value_table(race.course_of(car), race.rules, swims(race.cars[car], state.cars[car]))

    def choose(self, state: RaceState) -> Move:
        """The move to make, with a James Bond action when one looks worth it."""
        options = [c for c in state.candidates() if c.legal]
        move = self._choose_move(state, missile_points(state))
        actions = state.actions()
        if not actions:
            return move
        candidate = next(c for c in options if c.target == move.target)
        for action in (Action.MISSILE, Action.OIL):
            if action in actions and self._worth(state, candidate, action):
                armed = Move(move.target, action)
                if state.action_problem(armed, candidate) is None:
                    return armed
        return move

    def _worth(self, state: RaceState, candidate: Candidate, action: Action) -> bool:
        """Simple rules of thumb: fire when a rival will be where the missile lands (its first
        flight is at the end of this turn, before the rival moves; its second after the
        rival's unchanged move) and never where the car itself will be then; spray oil when a
        rival is close behind the car after its move."""
        index = state.current_car
        race = state.race
        me = state.cars[index]
        team = race.cars[index].team

        def rival(j: int) -> bool:
            return (j != index and state.cars[j].racing
                    and not (team and race.cars[j].team == team))

        rivals = [j for j in range(len(state.cars)) if rival(j)]
        if action is Action.MISSILE:
            boost = race.rules.gadgets_missile_boost
            first_velocity = missile_boost(me.velocity, boost)
            first = me.position + first_velocity
            second = first + missile_boost(first_velocity, boost)
            if candidate.target == first or candidate.target + candidate.velocity == second:
                return False  # it would land on its own car
            return any(state.cars[j].position == first
                       or state.cars[j].position + state.cars[j].velocity == second
                       for j in rivals)
        ahead = heading(candidate.velocity)
        for j in rivals:
            offset = state.cars[j].position - candidate.target
            behind = -(offset.x * ahead.x + offset.y * ahead.y)
            if 0 < behind <= 6 and max(abs(offset.x), abs(offset.y)) <= 6:
                return True
        return False

    def _choose_move(self, state: RaceState, avoid: frozenset[Vec] = frozenset()) -> Move:
        options = [c for c in state.candidates() if c.legal]
        if not options:
            raise ValueError("no legal move to choose from")
        # Never end the turn where a missile will be when missiles strike (unless every move
        # does).
        options = [c for c in options if c.target not in avoid] or options
        try:
            values = self._values(state, options, careful=self.style.slack > 0)
            if self.style.slack > 0 and all(v >= UNSOLVED for v in values):
                values = self._values(state, options)  # only a crash can save it now
        except SolverError:
            return self._fallback_move(state, options)
        hopeful = [i for i, v in enumerate(values) if v < UNSOLVED]
        if not hopeful:
            return self._fallback_move(state, options)
        if not state.placing and sum(car.racing for car in state.cars) > 1:
            hopeful = self._in_traffic(state, options, values, hopeful)
        style = self.style
        calm = [i for i in hopeful if options[i].velocity.speed <= style.max_speed]
        pool = calm or hopeful
        best = min(values[i] for i in pool)
        if style.sloppiness and self.random.random() < style.sloppiness:
            near = [i for i in pool if values[i] <= best + style.slack]
            return options[self.random.choice(near)].move
        ties = [i for i in pool if values[i] == best]
        if best == 0:
            return options[self._best_finish(state, options, ties)].move
        # Among equals, the one that keeps the most room: the slowest, then the first listed;
        # never a special move (good brakes, turbo) that spends a use for nothing.
        return options[min(ties, key=lambda i: (options[i].note in SPENDING,
                                                options[i].velocity.speed, i))].move

    def _fallback_move(self, state: RaceState, options: list[Candidate]) -> Move:
        """No table to trust (a track too large for one): plan a few moves ahead, always
        able to stop on the track. A car off the track, one that owes a pit stop or one
        choosing its start point steers by the two-move lookahead, at a speed it can always
        brake away within it."""
        index = state.current_car
        assert index is not None
        car = state.cars[index]
        course = state.race.course_of(index)
        if not (state.placing or car.off_track
                or (pit_stop_required(course, state.race.rules) and not car.pitted)):
            scores = plan_scores(state, options)
            if min(scores) < UNSAFE:
                return options[int(np.argmin(scores))].move
        calm = [c for c in options if c.velocity.speed <= FALLBACK_SPEED] or options
        scores = lookahead_scores(state, calm)
        return calm[int(np.argmin(scores))].move

    def _in_traffic(self, state: RaceState, options: list[Candidate], values: list[int],
                    hopeful: list[int]) -> list[int]:
        """The hopeful options left once the other cars are taken into account: give way to
        a car this one holds up when the rules of the road say so, and keep out of places
        whose only way on one car could shut."""
        index = state.current_car
        assert index is not None

        def value(car: int, candidates: list[Candidate]) -> list[int]:
            # Both cars must reach the same answer: the plain table, whatever their level.
            return self._values(state, candidates, index=car)

        held = hold_up(state, index, state.candidates(), value)
        if held is not None and gives_way(state, held, value):
            here = state.cars[index].position
            way = [i for i in giving_way(options, here) if i in hopeful]
            if way:
                return way
        return self._with_margin(state, options, values, hopeful)

    def _with_margin(self, state: RaceState, options: list[Candidate], values: list[int],
                     hopeful: list[int]) -> list[int]:
        """Drop the options after which a single point is the car's only hopeful way on and
        another car could take that point first, when others cost at most ``margin`` more."""
        index = state.current_car
        assert index is not None
        car = state.cars[index]
        reach = max(abs(car.velocity.x), abs(car.velocity.y)) + 4
        rivals = reachable_points(state, index, car.position, 2 * reach)
        if not rivals:
            return hopeful
        exits = self._exits(state, [options[i] for i in hopeful])
        safe = [i for i, points in zip(hopeful, exits, strict=True)
                if not (len(points) == 1 and any(points <= r for r in rivals))]
        if not safe:
            return hopeful
        best = min(values[i] for i in hopeful)
        if min(values[i] for i in safe) > best + self.style.margin:
            return hopeful
        return safe

    def _exits(self, state: RaceState, options: list[Candidate]) -> list[set[Vec]]:
        """For each option, the points its next move could end on from which the finish can
        still be reached without crashing."""
        race = state.race
        index = state.current_car
        assert index is not None
        car, setup = state.cars[index], race.cars[index]
        course = race.course_of(index)
        table = value_table(course, race.rules, swims(setup, car))
        limit = state.damage_limit(index)
        found = successors_of(course, race.rules, setup, car, options, limit)
        transition = transition_of(course, race.rules, setup, car)
        rows, after = transition.successors(found.cars, limit)
        good = (table.values_of(after.cars, True) < UNSOLVED) & (after.out == 0) \
            & ~after.crashed
        exits: list[set[Vec]] = [set() for _ in options]
        for row, x, y in zip(rows[good].tolist(), after.cars.x[good].tolist(),
                             after.cars.y[good].tolist(), strict=True):
            if not found.out[row]:
                exits[row].add(Vec(x, y))
        return exits

    @staticmethod
    def _best_finish(state: RaceState, options: list[Candidate], finishing: list[int]) -> int:
        """Of several finishing moves, the one the rule set's tie-break ranks best."""
        course = state.race.course_of(state.current_car)
        car = state.cars[state.current_car]

        def key(i: int) -> tuple[float, float]:
            target = options[i].target
            past = course.distance_past_finish(target)
            fraction = course.finish_fraction(car.position, target)
            if state.race.rules.finish_tie_break == "earliest":
                return (fraction, -past)
            return (-past, fraction)

        return min(finishing, key=key)

    def _values(self, state: RaceState, options: list[Candidate], careful: bool = False,
                index: int | None = None) -> list[int]:
        """Turns to go after each option of car ``index`` (the current car by default): the
        table's value of the state it leads to, plus any turns it misses (a crash). A
        ``careful`` driver (every level but the expert) counts only routes that never crash,
        even where a crash would be quicker."""
        race = state.race
        index = state.current_car if index is None else index
        assert index is not None
        car, setup = state.cars[index], race.cars[index]
        course = race.course_of(index)
        table = value_table(course, race.rules, swims(setup, car))
        n = len(options)
        if state.placing and index == state.current_car:  # start points: each from rest
            at_rest = Cars(x=[c.target.x for c in options], y=[c.target.y for c in options],
                           vx=np.zeros(n), vy=np.zeros(n),
                           progress=np.full(n, course.start_progress))
            return [int(v) for v in table.values_of(at_rest, careful)]
        limit = state.damage_limit(index)
        found = successors_of(course, race.rules, setup, car, options, limit)
        after = found.cars
        table_limit = table_damage_limit(race.rules)
        if limit is not None and table_limit is not None:
            # The table knows damage up to its own limit: look the car up by what it can
            # still take.
            room = limit - after.damage
            after.damage = np.clip(table_limit - room, 0, table_limit).astype(np.int32)
        values = table.values_of(after, careful)
        total = values + found.cost - 1
        hopeless = (found.out != 0) | (values >= UNSOLVED) | (found.crashed & careful)
        return [UNSOLVED if bad else int(t) for bad, t in zip(hopeless, total, strict=True)]


def missile_points(state: RaceState) -> frozenset[Vec]:
    """Where missiles will be when they strike at the end of the current car's turn: its own
    after their flight, everyone else's where they are now."""
    index = state.current_car
    points = set()
    for missile in state.missiles:
        if missile.owner == index:
            points.add(missile.position + missile_boost(missile.velocity,
                                                        state.race.rules.gadgets_missile_boost))
        else:
            points.add(missile.position)
    return frozenset(points)


def make_driver(level: str, seed: int = 0) -> Driver:
    """A computer driver for a level name (see ``LEVELS``)."""
    return TableDriver(level, seed)
