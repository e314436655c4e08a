"""A race: its fixed setup (``Race``) and its changing state (``RaceState``).

``Race`` holds what never changes: the track (as a prepared ``Course``), the rule set, the cars
as set up and the seed. ``RaceState`` holds what does: each car's position, velocity, damage and
status, whose turn it is, the round, the history of moves and the trails. The state lists the
current car's candidate moves with the rules' verdict on each, applies a chosen move (raising
``IllegalMoveError`` and changing nothing if it is not legal) and reports what happened as
events. Turns that need no choice (a missed turn, a car with no legal move) resolve themselves
before the next choice, so ``history`` is exactly the list of choices and replaying it
re-creates every state.

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

from racetrack.course import Course
from racetrack.errors import IllegalMoveError
from racetrack.geometry import ZERO, Vec
from racetrack.model import (
    Candidate,
    CarSetup,
    CarState,
    CarStatus,
    Event,
    EventKind,
    FinishRecord,
    Move,
    MoveKind,
    Outcome,
)
from racetrack.rules.moves import after_move, pit_stop_required, surfaces_for
from racetrack.rules.moves import candidates as generate_candidates
from racetrack.rules.ruleset import RuleSet
from racetrack.track import Track

MAX_CARS = 12


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
        self.course = Course(track, laps=rules.laps, checkpoints=rules.checkpoints == "in-order")
        self._reverse_course: Course | None = None
        for car in self.cars:
            if car.reverse and rules.start_direction != "either":
                raise ValueError(f"{car.name} cannot race in reverse: the rule set "
                                 f"{rules.name!r} has every car race forwards")
            if car.reverse and not track.is_circuit:
                raise ValueError(f"{car.name} cannot race in reverse: {track.name!r} is not a "
                                 "circuit")
        order = list(range(len(cars)))
        if rules.turn_order == "lots":
            random.Random(seed).shuffle(order)
        self.order: tuple[int, ...] = tuple(order)
        self.grid: tuple[Vec, ...] = self._grid()

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
            self._reverse_course = Course(self.track.reversed(), laps=self.rules.laps,
                                          checkpoints=self.rules.checkpoints == "in-order")
        return self._reverse_course

    @property
    def choose_grid(self) -> bool:
        """Whether the cars pick their own start points before the race."""
        return self.rules.start_grid == "choose"

    def start(self) -> RaceState:
        """The state at the start: every car at rest on its grid point (or, where the cars
        choose their places, waiting to choose: the car that moves last chooses first)."""
        cars = [CarState(position=spot, progress=self.course.start_progress) for spot in self.grid]
        return RaceState(self, cars)

    def describe_car(self, index: int) -> str:
        return self.cars[index].name


class RaceState:
    """The changing part of a race. Mutable: ``apply`` changes it; ``clone`` copies it."""

    def __init__(self, race: Race, cars: list[CarState]):
        self.race = race
        self.cars: list[CarState] = cars
        self.turn = 0  # index into race.order
        self.round = 1
        self.history: list[tuple[int, Move]] = []
        self.trails: list[list[Vec]] = [[car.position] for car in cars]
        self.over = False
        self.last_round = 0  # the round of the latest move: the race's length in turns
        # Cars still to choose their start point, in the order they choose.
        self.unplaced: list[int] = list(reversed(race.order)) if race.choose_grid else []
        self._reason = ""
        self._outcome: Outcome | None = None
        self._candidates: list[Candidate] | None = None
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

    def candidates(self) -> list[Candidate]:
        """The current car's candidate points, legal or not, each with the reason if not."""
        if self.over:
            return []
        if self._candidates is None:
            index = self.current_car
            assert index is not None
            if self.unplaced:
                self._candidates = self._start_points(index)
            else:
                self._candidates = generate_candidates(self.course_of(index), self.race.rules,
                                                       self.race.cars, self.cars, index)
        return self._candidates

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

    def candidate_for(self, move: Move) -> Candidate | None:
        return next((c for c in self.candidates() if c.target == move.target), None)

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
        if self.over:
            raise IllegalMoveError("the race is over")
        index = self.current_car
        assert index is not None
        name = self.race.cars[index].name
        candidate = self.candidate_for(move)
        if candidate is None:
            allowed = ", ".join(str(m) for m in self.legal_moves()) or "none"
            raise IllegalMoveError(f"{name} cannot reach {tuple(move.target)} this turn; "
                                   f"legal moves: {allowed}")
        if not candidate.legal:
            raise IllegalMoveError(f"{name} may not move to {tuple(move.target)}: "
                                   f"{candidate.reason}")
        events = self._pending
        self._pending = []
        self.history.append((index, move))
        if candidate.kind is MoveKind.PLACE:
            return events + self._place(index, candidate.target) + self._settle()
        self.last_round = self.round
        events += self._move(index, candidate)
        events += self._end_turn()
        return events

    def place(self, index: int, position: Vec, velocity: Vec = ZERO,
              progress: int | None = None, damage: int | None = None) -> None:
        """Put a car on the track at a point and velocity (for scripts, puzzles and tests).

        The car is on the track afterwards; ``progress`` and ``damage`` keep their values
        unless given. The history is not changed.
        """
        car = self.cars[index]
        self.set_car(index, replace(car, position=Vec(*position), velocity=Vec(*velocity),
                                    progress=car.progress if progress is None else progress,
                                    damage=car.damage if damage is None else damage,
                                    off_track=False, exit_distance=None))
        self.trails[index].append(Vec(*position))

    def set_car(self, index: int, car: CarState) -> None:
        """Replace one car's whole state (a scripting hook; the rules are not consulted)."""
        self.cars[index] = car
        self._candidates = None

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
        other._reason = self._reason
        other._outcome = self._outcome
        other._candidates = self._candidates
        other._pending = list(self._pending)
        return other

    # -- the rules at work --------------------------------------------------------------------

    def _place(self, index: int, spot: Vec) -> list[Event]:
        self.unplaced.remove(index)
        self.cars[index] = replace(self.cars[index], position=spot)
        self.trails[index] = [spot]
        self._candidates = None
        return [Event(EventKind.PLACED, index, f"{self._name(index)} starts at {tuple(spot)}",
                      spot)]

    def _move(self, index: int, candidate: Candidate) -> list[Event]:
        rules, course = self.race.rules, self.course_of(index)
        car = self.cars[index]
        name = self.race.cars[index].name
        p, q = car.position, candidate.target
        if candidate.kind is MoveKind.CRASH:
            return self._crash(index, p, q, f"{name} hits the wall")
        events: list[Event] = []
        new = after_move(course, rules, car, q)
        if candidate.kind is MoveKind.LEAVE:
            exit_distance = None
            if rules.leaving_track == "detour":
                exit_distance = course.distance_field(rules.boundary_counts)(p, car.progress)
            new = replace(new, off_track=True, exit_distance=exit_distance)
            events.append(Event(EventKind.LEFT_TRACK, index, f"{name} leaves the track", q))
        elif candidate.kind is MoveKind.RETURN:
            new = replace(new, off_track=False, exit_distance=None)
            events.append(Event(EventKind.BACK_ON_TRACK, index, f"{name} is back on the track", q))
        else:
            events.append(Event(EventKind.MOVED, index, f"{name} moves to {tuple(q)}", q))
        if new.pitted and not car.pitted:
            events.append(Event(EventKind.PIT_STOP, index, f"{name} makes its pit stop", q))
        elif (pit_stop_required(course, rules) and not new.pitted
              and course.advance_one(car.progress, p, q) >= course.goal):
            events.append(Event(EventKind.NEEDS_PIT, index, f"{name} crosses the finish but "
                                "must make its pit stop first", q))
        self.cars[index] = new
        self.trails[index].append(q)
        if candidate.kind is MoveKind.COLLISION:
            events += self._collide(index, p, q)
        events += self._progress_events(index, car.progress, p, q)
        return events

    def _crash(self, index: int, p: Vec, q: Vec, what: str) -> list[Event]:
        """The car leaves the track on p→q: damage, then out or put back at the nearest point."""
        rules, course = self.race.rules, self.course_of(index)
        car = self.cars[index]
        surfaces = surfaces_for(course, rules, self.race.cars[index])
        t = surfaces.drive.exit_fraction(p, q, rules.boundary_counts)
        t = 1.0 if t is None else t
        exit_point = (p.x + t * (q.x - p.x), p.y + t * (q.y - p.y))
        events = [Event(EventKind.CRASHED, index, what, p)]
        new = replace(car, velocity=ZERO, moves=car.moves + 1, launch=False)
        if rules.crash_damage == "speed":
            damage = (q - p).speed
            if damage:
                new = replace(new, damage=new.damage + damage)
                events.append(Event(EventKind.DAMAGED, index, f"{self._name(index)} takes "
                                    f"{damage} damage", p, damage))
        if rules.crash_outcome == "out":
            self.cars[index] = new
            return events + self._knock_out(index, "crashed")
        taken = {tuple(c.position) for j, c in enumerate(self.cars) if j != index and c.racing}
        spot = surfaces.land.nearest_lattice_point(
            exit_point, rules.boundary_counts, prefer=p,
            exclude=taken if rules.cars != "shared" else ()) or p
        progress = course.advance_one(car.progress, p, spot)
        if pit_stop_required(course, rules) and not car.pitted:
            progress = min(progress, course.goal - 1)
        new = replace(new, position=spot, progress=progress, off_track=False, exit_distance=None,
                      missed_turns=rules.crash_miss_turns)
        self.cars[index] = new
        self.trails[index].append(spot)
        events += self._progress_events(index, car.progress, p, spot)
        if self._over_damage(index):
            events += self._knock_out(index, "too much damage")
        return events

    def _collide(self, index: int, p: Vec, q: Vec) -> list[Event]:
        """Baker: both cars take one damage per square they were apart, and both stop."""
        events: list[Event] = []
        for other, car in enumerate(self.cars):
            if other == index or not car.racing or car.position != q:
                continue
            apart = (car.position - p).speed
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
        limit = self.race.rules.damage_limit
        car = self.cars[index]
        return limit is not None and car.racing and car.damage > limit

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
        self._candidates = None
        if rules.finish_end == "first-across" and any(c.finish for c in self.cars):
            return self._finish_race("first across the line")
        self.turn += 1
        if self.turn == len(self.race.order):
            self.turn = 0
            self.round += 1
            if rules.finish_end == "round" and any(c.finish for c in self.cars):
                return self._finish_race("the round is complete")
            if self.round > rules.max_rounds:
                return self._finish_race(f"stopped after {rules.max_rounds} rounds")
        return []

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
                return events + self._finish_race("no car is left racing")
            index = self.race.order[self.turn]
            car = self.cars[index]
            if car.racing and car.missed_turns:
                self.cars[index] = replace(car, missed_turns=car.missed_turns - 1)
                events.append(Event(EventKind.MISSED_TURN, index, f"{self._name(index)} misses "
                                    "a turn", car.position))
            elif car.racing:
                if any(c.legal for c in self.candidates()):
                    return events
                events.append(Event(EventKind.STUCK, index, f"{self._name(index)} has no legal "
                                    "move", car.position))
                self.last_round = self.round
                events += self._crash(index, car.position, car.position + car.velocity,
                                      f"{self._name(index)} crashes")
            events += self._advance_turn()
        return events

    def _finish_race(self, reason: str) -> list[Event]:
        self.over = True
        self._candidates = None
        self._reason = reason
        outcome = self.outcome
        assert outcome is not None
        winner = outcome.winner
        text = (f"{self._name(winner)} wins" if winner is not None else "nobody wins") + \
            f" ({reason})"
        return [Event(EventKind.RACE_OVER, winner, text)]

    def _rank(self) -> Outcome:
        rules = self.race.rules

        def to_go(index: int) -> float:
            field = self.course_of(index).distance_field(rules.boundary_counts)
            car = self.cars[index]
            return field(car.position, car.progress)

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
        return Outcome(ranking, winner, self._reason, self.last_round)
