"""A race: its fixed setup (``Race``) and its changing state (``RaceState``).

``Race`` holds what never changes: the track (as a prepared ``Course``), the rule set, the cars
as set up and the seed. ``RaceState`` holds what does: each car's position, velocity, damage and
status, whose turn it is, the round, the history of moves and the trails. The state lists the
current car's candidate moves with the rules' verdict on each, applies a chosen move (raising
``IllegalMoveError`` and changing nothing if it is not legal) and reports what happened as
events. Turns that need no choice (a missed turn, a car with no legal move) resolve themselves
before the next choice, so ``history`` is exactly the list of choices and replaying it
re-creates every state. Both speak the protocol the two games share (``racetrack.games.protocol``:
``start``, ``current_player``, ``legal_moves``, ``check``, ``apply``, ``is_over``, ``outcome``,
``clone``, ``history``), which recording, the archive and the playback scene are written on.

A script can race without a window::

    from racetrack import CarSetup, Move, Race, load_rules, load_track, Vec
    race = Race(load_track("tracks/oval.yaml"), load_rules("gardner"),
                [CarSetup("Ann", "red"), CarSetup("Bob", "blue")], seed=1)
    state = race.start()
    state.place(0, Vec(10, 20), velocity=Vec(2, 0))
    for candidate in state.candidates():
        print(candidate.target, candidate.legal, candidate.reason)
    events = state.apply(state.legal_moves()[0])
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from racetrack.base.errors import IllegalMoveError
from racetrack.board.course import Course
from racetrack.board.distance import distance_field
from racetrack.board.geometry import ZERO, Vec
from racetrack.board.track import Track
from racetrack.engine.gadgets import Gadgets, Hit, missile_candidates
from racetrack.engine.model import (
    Action,
    Candidate,
    CarSetup,
    CarState,
    CarStatus,
    Event,
    EventKind,
    FinishRecord,
    Missile,
    Move,
    MoveKind,
    Outcome,
    Refusal,
    Termination,
)
from racetrack.engine.moves import (
    car_after,
    car_batch,
    pit_stop_required,
    race_moves,
    successors_of,
    to_candidates,
    transition_of,
)
from racetrack.engine.shop import check_kit, starting_kit
from racetrack.engine.transition import REFUSALS, Moves, Out
from racetrack.rules.ruleset import RuleSet

MAX_CARS = 12
#: Turns running every racing car must stand still (at rest where it was) before the rules'
#: ``stalled`` option takes over: two cars held up face to face, or cars waiting for each other
#: at any distance, wait for ever otherwise.
STALL_TURNS = 3
#: The fewest rounds a race runs before the round limit stops it (``max-rounds: null``).
MIN_ROUND_LIMIT = 500


class Race:
    """The fixed setup of a race: track, rules, cars and seed."""

    def __init__(self, track: Track, rules: RuleSet, cars: Sequence[CarSetup], seed: int = 0):
        if not cars:
            raise ValueError("a race needs at least one car")
        if len(cars) > MAX_CARS:
            raise ValueError(f"a race takes at most {MAX_CARS} cars")
        self.track = track
        self.rules = rules
        self.cars: tuple[CarSetup, ...] = tuple(cars)
        self.seed = seed
        self.course = Course.for_rules(track, rules)
        self._reverse_course: Course | None = None
        for car in self.cars:
            if car.reverse and rules.start_direction != "either":
                raise ValueError(f"{car.name} cannot race in reverse: the rule set "
                                 f"{rules.name!r} has every car race forwards")
            if car.reverse and not track.is_circuit:
                raise ValueError(f"{car.name} cannot race in reverse: {track.name!r} is not a "
                                 "circuit")
        for car in self.cars:
            problem = check_kit(rules, car)
            if problem:
                raise ValueError(problem)
        order = list(range(len(cars)))
        if rules.turn_order == "lots":
            random.Random(seed).shuffle(order)
        if rules.teams_scoring != "none":
            # Team racing: a team moves all its cars before the other teams get a turn.
            teams = list(dict.fromkeys(self.cars[i].team or self.cars[i].name for i in order))
            order.sort(key=lambda i: teams.index(self.cars[i].team or self.cars[i].name))
        self.order: tuple[int, ...] = tuple(order)
        self.grid: tuple[Vec, ...] = self._grid()
        self._round_limit: int | None = None

    @property
    def max_rounds(self) -> int:
        """The rounds after which the race stops: the rules' ``max-rounds``, or (null) twice
        the squares from the start to the finish, every lap, and never fewer than
        ``MIN_ROUND_LIMIT``: room for a car that crawls, and for the slow fallback drivers
        of a track too large for their tables."""
        if self.rules.max_rounds is not None:
            return self.rules.max_rounds
        if self._round_limit is None:
            field = distance_field(self.course, self.rules.boundary_counts,
                                               self.rules.areas_checkpoints)
            lengths = [field(spot, self.course.start_progress) for spot in self.grid]
            length = max((d for d in lengths if np.isfinite(d) and d < 1e8), default=0.0)
            self._round_limit = max(MIN_ROUND_LIMIT, min(10_000, int(2 * length)))
        return self._round_limit

    def _grid(self) -> tuple[Vec, ...]:
        """Starting points, spread along the start line, in the cars' listed order."""
        spots = self.course.start_positions
        n = len(self.cars)
        if n > len(spots) and self.rules.cars != "shared":
            raise ValueError(f"the start line of {self.track.name!r} has room for "
                             f"{len(spots)} cars, not {n}")
        if n >= len(spots):
            return tuple(spots[i % len(spots)] for i in range(n))
        picks = np.linspace(0, len(spots) - 1, n).round().astype(int) if n > 1 else [0]
        return tuple(spots[int(i)] for i in picks)

    def course_of(self, index: int) -> Course:
        """The course car ``index`` races: the track's, or the same circuit in reverse."""
        if not self.cars[index].reverse:
            return self.course
        if self._reverse_course is None:
            self._reverse_course = Course.for_rules(self.track.reversed(), self.rules)
        return self._reverse_course

    @property
    def choose_grid(self) -> bool:
        """Whether the cars pick their own start points before the race."""
        return self.rules.start_grid == "choose"

    @property
    def player_names(self) -> tuple[str, ...]:
        """The cars' names, in the order the setup lists them (the games' shared protocol)."""
        return tuple(car.name for car in self.cars)

    def start(self) -> RaceState:
        """The state at the start: every car at rest on its grid point (or, where the cars
        choose their places, waiting to choose: the car that moves last chooses first)."""
        cars = [CarState(position=spot, progress=self.course.start_progress,
                         kit=starting_kit(self.rules, setup))
                for spot, setup in zip(self.grid, self.cars, strict=True)]
        return RaceState(self, cars)


