"""Exact segment-against-polygon questions for lattice moves, in numpy.

A move is a straight segment between two lattice points; the rules ask of whole arrays of them
"does it stay on this region?", "does it touch this zone?" and "where does it first leave the
region?". ``EdgeSet`` answers from the polygon's edges alone: the edges are bucketed per grid
cell, each move is tested only against the edges in the cells its bounding box meets, and every
test is a sign of a cross product. A move too long to bucket cheaply, or crossing a finely drawn
curve (many edges to a cell), asks shapely's tree of the edges which ones it meets instead.

The signs are exact where the polygon's coordinates are multiples of a quarter (every product
then fits a double exactly), which is what track files and the editor produce. Elsewhere a sign
too close to zero to trust, or a point where two rings meet, is reported as *unsure*: the
caller asks shapely, which stays the reference this module is tested against.

Rings are oriented so the region lies on the left of every edge (``cross(b - a, x - a) > 0`` for
points ``x`` just inside), which turns "which side is the region" into a sign.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

#: Moves whose bounding box meets more bucket cells than this, or more edges than
#: ``MAX_PAIRS`` (a finely drawn curve puts many edges in a cell), find the edges they meet in
#: shapely's tree instead: one exact query is then cheaper than that many signs.
MAX_CELLS = 48
MAX_PAIRS = 64
#: Pairs of (move, edge) tested at once; bigger batches are cut into chunks of about this size.
CHUNK_PAIRS = 1 << 20
_EXACT_LIMIT = 2.0 ** 20


@dataclass(frozen=True)
class Verdict:
    """Per move: the answer, and whether it is unsure (shapely must decide those)."""

    value: np.ndarray
    unsure: np.ndarray


def _rings(geometry: BaseGeometry) -> list[np.ndarray]:
    """Every ring of a polygonal geometry, oriented with the region on the left, no repeats."""
    polygons = getattr(geometry, "geoms", [geometry])
    found = []
    for polygon in polygons:
        if polygon.is_empty or polygon.geom_type != "Polygon":
            continue
        for k, ring in enumerate([polygon.exterior, *polygon.interiors]):
            coords = np.asarray(ring.coords, dtype=float)[:-1]
            keep = np.any(coords != np.roll(coords, 1, axis=0), axis=1)
            coords = coords[keep]
            if len(coords) < 3:
                continue
            x, y = coords[:, 0], coords[:, 1]
            area = float(np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y))
            if (area < 0) == (k == 0):  # exteriors positive, holes negative
                coords = coords[::-1]
            found.append(coords)
    return found


class EdgeSet:
    """The edges of a polygonal region (or of several zones), bucketed on a square grid."""

    def __init__(self, geometry: BaseGeometry | list[BaseGeometry], cell: int = 4):
        parts = geometry if isinstance(geometry, list) else [geometry]
        rings = [ring for part in parts for ring in _rings(part)]
        a = np.concatenate([r for r in rings]) if rings else np.zeros((0, 2))
        b = np.concatenate([np.roll(r, -1, axis=0) for r in rings]) if rings else a
        prev = np.concatenate([np.roll(r, 1, axis=0) for r in rings]) if rings else a
        self.count = len(a)
        self.ax, self.ay, self.bx, self.by = a[:, 0], a[:, 1], b[:, 0], b[:, 1]
        # From vertex a back along the edge that arrives there: the wedge's other side.
        self.ux, self.uy = prev[:, 0] - a[:, 0], prev[:, 1] - a[:, 1]
        def exact(points: np.ndarray) -> np.ndarray:
            quarter = points * 4
            return np.all((quarter == np.round(quarter)) & (np.abs(quarter) < _EXACT_LIMIT),
                          axis=1)

        # A sign is exact when every polygon point in it is: a vertex alone against a move,
        # or the whole edge (and, at a vertex, the edge before it).
        self.exact_a, self.exact_b = exact(a), exact(b)
        self.exact = self.exact_a & self.exact_b & exact(prev)
        self.junction = self._junctions(rings, a)
        self.cell = cell
        if self.count:
            lo = np.floor(np.minimum(a, b).min(axis=0)).astype(np.int64) - 1
            hi = np.ceil(np.maximum(a, b).max(axis=0)).astype(np.int64) + 1
        else:
            lo = hi = np.zeros(2, dtype=np.int64)
        self.origin = lo
        self.width = int((hi[0] - lo[0]) // cell + 1)
        self.height = int((hi[1] - lo[1]) // cell + 1)
        self._bucket(a, b)

    @staticmethod
    def _junctions(rings: list[np.ndarray], a: np.ndarray) -> np.ndarray:
        """Vertices where two rings meet (or a ring meets itself): the wedge there is not one
        ring's to decide, so contacts there are left to shapely."""
        if not rings:
            return np.zeros(len(a), dtype=bool)
        # Every vertex against every other ring at once, through a tree of the rings: asking
        # each ring against the union of all the others took minutes for a thousand holes.
        vertices = np.concatenate(rings)
        owner = np.repeat(np.arange(len(rings)), [len(ring) for ring in rings])
        tree = shapely.STRtree([shapely.LinearRing(ring) for ring in rings])
        point, line = tree.query(shapely.points(vertices), predicate="dwithin", distance=1e-9)
        near = np.zeros(len(vertices), dtype=bool)
        near[point[line != owner[point]]] = True
        flags, start = [], 0
        for ring in rings:
            # A ring through the same point twice.
            _, index, counts = np.unique(ring, axis=0, return_inverse=True, return_counts=True)
            flags.append(near[start:start + len(ring)] | (counts[index.ravel()] > 1))
            start += len(ring)
        return np.concatenate(flags)

    def _bucket(self, a: np.ndarray, b: np.ndarray) -> None:
        cx0, cy0, cx1, cy1 = self._cells(np.minimum(a[:, 0], b[:, 0]), np.minimum(a[:, 1], b[:, 1]),
                                         np.maximum(a[:, 0], b[:, 0]), np.maximum(a[:, 1], b[:, 1]))
        nx, ny = cx1 - cx0 + 1, cy1 - cy0 + 1
        counts = nx * ny
        edge = np.repeat(np.arange(self.count), counts)
        local = np.arange(int(counts.sum())) - np.repeat(np.cumsum(counts) - counts, counts)
        cells = (cy0[edge] + local // nx[edge]) * self.width + cx0[edge] + local % nx[edge]
        order = np.argsort(cells, kind="stable")
        self.cell_edges = edge[order].astype(np.int32)
        self.cell_start = np.searchsorted(cells[order], np.arange(self.width * self.height + 1))

    def _cells(self, x0, y0, x1, y1):
        """Closed boxes to inclusive ranges of bucket cells, clipped to the grid."""
        c = self.cell

        def col(v, hi):
            return np.clip(np.floor((v - self.origin[hi]) / c).astype(np.int64), 0,
                           (self.width, self.height)[hi] - 1)

        return col(x0, 0), col(y0, 1), col(x1, 0), col(y1, 1)

    # -- pairs ----------------------------------------------------------------------------------

    def _pairs(self, px, py, qx, qy) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(move, edge) pairs whose boxes share a bucket cell. A move whose box covers too
        many cells or meets too many edges gets its pairs from shapely's tree of the edges
        instead (only the edges it really meets). The third array is always all false: every
        move has its pairs."""
        n = len(px)
        if not self.count or not n:
            return np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(n, bool)
        cx0, cy0, cx1, cy1 = self._cells(np.minimum(px, qx), np.minimum(py, qy),
                                         np.maximum(px, qx), np.maximum(py, qy))
        nx, ny = cx1 - cx0 + 1, cy1 - cy0 + 1
        cells_per = nx * ny
        crowded = cells_per > MAX_CELLS
        # A move of no length is a point: whether it is on the region is its membership.
        still = (px == qx) & (py == qy)
        cells_per = np.where(crowded | still, 0, cells_per)
        move = np.repeat(np.arange(n), cells_per)
        local = np.arange(int(cells_per.sum())) - np.repeat(np.cumsum(cells_per) - cells_per,
                                                            cells_per)
        cell = (cy0[move] + local // nx[move]) * self.width + cx0[move] + local % nx[move]
        first, last = self.cell_start[cell], self.cell_start[cell + 1]
        per = last - first
        busy = np.bincount(move, weights=per, minlength=n) > MAX_PAIRS
        if busy.any():
            crowded |= busy
            per = np.where(busy[move], 0, per)
        pair_move = np.repeat(move, per)
        offset = np.arange(int(per.sum())) - np.repeat(np.cumsum(per) - per, per)
        pair_edge = self.cell_edges[np.repeat(first, per) + offset]
        rows = np.flatnonzero(crowded & ~still)
        if len(rows):
            lines = shapely.linestrings(np.stack([np.column_stack([px[rows], py[rows]]),
                                                  np.column_stack([qx[rows], qy[rows]])],
                                                 axis=1))
            found = self.tree.query(lines, predicate="intersects")
            pair_move = np.concatenate([pair_move, rows[found[0]]])
            pair_edge = np.concatenate([pair_edge, found[1]])
        return pair_move, pair_edge, np.zeros(n, dtype=bool)

    @cached_property
    def tree(self) -> shapely.STRtree:
        """Shapely's tree of the edges, for moves too long or too crowded to bucket."""
        ends = np.stack([np.column_stack([self.ax, self.ay]), np.column_stack([self.bx, self.by])],
                        axis=1)
        return shapely.STRtree(shapely.linestrings(ends))

    def _signs(self, px, py, qx, qy, edge):
        """Cross-product signs of each (move, edge) pair, and which of them are unsure.

        ``sa``/``sb``: the edge's ends against the move's line; ``sp``/``sq``: the move's ends
        against the edge's line (positive: the region's side)."""
        ax, ay, bx, by = self.ax[edge], self.ay[edge], self.bx[edge], self.by[edge]
        dx, dy = qx - px, qy - py
        ex, ey = bx - ax, by - ay
        oa = dx * (ay - py) - dy * (ax - px)
        ob = dx * (by - py) - dy * (bx - px)
        op = ex * (py - ay) - ey * (px - ax)
        oq = ex * (qy - ay) - ey * (qx - ax)
        scale = (np.abs(dx) + np.abs(dy) + np.abs(ex) + np.abs(ey) + np.abs(px - ax)
                 + np.abs(py - ay) + 1.0) ** 2 * 1e-12
        exact_a, exact_b = self.exact_a[edge], self.exact_b[edge]
        unsure = (~exact_a & (np.abs(oa) <= scale)) | (~exact_b & (np.abs(ob) <= scale)) \
            | (~(exact_a & exact_b) & ((np.abs(op) <= scale) | (np.abs(oq) <= scale)))
        return np.sign(oa), np.sign(ob), np.sign(op), np.sign(oq), unsure, (dx, dy, ax, ay, ex, ey)

    def _in_wedge(self, edge, x, y):
        """Whether direction (x, y) from vertex ``a`` of each edge points into the closed region,
        and whether that is unsure (a spike, or a sign too close to zero)."""
        wx, wy = self.bx[edge] - self.ax[edge], self.by[edge] - self.ay[edge]
        ux, uy = self.ux[edge], self.uy[edge]
        turn = wx * uy - wy * ux
        s1 = wx * y - wy * x
        s2 = x * uy - y * ux
        scale = (np.abs(wx) + np.abs(wy) + np.abs(ux) + np.abs(uy) + np.abs(x) + np.abs(y)
                 + 1.0) ** 2 * 1e-12
        exact = self.exact[edge]
        unsure = ~exact & ((np.abs(turn) <= scale) | (np.abs(s1) <= scale)
                           | (np.abs(s2) <= scale))
        straight = turn == 0
        spike = straight & (wx * ux + wy * uy > 0)
        inside = np.where(straight, s1 >= 0,
                          np.where(turn > 0, (s1 >= 0) & (s2 >= 0), (s1 >= 0) | (s2 >= 0)))
        return inside, unsure | spike | self.junction[edge]

    # -- questions ------------------------------------------------------------------------------

    def _contacts(self, px, py, qx, qy):
        """Every (move, edge) pair that shares a point, with the signs needed to judge it."""
        move, edge, too_many = self._pairs(px, py, qx, qy)
        mp = (px[move], py[move], qx[move], qy[move])
        sa, sb, sp, sq, unsure, (dx, dy, ax, ay, ex, ey) = self._signs(*mp, edge)
        apart = (sa * sb > 0) | (sp * sq > 0)
        collinear = (sa == 0) & (sb == 0)
        length = dx * dx + dy * dy
        ta = ((ax - mp[0]) * dx + (ay - mp[1]) * dy) / np.where(length > 0, length, 1)
        tb = ((ax + ex - mp[0]) * dx + (ay + ey - mp[1]) * dy) / np.where(length > 0, length, 1)
        # Collinear pieces of one line meet only if their extents do.
        apart |= collinear & (((ta < 0) & (tb < 0)) | ((ta > 1) & (tb > 1)))
        keep = np.flatnonzero(~apart)
        c = _Contacts(move[keep], edge[keep], *(v[keep] for v in (*mp, sa, sb, sp, sq, unsure,
                                                                 collinear, ta, tb, dx, dy)))
        return c, too_many

    def stays_inside(self, px, py, qx, qy, closed: bool) -> Verdict:
        """Whether each move, whose two ends are known to lie on the region (closed, or its open
        interior), stays on it all along; touching the boundary is allowed when ``closed``."""
        return self._in_chunks(self._stays, (px, py, qx, qy), closed, np.ones(len(px), bool))

    def _stays(self, px, py, qx, qy, closed):
        n = len(px)
        c, too_many = self._contacts(px, py, qx, qy)
        if not closed:  # the open interior: any contact at all is leaving it
            bad = np.ones(len(c.move), dtype=bool)
            doubt = c.unsure
        else:
            bad = (c.sa * c.sb < 0) & (c.sp * c.sq < 0)  # a proper crossing
            # One end of the move strictly inside an edge, the move not along it: the move
            # must head to the region's side.
            bad |= ~c.collinear & (c.sp == 0) & self._inside_edge(c.edge, c.px, c.py) & (c.sq < 0)
            bad |= ~c.collinear & (c.sq == 0) & self._inside_edge(c.edge, c.qx, c.qy) & (c.sp < 0)
            doubt = c.unsure.copy()
            # A vertex on the move: each way the move goes from it must be in the region's wedge.
            rows = np.flatnonzero((c.sa == 0) & (c.ta >= 0) & (c.ta <= 1))
            if len(rows):
                e, t = c.edge[rows], c.ta[rows]
                fwd_in, fwd_doubt = self._in_wedge(e, c.dx[rows], c.dy[rows])
                back_in, back_doubt = self._in_wedge(e, -c.dx[rows], -c.dy[rows])
                need_fwd, need_back = t < 1, t > 0
                bad[rows] |= (need_fwd & ~fwd_in) | (need_back & ~back_in)
                doubt[rows] |= (need_fwd & fwd_doubt) | (need_back & back_doubt)
        value = np.bincount(c.move, weights=bad, minlength=n) == 0
        unsure = (np.bincount(c.move, weights=doubt, minlength=n) > 0) | too_many
        return value, unsure

    def meets(self, px, py, qx, qy) -> Verdict:
        """Whether each closed move shares a point with any edge (with the ends' membership of
        a zone, this says whether the move touches the zone)."""
        inside = self.stays_inside(px, py, qx, qy, closed=False)
        return Verdict(~inside.value, inside.unsure)

    def first_exit(self, px, py, qx, qy, closed: bool) -> Verdict:
        """The fraction of each move (from a point of the region) at which it first leaves the
        region, 1.0 where it never does (a float ``value``), and whether that is unsure."""
        return self._in_chunks(self._first_exit, (px, py, qx, qy), closed, np.ones(len(px)))

    @staticmethod
    def _in_chunks(question, moves, closed: bool, value: np.ndarray) -> Verdict:
        """``question`` of the moves a chunk at a time, so the (move, edge) pairs of one chunk
        stay about ``CHUNK_PAIRS``; ``value`` holds the answers (its initial values unused)."""
        f = [np.asarray(v, dtype=float) for v in moves]
        unsure = np.zeros(len(value), dtype=bool)
        per_chunk = max(1, CHUNK_PAIRS // 16)
        for first in range(0, len(value), per_chunk):
            part = slice(first, first + per_chunk)
            value[part], unsure[part] = question(*(v[part] for v in f), closed)
        return Verdict(value, unsure)

    def _first_exit(self, px, py, qx, qy, closed):
        n = len(px)
        c, too_many = self._contacts(px, py, qx, qy)
        with np.errstate(divide="ignore", invalid="ignore"):
            op = (self.bx[c.edge] - self.ax[c.edge]) * (c.py - self.ay[c.edge]) \
                - (self.by[c.edge] - self.ay[c.edge]) * (c.px - self.ax[c.edge])
            oq = (self.bx[c.edge] - self.ax[c.edge]) * (c.qy - self.ay[c.edge]) \
                - (self.by[c.edge] - self.ay[c.edge]) * (c.qx - self.ax[c.edge])
            crossing = np.clip(op / (op - oq), 0.0, 1.0)
        doubt = c.unsure.copy()
        if not closed:  # touching is leaving: the first contact of any kind
            event = np.where(c.collinear, np.clip(np.minimum(c.ta, c.tb), 0.0, 1.0), crossing)
        else:
            event = np.where((c.sa * c.sb < 0) & (c.sp * c.sq < 0), crossing, np.inf)
            leaves = ~c.collinear & (c.sp == 0) & self._inside_edge(c.edge, c.px, c.py) \
                & (c.sq < 0)
            event = np.where(leaves, 0.0, event)
            rows = np.flatnonzero((c.sa == 0) & (c.ta >= 0) & (c.ta < 1))
            if len(rows):
                inside, wedge_doubt = self._in_wedge(c.edge[rows], c.dx[rows], c.dy[rows])
                event[rows] = np.where(inside, event[rows], np.minimum(event[rows], c.ta[rows]))
                doubt[rows] |= wedge_doubt
        t = np.ones(n)
        np.minimum.at(t, c.move, np.minimum(event, 1.0))
        unsure = (np.bincount(c.move, weights=doubt, minlength=n) > 0) | too_many
        return t, unsure

    def _inside_edge(self, edge, x, y):
        """Whether a point on each edge's line lies strictly between the edge's ends."""
        ex, ey = self.bx[edge] - self.ax[edge], self.by[edge] - self.ay[edge]
        t = (x - self.ax[edge]) * ex + (y - self.ay[edge]) * ey
        return (t > 0) & (t < ex * ex + ey * ey)


@dataclass(frozen=True)
class _Contacts:
    """The (move, edge) pairs that touch, with their signs (see ``EdgeSet._signs``)."""

    move: np.ndarray
    edge: np.ndarray
    px: np.ndarray
    py: np.ndarray
    qx: np.ndarray
    qy: np.ndarray
    sa: np.ndarray
    sb: np.ndarray
    sp: np.ndarray
    sq: np.ndarray
    unsure: np.ndarray
    collinear: np.ndarray
    ta: np.ndarray  # where the edge's ends fall along the move (0 at p, 1 at q)
    tb: np.ndarray
    dx: np.ndarray
    dy: np.ndarray
