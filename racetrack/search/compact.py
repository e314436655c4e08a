"""Turns to go from every state a lone car can reach, in a byte or two a state: the drivers'
table wherever the solver can solve.

A table that keeps every edge between the states it found (``solver.ValueTable``) needs a
hundred bytes a state and more; this one keeps each state's key (in order, so a state is found
by bisection) and its two values, and keeps no *plain* move: a change of velocity that lands at
the point plus the new velocity, one turn, no crash, every other column as it was. Such a move
is known from its two ends, so while the table is built a state holds only a bit for each
change of velocity that makes a plain move out of it. It is built in two passes:

1. *Forward*: every state reachable from the sources, a turn's worth at a time, each expanded
   once through the rules (by the compiled kernel where the rules allow, as the solver's
   search expands them; the numpy transition judges the rest). Each state's plain moves become
   its bits; the few other edges (a move over a line or into an area, a crash, a launch, a
   put-back) are kept as they are.
2. *Backward*: Dial's search from the finish, a bucket per number of turns. The states with a
   plain move into a state just settled are its point less its velocity, at its velocity less
   each change: those that are in the table and hold that change's bit. The kept edges are
   read backwards as they are.

Values are the fewest turns (``value``) and the fewest by routes that never crash
(``careful``); ``UNSOLVED`` where there is none.
"""

from __future__ import annotations

import numpy as np

from racetrack.board import kernel
from racetrack.board.graphs import first_of_each
from racetrack.engine.transition import COLUMNS, Cars, CrashSpots, MoveMemo, Transition
from racetrack.search.solver import (
    MOVE_BYTES,
    SolverError,
    StateSpace,
    TableReading,
    ValueTable,
    kept_successors,
    unsure_successors,
)

#: States expanded at once in either pass (cars that may launch: fewer, ``_batches``).
CHUNK = 1 << 15
MIN_CHUNK = 256
#: The value a state with no way to the finish holds while the table is built.
NONE16 = np.iinfo(np.uint16).max
UNSOLVED = np.iinfo(np.int32).max


class TableTooLarge(SolverError):
    """The table would take more memory than it may."""


class CompactTable(TableReading):
    """Turns to go by state: the states' keys in ``space``'s numbering, in order, and their
    values (a byte each where every value fits in one, else two; the largest means no way to
    the finish): ``value`` by the best route, ``careful`` by the best that never crashes."""

    def __init__(self, space: StateSpace, keys: np.ndarray, value: np.ndarray,
                 careful: np.ndarray):
        self.space = space
        self.keys = keys
        self.value = _narrow(value)
        self.careful = self.value if careful is value or np.array_equal(careful, value) \
            else _narrow(careful)

    @property
    def count(self) -> int:
        return len(self.keys)

    @property
    def nbytes(self) -> int:
        """What the table keeps: its keys and its values."""
        values = self.value.nbytes + (0 if self.careful is self.value else self.careful.nbytes)
        return self.keys.nbytes + values

    def values_of(self, cars: Cars, careful: bool = False) -> np.ndarray:
        """Turns to go for many states at once (``careful``: never crashing); ``UNSOLVED`` for
        unknown or hopeless ones. Columns the table does not carry are read as zero."""
        result = np.full(len(cars), UNSOLVED, dtype=np.int64)
        carried = set(self.space.columns)
        cars = Cars(**{name: getattr(cars, name) if name in carried or name in COLUMNS[:5]
                       else None for name in COLUMNS})
        fits = np.flatnonzero(self.space.fits(cars))
        if len(fits) and len(self.keys):
            keys = self.space.encode(cars.take(fits)).astype(self.keys.dtype)
            at = np.minimum(np.searchsorted(self.keys, keys), len(self.keys) - 1)
            known = self.keys[at] == keys
            table = self.careful if careful else self.value
            found = table[at[known]].astype(np.int64)
            found[found == _none(table)] = UNSOLVED
            result[fits[known]] = found
        return result


