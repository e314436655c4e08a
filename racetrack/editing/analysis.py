"""What the solver says about a finished drawing: par, fairness and lines that look wrong.

Run off the window's thread (``Analyst``), after the drawing has been still for a moment:

* the par (fewest moves from the best start point) and its optimal line, from
  ``racetrack.search.drivers.tables.par``, under the rules the player has chosen;
* the fairness line: the optimum from each start point (``solve_each_start``, the solver's
  ``--starts``), and a problem marked on every start place from which no car can finish
  (the track is not ready to race while one is left: a car put there is out of the race);
* a finish or checkpoint that faces backwards: the best route with the checkpoints left out
  crosses it the wrong way first;
* a checkpoint no car can reach (or the finish, when the whole course cannot be finished).
"""

from __future__ import annotations

import logging
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, replace

import numpy as np

from racetrack.base.errors import RacetrackError
from racetrack.board.course import Course
from racetrack.board.geometry import Line, Vec
from racetrack.board.track import Track
from racetrack.board.track.draft import Mark, Severity
from racetrack.rules import RuleSet
from racetrack.search.drivers.tables import par
from racetrack.search.solver import Solution, SolverError, solve, solve_each_start

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Analysis:
    """The solver's findings about one track under one rule set."""

    track: Track
    rules: RuleSet
    solution: Solution | None = None
    each_start: tuple[tuple[Vec, int | None], ...] = ()
    warnings: tuple[Mark, ...] = ()
    problem: str = ""  # why there is nothing to say (too large to solve, ...)

    @property
    def stranded(self) -> tuple[Vec, ...]:
        """The start places no car can finish from."""
        return tuple(point for point, moves in self.each_start if moves is None)

    @property
    def problems(self) -> tuple[Mark, ...]:
        """A mark on each start place no car can finish from, under these rules."""
        return tuple(Mark((float(point[0]), float(point[1])),
                          f"No car can finish from the start place at {tuple(point)} "
                          f"({self.rules.name} rules): move the start or widen the road there")
                     for point in self.stranded)

    @property
    def marks(self) -> tuple[Mark, ...]:
        return (*self.problems, *self.warnings)

    @property
    def par(self) -> int | None:
        return self.solution.moves if self.solution is not None else None

    def par_text(self) -> str:
        if self.problem:
            return f"no par: {self.problem}"
        if self.solution is None:
            return "no par: the finish cannot be reached"
        return f"par {self.solution.moves} moves ({self.rules.name} rules)"

    def fairness_text(self) -> str:
        """The optimum from each start point, and how far apart they are."""
        values = [moves for _, moves in self.each_start]
        if len(values) < 2:
            return ""
        reached = [v for v in values if v is not None]
        shown = ", ".join("-" if v is None else str(v) for v in values)
        if not reached:
            return f"from each start: {shown}"
        spread = max(reached) - min(reached)
        stuck = len(values) - len(reached)
        verdict = f"{stuck} cannot finish" if stuck else "fair" if spread == 0 else \
            f"{spread} move{'s' if spread != 1 else ''} apart"
        return f"from each start: {shown} ({verdict})"


def analyse(track: Track, rules: RuleSet) -> Analysis:
    """Everything the solver can say about the track; never raises for a bad track."""
    try:
        course = Course(track)
        solution = par(course, rules)
        each = solve_each_start(course, rules)
        warnings = [*backwards_lines(track, rules), *unreachable(track, rules, solution)]
        return Analysis(track, rules, solution, tuple(each.items()), tuple(warnings))
    except SolverError:
        return Analysis(track, rules, problem="the track is too large to solve")
    except (RacetrackError, ValueError) as exc:
        log.warning("editor analysis failed: %s", exc)
        return Analysis(track, rules, problem=str(exc))


def backwards_lines(track: Track, rules: RuleSet) -> list[Mark]:
    """The finish and checkpoints the best route (checkpoints ignored) first crosses the wrong
    way: their arrows probably want flipping."""
    found = solve(Course(track, checkpoints=False), rules)
    if found is None or len(found.path) < 2:
        return []
    path = np.array(found.path, dtype=float)
    starts, ends = path[:-1], path[1:]
    lines: list[tuple[str, Line]] = []
    if track.finish is not None:
        lines.append(("The finish line", track.finish))
    lines += [(f"Checkpoint {i + 1}", line) for i, line in enumerate(track.checkpoints)]
    marks = []
    for what, line in lines:
        crossings = line.crossings(starts, ends)
        crossed = crossings[crossings != 0]
        if len(crossed) and crossed[0] < 0:
            marks.append(Mark(_middle(line), f"{what} faces backwards: the best route crosses "
                                             "it the other way (click its arrow to flip it)",
                              Severity.WARNING))
    return marks


def unreachable(track: Track, rules: RuleSet, solution: Solution | None) -> list[Mark]:
    """When the course cannot be finished: which checkpoint no car can reach (either way
    round), or else the finish itself."""
    if solution is not None:
        return []
    marks = []
    for index, line in enumerate(track.checkpoints):
        reachable = any(solve(Course(replace(track, finish=goal, checkpoints=(), waypoints=(),
                                             laps=1)), rules) is not None
                        for goal in (line, Line(line.a, line.b, (-line.forward[0],
                                                                 -line.forward[1]))))
        if not reachable:
            marks.append(Mark(_middle(line), f"Checkpoint {index + 1} cannot be reached from "
                                             "the start", Severity.WARNING))
    if not marks:
        line = track.finish_line
        marks.append(Mark(_middle(line), "No car can finish: the finish cannot be reached "
                                         "(in the checkpoints' order)", Severity.WARNING))
    return marks


class Analyst:
    """One background thread analysing the latest drawing; older requests are dropped."""

    def __init__(self):
        self._pool: ThreadPoolExecutor | None = None
        self.job: Future | None = None
        self.asked: tuple[Track, RuleSet] | None = None

    def ask(self, track: Track, rules: RuleSet) -> Future:
        if self.asked == (track, rules) and self.job is not None:
            return self.job
        if self.job is not None:
            self.job.cancel()  # not started yet: no need; started: its answer is ignored
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="editor")
        self.asked = (track, rules)
        self.job = self._pool.submit(analyse, track, rules)
        return self.job

    def latest(self) -> Analysis | None:
        """The answer to the last question, once it is in."""
        if self.job is None or not self.job.done() or self.job.cancelled():
            return None
        return self.job.result()

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


def _middle(line: Line) -> tuple[float, float]:
    return (line.a[0] + line.b[0]) / 2, (line.a[1] + line.b[1]) / 2
