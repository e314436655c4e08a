"""Turns to go from every state a lone car can reach, in a byte or two a state: the drivers'
table wherever the solver can solve.

A table that keeps every edge between the states it found (``solver.ValueTable``) needs a
hundred bytes a state and more; this one keeps each state's key (in order, so a state is found
by bisection) and its two values, and works the edges out again from the rules as it needs
them. It is built in two passes:

1. *Forward*: every state reachable from the sources, a turn's worth at a time, each expanded
   once through the rules' own transition. Most edges are *plain*: a change of velocity that
   lands at the point plus the new velocity, one turn, no crash, every other column as it was.
   Those are not kept: the move that makes one is known from its two ends. The few others (a
   move over a line or into an area, a crash, a launch, a put-back) are kept as they are.
2. *Backward*: Dial's search from the finish, a bucket per number of turns. The plain moves
   into a state just settled come from the states its velocity less each change points back
   to; each such move is judged again, alone, by the transition (as the forward pass judged
   it), and counts where it leads exactly to the settled state. The kept edges are read
   backwards as they are.

Values are the fewest turns (``value``) and the fewest by routes that never crash
(``careful``); ``UNSOLVED`` where there is none.
"""

from __future__ import annotations

import numpy as np

from racetrack.graphs import first_of_each
from racetrack.rules.transition import (
    COLUMNS,
    SPECIAL_CODES,
    Cars,
    CrashSpots,
    MoveMemo,
    Special,
    Transition,
)
from racetrack.solver import (
    SolverError,
    StateSpace,
    TableReading,
    ValueTable,
    kept_successors,
)

#: States expanded at once in either pass.
CHUNK = 1 << 15
#: The value a state with no way to the finish holds while the table is built.
NONE16 = np.iinfo(np.uint16).max
UNSOLVED = np.iinfo(np.int32).max
NONE_CODE = SPECIAL_CODES.index(Special.NONE)


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


