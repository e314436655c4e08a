"""Checkpoints and finishes drawn as areas: what a move passes over, and the progress it makes.

An imported map's checkpoints and finish are cells, not lines (Karopapier's digits and ``F``
cells, a character grid's goal cells): a car passes one by driving over it, in any order and
either direction. ``docs/track-format.md`` ("Passing over an area") gives the rule: a move
passes over an area when its segment meets the inside of the area, or ends on it; touching its
edge in passing does not count (so on a map of cells a move passes over exactly the cells its
line goes through, and going exactly through a corner passes over neither of the other two
cells).

Line progress (``racetrack.board.course``) is left as it is; the areas add to it:

- The checkpoint areas passed this lap are a bitmask the car carries (the transition's
  ``areas`` column; ``areas.checkpoints: any-order``), checkpoint area ``k`` being bit ``k``.
- A finish drawn as an area stands in the course's list of lines as a mark no move reaches
  by itself (``Course.finish_area_mark``): the move that passes over the finish area while it
  is the next mark, with every checkpoint area passed (those passed on that move included),
  passes it.
- Where the finish is a line, a move that would cross it before every checkpoint area is
  passed stops short of it: the line is not passed.
- Passing the finish of a lap that is not the last starts the next lap with no checkpoint
  area passed.

Crashes and put-backs pass over no area: only a car's own moves do.
"""

from __future__ import annotations

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from racetrack.board.geometry import prepared
from racetrack.board.graphs import HashIndex
from racetrack.board.kernel import move_keys
from racetrack.board.track import Track

#: The most checkpoint areas a car's bitmask holds (a track file allows no more than this).
MOST_AREAS = 30


