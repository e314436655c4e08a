"""Territory: the lattice points a player's tracks fence off from every other player.

A player's segments, together with the sheet's edge, cut the sheet into faces (found with
``shapely.polygonize`` over the segments and the border, noded together). A face is that
player's territory when no other player's starting node lies in it or on its boundary: since
tracks never cross, every other player's whole tree then lies outside it, so nobody else can
ever draw there. The score counts the lattice points of those faces, including their points
on the sheet's edge and excluding the points the player's own tracks run through.

A single tree is all a player draws (tracks never close a loop), so a face is fenced off by a
track that reaches the sheet's edge again, or by two branches that both do.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import gcd

import numpy as np
import shapely

from racetrack.board.geometry import Vec


@dataclass(frozen=True)
class Territory:
    """One player's territory: the faces (as shapely polygons) and the lattice points.

    ``points`` is a boolean grid indexed ``[y, x]``.
    """

    faces: tuple[shapely.Polygon, ...]
    points: np.ndarray

    @property
    def score(self) -> int:
        return int(self.points.sum())


def lattice_on_segments(segments: Sequence[tuple[Vec, Vec]], width: int,
                        height: int) -> np.ndarray:
    """A ``[y, x]`` grid marking every lattice point the segments run through (ends too)."""
    grid = np.zeros((height + 1, width + 1), dtype=bool)
    for a, b in segments:
        dx, dy = b.x - a.x, b.y - a.y
        steps = gcd(dx, dy)
        if steps == 0:
            grid[a.y, a.x] = True
            continue
        k = np.arange(steps + 1)
        grid[a.y + k * (dy // steps), a.x + k * (dx // steps)] = True
    return grid


def territory(width: int, height: int, segments: Sequence[tuple[Vec, Vec]],
              root: Vec, others: Sequence[Vec]) -> Territory:
    """The territory of the player who drew ``segments`` from ``root``.

    ``others`` are the other players' starting nodes.
    """
    empty = Territory((), np.zeros((height + 1, width + 1), dtype=bool))
    # A face other than the whole sheet needs the tree to meet the edge at two points or more.
    ends = {root, *(p for seg in segments for p in seg)}
    if sum(p.x in (0, width) or p.y in (0, height) for p in ends) < 2:
        return empty
    border = shapely.LineString([(0, 0), (width, 0), (width, height), (0, height), (0, 0)])
    lines = shapely.linestrings(np.array([[a, b] for a, b in segments], dtype=float))
    noded = shapely.union_all([border, *lines])
    faces = shapely.get_parts(shapely.polygonize(shapely.get_parts(noded)))
    starts = shapely.points(np.array(others, dtype=float).reshape(-1, 2))
    kept = [face for face in faces if not np.any(shapely.intersects(face, starts))]
    if not kept:
        return empty
    ys, xs = np.mgrid[0:height + 1, 0:width + 1]
    grid = shapely.points(np.column_stack([xs.ravel(), ys.ravel()]).astype(float))
    inside = np.zeros(len(grid), dtype=bool)
    for face in kept:
        shapely.prepare(face)
        inside |= shapely.covers(face, grid)
    points = inside.reshape(height + 1, width + 1) & ~lattice_on_segments(segments, width,
                                                                          height)
    return Territory(tuple(kept), points)