def compacted(table: ValueTable) -> CompactTable:
    """A table that kept its edges, kept compactly once its values are worked out."""
    search = table.search
    keys = search.key_all
    order = np.argsort(keys, kind="stable")

    def sixteen(values: np.ndarray) -> np.ndarray:
        if len(values) and int(values[values < UNSOLVED].max(initial=0)) >= NONE16:
            raise TableTooLarge("more turns to go than the table can hold")
        return np.where(values[order] >= UNSOLVED, NONE16, values[order]).astype(np.uint16)

    value = sixteen(table.value)
    careful = value if table.careful is table.value else sixteen(table.careful)
    return CompactTable(search.space, keys[order], value, careful)


class CompactBuild:
    """The two passes that build a ``CompactTable`` keeping no plain move (see the module's
    docstring), from the ``sources``; ``leave_track``: whether states off the track are kept;
    ``memory``: the bytes the build may take at most (``TableTooLarge`` past them)."""

    def __init__(self, transition: Transition, space: StateSpace, sources: Cars,
                 damage_limit: int | None = None, leave_track: bool = True,
                 memory: int = 1 << 30):
        self.transition = transition
        self.space = space
        self.sources = sources
        self.damage_limit = damage_limit
        self.leave_track = leave_track
        self.memory = memory
        self.goal = transition.goal
        self.key_type = np.uint32 if space.size < 2 ** 32 else np.uint64
        self.crash_spots = CrashSpots()
        # The kernel expands the states where the rules and the numbering allow it.
        self.compiled = space.compiled()
        self.workspace = kernel.Workspace()
        land = transition.land
        self.moves_memo = MoveMemo(land, space.vmax_x, space.vmax_y) \
            if self.compiled is None \
            and MoveMemo.size(land, space.vmax_x, space.vmax_y) <= memory // 16 else None
        changes = transition.changes.astype(np.int64)
        self.changes = changes
        # A change of velocity's bit, looked up by the change.
        self.reach = int(np.abs(changes).max(initial=0))
        side = 2 * self.reach + 1
        self.bit_of = np.full(side * side, -1, dtype=np.int64)
        self.bit_of[(changes[:, 1] + self.reach) * side + changes[:, 0] + self.reach] = \
            np.arange(len(changes))
        self.bits_type = next(t for t in (np.uint8, np.uint16, np.uint32, np.uint64)
                              if np.iinfo(t).bits >= len(changes))
        self.keys = np.zeros(0, self.key_type)
        self.plain = np.zeros(0, self.bits_type)
        self._starts: np.ndarray | None = None  # where each point's states begin (kernel's)
        self.launch_chunk = max(MIN_CHUNK, memory // (8 * MOVE_BYTES * len(land.points))) \
            if transition.rules.movement_launch and "launch" in space.columns else None

    def build(self) -> CompactTable:
        self.keys, self.plain, kept = self._forward(self.sources)
        self._starts = None
        value = self._backward(kept)
        crashes = kept[3].astype(bool)
        careful = self._backward(tuple(part[~crashes] for part in kept)) \
            if crashes.any() else value
        return CompactTable(self.space, self.keys, value, careful)

    def _check(self, used: int) -> None:
        if used > self.memory:
            raise TableTooLarge(f"the table passed {used >> 20} MB; the track is too large for "
                                "one here")

    # -- the forward pass -----------------------------------------------------------------------

    def _forward(self, sources: Cars) -> tuple[np.ndarray, np.ndarray, tuple[np.ndarray, ...]]:
        """Every state reachable from the sources (their keys, in order), each state's bits
        of plain moves, and the edges that are not plain moves: (source key, destination
        key, cost, crashed)."""
        space = self.space
        seen = np.zeros((space.size + 7) // 8, dtype=np.uint8)
        self._check(seen.nbytes)
        frontier = space.encode(sources).astype(np.int64)
        frontier = frontier[first_of_each(frontier)]
        _mark(seen, frontier)
        found: list[np.ndarray] = []
        bits: list[np.ndarray] = []
        kept: list[tuple[np.ndarray, ...]] = []
        total = kept_bytes = 0
        per_state = np.dtype(self.key_type).itemsize + np.dtype(self.bits_type).itemsize
        while len(frontier):
            frontier, batches = self._batches(frontier)
            found.append(frontier.astype(self.key_type))
            total += len(frontier)
            following: list[np.ndarray] = []
            for start, end in batches:
                keys = frontier[start:end]
                plain = np.zeros(len(keys), dtype=self.bits_type)
                bits.append(plain)
                racing = np.flatnonzero(space.progress_of(keys) < self.goal)
                if not len(racing):
                    continue
                src, dst_keys, cost, crashed, change = self._edges(keys[racing])
                made = change >= 0
                plain |= self._bits_of(racing[src[made]], change[made], len(keys))
                odd = ~made
                if odd.any():
                    part = (keys[racing[src[odd]]], dst_keys[odd], cost[odd].astype(np.int8),
                            crashed[odd].astype(np.int8))
                    kept.append(part)
                    kept_bytes += sum(p.nbytes for p in part)
                fresh = dst_keys[~_seen(seen, dst_keys)]
                fresh = fresh[first_of_each(fresh)]
                _mark(seen, fresh)
                following.append(fresh)
            frontier = np.concatenate(following) if following else np.zeros(0, np.int64)
            self._check(seen.nbytes + total * per_state + kept_bytes + frontier.nbytes
                        + self._memo_bytes + self.workspace.nbytes)
        del seen
        if not found:
            return np.zeros(0, self.key_type), np.zeros(0, self.bits_type), _no_edges()
        keys = np.concatenate(found)
        order = np.argsort(keys)
        keys = keys[order]
        plain = np.concatenate(bits)[order]
        del order
        edges = tuple(np.concatenate([k[i] for k in kept]) for i in range(4)) if kept \
            else _no_edges()
        return keys, plain, edges

    def _bits_of(self, rows: np.ndarray, change: np.ndarray, count: int) -> np.ndarray:
        """Each of ``count`` states' bits of the plain moves out of it (rows: the state of
        each plain move, change: its change of velocity). Where the kernel expands, a state
        has one move by each change, so its bits add up as they join: counted with the moves'
        bits as weights, exact in a float's 52 bits of fraction (elsewhere a special move may
        make a change a second time)."""
        if self.compiled is not None and len(self.changes) <= 52:
            weights = np.left_shift(1, change).astype(np.float64)
            return np.bincount(rows, weights, minlength=count).astype(self.bits_type)
        bits = np.zeros(count, dtype=self.bits_type)
        np.bitwise_or.at(bits, rows, np.left_shift(1, change).astype(self.bits_type))
        return bits

    def _batches(self, frontier: np.ndarray) -> tuple[np.ndarray, list[tuple[int, int]]]:
        """The frontier, in the order it is expanded, and its batches (start, end) to expand
        at once. Under Pope's rules a car that may launch has a move to every point it can
        see: such states come first, in batches small enough that their moves' working
        arrays stay within an eighth of the budget (batches of the usual size took twice the
        budget on the waypoints sheet)."""
        first = 0
        batches = []
        if self.launch_chunk is not None:
            launching = self.space.decode(frontier).launch > 0
            frontier = np.concatenate([frontier[launching], frontier[~launching]])
            first = int(launching.sum())
            batches = [(start, min(start + self.launch_chunk, first))
                       for start in range(0, first, self.launch_chunk)]
        batches += [(start, min(start + CHUNK, len(frontier)))
                    for start in range(first, len(frontier), CHUNK)]
        return frontier, batches

    @property
    def _memo_bytes(self) -> int:
        return self.moves_memo.flags.nbytes if self.moves_memo is not None else 0

    def _edges(self, keys: np.ndarray) -> tuple[np.ndarray, ...]:
        """Every edge out of these racing states that stays in the table: the row of
        ``keys`` each is from, destination keys, costs, crashes, and the change of velocity
        that makes each a plain move (-1 for none)."""
        pieces = []
        if self.compiled is None:
            parts = [kept_successors(self.transition, self.space.decode(keys),
                                     self.damage_limit, self.crash_spots, self.moves_memo,
                                     self.leave_track)]
        else:
            transition = self.transition
            want_stuck = transition.rules.crash_outcome != "out"
            found = kernel.expand(self.compiled, transition.land.compiled,
                                  transition.drive.compiled, transition.course.compiled_lines,
                                  keys, np.arange(len(keys)), len(transition.changes), None,
                                  want_stuck, workspace=self.workspace, plain=True)
            if found.beyond:
                raise TableTooLarge("a legal move lies beyond the table's speed bound")
            parts = unsure_successors(transition, self.space, keys, found,
                                      self.damage_limit, self.crash_spots, want_stuck)
            src, dst = found.sources, found.keys.astype(np.int64)
            ones = np.ones(len(src), dtype=np.int64)
            # The kernel's ordinary moves land at their point plus their new velocity, in one
            # turn, with no crash, and its states carry no column but progress: plain where
            # the progress stays (the kernel says by which change).
            pieces.append((src, dst, ones, ones == 0, found.plain.astype(np.int64)))
        for src, after, cost, crashed in parts:
            if not self.space.fits(after).all():
                raise TableTooLarge("a legal move lies beyond the table's speed bound")
            dst = self.space.encode(after).astype(np.int64)
            pieces.append((src, dst, cost, crashed,
                           self._plain_changes(keys, src, dst, cost, crashed)))
        if len(pieces) == 1:
            return pieces[0]
        return tuple(np.concatenate([p[i] for p in pieces]) for i in range(5))

    def _plain_changes(self, keys: np.ndarray, src: np.ndarray, dst_keys: np.ndarray,
                       cost: np.ndarray, crashed: np.ndarray) -> np.ndarray:
        """Per edge (from row ``src`` of ``keys``), the index of the change of velocity that
        makes it a plain move, or -1 where it is not one."""
        change = np.full(len(src), -1, dtype=np.int64)
        rows = np.flatnonzero((cost == 1) & ~crashed)
        if not len(rows):
            return change
        before = self.space.decode(keys[src[rows]])
        after = self.space.decode(dst_keys[rows])
        dx, dy = after.vx - before.vx, after.vy - before.vy
        side = 2 * self.reach + 1
        near = (np.abs(dx) <= self.reach) & (np.abs(dy) <= self.reach)
        bit = np.full(len(rows), -1, dtype=np.int64)
        bit[near] = self.bit_of[(dy[near] + self.reach) * side + dx[near] + self.reach]
        ok = (bit >= 0) & (after.x - before.x == after.vx) & (after.y - before.y == after.vy)
        # Every other column as it was: the source is the destination moved back.
        good = np.flatnonzero(ok)
        back = self._moved_back(after.take(good), before.vx[good], before.vy[good])
        ok[good] = self.space.encode(back) == keys[src[rows[good]]]
        change[rows[ok]] = bit[ok]
        return change

    def _moved_back(self, cars: Cars, vx: np.ndarray, vy: np.ndarray) -> Cars:
        """The states a plain move to ``cars`` with the given earlier velocities comes from:
        every column as it is but point and velocity."""
        columns = {name: getattr(cars, name) for name in COLUMNS}
        columns.update(x=cars.x - cars.vx, y=cars.y - cars.vy, vx=vx, vy=vy)
        return Cars(**columns)

    # -- the backward pass ----------------------------------------------------------------------

    def _backward(self, kept: tuple[np.ndarray, ...]) -> np.ndarray:
        """Dial's search backwards from the finish over the plain moves (found by the states'
        bits) and the kept edges (without crashes, for the ``careful`` values)."""
        keys = self.keys
        n = len(keys)
        value = np.full(n, NONE16, dtype=np.uint16)
        done = np.zeros(n, dtype=bool)
        self._check(self.keys.nbytes + self.plain.nbytes + 2 * value.nbytes + done.nbytes
                    + self._memo_bytes + sum(p.nbytes for p in kept) * 2)
        src_ids = self._ids(kept[0])
        dst_ids = self._ids(kept[1])
        order = np.argsort(dst_ids, kind="stable")
        by_dst, src_sorted = dst_ids[order], src_ids[order]
        cost_sorted = kept[2][order].astype(np.int64)
        del src_ids, dst_ids, order
        goals = np.flatnonzero(self.space.progress_of(keys) >= self.goal)
        value[goals] = 0
        buckets: dict[int, list[np.ndarray]] = {0: [goals]}
        while buckets:
            d = min(buckets)
            if d >= NONE16 - 16:
                raise TableTooLarge("more turns to go than the table can hold")
            ids = np.concatenate(buckets.pop(d))
            ids = ids[(value[ids] == d) & ~done[ids]]
            ids = ids[first_of_each(ids)]
            if not len(ids):
                continue
            done[ids] = True
            for start in range(0, len(ids), CHUNK):
                part = ids[start:start + CHUNK]
                sources = self._plain_sources(part)
                sources = sources[~done[sources] & (value[sources] > d + 1)]
                if len(sources):
                    value[sources] = d + 1
                    buckets.setdefault(d + 1, []).append(sources)
                lo = np.searchsorted(by_dst, part, side="left")
                hi = np.searchsorted(by_dst, part, side="right")
                count = hi - lo
                if count.sum():
                    at = np.repeat(lo - np.cumsum(count) + count, count) \
                        + np.arange(count.sum())
                    src, new = src_sorted[at], d + cost_sorted[at]
                    better = ~done[src] & (new < value[src])
                    src, new = src[better], new[better]
                    if len(src):
                        np.minimum.at(value, src, new.astype(np.uint16))
                        for v in np.unique(new):
                            buckets.setdefault(int(v), []).append(src[new == v])
        return value

    def _ids(self, keys: np.ndarray) -> np.ndarray:
        """The positions of states (by key) in the table; every one must be there."""
        ids = np.searchsorted(self.keys, keys.astype(self.keys.dtype))
        return ids.astype(np.int64)

    def _plain_sources(self, ids: np.ndarray) -> np.ndarray:
        """The states (ids) with a plain move into one of ``ids``: for each change of
        velocity, the state it would come from, where the table holds it with that change's
        bit. The states asked for are looked up in the order of their keys, which keeps the
        bisections of the table in the cache (the compiled kernel's, by bisection of each
        state asked for, where the states are numbered as it numbers them)."""
        space = self.space
        if self.compiled is not None:
            if self._starts is None:
                self._starts = kernel.point_starts(self.compiled, self.keys)
            return kernel.plain_sources(self.compiled, self.transition.land.compiled,
                                        self.keys, self.plain, self._starts, ids)
        after = space.decode(self.keys[ids].astype(np.int64))
        m, k = len(ids), len(self.changes)
        rows = np.tile(np.arange(m), k)
        bits = np.repeat(np.arange(k), m)
        landed = after.take(rows)
        back = self._moved_back(landed, landed.vx - self.changes[bits, 0],
                                landed.vy - self.changes[bits, 1])
        fits = np.flatnonzero(space.fits(back))
        keys = space.encode(back.take(fits)).astype(self.keys.dtype)
        order = np.argsort(keys)
        keys, bits = keys[order], bits[fits[order]]
        at = np.minimum(np.searchsorted(self.keys, keys), len(self.keys) - 1)
        known = self.keys[at] == keys
        at, bits = at[known], bits[known]
        made = (self.plain[at] >> bits.astype(self.bits_type)) & 1 > 0
        return at[made].astype(np.int64)


def _no_edges() -> tuple[np.ndarray, ...]:
    return (np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int8),
            np.zeros(0, np.int8))


def _seen(bits: np.ndarray, keys: np.ndarray) -> np.ndarray:
    return ((bits[keys >> 3] >> (keys & 7).astype(np.uint8)) & 1).astype(bool)


def _mark(bits: np.ndarray, keys: np.ndarray) -> None:
    np.bitwise_or.at(bits, keys >> 3, (1 << (keys & 7)).astype(np.uint8))


def _none(values: np.ndarray) -> int:
    return int(np.iinfo(values.dtype).max)


def _narrow(values: np.ndarray) -> np.ndarray:
    """A byte a state where every value fits in one (no way to the finish: the largest)."""
    solved = values[values != NONE16]
    if not len(solved) or int(solved.max()) < 255:
        narrow = values.astype(np.uint8)
        narrow[values == NONE16] = 255
        return narrow
    return values
