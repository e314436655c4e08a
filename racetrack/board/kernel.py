"""The compiled search kernel (``racetrack/board/_kernel.c``), where the package was built with it.

The kernel does the innermost work of a search in compiled code: whether lattice moves stay on
a region (``RegionCells``), the progress moves make over the course's lines (``CourseLines``),
and a whole batch of states expanded at once by the ordinary rules (``expand``, used by
``racetrack.search.solver.Search`` where ``Transition.compiled`` says the rules allow it). Every
answer equals the numpy one it stands in for (``LatticeRegion.segments_inside`` with ``EdgeSet`` and
shapely, ``Course.advance_one``, ``Transition.judge`` and ``after``), and the tests compare the
two on random moves and states; the numpy code stays the reference, and answers wherever the
kernel is not built or does not apply.

The kernel is built when the package is installed (a C compiler is needed; without one the
package installs without it). ``RACETRACK_KERNEL=off`` in the environment turns it off, to
compare the two or to rule it out.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np

try:  # built by ``pip install``; absent where no C compiler was found
    from racetrack.board import _kernel
except ImportError:  # pragma: no cover - depends on the build
    _kernel = None

#: Whether the compiled kernel is used (tests switch it off to check the numpy reference).
ENABLED = _kernel is not None and os.environ.get("RACETRACK_KERNEL", "on") != "off"
#: The most drawn lines a compiled course follows (one bit each for "passed on this move").
MOST_LINES = 64
#: ``RegionCells``' flags per edge: which of its signs are exact (as ``EdgeSet`` has them),
#: and whether its first corner is a junction of rings.
EXACT_A, EXACT_B, EXACT, JUNCTION = 1, 2, 4, 8


def enabled() -> bool:
    return ENABLED


@dataclass(frozen=True, eq=False)
class RegionCells:
    """A region on the sheet as the kernel tests moves on it: its lattice points, the state of
    each unit cell (outside, inside, or met by edges) and the edges meeting each cell."""

    packed: tuple

    @classmethod
    def of(cls, region) -> RegionCells | None:
        """For a ``LatticeRegion`` (its ``EdgeSet``'s edges); ``None`` where the kernel is not
        built."""
        if not ENABLED:
            return None
        grid, edges = region.grid, region.edges
        ends = np.column_stack([edges.ax, edges.ay, edges.bx, edges.by, edges.ux, edges.uy])
        if grid.width < 2 or grid.height < 2 or not np.all(np.isfinite(ends)):
            return None
        packed_edges = np.ascontiguousarray(ends.reshape(-1), dtype=np.float64)
        index = np.ascontiguousarray(region.index, dtype=np.int32)
        cells = (grid.width - 1) * (grid.height - 1)
        state = np.zeros(cells, dtype=np.int8)
        start = np.zeros(cells + 1, dtype=np.int32)
        sheet = (grid.x0, grid.y0, grid.width, grid.height)
        _kernel.classify(*sheet, index, packed_edges, state, start, None, None, None)
        listed = np.zeros(int(start[-1]), dtype=np.int32)
        clearance = np.zeros(grid.width * grid.height, dtype=np.uint16)
        _kernel.classify(*sheet, index, packed_edges, state, start, listed,
                         np.zeros(cells, dtype=np.uint16), clearance)
        flags = (edges.exact_a * EXACT_A + edges.exact_b * EXACT_B + edges.exact * EXACT
                 + edges.junction * JUNCTION).astype(np.uint8)
        return cls((*sheet, bool(region.closed), index, state, start, listed, packed_edges,
                    np.ascontiguousarray(flags), clearance))

    def segments_inside(self, px, py, qx, qy) -> np.ndarray:
        """Per move between lattice points: 1 on the region all along, 0 not, -1 unsure."""
        ends = [np.ascontiguousarray(v, dtype=np.int64) for v in (px, py, qx, qy)]
        out = np.empty(len(ends[0]), dtype=np.int8)
        _kernel.segments_inside(self.packed, *ends, out)
        return out


def restart_spots(drive: RegionCells, land: RegionCells, px, py, qx, qy) -> np.ndarray:
    """``Transition.restart_points`` of crashes from lattice points p of the land along moves
    to q, as the land's point indexes, -1 where the compiled answer is unsure (the search then
    asks the numpy transition): the first exit from ``drive`` by its edges
    (``EdgeSet.first_exit``), then the nearest point of ``land`` in a window round it
    (``LatticeRegion.nearest_points``). The search works these out itself; this is for tests."""
    ends = [np.ascontiguousarray(v, dtype=np.int64) for v in (px, py, qx, qy)]
    out = np.empty(len(ends[0]), dtype=np.int64)
    _kernel.restart_spots(drive.packed, land.packed, *ends, out)
    return out


@dataclass(frozen=True, eq=False)
class CourseLines:
    """A course's listed lines as the kernel follows progress over them."""

    packed: tuple

    @classmethod
    def of(cls, course) -> CourseLines | None:
        """For a ``Course``; ``None`` where it has more drawn lines than the kernel follows."""
        if not ENABLED or course._n_drawn > MOST_LINES:
            return None
        lo, hi = course._boxes
        behind_lo, behind_hi = course._behind_boxes

        def flat(array, dtype=np.float64):
            return np.ascontiguousarray(np.asarray(array, dtype=dtype).reshape(-1))

        return cls((course.goal, flat(course._a), flat(course._b), flat(course._side),
                    flat(course._point), flat(course._tie, np.int8),
                    flat(course.is_point, np.uint8), flat(course.line_ids, np.int64),
                    flat(course._reach), flat(course._reach_ok, np.uint8),
                    flat(np.column_stack([lo, hi])), flat(np.column_stack([behind_lo,
                                                                           behind_hi]))))

    def progress_after(self, progress, px, py, qx, qy, reach_points: bool = True,
                       round_ends: bool = False, cap=None) -> np.ndarray:
        """``Course.advance`` for lattice moves p→q."""
        progress = np.ascontiguousarray(progress, dtype=np.int32)
        ends = [np.ascontiguousarray(v, dtype=np.float64) for v in (px, py, qx, qy)]
        out = np.empty(len(progress), dtype=np.int32)
        if cap is not None:
            cap = np.ascontiguousarray(np.broadcast_to(cap, progress.shape), dtype=np.int32)
        _kernel.progress_after(self.packed, progress, *ends, bool(reach_points),
                               bool(round_ends), cap, out)
        return out


