"""Computer drivers: one protocol, four levels, all driving from the turns-to-go table.

``expert`` always takes a legal move with the fewest turns to go (so alone on the track it
drives an optimal race), and because it only considers the legal candidates it steers around
other cars and never into a state from which the finish cannot be reached. The lower levels
differ in skill, not in blunders: they slip, now and then taking a move that costs one turn
more than the best (the slowest such, as a driver braking too early does), as often as their
share of the turns driven allows (``Style.slack``), so each level's handicap is in proportion
to what the track asks of it: on a long strip as on a short sprint, alone, hard takes at most
1.09, medium 1.23 and easy 1.45 times the optimum. None of them ever picks a move with no way
out when it has one with a way out. The seed only chooses among equally good moves.

Among other cars (``racetrack.ai.traffic``) every level gives way to a car it holds up head on
when the rules of the road say it should, and keeps out of places whose only way on one car
could shut; and no car waits for ever: a car that would stand still while every other car
stood still on its last turn moves instead. On a track too large for a table the drivers plan
a few moves ahead (``racetrack.ai.planner``).
"""

from __future__ import annotations

import contextlib
import gc
import math
import random
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from racetrack.ai import LEVELS, missiles
from racetrack.ai.lookahead import lookahead_scores
from racetrack.ai.planner import UNSAFE, guide_field, plan_scores
from racetrack.ai.tables import table_damage_limit, value_table
from racetrack.ai.traffic import gives_way, giving_way, hold_up, reachable_points
from racetrack.gadgets import heading, missile_boost
from racetrack.game import RaceState
from racetrack.geometry import ZERO, Vec
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
    """Anything that can choose a move for the current car of a race state: the car's move,
    or (where ``state.steering`` names a missile, steered on its owner's turn) the missile's.
    ``choose`` answers for both; ``steer`` is the missile's part alone."""

    name: str

    def choose(self, state: RaceState) -> Move: ...

    def steer(self, state: RaceState) -> Move: ...


@dataclass(frozen=True)
class Style:
    """How a level drives: a matter of skill, never of throwing moves away."""

    slack: float       # the share of its turns it may lose to slips, one turn at a time: alone
                       # it takes at most 1 / (1 - slack) times the optimum, whatever the track
    careful: bool      # counts only routes that never crash, even where a crash is quicker
    margin: int        # turns it will give up to keep two ways on where a car could shut one
    anticipates: bool = False  # among equal moves, keeps off the line a car ahead will take


#: Alone, at most 1.00, 1.09, 1.23 and 1.45 times the optimum: far enough apart that a level
#: beats the one below it by more than a good grid point is worth, on a short track as on a
#: long one (a slip costs one turn, and a level slips in proportion to the turns it drives).
STYLES = {
    "easy": Style(slack=0.31, careful=True, margin=3),
    "medium": Style(slack=0.185, careful=True, margin=2),
    "hard": Style(slack=0.085, careful=True, margin=2),
    "expert": Style(slack=0.0, careful=False, margin=2, anticipates=True),
}

#: How much sooner than evenly over the race a level spends its slips.
EARLY = 2

