"""A region and the zones on the sheet's lattice: the move questions of the rules, in batches.

The sheet is the paper around the track (``Course.sheet``), a grid of lattice points. A
``LatticeRegion`` knows which of them lie on one region (the track a car drives or stands on,
the wall counting or not, as the rules say) and answers for whole arrays of moves whether they
stay on it, where they first leave it, and which of its points is nearest to a place. A
``ZoneLattice`` answers which zones of each kind a move touches.

Every answer is exact. Where the compiled kernel is built (``racetrack.board.kernel``), it walks
each move cell by cell over the region's classified cells; otherwise a clearance test settles the
moves well inside and ``EdgeSet``'s signs those near a wall. The few either leaves unsure go to
shapely.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cached_property

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from racetrack.board import kernel
from racetrack.board.edges import EdgeSet
from racetrack.board.geometry import Region

#: The window searched around an exit point for the nearest lattice point (a wider search
#: follows where it holds none close enough).
NEAREST_WINDOW = 2
#: Batches of moves smaller than this go to shapely at once: one prepared call is cheaper than
#: the edge buckets' dozen numpy passes (a race asks about one car's moves at a time).
SMALL_BATCH = 48


def bucket_cell(geometry: BaseGeometry) -> int:
    """A bucket cell side for a geometry's edges: about two edges to a cell along a wall."""
    coords = shapely.get_coordinates(geometry.boundary) if not geometry.is_empty else []
    if len(coords) < 2:
        return 4
    length = float(shapely.length(geometry.boundary))
    return int(min(max(round(2 * length / len(coords)), 2), 8))


