"""Which way a new line's arrow should point: along the route, when the drawing tells.

A designer draws a checkpoint or a finish by clicking its two ends; which way cars cross it is
rarely in doubt to them, and should not be to the editor. Walking the track from the start
line's forward side (never back over the start line itself, a step at a time to the 8
neighbouring lattice points whose step stays on the track), the squares just behind a new line
are reached before the squares just past it, so the arrow points to the farther side. A start
line points towards the finish when there is one, and on a ring round one infield goes
clockwise as seen on the screen (the usual way round on paper). When nothing tells (no start
line yet, or a track too large to walk at a click), the arrow points to the right of the line
as drawn, and one click on it turns it round.
"""

from __future__ import annotations

import math

import numpy as np
import shapely
from shapely.geometry import Polygon

from racetrack.board.geometry import Coord, Line, Region
from racetrack.board.track.draft import Draft, across, flipped

#: Walking a track larger than this many lattice points is not worth a click's delay.
MAX_POINTS = 60_000
STEPS = np.array([(1, 0), (0, 1), (1, 1), (1, -1)])


def suggested_line(draft: Draft, a: Coord, b: Coord, kind: str) -> Line:
    """A ``kind`` line ("start", "finish", "checkpoint") from a to b, its arrow along the
    route where the drawing says which way that is."""
    line = across(a, b)
    if line.is_degenerate:
        return line
    try:
        sign = _route_sign(draft, line, kind)
    except (ValueError, shapely.errors.ShapelyError):
        sign = 0
    return flipped(line) if sign < 0 else line


def _route_sign(draft: Draft, line: Line, kind: str) -> int:
    """+1 when the line's arrow already points along the route, -1 when against, 0 unknown."""
    surface = _surface(draft)
    if surface is None:
        return 0
    if kind in ("finish", "checkpoint") and draft.start is not None:
        walk = _Walk(surface, draft.start, from_side=1)
        return walk.compare(line, farther=True)
    if kind == "start" and draft.finish is not None:
        walk = _Walk(surface, draft.finish, from_side=-1)
        return walk.compare(line, farther=False)
    if kind == "start" and len(draft.holes) == 1:
        infield = Polygon(draft.holes[0]).centroid
        mx, my = (line.a[0] + line.b[0]) / 2, (line.a[1] + line.b[1]) / 2
        rx, ry = mx - infield.x, my - infield.y
        turn = rx * line.forward[1] - ry * line.forward[0]  # > 0: clockwise on screen
        return 1 if turn > 0 else -1 if turn < 0 else 0
    return 0


def _surface(draft: Draft) -> Polygon | None:
    if len(set(draft.outer)) < 3:
        return None
    surface = Polygon(draft.outer, [h for h in draft.holes if len(set(h)) >= 3])
    return surface if surface.is_valid and surface.area > 0 else None


class _Walk:
    """Steps from a line's ``from_side`` (+1 its forward side, -1 behind it) to every lattice
    point of the track, never stepping across that line."""

    def __init__(self, surface: Polygon, barrier: Line, from_side: int):
        minx, miny, maxx, maxy = surface.bounds
        if (maxx - minx + 1) * (maxy - miny + 1) > MAX_POINTS * 2:
            raise ValueError("too large to walk")
        region = Region(surface)
        points = region.lattice_points()
        if len(points) == 0 or len(points) > MAX_POINTS:
            raise ValueError("nothing to walk")
        self.points = points
        x0, y0 = points.min(axis=0)
        width, height = points.max(axis=0) - (x0, y0) + 1
        grid = np.full((height + 2, width + 2), -1, dtype=np.int64)
        grid[points[:, 1] - y0 + 1, points[:, 0] - x0 + 1] = np.arange(len(points))
        starts, ends = [], []
        for step in STEPS:
            others = grid[points[:, 1] - y0 + 1 + step[1], points[:, 0] - x0 + 1 + step[0]]
            has = others >= 0
            starts.append(np.nonzero(has)[0])
            ends.append(others[has])
        left, right = np.concatenate(starts), np.concatenate(ends)
        ok = region.covers_segments(points[left], points[right])
        ok &= ~barrier.touches(points[left], points[right])
        left, right = left[ok], right[ok]
        near = _near(points, barrier, 1.5) & (barrier.side(points) == from_side)
        self.distance = _breadth_first(len(points), left, right, np.nonzero(near)[0])

    def compare(self, line: Line, farther: bool) -> int:
        """Whether the line's forward side is the farther (or, with ``farther`` false, the
        nearer) of its two sides, by the walk: +1 yes, -1 no, 0 cannot tell."""
        near = _near(self.points, line, 1.5)
        side = line.side(self.points)
        ahead = self.distance[near & (side > 0)]
        behind = self.distance[near & (side < 0)]
        ahead, behind = ahead[ahead >= 0], behind[behind >= 0]
        if len(ahead) == 0 or len(behind) == 0 or ahead.min() == behind.min():
            return 0
        sign = 1 if ahead.min() > behind.min() else -1
        return sign if farther else -sign


def _near(points: np.ndarray, line: Line, reach: float) -> np.ndarray:
    """Per lattice point: within ``reach`` squares of the line's segment."""
    a = np.asarray(line.a, float)
    d = np.asarray(line.b, float) - a
    length2 = float(d @ d) or 1.0
    t = np.clip(((points - a) @ d) / length2, 0.0, 1.0)
    closest = a + t[:, None] * d
    return np.hypot(*(points - closest).T) <= reach + 1e-9


def _breadth_first(count: int, left: np.ndarray, right: np.ndarray,
                   sources: np.ndarray) -> np.ndarray:
    """Steps from the nearest source to every point over the undirected edges (-1: never)."""
    distance = np.full(count, -1, dtype=np.int64)
    if len(sources) == 0:
        return distance
    distance[sources] = 0
    frontier = np.zeros(count, dtype=bool)
    frontier[sources] = True
    step = 0
    while frontier.any() and step < 4 * math.isqrt(count) + count:
        step += 1
        reached = np.concatenate([right[frontier[left]], left[frontier[right]]])
        reached = reached[distance[reached] < 0]
        if len(reached) == 0:
            break
        distance[reached] = step
        frontier[:] = False
        frontier[reached] = True
    return distance
