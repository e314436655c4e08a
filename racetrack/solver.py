"""The exact solver: fewest moves to the finish for one car, by search over every state.

A state is (lattice point, velocity, progress). The search expands a whole layer of states at
once with numpy: every successor of every state in the layer is built as arrays, looked up on a
grid of the track's lattice points, and its segment is judged once per distinct (point,
velocity) pair, cached. Most segments are settled without shapely by a clearance test (each
point's distance to the wall is known, and a segment whose end discs overlap along it cannot
reach the wall); the rest go to shapely in one batched call. So the answer is exact, and proved
optimal by breadth-first order, yet the work is a few numpy passes per layer.

``StateGraph`` explores everything reachable and keeps the edges, from which ``ValueTable``
computes moves-to-go for every state (the computer drivers' table and the par of a track).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from racetrack.course import Course
from racetrack.errors import RacetrackError
from racetrack.geometry import Vec, segments_touch, zone_hits
from racetrack.graphs import ReverseEdges
from racetrack.rules.moves import CHANGES, pit_stop_required
from racetrack.rules.ruleset import RuleSet

#: The largest state space (points x velocities x progress) the solver takes on; it keeps a
#: 4-byte slot for each, so this bounds its memory before it starts.
MAX_STATE_SPACE = 80_000_000
#: States the search may reach before it gives up (about 100 bytes each with their edges).
MAX_STATES = 12_000_000
UNSOLVED = np.iinfo(np.int32).max


class SolverError(RacetrackError):
    """The track cannot be solved here (too large, or no start)."""


@dataclass(frozen=True)
class Solution:
    """The fewest moves from a standing start, and one route that takes that many."""

    moves: int
    start: Vec
    path: tuple[Vec, ...]  # the start and then every point the car moves to

    def to_json(self) -> dict:
        return {"moves": self.moves, "start": list(self.start),
                "path": [list(p) for p in self.path]}


class MoveTable:
    """Which moves (point, velocity) are allowed for one car under one rule set, cached.

    Holds the lattice of the track as a grid, every point's clearance from the walls, and the
    answers already computed, keyed by ``point_index * V + velocity_code``.
    """

    def __init__(self, course: Course, rules: RuleSet, can_swim: bool = False):
        self.course = course
        self.rules = rules
        without_water = rules.zones_water == "wall" and not can_swim
        self.land = course.region(without_water=without_water)
        self.drive = course.region(without_water=without_water,
                                   with_jumps=rules.zones_jump == "fly")
        self.boundary = rules.boundary_counts
        self.points = self.land.lattice_points(self.boundary)
        n = len(self.points)
        if n == 0:
            raise SolverError("the track has no lattice point to stand on")
        self.minx, self.miny = (int(v) for v in self.points.min(axis=0))
        maxx, maxy = (int(v) for v in self.points.max(axis=0))
        self.grid = np.full((maxy - self.miny + 1, maxx - self.minx + 1), -1, dtype=np.int64)
        self.grid[self.points[:, 1] - self.miny, self.points[:, 0] - self.minx] = np.arange(n)
        # From rest, reaching speed s along an axis takes at least s * s / (2 a) squares of
        # that axis (a = the most a component changes per move), and the track is only so wide:
        # no faster state can ever be reached.
        accel = max(abs(c[0]) for c in CHANGES[rules.movement_choices])
        height, width = self.grid.shape
        self.vmax_x = int(math.sqrt(2 * accel * width)) + accel
        self.vmax_y = int(math.sqrt(2 * accel * height)) + accel
        self.launch = rules.movement_launch
        if self.launch:  # a launch may cross the whole track at once
            self.vmax_x, self.vmax_y = max(self.vmax_x, width), max(self.vmax_y, height)
        self.span_x, self.span_y = 2 * self.vmax_x + 1, 2 * self.vmax_y + 1
        # A state's flags: whether the car has made its pit stop, whether it may launch.
        self.pits = pit_stop_required(course, rules)
        self.pit_factor = 2 if self.pits else 1
        self.flag_count = self.pit_factor * (2 if self.launch else 1)
        self.space = n * self.span_x * self.span_y * (course.goal + 1) * self.flag_count
        if self.space > MAX_STATE_SPACE:
            raise SolverError(f"the track is too large to solve: {self.space:,} possible states "
                              f"(the limit is {MAX_STATE_SPACE:,}); make it smaller or "
                              "narrower")
        self.clearance = self._clearance(self.drive)
        self.oil = course.zones("oil") if rules.zones_oil != "none" else []
        self.jumps = course.zones("jump") if rules.zones_jump == "fly" else []
        slopes = rules.zones_slopes == "force"
        self.upgrades = course.zones("upgrade") if slopes else []
        self.downgrades = course.zones("downgrade") if slopes else []
        self.in_pit = course.in_zones("pit", self.points.astype(float)) if self.pits \
            else np.zeros(n, dtype=bool)
        waypoints = {tuple(line.a) for line, is_point in zip(course.lines, course.is_point,
                                                               strict=True) if is_point}
        self.on_mark = np.array([tuple(pt) in waypoints for pt in self.points.tolist()],
                                dtype=bool) if waypoints else np.zeros(n, dtype=bool)
        # Flags of every (point, velocity) move, computed on first need; UNKNOWN until then.
        self._flags = np.full(n * self.span_x * self.span_y, self.UNKNOWN, dtype=np.uint8)
        self._target = np.full(n * self.span_x * self.span_y, -1, dtype=np.int32)
        lines = [line for line in course.lines if line.a != line.b]
        self._line_a = np.array([line.a for line in lines], dtype=float)
        self._line_b = np.array([line.b for line in lines], dtype=float)

    #: The longest move the clearance-disc chain settles (longer ones are asked of shapely).
    DISC_CHAIN_LENGTH = 12.0

    ON_TRACK, TOUCHES_OIL, TOUCHES_JUMP, TOUCHES_LINE, TOUCHES_UP, TOUCHES_DOWN = \
        1, 2, 4, 8, 16, 32
    UNKNOWN = 255

    def flags(self, count: int, pitted: Iterable[bool] | None = None,
              launch: Iterable[bool] | None = None) -> np.ndarray:
        """The flag code of states: pitted (where pits count) plus may-launch (where it can)."""
        flag = np.zeros(count, dtype=np.int64)
        if pitted is not None and self.pits:
            flag += np.asarray(list(pitted), dtype=bool).astype(np.int64)
        if launch is not None and self.launch:
            flag += self.pit_factor * np.asarray(list(launch), dtype=bool).astype(np.int64)
        return flag

    def move_key(self, point: np.ndarray, vx: np.ndarray, vy: np.ndarray) -> np.ndarray:
        return (point * self.span_x + (vx + self.vmax_x)) * self.span_y + (vy + self.vmax_y)

    def in_speed_range(self, vx: np.ndarray, vy: np.ndarray) -> np.ndarray:
        return (np.abs(vx) <= self.vmax_x) & (np.abs(vy) <= self.vmax_y)

    def _clearance(self, region) -> np.ndarray:
        import shapely

        boundary = region.geometry.boundary
        shapely.prepare(boundary)
        return np.asarray(shapely.distance(shapely.points(self.points.astype(float)), boundary))

    def index_of(self, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
        """Lattice-point indexes of points (x, y); -1 where no track point is there."""
        cols, rows = xs - self.minx, ys - self.miny
        height, width = self.grid.shape
        inside = (rows >= 0) & (rows < height) & (cols >= 0) & (cols < width)
        flat = np.where(inside, rows * width + cols, 0)
        return np.where(inside, self.grid.ravel()[flat], -1)

    def moves(self, point: np.ndarray, vx: np.ndarray,
              vy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Where each move (from point index ``point`` with velocity (vx, vy)) lands, as a
        point index (-1 off the track's lattice), and its bit flags. Velocities must be in
        range (see ``in_speed_range``). Each distinct move is worked out once, then cached."""
        keys = self.move_key(point, vx, vy)
        found = self._flags[keys]
        missing = np.flatnonzero(found == self.UNKNOWN)
        if len(missing):
            unique, first = np.unique(keys[missing], return_index=True)
            rows = missing[first]
            origin = self.points[point[rows]]
            target = self.index_of(origin[:, 0] + vx[rows], origin[:, 1] + vy[rows])
            flags = np.zeros(len(rows), dtype=np.uint8)
            lands = target >= 0
            flags[lands] = self._compute(point[rows][lands], target[lands])
            self._target[unique] = target
            self._flags[unique] = flags
            found = self._flags[keys]
        return self._target[keys], found

    def _surely_inside(self, p: np.ndarray, q: np.ndarray) -> np.ndarray:
        """True where a chain of clearance discs, one per square along the segment, covers it.

        The wall is at least ``clearance(g) - |x - g|`` away from a point x near a lattice
        point g of the track, so discs of that radius around samples along the segment lie
        inside the track; where neighbouring discs overlap, the segment between them does too.
        False means "ask shapely", never "off the track".
        """
        length = np.hypot(*(q - p).T)
        steps = np.maximum(np.ceil(length), 1).astype(np.int64)
        t = np.minimum(np.arange(int(steps.max()) + 1)[None, :] / steps[:, None], 1.0)
        x = p[:, :1] + t * (q[:, :1] - p[:, :1])
        y = p[:, 1:] + t * (q[:, 1:] - p[:, 1:])
        gx, gy = np.rint(x), np.rint(y)
        index = self.index_of(gx.ravel().astype(np.int64), gy.ravel().astype(np.int64))
        index = index.reshape(x.shape)
        radius = np.where(index >= 0, self.clearance[np.maximum(index, 0)]
                          - np.hypot(x - gx, y - gy), -np.inf)
        spacing = (length / steps)[:, None]
        padding = np.arange(radius.shape[1] - 1)[None, :] >= steps[:, None]
        return ((radius[:, :-1] + radius[:, 1:] > spacing + 1e-9) | padding).all(axis=1) \
            & (radius[:, 0] > 0)

    def _compute(self, point: np.ndarray, target: np.ndarray) -> np.ndarray:
        p = self.points[point].astype(float)
        q = self.points[target].astype(float)
        length = np.hypot(*(q - p).T)
        # Discs of clearance around both ends overlapping along the segment: it is inside.
        on = self.clearance[point] + self.clearance[target] > length + 1e-9
        unsure = np.flatnonzero(~on)
        # The disc chain costs a sample per square: long moves (launches) go to shapely.
        short = unsure[length[unsure] <= self.DISC_CHAIN_LENGTH]
        if len(short):
            on[short] = self._surely_inside(p[short], q[short])
            unsure = unsure[~on[unsure]]
        if len(unsure):
            on[unsure] = self.drive.covers_segments(p[unsure], q[unsure], self.boundary)
        flags = on.astype(np.uint8) * self.ON_TRACK
        if self.oil:
            hits = zone_hits(self.oil, p, q).touches.any(axis=0)
            flags |= hits.astype(np.uint8) * self.TOUCHES_OIL
        for zones, bit in ((self.jumps, self.TOUCHES_JUMP), (self.upgrades, self.TOUCHES_UP),
                           (self.downgrades, self.TOUCHES_DOWN)):
            if zones:
                hits = zone_hits(zones, p, q).touches.any(axis=0)
                flags |= hits.astype(np.uint8) * bit
        touch = np.zeros(len(p), dtype=bool)
        for a, b in zip(self._line_a, self._line_b, strict=True):
            touch |= segments_touch(p, q, a, b)
        flags |= touch.astype(np.uint8) * self.TOUCHES_LINE
        return flags


