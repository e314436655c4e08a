"""The road tool: a centreline and a width become the track's outline and infield.

A designer clicks a handful of points (or drags freehand) along where the road should run; the
line is smoothed through them (a Catmull-Rom spline, so a few clicks make a flowing curve) and
widened with shapely's ``buffer``. A closed centreline makes a circuit: an outline with the
infield as a hole. An open one makes a point-to-point road with a run-off past the finish. The
start line goes across the road at the first point (or, when that is a corner, on the
straight stretch nearest it), its ends on lattice points and its arrow along the way the line
was drawn; an open road gets its finish at the last point.

Outlines are kept to a tenth of a square (``set_precision`` keeps them valid while rounding),
so the file stays readable and every corner can be dragged afterwards like any other.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry import LinearRing, LineString, MultiPolygon, Polygon

from racetrack.board.geometry import Coord, Line
from racetrack.editing.checks import places_on

#: The narrowest and widest roads the tool draws, in squares.
MIN_WIDTH = 2.0
MAX_WIDTH = 30.0
DEFAULT_WIDTH = 5.0
#: Corners of the outline are kept to this grid, in squares.
PRECISION = 0.1
#: How closely the smoothed line follows the freehand stroke before smoothing, in squares.
FREEHAND_TOLERANCE = 0.45
#: Spacing of the points along the smoothed centreline, in squares.
STEP = 0.5
#: The most a start or finish line may lean off square to the road (the sine of about 27°).
MAX_SKEW = 0.45
#: An open road goes on this far behind its start line, and at least this far past its finish.
RUN_IN = 1.0
RUN_OFF = 3.0
#: The most a road may turn near its start line (radians, about 25°). Measured on circuits
#: drawn with corners of every sharpness and widths of 3 to 8: a start on a rounded square
#: corner of a narrow road already strands a car in the infield's corner.
STRAIGHT_ENOUGH = 0.45
#: Infield pieces smaller than this (in square squares) are slivers of the buffer, not holes.
MIN_HOLE_AREA = 1.0


class RoadError(ValueError):
    """The road cannot be built as drawn; the message says why in plain words."""


@dataclass(frozen=True)
class Road:
    """A built road: the track's outline and holes, its start line and (open roads) finish."""

    outer: tuple[Coord, ...]
    holes: tuple[tuple[Coord, ...], ...]
    start: Line
    finish: Line | None
    centreline: tuple[Coord, ...]
    start_at_first: bool = True  # False: moved along to a stretch where every car can start


def smooth(points: Sequence[Coord], closed: bool, step: float = STEP) -> list[Coord]:
    """A Catmull-Rom curve through the points, sampled about every ``step`` squares."""
    pts = _distinct(points)
    if closed and len(pts) > 2 and pts[0] == pts[-1]:
        pts = pts[:-1]
    if len(pts) < 3:
        return list(pts)
    n = len(pts)
    curve: list[Coord] = []
    segments = n if closed else n - 1
    for i in range(segments):
        p0 = pts[(i - 1) % n] if closed else pts[max(i - 1, 0)]
        p1, p2 = pts[i], pts[(i + 1) % n]
        p3 = pts[(i + 2) % n] if closed else pts[min(i + 2, n - 1)]
        count = max(2, math.ceil(math.dist(p1, p2) / step))
        for k in range(count):
            curve.append(_catmull_rom(p0, p1, p2, p3, k / count))
    if not closed:
        curve.append(pts[-1])
    return curve


def simplify_stroke(points: Sequence[Coord], tolerance: float = FREEHAND_TOLERANCE) -> list[Coord]:
    """The few points that carry a freehand stroke's shape (Douglas-Peucker), shaking out the
    hand's jitter before the curve is smoothed through them."""
    pts = _distinct(points)
    if len(pts) < 3:
        return pts
    line = LineString(pts).simplify(tolerance, preserve_topology=False)
    return [(x, y) for x, y in line.coords]