@dataclass
class Expansion:
    """What ``expand`` found for a batch of states: the moves written out (key of the state
    each leads to, id of the state it is from), the moves whose geometry is unsure (row of the
    state, velocity), each state's status (1: it has a legal move or has finished, 2: none
    known but some unsure, 0: none), whether a legal move lay beyond the search's speed bound,
    and how many of the moves written finish."""

    keys: np.ndarray
    sources: np.ndarray
    deferred_rows: np.ndarray
    deferred_wx: np.ndarray
    deferred_wy: np.ndarray
    status: np.ndarray
    beyond: bool
    finishing: int
    edge_src: np.ndarray | None = None  # with state ids: every legal move, by ids
    edge_dst: np.ndarray | None = None
    count: int = 0                      # with state ids: the next id
    plain: np.ndarray | None = None     # asked for: per move written, its change of velocity
                                        # where it keeps its progress (a plain move), else -1


class Workspace:
    """The arrays ``expand`` writes into, kept from batch to batch of one search: fresh
    arrays of a few megabytes each batch would cost the system their pages again every time.
    What a batch found is copied out of them."""

    def __init__(self):
        self.size = -1
        self.dense = False

    def ready(self, keys: np.ndarray, size: int, dense: bool) -> None:
        if size <= self.size and keys.dtype == self.keys.dtype and dense <= self.dense:
            return
        size = max(size, self.size)
        self.size, self.dense = size, dense
        self.keys = np.empty(size, dtype=keys.dtype)
        self.sources = np.empty(size, dtype=np.int32)
        self.rows = np.empty(size, dtype=np.int64)
        self.wx = np.empty(size, dtype=np.int32)
        self.wy = np.empty(size, dtype=np.int32)
        self.edge_src = np.empty(size if dense else 0, dtype=np.int32)
        self.edge_dst = np.empty(size if dense else 0, dtype=np.int32)
        self.plain = np.empty(size, dtype=np.int8)

    @property
    def nbytes(self) -> int:
        return max(self.size, 0) * 41


