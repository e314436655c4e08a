"""Live checks of a drawing: every problem at once, where it is, in plain words.

Track validation (``racetrack.board.track``) stops at the first broken shape and speaks of polygons;
a designer wants to see, while drawing, every place an outline crosses itself, whatever else
is still missing. So the shapes are checked here one by one: each ring for crossings (every
one of them, found in one batched shapely query over its edges), each hole against the outline
and the other holes, each line, zone, waypoint and collectable against the track. What is left
for validation to say (a rare case these checks do not name) is added after, placed where its
message points. Coordinates in messages are rounded to a tenth of a square.

``warnings`` adds what does not stop a race but is probably not meant: zones over the start
line, a start line with fewer places than the race has cars.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import shapely
from shapely.geometry import LineString, Point, Polygon

from racetrack.board.geometry import Coord, Line, segments_touch
from racetrack.board.track.draft import Draft, Mark, Ring, Severity, centre
from racetrack.rules import RuleSet

#: Marks of one ring's crossings, at most (a scribble could cross itself thousands of times).
MOST_CROSSINGS = 60


def problems(draft: Draft, thorough: bool = True) -> list[Mark]:
    """Everything that stops the draft being a track, each placed on the drawing. Without
    ``thorough`` (while a shape is being dragged, every frame) the final pass of track
    validation is left out."""
    marks: list[Mark] = []
    outline_ok = False
    if len(set(draft.outer)) < 3:
        marks.append(Mark(_first_point(draft), "Draw the outline: a road (P) or its corners "
                                               "(O), then close it"))
    else:
        outline_ok = not (found := ring_problems(draft.outer, "The outline"))
        marks += found
    outer = Polygon(draft.outer) if outline_ok else None
    good_holes: list[tuple[int, Polygon]] = []
    for index, ring in enumerate(draft.holes):
        what = f"Hole {index + 1}"
        found = ring_problems(ring, what)
        marks += found
        if found or outer is None:
            continue
        hole = Polygon(ring)
        if not outer.contains(hole):
            marks += _outside(hole, outer, what)
            continue
        for other_index, other in good_holes:
            if hole.intersects(other):
                marks.append(Mark(_point_of(hole.intersection(other)),
                                  f"{what} overlaps hole {other_index + 1}"))
        good_holes.append((index, hole))
    surface = None
    if outer is not None and not any(m.severity is Severity.PROBLEM for m in marks):
        surface = Polygon(draft.outer, [draft.holes[i] for i, _ in good_holes])
        if not surface.is_valid:
            marks.append(Mark(_reason_point(surface, draft.outer),
                              "The holes cut the track into pieces here"))
            surface = None
    if draft.start is None:
        if draft.outer and not draft.start_points:  # an imported map's start cells will do
            marks.append(Mark(centre(draft.outer) if outline_ok else _first_point(draft),
                              "Add a start line across the track (S)"))
    else:
        marks += line_problems(draft.start, "The start line", surface)
        if surface is not None and not draft.start.is_degenerate \
                and not places_on(draft.start, surface):
            marks.append(Mark(_middle(draft.start), "The start line has no lattice point "
                                                    "inside the track"))
    if draft.finish is not None:
        marks += line_problems(draft.finish, "The finish line", surface)
    for index, line in enumerate(draft.checkpoints):
        marks += line_problems(line, f"Checkpoint {index + 1}", surface)
    for zone in draft.zones:
        what = f"The {zone.kind} zone"
        found = ring_problems(zone.polygon, what)
        marks += found
        if not found and surface is not None and not Polygon(zone.polygon).intersects(surface):
            marks.append(Mark(centre(zone.polygon), f"{what} does not touch the track"))
    if surface is not None:
        for index, point in enumerate(draft.waypoints):
            if not surface.covers(Point(point)):
                marks.append(Mark(tuple(point), f"Waypoint {index + 1} is off the track"))
        for item in draft.collectables:
            if not surface.covers(Point(item.at)):
                marks.append(Mark(tuple(item.at), f"The {item.kind} at {_at(item.at)} is off "
                                                  "the track"))
    if not marks and thorough:
        marks = draft.validation_marks()  # anything the checks above do not name
    return marks


def warnings(draft: Draft, rules: RuleSet | None = None, cars: int = 1) -> list[Mark]:
    """What does not stop a race but is probably not meant, for a draft with no problems."""
    found: list[Mark] = []
    start = draft.start
    if start is None or start.a == start.b:
        return found
    line = LineString([start.a, start.b])
    for zone in draft.zones:
        polygon = Polygon(zone.polygon)
        if polygon.is_valid and polygon.intersects(line):
            found.append(Mark(_point_of(polygon.intersection(line)),
                              f"The {zone.kind} zone covers the start line", Severity.WARNING))
    if rules is not None and rules.cars != "shared" and cars > 1:
        try:
            room = len(draft.to_track().start_positions())
        except ValueError:
            return found
        if room < cars:
            found.append(Mark(_middle(start), f"The start line has room for {room} car"
                                              f"{'s' if room != 1 else ''}; the race has {cars}",
                              Severity.WARNING))
    return found


def ring_problems(ring: Ring, what: str) -> list[Mark]:
    """Where a closed ring of points crosses or touches itself, or why it is no shape."""
    if len(set(ring)) < 3:
        return [Mark(ring[0] if ring else (0.0, 0.0), f"{what} needs at least 3 corners")]
    marks = [Mark(at, f"{what} {how} at {_at(at)}") for at, how in self_crossings(ring)]
    if marks:
        return marks
    polygon = Polygon(ring)
    if not polygon.is_valid:
        return [Mark(_reason_point(polygon, ring), f"{what} touches itself at "
                                                   f"{_at(_reason_point(polygon, ring))}")]
    if polygon.area <= 0:
        return [Mark(ring[0], f"{what} has no area")]
    return []


def self_crossings(ring: Ring, most: int = MOST_CROSSINGS) -> list[tuple[Coord, str]]:
    """Every place a closed ring crosses itself, runs along itself or doubles back, with
    words for it (at most ``most`` of them): one batched query over the ring's edges, so a
    long road is checked fast. Neighbouring edges always meet at their shared corner; they are
    only a problem when the second turns straight back along the first."""
    points = np.asarray(ring, dtype=float)
    ends = np.roll(points, -1, axis=0)
    keep = np.any(points != ends, axis=1)  # a repeated corner makes an edge of no length
    points, ends = points[keep], ends[keep]
    n = len(points)
    if n < 3:
        return []
    found: dict[tuple[float, float], str] = {}
    # Doubling back: an edge and the next are parallel and point opposite ways.
    direction = ends - points
    following = np.roll(direction, -1, axis=0)
    cross = direction[:, 0] * following[:, 1] - direction[:, 1] * following[:, 0]
    dot = (direction * following).sum(axis=1)
    for i in np.nonzero((np.abs(cross) < 1e-12) & (dot < 0))[0][:most]:
        found.setdefault(_key(tuple(ends[i])), "doubles back on itself")
    edges = shapely.linestrings(np.stack([points, ends], axis=1))
    tree = shapely.STRtree(edges)
    first, batch = 0, 16
    while first < n and len(found) < most:
        # Edges a batch at a time (growing), so a scribble crossing itself everywhere stops
        # as soon as enough is found instead of testing every pair; the boxes that overlap
        # are tested exactly in one numpy pass.
        mine = np.arange(first, min(n, first + batch))
        left, right = tree.query(edges[mine])
        left = mine[left]
        apart = (left < right) & (right != left + 1) & ~((left == 0) & (right == n - 1))
        left, right = left[apart], right[apart]
        meeting = segments_touch(points[left], ends[left], points[right], ends[right])
        left, right = left[meeting][:most], right[meeting][:most]
        for meet in shapely.intersection(edges[left], edges[right]):
            if meet.geom_type == "Point":
                found.setdefault(_key((meet.x, meet.y)), "crosses itself")
            elif not meet.is_empty:
                found.setdefault(_key(_point_of(meet)), "runs along itself")
        first, batch = first + batch, batch * 2
    return [((x, y), how) for (x, y), how in found.items()][:most]


def line_problems(line: Line, what: str, surface: Polygon | None) -> list[Mark]:
    if line.a == line.b:
        return [Mark(line.a, f"{what} has no length: drag one end away")]
    if line.is_degenerate:
        return [Mark(_middle(line), f"{what}'s arrow runs along it; click the arrow")]
    if surface is not None and not surface.intersects(line.geometry()):
        return [Mark(_middle(line), f"{what} does not cross the track")]
    return []


def places_on(line: Line, surface: Polygon) -> list:
    """The lattice points of a line strictly inside a surface: where cars may start on it."""
    points = line.lattice_points()
    if not points:
        return []
    inside = shapely.contains_properly(surface, shapely.points([tuple(p) for p in points]))
    return [p for p, ok in zip(points, inside, strict=True) if ok]


def _outside(hole: Polygon, outer: Polygon, what: str) -> list[Mark]:
    crossing = hole.boundary.intersection(outer.boundary)
    if crossing.is_empty:
        return [Mark(centre(tuple(hole.exterior.coords)[:-1]), f"{what} is outside the outline")]
    points = [geom for geom in getattr(crossing, "geoms", [crossing])]
    return [Mark(_point_of(p), f"{what} crosses the outline at {_at(_point_of(p))}")
            for p in points]


def _reason_point(polygon: Polygon, ring: Sequence[Coord]) -> Coord:
    """Where shapely says a shape goes wrong ("Ring Self-intersection[3 4]"), else its first
    corner."""
    values = shapely.is_valid_reason(polygon).partition("[")[2].rstrip("]").split()
    if len(values) == 2:
        return float(values[0]), float(values[1])
    return tuple(ring[0])


def _point_of(geometry) -> Coord:
    """A point on or in a geometry (a crossing, an overlap), for a mark."""
    if geometry.is_empty:
        return (0.0, 0.0)
    point = geometry.representative_point() if geometry.geom_type in (
        "Polygon", "MultiPolygon") else geometry.interpolate(0.5, normalized=True) \
        if geometry.geom_type == "LineString" else geometry.centroid
    return (float(point.x), float(point.y))


def _first_point(draft: Draft) -> Coord:
    if draft.outer:
        return tuple(draft.outer[0])
    return (0.0, 0.0)


def _middle(line: Line) -> Coord:
    return (line.a[0] + line.b[0]) / 2, (line.a[1] + line.b[1]) / 2


def _key(at: Coord) -> tuple[float, float]:
    return (round(at[0], 3), round(at[1], 3))


def _at(at: Sequence[float]) -> str:
    """A point in a message: tenths of a square at most, no trailing zeros."""
    return "(" + ", ".join(f"{round(float(v), 1):g}" for v in at) + ")"