@dataclass
class Layer:
    point: np.ndarray
    vx: np.ndarray
    vy: np.ndarray
    progress: np.ndarray
    flag: np.ndarray | None = None  # pit stop made (1) and may launch (pit factor); 0 if None

    def __post_init__(self) -> None:
        if self.flag is None:
            self.flag = np.zeros(len(self.point), dtype=np.int64)

    def take(self, rows: np.ndarray) -> Layer:
        assert self.flag is not None
        return Layer(self.point[rows], self.vx[rows], self.vy[rows], self.progress[rows],
                     self.flag[rows])


class StateGraph:
    """Every state one car can reach from the given sources, with the edges between them."""

    #: Launch moves (Pope's rule) are built in chunks of about this many at a time.
    LAUNCH_CHUNK = 500_000

    def __init__(self, table: MoveTable, sources: Layer, keep_edges: bool = True,
                 stop_at_goal: bool = False):
        self.table = table
        course = table.course
        self.goal = course.goal
        self.point = [sources.point]
        self.vx, self.vy, self.progress = [sources.vx], [sources.vy], [sources.progress]
        self.flag = [sources.flag]
        self.parent = [np.full(len(sources.point), -1, dtype=np.int64)]
        self.depth = [np.zeros(len(sources.point), dtype=np.int32)]
        self.edge_src: list[np.ndarray] = []
        self.edge_dst: list[np.ndarray] = []
        self.first_goal: int | None = None  # state id of the first finishing state found
        # The id of every state met so far, in one dense array over the whole state space.
        self._ids = np.full(table.space, -1, dtype=np.int32)
        keys = self._state_keys(sources)
        if len(np.unique(keys)) != len(keys):
            raise ValueError("the sources repeat a state")
        self._ids[keys] = np.arange(len(keys), dtype=np.int32)
        self.count = len(keys)
        frontier_ids = np.arange(len(keys), dtype=np.int64)
        frontier = sources
        depth = 0
        while len(frontier_ids):
            depth += 1
            frontier, frontier_ids = self._expand(frontier, frontier_ids, depth, keep_edges)
            if stop_at_goal and self.first_goal is not None:
                break
        self.point_all = np.concatenate(self.point)
        self.vx_all = np.concatenate(self.vx)
        self.vy_all = np.concatenate(self.vy)
        self.progress_all = np.concatenate(self.progress)
        self.flag_all = np.concatenate(self.flag)
        self.parent_all = np.concatenate(self.parent)

    def _state_keys(self, layer: Layer) -> np.ndarray:
        table = self.table
        return (table.move_key(layer.point, layer.vx, layer.vy) * (self.goal + 1)
                + layer.progress) * table.flag_count + layer.flag

    def lookup(self, layer: Layer) -> np.ndarray:
        """State ids of the given states; -1 for states not in the graph (or impossible)."""
        ok = self.table.in_speed_range(layer.vx, layer.vy) & (layer.point >= 0) \
            & (layer.progress >= 0) & (layer.progress <= self.goal) \
            & (layer.flag >= 0) & (layer.flag < self.table.flag_count)
        keys = np.where(ok, self._state_keys(layer), 0)
        return np.where(ok, self._ids[keys], -1).astype(np.int64)

    def _candidates(self, layer: Layer) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every move each state of the layer may consider: (state row, vx, vy), like the
        game's ``velocity_choices``: the changes and power braking (launches come apart)."""
        rules = self.table.rules
        changes = np.array(CHANGES[rules.movement_choices])
        n, m = len(layer.point), len(changes)
        rows = [np.repeat(np.arange(n), m)]
        vxs = [np.repeat(layer.vx, m) + np.tile(changes[:, 0], n)]
        vys = [np.repeat(layer.vy, m) + np.tile(changes[:, 1], n)]
        if rules.movement_power_braking:
            g = np.gcd(np.abs(layer.vx), np.abs(layer.vy))
            ux, uy = layer.vx // np.maximum(g, 1), layer.vy // np.maximum(g, 1)
            unit = np.maximum(np.abs(ux), np.abs(uy))
            for drop in (1, 2):
                k = g - drop
                ok = np.flatnonzero((g > 0) & (k >= 1) & (drop * unit <= 2))
                rows.append(ok)
                vxs.append(k[ok] * ux[ok])
                vys.append(k[ok] * uy[ok])
        return np.concatenate(rows), np.concatenate(vxs), np.concatenate(vys)

    def _launches(self, layer: Layer) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """Pope's launches, in chunks: every state that may launch, to every track point."""
        table = self.table
        if not table.launch:
            return []
        assert layer.flag is not None
        launching = np.flatnonzero(layer.flag >= table.pit_factor)
        if not len(launching):
            return []
        n = len(table.points)
        per_chunk = max(1, self.LAUNCH_CHUNK // n)
        chunks = []
        for first in range(0, len(launching), per_chunk):
            rows = np.repeat(launching[first:first + per_chunk], n)
            targets = np.tile(np.arange(n), len(rows) // n)
            origin = table.points[layer.point[rows]]
            moved = table.points[targets] - origin
            chunks.append((rows, moved[:, 0].astype(np.int64), moved[:, 1].astype(np.int64)))
        return chunks

    def _expand(self, layer: Layer, ids: np.ndarray, depth: int, keep_edges: bool):
        racing = layer.progress < self.goal
        layer = layer.take(np.flatnonzero(racing))
        ids = ids[racing]
        pieces = [self._successors(layer, ids, *self._candidates(layer))]
        pieces += [self._successors(layer, ids, *chunk) for chunk in self._launches(layer)]
        src = np.concatenate([piece[0] for piece in pieces])
        successors = Layer(*(np.concatenate([getattr(piece[1], name) for piece in pieces])
                             for name in ("point", "vx", "vy", "progress", "flag")))
        keys = self._state_keys(successors)
        fresh = np.flatnonzero(self._ids[keys] < 0)
        new_keys, first = np.unique(keys[fresh], return_index=True)
        new_rows = fresh[first]
        new_ids = np.arange(self.count, self.count + len(new_keys), dtype=np.int64)
        self.count += len(new_keys)
        if self.count > MAX_STATES:
            raise SolverError(f"the search passed {MAX_STATES:,} states; the track is too large "
                              "to solve here")
        self._ids[new_keys] = new_ids
        if keep_edges:
            self.edge_src.append(src.astype(np.int32))
            self.edge_dst.append(self._ids[keys])
        new_layer = successors.take(new_rows)
        self.point.append(new_layer.point)
        self.vx.append(new_layer.vx)
        self.vy.append(new_layer.vy)
        self.progress.append(new_layer.progress)
        self.flag.append(new_layer.flag)
        self.parent.append(src[new_rows])
        self.depth.append(np.full(len(new_keys), depth, dtype=np.int32))
        finished = np.flatnonzero(new_layer.progress >= self.goal)
        if self.first_goal is None and len(finished):
            self.first_goal = int(new_ids[finished[0]])
        return new_layer, new_ids

    def _successors(self, layer: Layer, ids: np.ndarray, row: np.ndarray, vx: np.ndarray,
                    vy: np.ndarray) -> tuple[np.ndarray, Layer]:
        """The legal moves among candidate rows, as (source ids, successor states)."""
        table, rules = self.table, self.table.rules
        assert layer.flag is not None
        n = len(layer.point)
        src = ids[row]
        point = layer.point[row]
        old_vx, old_vy = layer.vx[row], layer.vy[row]
        unchanged = (vx == old_vx) & (vy == old_vy)
        moving = (old_vx != 0) | (old_vy != 0)
        ok = table.in_speed_range(vx, vy)
        target = np.full(len(src), -1, dtype=np.int64)
        flags = np.zeros(len(src), dtype=np.uint8)
        target[ok], flags[ok] = table.moves(point[ok], vx[ok], vy[ok])
        ok &= (target >= 0) & ((flags & MoveTable.ON_TRACK) > 0)
        old_speed = np.maximum(np.abs(old_vx), np.abs(old_vy))
        new_speed = np.maximum(np.abs(vx), np.abs(vy))
        # Zones that force the move to be repeated or the speed to change (never at rest).
        oil = (flags & MoveTable.TOUCHES_OIL) > 0
        jump = (flags & MoveTable.TOUCHES_JUMP) > 0
        if rules.zones_oil == "skid":
            # The skid depends on the unchanged move touching oil even where that move would
            # leave the track (then the car is forced off: no move of the search's own).
            unlanded = unchanged & moving & (target < 0) & (len(table.oil) > 0)
            if unlanded.any():
                starts = table.points[point[unlanded]].astype(float)
                ends = starts + np.column_stack([vx[unlanded], vy[unlanded]])
                oil[unlanded] = zone_hits(table.oil, starts, ends).touches.any(axis=0)
            skid = np.zeros(n, dtype=bool)
            skid[row[oil & unchanged & moving]] = True
            ok &= ~(skid[row] & ~unchanged)
        elif rules.zones_oil == "steady":
            ok &= ~(oil & moving & ~unchanged)
        ok &= ~(jump & moving & ~unchanged)
        ok &= ~(((flags & MoveTable.TOUCHES_UP) > 0) & moving & (new_speed >= old_speed))
        ok &= ~(((flags & MoveTable.TOUCHES_DOWN) > 0) & moving & (new_speed <= old_speed))
        if rules.movement_skid_speed is not None:
            turning = old_vx * vy - old_vy * vx != 0
            ok &= ~((old_speed >= rules.movement_skid_speed) & (new_speed < old_speed) & turning)
        if rules.movement_must_change:
            repeat_allowed = np.zeros(n, dtype=bool)
            repeat_allowed[row[(oil | jump) & unchanged & moving]] = True
            ok &= ~(unchanged & ~repeat_allowed[row])
        keep = np.flatnonzero(ok)
        src, point, vx, vy, target = src[keep], point[keep], vx[keep], vy[keep], target[keep]
        progress = layer.progress[row[keep]].copy()
        flag = layer.flag[row[keep]]
        crossing = ((flags[keep] & MoveTable.TOUCHES_LINE) > 0) | table.on_mark[target]
        if crossing.any():
            progress[crossing] = table.course.advance(
                progress[crossing], table.points[point[crossing]],
                table.points[target[crossing]])
        stopped = (vx == 0) & (vy == 0)
        pitted = (flag % table.pit_factor) > 0
        if table.pits:
            pitted |= stopped & table.in_pit[target]
            progress = np.where(~pitted & (progress >= self.goal), self.goal - 1, progress)
        launch = stopped & moving[keep] if table.launch else np.zeros(len(keep), dtype=bool)
        new_flag = pitted.astype(np.int64) + table.pit_factor * launch.astype(np.int64)
        return src, Layer(target, vx.astype(np.int64), vy.astype(np.int64),
                          progress.astype(np.int64), new_flag)

    def route(self, state_id: int) -> list[Vec]:
        """The points from a source state to ``state_id``, following parents."""
        points = []
        while state_id >= 0:
            x, y = self.table.points[self.point_all[state_id]]
            points.append(Vec(int(x), int(y)))
            state_id = int(self.parent_all[state_id])
        return points[::-1]


class ValueTable:
    """Moves to go from every reachable state (the computer drivers' table, and the par)."""

    def __init__(self, graph: StateGraph):
        self.graph = graph
        count = graph.count
        value = np.full(count, UNSOLVED, dtype=np.int32)
        value[graph.progress_all >= graph.goal] = 0
        if graph.edge_src:
            edges = ReverseEdges(np.concatenate(graph.edge_src), np.concatenate(graph.edge_dst))
            frontier = np.flatnonzero(value == 0)
            layer = 0
            while len(frontier):
                sources = edges.sources[edges.into(frontier)]
                sources = np.unique(sources[value[sources] == UNSOLVED])
                layer += 1
                value[sources] = layer
                frontier = sources
        self.value = value

    def moves_to_go(self, point: Vec, velocity: Vec, progress: int, pitted: bool = False,
                    launch: bool = False) -> int | None:
        """The fewest moves to the finish from this state; ``None`` if it cannot finish."""
        found = self.values([point], [velocity], [progress], [pitted], [launch])[0]
        return None if found == UNSOLVED else int(found)

    def values(self, points: Sequence[Vec], velocities: Sequence[Vec],
               progress: Iterable[int], pitted: Iterable[bool] | None = None,
               launch: Iterable[bool] | None = None) -> np.ndarray:
        """Moves to go for many states at once; ``UNSOLVED`` for unknown or hopeless ones."""
        table = self.graph.table
        pts = np.asarray(points, dtype=np.int64).reshape(-1, 2)
        vel = np.asarray(velocities, dtype=np.int64).reshape(-1, 2)
        index = table.index_of(pts[:, 0], pts[:, 1])
        layer = Layer(np.maximum(index, 0), vel[:, 0], vel[:, 1],
                      np.asarray(list(progress), dtype=np.int64),
                      table.flags(len(pts), pitted, launch))
        ids = self.graph.lookup(layer)
        ok = (index >= 0) & (ids >= 0)
        return np.where(ok, self.value[np.maximum(ids, 0)], UNSOLVED)


# --------------------------------------------------------------------------------------------


def standing_starts(table: MoveTable, starts: Sequence[Vec]) -> Layer:
    index = table.index_of(np.array([s[0] for s in starts], dtype=np.int64),
                           np.array([s[1] for s in starts], dtype=np.int64))
    if (index < 0).any():
        bad = [tuple(s) for s, i in zip(starts, index, strict=True) if i < 0]
        raise SolverError(f"not a point of the track: {bad[0]}")
    zeros = np.zeros(len(starts), dtype=np.int64)
    progress = np.full(len(starts), table.course.start_progress, dtype=np.int64)
    return Layer(index, zeros, zeros.copy(), progress)


def solve(course: Course, rules: RuleSet, start: Vec | None = None,
          can_swim: bool = False) -> Solution | None:
    """The fewest moves from a standing start (the best start point, or ``start``)."""
    table = MoveTable(course, rules, can_swim)
    starts = [start] if start is not None else list(course.start_positions)
    if not starts:
        raise SolverError("the track has no start position")
    graph = StateGraph(table, standing_starts(table, starts), keep_edges=False,
                       stop_at_goal=True)
    if graph.first_goal is None:
        return None
    path = graph.route(graph.first_goal)
    return Solution(len(path) - 1, path[0], tuple(path))


def solve_each_start(course: Course, rules: RuleSet, can_swim: bool = False,
                     ) -> dict[Vec, int | None]:
    """The optimum from every start point: a fairness report for the grid."""
    table = MoveTable(course, rules, can_swim)
    starts = list(course.start_positions)
    graph = StateGraph(table, standing_starts(table, starts))
    values = ValueTable(graph)
    found = values.values(starts, [Vec(0, 0)] * len(starts),
                          [course.start_progress] * len(starts))
    return {s: (None if v == UNSOLVED else int(v)) for s, v in zip(starts, found, strict=True)}

