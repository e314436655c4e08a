"""Distance to go: how far a point still is from the finish, along the track, in squares.

Some rules need to know whether one point is "before" another along the course: Nystrom's
"come back onto the track at a point before the one where you left", and ranking the cars that
have not finished when a race stops; the drivers steer by it where their tables do not reach.
Straight-line distance is wrong on a winding track, so this module walks the track: a
shortest-path search, backwards from the finish, over states (lattice point, progress, the
checkpoint areas passed) joined by steps to the 8 neighbouring points whose segment stays on
the track (diagonal steps counting about 1.4), with progress advanced by the line crossings
and the areas passed over as in a race (``racetrack.board.areas``): from a point where a checkpoint
area is still to pass, the way to go runs over it. The steps are found with numpy; the search
over them is the compiled kernel's Dial search where it is built (``shortest``), numpy's, one
batch per distance value, where not.
"""

from __future__ import annotations

import numpy as np
import shapely

from racetrack.board import kernel
from racetrack.board.areas import marks_for
from racetrack.board.course import Course
from racetrack.board.geometry import Vec
from racetrack.board.graphs import ReverseEdges

STEPS = np.array([(dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if (dx, dy) != (0, 0)])
#: Past this many search edges, fall back to a straight-line estimate rather than use the memory.
MAX_EDGES = 4_000_000
UNREACHABLE = 10**9
#: The estimate's weight of a line still to pass, in squares: more than any track is long.
FAR_PER_LINE = 10**6


def distance_field(course: Course, boundary_counts: bool = True, areas: str = "any-order",
                   without_water: bool = False) -> DistanceField:
    """The course's distance to go from every point, built once per course and kept with it
    (``Course.remember``); ``areas``: the rules' ``areas.checkpoints``; ``without_water``:
    the way round the water zones."""
    without_water = without_water and bool(course.zones("water"))
    key = ("distance", boundary_counts, areas, without_water)
    found = course.derived(key)
    if found is None:
        found = course.remember(key, DistanceField(course, boundary_counts, areas, without_water))
    return found  # type: ignore[return-value]


class DistanceField:
    """Squares to the finish, along the track, from every (lattice point, progress, set of
    checkpoint areas passed). ``areas``: the rules' ``areas.checkpoints`` (``ignored``: only
    the finish area counts); ``without_water``: the way round the water zones, for a car that
    cannot cross them (the shortest way may lie over a lake it would stop at for ever)."""

    def __init__(self, course: Course, boundary_counts: bool = True, areas: str = "any-order",
                 without_water: bool = False):
        self.course = course
        self.region = course.region(without_water=without_water)
        self.marks = marks_for(course, areas)
        self.sets = 1 << self.marks.count  # sets of checkpoint areas a car may have passed
        self.points = self.region.lattice_points(boundary_counts)
        self._minx, self._miny = (self.points.min(axis=0) if len(self.points) else (0, 0))
        width = int(self.points[:, 0].max() - self._minx + 1) if len(self.points) else 0
        height = int(self.points[:, 1].max() - self._miny + 1) if len(self.points) else 0
        self._grid = np.full((height, width), -1, dtype=np.int64)
        if len(self.points):
            self._grid[self.points[:, 1] - self._miny, self.points[:, 0] - self._minx] = \
                np.arange(len(self.points))
        n = len(self.points)
        self._boundary_counts = boundary_counts
        self._pit: np.ndarray | None = None
        self._pit_points: np.ndarray | None = None
        if n * len(STEPS) * course.goal * self.sets <= MAX_EDGES:
            self.steps = self._search(boundary_counts)
        else:
            self.steps = None

    def index(self, point: Vec) -> int:
        """The index of a lattice point of the track, or -1."""
        col, row = point[0] - self._minx, point[1] - self._miny
        if 0 <= row < self._grid.shape[0] and 0 <= col < self._grid.shape[1]:
            return int(self._grid[row, col])
        return -1

    def __call__(self, point: Vec, progress: int, areas: int = 0) -> float:
        """Squares still to go from ``point`` with ``progress`` and the checkpoint areas
        ``areas`` passed (a bitmask); large when it cannot finish."""
        return float(self.values(np.array([point[0]]), np.array([point[1]]),
                                 np.array([progress]), np.array([areas]))[0])

    def values(self, x: np.ndarray, y: np.ndarray, progress: np.ndarray,
               areas: np.ndarray | None = None) -> np.ndarray:
        """``self(point, progress, areas)`` for arrays of them at once (``areas`` none: no
        checkpoint area passed)."""
        goal = self.course.goal
        x, y = np.asarray(x, dtype=np.int64), np.asarray(y, dtype=np.int64)
        progress = np.clip(np.asarray(progress, dtype=np.int64), 0, goal)
        areas = np.zeros(len(x), np.int64) if areas is None \
            else np.asarray(areas, dtype=np.int64) & (self.sets - 1)
        result = np.zeros(len(x))
        index = self._indices(np.column_stack([x, y])) if len(x) else np.zeros(0, np.int64)
        racing = progress < goal
        known = racing & (index >= 0) & (self.steps is not None)
        if self.steps is not None:
            result[known] = self.steps[progress[known] * self.sets + areas[known], index[known]]
        # Off the lattice of the track, or a track too large to search: marks to go, then the
        # straight-line distance to the next one.
        for k in np.flatnonzero(racing & ~known):
            result[k] = self._estimate(int(x[k]), int(y[k]), int(progress[k]), int(areas[k]))
        return result

    def _estimate(self, x: int, y: int, progress: int, areas: int) -> float:
        """Marks still to pass (each ``FAR_PER_LINE``), then the straight-line distance to the
        next: a checkpoint area not yet passed, where the next mark is the finish area."""
        course = self.course
        line = course.next_line(progress)
        assert line is not None
        left = course.goal - progress
        if line == course.finish_area_mark:
            marks = self.marks
            todo = [shape for k, shape in enumerate(marks.checkpoints) if not areas >> k & 1]
            left += len(todo)
            shapes = todo or ([marks.finish] if marks.finish is not None else [])
            point = shapely.Point(x, y)
            gap = min((float(shapely.distance(shape, point)) for shape in shapes), default=0.0)
        elif line.a == line.b:  # a waypoint
            gap = float(np.hypot(x - line.a[0], y - line.a[1]))
        else:
            gap = abs(float(line.distance_past(np.array([[x, y]]))[0]))
        return float(left) * FAR_PER_LINE + gap

    def units(self, x: np.ndarray, y: np.ndarray, progress: np.ndarray,
              areas: np.ndarray | None = None) -> np.ndarray:
        """``values`` in the search's own whole units (fifths of a square), as integers that
        compare exactly."""
        return np.rint(self.values(x, y, progress, areas) * 5).astype(np.int64)

    def _search(self, boundary_counts: bool) -> np.ndarray:
        """Dial's shortest-path search backwards from the finish, one bucket at a time, over
        states numbered (progress × sets + areas passed) × points + point.

        Straight steps cost 5 and diagonal steps 7 (about 5 times the square root of 2), so the
        distance follows the track like a string pulled along it, not in blocky rings.
        """
        course, points, sets = self.course, self.points, self.sets
        n, goal = len(points), course.goal
        src, dst, cost = self._steps(boundary_counts)
        bits = np.zeros(len(src), dtype=np.int64)
        finish = np.zeros(len(src), dtype=bool)
        if self.marks:
            bits, finish = self.marks.passed(points[src, 0], points[src, 1], points[dst, 0],
                                             points[dst, 1])
        state_src, state_dst = [], []
        for k in range(goal):
            lines = course.advance(k, points[src], points[dst])
            for areas in range(sets):
                new_k, new_areas = lines, np.full(len(src), areas)
                if self.marks:
                    new_k, new_areas = self.marks.advance(course, np.full(len(src), k), lines,
                                                          new_areas, bits, finish)
                state_src.append((k * sets + areas) * n + src)
                state_dst.append((new_k.astype(np.int64) * sets + new_areas) * n + dst)
        done = np.arange(goal * sets * n, (goal + 1) * sets * n)
        return shortest(np.concatenate(state_src), np.concatenate(state_dst),
                        np.tile(cost, goal * sets), (goal + 1) * sets * n,
                        done).reshape((goal + 1) * sets, n)

    def _steps(self, boundary_counts: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every step to a neighbouring point whose segment stays on the track, with its cost."""
        points = self.points
        src_list, dst_list, cost_list = [], [], []
        for step in STEPS:
            index = self._indices(points + step)
            ok = index >= 0
            src, dst = np.flatnonzero(ok), index[ok]
            on = self.region.covers_segments(points[src], points[dst], boundary_counts)
            src_list.append(src[on])
            dst_list.append(dst[on])
            cost_list.append(np.full(int(on.sum()), 7 if step[0] and step[1] else 5))
        return np.concatenate(src_list), np.concatenate(dst_list), np.concatenate(cost_list)

    @staticmethod
    def _dial(edges: ReverseEdges, total: int, targets: np.ndarray) -> np.ndarray:
        """Squares from every node to the nearest target, by buckets of equal distance (numpy,
        a batch a bucket; ``shortest`` has the compiled kernel's search do it where built)."""
        dist = np.full(total, np.iinfo(np.int64).max, dtype=np.int64)
        dist[targets] = 0
        buckets: dict[int, list[np.ndarray]] = {0: [targets]}
        while buckets:
            d = min(buckets)
            nodes = np.unique(np.concatenate(buckets.pop(d)))
            nodes = nodes[dist[nodes] == d]
            incoming = edges.into(nodes)
            if not len(incoming):
                continue
            sources, new = edges.sources[incoming], d + edges.weights[incoming]
            better = new < dist[sources]
            sources, new = sources[better], new[better]
            np.minimum.at(dist, sources, new)
            for value in np.unique(new):
                buckets.setdefault(int(value), []).append(sources[new == value])
        result = dist.astype(float) / 5.0
        result[dist == np.iinfo(np.int64).max] = UNREACHABLE
        return result

    def to_pit(self, point: Vec) -> float:
        """Squares from ``point`` to the nearest pit, along the track (0 in a pit; the
        straight-line distance off the lattice or on a track too large to search)."""
        if self._pit is None:
            self._pit = self._pit_search()
        i = self.index(point)
        if i >= 0 and len(self._pit):
            return float(self._pit[i])
        if self._pit_points is None:
            self._pit_points = self.points[self.course.in_zones("pit",
                                                                self.points.astype(float))]
        pits = self._pit_points
        if not len(pits):
            return 0.0
        return float(np.hypot(*(pits - np.asarray(point)).T).min())

    def _pit_search(self) -> np.ndarray:
        if self.steps is None or not self.course.zones("pit"):
            return np.zeros(0)
        in_pit = np.flatnonzero(self.course.in_zones("pit", self.points.astype(float)))
        if not len(in_pit):
            return np.zeros(0)
        src, dst, cost = self._steps(self._boundary_counts)
        return shortest(src, dst, cost, len(self.points), in_pit)

    def _indices(self, points: np.ndarray) -> np.ndarray:
        cols, rows = points[:, 0] - self._minx, points[:, 1] - self._miny
        inside = (rows >= 0) & (rows < self._grid.shape[0]) & (cols >= 0) \
            & (cols < self._grid.shape[1])
        out = np.full(len(points), -1, dtype=np.int64)
        out[inside] = self._grid[rows[inside], cols[inside]]
        return out


def shortest(src: np.ndarray, dst: np.ndarray, cost: np.ndarray, total: int,
             targets: np.ndarray) -> np.ndarray:
    """Squares from each of ``total`` nodes to the nearest of ``targets`` over the steps
    ``src`` to ``dst`` (``cost`` in fifths of a square, each under 16); ``UNREACHABLE`` where
    none is reached. The compiled kernel's Dial search (``turns_to_go``) where it is built,
    the same whole numbers as numpy's bucket by bucket, in a small share of the time."""
    if not kernel.enabled() or total >= 2**31 - 1:
        return DistanceField._dial(ReverseEdges(src, dst, cost), total, targets)
    value = kernel.turns_to_go([(src, dst, cost)], total, targets)[0]
    result = value.astype(float) / 5.0
    result[value == np.iinfo(np.int32).max] = UNREACHABLE
    return result
