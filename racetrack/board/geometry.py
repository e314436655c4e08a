"""Lattice geometry: points and vectors, directed lines, and prepared regions tested in batches.

Cars live on the integer lattice; a move is the straight segment between two lattice points.
Every question the rules ask about moves ("is this segment on the track?", "which zones does it
touch, and where does it enter them?", "which way does it cross this line?") is answered here for
a whole array of segments at once, so a turn's candidates, or a solver's layer of states, cost one
call into shapely or numpy instead of one per segment.

Array conventions: ``starts`` and ``ends`` are ``(n, 2)`` arrays of lattice coordinates (x grows
right, y grows down, as on the screen and in track files).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import NamedTuple

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

Coord = tuple[float, float]


class Vec(NamedTuple):
    """An integer lattice vector: a position on the paper, or a velocity.

    A ``NamedTuple`` so it is immutable, hashable, unpacks as ``x, y`` and serialises as a pair.
    """

    x: int
    y: int

    def __add__(self, other: object) -> Vec:  # type: ignore[override]
        ox, oy = other  # type: ignore[misc]
        return Vec(self.x + ox, self.y + oy)

    def __sub__(self, other: tuple[int, int]) -> Vec:
        ox, oy = other
        return Vec(self.x - ox, self.y - oy)

    def __neg__(self) -> Vec:
        return Vec(-self.x, -self.y)

    def __repr__(self) -> str:
        return f"Vec({self.x}, {self.y})"

    @property
    def speed(self) -> int:
        """Squares per turn along the main direction: the larger component, ignoring sign."""
        return max(abs(self.x), abs(self.y))

    @property
    def is_zero(self) -> bool:
        return self.x == 0 and self.y == 0


Point = Vec
ZERO = Vec(0, 0)


def as_array(points: Iterable[Sequence[float]]) -> np.ndarray:
    """An ``(n, 2)`` float array from any iterable of pairs (an empty one has shape ``(0, 2)``)."""
    array = np.asarray(list(points) if not isinstance(points, np.ndarray) else points, dtype=float)
    return array.reshape(-1, 2)


def segment_geometries(starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """One shapely ``LineString`` per row; a zero-length move is a degenerate two-point line."""
    coords = np.stack([np.asarray(starts, float), np.asarray(ends, float)], axis=1)
    if len(coords) == 0:
        return np.empty(0, dtype=object)
    return shapely.linestrings(coords)


def _cross(ax, ay, bx, by):
    return ax * by - ay * bx


#: Orientation values this small (relative to the lengths involved) count as "on the line":
#: decimal coordinates such as 4.1 are not exact in binary, and a lattice point that lies on a
#: line must not come out a hair behind it.
ORIENTATION_TOLERANCE = 1e-9


def _orientation(cross: np.ndarray, scale: np.ndarray) -> np.ndarray:
    return np.where(np.abs(cross) <= ORIENTATION_TOLERANCE * (scale + 1.0), 0.0, np.sign(cross))


def segments_touch(p: np.ndarray, q: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Whether closed segments p→q and a→b share a point; every argument broadcasts as (n, 2).

    Exact for lattice and half-lattice coordinates: only products and differences of small
    floats are compared with zero.
    """
    p, q, a, b = np.broadcast_arrays(p, q, a, b)
    px, py, qx, qy = p[..., 0], p[..., 1], q[..., 0], q[..., 1]
    ax, ay, bx, by = a[..., 0], a[..., 1], b[..., 0], b[..., 1]
    rx, ry = qx - px, qy - py
    scale = (np.abs(rx) + np.abs(ry) + np.abs(bx - ax) + np.abs(by - ay)) ** 2
    o1 = _orientation(_cross(rx, ry, ax - px, ay - py), scale)
    o2 = _orientation(_cross(rx, ry, bx - px, by - py), scale)
    o3 = _orientation(_cross(bx - ax, by - ay, px - ax, py - ay), scale)
    o4 = _orientation(_cross(bx - ax, by - ay, qx - ax, qy - ay), scale)
    proper = (o1 * o2 <= 0) & (o3 * o4 <= 0)
    collinear = (o1 == 0) & (o2 == 0) & (o3 == 0) & (o4 == 0)
    # When all four are collinear the sign test says yes even for disjoint pieces of one line,
    # so compare the extents instead.
    overlap = ((np.minimum(px, qx) <= np.maximum(ax, bx))
               & (np.maximum(px, qx) >= np.minimum(ax, bx))
               & (np.minimum(py, qy) <= np.maximum(ay, by))
               & (np.maximum(py, qy) >= np.minimum(ay, by)))
    return np.where(collinear, overlap, proper)


