"""What each of the human car's candidates does, worked out a little each frame.

Playing out a candidate on a copy of the race takes a few milliseconds, so a turn's outlooks
are worked out in slices of the frame (a few milliseconds each) while the window keeps drawing;
until a candidate's outlook is known, its look comes from its kind alone. The slices run on the
frame's own thread: a worker thread would hold the interpreter for tens of milliseconds at a
time and stutter the frame, and shapely's prepared geometry must not be asked questions from two
threads at once.

The car's moves-to-go table (which says when no way on avoids the wall) takes up to seconds to
build, so that is built on a worker thread, on a course of its own, and the outlooks are worked
out again once it is in.
"""

from __future__ import annotations

import time
from concurrent.futures import Future, ThreadPoolExecutor

from racetrack.ai.tables import value_table
from racetrack.compact import CompactTable
from racetrack.errors import RacetrackError
from racetrack.game import Race, RaceState
from racetrack.outlook import Outlook, outlook, quick, tables_apply
from racetrack.rules.moves import swims
from racetrack.ui.waking import waking

#: The share of a frame spent on outlooks, in seconds.
BUDGET = 0.004


class Lookout:
    """The current turn's outlooks, filled in slice by slice."""

    def __init__(self, race: Race):
        self.race = race
        self._builder = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tables")
        self._own_race: Race | None = None  # the builder's, with a course of its own
        self._tables: dict[tuple[int, bool], Future] = {}
        self._key: tuple | None = None
        self._state: RaceState | None = None
        self._found: list[Outlook] = []
        self._table: CompactTable | None = None

    def _table_for(self, state: RaceState) -> tuple[bool, CompactTable | None]:
        """(whether the answer is final, the table) for the current car."""
        index = state.current_car
        if index is None or state.placing or not tables_apply(state):
            return True, None
        key = (index, swims(state.race.cars[index], state.cars[index]))
        if key not in self._tables:
            self._tables[key] = waking(self._builder.submit(self._build, index, key[1]))
        job = self._tables[key]
        if not job.done():
            return False, None
        return True, job.result()

    def _build(self, index: int, can_swim: bool) -> CompactTable | None:
        if self._own_race is None:
            race = self.race
            self._own_race = Race(race.track, race.rules, race.cars, seed=race.seed)
        try:
            return value_table(self._own_race.course_of(index), self._own_race.rules,
                               can_swim)
        except RacetrackError:  # too large a track for a table: the one-turn look only
            return None

    def outlooks(self, state: RaceState) -> list[Outlook]:
        """Every candidate's outlook, as far as worked out (the rest by their kinds)."""
        self._start(state)
        candidates = state.candidates()
        done = len(self._found)
        return self._found + [quick(c) for c in candidates[done:]]

    @property
    def complete(self) -> bool:
        return self._state is not None and len(self._found) == len(self._state.candidates())

    def _start(self, state: RaceState) -> None:
        final, table = self._table_for(state)
        key = (id(state), len(state.history), state.current_car, state.round, len(state.oil),
               tuple(state.cars), final)
        if key != self._key:
            self._key = key
            self._state = state.clone()
            self._found = []
            self._table = table

    def work(self, state: RaceState, budget: float = BUDGET) -> None:
        """Work out outlooks for up to ``budget`` seconds."""
        self._start(state)
        assert self._state is not None
        candidates = self._state.candidates()
        started = time.perf_counter()
        while len(self._found) < len(candidates):
            self._found.append(outlook(self._state, candidates[len(self._found)],
                                       self._table))
            if time.perf_counter() - started > budget:
                break

    def finish(self, state: RaceState) -> list[Outlook]:
        """Every outlook now, with the table (tests and pictures wait for it)."""
        self._table_for(state)
        for job in self._tables.values():
            job.result()
        self.work(state, budget=float("inf"))
        return self.outlooks(state)

    def close(self) -> None:
        self._builder.shutdown(wait=False, cancel_futures=True)