class SheetGrid:
    """The sheet's lattice points as one flat array: ``cell = (y - y0) * width + (x - x0)``.

    Arrays indexed by cell keep one more slot at the end for the points off the sheet (cell
    -1), so a lookup needs no mask (a race asks about one car's few moves at a time, where
    every numpy call counts)."""

    def __init__(self, sheet: tuple[int, int, int, int]):
        self.x0, self.y0, x1, y1 = sheet
        self.width, self.height = x1 - self.x0 + 1, y1 - self.y0 + 1

    def cells(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """The cell of each point; -1 off the sheet."""
        col, row = x - self.x0, y - self.y0
        # One unsigned comparison per axis tests both ends (a negative wraps to a huge value).
        inside = (col.astype(np.uint64) < self.width) & (row.astype(np.uint64) < self.height)
        return np.where(inside, row * self.width + col, -1)

    def all_points(self) -> np.ndarray:
        xs = np.arange(self.x0, self.x0 + self.width)
        ys = np.arange(self.y0, self.y0 + self.height)
        gx, gy = np.meshgrid(xs, ys)
        return np.column_stack([gx.ravel(), gy.ravel()])


class LatticeRegion:
    """One region's lattice points on the sheet, and exact batched tests of moves on it.

    ``closed`` is the wall rule: the closed region counts (shapely's ``covers``), or only its
    open interior does (``contains_properly``).
    """

    def __init__(self, region: Region, grid: SheetGrid, closed: bool):
        self.region = region
        self.grid = grid
        self.closed = closed
        points = region.lattice_points(closed)
        self.points = points.astype(np.int64)
        self.index = np.full(grid.width * grid.height + 1, -1, dtype=np.int32)
        cells = grid.cells(self.points[:, 0], self.points[:, 1])
        self.points = self.points[cells >= 0]
        self.index[cells[cells >= 0]] = np.arange(len(self.points), dtype=np.int32)
        self.edges = EdgeSet(region.geometry, bucket_cell(region.geometry))

    @cached_property
    def clearance(self) -> np.ndarray:
        """Per lattice point, how far it lies from the wall (a hair less): a move no longer
        than its two ends' clearances together stays on the region (the numpy path's first
        test; the kernel keeps its own, in whole cells)."""
        if not len(self.points):
            return np.zeros(0)
        distance = shapely.distance(shapely.points(self.points.astype(float)),
                                    self.region.geometry.boundary)
        return np.asarray(distance, dtype=float) - 1e-9

    @cached_property
    def compiled(self) -> kernel.RegionCells | None:
        """The region's cells as the compiled kernel walks them (``None`` where it is not
        built, or a corner's coordinate is not finite)."""
        return kernel.RegionCells.of(self)

    def point_index(self, x: np.ndarray, y: np.ndarray,
                    cells: np.ndarray | None = None) -> np.ndarray:
        """The lattice point index of each point on the region; -1 elsewhere (``cells``: the
        points' sheet cells, where the caller has them already)."""
        return self.index[self.grid.cells(x, y) if cells is None else cells]

    def contains(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        return self.point_index(x, y) >= 0

    def segments_inside(self, px: np.ndarray, py: np.ndarray, qx: np.ndarray,
                        qy: np.ndarray,
                        cells: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
        """Whether each move (lattice points) lies on the region all along, ends included
        (``cells``: the sheet cells of both ends, where the caller has them already)."""
        if cells is None:
            cells = (self.grid.cells(px, py), self.grid.cells(qx, qy))
        i, j = self.index[cells[0]], self.index[cells[1]]
        result = (i >= 0) & (j >= 0)
        rows = np.flatnonzero(result)
        if not len(rows):
            return result
        compiled = self.compiled
        if compiled is not None:
            verdict = compiled.segments_inside(px[rows], py[rows], qx[rows], qy[rows])
            result[rows] = verdict > 0
            ask = rows[verdict < 0]
            if len(ask):
                result[ask] = self.region.covers_segments(
                    np.column_stack([px[ask], py[ask]]), np.column_stack([qx[ask], qy[ask]]),
                    self.closed)
            return result
        i, j = i[rows], j[rows]
        length = np.hypot(qx[rows] - px[rows], qy[rows] - py[rows])
        # Discs of clearance around both ends that overlap along the move: it is inside.
        unsettled = rows[self.clearance[i] + self.clearance[j] <= length]
        if len(unsettled):
            if len(unsettled) < SMALL_BATCH:
                ask = unsettled
            else:
                verdict = self.edges.stays_inside(px[unsettled], py[unsettled], qx[unsettled],
                                                  qy[unsettled], self.closed)
                result[unsettled] = verdict.value
                ask = unsettled[verdict.unsure]
            if len(ask):
                result[ask] = self.region.covers_segments(
                    np.column_stack([px[ask], py[ask]]), np.column_stack([qx[ask], qy[ask]]),
                    self.closed)
        return result

    def exit_fractions(self, px: np.ndarray, py: np.ndarray, qx: np.ndarray,
                       qy: np.ndarray) -> np.ndarray:
        """For moves from points of the region: the fraction of each at which it first leaves
        the region (touching the wall already counts under the open rule); 1.0 if never."""
        if len(px) < SMALL_BATCH:
            return self._exit_fractions_by_shapely(px, py, qx, qy)
        verdict = self.edges.first_exit(px, py, qx, qy, self.closed)
        t = verdict.value.copy()
        ask = np.flatnonzero(verdict.unsure)
        if len(ask):
            t[ask] = self._exit_fractions_by_shapely(px[ask], py[ask], qx[ask], qy[ask])
        return t

    def _exit_fractions_by_shapely(self, px, py, qx, qy) -> np.ndarray:
        """``Region.exit_fraction`` for many moves in a few batched calls."""
        p = np.column_stack([px, py]).astype(float)
        q = np.column_stack([qx, qy]).astype(float)
        moving = np.any(p != q, axis=1)
        shapes = np.where(moving, shapely.linestrings(np.stack([p, q], axis=1)),
                          shapely.points(p))
        outside = shapely.difference(shapes, self.region.geometry)
        parts = [outside]
        if not self.closed:
            parts.append(shapely.intersection(shapes, self.region.geometry.boundary))
        t = np.ones(len(p))
        r = q - p
        length2 = np.einsum("ij,ij->i", r, r)
        for part in parts:
            coords, which = shapely.get_coordinates(part, return_index=True)
            if not len(coords):
                continue
            with np.errstate(divide="ignore", invalid="ignore"):
                f = np.einsum("ij,ij->i", coords - p[which], r[which]) / length2[which]
            f = np.where(length2[which] > 0, np.clip(f, 0.0, 1.0), 0.0)
            np.minimum.at(t, which, f)
        return t

    def nearest_points(self, ex: np.ndarray, ey: np.ndarray, prefer_x: np.ndarray,
                       prefer_y: np.ndarray,
                       exclude: Sequence[tuple[int, int]] = ()) -> np.ndarray:
        """The region's lattice point nearest to each place (ex, ey), as an (n, 2) array.

        Ties go to the point nearest the ``prefer`` point, then to the smallest (y, x), as
        ``Region.nearest_lattice_point`` does; ``exclude`` lists points that may not be used.
        Rows with no point at all give (prefer_x, prefer_y).
        """
        n = len(ex)
        result = np.column_stack([prefer_x, prefer_y]).astype(np.int64).reshape(n, 2)
        if not n or not len(self.points):
            return result
        r = NEAREST_WINDOW
        side = 2 * r + 1
        offsets = np.arange(side) - r
        cx, cy = np.rint(ex).astype(np.int64), np.rint(ey).astype(np.int64)
        wx = cx[:, None, None] + offsets[None, None, :]
        wy = cy[:, None, None] + offsets[None, :, None]
        wx, wy = np.broadcast_arrays(wx, wy)
        wx, wy = wx.reshape(n, side * side), wy.reshape(n, side * side)
        ok = self.contains(wx.ravel(), wy.ravel()).reshape(n, -1)
        for x, y in exclude:
            ok &= ~((wx == x) & (wy == y))
        # One whole number per point, ordered as the ties are broken: the distance (to nine
        # decimals, as Region does), the distance to the preferred point, then (y, x), which
        # is the window's own order.
        d2 = np.rint(((wx - ex[:, None]) ** 2 + (wy - ey[:, None]) ** 2) * 1e9).astype(np.int64)
        p2 = (wx - prefer_x[:, None]) ** 2 + (wy - prefer_y[:, None]) ** 2
        p2 = np.minimum(p2, (1 << 20) - 1)
        score = (d2 << np.int64(26)) | (p2 << np.int64(6)) | np.arange(side * side)[None, :]
        score = np.where(ok, score, np.iinfo(np.int64).max)
        best = np.argmin(score, axis=1)
        rows = np.arange(n)
        found = ok[rows, best]
        # A point outside the window is at least r + 1/2 away: only nearer finds are sure.
        sure = found & (d2[rows, best] < int((r + 0.5) ** 2 * 1e9))
        result[sure] = np.column_stack([wx[rows, best], wy[rows, best]])[sure]
        for k in np.flatnonzero(~sure):
            spot = self.region.nearest_lattice_point((ex[k], ey[k]), self.closed,
                                                     prefer=(prefer_x[k], prefer_y[k]),
                                                     exclude=exclude)
            if spot is not None:
                result[k] = spot
        return result


class ZoneLattice:
    """The zones of one kind on the sheet: which lattice points lie in one (edge included), and
    which moves touch one."""

    def __init__(self, zones: Sequence[BaseGeometry], grid: SheetGrid):
        self.zones = list(zones)
        self.grid = grid
        points = grid.all_points()
        inside = np.zeros(len(points), dtype=bool)
        for zone in self.zones:
            inside |= np.asarray(shapely.covers(zone, shapely.points(points.astype(float))))
        self.member = np.append(inside, False)  # cell -1 (off the sheet) lies in no zone
        self.edges = EdgeSet(self.zones, 4) if self.zones else None
        if self.zones:
            minx, miny, maxx, maxy = shapely.total_bounds(self.zones)
            self.bounds = (math.floor(minx), math.floor(miny), math.ceil(maxx), math.ceil(maxy))

    def __bool__(self) -> bool:
        return bool(self.zones)

    def covers(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """Whether each lattice point lies in a zone (or on its edge)."""
        cells = self.grid.cells(x, y)
        return self.member[cells]

    def touches(self, px: np.ndarray, py: np.ndarray, qx: np.ndarray,
                qy: np.ndarray, cells: tuple[np.ndarray, np.ndarray] | None = None,
                ) -> np.ndarray:
        """Whether each move (a point, for a move of no length) touches a zone (``cells``:
        the sheet cells of both ends, where the caller has them already)."""
        n = len(px)
        if not self.zones or not n:
            return np.zeros(n, dtype=bool)
        if cells is None:
            cells = (self.grid.cells(px, py), self.grid.cells(qx, qy))
        hit = self.member[cells[0]] | self.member[cells[1]]
        x0, y0, x1, y1 = self.bounds
        near = ~hit & (np.maximum(px, qx) >= x0) & (np.minimum(px, qx) <= x1) \
            & (np.maximum(py, qy) >= y0) & (np.minimum(py, qy) <= y1)
        rows = np.flatnonzero(near)
        if len(rows):
            assert self.edges is not None
            if len(rows) < SMALL_BATCH:
                ask = rows
            else:
                verdict = self.edges.meets(px[rows], py[rows], qx[rows], qy[rows])
                hit[rows] = verdict.value
                ask = rows[verdict.unsure]
            if len(ask):
                lines = shapely.linestrings(np.stack([np.column_stack([px[ask], py[ask]]),
                                                      np.column_stack([qx[ask], qy[ask]])],
                                                     axis=1).astype(float))
                found = np.zeros(len(ask), dtype=bool)
                for zone in self.zones:
                    found |= np.asarray(shapely.intersects(zone, lines))
                hit[ask] = found
        return hit