def is_closing(points: Sequence[Coord], width: float) -> bool:
    """Whether a freehand stroke ends back where it began (then it is a circuit)."""
    return len(points) > 3 and _length(points) > 3 * width and \
        math.dist(points[0], points[-1]) <= max(width / 2, 1.5)


def build_road(points: Sequence[Coord], width: float, closed: bool,
               freehand: bool = False) -> Road:
    """The track surface along a centreline through ``points``, ``width`` squares wide, with
    its start line (and an open road's finish)."""
    outer, holes, centre = road_surface(points, width, closed, freehand)
    half = min(MAX_WIDTH, max(MIN_WIDTH, width)) / 2
    track = Polygon(outer, holes)
    run_in, run_off = (0.0, 0.0) if closed else (RUN_IN, max(RUN_OFF, half))
    start, at_first = start_line(centre, closed, _index_at(centre, run_in), half, track)
    finish = None if closed else line_across(
        centre, _index_at(centre, _length(centre) - run_off), half, track)
    return Road(outer, holes, start, finish, tuple(centre), at_first)


def start_line(centre: Sequence[Coord], closed: bool, first: int, half: float,
               surface: Polygon) -> tuple[Line, bool]:
    """The start line nearest the centreline's point ``first`` where the road runs straight
    for a car length or two each side, and whether that is ``first`` itself.

    On a corner the line across the road runs along the bisector into the infield's point:
    its places sit in the corner, where a car cannot get going (or the line meets the road
    twice), and a car starting there may never finish. So the line goes to the nearest
    stretch (either way round a circuit, onwards on an open road) whose direction turns less
    than ``STRAIGHT_ENOUGH`` within ``half`` + 2 squares of it; on a road with none, to the
    straightest place, the nearest of those."""
    count = len(centre) if closed else len(centre) - 1
    if count < 2:
        return line_across(centre, first, half, surface), True
    turning = _turning(centre, closed, half + 2.0)
    ring = (LinearRing if closed else LineString)(centre)
    order = _nearest_first(first, count, closed)
    fallback: tuple[float, int, Line] | None = None
    for index in order:
        straight = turning[index] <= STRAIGHT_ENOUGH
        if not straight and fallback is not None and turning[index] >= fallback[0]:
            continue
        try:
            line = _line_at(centre, closed, index, half, surface)
        except RoadError:
            continue
        meets = shapely.intersection(LineString([line.a, line.b]), ring)
        if shapely.get_num_geometries(meets) != 1:
            continue  # it reaches across to another stretch of road
        if straight:
            return line, index == first
        if fallback is None or turning[index] < fallback[0]:
            fallback = (turning[index], index, line)
    if fallback is None:
        return line_across(centre, first, half, surface), True
    return fallback[2], fallback[1] == first


def _line_at(centre: Sequence[Coord], closed: bool, index: int, half: float,
             surface: Polygon) -> Line:
    """The line across the road at a centreline point (a circuit's read from that point on,
    so the way ahead wraps round)."""
    if closed:
        return line_across([*centre[index:], *centre[:index]], 0, half, surface)
    return line_across(centre, index, half, surface)