def expand(space: tuple, land: RegionCells, drive: RegionCells, lines: CourseLines,
           keys: np.ndarray, ids: np.ndarray, choices: int, bitmap: np.ndarray | None,
           want_stuck: bool, dense: np.ndarray | None = None, count: int = 0,
           workspace: Workspace | None = None, plain: bool = False) -> Expansion:
    """Every ordinary move of each state (by key: 32- or 64-bit, as the search numbers them),
    judged by the compiled rules: see ``expand`` in ``_kernel.c``. ``space`` is
    ``StateSpace.compiled``'s tuple; with a ``bitmap`` (one bit per key), moves to states
    already seen are dropped and the fresh ones marked seen; with ``dense`` (the state ids by
    key, int32, -1 for none), every legal move is an edge between ids, and the states met for
    the first time get the ids from ``count`` on, in the order written out; with ``plain``,
    each move written says whether it is a plain move, and by which change of velocity."""
    if keys.dtype not in (np.uint32, np.uint64):
        keys = keys.astype(np.uint64)
    keys = np.ascontiguousarray(keys)
    ids = np.ascontiguousarray(ids, dtype=np.int64)
    work = workspace or Workspace()
    work.ready(keys, len(keys) * choices, dense is not None)
    status = np.empty(len(keys), dtype=np.int8)
    written, deferred, beyond, finishing, edges, count = _kernel.expand(
        space, land.packed, drive.packed, lines.packed, keys, ids, bitmap, want_stuck,
        work.keys, work.sources, work.rows, work.wx, work.wy, status, dense, count,
        work.edge_src if dense is not None else None,
        work.edge_dst if dense is not None else None, work.plain if plain else None)
    edge_src = edge_dst = None
    if dense is not None:
        edge_src, edge_dst = work.edge_src[:edges].copy(), work.edge_dst[:edges].copy()
    return Expansion(work.keys[:written].copy(), work.sources[:written].copy(),
                     work.rows[:deferred].copy(), work.wx[:deferred].copy(),
                     work.wy[:deferred].copy(), status, bool(beyond), finishing, edge_src,
                     edge_dst, count, work.plain[:written].copy() if plain else None)


