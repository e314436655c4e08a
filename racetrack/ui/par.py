"""The solver's par for time trials, worked out on a background thread.

Solving a big track takes a second or two (and an absurd one is refused), so the setup and
results screens ask here and show "working out par…" until the answer is in; the window keeps
drawing meanwhile. Answers are remembered per track and rule set for the screen's life (and the
solver caches them for the program's).
"""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass

from racetrack.records import TrialKey, solo_par
from racetrack.rules import RuleSet
from racetrack.solver import Solution, SolverError
from racetrack.track import Track
from racetrack.ui.waking import waking


@dataclass(frozen=True)
class ParAnswer:
    """The optimal run (its length is the par), or why there is none."""

    solution: Solution | None
    problem: str = ""

    @property
    def turns(self) -> int | None:
        return self.solution.moves if self.solution is not None else None

    def text(self) -> str:
        if self.solution is not None:
            return f"par {self.solution.moves}"
        return f"no par ({self.problem or 'the finish cannot be reached'})"


def work_out(track: Track, rules: RuleSet) -> ParAnswer:
    try:
        return ParAnswer(solo_par(track, rules))
    except SolverError:
        return ParAnswer(None, "the track is too large to solve")


class ParWorker:
    """One background thread working out pars, one job per track and rule set."""

    def __init__(self):
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="par")
        self.jobs: dict[TrialKey, Future] = {}

    def ask(self, track: Track, rules: RuleSet, key: TrialKey | None = None) -> Future:
        """The job for this track and rules (started on first asking)."""
        key = key or TrialKey.of(track, rules)
        if key not in self.jobs:
            self.jobs[key] = waking(self.pool.submit(work_out, track, rules))
        return self.jobs[key]

    @staticmethod
    def status(job: Future | None) -> str:
        """What to show for a job: the par, or that it is still being worked out."""
        if job is None or not job.done():
            return "working out par…"
        try:
            return job.result().text()
        except Exception:  # a failed solve must not close the window
            return "no par (the solver failed)"

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)