class RaceState:
    """The changing part of a race. Mutable: ``apply`` changes it; ``clone`` copies it."""

    def __init__(self, race: Race, cars: list[CarState], turn: int = 0, round_: int = 1,
                 placed: bool = False):
        """The race at ``turn`` (an index into ``race.order``) of ``round_``, its cars as given
        (placed on their start points already when ``placed``, or when the race gives no
        choice of them)."""
        self.race = race
        self.cars: list[CarState] = cars
        self.turn = turn  # index into race.order
        self.round = round_
        self.history: list[tuple[int, Move]] = []
        self.trails: list[list[Vec]] = [[car.position] for car in cars]
        self.over = False
        self.last_round = 0  # the round of the latest move: the race's length in turns
        # Cars still to choose their start point, in the order they choose.
        self.unplaced: list[int] = list(reversed(race.order)) \
            if race.choose_grid and not placed else []
        self._termination: Termination | None = None
        self._outcome: Outcome | None = None
        self._candidates: list[Candidate] | None = None
        self._moves: Moves | None = None  # the current car's judged moves, as arrays
        # James Bond mode: missiles in flight, oil sprayed, collectables taken.
        self.gadgets = Gadgets(race.rules, race.player_names)
        # Per car: turns running it has stood still with other cars where it could go, and
        # those cars (the ``stalled`` rule's business).
        self.held: list[tuple[int, frozenset[int]]] = [(0, frozenset())] * len(cars)
        # Per car: turns running it has stood still, at rest where it was (whatever held it).
        self.still: list[int] = [0] * len(cars)
        self._pending: list[Event] = []
        self._pending = self._settle()

    # -- reading ------------------------------------------------------------------------------

    @property
    def current_car(self) -> int | None:
        """The index of the car whose turn it is, or ``None`` when the race is over."""
        if self.over:
            return None
        return self.unplaced[0] if self.unplaced else self.race.order[self.turn]

    @property
    def current_player(self) -> int | None:
        """``current_car`` under the name both games' protocol uses
        (``racetrack.games.protocol``)."""
        return self.current_car

    @property
    def placing(self) -> bool:
        """True before the start while cars still choose their start points."""
        return bool(self.unplaced)

    def course_of(self, index: int) -> Course:
        return self.race.course_of(index)

    @property
    def is_over(self) -> bool:
        return self.over

    def car(self, index: int) -> CarState:
        return self.cars[index]

    @property
    def missiles(self) -> list[Missile]:
        """Missiles in flight."""
        return self.gadgets.missiles

    @property
    def steering(self) -> Missile | None:
        """The missile the current car's player moves now (steered missiles move on their
        owner's turn, after the car), or ``None`` when the choice is the car's move."""
        if self.over or not self.gadgets.to_steer:
            return None
        return self.gadgets.to_steer[0]

    @property
    def oil(self) -> list[tuple[tuple[float, float], ...]]:
        """The corners of the slicks sprayed during the race."""
        return self.gadgets.oil

    @property
    def _oil_shapes(self) -> list:
        return self.gadgets.oil_shapes

    @property
    def taken(self) -> set[int]:
        """Indexes of the track's collectables picked up."""
        return self.gadgets.taken

    def candidates(self) -> list[Candidate]:
        """The current car's candidate points, legal or not, each with the reason if not."""
        if self.over:
            return []
        if self._candidates is None:
            index = self.current_car
            assert index is not None
            if self.unplaced:
                self._candidates = self._start_points(index)
            elif self.steering is not None:
                self._candidates = missile_candidates(self.course_of(index), self.race.rules,
                                                      self.steering)
            else:
                self._candidates = to_candidates(self._current_moves(), self.race.rules,
                                                 self.race.cars)
        return self._candidates

    def _current_moves(self) -> Moves:
        """The current car's moves as the rules judge them (arrays: no candidate objects)."""
        if self._moves is None:
            index = self.current_car
            assert index is not None and not self.unplaced
            self._moves = race_moves(self.course_of(index), self.race.rules, self.race.cars,
                                     self.cars, index, self._oil_shapes,
                                     self.passable(index))
        return self._moves

    def _forget_moves(self) -> None:
        self._candidates = None
        self._moves = None

    def candidates_for(self, index: int) -> list[Candidate]:
        """Car ``index``'s candidate points as if it were its turn now (a look ahead for the
        window's warnings; not cached, and no start points)."""
        moves = race_moves(self.course_of(index), self.race.rules, self.race.cars, self.cars,
                           index, self._oil_shapes, self.passable(index))
        return to_candidates(moves, self.race.rules, self.race.cars)

    def _start_points(self, index: int) -> list[Candidate]:
        """Before the start: the start line's free points. Each car takes a point of its own
        (even where cars may share points later) until the line is full."""
        taken = {self.cars[j].position: j for j in range(len(self.cars))
                 if j != index and j not in self.unplaced}
        spots = self.race.course.start_positions
        full = all(spot in taken for spot in spots)
        return [Candidate(spot, ZERO, legal=full or spot not in taken, kind=MoveKind.PLACE,
                          reason="" if full or spot not in taken
                          else f"taken by {self._name(taken[spot])}")
                for spot in spots]

    def legal_moves(self) -> list[Move]:
        return [c.move for c in self.candidates() if c.legal]

    def actions(self) -> list[Action]:
        """What the current car may do this turn besides moving: fire a missile (it must be
        moving: the missile starts with the car's velocity) or spray oil (with any move that
        goes somewhere on the track)."""
        index = self.current_car
        if index is None or self.unplaced or self.steering is not None:
            return []
        car = self.cars[index]
        found = []
        if car.kit.missiles and not car.velocity.is_zero and not car.off_track:
            found.append(Action.MISSILE)
        if car.kit.sprayers and not car.off_track:
            found.append(Action.OIL)
        return found

    def action_problem(self, move: Move, candidate: Candidate) -> str | None:
        """Why the move's action cannot go with it, or ``None`` when it can."""
        action = move.action
        if action is None:
            return None
        if action not in self.actions():
            car = self.cars[self.current_car]  # type: ignore[index]
            if action is Action.MISSILE and car.kit.missiles:
                return "a missile starts with the car's velocity: a car at rest cannot fire"
            return f"this car has no {'missile' if action is Action.MISSILE else 'oil sprayer'}"
        if action is Action.OIL and (candidate.velocity.is_zero
                                     or candidate.kind is not MoveKind.DRIVE):
            return "oil is sprayed behind a car that drives somewhere on the track"
        return None

    def collectables(self) -> list[tuple[int, object]]:
        """The track's collectables still lying on it (index, collectable)."""
        return self.gadgets.lying(self.race.track.collectables)

    def damage_limit(self, index: int) -> int | None:
        """The most damage car ``index`` survives: the rules' limit plus any extra damage
        points, or, where cars are designed in the shop, just the points it holds."""
        rules = self.race.rules
        points = self.cars[index].kit.damage
        if rules.equipment_shop == "design":
            return points
        return None if rules.damage_limit is None else rules.damage_limit + points

    def candidate_for(self, move: Move) -> Candidate | None:
        return next((c for c in self.candidates() if c.target == move.target), None)

    def check(self, move: Move) -> str | None:
        """``None`` when ``move`` is legal now, else why not (the words ``apply`` raises)."""
        if self.over:
            return "the race is over"
        index = self.current_car
        assert index is not None
        name = self.race.cars[index].name
        if move.action is Action.RETIRE:
            return self._retire_problem(index, move)
        if self.steering is not None and not move.missile:
            return f"{name}'s missile moves now: the car has moved this turn"
        if self.steering is None and move.missile:
            return f"{name} has no missile to move now"
        candidate = self.candidate_for(move)
        if candidate is None:
            allowed = ", ".join(str(m) for m in self.legal_moves()) or "none"
            return f"{name} cannot reach {tuple(move.target)} this turn; legal moves: {allowed}"
        if not candidate.legal:
            return f"{name} may not move to {tuple(move.target)}: {candidate.reason}"
        problem = self.action_problem(move, candidate)
        if problem:
            return f"{name} cannot {move.action.value}: {problem}"
        return None

    def _retire_problem(self, index: int, move: Move) -> str | None:
        """Why the car cannot retire with this move: it retires where it stands, and not
        while its missile is to be moved."""
        here = self.cars[index].position
        if self.steering is not None:
            return f"{self._name(index)}'s missile moves now: the car cannot retire"
        if move.missile or move.target != here:
            return f"{self._name(index)} retires where it stands, at {tuple(here)}"
        return None

    def take_events(self) -> list[Event]:
        """Events of turns that resolved themselves since the last ``apply`` (at the start)."""
        events, self._pending = self._pending, []
        return events

    @property
    def outcome(self) -> Outcome | None:
        if self.over and self._outcome is None:
            self._outcome = self._rank()
        return self._outcome

    def lap_and_checkpoint(self, index: int) -> tuple[int, int]:
        return self.course_of(index).lap_and_checkpoint(self.cars[index].progress)

    # -- changing -----------------------------------------------------------------------------

    def apply(self, move: Move) -> list[Event]:
        """Make the current car's move; return what happened (including turns that followed
        with no choice to make). Raises ``IllegalMoveError`` and changes nothing if the move is
        not one of the legal candidates."""
        reason = self.check(move)
        if reason is not None:
            raise IllegalMoveError(reason)
        index = self.current_car
        assert index is not None
        if move.action is Action.RETIRE:
            return self._play(index, move, None)
        candidate = self.candidate_for(move)
        assert candidate is not None
        return self._play(index, move, candidate)

    def apply_unchecked(self, move: Move) -> list[Event]:
        """Make a move already known to be legal (a search's own, or a verified replay's),
        without building the candidate list or checking it: a move that is not legal leaves
        the state undefined. ``apply`` is the checked path."""
        index = self.current_car
        assert index is not None
        if move.action is Action.RETIRE:
            return self._play(index, move, None)
        if self.unplaced:
            candidate = Candidate(move.target, ZERO, legal=True, kind=MoveKind.PLACE)
        elif self.steering is not None:
            candidate = self.candidate_for(move)  # type: ignore[assignment]
        else:
            moves = self._current_moves()
            rows = np.flatnonzero((moves.tx == move.target.x) & (moves.ty == move.target.y))
            candidate = to_candidates(moves, self.race.rules, self.race.cars, rows[:1])[0]
        return self._play(index, move, candidate)

    def _play(self, index: int, move: Move, candidate: Candidate | None) -> list[Event]:
        events = self._pending
        self._pending = []
        self.history.append((index, move))
        if candidate is None:  # a retirement (checked by ``_retire_problem``)
            return events + self._retire(index)
        if candidate.kind is MoveKind.PLACE:
            return events + self._place(index, candidate.target) + self._settle()
        self.last_round = self.round
        if candidate.missile:
            events += self._steer(candidate)
            return events + (self._end_turn() if self.steering is None else [])
        shot: set[int] = set()
        events += self._guns(index, shot)
        if move.action is Action.MISSILE:
            events += self._fire(index)
        p = self.cars[index].position
        self._note_held(index, candidate)
        events += self._move(index, candidate)
        if move.action is Action.OIL and self.cars[index].position == candidate.target:
            events += self._spray(index, p, candidate.target)
        if self.cars[index].racing:
            events += self._guns(index, shot)
        # Straight missiles strike only after the mover's own missiles fly at the end of its
        # turn (in ``_advance_turn``), steered ones once the car has moved (``_car_done``):
        # either way a missile just fired moves away from the car's starting point first.
        more, steering = self._car_done(index)
        return events + more + ([] if steering else self._end_turn())

    def place(self, index: int, position: Vec, velocity: Vec = ZERO,
              progress: int | None = None, damage: int | None = None) -> None:
        """Put a car on the track at a point and velocity (for scripts, puzzles and tests).

        The car is on the track afterwards; ``progress`` and ``damage`` keep their values
        unless given. The history is not changed. Before the start, where cars choose their
        start points, a car placed by hand has made its choice.
        """
        if index in self.unplaced:
            self.unplaced.remove(index)
            self.trails[index] = []
        car = self.cars[index]
        self.set_car(index, replace(car, position=Vec(*position), velocity=Vec(*velocity),
                                    progress=car.progress if progress is None else progress,
                                    damage=car.damage if damage is None else damage,
                                    off_track=False, exit_distance=None, lines_lost=0))
        self.trails[index].append(Vec(*position))

    def set_car(self, index: int, car: CarState) -> None:
        """Replace one car's whole state (a scripting hook; the rules are not consulted)."""
        self.cars[index] = car
        self._forget_moves()

    def clone(self) -> RaceState:
        other = object.__new__(RaceState)
        other.race = self.race
        other.cars = list(self.cars)
        other.turn, other.round = self.turn, self.round
        other.history = list(self.history)
        other.trails = [list(t) for t in self.trails]
        other.over = self.over
        other.last_round = self.last_round
        other.unplaced = list(self.unplaced)
        other._termination = self._termination
        other._outcome = self._outcome
        other._candidates = self._candidates
        other._moves = self._moves
        other._pending = list(self._pending)
        other.gadgets = self.gadgets.clone()
        other.held = list(self.held)
        other.still = list(self.still)
        return other

    # -- cars holding each other up ----------------------------------------------------------

    def _note_held(self, index: int, candidate: Candidate) -> None:
        """Count the turns a car stands still, and those it does so with other racing cars on
        points it could have gone to (the candidates' targets, legal or not)."""
        car = self.cars[index]
        by: frozenset[int] = frozenset()
        if candidate.target == car.position and candidate.velocity == ZERO:
            moves = self._current_moves()
            reach = set(zip(moves.tx.tolist(), moves.ty.tolist(), strict=True))
            by = frozenset(j for j, other in enumerate(self.cars)
                           if j != index and other.racing
                           and (other.position.x, other.position.y) in reach)
        self.held[index] = (self.held[index][0] + 1 if by else 0, by)
        # At rest where it was: a car braking to a stop has changed (its speed).
        standing = car.velocity == ZERO and candidate.target == car.position \
            and candidate.velocity == ZERO
        self.still[index] = self.still[index] + 1 if standing else 0

    def holding_up(self, a: int, b: int) -> bool:
        """Whether cars ``a`` and ``b`` have held each other up for ``STALL_TURNS`` turns."""
        (turns_a, by_a), (turns_b, by_b) = self.held[a], self.held[b]
        return min(turns_a, turns_b) >= STALL_TURNS and b in by_a and a in by_b

    def passable(self, index: int) -> frozenset[int]:
        """The cars whose points car ``index`` may take (``stalled: pass``): those it and they
        have held each other up long enough."""
        if self.race.rules.stalled != "pass" or self.held[index][0] < STALL_TURNS:
            return frozenset()
        return frozenset(j for j in self.held[index][1] if self.holding_up(index, j))

    @property
    def stalled(self) -> bool:
        """Whether the cars still racing (two or more) have all stood still, at rest where they
        were, for ``STALL_TURNS`` turns running while nothing else changed (no car missing
        turns, no missile in flight), whatever their distance: nothing would ever change
        again. Under ``stalled: pass`` cars face to face may pass each other once they have
        held each other up that long, so there the standstill must last twice as long."""
        racing = [i for i, car in enumerate(self.cars) if car.racing]
        turns = STALL_TURNS * (2 if self.race.rules.stalled == "pass" else 1)
        return len(racing) > 1 and not self.missiles \
            and all(self.still[i] >= turns for i in racing)

    # -- the rules at work --------------------------------------------------------------------

    def _place(self, index: int, spot: Vec) -> list[Event]:
        self.unplaced.remove(index)
        self.cars[index] = replace(self.cars[index], position=spot)
        self.trails[index] = [spot]
        self._forget_moves()
        return [Event(EventKind.PLACED, index, f"{self._name(index)} starts at {tuple(spot)}",
                      spot)]

    def _move(self, index: int, candidate: Candidate) -> list[Event]:
        rules, course = self.race.rules, self.course_of(index)
        car = self.cars[index]
        name = self.race.cars[index].name
        p, q = car.position, candidate.target
        if candidate.kind is MoveKind.CRASH:
            # A special move into the wall spends its use too (its speed counts in the damage).
            return self._crash(index, q, f"{name} hits the wall", candidate)
        found = successors_of(course, rules, self.race.cars[index], car, [candidate],
                              self.damage_limit(index))
        new = replace(car_after(car, found.cars), moves=car.moves + 1)
        events: list[Event] = []
        if candidate.kind is MoveKind.LEAVE:
            events.append(Event(EventKind.LEFT_TRACK, index, f"{name} leaves the track", q))
        elif candidate.kind is MoveKind.RETURN:
            events.append(Event(EventKind.BACK_ON_TRACK, index, f"{name} is back on the track", q))
        else:
            events.append(Event(EventKind.MOVED, index, f"{name} moves to {tuple(q)}", q))
        item = candidate.note.item
        if item:
            left = getattr(new.kit, item)
            events.append(Event(EventKind.USED, index, f"{name} uses {candidate.note.value} "
                                f"({left} left)", q, left))
        if new.pitted and not car.pitted:
            events.append(Event(EventKind.PIT_STOP, index, f"{name} makes its pit stop", q))
        elif (pit_stop_required(course, rules) and not new.pitted
              and course.advance_one(car.progress, p, q) >= course.goal):
            events.append(Event(EventKind.NEEDS_PIT, index, f"{name} crosses the finish but "
                                "must make its pit stop first", q))
        self.cars[index] = new
        self.trails[index].append(q)
        events += self._collect(index, p, q)
        if candidate.kind is MoveKind.COLLISION:
            events += self._collide(index, p, q)
        events += self._area_events(index, car.areas, new.areas, q)
        events += self._progress_events(index, car.progress, p, q)
        return events

    def _set_back_spot(self, index: int, taken: list[Vec]) -> tuple[int, int]:
        """Where a crashed car is set back (``crash.outcome: set-back``, Karopapier's ZZZ):
        where it stood ``crash.set-back`` moves ago, or where it started if it has made fewer;
        if another car stands there, the nearest point of its way before that one no car
        stands on (its own point, if there is none)."""
        trail = self.trails[index]
        back = max(len(trail) - 1 - self.race.rules.crash_set_back, 0)
        for point in reversed(trail[:back + 1]):
            if point not in taken:
                return (point.x, point.y)
        here = self.cars[index].position
        return (here.x, here.y)

    def _crash(self, index: int, q: Vec, what: str,
               candidate: Candidate | None = None) -> list[Event]:
        """The car leaves the track on its move to ``q`` (a crash ``candidate``, or its
        unchanged move when it has no legal one): the rules' damage, then out, or put back on
        the point nearest to where it left (a free one) to start again from rest."""
        rules, course = self.race.rules, self.course_of(index)
        car = self.cars[index]
        p = car.position
        if candidate is not None and candidate.note.item:
            item = candidate.note.item
            car = replace(car, kit=replace(car.kit, **{item: max(getattr(car.kit, item) - 1, 0)}))
        transition = transition_of(course, rules, self.race.cars[index], car)
        taken = [c.position for j, c in enumerate(self.cars) if j != index and c.racing] \
            if rules.cars != "shared" else []
        spots = np.array([self._set_back_spot(index, taken)]) \
            if rules.crash_outcome == "set-back" else None
        crashed = transition.crash(car_batch(car), np.array([q.x]), np.array([q.y]),
                                   self.damage_limit(index), taken, spots=spots)
        new = replace(car_after(car, crashed.cars), moves=car.moves + 1)
        events = [Event(EventKind.CRASHED, index, what, p)]
        damage = new.damage - car.damage
        if damage:
            events.append(Event(EventKind.DAMAGED, index, f"{self._name(index)} takes "
                                f"{damage} damage", p, damage))
        if crashed.out[0] in (Out.CRASHED, Out.STRANDED):
            self.cars[index] = replace(new, position=p, off_track=car.off_track,
                                       exit_distance=car.exit_distance,
                                       lines_lost=car.lines_lost)
            why = "crashed" if crashed.out[0] == Out.CRASHED \
                else "stranded off the track, with no way back behind where it left"
            return events + self._knock_out(index, why)
        new = replace(new, missed_turns=rules.crash_miss_turns)
        self.cars[index] = new
        self.trails[index].append(new.position)
        events += self._progress_events(index, car.progress, p, new.position)
        if self._over_damage(index):
            events += self._knock_out(index, "too much damage")
        return events

    def _collide(self, index: int, p: Vec, q: Vec) -> list[Event]:
        """Baker: "look back and count how many squares apart the two cars were last turn.
        Both cars take one point of damage for each square", and both stop.

        "Last turn" is, for each car, where it stood before its latest move: the moving car at
        ``p``, the car it hits one velocity back from its point (a car at rest, or put back
        after a crash, stood where it is). Squares apart are counted as Baker counts speed:
        the larger of the two coordinate differences. So a head-on meeting at speeds 3 and 3
        costs 6 each (out, over Baker's limit of 5), and rear-ending a car doing 1 at speed 4
        costs 3 (survived), as "head on collisions nearly always fatal, but you can usually
        survive rear-ending another car" says."""
        events: list[Event] = []
        for other, car in enumerate(self.cars):
            if other == index or not car.racing or car.position != q:
                continue
            apart = (car.position - car.velocity - p).speed
            events.append(Event(EventKind.COLLIDED, index, f"{self._name(index)} collides with "
                                f"{self._name(other)}", q, apart))
            for who in (index, other):
                self.cars[who] = replace(self.cars[who], velocity=ZERO,
                                         damage=self.cars[who].damage + apart)
                if apart:
                    events.append(Event(EventKind.DAMAGED, who, f"{self._name(who)} takes "
                                        f"{apart} damage", q, apart))
                if self._over_damage(who):
                    events += self._knock_out(who, "too much damage")
        return events

    def _area_events(self, index: int, before: int, after: int, q: Vec) -> list[Event]:
        """A checkpoint area passed for the first time this lap (``racetrack.board.areas``)."""
        new = after & ~before
        total = self.course_of(index).area_marks.count
        return [Event(EventKind.CHECKPOINT, index, f"{self._name(index)} passes checkpoint "
                      f"{k + 1} ({bin(after).count('1')} of {total})", q, k + 1)
                for k in range(total) if new >> k & 1]

    def _progress_events(self, index: int, before: int, p: Vec, q: Vec) -> list[Event]:
        course = self.course_of(index)
        car = self.cars[index]
        events: list[Event] = []
        if car.progress > before and car.racing:
            if car.progress >= course.goal:
                order_position = self.race.order.index(index)
                record = FinishRecord(self.round, order_position, course.finish_fraction(p, q),
                                      course.distance_past_finish(q))
                self.cars[index] = replace(car, status=CarStatus.FINISHED, finish=record)
                events.append(Event(EventKind.FINISHED, index, f"{self._name(index)} finishes",
                                    q))
            else:
                laps, checkpoints = course.lap_and_checkpoint(car.progress)
                old_laps, _ = course.lap_and_checkpoint(before)
                if laps > old_laps:
                    events.append(Event(EventKind.LAP, index, f"{self._name(index)} completes "
                                        f"lap {laps} of {course.laps}", q, laps))
                elif checkpoints == 0:
                    events.append(Event(EventKind.CHECKPOINT, index, f"{self._name(index)} is "
                                        "over the start line again", q, checkpoints))
                else:
                    what = "reaches point" if course.is_point[car.progress - 1] \
                        else "passes checkpoint"
                    events.append(Event(EventKind.CHECKPOINT, index, f"{self._name(index)} {what} "
                                        f"{checkpoints}", q, checkpoints))
        return events

    def _over_damage(self, index: int) -> bool:
        limit = self.damage_limit(index)
        car = self.cars[index]
        return limit is not None and car.racing and car.damage > limit

    def _hurt(self, index: int, amount: int, where: Vec, why: str) -> list[Event]:
        """Damage a racing car (a missile, machine guns); out if it is too much."""
        car = self.cars[index]
        if not car.racing or amount <= 0:
            return []
        self.cars[index] = replace(car, damage=car.damage + amount)
        events = [Event(EventKind.DAMAGED, index, f"{self._name(index)} takes {amount} "
                        f"damage ({why})", where, amount)]
        if self._over_damage(index):
            events += self._knock_out(index, "too much damage")
        return events

    # -- equipment ----------------------------------------------------------------------------

    def _collect(self, index: int, p: Vec, q: Vec) -> list[Event]:
        self.cars[index], events = self.gadgets.collect(index, self.cars[index],
                                                        self.race.track.collectables, p, q)
        return events

    def _spray(self, index: int, p: Vec, q: Vec) -> list[Event]:
        self.cars[index], events = self.gadgets.spray(index, self.cars[index], p, q)
        self._forget_moves()
        return events

    def _guns(self, index: int, shot: set[int]) -> list[Event]:
        return self._deal(*self.gadgets.guns(index, self.cars, self.race.cars, shot))

    def _fire(self, index: int) -> list[Event]:
        self.cars[index], events = self.gadgets.fire(index, self.cars[index])
        return events

    def _fly_missiles(self, owner: int) -> list[Event]:
        return self._deal(*self.gadgets.fly(owner, self.course_of(owner), self.cars))

    def _car_done(self, index: int) -> tuple[list[Event], bool]:
        """The car's part of its turn is done (moved, crashed, waited or sat it out): where
        missiles are steered, they strike (a car may have ended on one), those whose car no
        longer races fall, and the car's own then wait for their moves. Returns the events
        and whether a missile's move is now to be chosen."""
        if not self.missiles or not self.gadgets.steered:
            return [], False
        events = self._deal(*self.gadgets.strikes(self.cars))
        events += self.gadgets.ground(self.cars)
        steering = self.cars[index].racing and self.gadgets.begin_steering(index)
        self._forget_moves()
        return events, steering

    def _steer(self, candidate: Candidate) -> list[Event]:
        """The current missile's move to the candidate's point (its owner's choice)."""
        missile = self.steering
        assert missile is not None
        events = self._deal(*self.gadgets.steer(self.course_of(missile.owner), candidate,
                                                self.cars))
        events += self.gadgets.ground(self.cars)
        self._forget_moves()
        return events

    def _deal(self, events: list[Event], hits: list[Hit]) -> list[Event]:
        """The gadgets' events, each hit's damage dealt after the event that caused it."""
        for hit in hits:
            events = events + self._hurt(hit.car, hit.amount, hit.where, hit.why)
        return events

    def _retire(self, index: int) -> list[Event]:
        """The car's player gives up: the car is out where it stands, and the turn goes on."""
        self.last_round = self.round
        if index in self.unplaced:
            self.unplaced.remove(index)
            return self._knock_out(index, "retired") + self._settle()
        events = self._knock_out(index, "retired")
        more, steering = self._car_done(index)
        return events + more + ([] if steering else self._end_turn())

    def _knock_out(self, index: int, why: str) -> list[Event]:
        self.cars[index] = replace(self.cars[index], status=CarStatus.OUT, out_round=self.round,
                                   velocity=ZERO)
        return [Event(EventKind.OUT, index, f"{self._name(index)} is out ({why})",
                      self.cars[index].position)]

    def _name(self, index: int) -> str:
        return self.race.cars[index].name

    # -- turns --------------------------------------------------------------------------------

    def _end_turn(self) -> list[Event]:
        """Pass the turn on after a move, ending the race when the rules say so."""
        return self._advance_turn() + self._settle()

    def _advance_turn(self) -> list[Event]:
        """Move the turn to the next car in the order; end the race if the rules say so."""
        rules = self.race.rules
        self._forget_moves()
        events = self._fly_missiles(self.race.order[self.turn]) \
            if self.missiles and not self.gadgets.steered else []
        if rules.finish_end == "first-across" and any(c.finish for c in self.cars):
            return events + self._finish_race(Termination.FIRST_ACROSS)
        if self.stalled:
            return events + self._finish_race(Termination.STALLED)
        self.turn += 1
        if self.turn == len(self.race.order):
            self.turn = 0
            self.round += 1
            if rules.finish_end == "round" and any(c.finish for c in self.cars):
                return events + self._finish_race(Termination.ROUND_COMPLETE)
            if self.round > self.race.max_rounds:
                return events + self._finish_race(Termination.MAX_ROUNDS)
        return events

    def _settle(self) -> list[Event]:
        """Bring the turn to the next car with a choice to make, resolving turns without one:
        missed turns, and cars with no legal move (they crash along their unchanged move)."""
        events: list[Event] = []
        while self.unplaced and not self.over:
            legal = [c for c in self.candidates() if c.legal]
            if len(legal) > 1:
                return events
            # One place left (or, sharing a full line, none free): no choice to make.
            spot = legal[0].target if legal else self.cars[self.unplaced[0]].position
            events += self._place(self.unplaced[0], spot)
        while not self.over:
            if not any(c.racing for c in self.cars):
                return events + self._finish_race(Termination.NO_CAR_RACING)
            index = self.race.order[self.turn]
            car = self.cars[index]
            if car.racing and car.missed_turns:
                self.cars[index] = replace(car, missed_turns=car.missed_turns - 1)
                self.still[index] = 0  # its turns go by: something changes
                events.append(Event(EventKind.MISSED_TURN, index, f"{self._name(index)} misses "
                                    "a turn", car.position))
            elif car.racing:
                moves = self._current_moves()
                assert moves.legal is not None and moves.refusal is not None
                if moves.legal.any():
                    return events
                if self.race.rules.blocked == "wait" and \
                        (moves.refusal == REFUSALS.index(Refusal.OCCUPIED)).any():
                    events += self._wait(index)
                else:
                    events.append(Event(EventKind.STUCK, index, f"{self._name(index)} has no "
                                        "legal move", car.position))
                    self.last_round = self.round
                    events += self._crash(index, car.position + car.velocity,
                                          f"{self._name(index)} crashes")
            more, steering = self._car_done(index)
            events += more
            if steering:
                return events  # the car's turn went by itself; its missiles' moves do not
            events += self._advance_turn()
        return events

    def _wait(self, index: int) -> list[Event]:
        """Every point the car could reach on the track is taken by a car: it stays where it
        is and comes to rest (``blocked: wait``)."""
        car = self.cars[index]
        self.still[index] = self.still[index] + 1 if car.velocity == ZERO else 0
        self.cars[index] = replace(car, velocity=ZERO, launch=False, moves=car.moves + 1)
        self.trails[index].append(car.position)
        self.last_round = self.round
        return [Event(EventKind.BLOCKED, index, f"{self._name(index)} is boxed in by cars and "
                      "waits", car.position)]

    def _finish_race(self, termination: Termination) -> list[Event]:
        self.over = True
        self._forget_moves()
        self._termination = termination
        outcome = self.outcome
        assert outcome is not None
        winner = outcome.winner
        text = (f"{self._name(winner)} wins" if winner is not None else "nobody wins") + \
            f" ({outcome.reason})"
        return [Event(EventKind.RACE_OVER, winner, text)]

    def _rank(self) -> Outcome:
        rules = self.race.rules

        def to_go(index: int) -> float:
            course = self.course_of(index)
            field = distance_field(course, rules.boundary_counts, rules.areas_checkpoints)
            car = self.cars[index]
            detour = field.to_pit(car.position) \
                if pit_stop_required(course, rules) and not car.pitted else 0.0
            return field(car.position, car.progress, car.areas) + detour

        def finish_key(index: int) -> tuple:
            record = self.cars[index].finish
            assert record is not None
            by = {"farthest": (-record.past, record.fraction, record.turn_position),
                  "earliest": (record.fraction, -record.past, record.turn_position),
                  "order": (record.turn_position,)}[rules.finish_tie_break]
            return (record.round, *by)

        order = self.race.order
        finished = sorted((i for i, c in enumerate(self.cars) if c.finish), key=finish_key)
        racing = sorted((i for i, c in enumerate(self.cars) if c.racing),
                        key=lambda i: (-self.cars[i].progress, to_go(i), order.index(i)))
        out = sorted((i for i, c in enumerate(self.cars) if c.status is CarStatus.OUT),
                     key=lambda i: (-(self.cars[i].out_round or 0), -self.cars[i].progress,
                                    order.index(i)))
        ranking = tuple(finished + racing + out)
        winner = finished[0] if finished else None
        termination = self._termination or Termination.STOPPED
        return Outcome(ranking, winner, termination, self.last_round,
                       termination.text(self.race.max_rounds))