def _nearest_first(first: int, count: int, closed: bool) -> list[int]:
    """The centreline's points by distance from ``first``: either way round a circuit,
    onwards (up to half way) on an open road."""
    if not closed:
        return list(range(first, max(first + 1, count // 2)))
    order = [first]
    for k in range(1, count // 2 + 1):
        order += [(first + k) % count, (first - k) % count]
    return list(dict.fromkeys(order))


def _turning(centre: Sequence[Coord], closed: bool, reach: float) -> list[float]:
    """For each centreline point, the most the road's direction differs from its direction
    there within ``reach`` squares along it, either way (radians)."""
    points = np.asarray(centre, dtype=float)
    ahead = np.roll(points, -1, axis=0) if closed else points[1:]
    steps = ahead - points[:len(ahead)]
    lengths = np.hypot(steps[:, 0], steps[:, 1])
    angles = np.arctan2(steps[:, 1], steps[:, 0])
    count = len(steps)
    span = max(1, math.ceil(reach / max(float(np.median(lengths)), 1e-6)))
    found = []
    for i in range(count):
        window = np.arange(i - span, i + span + 1)
        window = window % count if closed else window[(window >= 0) & (window < count)]
        differences = np.abs((angles[window] - angles[i] + math.pi) % (2 * math.pi) - math.pi)
        found.append(float(differences.max()))
    return found


def road_surface(points: Sequence[Coord], width: float, closed: bool, freehand: bool = False,
                 ) -> tuple[tuple[Coord, ...], tuple[tuple[Coord, ...], ...], list[Coord]]:
    """The outline and holes of a road along a centreline through ``points``, and the smoothed
    centreline itself (an open one drawn on a little before the start and past the finish)."""
    half = min(MAX_WIDTH, max(MIN_WIDTH, width)) / 2
    control = simplify_stroke(points) if freehand else _distinct(points)
    if closed and len(control) > 3 and math.dist(control[0], control[-1]) < 1e-9:
        control = control[:-1]
    if len(control) < (3 if closed else 2):
        raise RoadError("A road needs at least two points (three for a circuit)")
    centre = smooth(control, closed)
    if closed:
        surface = shapely.buffer(LinearRing(centre), half, join_style="round")
    else:
        centre = _extended(centre, RUN_IN, max(RUN_OFF, half))
        surface = shapely.buffer(LineString(centre), half, cap_style="flat",
                                 join_style="round")
    outer, holes = _tidy_surface(surface)
    return outer, holes, centre


def join_track(outer: Sequence[Coord], holes: Sequence[Sequence[Coord]], road: Road,
               ) -> tuple[tuple[Coord, ...], tuple[tuple[Coord, ...], ...]]:
    """An existing track surface with a new road added to it (a branch, a short cut, a pit
    lane): the union of the two, which must be one piece."""
    existing = shapely.make_valid(Polygon(outer, [h for h in holes if len(h) >= 3]))
    union = shapely.union(existing, Polygon(road.outer, road.holes))
    if isinstance(union, MultiPolygon) or union.geom_type != "Polygon":
        raise RoadError("The new road does not meet the track: draw it to overlap the track "
                        "you have")
    return _tidy_surface(union)


def line_across(centre: Sequence[Coord], index: int, half: float,
                surface: Polygon | None = None) -> Line:
    """A line across the road at a point of the centreline, crossed the way the centreline
    runs. It runs across, down or diagonally, so its lattice points are evenly spaced: of the
    two lattice directions nearest square to the road, the one giving the most start places.
    From the lattice point nearest the centreline it reaches, each way, to the first lattice
    point past the wall, so it never reaches over to another stretch of road nearby."""
    index = max(0, min(index, len(centre) - 2))
    here = centre[index]
    ahead = next((p for p in centre[index + 1:] if math.dist(p, here) >= 1.0), centre[-1])
    dx, dy = ahead[0] - here[0], ahead[1] - here[1]
    px, py = round(here[0]), round(here[1])
    best: tuple[tuple[int, float], Line] | None = None
    for nx, ny in _nearest_compass(-dy, dx):
        step = math.hypot(nx, ny)
        skew = abs(nx * dx + ny * dy) / (step * (math.hypot(dx, dy) or 1.0))  # 0: square on
        if skew > MAX_SKEW:
            continue  # too slanted: it would run along the road rather than across
        longest = math.ceil((half / math.sqrt(1 - skew * skew) + 1.0) / step)
        ends = [_to_wall((px, py), (nx * sign, ny * sign), 2 * longest + 4, surface)
                for sign in (-1, 1)]
        if None in ends:
            continue  # this way the line would not reach a wall: cars could drive round it
        forward = (ny, -nx) if ny * dx - nx * dy >= 0 else (-ny, nx)
        line = Line((float(px - nx * ends[0]), float(py - ny * ends[0])),
                    (float(px + nx * ends[1]), float(py + ny * ends[1])),
                    (float(forward[0]), float(forward[1])))
        places = len(places_on(line, surface)) if surface is not None else 0
        score = (places, -skew)
        if best is None or score > best[0]:
            best = (score, line)
    if best is None:
        raise RoadError("There is no room for a start line at the first point; start the "
                        "road on a straighter stretch")
    return best[1]


def _to_wall(origin: tuple[int, int], step: tuple[int, int], longest: int,
             surface: Polygon | None) -> int | None:
    """How many steps from ``origin`` reach the first lattice point off the surface (None if
    none does within ``longest``; half of ``longest`` without a surface to look at)."""
    if surface is None:
        return max(1, longest // 2)
    points = shapely.points([(origin[0] + step[0] * k, origin[1] + step[1] * k)
                             for k in range(1, longest + 1)])
    inside = shapely.contains_properly(surface, points)
    outside = [k for k, ok in enumerate(inside, start=1) if not ok]
    return outside[0] if outside else None


def _nearest_compass(x: float, y: float) -> list[tuple[int, int]]:
    """The two of the eight compass directions on either side of (x, y), as lattice steps."""
    angle = math.atan2(y, x) / (math.pi / 4)
    low = math.floor(angle) % 8
    directions = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]
    return [directions[low], directions[(low + 1) % 8]]


def _tidy_surface(surface) -> tuple[tuple[Coord, ...], tuple[tuple[Coord, ...], ...]]:
    """Outline and holes of a surface, corners on the precision grid, slivers dropped."""
    surface = shapely.set_precision(surface.simplify(PRECISION / 2), PRECISION)
    if isinstance(surface, MultiPolygon):
        surface = max(surface.geoms, key=lambda g: g.area)
    if not isinstance(surface, Polygon) or surface.is_empty:
        raise RoadError("The road is too narrow or too short to make a track")

    def ring(coords) -> tuple[Coord, ...]:
        points = [(_clean(x), _clean(y)) for x, y in coords]
        return tuple(points[:-1] if points[0] == points[-1] else points)

    holes = tuple(ring(h.coords) for h in surface.interiors
                  if Polygon(h).area >= MIN_HOLE_AREA)
    return ring(surface.exterior.coords), holes


def _clean(value: float) -> float:
    """A coordinate on the precision grid without float dust (12.300000000000001 -> 12.3)."""
    return float(round(value, 1)) + 0.0


def _catmull_rom(p0: Coord, p1: Coord, p2: Coord, p3: Coord, t: float) -> Coord:
    t2, t3 = t * t, t * t * t
    return tuple(0.5 * (2 * b + (c - a) * t + (2 * a - 5 * b + 4 * c - d) * t2
                        + (3 * b - a - 3 * c + d) * t3)
                 for a, b, c, d in zip(p0, p1, p2, p3, strict=True))  # type: ignore[return-value]


def _distinct(points: Sequence[Coord]) -> list[Coord]:
    """The points without immediate repeats."""
    found: list[Coord] = []
    for point in points:
        point = (float(point[0]), float(point[1]))
        if not found or math.dist(found[-1], point) > 1e-9:
            found.append(point)
    return found


def _length(points: Sequence[Coord]) -> float:
    return sum(math.dist(a, b) for a, b in zip(points, points[1:], strict=False))


def _extended(centre: list[Coord], before: float, after: float) -> list[Coord]:
    """The open centreline drawn on straight a little before its start and past its end."""
    def beyond(edge: Coord, inner: Coord, length: float) -> Coord:
        dx, dy = edge[0] - inner[0], edge[1] - inner[1]
        norm = math.hypot(dx, dy) or 1.0
        return edge[0] + dx / norm * length, edge[1] + dy / norm * length

    return [beyond(centre[0], centre[1], before), *centre,
            beyond(centre[-1], centre[-2], after)]


def _index_at(centre: Sequence[Coord], distance: float) -> int:
    """The index of the centreline point about ``distance`` squares along it."""
    run = 0.0
    for i in range(1, len(centre)):
        run += math.dist(centre[i - 1], centre[i])
        if run >= distance:
            return i
    return len(centre) - 1