#: Turns a driver may go without getting nearer the finish by the table, keeping out of the
#: way of other cars, before it drives one move by the table alone: caution never stops a car
#: for good.
PATIENCE = 3

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
        self._par: int | None = None  # turns driven plus turns to go, at its first move
        self._record = UNSOLVED  # the fewest turns to go it has seen
        self._idle = 0  # turns since then

    def prepare(self, state: RaceState, car: int) -> None:
        """Build the table and the distance-to-go field now (both are cached), so no move
        waits for them: the field guides a car off the table, and the plan where no table
        fits."""
        race = state.race
        course = race.course_of(car)
        with contextlib.suppress(SolverError):  # too large a track: the plan drives
            value_table(course, race.rules, swims(race.cars[car], state.cars[car]))
        guide_field(state, car)
        # The cycle collector's full pass visits every object; left to itself it comes
        # during a move now and then (30 ms and more of a move's CPU). One now, after the
        # tables' garbage, puts the next off for as long as the objects kept stay the same.
        gc.collect()

    def steer(self, state: RaceState) -> Move:
        """The move of the missile whose move it is: chasing a rival
        (``racetrack.ai.missiles``)."""
        return missiles.steer_missile(state)

    def choose(self, state: RaceState) -> Move:
        """The move to make (the missile's, when one is to move), with a James Bond action
        when one looks worth it."""
        if state.steering is not None:
            return self.steer(state)
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
        if action is Action.MISSILE and race.rules.gadgets_missile_flight == "steered":
            return missiles.worth_firing(state)
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
        """The car's move, in steps that each decide one thing: the options, their turns to
        go, those the other cars leave, the level's pick among them, and whether a standstill
        must be broken; the driver's own records are kept after the choice is made."""
        options = legal_options(state, avoid)
        values = self._option_values(state, options)
        if values is None:
            return self._fallback_move(state, options)
        hopeful = [i for i, v in enumerate(values) if v < UNSOLVED]
        pool = self._in_traffic(state, options, values, hopeful) \
            if racing_cars(state) > 1 and not state.placing and self._idle < PATIENCE \
            else hopeful
        choice = self._pick(state, options, values, pool)
        choice = self._unstalled(state, options, values, hopeful, choice)
        self._keep_records(state, min(values[i] for i in hopeful))
        return options[choice].move

    def _option_values(self, state: RaceState, options: list[Candidate]) -> list[int] | None:
        """Turns to go after each option by the table (``None`` where there is no table, or
        no option keeps a way to the finish). Among other cars every level counts only routes
        that never crash (a car in the way can turn a quick crash into a long one), and the
        levels below the expert do so alone too, unless only a crash can save it now."""
        careful = self.style.careful or racing_cars(state) > 1
        try:
            values = self._values(state, options, careful=careful)
            if careful and all(v >= UNSOLVED for v in values):
                values = self._values(state, options)
        except SolverError:
            return None
        return values if any(v < UNSOLVED for v in values) else None

    def _pick(self, state: RaceState, options: list[Candidate], values: list[int],
              pool: list[int]) -> int:
        """The level's choice among the options left: a finish when there is one, a slip
        when the level's share of slips allows one, else the best by the table (the expert
        keeping off the lines of the cars ahead)."""
        best = min(values[i] for i in pool)
        ties = [i for i in pool if values[i] == best]
        if best == 0:
            return self._best_finish(state, options, ties)
        slip = self._slip(state, options, values, pool, best)
        if slip is not None:
            return slip
        if self.style.anticipates and racing_cars(state) > 1:
            ties = self._anticipating(state, options, values, pool) or ties
        return self._among_equals(options, ties)

    def _slip(self, state: RaceState, options: list[Candidate], values: list[int],
              pool: list[int], best: int) -> int | None:
        """The move that costs one turn more than the best (the slowest such: braking too
        early), when the level may lose another turn now: its turns lost against the par it
        set on its first move stay within ``slack`` of the turns it has driven."""
        slack = self.style.slack
        if not slack or state.placing:
            return None
        moves = state.cars[state.current_car].moves
        par = self._par if self._par is not None else moves + 1 + best
        lost = moves + 1 + best - par
        # Its slips, spent in the first half of the race or so: a level drops back early,
        # where the cars are close together, instead of holding the cars behind it up all
        # race long.
        allowed = min(math.floor(slack / (1 - slack) * par),
                      math.floor(EARLY * slack * (moves + 1)))
        if lost + 1 > allowed:
            return None
        slower = [i for i in pool if values[i] == best + 1]
        return self._among_equals(options, slower) if slower else None

    def _among_equals(self, options: list[Candidate], ties: list[int]) -> int:
        """Of equally good options, the one that keeps the most room: the slowest, never a
        special move (good brakes, turbo) that spends a use for nothing; the seed picks among
        the rest."""
        key = {i: (options[i].note in SPENDING, options[i].velocity.speed) for i in ties}
        least = min(key.values())
        return self.random.choice([i for i in ties if key[i] == least])

    def _unstalled(self, state: RaceState, options: list[Candidate], values: list[int],
                   hopeful: list[int], choice: int) -> int:
        """The choice, unless it would stand still (at rest where the car is) while every
        other car still racing stood still on its last turn too: then the best move that
        goes somewhere, so cars waiting for each other never wait for ever. Whichever car's
        turn comes first after all stood still moves; the others may wait for it."""
        index = state.current_car
        car = state.cars[index]
        if not standing(options[choice], car.position) or car.velocity != ZERO:
            return choice
        others = [j for j, other in enumerate(state.cars) if j != index and other.racing]
        if not others or any(state.still[j] == 0 or state.cars[j].missed_turns
                             for j in others):
            return choice
        moving = [i for i in hopeful if not standing(options[i], car.position)]
        if not moving:
            return choice
        best = min(values[i] for i in moving)
        return self._among_equals(options, [i for i in moving if values[i] == best])

    def _keep_records(self, state: RaceState, best: int) -> None:
        """Bookkeeping after the choice: the par (turns driven plus the best turns to go) the
        level's slips are counted against, set on its first move; and the turns since the
        best turns to go last reached a new low."""
        if state.placing:
            return
        if self._par is None:
            self._par = state.cars[state.current_car].moves + 1 + best
        if best < self._record:
            self._idle, self._record = 0, best
        else:
            self._idle += 1

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

    def _anticipating(self, state: RaceState, options: list[Candidate], values: list[int],
                      pool: list[int]) -> list[int]:
        """Of the options best by the table, those whose ways on stay quickest once the
        points the other cars are heading for (each one's best next point by the table) are
        taken: of equally quick lines, the one a car ahead will not baulk. Only options as
        good as the best are weighed: a turn given up for a clear line lost more races than
        it won, the other car often going elsewhere (the expert beat hard in 20 of 47 races
        on Canyon, the waypoints sheet and the Karopapier hairpin so, in 33 without)."""
        index = state.current_car
        assert index is not None
        best = min(values[i] for i in pool)
        near = [i for i in pool if values[i] == best]
        me = state.cars[index]
        reach = 2 * (max(abs(me.velocity.x), abs(me.velocity.y)) + 3)
        heading_for = set()
        for j, car in enumerate(state.cars):
            ahead = car.position + car.velocity
            if j == index or not car.racing or car.finish \
                    or max(abs(ahead.x - me.position.x), abs(ahead.y - me.position.y)) > reach:
                continue
            heading_for.add(self._best_point(state, j))
        if not heading_for:
            return []
        ways = self._ways_on(state, [options[i] for i in near])
        scored = {}
        for i, found in zip(near, ways, strict=True):
            clear = [v for point, v in found if point not in heading_for]
            scored[i] = 1 + min(clear) if clear else UNSOLVED
        low = min(scored.values())
        if low >= UNSOLVED:
            return []
        return [i for i in near if scored[i] == low]

    def _best_point(self, state: RaceState, index: int) -> Vec:
        """Where car ``index`` would go next by the table (the best a lone car could do)."""
        car = state.cars[index]
        options = [c for c in state.candidates_for(index) if c.legal]
        if not options:
            return car.position + car.velocity
        values = self._values(state, options, index=index)
        return options[int(np.argmin(values))].target

    def _ways_on(self, state: RaceState, options: list[Candidate]) -> list[list[tuple[Vec,
                                                                                     int]]]:
        """For each option, the points its next move could end on without crashing, each
        with the turns to go from there (by the table, never crashing)."""
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
        values = table.values_of(after.cars, True)
        good = (values < UNSOLVED) & (after.out == 0) & ~after.crashed
        ways: list[list[tuple[Vec, int]]] = [[] for _ in options]
        for row, x, y, v in zip(rows[good].tolist(), after.cars.x[good].tolist(),
                                after.cars.y[good].tolist(), values[good].tolist(),
                                strict=True):
            if row < len(options) and not found.out[row] and found.cars.progress[row] \
                    < course.goal:
                ways[row].append((Vec(x, y), int(v)))
        for row in range(len(options)):
            if found.cars.progress[row] >= course.goal:
                ways[row].append((options[row].target, -1))  # it finishes: nothing to baulk
        return ways

    def _with_margin(self, state: RaceState, options: list[Candidate], values: list[int],
                     hopeful: list[int]) -> list[int]:
        """Drop the options after which the car's hopeful ways on are so few that the cars
        nearby could take every one of them first (a car each), when others cost at most
        ``margin`` more."""
        index = state.current_car
        assert index is not None
        car = state.cars[index]
        reach = max(abs(car.velocity.x), abs(car.velocity.y)) + 4
        rivals = reachable_points(state, index, car.position, 2 * reach)
        if not rivals:
            return hopeful
        exits = [{point for point, _ in ways}
                 for ways in self._ways_on(state, [options[i] for i in hopeful])]
        safe = [i for i, points in zip(hopeful, exits, strict=True)
                if values[i] == 0  # it finishes: nothing left to shut
                or not can_shut(points, rivals)]
        if not safe:
            return hopeful
        best = min(values[i] for i in hopeful)
        if min(values[i] for i in safe) > best + self.style.margin:
            return hopeful
        return safe

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