class AreaMarks:
    """A track's checkpoint areas and finish area, prepared once, and the areas each move
    passes over (remembered by move: a search meets the same move at every velocity it can
    be made from and every set of areas already passed).

    ``checkpoints=False`` leaves the checkpoint areas out (``areas.checkpoints: ignored``).
    """

    def __init__(self, track: Track, checkpoints: bool = True):
        areas = track.checkpoint_areas if checkpoints else ()
        if len(areas) > MOST_AREAS:
            raise ValueError(f"{track.name!r} has {len(areas)} checkpoint areas; at most "
                             f"{MOST_AREAS} can be raced")
        self.checkpoints: tuple[BaseGeometry, ...] = tuple(prepared(a.geometry())
                                                           for a in areas)
        self.finish: BaseGeometry | None = None if track.finish_area is None \
            else prepared(track.finish_area.geometry())
        self.everything = (1 << len(self.checkpoints)) - 1
        self.finish_bit = 1 << len(self.checkpoints)
        shapes = (*self.checkpoints, *(() if self.finish is None else (self.finish,)))
        self._shapes = shapes
        self._bounds = [shape.bounds for shape in shapes]
        self._memo = HashIndex()

    def __bool__(self) -> bool:
        """Whether there is anything to pass over."""
        return bool(self._shapes)

    @property
    def count(self) -> int:
        """How many checkpoint areas count."""
        return len(self.checkpoints)

    def passed(self, px, py, qx, qy) -> tuple[np.ndarray, np.ndarray]:
        """For each move p→q: the bitmask of checkpoint areas it passes over, and whether it
        passes over the finish area."""
        px, py, qx, qy = (np.asarray(v, dtype=np.int64) for v in (px, py, qx, qy))
        keys = move_keys(px, py, qx, qy)
        codes = self._memo.find(keys).astype(np.int64)
        new = np.flatnonzero(codes < 0)
        if len(new):
            unique, first, back = np.unique(keys[new], return_index=True, return_inverse=True)
            rows = new[first]
            found = self._work_out(px[rows], py[rows], qx[rows], qy[rows])
            self._memo.add(unique, found.astype(np.int32))
            codes[new] = found[back.reshape(-1)]
        return (codes & self.everything).astype(np.int32), (codes & self.finish_bit) > 0

    def _work_out(self, px, py, qx, qy) -> np.ndarray:
        """``passed`` as one code per move (checkpoint bits, then the finish's), from the
        geometry: a move meets an area's inside, or ends on it."""
        n = len(px)
        codes = np.zeros(n, dtype=np.int64)
        x0, x1 = np.minimum(px, qx), np.maximum(px, qx)
        y0, y1 = np.minimum(py, qy), np.maximum(py, qy)
        for k, (shape, (bx0, by0, bx1, by1)) in enumerate(zip(self._shapes, self._bounds,
                                                               strict=True)):
            near = np.flatnonzero((x1 >= bx0) & (x0 <= bx1) & (y1 >= by0) & (y0 <= by1))
            if not len(near):
                continue
            ends = shapely.points(np.column_stack([qx[near], qy[near]]).astype(float))
            hit = np.asarray(shapely.covers(shape, ends))
            moving = np.flatnonzero(~hit & ((px[near] != qx[near]) | (py[near] != qy[near])))
            if len(moving):
                rows = near[moving]
                lines = shapely.linestrings(np.stack(
                    [np.column_stack([px[rows], py[rows]]),
                     np.column_stack([qx[rows], qy[rows]])], axis=1).astype(float))
                hit[moving] = np.asarray(shapely.relate_pattern(shape, lines, "T********"))
            codes[near[hit]] |= 1 << k
        return codes

    def met(self, px, py, qx, qy) -> tuple[np.ndarray, np.ndarray]:
        """``passed`` for segments p→q that end anywhere (the part of a move up to where it
        leaves the track): the areas whose inside each meets, and whether it meets the
        finish's. Not remembered: such segments are few, and their ends off the lattice."""
        p = np.column_stack([px, py]).astype(float)
        q = np.column_stack([qx, qy]).astype(float)
        codes = np.zeros(len(p), dtype=np.int64)
        if len(p):
            moving = np.any(p != q, axis=1)
            shapes = np.where(moving, shapely.linestrings(np.stack([p, q], axis=1)),
                              shapely.points(p))
            for k, shape in enumerate(self._shapes):
                hit = np.asarray(shapely.relate_pattern(shape, shapes, "T********"))
                codes[hit] |= 1 << k
        return (codes & self.everything).astype(np.int32), (codes & self.finish_bit) > 0

    def entry_fraction(self, p, q) -> float:
        """Where along the move p→q it first meets the finish area (0 to 1; 1 where it only
        ends on it)."""
        if self.finish is None:
            return 1.0
        if tuple(p) == tuple(q):
            return 0.0
        line = shapely.LineString([tuple(map(float, p)), tuple(map(float, q))])
        inside = shapely.intersection(line, self.finish)
        if inside.is_empty:
            return 1.0
        start = np.array(p, dtype=float)
        length = float(np.hypot(*(np.array(q, dtype=float) - start)))
        coords = shapely.get_coordinates(inside)
        nearest = float(np.hypot(*(coords - start).T).min()) if len(coords) else length
        return min(max(nearest / length, 0.0), 1.0)

    # -- progress ------------------------------------------------------------------------------

    def advance(self, course, before: np.ndarray, progress: np.ndarray, areas: np.ndarray,
                bits: np.ndarray, finish: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Progress and areas after moves: ``before`` the progress before them, ``progress``
        after them by the lines alone, ``areas`` the bitmask before them, and what each move
        passed over (``bits``, ``finish``: none for a put-back)."""
        per_lap = course.lines_per_lap()
        before = np.asarray(before, dtype=np.int64)
        progress = np.asarray(progress, dtype=np.int64).copy()
        areas = (np.asarray(areas, dtype=np.int64) | bits) & self.everything
        full = areas == self.everything
        # The lap's finish still ahead of each car (the line index of its mark).
        lap_end = per_lap * np.maximum(1, -(-before // per_lap))
        if course.finish_area_mark is not None:
            finishing = (progress == lap_end) & finish & full
            passed = finishing
            progress = progress + finishing
        else:
            passed = progress > lap_end
            short = passed & ~full
            progress = np.where(short, lap_end, progress)
            passed &= full
        # A lap finished starts the next with no checkpoint area passed.
        areas = np.where(passed & (progress < course.goal), 0, areas)
        return progress.astype(np.int32), areas.astype(np.int32)


def marks_for(course, checkpoints: str = "any-order") -> AreaMarks:
    """The course's area marks under ``areas.checkpoints`` (built once per course)."""
    key = ("areas", checkpoints)
    found = course.derived(key)
    if found is None:
        found = course.remember(key, AreaMarks(course.track, checkpoints == "any-order"))
    return found