class Regeneration:
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
        land = transition.land
        self.moves_memo = MoveMemo(land, space.vmax_x, space.vmax_y) \
            if MoveMemo.size(land, space.vmax_x, space.vmax_y) <= memory // 16 else None
        self.changes = {(int(x), int(y)) for x, y in transition.changes}
        self.keys = np.zeros(0, self.key_type)

    def build(self) -> CompactTable:
        self.keys, kept = self._forward(self.sources)
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

    def _forward(self, sources: Cars) -> tuple[np.ndarray, tuple[np.ndarray, ...]]:
        """Every state reachable from the sources (their keys, in order) and the edges that
        are not plain moves: (source key, destination key, cost, crashed)."""
        space = self.space
        seen = np.zeros((space.size + 7) // 8, dtype=np.uint8)
        self._check(seen.nbytes)
        frontier = space.encode(sources).astype(np.int64)
        frontier = frontier[first_of_each(frontier)]
        _mark(seen, frontier)
        found: list[np.ndarray] = []
        kept: list[tuple[np.ndarray, ...]] = []
        total = kept_bytes = 0
        while len(frontier):
            found.append(frontier.astype(self.key_type))
            total += len(frontier)
            following: list[np.ndarray] = []
            for start in range(0, len(frontier), CHUNK):
                keys = frontier[start:start + CHUNK]
                cars = space.decode(keys)
                racing = np.flatnonzero(cars.progress < self.goal)
                if not len(racing):
                    continue
                src_keys, dst_keys, cost, crashed, plain = self._edges(keys[racing],
                                                                       cars.take(racing))
                odd = ~plain
                if odd.any():
                    part = (src_keys[odd], dst_keys[odd], cost[odd].astype(np.int8),
                            crashed[odd].astype(np.int8))
                    kept.append(part)
                    kept_bytes += sum(p.nbytes for p in part)
                fresh = dst_keys[~_seen(seen, dst_keys)]
                fresh = fresh[first_of_each(fresh)]
                _mark(seen, fresh)
                following.append(fresh)
            frontier = np.concatenate(following) if following else np.zeros(0, np.int64)
            self._check(seen.nbytes + total * np.dtype(self.key_type).itemsize
                        + kept_bytes + frontier.nbytes + self._memo_bytes)
        del seen
        keys = np.sort(np.concatenate(found)) if found else np.zeros(0, self.key_type)
        if kept:
            edges = tuple(np.concatenate([k[i] for k in kept]) for i in range(4))
        else:
            edges = (np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int8),
                     np.zeros(0, np.int8))
        return keys, edges

    @property
    def _memo_bytes(self) -> int:
        return self.moves_memo.flags.nbytes if self.moves_memo is not None else 0

    def _edges(self, keys: np.ndarray, cars: Cars) -> tuple[np.ndarray, ...]:
        """Every edge out of these racing states that stays in the table: source keys,
        destination keys, costs, crashes, and whether each is a plain move."""
        src, after, cost, crashed = kept_successors(self.transition, cars, self.damage_limit,
                                                    self.crash_spots, self.moves_memo,
                                                    self.leave_track)
        if not self.space.fits(after).all():
            raise TableTooLarge("a legal move lies beyond the table's speed bound")
        dst_keys = self.space.encode(after).astype(np.int64)
        before = cars.take(src)
        plain = (cost == 1) & ~crashed & (after.x - before.x == after.vx) \
            & (after.y - before.y == after.vy)
        dx, dy = after.vx - before.vx, after.vy - before.vy
        change = np.zeros(len(src), dtype=bool)
        for cx, cy in self.changes:
            change |= (dx == cx) & (dy == cy)
        plain &= change
        # Every other column as it was: the source is the destination moved back.
        rows = np.flatnonzero(plain)
        if len(rows):
            back = self._moved_back(after.take(rows), before.vx[rows], before.vy[rows])
            plain[rows] = self.space.encode(back) == keys[src[rows]]
        return keys[src], dst_keys, cost, crashed, plain

    def _moved_back(self, cars: Cars, vx: np.ndarray, vy: np.ndarray) -> Cars:
        """The states a plain move to ``cars`` with the given earlier velocities comes from:
        every column as it is but point and velocity."""
        columns = {name: getattr(cars, name) for name in COLUMNS}
        columns.update(x=cars.x - cars.vx, y=cars.y - cars.vy, vx=vx, vy=vy)
        return Cars(**columns)

    # -- the backward pass ----------------------------------------------------------------------

    def _backward(self, kept: tuple[np.ndarray, ...]) -> np.ndarray:
        """Dial's search backwards from the finish over the plain moves (worked out again)
        and the kept edges (without crashes, for the ``careful`` values)."""
        keys = self.keys
        n = len(keys)
        value = np.full(n, NONE16, dtype=np.uint16)
        done = np.zeros(n, dtype=bool)
        self._check(self.keys.nbytes + 2 * value.nbytes + done.nbytes + self._memo_bytes
                    + sum(p.nbytes for p in kept) * 2)
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
        """The states (ids) with a plain move into one of ``ids``, each move judged again."""
        transition = self.transition
        space = self.space
        after = space.decode(self.keys[ids].astype(np.int64))
        m = len(ids)
        k = len(transition.changes)
        rows = np.repeat(np.arange(m), k)
        cx = np.tile(transition.changes[:, 0], m)
        cy = np.tile(transition.changes[:, 1], m)
        landed = after.take(rows)
        back = self._moved_back(landed, landed.vx - cx, landed.vy - cy)
        fits = np.flatnonzero(space.fits(back))
        rows, back = rows[fits], back.take(fits)
        keys = space.encode(back)
        at = np.minimum(np.searchsorted(self.keys, keys.astype(self.keys.dtype)),
                        len(self.keys) - 1)
        known = np.flatnonzero((self.keys[at] == keys) & (back.progress < self.goal))
        if not len(known):
            return np.zeros(0, dtype=np.int64)
        rows, back, src = rows[known], back.take(known), at[known].astype(np.int64)
        target = self.keys[ids[rows]].astype(np.int64)
        return src[self._makes(back, after.take(rows), target)]

    def _makes(self, cars: Cars, wanted: Cars, target: np.ndarray) -> np.ndarray:
        """Whether each state's move to the velocity of ``wanted`` is legal and leads to the
        state keyed ``target`` (judged alone, as the transition judges it among the rest)."""
        transition = self.transition
        on_oil = transition.unchanged_touches_oil(cars, memo=self.moves_memo) \
            if transition.oil else None
        moves = transition.choices(cars, on_oil=on_oil)
        pick = (moves.wx == wanted.vx[moves.row]) & (moves.wy == wanted.vy[moves.row]) \
            & (moves.special == NONE_CODE)
        moves = moves.take(np.flatnonzero(pick))
        judged = transition.judge(cars, moves, explain=False, on_oil=on_oil,
                                  memo=self.moves_memo)
        legal = np.flatnonzero(judged.legal)
        found = transition.after(cars, judged, legal, self.damage_limit, self.crash_spots)
        ok = (found.out == 0) & (found.cost == 1) & ~found.crashed
        if found.left is not None:
            ok &= ~found.left
        fits = self.space.fits(found.cars)
        ok &= fits
        good = np.flatnonzero(ok)
        ok[good] = self.space.encode(found.cars.take(good)) == target[judged.row[legal][good]]
        makes = np.zeros(len(cars), dtype=bool)
        makes[judged.row[legal][ok]] = True
        return makes


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