def point_starts(space: tuple, keys: np.ndarray) -> np.ndarray:
    """Where each point's states begin in a table of keys in order, numbered as ``expand``
    numbers them (``space``: ``StateSpace.compiled``'s tuple), for every point and one
    more (``plain_sources`` reads it)."""
    vmax_x, vmax_y, goal, points = space[:4]
    per_point = (2 * vmax_x + 1) * (2 * vmax_y + 1) * (goal + 1)
    edges = np.arange(len(points) // 2 + 1, dtype=np.int64) * per_point
    return np.searchsorted(keys, edges.astype(keys.dtype)).astype(np.int64)


def plain_sources(space: tuple, land: RegionCells, keys: np.ndarray, plain: np.ndarray,
                  starts: np.ndarray, ids: np.ndarray) -> np.ndarray:
    """The positions in a compact table (``keys`` in order, ``plain``: each state's bit for
    each change of velocity that makes a plain move out of it, ``starts``: ``point_starts``)
    of the states with a plain move into the states at ``ids``, numbered as ``expand``
    numbers them (``space``: ``StateSpace.compiled``'s tuple): see ``plain_sources`` in
    ``_kernel.c``."""
    ids = np.ascontiguousarray(ids, dtype=np.int64)
    out = np.empty(len(ids) * (len(space[4]) // 2), dtype=np.int64)
    count = _kernel.plain_sources(space, land.packed, np.ascontiguousarray(keys),
                                  np.ascontiguousarray(plain), starts, ids, out)
    return out[:count]


def turns_to_go(edges, count: int, goals: np.ndarray,
                careful: tuple[bool, ...] = (False,)) -> list[np.ndarray]:
    """The fewest turns from each of ``count`` states to any of ``goals`` over the edges (a
    list of chunks ``(src, dst, code)``: int32 ids, int8 codes, the cost in turns plus 16 for
    a crash), once for each entry of ``careful`` (true: crash edges left out); int32,
    ``2**31 - 1`` where no goal is reached. The edges are sorted by destination once, for all
    of them, chunk by chunk (never joined into one array)."""
    counts = np.zeros(count + 1, dtype=np.int64)
    total = 0
    for _, dst, _ in edges:
        _kernel.count_edges(np.ascontiguousarray(dst, dtype=np.int32), counts)
        total += len(dst)
    start = np.cumsum(counts, out=counts)
    cursor = start[:-1].copy()
    rsrc = np.empty(total, dtype=np.int32)
    rcode = np.empty(total, dtype=np.int8)
    for src, dst, code in edges:
        _kernel.place_edges(*(np.ascontiguousarray(a, dtype=t) for a, t in
                              ((src, np.int32), (dst, np.int32), (code, np.int8))),
                            cursor, rsrc, rcode)
    del cursor
    goals = np.ascontiguousarray(goals, dtype=np.int64)
    links = np.empty(count, dtype=np.int32), np.empty(count, dtype=np.int32)
    found = []
    for leave_out_crashes in careful:
        value = np.empty(count, dtype=np.int32)
        _kernel.backward(start, rsrc, rcode, goals, leave_out_crashes, value, *links)
        found.append(value)
    return found


def hash_find(keys: np.ndarray, table_keys: np.ndarray, table_values: np.ndarray,
              bits: int) -> np.ndarray:
    """``racetrack.board.graphs.HashIndex.find`` in compiled code (the same table, the same
    probes)."""
    out = np.empty(len(keys), dtype=np.int32)
    _kernel.hash_find(np.ascontiguousarray(keys, dtype=np.uint64), table_keys, table_values,
                      bits, out)
    return out


def hash_place(keys: np.ndarray, values: np.ndarray, table_keys: np.ndarray,
               table_values: np.ndarray, bits: int) -> None:
    """``racetrack.board.graphs.HashIndex._place`` in compiled code."""
    _kernel.hash_place(np.ascontiguousarray(keys, dtype=np.uint64),
                       np.ascontiguousarray(values, dtype=np.int32), table_keys, table_values,
                       bits)


# -- every rule a lone car's moves follow ------------------------------------------------------

#: What a move's facts hold (``MoveFacts``): ``MoveMemo``'s flags (known, on the track, oil,
#: jump, upgrade, downgrade), whether its restart point and its areas are known, the areas'
#: code from bit ``AREAS_SHIFT`` and the restart point's land index plus one from
#: ``SPOT_SHIFT``.
F_KNOWN, F_ON, F_OIL, F_JUMP, F_UP, F_DOWN, F_SPOT, F_AREAS = (1 << k for k in range(8))
AREAS_SHIFT, SPOT_SHIFT = 8, 40
#: What a state's expansion may ask for of a move.
NEED_FLAGS, NEED_SPOT, NEED_AREAS = 1, 2, 4
#: Columns beyond point, velocity and progress the kernel numbers states by.
COLUMN_CODES = {"off": 1, "exit": 2, "damage": 3, "areas": 4}
#: Facts asked for at most in one call (a state asks for at most 67).
NEEDS_ROOM = 1 << 14
#: The most successors one state has (64 choices and its crash).
MOST_SUCCESSORS = 65


class MoveFacts:
    """What the kernel knows of moves that only the numpy transition works out (the zones a
    move touches, the areas it passes over, where a crash along it puts the car back, and
    its geometry where the cells leave it unsure), by move (from, to), filled as the kernel
    asks (``Transition.move_facts``). A search meets the same move at every progress, damage
    and exit it is made from: each is worked out once."""

    def __init__(self, bits: int = 12):
        self.bits = bits
        self.keys = np.full(1 << bits, np.iinfo(np.uint64).max, dtype=np.uint64)
        self.values = np.zeros(1 << bits, dtype=np.uint64)
        self.count = 0

    @property
    def packed(self) -> tuple:
        return (self.keys, self.values, self.bits)

    @property
    def nbytes(self) -> int:
        return self.keys.nbytes + self.values.nbytes

    def add(self, keys: np.ndarray, values: np.ndarray) -> None:
        """Merge facts of moves (keys: ``racetrack.board.areas.move_keys``) into the table."""
        if 2 * (self.count + len(keys)) > (1 << self.bits):
            self._grow(self.count + len(keys))
        self.count += _kernel.facts_merge(np.ascontiguousarray(keys, dtype=np.uint64),
                                          np.ascontiguousarray(values, dtype=np.uint64),
                                          self.keys, self.values, self.bits)

    def _grow(self, needed: int) -> None:
        old_keys, old_values = self.keys, self.values
        bits = self.bits
        while (1 << bits) < 2 * needed:
            bits += 1
        self.__init__(bits)
        used = old_keys != np.iinfo(np.uint64).max
        self.count = _kernel.facts_merge(old_keys[used], old_values[used], self.keys,
                                         self.values, self.bits)


class Needs:
    """The arrays the kernel writes the facts it wants into (reused call after call)."""

    def __init__(self, room: int = NEEDS_ROOM):
        self.px, self.py, self.tx, self.ty = (np.empty(room, dtype=np.int64) for _ in range(4))
        self.mask = np.empty(room, dtype=np.uint8)

    @property
    def packed(self) -> tuple:
        return (self.px, self.py, self.tx, self.ty, self.mask)

    def asked(self, count: int) -> tuple[np.ndarray, ...]:
        """The first ``count`` requests, each move once (its masks joined)."""
        px, py, tx, ty, mask = (a[:count] for a in self.packed)
        keys = move_keys(px, py, tx, ty)
        unique, first, back = np.unique(keys, return_index=True, return_inverse=True)
        joined = np.zeros(len(unique), dtype=np.uint8)
        np.bitwise_or.at(joined, back.reshape(-1), mask)
        return unique, px[first], py[first], tx[first], ty[first], joined


def move_keys(px, py, qx, qy) -> np.ndarray:
    """One 64-bit key per move p→q between lattice points within ±32,767 (as the kernel's)."""
    parts = [np.asarray(v, dtype=np.int64) + (1 << 15) for v in (px, py, qx, qy)]
    return ((parts[0] << 48) | (parts[1] << 32) | (parts[2] << 16) | parts[3]).astype(np.uint64)


def fill_facts(facts: MoveFacts, needs: Needs, count: int, work_out) -> None:
    """Work out (``work_out(px, py, tx, ty, mask)``: each move's fact bits) what the kernel
    asked for in ``needs`` and add it to ``facts``."""
    keys, px, py, tx, ty, mask = needs.asked(count)
    facts.add(keys, work_out(px, py, tx, ty, mask))


def expand_all(rules: tuple, facts: MoveFacts, keys: np.ndarray, ids: np.ndarray, work_out,
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray, bool]:
    """Every state the states (64-bit keys, int32 ids) lead to in one turn, by the kernel's
    ``successors`` (see ``expand_all`` in ``_kernel.c``): their keys, the ids they come from
    and their codes (turns, plus 16 for a crash), and whether a legal move lay beyond the
    numbering's speed bound. Facts the kernel wants are worked out by ``work_out`` and the
    states that waited for them expanded again."""
    keys = np.ascontiguousarray(keys, dtype=np.uint64)
    ids = np.ascontiguousarray(ids, dtype=np.int32)
    needs = Needs()
    found = []
    for _ in range(64):
        n = len(keys)
        out_keys = np.empty(MOST_SUCCESSORS * n, dtype=np.uint64)
        out_src = np.empty(MOST_SUCCESSORS * n, dtype=np.int32)
        out_code = np.empty(MOST_SUCCESSORS * n, dtype=np.int8)
        waiting = np.empty(n, dtype=np.int64)
        written, waited, asked, too_fast = _kernel.expand_all(
            rules, facts.packed, keys, ids, out_keys, out_src, out_code, needs.packed, waiting)
        found.append((out_keys[:written], out_src[:written], out_code[:written]))
        if too_fast:
            return (*(np.concatenate(part) for part in zip(*found, strict=True)), True)
        if not waited:
            break
        if asked:
            fill_facts(facts, needs, asked, work_out)
        keys, ids = keys[waiting[:waited]], ids[waiting[:waited]]
    else:  # pragma: no cover - facts once worked out are never asked for again
        raise RuntimeError("the kernel kept asking for the same facts")
    return (*(np.concatenate(part) for part in zip(*found, strict=True)), False)


class SearchStatus:
    """What ``search_run`` says."""

    DONE, WANTS, TOO_FAST, MEMORY, GROWING = range(5)


class CompiledSearch:
    """The best-first search of ``_kernel.c`` (``search_new``): from source keys, with or
    without a bound on the turns still to go; ``run`` searches until the first finished
    state is taken (or there is none), working out the facts it wants as it goes."""

    def __init__(self, rules: tuple, sources: np.ndarray, memory: int,
                 least_exit_radix: int = 0, least_turns: int = 0, bound: tuple | None = None):
        self.capsule = _kernel.search_new(rules, np.ascontiguousarray(sources, dtype=np.uint64),
                                          int(memory), least_exit_radix > 0,
                                          int(least_exit_radix), int(least_turns), bound)

    def run(self, facts: MoveFacts, work_out) -> int:
        """Search on to the end; the status (``SearchStatus``) it ends with."""
        needs = Needs()
        while True:
            status, asked = _kernel.search_run(self.capsule, facts.packed, needs.packed)
            if status != SearchStatus.WANTS:
                return status
            fill_facts(facts, needs, asked, work_out)

    def result(self) -> tuple[int, int, int, int, int, int, int, int]:
        """(the finished state's id or -1, its turns, states expanded, states numbered, bytes
        in use, states queued below the bucket being searched, that bucket, the states taken
        in the last turn)."""
        return _kernel.search_result(self.capsule)

    def route(self, state_id: int, longest: int) -> np.ndarray:
        """The keys from a source to a numbered state (at most ``longest`` of them)."""
        out = np.empty(longest, dtype=np.uint64)
        count = _kernel.search_route(self.capsule, int(state_id), out)
        return out[:count]