def legal_options(state: RaceState, avoid: frozenset[Vec] = frozenset()) -> list[Candidate]:
    """The current car's legal moves, less those ending where a missile will be when
    missiles strike (unless every move does)."""
    options = [c for c in state.candidates() if c.legal]
    if not options:
        raise ValueError("no legal move to choose from")
    return [c for c in options if c.target not in avoid] or options


def racing_cars(state: RaceState) -> int:
    return sum(car.racing for car in state.cars)


def standing(candidate: Candidate, here: Vec) -> bool:
    """Whether a move leaves the car at rest where it is."""
    return candidate.target == here and candidate.velocity == ZERO


def can_shut(exits: set[Vec], rivals: list[set[Vec]]) -> bool:
    """Whether the rivals, each taking one of the points it can reach, could take every one
    of ``exits`` (two cars can shut a car in as surely as one: a matching of exits to cars)."""
    if not exits or len(exits) > len(rivals):
        return False
    claimed: dict[Vec, int] = {}
    for rival in range(len(rivals)):
        _claim(rival, rivals, exits, claimed, set())
    return len(claimed) == len(exits)


def _claim(rival: int, rivals: list[set[Vec]], exits: set[Vec], claimed: dict[Vec, int],
           seen: set[Vec]) -> bool:
    """An exit for ``rival``, taken from another rival where that one can take another
    (a step of the matching). A function of its own, not a closure calling itself: such a
    closure is a reference cycle, left for the cycle collector after every move."""
    for point in rivals[rival] & exits:
        if point not in seen:
            seen.add(point)
            if point not in claimed or _claim(claimed[point], rivals, exits, claimed, seen):
                claimed[point] = rival
                return True
    return False


def missile_points(state: RaceState) -> frozenset[Vec]:
    """Where missiles will be when they strike at the end of the current car's turn: its own
    after their flight, everyone else's where they are now (steered missiles: where each is
    now, ``racetrack.ai.missiles``)."""
    if state.race.rules.gadgets_missile_flight == "steered":
        return missiles.missile_points(state)
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
