"""The exact solver: fewest turns to the finish for one car, by search over every state.

The search asks the rules' transition (``racetrack.engine.transition``) for the successors of a
whole layer of states at once, so it sees exactly the moves the game allows a lone car: leaving
the track, crashing and being put back, launches, special moves and all. A state is numbered by
one integer key (``StateSpace``), from its point, velocity, progress and whatever columns the
options make it carry. Layers are taken in order of turns with a bucket queue (a crash that
misses turns costs more than one), so the first finishing state found is optimal.

Speed: where a move can only drive on or be refused (the track may not be left), a successor
already seen is dropped before any geometry is worked out; seen states are one bit each; a
layer's new states are deduplicated by scattering, never sorted. The search gives up when the
states it has found would outgrow a memory budget, not from a worst-case estimate.

``Search`` with ``keep_edges`` explores everything reachable and keeps the edges, from which
``ValueTable`` computes turns-to-go for every state (the computer drivers' table).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from racetrack.base.errors import RacetrackError
from racetrack.board import kernel
from racetrack.board.course import Course
from racetrack.board.geometry import Vec
from racetrack.board.graphs import (
    Bitmap,
    DenseIndex,
    DenseLeastValues,
    HashIndex,
    LeastValues,
    ReverseEdges,
    Unindexed,
    first_of_each,
)
from racetrack.board.track import Track
from racetrack.engine.model import CarState, Kit
from racetrack.engine.movement import special_reach
from racetrack.engine.moves import car_batch
from racetrack.engine.position import car_position
from racetrack.engine.transition import (
    COLUMNS,
    CRASH,
    DRIVE,
    KIT_COLUMNS,
    LEAVE,
    OFF,
    RETURN,
    SPECIAL_CODES,
    Cars,
    CrashSpots,
    MoveMemo,
    Moves,
    Special,
    Transition,
    transition_for,
)
from racetrack.rules.ruleset import RuleSet
from racetrack.search.bound import bound_for

#: Bytes a search may use for its states, its seen-set and its edges before it gives up.
MEMORY_BUDGET = 1 << 30
#: Searched best first under a detour's bound, a state costs several times the memory it
#: does breadth first (the least turns of every state are kept, and states come in out of
#: order of turns), so where the bound is weak it may hold more than breadth first would:
#: such a search gets this share of the budget (a half), and past it the search starts
#: again breadth first.
DETOUR_TRIAL = 2
#: States expanded at once (their moves are built and judged as one batch).
CHUNK = 1 << 15
#: States of a turn taken in at once (deduplicated, numbered and decoded as one batch).
LAYER_SLICE = 1 << 18
#: Bytes of working arrays a state of a slice taken in needs at most (its key and parent
#: copied, the deduplicating hash table, the decoded columns), and a move being judged.
SLICE_BYTES_PER_STATE = 120
MOVE_BYTES = 200
#: States the compiled kernel expands at once, and the bytes of its output a move takes.
COMPILED_CHUNK = 1 << 13
COMPILED_MOVE_BYTES = 40
UNSOLVED = np.iinfo(np.int32).max


class SolverError(RacetrackError):
    """The track cannot be solved here (too large, or no start)."""


@dataclass(frozen=True)
class Step:
    """One turn of a route: the point a player clicks (``None`` for a turn with no choice: a
    turn missed after a crash, or a crash with no legal move, which the game plays itself),
    where the car stands at the end of the turn, and what the turn was (``EVENTS``)."""

    target: Vec | None
    position: Vec
    event: str

    def to_json(self) -> dict:
        return {"target": None if self.target is None else list(self.target),
                "position": list(self.position), "event": self.event}


#: What a route's turn may be: a move on the track, the one that finishes, a crash (the car
#: put back, or set back), a turn missed after one, and Nystrom's and Levi's moves off the
#: track: leaving it, off it, and back onto it.
EVENTS = ("move", "finish", "crash", "miss", "leave", "off", "return")


@dataclass(frozen=True)
class Solution:
    """The fewest turns from a standing start, and one route that takes that many.

    ``path`` is the car's point after each turn, from the start (so a turn missed after a
    crash repeats the point); ``plays`` the point chosen each turn (a crash's point in the
    wall; ``None`` for a turn with no choice: a missed turn, or a crash with no legal move);
    ``steps`` the same turns as ``Step`` values; ``states`` how many states the search
    expanded to prove it optimal."""

    moves: int
    start: Vec
    path: tuple[Vec, ...]
    plays: tuple[Vec | None, ...] = ()
    steps: tuple[Step, ...] = ()
    states: int = 0

    def to_json(self) -> dict:
        return {"moves": self.moves, "start": list(self.start),
                "path": [list(p) for p in self.path],
                "steps": [step.to_json() for step in self.steps], "states": self.states}


class StateSpace:
    """How a search numbers states: one integer key per state, from its columns in a mixed
    radix (point, velocity, progress, then the extra columns the options ask for)."""

    def __init__(self, transition: Transition, columns: Sequence[str],
                 damage_limit: int | None = None, kit: Kit | None = None):
        self.transition = transition
        self.columns = tuple(columns)
        course = transition.course
        self.off_track = "off" in self.columns
        if self.off_track:  # off the track a car may stand anywhere on the paper
            grid = transition.grid
            self.x0, self.y0, self.width = grid.x0, grid.y0, grid.width
            self.points = grid.width * grid.height
            extent_x, extent_y = grid.width - 1, grid.height - 1
        else:
            land = transition.land.points
            if not len(land):
                raise SolverError("the track has no lattice point to stand on")
            self.x0, self.y0 = (int(v) for v in land.min(axis=0))
            extent_x, extent_y = (int(v) for v in land.max(axis=0) - land.min(axis=0))
            self.width = extent_x + 1
            self.points = len(land)
        rules = transition.rules
        accel = special_reach(rules.movement_choices, transition.reaches) if kit \
            else transition.step
        # Reaching speed s along an axis takes at least s(s + a) / 2a squares of it (a: the
        # most a component changes in a turn), and a move is never longer than the paper.
        self.accel = 0 if rules.movement_launch else accel  # 0: no bound on a turn's reach
        self.vmax_x = min(math.isqrt(2 * accel * extent_x) + accel, extent_x)
        self.vmax_y = min(math.isqrt(2 * accel * extent_y) + accel, extent_y)
        if rules.movement_launch:
            self.vmax_x, self.vmax_y = extent_x, extent_y
        least = max(1, rules.crawl_step)  # a crawling car's step is its velocity
        self.vmax_x, self.vmax_y = max(self.vmax_x, least), max(self.vmax_y, least)
        # Off the track: 1, and under a detour 1 + the lines lost round their ends since.
        radix = {"pitted": 2, "launch": 2, "off": course.goal + 1 if transition.keeps_exit else 2,
                 "exit": transition.exit_cap + 1 if "exit" in self.columns else 1,
                 "damage": (damage_limit or 0) + 1,
                 "areas": 1 << transition.marks.count}
        for name in KIT_COLUMNS:
            radix[name] = getattr(kit, name) + 1 if kit is not None else 1
        # The exit last, so a key without it is the key divided by its radix (``least_exit``).
        order = sorted(self.columns, key=lambda name: name == "exit")
        self.radices = [(name, radix[name]) for name in order]
        self.exit_radix = radix["exit"] if "exit" in self.columns else 0
        self.span_x, self.span_y = 2 * self.vmax_x + 1, 2 * self.vmax_y + 1
        self.size = self.points * self.span_x * self.span_y * (course.goal + 1)
        for _, r in self.radices:
            self.size *= r
        # ``finish.landing: anywhere``: a finishing move may end off the track, and off the
        # paper, by as much as one move reaches. Finished states are numbered after the
        # others by their point alone (within that reach of the track), speed left out: a
        # finished car races no more.
        self.finished_base = self.size if transition.finish_anywhere else None
        if self.finished_base is not None:
            reach = max(accel, transition.step)
            self.fx0, self.fy0 = self.x0 - self.vmax_x - reach, self.y0 - self.vmax_y - reach
            self.f_width = extent_x + 2 * (self.vmax_x + reach) + 1
            f_height = extent_y + 2 * (self.vmax_y + reach) + 1
            self.size += self.f_width * f_height

    def compiled(self) -> tuple | None:
        """The numbering and the rules as the compiled kernel's first expansion reads them
        (``racetrack.board.kernel.expand``), where it applies: the transition's rules are the
        ordinary ones (``Transition.ordinary``) and a state is its point on the track,
        velocity and progress alone."""
        transition = self.transition
        if not transition.ordinary or self.radices or self.off_track \
                or self.finished_base is not None:
            return None
        return self._space_rules()

    def _space_rules(self) -> tuple:
        points = np.ascontiguousarray(self.transition.land.points.reshape(-1), dtype=np.int64)
        return (self.vmax_x, self.vmax_y, self.transition.goal, points,
                *self.transition.compiled_rules())

    def kernel_rules(self, damage_limit: int | None, leave_track: bool = True) -> tuple | None:
        """The numbering and every rule as the compiled kernel's ``successors`` reads them
        (``unpack_rules`` in ``_kernel.c``), where it applies: the transition's rules allow it
        (``Transition.compiled``), the state carries no more than the kernel numbers (no kit,
        no pit stop, no launch) and no finishing move ends off the track.
        ``leave_track=False``: moves that leave the track are legal but not followed."""
        transition = self.transition
        if not transition.compiled or self.finished_base is not None \
                or any(name not in kernel.COLUMN_CODES for name, _ in self.radices) \
                or self.size >= 1 << 63:
            return None
        grid = transition.grid
        land = transition.land.compiled
        drive = transition.drive.compiled
        crawl, leaving, crash, zones, marks, units = transition.kernel_rules(damage_limit)
        extra = np.array([[kernel.COLUMN_CODES[name], radix] for name, radix in self.radices],
                         dtype=np.int64).reshape(-1)
        return (self._space_rules(), land.packed, drive.packed,
                transition.course.compiled_lines.packed,
                (int(self.off_track), grid.x0, grid.y0, grid.width, grid.height), extra, crawl,
                (*leaving, int(not leave_track)), crash, zones, marks, units)

    def progress_of(self, keys: np.ndarray) -> np.ndarray:
        """The progress of each state by its key (as ``decode`` would give it)."""
        key = keys.astype(np.int64)
        done = None
        if self.finished_base is not None:
            done = key >= self.finished_base
            key = np.where(done, 0, key)
        below = 1
        for _, radix in self.radices:
            below *= radix
        progress = (key // below) % (self.transition.goal + 1)
        if done is not None:
            progress[done] = self.transition.goal
        return progress.astype(np.int32)

    def point_codes(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        if self.off_track:
            return (y.astype(np.int64) - self.y0) * self.width + (x - self.x0)
        return self.transition.land.point_index(x, y).astype(np.int64)

    def fits(self, cars: Cars) -> np.ndarray:
        """Which states the space can number (velocity within its bounds, a known point).
        A finished car's extra columns do not count: it races no more."""
        ok = (np.abs(cars.vx) <= self.vmax_x) & (np.abs(cars.vy) <= self.vmax_y)
        if not self.off_track:
            ok &= self.transition.land.point_index(cars.x, cars.y) >= 0
        racing = cars.progress < self.transition.goal
        for name, r in self.radices:
            value = getattr(cars, name)
            ok &= ~racing | ((value >= 0) & (value < r))
        if self.finished_base is not None:
            col, row = cars.x - self.fx0, cars.y - self.fy0
            ok = np.where(racing, ok, (col >= 0) & (col < self.f_width) & (row >= 0)
                          & (row < (self.size - self.finished_base) // self.f_width))
        return ok

    def encode(self, cars: Cars) -> np.ndarray:
        """Each state's key. A crawling car (``leaving-track: crawl``, off the track) is
        numbered at rest: its next moves are its steps whatever its velocity, and its velocity
        once back on is the step it comes back by, so states alike but for it are one."""
        racing = cars.progress < self.transition.goal
        vx, vy = cars.vx, cars.vy
        if self.off_track and self.transition.leaving == "crawl":
            crawling = (cars.off > 0) & racing
            vx, vy = np.where(crawling, 0, vx), np.where(crawling, 0, vy)
        key = self.point_codes(cars.x, cars.y)
        key = key * self.span_x + (vx + self.vmax_x)
        key = key * self.span_y + (vy + self.vmax_y)
        key = key * (self.transition.goal + 1) + cars.progress
        for name, r in self.radices:
            key = key * r + np.where(racing, getattr(cars, name), 0)
        if self.finished_base is not None and not racing.all():
            done = np.flatnonzero(~racing)
            key[done] = self.finished_base + (cars.y[done].astype(np.int64) - self.fy0) \
                * self.f_width + (cars.x[done] - self.fx0)
        return key

    def decode(self, keys: np.ndarray) -> Cars:
        key = keys.astype(np.int64)
        if self.finished_base is not None and (key >= self.finished_base).any():
            done = key >= self.finished_base
            cars = self.decode(np.where(done, 0, key))
            row, col = np.divmod(key[done] - self.finished_base, self.f_width)
            for name, value in (("x", col + self.fx0), ("y", row + self.fy0), ("vx", 0),
                                ("vy", 0), ("progress", self.transition.goal)):
                getattr(cars, name)[done] = value
            for name, _ in self.radices:
                getattr(cars, name)[done] = 0
            return cars
        columns: dict[str, np.ndarray] = {}
        for name, r in reversed(self.radices):
            key, columns[name] = np.divmod(key, r)
        key, columns["progress"] = np.divmod(key, self.transition.goal + 1)
        key, vy = np.divmod(key, self.span_y)
        point, vx = np.divmod(key, self.span_x)
        columns["vx"], columns["vy"] = vx - self.vmax_x, vy - self.vmax_y
        if self.off_track:
            row, col = np.divmod(point, self.width)
            columns["x"], columns["y"] = col + self.x0, row + self.y0
        else:
            land = self.transition.land.points[point]
            columns["x"], columns["y"] = land[:, 0], land[:, 1]
        return Cars(**columns)


class Search:
    """Every state one car can reach from the given sources, in order of turns, with the
    parent of each (and, with ``keep_edges``, every edge between them with its cost).

    ``stop_at_goal`` stops at the first finishing state, which is then optimal.
    """

    def __init__(self, transition: Transition, sources: Cars, columns: Sequence[str],
                 damage_limit: int | None = None, kit: Kit | None = None,
                 keep_edges: bool = False, stop_at_goal: bool = False,
                 memory: int = MEMORY_BUDGET, leave_track: bool = True, run: bool = True):
        self.transition = transition
        self.damage_limit = damage_limit
        self.leave_track = leave_track
        self.space = StateSpace(transition, columns, damage_limit, kit)
        self.goal = transition.goal
        self.keep_edges = keep_edges
        self.memory = memory
        space = self.space.size
        self.key_type = np.uint32 if space < 2**32 else np.uint64
        if keep_edges:
            self.index = DenseIndex(space) if space * 4 <= memory // 4 else HashIndex()
        else:
            self.index = Bitmap(space) if space // 8 <= memory // 4 else HashIndex()
        # Where no move can lead off the track (only on, or refused), a move to a state
        # already seen needs no geometry at all.
        self.early_drop = not keep_edges and transition.leaving == "illegal" \
            and not transition.finish_anywhere  # a move off the track may finish
        # Nystrom's detours: of the states alike but for the exit, one reached no later that
        # left the track farther on (less distance to go) has every move the others have
        # (they must come back behind a point farther back), and a car on a detour with no
        # move left is out (``Transition.crash``): whatever the others can do, it can do as
        # soon, so they are not searched on. Exact for the fewest turns, but a
        # table of every state's value needs them all (``keep_edges``).
        self.least_exit: LeastValues | DenseLeastValues | None = None
        if self.space.exit_radix and not keep_edges:
            states = -(-space // self.space.exit_radix)  # the keys without the exit
            self.least_exit = DenseLeastValues(states) if states * 4 <= memory // 4 \
                else LeastValues()
            # A state was seen if and only if its exit is no less than the least seen for its
            # other columns: the least values are the seen-set.
            self.index = Unindexed()
        self.crash_spots = CrashSpots()
        # The compiled kernel expands the states where the rules allow it (the numpy
        # transition judges what it leaves unsure, and crashes).
        self.compiled = self.space.compiled() if self.least_exit is None else None
        # Where it does not, its ``successors`` do, for every rule it covers (the numpy
        # transition works out what it asks about moves: ``Transition.move_facts``).
        self.kernel_rules = self.space.kernel_rules(damage_limit, leave_track) \
            if self.compiled is None else None
        self.facts = kernel.MoveFacts() if self.kernel_rules is not None else None
        self.workspace = kernel.Workspace()
        land, vmx, vmy = transition.land, self.space.vmax_x, self.space.vmax_y
        self.moves_memo = MoveMemo(land, vmx, vmy) \
            if self.compiled is None and self.kernel_rules is None \
            and MoveMemo.size(land, vmx, vmy) <= memory // 16 else None
        self.keys: list[np.ndarray] = []
        self.parents: list[np.ndarray] = []
        self.count = 0
        self.expanded = 0  # states expanded (their successors worked out)
        self.first_goal: int | None = None
        self.goal_turns: int | None = None
        self._edge_src: list[np.ndarray] = []
        self._edge_dst: list[np.ndarray] = []
        self._edge_later: list[np.ndarray] = []
        self._goals: list[np.ndarray] = []
        self._edge_cost: list[np.ndarray] = []
        self._edge_bytes = 0  # of the four lists above
        # Per turn: batches of (keys, parents, fresh, finishing): ``fresh`` batches hold
        # distinct states already marked seen, never numbered yet (the compiled kernel's);
        # where ``fresh`` is None the batch is numbered already, and holds (keys, ids); only
        # batches with ``finishing`` may hold finished states.
        self._buckets: dict[int, list[tuple[np.ndarray, np.ndarray, bool]]] = {}
        self._pending_bytes = 0
        self.working_bytes = 0  # the work on the slice of a turn being taken in
        # Slices and batches small enough that their working arrays stay within an eighth of
        # the budget each.
        self.moves_per_state = max(len(transition.changes), len(transition.crawl))
        self.move_bytes = MOVE_BYTES if self.compiled is None else COMPILED_MOVE_BYTES
        self.slice = max(1024, min(LAYER_SLICE, memory // (8 * SLICE_BYTES_PER_STATE)))
        self.chunk = max(256, min(CHUNK if self.compiled is None else COMPILED_CHUNK,
                                  memory // (8 * self.moves_per_state * self.move_bytes)))
        fits = self.space.fits(sources)
        if not fits.all():
            raise SolverError("a starting state lies outside the track's state space")
        keys = self.space.encode(sources)
        if len(first_of_each(keys)) != len(keys):
            raise ValueError("the sources repeat a state")
        self._buckets[0] = [(keys.astype(self.key_type), np.full(len(keys), -1, dtype=np.int32),
                             False, True)]
        self.key_all = np.zeros(0, np.int64)
        self.parent_all = np.zeros(0, np.int32)
        self._layers: list[int] = []
        self.least_turns = least_turns(transition, sources, self.space.accel)
        if run:
            self.run(stop_at_goal)

    def run(self, stop_at_goal: bool = False) -> None:
        """Search on from the queued states (the constructor does this unless told not to)."""
        self._run(stop_at_goal)
        self.key_all = self._joined(self.keys, self.key_type)
        self.parent_all = self._joined(self.parents, np.int32)
        self.keys, self.parents = [self.key_all], [self.parent_all]

    @staticmethod
    def _joined(pieces: list[np.ndarray], dtype) -> np.ndarray:
        """The pieces in one array, each freed once copied: never twice the states' memory."""
        joined = np.empty(sum(len(p) for p in pieces), dtype=dtype)
        at = 0
        pieces.reverse()
        while pieces:
            piece = pieces.pop()
            joined[at:at + len(piece)] = piece
            at += len(piece)
        return joined

    def one_turn(self, cars: Cars) -> tuple[np.ndarray, Cars, np.ndarray]:
        """What the search queues after these states, as it would (states already seen are
        dropped): the row each successor comes from, the successors and their costs. The
        compiled kernel answers where the search uses it."""
        found: list[tuple[int, np.ndarray, np.ndarray]] = []

        def push(turns, keys, parents, fresh=False, finishing=True, numbered=False):
            found.append((turns, keys, parents))

        rows = np.arange(len(cars))
        if self.compiled is not None:
            keys = self.space.encode(cars).astype(self.key_type)
            self._expand_compiled(keys, rows, 0, push, drop_seen=False)
        elif self.kernel_rules is not None:
            self._expand_by_kernel(self.space.encode(cars), rows, 0, push, drop_seen=False)
        else:
            self._expand(cars, rows, 0, push)
        if not found:
            return np.zeros(0, np.int64), Cars(x=[], y=[]), np.zeros(0, np.int64)
        keys = np.concatenate([k for _, k, _ in found]).astype(np.int64)
        rows = np.concatenate([p for _, _, p in found]).astype(np.int64)
        cost = np.concatenate([np.full(len(k), t) for t, k, _ in found])
        return rows, self.space.decode(keys), cost

    # -- the search -------------------------------------------------------------------------

    def _run(self, stop_at_goal: bool) -> None:
        while self._buckets:
            turns = min(self._buckets)
            pending = self._buckets.pop(turns)
            # Every state of the turn is numbered (and marked seen) before any is expanded: the
            # kernel marks a move's state seen as soon as it finds it, so a state this turn
            # holds in a batch not taken in yet (a crash's put-back queued turns ago, a move
            # the kernel left to numpy) would be taken for seen, and numbered a turn late.
            # Taken in a slice at a time (deduplicated and numbered), expanded a chunk at a
            # time, so the working arrays stay in proportion to a slice.
            taken: list[tuple[np.ndarray, np.ndarray]] = []
            layer = 0
            while pending:
                keys, parents, fresh, finishing = pending.pop()
                self._pending_bytes -= keys.nbytes + parents.nbytes
                for start in range(0, len(keys), self.slice):
                    part = slice(start, start + self.slice)
                    if fresh is None:  # numbered already (the second array holds the ids)
                        # In order of their keys, so the kernel's look-ups of their
                        # successors walk the index forwards instead of leaping about it.
                        slice_keys = np.sort(keys[part])
                        found = (self.index.ids[slice_keys].astype(np.int64), slice_keys)
                    else:
                        found = self._take_in(keys[part], parents[part], fresh)
                    if found is None:
                        continue
                    ids, slice_keys = found
                    layer += len(ids)
                    # The kernel says which of its batches may hold finished states.
                    if (self.compiled is None or finishing) and self._finish(
                            ids, self.space.progress_of(slice_keys), turns) and stop_at_goal:
                        return
                    taken.append((ids, slice_keys))
                    self._pending_bytes += ids.nbytes
                del keys, parents
            for ids, slice_keys in taken:
                self._pending_bytes -= ids.nbytes
                self.expanded += len(ids)
                if self.compiled is not None or self.kernel_rules is not None:
                    # it passes over finished states itself
                    expand = self._expand_compiled if self.compiled is not None \
                        else self._expand_by_kernel
                    for first in range(0, len(ids), self.chunk):
                        part = slice(first, first + self.chunk)
                        expand(slice_keys[part], ids[part], turns)
                    continue
                cars = self.space.decode(slice_keys)
                racing = np.flatnonzero(cars.progress < self.goal)
                for first in range(0, len(racing), self.chunk):
                    part = racing[first:first + self.chunk]
                    self._expand(cars.take(part), ids[part], turns, self._push)
            del taken
            if layer:
                self._check_growth(turns, layer)

    def _finish(self, ids: np.ndarray, progress: np.ndarray, turns: int) -> bool:
        """Note the states (``ids``) that have finished; whether any has."""
        finished = progress >= self.goal
        if not finished.any():
            return False
        self._goals.append(ids[finished])
        if self.first_goal is None:
            self.first_goal = int(ids[np.flatnonzero(finished)[0]])
            self.goal_turns = turns
        return True

    def _take_in(self, keys: np.ndarray, parents: np.ndarray, fresh: bool = False,
                 ) -> tuple[np.ndarray, np.ndarray] | None:
        """Number the states of a slice never seen before (each once, the farthest-on exit
        only where the search keeps exits so): their ids and keys. A ``fresh`` slice is known
        to hold distinct states never numbered, already marked seen."""
        self.working_bytes = len(keys) * SLICE_BYTES_PER_STATE
        if not fresh:
            # Each key once, then only those never seen (the same states and parents as the
            # other way round, with fewer lookups in the index).
            first = first_of_each(keys)
            keys, parents = keys[first], parents[first]
            unseen = ~self.index.seen(keys)
            keys, parents = keys[unseen], parents[unseen]
        if self.least_exit is not None:
            state, exit_ = np.divmod(keys.astype(np.int64), self.space.exit_radix)
            self._check_memory(self.least_exit.growth_bytes(len(keys)))
            farthest_back = self.least_exit.lower(state, exit_)
            keys, parents = keys[farthest_back], parents[farthest_back]
        if not len(keys):
            return None
        self.working_bytes += min(len(keys), self.chunk) * self.moves_per_state * self.move_bytes
        self._check_memory(self.index.growth_bytes(len(keys)))
        ids = np.arange(self.count, self.count + len(keys), dtype=np.int64)
        if not (fresh and isinstance(self.index, Bitmap)):  # a fresh slice's bits are set
            self.index.add(keys, ids)
        self._number(keys, parents, ids)
        return ids, keys

    def _number(self, keys: np.ndarray, parents: np.ndarray, ids: np.ndarray) -> None:
        """Keep new states, numbered ``ids`` (the next ones, in order), with their parents."""
        assert not len(ids) or ids[0] == self.count
        self.keys.append(keys.astype(self.key_type, copy=False))
        self.parents.append(parents.astype(np.int32, copy=False))
        self.count += len(keys)
        self._check_memory()

    def _check_memory(self, growing: int = 0) -> None:
        """Refuse the search before it takes more than its budget: what it keeps (states,
        index, queued states, edges), the work on one slice of a turn and one batch of
        expansions (``working_bytes``), and ``growing``: what a structure about to grow
        takes beside itself while it does."""
        per_state = np.dtype(self.key_type).itemsize + 4
        used = self.count * per_state + self.index.nbytes + self._pending_bytes \
            + self.working_bytes + growing \
            + (self.moves_memo.flags.nbytes if self.moves_memo is not None else 0) \
            + (self.facts.nbytes if self.facts is not None else 0) + self.workspace.nbytes
        if self.least_exit is not None:
            used += self.least_exit.nbytes
        used += self._edge_bytes
        if used > self.memory:
            raise SolverError(f"the search passed {self.count:,} states ({used >> 20} MB); the "
                              "track is too large to solve here")

    def _check_growth(self, turns: int, layer: int) -> None:
        """Refuse early a search whose frontier still grows when the finish is still far: every
        turn until the finish can first be reached is assumed to find at least as many states
        as this one did, and if those alone would outgrow the budget the search gives up now
        (an absurd open sheet is refused after seconds, not after filling the budget)."""
        self._layers.append(layer)
        ahead = self.least_turns - turns
        last = self._layers[-3:]
        if ahead <= 0 or len(last) < 3 or not last[0] < last[1] < last[2]:
            return
        per_state = np.dtype(self.key_type).itemsize + 4
        if isinstance(self.index, HashIndex):
            per_state += 24  # twelve bytes a slot, at most half of the slots full
        if self.keep_edges:
            per_state += 8 * 5  # about eight edges a state, five bytes each
        used = self.count * (np.dtype(self.key_type).itemsize + 4) + self.index.nbytes
        if used + ahead * layer * per_state > self.memory:
            raise SolverError(
                f"the search found {self.count:,} states in {turns} turns, {layer:,} in the "
                f"last, and the finish is at least {self.least_turns} turns away: it would "
                f"pass the memory budget ({self.memory >> 20} MB); the track is too large to "
                "solve here")

    def _push(self, turns: int, keys: np.ndarray, parents: np.ndarray, fresh: bool = False,
              finishing: bool = True, numbered: bool = False) -> None:
        """Queue states for a turn: their keys and parents, or (``numbered``) their keys and
        ids where they are numbered already; ``fresh``: distinct, never seen, marked seen;
        ``finishing``: some may have finished."""
        if len(keys):
            keys = keys.astype(self.key_type, copy=False)
            parents = parents.astype(np.int32, copy=False)
            kind = None if numbered else fresh
            self._buckets.setdefault(turns, []).append((keys, parents, kind, finishing))
            self._pending_bytes += keys.nbytes + parents.nbytes
            self._check_memory()

    def _expand(self, cars: Cars, ids: np.ndarray, turns: int, push) -> None:
        transition = self.transition
        if self.early_drop:
            self._expand_dropping_seen(cars, ids, turns, push)
            return
        src, after, cost, crashed = kept_successors(transition, cars, self.damage_limit,
                                                    self.crash_spots, self.moves_memo,
                                                    self.leave_track)
        self._check_fits(after)
        self._queue(self.space.encode(after), ids[src], cost, crashed, turns, push)

    def _queue(self, keys: np.ndarray, parents: np.ndarray, cost: np.ndarray,
               crashed: np.ndarray, turns: int, push) -> None:
        """Successors found (their keys, the ids they come from, their costs in turns and
        whether each is a crash): kept as edges where the search keeps them, and queued for
        their turn where not seen before."""
        if self.keep_edges:
            # A destination already numbered is kept by its id; the others (not numbered
            # until their turn comes) by their key, looked up once the search is over.
            dst = self.index.find(keys)  # type: ignore[union-attr]
            fresh = dst < 0
            # The cost in turns, and a flag for a crash (drivers may want to avoid them).
            self._keep_edges(parents.astype(np.int32), dst.astype(np.int32, copy=False),
                             keys[fresh].astype(self.key_type, copy=False),
                             (cost + 16 * crashed).astype(np.int8))
        else:
            fresh = ~self.index.seen(keys)
            if self.least_exit is not None:
                state, exit_ = np.divmod(keys, self.space.exit_radix)
                fresh &= self.least_exit.least(state) > exit_
        if len(cost) and (cost == cost[0]).all():
            push(turns + int(cost[0]), keys[fresh], parents[fresh])
            return
        for c in np.unique(cost[fresh]):
            mask = fresh & (cost == c)
            push(turns + int(c), keys[mask], parents[mask])

    def _keep_edges(self, src: np.ndarray, dst: np.ndarray, later: np.ndarray,
                    code: np.ndarray) -> None:
        """Edges kept: source ids, destination ids (-1: numbered later, by the keys in
        ``later``, in order), and codes (the cost in turns, plus 16 for a crash)."""
        self._edge_src.append(src)
        self._edge_dst.append(dst)
        self._edge_later.append(later)
        self._edge_cost.append(code)
        self._edge_bytes += src.nbytes + dst.nbytes + later.nbytes + code.nbytes

    def _expand_compiled(self, keys: np.ndarray, ids: np.ndarray, turns: int, push=None,
                         drop_seen: bool = True) -> None:
        """``_expand`` by the compiled kernel (``racetrack.board.kernel.expand``): the states by
        their keys. The kernel judges every move it can be sure of; the numpy transition
        judges the rest, and works out the crash of a car with no legal move. Where the
        seen-set is a bitmap, the kernel drops moves to states seen and marks the new ones
        (unless ``drop_seen`` is false: every successor is queued, none marked)."""
        transition = self.transition
        push = push or self._push
        bitmap = self.index.bits if drop_seen and self.early_drop \
            and isinstance(self.index, Bitmap) else None
        want_stuck = transition.rules.crash_outcome != "out"
        # A table keeping every edge numbers each state as soon as it is met (the order of
        # turns does not matter there): the kernel looks up and gives out the ids itself.
        dense = getattr(self.index, "ids", None) if drop_seen and self.keep_edges else None
        found = kernel.expand(self.compiled, transition.land.compiled,
                              transition.drive.compiled, transition.course.compiled_lines,
                              keys, ids, len(transition.changes), bitmap, want_stuck, dense,
                              self.count, self.workspace)
        if found.beyond:
            raise SolverError("a legal move lies beyond the solver's speed bound")
        if dense is not None:
            self._keep_edges(found.edge_src, found.edge_dst, np.zeros(0, self.key_type),
                             np.ones(len(found.edge_src), dtype=np.int8))
            new = np.arange(self.count, found.count, dtype=np.int64)
            self._number(found.keys, found.sources, new)
            push(turns + 1, found.keys, new, numbered=True, finishing=found.finishing > 0)
        elif bitmap is not None:
            push(turns + 1, found.keys, found.sources, fresh=True, finishing=found.finishing > 0)
        else:
            ones = np.ones(len(found.keys), dtype=np.int32)
            self._queue(found.keys, found.sources, ones, ones == 0, turns, push)
        for src, after, cost, crashed in unsure_successors(transition, self.space, keys, found,
                                                           self.damage_limit,
                                                           self.crash_spots, want_stuck):
            self._check_fits(after)
            self._queue(self.space.encode(after), ids[src], cost, crashed, turns, push)

    def _expand_by_kernel(self, keys: np.ndarray, ids: np.ndarray, turns: int, push=None,
                          drop_seen: bool = True) -> None:
        """``_expand`` by the compiled kernel's ``successors``
        (``racetrack.board.kernel.expand_all``), the states by their keys; ``drop_seen=False``:
        every successor is queued."""
        found, sources, code, too_fast = kernel.expand_all(
            self.kernel_rules, self.facts, keys, ids, self.transition.move_facts)
        if too_fast:
            raise SolverError("a legal move lies beyond the solver's speed bound")
        found = found.astype(np.int64)
        cost, crashed = (code & 15).astype(np.int64), code >= 16
        if not drop_seen:
            push = push or self._push
            for c in np.unique(cost):
                mask = cost == c
                push(turns + int(c), found[mask], sources[mask])
            return
        self._queue(found, sources, cost, crashed, turns, push or self._push)

    def _expand_dropping_seen(self, cars: Cars, ids: np.ndarray, turns: int, push) -> None:
        """Moves that can only drive on or be refused: work out where each would lead, drop
        those that lead to a state already seen, and judge only the rest."""
        transition = self.transition
        moves = transition.choices(cars)
        after = transition.drive_after(cars, moves)
        fits = self.space.fits(after)
        keys = np.zeros(len(moves), dtype=np.int64)
        keys[fits] = self.space.encode(after.take(np.flatnonzero(fits)))
        fresh = np.flatnonzero(fits & ~self.index.seen(keys))
        judged = transition.judge(cars, moves.take(fresh), explain=False, memo=self.moves_memo)
        assert judged.legal is not None
        legal = fresh[judged.legal]
        push(turns + 1, keys[legal], ids[moves.row[legal]])
        # A refused move beyond the space's bounds would have to be legal to matter.
        outside = np.flatnonzero(~fits)
        if len(outside):
            beyond = transition.judge(cars, moves.take(outside), explain=False,
                                      memo=self.moves_memo)
            if beyond.legal.any():
                raise SolverError("a legal move lies beyond the solver's speed bound")
        if transition.rules.crash_outcome != "out":
            # A car with no legal move at all crashes: find the states with no legal move
            # among those whose fresh moves were all refused.
            has_legal = np.zeros(len(cars), dtype=bool)
            has_legal[moves.row[legal]] = True
            doubtful = np.flatnonzero(~has_legal)
            if len(doubtful):
                subset = cars.take(doubtful)
                every = transition.candidates(subset, explain=False, memo=self.moves_memo)
                assert every.legal is not None
                alive = np.zeros(len(doubtful), dtype=bool)
                alive[every.row[every.legal]] = True
                stuck = doubtful[~alive]
                if len(stuck):
                    crashed = transition.stuck(cars.take(stuck), self.damage_limit,
                                               self.crash_spots)
                    keep = np.flatnonzero(crashed.out == 0)
                    after = crashed.cars.take(keep)
                    self._check_fits(after)
                    cost = crashed.cost[keep]
                    stuck_keys = self.space.encode(after)
                    for c in np.unique(cost):
                        mask = cost == c
                        push(turns + int(c), stuck_keys[mask], ids[stuck[keep][mask]])

    def _check_fits(self, cars: Cars) -> None:
        if not self.space.fits(cars).all():
            raise SolverError("a legal move lies beyond the solver's speed bound")

    # -- reading the result -------------------------------------------------------------------

    def states(self, ids: np.ndarray) -> Cars:
        return self.space.decode(self.key_all[ids].astype(np.int64))

    def chain(self, state_id: int) -> list[int]:
        """State ids from a source to ``state_id``, following parents."""
        found = []
        while state_id >= 0:
            found.append(state_id)
            state_id = int(self.parent_all[state_id])
        return found[::-1]

    def edges(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Every edge kept (``keep_edges``): source ids, destination ids, costs in turns, and
        whether the move is a crash."""
        src, dst, code = self.edge_codes()
        return (src.astype(np.int64), dst.astype(np.int64), (code & 15).astype(np.int64),
                code >= 16)

    def edge_codes(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``edges`` in narrow arrays: source ids, destination ids (both 32-bit), and each
        edge's cost in turns plus 16 for a crash (8-bit)."""
        if not self._edge_src:
            return (np.zeros(0, dtype=np.int32), np.zeros(0, dtype=np.int32),
                    np.zeros(0, dtype=np.int8))
        dst = np.concatenate(self._edge_dst)
        later = dst < 0
        dst[later] = self.index.find(np.concatenate(self._edge_later))  # type: ignore[union-attr]
        return np.concatenate(self._edge_src), dst, np.concatenate(self._edge_cost)

    def edge_chunks(self) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """``edge_codes`` in the chunks the search kept them in, each destination known (the
        ones numbered after their edge was found are looked up now, in place)."""
        for k, later in enumerate(self._edge_later):
            if len(later):
                dst = self._edge_dst[k]
                dst[dst < 0] = self.index.find(later)  # type: ignore[union-attr]
                self._edge_later[k] = later[:0]
        return list(zip(self._edge_src, self._edge_dst, self._edge_cost, strict=True))

    def goals(self) -> np.ndarray:
        """The ids of every finishing state found."""
        return np.concatenate(self._goals) if self._goals else np.zeros(0, dtype=np.int64)

    def route(self, state_id: int) -> Solution:
        """The route to a state (``route_through``)."""
        cars = self.states(np.array(self.chain(state_id)))
        return replace(route_through(self.transition, self.space, self.damage_limit, cars),
                       states=self.expanded)


class BestFirst:
    """The exact solver's search, whole in the compiled kernel (``CompiledSearch``): from the
    sources, states in order of the turns taken plus a lower bound on the turns still to go
    (``racetrack.search.bound``; none: breadth first), until the first finished state is taken,
    which is optimal. It covers the rules the kernel's ``successors`` covers
    (``StateSpace.kernel_rules``); what it asks about moves, the numpy transition works out.

    Where the states carry the exit of a detour, of states alike but for the exit it keeps
    the one that left farthest on (as ``Search`` does), and under a detour's bound it first
    tries a share of the memory budget (``DETOUR_TRIAL``)."""

    def __init__(self, transition: Transition, sources: Cars, columns: Sequence[str],
                 damage_limit: int | None = None, memory: int = MEMORY_BUDGET,
                 bounded: bool = True):
        self.transition = transition
        self.damage_limit = damage_limit
        self.space = StateSpace(transition, columns, damage_limit)
        rules = self.space.kernel_rules(damage_limit)
        if rules is None:
            raise ValueError("the compiled kernel does not judge these rules")
        if not self.space.fits(sources).all():
            raise SolverError("a starting state lies outside the track's state space")
        keys = self.space.encode(sources)
        if len(first_of_each(keys)) != len(keys):
            raise ValueError("the sources repeat a state")
        self.facts = kernel.MoveFacts()
        exit_radix = self.space.exit_radix
        least = least_turns(transition, sources, self.space.accel)
        self.bound = bound_for(transition, self.space, damage_limit, sources) if bounded else None
        trial = self.bound is not None and self.bound[0] is None
        self.core = kernel.CompiledSearch(rules, keys, memory // DETOUR_TRIAL if trial else memory,
                                          exit_radix, least, self.bound)
        status = self.core.run(self.facts, transition.move_facts)
        tried = 0
        if trial and status in (kernel.SearchStatus.MEMORY, kernel.SearchStatus.GROWING):
            # a detour's bound too weak here after all: the breadth-first search keeps fewer
            # states of each (see ``DETOUR_TRIAL``)
            tried = self.core.result()[2]
            self.bound = None
            self.core = kernel.CompiledSearch(rules, keys, memory, exit_radix, least, None)
            status = self.core.run(self.facts, transition.move_facts)
        goal, turns, self.expanded, self.count, used, self.inconsistent, now, layer = \
            self.core.result()
        self.expanded += tried  # (the states expanded in all)
        if status == kernel.SearchStatus.TOO_FAST:
            raise SolverError("a legal move lies beyond the solver's speed bound")
        if status == kernel.SearchStatus.MEMORY:
            raise SolverError(f"the search passed {self.count:,} states ({used >> 20} MB); the "
                              "track is too large to solve here")
        if status == kernel.SearchStatus.GROWING:
            raise SolverError(
                f"the search found {self.count:,} states in {now} turns, {layer:,} in the "
                f"last, and the finish is at least {least} turns away: it would pass the "
                f"memory budget ({memory >> 20} MB); the track is too large to solve here")
        self.first_goal = goal if goal >= 0 else None
        self.goal_turns = turns if goal >= 0 else None

    def route(self) -> Solution:
        """The route to the first finished state (``route_through``)."""
        assert self.first_goal is not None
        keys = self.core.route(self.first_goal, self.count + 1)
        cars = self.space.decode(keys.astype(np.int64))
        return replace(route_through(self.transition, self.space, self.damage_limit, cars),
                       states=self.expanded)


def route_through(transition: Transition, space: StateSpace, damage_limit: int | None,
                  cars: Cars) -> Solution:
    """The route through the states ``cars`` (one a turn, from the source): the points after
    each turn (a missed turn repeats the point), and the point a player picks each turn and
    what it does, replayed through the rules (every turn of the route as one batch)."""
    path = [Vec(int(cars.x[0]), int(cars.y[0]))]
    plays: list[Vec | None] = []
    steps: list[Step] = []
    turns = len(cars) - 1
    if not turns:
        return Solution(0, path[0], tuple(path), ())
    before = cars.take(np.arange(turns))
    targets = space.encode(cars.take(np.arange(1, turns + 1)))
    moves = transition.candidates(before, explain=False)
    assert moves.legal is not None and moves.kind is not None
    legal = np.flatnonzero(moves.legal)
    found = transition.after(before, moves, legal, damage_limit)
    rows = moves.row[legal]
    keys = np.full(len(found.cars), -1, dtype=np.int64)
    fits = space.fits(found.cars)
    keys[fits] = space.encode(found.cars.take(np.flatnonzero(fits)))
    hit = np.flatnonzero(fits & (found.out == 0) & (keys == targets[rows]))
    # The first legal move of each turn that leads to the next state of the route.
    turn_hit = np.full(turns, -1, dtype=np.int64)
    turn_hit[rows[hit][::-1]] = hit[::-1]
    stuck = np.flatnonzero(turn_hit < 0)
    crash_cost = dict(zip(stuck.tolist(), transition.stuck(
        before.take(stuck), damage_limit).cost.tolist(), strict=True)) if len(stuck) else {}
    kinds = {DRIVE: "move", CRASH: "crash", LEAVE: "leave", OFF: "off", RETURN: "return"}
    for i in range(turns):
        k = int(turn_hit[i])
        point = Vec(int(cars.x[i + 1]), int(cars.y[i + 1]))
        if k >= 0:
            j = legal[k]
            target = Vec(int(moves.tx[j]), int(moves.ty[j]))
            cost = int(found.cost[k])
            event = kinds.get(int(moves.kind[j]), "move")
            if event == "move" and cars.progress[i + 1] >= transition.goal:
                event = "finish"
        else:  # no legal move: the crash the rules make of the unchanged move
            target, cost, event = None, int(crash_cost[i]), "crash"
        plays.append(target)
        steps.append(Step(target, point, event))
        path += [point] * cost
        plays += [None] * (cost - 1)
        steps += [Step(None, point, "miss")] * (cost - 1)
    return Solution(len(path) - 1, path[0], tuple(path), tuple(plays), tuple(steps))


class TableReading:
    """How a turns-to-go table is read by a state's parts (its ``values_of`` does the rest)."""

    def values_of(self, cars: Cars, careful: bool = False) -> np.ndarray:
        raise NotImplementedError

    def moves_to_go(self, point: Vec, velocity: Vec, progress: int, pitted: bool = False,
                    launch: bool = False) -> int | None:
        """The fewest turns to the finish from this state; ``None`` if it cannot finish."""
        found = self.values([point], [velocity], [progress], [pitted], [launch])[0]
        return None if found == UNSOLVED else int(found)

    def values(self, points: Sequence[Vec], velocities: Sequence[Vec],
               progress: Iterable[int], pitted: Iterable[bool] | None = None,
               launch: Iterable[bool] | None = None) -> np.ndarray:
        """Turns to go for many on-track states given by their parts."""
        pts = np.asarray(points, dtype=np.int64).reshape(-1, 2)
        vel = np.asarray(velocities, dtype=np.int64).reshape(-1, 2)
        n = len(pts)
        cars = Cars(x=pts[:, 0], y=pts[:, 1], vx=vel[:, 0], vy=vel[:, 1],
                    progress=np.asarray(list(progress), dtype=np.int64),
                    pitted=None if pitted is None else np.asarray(list(pitted), dtype=int),
                    launch=None if launch is None else np.asarray(list(launch), dtype=int))
        assert len(cars) == n
        return self.values_of(cars)


class ValueTable(TableReading):
    """Turns to go from every reachable state (the computer drivers' table): ``value`` by the
    best route, ``careful`` by the best route that never crashes (``UNSOLVED`` where there is
    none)."""

    def __init__(self, search: Search):
        self.search = search
        count = search.count
        goals = search.goals()
        if kernel.enabled():  # the same search, compiled
            chunks = search.edge_chunks()
            crashes = any(bool((code >= 16).any()) for _, _, code in chunks)
            found = kernel.turns_to_go(chunks, count, goals,
                                       (False, True) if crashes else (False,))
            self.value, self.careful = found[0], found[-1]
            return
        src, dst, code = search.edge_codes()
        cost, crashed = code & 15, code >= 16
        uniform = not len(cost) or int(cost.max()) == 1
        # Sorted once, crashes flagged: the careful table's edges are the unflagged ones.
        edges = ReverseEdges(src, dst, None if uniform else cost, crashed)
        del src, dst, code, cost
        self.value = self._backwards(count, goals, edges)
        self.careful = self._backwards(count, goals, edges.unflagged()) if crashed.any() \
            else self.value

    @staticmethod
    def _backwards(count: int, goals: np.ndarray, edges: ReverseEdges) -> np.ndarray:
        """Dial's search backwards from the finish, a bucket per number of turns (every edge
        one turn where ``edges`` carry no weights)."""
        value = np.full(count, UNSOLVED, dtype=np.int64)
        value[goals] = 0
        edges.index_states(count)
        slots = np.empty(count, dtype=np.int32)

        def once(states: np.ndarray) -> np.ndarray:
            """Each state once: of the positions scattered to a state's slot, one stays."""
            order = np.arange(len(states), dtype=np.int32)
            slots[states] = order
            return states[slots[states] == order]

        buckets: dict[int, list[np.ndarray]] = {0: [goals]}
        while buckets:
            d = min(buckets)
            nodes = np.concatenate(buckets.pop(d))
            nodes = nodes[value[nodes] == d]
            if not len(nodes):
                continue
            incoming = edges.into(nodes)
            sources = edges.sources[incoming]
            if edges.weights is None:  # every edge one turn: no minimum to take
                sources = once(sources[value[sources] > d + 1])
                value[sources] = d + 1
                buckets.setdefault(d + 1, []).append(sources)
                continue
            new = d + edges.weights[incoming]
            better = new < value[sources]
            sources, new = sources[better], new[better]
            if not len(sources):
                continue
            np.minimum.at(value, sources, new)
            # Each improved state once, in the bucket of its new value.
            won = value[sources] == new
            sources = once(sources[won])
            new = value[sources]
            for v in np.unique(new):
                buckets.setdefault(int(v), []).append(sources[new == v])
        return np.minimum(value, UNSOLVED).astype(np.int32)

    def values_of(self, cars: Cars, careful: bool = False) -> np.ndarray:
        """Turns to go for many states at once (``careful``: never crashing); ``UNSOLVED``
        for unknown or hopeless ones."""
        search = self.search
        result = np.full(len(cars), UNSOLVED, dtype=np.int64)
        cars = self._clamped(cars)
        fits = np.flatnonzero(search.space.fits(cars))
        if len(fits):
            keys = search.space.encode(cars.take(fits))
            ids = search.index.find(keys)  # type: ignore[union-attr]
            known = ids >= 0
            table = self.careful if careful else self.value
            result[fits[known]] = table[ids[known]]
        return result

    def _clamped(self, cars: Cars) -> Cars:
        """Columns the table does not carry are read as zero (a kit the table ignores)."""
        carried = set(self.search.space.columns)
        return Cars(**{name: getattr(cars, name) if name in carried or name in COLUMNS[:5]
                       else None for name in COLUMNS})

# --------------------------------------------------------------------------------------------


def kept_successors(transition: Transition, cars: Cars, damage_limit: int | None,
                    spots: CrashSpots, memo: MoveMemo | None, leave_track: bool,
                    ) -> tuple[np.ndarray, Cars, np.ndarray, np.ndarray]:
    """The successors a search keeps of a batch of states: not those that put the car
    out, nor (unless ``leave_track``) those off the track. The row each comes from, the
    states, their costs in turns and whether each is a crash."""
    src, found = transition.successors(cars, damage_limit, spots, memo)
    staying = found.out == 0
    if not leave_track and found.left is not None:
        staying &= ~found.left
    keep = np.flatnonzero(staying)
    return src[keep], found.cars.take(keep), found.cost[keep], found.crashed[keep]


def unsure_successors(transition: Transition, space: StateSpace, keys: np.ndarray,
                      found: kernel.Expansion, damage_limit: int | None, spots: CrashSpots,
                      want_stuck: bool) -> list[tuple[np.ndarray, Cars, np.ndarray, np.ndarray]]:
    """What the compiled kernel's expansion of the states ``keys`` left to numpy: the moves
    it was unsure of, judged in numpy (and shapely) as ``Search._expand`` judges them, and
    (``want_stuck``) the crash of each state with no legal move. Per part: the rows of
    ``keys`` they come from, the states they lead to, their costs and whether each crashed."""
    parts = []
    stuck = found.status == 0
    if len(found.deferred_rows):
        rows, inverse = np.unique(found.deferred_rows, return_inverse=True)
        cars = space.decode(keys[rows])
        moves = Moves(inverse.reshape(-1).astype(np.int64), found.deferred_wx,
                      found.deferred_wy,
                      np.full(len(inverse), SPECIAL_CODES.index(Special.NONE), np.int8),
                      cars.x[inverse] + found.deferred_wx, cars.y[inverse] + found.deferred_wy)
        judged = transition.judge(cars, moves, explain=False)
        legal = np.flatnonzero(judged.legal)
        after = transition.after(cars, judged, legal)
        src = rows[moves.row[legal]]
        parts.append((src, after.cars, after.cost, after.crashed))
        alive = np.zeros(len(keys), dtype=bool)
        alive[src] = True
        stuck |= (found.status == 2) & ~alive
    stuck = np.flatnonzero(stuck)
    if want_stuck and len(stuck):
        crashed = transition.stuck(space.decode(keys[stuck]), damage_limit, spots)
        keep = np.flatnonzero(crashed.out == 0)
        parts.append((stuck[keep], crashed.cars.take(keep), crashed.cost[keep],
                      crashed.crashed[keep]))
    return parts


def least_turns(transition: Transition, sources: Cars, accel: int) -> int:
    """A lower bound on the turns any source needs to finish: the straight distance to the
    next line it must pass, against the farthest a car can go in that many turns (its speed
    grows by at most ``accel`` along each axis a turn). 0 when nothing bounds a turn's reach."""
    course = transition.course
    if accel <= 0 or not len(sources) or (sources.progress >= course.goal).any():
        return 0
    if transition.marks:  # an area to pass first may lie anywhere: no bound from the lines
        return 0
    lines = [course.lines[int(k)] for k in sources.progress]
    a = np.array([line.a for line in lines], dtype=float)
    r = np.array([line.b for line in lines], dtype=float) - a
    p = np.column_stack([sources.x, sources.y]).astype(float)
    length2 = np.einsum("ij,ij->i", r, r)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(length2 > 0, np.einsum("ij,ij->i", p - a, r) / length2, 0.0)
    distance = np.hypot(*(a + np.clip(t, 0, 1)[:, None] * r - p).T)
    speed = np.hypot(sources.vx, sources.vy)
    # In k turns a car covers at most k * speed + step * k (k + 1) / 2.
    step = accel * math.sqrt(2)
    k = np.ceil((-(speed + step / 2) + np.sqrt((speed + step / 2) ** 2 + 2 * step * distance))
                / step)
    return max(int(k.min()) - 1, 0)


def lone_car(course: Course, rules: RuleSet, can_swim: bool = False, kit: Kit | None = None,
             damage_limit: int | None | bool = False,
             ) -> tuple[Transition, tuple[str, ...], int | None]:
    """The transition, the state's columns and the damage limit of a lone car with ``kit``
    (the limit as a race gives it, unless ``damage_limit`` is given)."""
    transition = transition_for(course, rules, can_swim or (kit is not None and kit.submarine))
    if damage_limit is not False:
        limit = damage_limit
    elif rules.equipment_shop == "design":
        limit = kit.damage if kit is not None else None
    else:
        limit = None if rules.damage_limit is None \
            else rules.damage_limit + (kit.damage if kit is not None else 0)
    carries_kit = kit is not None and bool(kit.brakes or kit.turbo or kit.boosters)
    return transition, transition.columns(carries_kit, limit), limit


def standing_starts(transition: Transition, starts: Sequence[Vec],
                    kit: Kit | None = None) -> Cars:
    """Cars at rest on each start point, as the race starts them."""
    land = transition.land
    xs = np.array([s[0] for s in starts], dtype=np.int64)
    ys = np.array([s[1] for s in starts], dtype=np.int64)
    missing = land.point_index(xs, ys) < 0
    if missing.any():
        bad = tuple(starts[int(np.flatnonzero(missing)[0])])
        raise SolverError(f"not a point of the track: {bad}")
    n = len(starts)
    kit_columns = {name: np.full(n, getattr(kit, name) if kit is not None else 0)
                   for name in KIT_COLUMNS}
    return Cars(x=xs, y=ys, vx=np.zeros(n), vy=np.zeros(n),
                progress=np.full(n, transition.course.start_progress), **kit_columns)


def solve(course: Course, rules: RuleSet, start: Vec | None = None, can_swim: bool = False,
          kit: Kit | None = None, memory: int = MEMORY_BUDGET) -> Solution | None:
    """The fewest turns from a standing start (the best start point, or ``start``) for a lone
    car with ``kit`` (none by default). Raises ``SolverError`` once the states found would take
    more than ``memory`` bytes."""
    transition, columns, limit = lone_car(course, rules, can_swim, kit)
    starts = [start] if start is not None else list(course.start_positions)
    if not starts:
        raise SolverError("the track has no start position")
    return _search(transition, standing_starts(transition, starts, kit), columns, limit, kit,
                   memory)


#: The ways round a circuit: the start line's arrow's, and the other.
WAYS = ("forward", "reverse")


def races_either_way(track: Track, rules: RuleSet) -> bool:
    """Whether a car may race this track either way round (``start.direction: either``, on a
    circuit: a course from a start to a finish goes one way)."""
    return rules.start_direction == "either" and track.is_circuit


def solve_each_way(track: Track, rules: RuleSet, start: Vec | None = None,
                   memory: int = MEMORY_BUDGET) -> dict[str, Solution | None]:
    """The fewest turns round the circuit each way (``WAYS``: with the arrow, and the same
    circuit reversed, its checkpoints in reverse order), from the best start point or
    ``start``, for a lone car with no kit."""
    tracks = {"forward": track, "reverse": track.reversed()}
    return {way: solve(Course.for_rules(tracks[way], rules), rules, start, memory=memory)
            for way in WAYS}


def faster_way(found: dict[str, Solution | None]) -> str | None:
    """The way round (``WAYS``) that finishes in fewer turns; ``None`` where they tie (or
    neither finishes)."""
    turns = {way: (s.moves if s is not None else math.inf) for way, s in found.items()}
    if turns["forward"] == turns["reverse"]:
        return None
    return min(WAYS, key=turns.__getitem__)


def _search(transition: Transition, sources: Cars, columns: Sequence[str],
            limit: int | None, kit: Kit | None, memory: int) -> Solution | None:
    """The fewest turns from the sources and a route: by the compiled best-first search where
    the kernel covers the rules, else by ``Search``."""
    if kit is None and StateSpace(transition, columns, limit).kernel_rules(limit) is not None:
        found = BestFirst(transition, sources, columns, limit, memory)
        return None if found.first_goal is None else found.route()
    search = Search(transition, sources, columns, limit, kit, stop_at_goal=True, memory=memory)
    if search.first_goal is None:
        return None
    return search.route(search.first_goal)


def solve_position(course: Course, rules: RuleSet, car: CarState, can_swim: bool = False,
                   memory: int = MEMORY_BUDGET) -> Solution | None:
    """The fewest turns to the finish for a lone car in any state (a position string's, say:
    moving, off the track, damaged, with turns to miss or uses of its kit left), and a route.
    Turns still to miss come first in the count and the route."""
    kit = car.kit if (car.kit.brakes or car.kit.turbo or car.kit.boosters) else None
    transition, columns, limit = lone_car(course, rules, can_swim, kit)
    start = Vec(car.position.x, car.position.y)
    waiting = car.missed_turns
    if car.progress >= course.goal:
        return Solution(0, start, (start,))
    batch = car_batch(car)
    if "exit" in columns:
        batch.exit = np.minimum(batch.exit, transition.exit_cap).astype(np.int32)
    names = (*COLUMNS[:5], *columns)
    source = Cars(**{name: getattr(batch, name) for name in names})
    if not StateSpace(transition, columns, limit, kit).fits(source).all():
        raise SolverError(f"the solver cannot start from {car_position(car)!r} under "
                          f"{rules.name}: not a state a lone car can be in there")
    found = _search(transition, source, columns, limit, kit, memory)
    if found is None:
        return None
    return Solution(found.moves + waiting, start, (start,) * waiting + found.path,
                    (None,) * waiting + found.plays,
                    (Step(None, start, "miss"),) * waiting + found.steps, found.states)


def solve_each_start(course: Course, rules: RuleSet, can_swim: bool = False,
                     kit: Kit | None = None) -> dict[Vec, int | None]:
    """The optimum from every start point: a fairness report for the grid."""
    transition, columns, limit = lone_car(course, rules, can_swim, kit)
    starts = list(course.start_positions)
    if "exit" in columns:  # a table of every detour is far too large: one search per start
        found_each = (solve(course, rules, start, can_swim, kit) for start in starts)
        return {s: None if f is None else f.moves
                for s, f in zip(starts, found_each, strict=True)}
    sources = standing_starts(transition, starts, kit)
    table = ValueTable(Search(transition, sources, columns, limit, kit, keep_edges=True))
    found = table.values_of(sources)
    return {s: (None if v == UNSOLVED else int(v)) for s, v in zip(starts, found, strict=True)}


