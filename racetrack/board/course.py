"""A track as a race sees it: the surface to stay on, the lines to pass in order, the zones.

Progress through a race is one number per car, the count of lines passed. The lines are the
start line, then for every lap the checkpoints in order followed by the finish line, so a car
starts with progress 1 (standing on the start line counts as having passed it) and has finished
at progress ``goal``. A forward crossing of the next line adds one; a backward crossing of the
line last passed takes one away (so backing over the start line leaves a car at 0, and it must
cross forwards again). One move may pass several lines, in order, but a straight move can cross
one drawn line only once, so a line used twice in the list (the start that is also the finish
of a circuit) is counted at most once per move.

A line is passed only over the track, but it is un-passed by going back round its end too: a
move over its continuation (``racetrack.board.crossings``: its straight line carried on over what is
not track, to the track again or the paper's edge) crossing it backwards counts as a backward
crossing. So no route gets behind a line without crossing it, and no car finishes a lap it
did not drive. Levi's rule 6 adds checkpoints where the start line's line meets the track again.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np
from shapely.geometry.base import BaseGeometry
from shapely.ops import unary_union

from racetrack.board import kernel
from racetrack.board.areas import marks_for
from racetrack.board.crossings import continuations, overlap_gates
from racetrack.board.geometry import (
    ORIENTATION_TOLERANCE,
    Line,
    Region,
    Vec,
    as_array,
    line_crossing,
    line_crossings,
    prepared,
)
from racetrack.board.track import Track

if TYPE_CHECKING:
    from racetrack.rules.ruleset import RuleSet

#: How far the paper reaches beyond the track outline, for rules that let cars leave the track.
SHEET_MARGIN = 4
#: Courses kept for reuse: a rematch, the next race of a series or the solver on the same
#: track and laps finds its prepared geometry, distance field and transitions ready.
KEEP_COURSES = 8
_courses: OrderedDict[tuple[Track, int | None, bool, bool], Course] = OrderedDict()
_courses_lock = threading.Lock()
#: Moves near a line up to this many are advanced one by one in plain Python, more as one
#: batch: a batch's numpy calls cost about as much as this many plain ones.
SCALAR_ROWS = 16


def _opposite_on_line(line: Line, start: Line) -> bool:
    """Whether ``line`` lies on the start line's straight line with its arrow the other way
    (a rule-6 checkpoint)."""
    (ax, ay), (bx, by) = start.a, start.b
    dx, dy = bx - ax, by - ay
    if line.a == line.b or (dx == 0 and dy == 0):
        return False
    scale = abs(dx) + abs(dy)
    on = all(abs(dx * (y - ay) - dy * (x - ax)) <= 1e-9 * scale * (1 + abs(x - ax) + abs(y - ay))
             for x, y in (line.a, line.b))
    return on and line.forward[0] * start.forward[0] + line.forward[1] * start.forward[1] < 0


def sheet_of(track: Track) -> tuple[int, int, int, int]:
    """The paper a track is drawn on: its outline's bounds widened by ``SHEET_MARGIN``, as
    whole lattice coordinates (x0, y0, x1, y1)."""
    minx, miny, maxx, maxy = track.bounds
    return (math.floor(minx) - SHEET_MARGIN, math.floor(miny) - SHEET_MARGIN,
            math.ceil(maxx) + SHEET_MARGIN, math.ceil(maxy) + SHEET_MARGIN)


class Course:
    """The race-facing view of a ``Track``: regions, ordered lines and zone geometry, prepared.

    Building one prepares shapely geometry once; every later question is a batched call.
    """

    def __init__(self, track: Track, laps: int | None = None, checkpoints: bool = True,
                 start_line_checkpoints: bool = False):
        """``laps`` overrides the track's own count; ``checkpoints=False`` ignores them;
        ``start_line_checkpoints`` adds Levi's rule-6 checkpoints to a circuit (see
        ``racetrack.board.crossings.overlap_gates``).

        A finish or checkpoints drawn as areas (an imported map's cells) are passed by
        ``racetrack.board.areas``: the finish area stands in the list of lines as a mark no move
        reaches by itself (``finish_area_mark``), and a track with no start line starts
        behind a mark of the same kind, which nothing takes back."""
        self.track = track
        self.laps = laps if laps is not None else track.laps
        self.start_line_checkpoints = start_line_checkpoints and track.is_circuit
        used_checkpoints = track.checkpoints if checkpoints else ()
        surface = track.polygon()
        if self.start_line_checkpoints:
            used_checkpoints = overlap_gates(track.start, surface, sheet_of(track),
                                             used_checkpoints)
        # Waypoints are marks of no length: reached by ending a move on the point.
        waypoints = tuple(Line(w, w, (0, 0)) for w in track.waypoints)
        if waypoints and not checkpoints and track.finish is None \
                and track.finish_area is None:
            waypoints = waypoints[-1:]  # only the last one, the finish, counts
        elif waypoints and not checkpoints:
            waypoints = ()
        # -- area progress (racetrack.board.areas): marks of no length off the lattice --
        x0, y0, _, _ = sheet_of(track)
        start = track.start if track.start is not None else \
            Line((x0 - 0.5, y0 - 0.5), (x0 - 0.5, y0 - 0.5), (0, 0))
        self.finish_area_mark: Line | None = None
        if track.finish_area is not None:
            self.finish_area_mark = Line((x0 - 0.25, y0 - 0.5), (x0 - 0.25, y0 - 0.5), (0, 0))
        # --
        finish = (track.finish,) if track.finish is not None else \
            (self.finish_area_mark,) if self.finish_area_mark is not None else () \
            if waypoints else (track.start,)
        per_lap = (*used_checkpoints, *waypoints, *finish)
        self.lines: tuple[Line, ...] = (start, *per_lap * self.laps)
        drawn = list(dict.fromkeys([start, *used_checkpoints, *waypoints, *finish]))
        # The identity of each listed line among the lines actually drawn.
        self.line_ids = np.array([drawn.index(line) for line in self.lines], dtype=np.int64)
        self._n_drawn = len(drawn)
        self._a = np.array([line.a for line in self.lines], dtype=float)
        self._b = np.array([line.b for line in self.lines], dtype=float)
        self._forward = np.array([line.forward for line in self.lines], dtype=float)
        self.is_point = np.array([line.a == line.b for line in self.lines], dtype=bool)
        # Stand-ins so the crossing tests never see a line of no length.
        self._a[self.is_point] = (0.0, 0.0)
        self._b[self.is_point] = (1.0, 0.0)
        self._forward[self.is_point] = (0.0, 1.0)
        self._point = np.array([line.a for line in self.lines], dtype=float)
        # Which side a point on a line counts as: its forward side ("a move that ends on the
        # line has reached it"), but one side for every checkpoint on the start line's straight
        # line. Rule 6's checkpoints there point the other way, and a car moving along that
        # straight line would otherwise be past the checkpoint and past the start at once: it
        # could pass a checkpoint, ride the line back to the finish and step over it. A finish
        # of its own is left out: the race ends there, so nothing is ridden past it, and a
        # course that comes back to finish on the start's straight line (a U) is finished by a
        # move that ends on its finish line, as on any other.
        self._tie = np.array([-1 if track.start is not None and line != track.finish
                              and _opposite_on_line(line, track.start) else 1
                              for line in self.lines], dtype=np.int8)
        self._side = self._forward * self._tie[:, None]
        # Each drawn line's continuations (two at most), for going round its ends; on a course
        # from a start to a finish, gates that stop short of the walls have none there.
        reaches = continuations(drawn, surface, sheet_of(track),
                                [track.is_circuit or line == start for line in drawn])
        self._reach = np.zeros((len(self.lines), 2, 2, 2), dtype=float)
        self._reach[..., 1, 0] = 1.0  # stand-ins of unit length where a line has none
        self._reach_ok = np.zeros((len(self.lines), 2), dtype=bool)
        for k, drawn_id in enumerate(self.line_ids):
            for j, (a, b) in enumerate(reaches[drawn_id]):
                self._reach[k, j] = (a, b)
                self._reach_ok[k, j] = True
        self.surface = Region(surface)
        self._regions: dict[tuple[bool, bool], Region] = {}
        self._derived: dict[object, object] = {}
        self._lock = threading.Lock()

    @classmethod
    def of(cls, track: Track, laps: int | None = None, checkpoints: bool = True,
           start_line_checkpoints: bool = False) -> Course:
        """The course for a track, laps and checkpoint rules, shared with every other caller
        that asks for the same (built on first use; a few are kept)."""
        key = (track, laps, checkpoints, start_line_checkpoints)
        with _courses_lock:
            if key in _courses:
                _courses.move_to_end(key)
                return _courses[key]
        course = cls(track, laps, checkpoints, start_line_checkpoints)
        with _courses_lock:
            course = _courses.setdefault(key, course)
            while len(_courses) > KEEP_COURSES:
                _courses.popitem(last=False)
        return course

    @classmethod
    def for_rules(cls, track: Track, rules: RuleSet) -> Course:
        """The shared course a rule set races on a track: its laps, whether the track's
        checkpoints count, and Levi's rule-6 checkpoints where it asks for them."""
        return cls.of(track, rules.laps, rules.checkpoints == "in-order",
                      rules.start_line_checkpoints == "overlaps")

    def derived(self, key: object) -> object | None:
        """Something worked out once for this course (a transition, a field), or ``None``."""
        return self._derived.get(key)

    def remember(self, key: object, value: object) -> object:
        """Keep ``value`` under ``key`` unless another thread got there first; return the kept
        one."""
        with self._lock:
            return self._derived.setdefault(key, value)

    # -- lines and progress -------------------------------------------------------------------

    @property
    def goal(self) -> int:
        """The progress of a car that has finished: every listed line passed."""
        return len(self.lines)

    @property
    def start_progress(self) -> int:
        return 1

    def lines_per_lap(self) -> int:
        return (self.goal - 1) // self.laps

    def lap_and_checkpoint(self, progress: int) -> tuple[int, int]:
        """(laps completed, checkpoints passed in the current lap) for a progress value."""
        passed = max(progress - 1, 0)
        return divmod(passed, self.lines_per_lap())

    def next_line(self, progress: int) -> Line | None:
        return self.lines[progress] if progress < self.goal else None

    def advance(self, progress: np.ndarray | int, starts: np.ndarray,
                ends: np.ndarray, reach_points: bool = True,
                round_ends: bool = False, cap: np.ndarray | int | None = None) -> np.ndarray:
        """New progress after each move p→q, from the progress before it (batched).

        ``reach_points=False`` is for a car put back after a crash: it may pass lines on the
        way, but it reaches no waypoint, which only the end of a move of its own does.

        ``round_ends=True`` is for a car off the track that must come back behind where it
        left (Nystrom's detour): going round a line's end forwards passes it, as going round
        it backwards un-passes it; ``cap`` is then the most progress it may reach (the lines
        it had when it left)."""
        p, q = as_array(starts), as_array(ends)
        n = len(p)
        prog = np.broadcast_to(np.asarray(progress, dtype=np.int64), (n,)).copy()
        top = np.broadcast_to(np.asarray(self.goal if cap is None else cap, dtype=np.int64),
                              (n,))
        used = np.zeros((n, self._n_drawn), dtype=bool)
        last = self.goal - 1
        active = np.arange(n)
        for _ in range(2 * self.goal + 1):
            if not len(active):
                break
            # Only moves that changed their progress last time can change it again.
            now, pa, qa = prog[active], p[active], q[active]
            ahead = np.minimum(now, last)
            forwards = self._tie[ahead] * line_crossings(self._a[ahead], self._b[ahead],
                                                         self._side[ahead], pa, qa)
            if round_ends:  # forwards round either end of the line too
                for j in range(2):
                    ok = self._reach_ok[ahead, j]
                    if ok.any():
                        reach = self._reach[ahead, j]
                        round_end = self._tie[ahead] * line_crossings(
                            reach[:, 0], reach[:, 1], self._side[ahead], pa, qa)
                        forwards = np.where(ok & (round_end > 0), 1, forwards)
            reached = (qa == self._point[ahead]).all(axis=1) & reach_points
            forwards = np.where(self.is_point[ahead], reached, forwards > 0)
            ahead_id = self.line_ids[ahead]
            go = (now < self.goal) & forwards & ~used[active, ahead_id] & (now < top[active])
            behind = np.maximum(now - 1, 0)
            tie = self._tie[behind]
            backwards = tie * line_crossings(self._a[behind], self._b[behind],
                                             self._side[behind], pa, qa)
            for j in range(2):  # going back round either end of the line un-passes it too
                ok = self._reach_ok[behind, j]
                if ok.any():
                    reach = self._reach[behind, j]
                    round_end = tie * line_crossings(reach[:, 0], reach[:, 1],
                                                     self._side[behind], pa, qa)
                    backwards = np.where(ok & (round_end < 0), -1, backwards)
            behind_id = self.line_ids[behind]
            back = (now > 0) & (backwards < 0) & ~self.is_point[behind] \
                & ~used[active, behind_id] & ~go
            used[active[go], ahead_id[go]] = True
            used[active[back], behind_id[back]] = True
            prog[active] += go.astype(np.int64) - back.astype(np.int64)
            active = active[go | back]
        return prog

    def advance_one(self, progress: int, start: Vec, end: Vec, reach_points: bool = True,
                    round_ends: bool = False, cap: int | None = None) -> int:
        """``advance`` for one move, in plain Python: the same answer without numpy's cost
        per call, which is most of the time a single move takes."""
        p = (float(start[0]), float(start[1]))
        q = (float(end[0]), float(end[1]))
        x0, x1 = min(p[0], q[0]), max(p[0], q[0])
        y0, y1 = min(p[1], q[1]), max(p[1], q[1])
        progress = int(progress)
        near = False
        ahead_boxes = self._scalar_boxes[1 if round_ends else 0]
        for line, boxes in ((min(progress, self.goal - 1), ahead_boxes),
                            (max(progress - 1, 0), self._scalar_boxes[1])):
            (lx, ly), (hx, hy) = boxes[line]
            near = near or (x1 >= lx and x0 <= hx and y1 >= ly and y0 <= hy)
        return self._advance_scalar(progress, p, q, reach_points, round_ends, cap) if near \
            else progress

    @cached_property
    def _scalar_lines(self) -> list[tuple]:
        """Per listed line, as plain tuples: its ends, the side a point on it counts as and
        the sign that turns crossings of that side into crossings of its arrow, its point,
        whether it is a point, its drawn identity and its continuations round its ends."""
        return [(tuple(self._a[k]), tuple(self._b[k]), tuple(self._side[k]), int(self._tie[k]),
                 tuple(self._point[k]), bool(self.is_point[k]), int(self.line_ids[k]),
                 tuple((tuple(self._reach[k, j, 0]), tuple(self._reach[k, j, 1]))
                       for j in range(2) if self._reach_ok[k, j]))
                for k in range(len(self.lines))]

    @cached_property
    def _scalar_boxes(self) -> tuple[list, list]:
        """``_boxes`` and ``_behind_boxes`` as lists of plain ((lo x, lo y), (hi x, hi y))."""
        return tuple([(tuple(lo[k]), tuple(hi[k])) for k in range(len(self.lines))]
                     for lo, hi in (self._boxes, self._behind_boxes))

    def _advance_scalar(self, progress: int, p: tuple[float, float], q: tuple[float, float],
                        reach_points: bool, round_ends: bool = False,
                        cap: int | None = None) -> int:
        """``advance``'s loop for one move (kept step for step the same)."""
        lines = self._scalar_lines
        goal, last = self.goal, self.goal - 1
        top = goal if cap is None else cap
        used: set[int] = set()
        for _ in range(2 * goal + 1):
            a, b, side, tie, point, is_point, ahead_id, ahead_reaches = lines[min(progress, last)]
            if is_point:
                forwards = reach_points and q == point
            else:
                forwards = tie * line_crossing(a, b, side, p, q) > 0 or (round_ends and any(
                    tie * line_crossing(ra, rb, side, p, q) > 0 for ra, rb in ahead_reaches))
            go = progress < goal and forwards and ahead_id not in used and progress < top
            a, b, side, tie, _, is_point, behind_id, reaches = lines[max(progress - 1, 0)]
            back = False
            if progress > 0 and not is_point and behind_id not in used and not go:
                back = tie * line_crossing(a, b, side, p, q) < 0 or any(
                    tie * line_crossing(ra, rb, side, p, q) < 0 for ra, rb in reaches)
            if go:
                used.add(ahead_id)
                progress += 1
            elif back:
                used.add(behind_id)
                progress -= 1
            else:
                break
        return progress

    def progress_after(self, progress: np.ndarray, px: np.ndarray, py: np.ndarray,
                       qx: np.ndarray, qy: np.ndarray, reach_points: bool = True,
                       round_ends: bool = False, cap: np.ndarray | None = None) -> np.ndarray:
        """``advance`` for lattice moves p→q, with a fast path: a move whose box meets neither
        the box of the line ahead of it nor that of the line behind keeps its progress, so only
        the moves near those lines are tested (in the compiled kernel where it is built)."""
        progress = np.asarray(progress)
        px, py, qx, qy = (np.asarray(v) for v in (px, py, qx, qy))
        compiled = self.compiled_lines
        if compiled is not None and progress.ndim == 1:
            return compiled.progress_after(progress, px, py, qx, qy, reach_points, round_ends,
                                           cap)
        if cap is not None:
            cap = np.broadcast_to(np.asarray(cap), progress.shape)
        x0, x1 = np.minimum(px, qx), np.maximum(px, qx)
        y0, y1 = np.minimum(py, qy), np.maximum(py, qy)
        near = np.zeros(len(px), dtype=bool)
        ahead_boxes = self._behind_boxes if round_ends else self._boxes
        for line, (lo, hi) in ((np.minimum(progress, self.goal - 1), ahead_boxes),
                               (np.maximum(progress - 1, 0), self._behind_boxes)):
            near |= (x1 >= lo[line, 0]) & (x0 <= hi[line, 0]) & (y1 >= lo[line, 1]) \
                & (y0 <= hi[line, 1])
        result = progress.astype(np.int32, copy=True)
        rows = np.flatnonzero(near)
        if 0 < len(rows) <= SCALAR_ROWS:
            for row in rows.tolist():
                result[row] = self._advance_scalar(int(progress[row]),
                                                   (float(px[row]), float(py[row])),
                                                   (float(qx[row]), float(qy[row])),
                                                   reach_points, round_ends,
                                                   None if cap is None else int(cap[row]))
        elif len(rows):
            starts = np.column_stack([px[rows], py[rows]]).astype(float)
            ends = np.column_stack([qx[rows], qy[rows]]).astype(float)
            result[rows] = self.advance(progress[rows], starts, ends, reach_points, round_ends,
                                        None if cap is None else np.asarray(cap)[rows])
        return result

    @cached_property
    def compiled_lines(self) -> kernel.CourseLines | None:
        """The lines as the compiled kernel follows progress over them (``None`` where it is
        not built or the course has more lines than it follows)."""
        return kernel.CourseLines.of(self)

    @cached_property
    def _boxes(self) -> tuple[np.ndarray, np.ndarray]:
        """The box around each listed line (a mark's box is its point), widened by
        ``_box_slack``."""
        a = np.array([line.a for line in self.lines], dtype=float)
        b = np.array([line.b for line in self.lines], dtype=float)
        return np.minimum(a, b) - self._box_slack, np.maximum(a, b) + self._box_slack

    @cached_property
    def _behind_boxes(self) -> tuple[np.ndarray, np.ndarray]:
        """The box around each listed line with its continuations: where a move may cross it
        backwards."""
        lo, hi = self._boxes
        ends = np.where(self._reach_ok[:, :, None, None], self._reach,
                        np.stack([lo, lo], axis=1)[:, :, None, :])
        return (np.minimum(lo, ends.min(axis=(1, 2)) - self._box_slack),
                np.maximum(hi, ends.max(axis=(1, 2)) + self._box_slack))

    @cached_property
    def _box_slack(self) -> float:
        """How far outside a line's box a move may lie and still touch it: the crossing tests
        count an orientation within ``ORIENTATION_TOLERANCE`` of the squared lengths as on the
        line, so a line's end a hair short of a lattice point (a continuation stopped just
        before the track) still meets a move from that point. The boxes only spare moves the
        full test, so they must be no stricter than it: the slack covers the longest move and
        line on the sheet."""
        x0, y0, x1, y1 = self.sheet
        span = 2.0 * ((x1 - x0) + (y1 - y0)) + 20.0
        return 2.0 * ORIENTATION_TOLERANCE * (span * span + 1.0)

    @property
    def area_marks(self):
        """The finish area and every checkpoint area (``racetrack.board.areas.AreaMarks``)."""
        return marks_for(self)

    @property
    def finish_mark(self) -> Line:
        """The last mark of the race: the finish line, or a waypoint (a line of no length)."""
        return self.lines[-1]

    def finish_fraction(self, start: Vec, end: Vec) -> float:
        """Where along the finishing move p→q it meets the finish line, from 0 to 1."""
        if self.finish_area_mark is not None:
            return self.area_marks.entry_fraction(start, end)
        if self.is_point[-1]:
            return 1.0  # a waypoint is reached at the end of the move
        value = self.finish_mark.crossing_fraction(np.array([start]), np.array([end]))[0]
        return 0.0 if math.isnan(value) else float(value)

    def distance_past_finish(self, point: Vec) -> float:
        """How far ``point`` lies beyond the finish line (negative: short of it); 0 for a
        finish area, which has no side to be beyond (a tie then goes by where the finishing
        move met it)."""
        if self.finish_area_mark is not None:
            return 0.0
        if self.is_point[-1]:
            return -math.dist(point, self.finish_mark.a)
        return float(self.finish_mark.distance_past(np.array([point]))[0])

    # -- places ---------------------------------------------------------------------------

    @cached_property
    def start_positions(self) -> tuple[Vec, ...]:
        return tuple(self.track.start_positions())

    @cached_property
    def sheet(self) -> tuple[int, int, int, int]:
        """The paper: the outline's bounds widened by a margin, as whole lattice coordinates."""
        return sheet_of(self.track)

    def on_sheet(self, points: np.ndarray) -> np.ndarray:
        pts = as_array(points)
        x0, y0, x1, y1 = self.sheet
        return (pts[:, 0] >= x0) & (pts[:, 0] <= x1) & (pts[:, 1] >= y0) & (pts[:, 1] <= y1)

    # -- zones ----------------------------------------------------------------------------

    def zones(self, kind: str) -> list[BaseGeometry]:
        """The prepared polygons of every zone of one kind (``oil``, ``jump``, ...)."""
        return self._zone_geometries.get(kind, [])

    @cached_property
    def _zone_geometries(self) -> dict[str, list[BaseGeometry]]:
        found: dict[str, list[BaseGeometry]] = {}
        for zone in self.track.zones:
            found.setdefault(zone.kind, []).append(prepared(zone.geometry()))
        return found

    def in_zones(self, kind: str, points: np.ndarray) -> np.ndarray:
        """Per point: inside (or on the edge of) any zone of ``kind``."""
        import shapely

        pts = shapely.points(as_array(points))
        found = np.zeros(len(pts), dtype=bool)
        for zone in self.zones(kind):
            found |= shapely.covers(zone, pts)
        return found

    def region(self, without_water: bool = False, with_jumps: bool = False) -> Region:
        """The area a move's segment must stay on.

        ``without_water`` takes water zones away (for cars that cannot swim); ``with_jumps``
        adds the jump zones, over which a car flies whatever lies beneath.
        """
        key = (without_water and bool(self.zones("water")), with_jumps and bool(self.zones("jump")))
        if key == (False, False):
            return self.surface
        if key not in self._regions:
            shape = self.surface.geometry
            if key[0]:
                shape = shape.difference(unary_union(self.zones("water")))
            if key[1]:
                shape = unary_union([shape, *self.zones("jump")])
            self._regions[key] = Region(shape)
        return self._regions[key]