def line_sides(a: np.ndarray, b: np.ndarray, forward: np.ndarray, points: np.ndarray) -> np.ndarray:
    """+1 past, 0 on, -1 behind the directed line(s) a→b; every argument broadcasts as (n, 2)."""
    a, b, forward, points = np.broadcast_arrays(a, b, forward, points)
    dx, dy = b[..., 0] - a[..., 0], b[..., 1] - a[..., 1]
    orientation = np.sign(_cross(dx, dy, forward[..., 0], forward[..., 1]))
    px, py = points[..., 0] - a[..., 0], points[..., 1] - a[..., 1]
    scale = (np.abs(dx) + np.abs(dy)) * (np.abs(px) + np.abs(py))
    return _orientation(_cross(dx, dy, px, py), scale) * orientation


def line_crossings(a: np.ndarray, b: np.ndarray, forward: np.ndarray,
                   p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """+1 / -1 / 0 per move p→q: forwards, backwards or not across the directed line(s) a→b.

    Lines and moves broadcast together, so one call can test many moves against one line, or
    each move against a line of its own (as progress through a course needs).
    """
    sp, sq = line_sides(a, b, forward, p), line_sides(a, b, forward, q)
    touching = segments_touch(p, q, a, b)
    forwards = (sp < 0) & (sq >= 0) & touching
    backwards = (sp >= 0) & (sq < 0) & touching
    return forwards.astype(np.int8) - backwards.astype(np.int8)


def _orientation_one(cross: float, scale: float) -> int:
    if abs(cross) <= ORIENTATION_TOLERANCE * (scale + 1.0):
        return 0
    return 1 if cross > 0 else -1


def line_crossing(a: tuple[float, float], b: tuple[float, float], forward: tuple[float, float],
                  p: tuple[float, float], q: tuple[float, float]) -> int:
    """``line_crossings`` for one line and one move, in plain Python: +1 / -1 / 0.

    The same tests with the same tolerance (a single move is asked this once per line, and
    numpy's cost per call is far above the arithmetic)."""
    (ax, ay), (bx, by), (px, py), (qx, qy) = a, b, p, q
    dx, dy = bx - ax, by - ay
    turn = dx * forward[1] - dy * forward[0]
    if turn == 0:
        return 0
    way = 1 if turn > 0 else -1
    length = abs(dx) + abs(dy)
    sp = _orientation_one(dx * (py - ay) - dy * (px - ax),
                          length * (abs(px - ax) + abs(py - ay))) * way
    sq = _orientation_one(dx * (qy - ay) - dy * (qx - ax),
                          length * (abs(qx - ax) + abs(qy - ay))) * way
    if sp < 0 <= sq:
        found = 1
    elif sq < 0 <= sp:
        found = -1
    else:
        return 0
    rx, ry = qx - px, qy - py
    scale = (abs(rx) + abs(ry) + length) ** 2
    o1 = _orientation_one(rx * (ay - py) - ry * (ax - px), scale)
    o2 = _orientation_one(rx * (by - py) - ry * (bx - px), scale)
    o3 = _orientation_one(dx * (py - ay) - dy * (px - ax), scale)
    o4 = _orientation_one(dx * (qy - ay) - dy * (qx - ax), scale)
    if o1 == o2 == o3 == o4 == 0:
        touching = (min(px, qx) <= max(ax, bx) and max(px, qx) >= min(ax, bx)
                    and min(py, qy) <= max(ay, by) and max(py, qy) >= min(ay, by))
    else:
        touching = o1 * o2 <= 0 and o3 * o4 <= 0
    return found if touching else 0


@dataclass(frozen=True)
class Line:
    """A directed line segment across the track: start, finish or a checkpoint.

    ``forward`` points the way cars cross it. A point is *behind* the line when it lies strictly
    on the side opposite to ``forward``; every other point, including points on the line, has
    *reached* it.
    """

    a: Coord
    b: Coord
    forward: Coord

    @cached_property
    def _sign(self) -> float:
        (ax, ay), (bx, by), (fx, fy) = self.a, self.b, self.forward
        return float(np.sign(_cross(bx - ax, by - ay, fx, fy)))

    @property
    def is_degenerate(self) -> bool:
        """True when the line has no length or ``forward`` runs along it."""
        return self.a == self.b or self._sign == 0

    def side(self, points: np.ndarray) -> np.ndarray:
        """Per point: +1 past the line (the ``forward`` side), 0 on it, -1 behind it."""
        return line_sides(np.asarray(self.a, float), np.asarray(self.b, float),
                          np.asarray(self.forward, float), as_array(points))

    def behind(self, points: np.ndarray) -> np.ndarray:
        return self.side(points) < 0

    def reached(self, points: np.ndarray) -> np.ndarray:
        return self.side(points) >= 0

    def touches(self, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
        """Whether each closed segment shares at least one point with this line's closed segment."""
        p, q = as_array(starts), as_array(ends)
        return segments_touch(p, q, np.asarray(self.a, float), np.asarray(self.b, float))

    def crossings(self, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
        """Per move: +1 crossing forwards, -1 backwards, 0 not crossing.

        Forwards means from behind to reached while touching the line's segment; backwards the
        other way round. A move that starts on the line has already reached it, so it never
        crosses forwards; one that ends on it has reached it.
        """
        p, q = as_array(starts), as_array(ends)
        return line_crossings(np.asarray(self.a, float), np.asarray(self.b, float),
                              np.asarray(self.forward, float), p, q)

    def crossing_fraction(self, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
        """Per move, the fraction ``t`` in [0, 1] where ``p + t (q - p)`` meets the line.

        ``nan`` where the move runs parallel to the line. Used for "who crossed first" tie-breaks.
        """
        p, q = as_array(starts), as_array(ends)
        (ax, ay), (bx, by) = self.a, self.b
        dx, dy = bx - ax, by - ay
        denom = _cross(q[:, 0] - p[:, 0], q[:, 1] - p[:, 1], dx, dy)
        numer = _cross(ax - p[:, 0], ay - p[:, 1], dx, dy)
        with np.errstate(divide="ignore", invalid="ignore"):
            t = numer / denom
        return np.where(denom == 0, np.nan, np.clip(t, 0.0, 1.0))

    def distance_past(self, points: np.ndarray) -> np.ndarray:
        """Signed perpendicular distance of each point from the line, positive past it."""
        p = as_array(points)
        (ax, ay), (bx, by) = self.a, self.b
        length = math.hypot(bx - ax, by - ay)
        return _cross(bx - ax, by - ay, p[:, 0] - ax, p[:, 1] - ay) * self._sign / length

    def lattice_points(self) -> list[Vec]:
        """The lattice points on the closed segment from ``a`` to ``b``, in order from ``a``.

        Walks whole x (or, for a steep line, whole y) values along the segment, so its cost is
        its length in squares, whatever its slope.
        """
        (ax, ay), (bx, by) = self.a, self.b
        steep = abs(by - ay) > abs(bx - ax)
        if steep:  # walk along y instead, then swap back
            ax, ay, bx, by = ay, ax, by, bx
        if ax == bx:
            return []
        lo, hi = sorted((ax, bx))
        xs = np.arange(math.ceil(lo - 1e-9), math.floor(hi + 1e-9) + 1, dtype=float)
        ys = ay + (xs - ax) * (by - ay) / (bx - ax)
        whole = np.abs(ys - np.round(ys)) < 1e-9
        xs, ys = xs[whole], np.round(ys[whole])
        if steep:
            xs, ys = ys, xs
        points = [Vec(int(x), int(y)) for x, y in zip(xs, ys, strict=True)]
        start = self.a
        return sorted(points, key=lambda p: (p.x - start[0]) ** 2 + (p.y - start[1]) ** 2)

    def geometry(self) -> shapely.LineString:
        return shapely.LineString([self.a, self.b])


class Region:
    """A prepared area of the plane (the track, or the track less water, ...) with batched tests.

    ``boundary_counts`` picks the wall rule: ``True`` is "touching is allowed" (a segment may run
    along or touch the wall: the closed region must *cover* it); ``False`` is "walls are off the
    track" (the segment must lie in the open interior: the region must *properly contain* it).
    """

    def __init__(self, geometry: BaseGeometry):
        self.geometry = geometry
        shapely.prepare(geometry)
        self._lattice: dict[bool, np.ndarray] = {}

    def covers_segments(self, starts: np.ndarray, ends: np.ndarray,
                        boundary_counts: bool = True) -> np.ndarray:
        """For every move at once: does the whole segment lie on this region?"""
        lines = segment_geometries(as_array(starts), as_array(ends))
        if len(lines) == 0:
            return np.zeros(0, dtype=bool)
        test = shapely.covers if boundary_counts else shapely.contains_properly
        return np.asarray(test(self.geometry, lines), dtype=bool)

    def covers_points(self, points: np.ndarray, boundary_counts: bool = True) -> np.ndarray:
        pts = as_array(points)
        if len(pts) == 0:
            return np.zeros(0, dtype=bool)
        test = shapely.covers if boundary_counts else shapely.contains_properly
        return np.asarray(test(self.geometry, shapely.points(pts)), dtype=bool)

    def lattice_points(self, boundary_counts: bool = True) -> np.ndarray:
        """Every lattice point of the region, as an ``(n, 2)`` int array sorted by (y, x)."""
        if boundary_counts not in self._lattice:
            minx, miny, maxx, maxy = self.geometry.bounds
            xs = np.arange(math.ceil(minx), math.floor(maxx) + 1)
            ys = np.arange(math.ceil(miny), math.floor(maxy) + 1)
            gx, gy = np.meshgrid(xs, ys)
            grid = np.column_stack([gx.ravel(), gy.ravel()])
            inside = self.covers_points(grid, boundary_counts) if len(grid) else np.zeros(0, bool)
            self._lattice[boundary_counts] = grid[inside].astype(np.int64)
        return self._lattice[boundary_counts]

    def exit_fraction(self, start: Sequence[float], end: Sequence[float],
                      boundary_counts: bool = True) -> float | None:
        """The fraction of the move p→q at which it first leaves the region; ``None`` if never.

        With ``boundary_counts=False`` touching the boundary already counts as leaving.
        """
        p, q = np.asarray(start, float), np.asarray(end, float)
        segment = shapely.LineString([p, q]) if not np.array_equal(p, q) else shapely.Point(p)
        outside = shapely.difference(segment, self.geometry)
        parts = [outside]
        if not boundary_counts:
            parts.append(shapely.intersection(segment, self.geometry.boundary))
        coords = np.concatenate([shapely.get_coordinates(g) for g in parts if not g.is_empty]
                                or [np.empty((0, 2))])
        if len(coords) == 0:
            return None
        return float(np.min(_fractions_along(p, q, coords)))

    def nearest_lattice_point(self, point: Sequence[float], boundary_counts: bool = True,
                              prefer: Sequence[float] | None = None,
                              exclude: Iterable[tuple[int, int]] = ()) -> Vec | None:
        """The region's lattice point nearest to ``point``, skipping those in ``exclude``.

        Ties go to the one nearest ``prefer`` (say, where the car came from), then to the
        smallest (y, x), so the answer never depends on anything but the arguments.
        """
        lattice = self.lattice_points(boundary_counts)
        if len(lattice) == 0:
            return None
        d2 = np.round(np.sum((lattice - np.asarray(point, float)) ** 2, axis=1), 9)
        p2 = (np.round(np.sum((lattice - np.asarray(prefer, float)) ** 2, axis=1), 9)
              if prefer is not None else np.zeros(len(lattice)))
        excluded = {tuple(map(int, e)) for e in exclude}
        # lexsort is stable and the lattice is sorted by (y, x): the last tie-break is free.
        for i in np.lexsort((p2, d2)):
            spot = Vec(int(lattice[i][0]), int(lattice[i][1]))
            if tuple(spot) not in excluded:
                return spot
        return None


def _fractions_along(p: np.ndarray, q: np.ndarray, coords: np.ndarray) -> np.ndarray:
    r = q - p
    length2 = float(r @ r)
    if length2 == 0:
        return np.zeros(len(coords))
    return np.clip((coords - p) @ r / length2, 0.0, 1.0)


def prepared(geometry: BaseGeometry) -> BaseGeometry:
    """``geometry``, prepared for fast repeated predicates (shapely prepares in place)."""
    shapely.prepare(geometry)
    return geometry
