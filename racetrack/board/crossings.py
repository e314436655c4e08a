"""A drawn line's whole straight line across the paper: what going round its end means.

A start, finish or checkpoint line is drawn across the track and stops at its walls (or just
beyond them). Off the track, where some rules let a car drive or crawl, nothing is drawn, so
a car could go round the end of a line instead of over it. Two things here close that gap:

- ``overlap_gates``: Levi's rule 6, "Checkpoints should be drawn across the track on the same
  line as the start/finish line where the track overlaps the line. All of these checkpoints
  must be crossed in order to win." The start line's straight line is followed across the
  paper; every other stretch of it that lies on the track is a checkpoint, ordered and
  directed by the way round the course (the track cut along that straight line falls into
  pieces, and the pieces lead from the start line's forward side round to its back).
- ``continuations``: a line, for going round its end, reaches on along its straight line over
  everything that is not track (and over the track left between its end and a wall, where a
  line stops short) until it meets the track again or the edge of the paper. Where it meets
  another drawn line of the same straight line (a rule-6 checkpoint), each reaches over the
  whole ground between the two. Progress counts a move over a line's continuation as
  crossing the line *backwards* only (``racetrack.board.course``): going round a line's end never
  passes it, and going back round it un-passes it. On a course from a start to a finish, a
  checkpoint (or the finish) that stops short of the walls reaches on from that end not at
  all: it is a gate, passed through its drawn length, and going round it there, either way,
  is driving past it (Singleton: "Cars must pass through the gates in numerical order"; a
  gate course that doubles back over a gate's straight line must stay drivable). Only the
  lap needs the rest: a circuit's start line is crossed again as its finish, and its start
  line and checkpoints must not be gone round behind; a start line is passed without being
  crossed, so it reaches on from both ends on every course.

Geometry in lattice units, worked out once per course with shapely.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Sequence

import shapely
from shapely.geometry import LineString, Point, Polygon, box
from shapely.ops import split

from racetrack.board.geometry import Line

#: How far off a line a point is taken to tell its two sides apart (lattice units).
SIDE_STEP = 1e-3
#: Stretches shorter than this are rounding, not track.
TINY = 1e-9
#: How far short of the track a continuation stops where it meets the track again: a move
#: along that wall touches the continued line's last point on the track's side, and that is
#: driving round the course, not going round the end of the line. Far below the least gap
#: between a lattice move's crossing and that point on any track of sane size.
SHORT_OF_TRACK = 1e-7

Segment = tuple[tuple[float, float], tuple[float, float]]
Sheet = tuple[float, float, float, float]


def _unit(line: Line) -> tuple[tuple[float, float], float]:
    (ax, ay), (bx, by) = line.a, line.b
    length = math.hypot(bx - ax, by - ay)
    return ((bx - ax) / length, (by - ay) / length), length


def _along(line: Line, sheet: Sheet) -> tuple[float, float]:
    """The stretch of ``line``'s straight line inside the sheet, as parameters ``t`` of the
    points ``a + t u`` (``u`` the unit vector from a to b)."""
    (ux, uy), _ = _unit(line)
    ax, ay = line.a
    x0, y0, x1, y1 = sheet
    reach = math.hypot(x1 - x0, y1 - y0) + math.hypot(ax - x0, ay - y0)
    far = LineString([(ax - reach * ux, ay - reach * uy), (ax + reach * ux, ay + reach * uy)])
    inside = far.intersection(box(*sheet))
    if inside.is_empty or inside.length <= TINY:
        return 0.0, 0.0
    ts = [(x - ax) * ux + (y - ay) * uy for x, y in inside.coords]
    return min(ts), max(ts)


def _point(line: Line, t: float) -> tuple[float, float]:
    (ux, uy), _ = _unit(line)
    return line.a[0] + t * ux, line.a[1] + t * uy


def track_stretches(line: Line, surface: Polygon, sheet: Sheet) -> list[tuple[float, float]]:
    """The stretches of ``line``'s straight line that lie on the track, as sorted, merged
    parameter intervals (see ``_along``)."""
    lo, hi = _along(line, sheet)
    if hi - lo <= TINY:
        return []
    whole = LineString([_point(line, lo), _point(line, hi)])
    on = whole.intersection(surface)
    (ux, uy), _ = _unit(line)
    ax, ay = line.a
    found = []
    for part in getattr(on, "geoms", [on]):
        if part.is_empty or part.geom_type not in ("LineString", "LinearRing") \
                or part.length <= TINY:
            continue
        ts = [(x - ax) * ux + (y - ay) * uy for x, y in part.coords]
        found.append((min(ts), max(ts)))
    found.sort()
    merged: list[list[float]] = []
    for start, end in found:
        if merged and start <= merged[-1][1] + TINY:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return [(a, b) for a, b in merged]


def continuations(lines: Sequence[Line], surface: Polygon, sheet: Sheet,
                  over_track: Sequence[bool] | None = None) -> list[list[Segment]]:
    """For each line (of some length), the stretches its straight line reaches on beyond its
    two ends for going round them: over the track up to its wall where the line stops short,
    then over what is not track up to the track again (just short of it, also where another
    of ``lines`` is drawn over it) or the edge of the sheet. A line whose ``over_track`` is
    false (a gate: a checkpoint or finish of a course from a start to a finish) reaches on
    only from an end that meets a wall, over what is not track beyond it."""
    result: list[list[Segment]] = []
    for k, line in enumerate(lines):
        if line.a == line.b:
            result.append([])
            continue
        _, length = _unit(line)
        lo, hi = _along(line, sheet)
        stretches = track_stretches(line, surface, sheet)
        segments = []
        for end, sign in ((length, 1), (0.0, -1)):
            t = end
            # Over the track left between the line's end and the wall.
            for a, b in stretches:
                if a - TINY <= t <= b + TINY:
                    t = b if sign > 0 else a
            if over_track is not None and not over_track[k] and abs(t - end) > TINY:
                continue  # a gate that stops short of the wall: going round it is driving
            # Over what is not track, to the next stretch of track or the sheet's edge.
            ahead = [a if sign > 0 else b for a, b in stretches
                     if (a > t + TINY if sign > 0 else b < t - TINY)]
            stop = (min(ahead) if sign > 0 else max(ahead)) if ahead else (hi if sign > 0
                                                                            else lo)
            if ahead:
                # Up to the track, even where another line is drawn over it (a rule-6
                # checkpoint): a car that has passed that line and goes back behind it over
                # this gap must un-pass it, and one that has passed this line and goes back
                # over the gap must un-pass this one; split between the two, the gap would
                # let a car round the end of each through the other's half.
                stop -= sign * SHORT_OF_TRACK
            if abs(stop - end) > TINY:
                segments.append((_point(line, end), _point(line, stop)))
        result.append(segments)
    return result


def overlap_gates(start: Line, surface: Polygon, sheet: Sheet,
                  checkpoints: Sequence[Line] = ()) -> tuple[Line, ...]:
    """Levi's rule 6 for a circuit: a checkpoint on every other stretch of track the start
    line's straight line runs over, in the order a lap meets them and pointing the way it
    crosses them, merged in among the track's own ``checkpoints`` (which keep their order).

    The track cut along the start line's straight line falls into pieces; a lap leaves the
    start line into the piece on its forward side and must come back into the piece behind
    it, over the stretches that join the pieces on the way (the fewest, where there is a
    choice). Stretches off that way (a spur the line cuts off) are not checkpoints. A track
    the cut does not split (no second stretch) has none, and nor has one where a lap could
    come round over other stretches (a figure of eight): its own checkpoints must say."""
    if start.a == start.b:
        return tuple(checkpoints)
    stretches = track_stretches(start, surface, sheet)
    _, length = _unit(start)
    own = [s for s in stretches if s[0] <= length + TINY and s[1] >= -TINY]
    gates = [s for s in stretches if s not in own]
    if not gates or not own:
        return tuple(checkpoints)
    lo, hi = _along(start, sheet)
    pieces = list(getattr(split(surface, LineString([_point(start, lo), _point(start, hi)])),
                          "geoms", []))
    for piece in pieces:
        shapely.prepare(piece)

    def piece_at(x: float, y: float) -> int:
        where = Point(x, y)
        return next((i for i, p in enumerate(pieces) if p.contains(where)), -1)

    (ux, uy), _ = _unit(start)
    normal = (-uy, ux)
    if normal[0] * start.forward[0] + normal[1] * start.forward[1] < 0:
        normal = (uy, -ux)

    def sides(stretch: tuple[float, float]) -> tuple[int, int]:
        mx, my = _point(start, (stretch[0] + stretch[1]) / 2)
        return (piece_at(mx - SIDE_STEP * normal[0], my - SIDE_STEP * normal[1]),
                piece_at(mx + SIDE_STEP * normal[0], my + SIDE_STEP * normal[1]))

    behind, ahead = sides(own[0])
    if behind < 0 or ahead < 0 or behind == ahead:
        return tuple(checkpoints)
    # The fewest gates from the piece ahead of the start line round to the piece behind it.
    links: dict[int, list[tuple[int, int, int]]] = {}
    for g, stretch in enumerate(gates):
        left, right = sides(stretch)
        if left >= 0 and right >= 0 and left != right:
            links.setdefault(left, []).append((right, g, 1))   # crossed along ``normal``
            links.setdefault(right, []).append((left, g, -1))  # crossed against it
    came = _ways(links, ahead)
    if behind not in came:
        return tuple(checkpoints)
    path: list[tuple[int, int, int]] = []  # (piece before the gate, gate, sign)
    here = behind
    while came[here] is not None:
        before, g, sign = came[here]  # type: ignore[misc]
        path.append((before, g, sign))
        here = before
    path.reverse()
    if any(behind in _ways(links, ahead, without=g) for _, g, _ in path):
        # Another way round over other stretches (a course that crosses itself, as a figure
        # of eight does at its crossroads): the geometry alone does not say which stretches
        # a lap crosses, in what order or which way, so the track's own checkpoints stand.
        return tuple(checkpoints)
    order = [ahead] + [came_to for came_to in _pieces_after(path, came)]
    made = []
    for _, g, sign in path:
        a, b = gates[g]
        made.append(Line(_point(start, a), _point(start, b),
                         (sign * normal[0] + 0.0, sign * normal[1] + 0.0)))
    # The track's own checkpoints keep their order; each gate goes before the first of them
    # that lies beyond it on the way round.
    merged: list[Line] = []
    placed = 0
    for checkpoint in checkpoints:
        mx, my = ((checkpoint.a[0] + checkpoint.b[0]) / 2,
                  (checkpoint.a[1] + checkpoint.b[1]) / 2)
        at = piece_at(mx, my)
        step = order.index(at) if at in order else placed
        while placed < step and placed < len(made):
            merged.append(made[placed])
            placed += 1
        merged.append(checkpoint)
    return (*merged, *made[placed:])


def _ways(links: dict[int, list[tuple[int, int, int]]], ahead: int,
          without: int | None = None) -> dict[int, tuple[int, int, int] | None]:
    """Breadth first from the piece ``ahead`` over the gates (but gate ``without``): how each
    piece reached was first come to (piece before, gate, sign)."""
    came: dict[int, tuple[int, int, int] | None] = {ahead: None}
    queue = deque([ahead])
    while queue:
        here = queue.popleft()
        for there, g, sign in links.get(here, []):
            if g != without and there not in came:
                came[there] = (here, g, sign)
                queue.append(there)
    return came


def _pieces_after(path: list[tuple[int, int, int]],
                  came: dict[int, tuple[int, int, int] | None]) -> list[int]:
    """The piece each gate of ``path`` leads into, in order."""
    after = {(before, g): piece for piece, link in came.items() if link is not None
             for before, g, _ in [link]}
    return [after[(before, g)] for before, g, _ in path]
