"""The parts of a drawing, found under the pointer or in a box, and moved about as wholes.

A ``Part`` names one shape of a draft (the outline, hole 2, the start line, waypoint 3, ...).
Hit tests answer "what is under the pointer" in lattice units, given how far the pointer
reaches (the window converts its few pixels of grab to squares). Transforms (move, mirror,
rotate, duplicate, delete) take a set of parts and return a new draft; a mirror or a quarter
turn keeps lattice points on lattice points, so a start line keeps its places.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from enum import Enum

import shapely

from racetrack.board.geometry import Coord, Line, Vec
from racetrack.board.track import Area, Collectable, Zone
from racetrack.board.track.draft import Draft, Ring


class PartKind(Enum):
    OUTER = "outer"
    HOLE = "hole"
    ZONE = "zone"
    START = "start"
    FINISH = "finish"
    CHECKPOINT = "checkpoint"
    WAYPOINT = "waypoint"
    COLLECTABLE = "collectable"
    FINISH_AREA = "finish-area"  # one polygon of the finish area
    CHECKPOINT_AREA = "checkpoint-area"  # one polygon of a checkpoint area, counted on
    START_POINT = "start-point"

    @property
    def is_ring(self) -> bool:
        return self in (PartKind.OUTER, PartKind.HOLE, PartKind.ZONE, PartKind.FINISH_AREA,
                        PartKind.CHECKPOINT_AREA)

    @property
    def is_line(self) -> bool:
        return self in (PartKind.START, PartKind.FINISH, PartKind.CHECKPOINT)

    @property
    def is_point(self) -> bool:
        return self in (PartKind.WAYPOINT, PartKind.COLLECTABLE, PartKind.START_POINT)

    @property
    def has_inside(self) -> bool:
        """A click inside it selects it (a hole, a zone, an area)."""
        return self in (PartKind.HOLE, PartKind.ZONE, PartKind.FINISH_AREA,
                        PartKind.CHECKPOINT_AREA)


@dataclass(frozen=True, order=True)
class Part:
    kind: PartKind
    index: int = 0

    def describe(self) -> str:
        if self.kind in (PartKind.OUTER, PartKind.START, PartKind.FINISH):
            return {"outer": "the outline", "start": "the start line",
                    "finish": "the finish line"}[self.kind.value]
        what = {PartKind.FINISH_AREA: "a piece of the finish area",
                PartKind.CHECKPOINT_AREA: "a piece of a checkpoint area",
                PartKind.START_POINT: "start place"}.get(self.kind, self.kind.value)
        return what if what.startswith("a ") else f"{what} {self.index + 1}"


OUTER = Part(PartKind.OUTER)
START = Part(PartKind.START)
FINISH = Part(PartKind.FINISH)


class HitKind(Enum):
    ARROW = "arrow"        # a line's arrow: a click flips it
    VERTEX = "vertex"      # a ring's corner, a line's end, a waypoint or collectable
    MIDPOINT = "midpoint"  # the middle of a ring's edge: a click adds a corner there
    BODY = "body"          # on a line, a ring's edge, or inside a zone or hole


@dataclass(frozen=True)
class Hit:
    kind: HitKind
    part: Part
    vertex: int = 0  # the corner (ring) or end (line: 0 is a, 1 is b)


# -- reading parts ----------------------------------------------------------------------------


def all_parts(draft: Draft) -> list[Part]:
    found = [OUTER] if draft.outer else []
    found += [Part(PartKind.HOLE, i) for i in range(len(draft.holes))]
    found += [Part(PartKind.ZONE, i) for i in range(len(draft.zones))]
    found += [START] if draft.start is not None else []
    found += [FINISH] if draft.finish is not None else []
    found += [Part(PartKind.CHECKPOINT, i) for i in range(len(draft.checkpoints))]
    found += [Part(PartKind.WAYPOINT, i) for i in range(len(draft.waypoints))]
    found += [Part(PartKind.COLLECTABLE, i) for i in range(len(draft.collectables))]
    if draft.finish_area is not None:
        found += [Part(PartKind.FINISH_AREA, i) for i in range(len(draft.finish_area.polygons))]
    found += [Part(PartKind.CHECKPOINT_AREA, i) for i in
              range(len(draft.checkpoint_polygons()))]
    found += [Part(PartKind.START_POINT, i) for i in range(len(draft.start_points))]
    return found


def exists(draft: Draft, part: Part) -> bool:
    return part in all_parts(draft)


def ring_of(draft: Draft, part: Part) -> Ring:
    if part.kind is PartKind.OUTER:
        return draft.outer
    if part.kind is PartKind.HOLE:
        return draft.holes[part.index]
    if part.kind is PartKind.FINISH_AREA:
        assert draft.finish_area is not None
        return draft.finish_area.polygons[part.index]
    if part.kind is PartKind.CHECKPOINT_AREA:
        return draft.checkpoint_polygons()[part.index][2]
    return draft.zones[part.index].polygon


def line_of(draft: Draft, part: Part) -> Line:
    if part.kind is PartKind.START:
        assert draft.start is not None
        return draft.start
    if part.kind is PartKind.FINISH:
        assert draft.finish is not None
        return draft.finish
    return draft.checkpoints[part.index]


def point_of(draft: Draft, part: Part) -> Coord:
    if part.kind is PartKind.WAYPOINT:
        return tuple(draft.waypoints[part.index])
    if part.kind is PartKind.START_POINT:
        return tuple(draft.start_points[part.index])
    return tuple(draft.collectables[part.index].at)


def points_of(draft: Draft, part: Part) -> tuple[Coord, ...]:
    """Every point that places the part: a ring's corners, a line's ends, a point item."""
    if part.kind.is_ring:
        return ring_of(draft, part)
    if part.kind.is_line:
        line = line_of(draft, part)
        return (line.a, line.b)
    return (point_of(draft, part),)


# -- changing parts ---------------------------------------------------------------------------


def with_ring(draft: Draft, part: Part, ring: Ring) -> Draft:
    return draft.set_ring(part.kind.value, part.index, ring)


def with_line(draft: Draft, part: Part, line: Line | None) -> Draft:
    return draft.set_line(part.kind.value, part.index, line)


def with_point(draft: Draft, part: Part, point: Coord) -> Draft:
    spot = Vec(round(point[0]), round(point[1]))
    if part.kind is PartKind.WAYPOINT:
        waypoints = list(draft.waypoints)
        waypoints[part.index] = spot
        return replace(draft, waypoints=tuple(waypoints))
    if part.kind is PartKind.START_POINT:
        places = list(draft.start_points)
        places[part.index] = spot
        return replace(draft, start_points=tuple(places))
    items = list(draft.collectables)
    items[part.index] = replace(items[part.index], at=spot)
    return replace(draft, collectables=tuple(items))


def map_parts(draft: Draft, parts: Iterable[Part], point: Callable[[Coord], Coord],
              vector: Callable[[Coord], Coord]) -> Draft:
    """Every chosen part with ``point`` applied to its points and ``vector`` to the way its
    lines are crossed."""
    for part in parts:
        if not exists(draft, part):
            continue
        if part.kind.is_ring:
            draft = with_ring(draft, part, tuple(point(p) for p in ring_of(draft, part)))
        elif part.kind.is_line:
            line = line_of(draft, part)
            draft = with_line(draft, part, Line(point(line.a), point(line.b),
                                                vector(line.forward)))
        else:
            draft = with_point(draft, part, point(point_of(draft, part)))
    return draft


def translate(draft: Draft, parts: Iterable[Part], dx: float, dy: float) -> Draft:
    return map_parts(draft, parts, lambda p: _tidy((p[0] + dx, p[1] + dy)), lambda v: v)


def mirror(draft: Draft, parts: Iterable[Part], vertical: bool = False) -> Draft:
    """Mirror the parts about the middle of their bounds: left-right, or with ``vertical``
    top-bottom. The axis lies on a lattice or half-lattice line, so lattice points stay."""
    parts = list(parts)
    centre = _centre_of(draft, parts, 0.5)
    if centre is None:
        return draft
    cx, cy = centre
    if vertical:
        return map_parts(draft, parts, lambda p: _tidy((p[0], 2 * cy - p[1])),
                         lambda v: (v[0], -v[1]))
    return map_parts(draft, parts, lambda p: _tidy((2 * cx - p[0], p[1])),
                     lambda v: (-v[0], v[1]))


def rotate(draft: Draft, parts: Iterable[Part], clockwise: bool = True) -> Draft:
    """A quarter turn about the lattice point nearest the middle of the parts' bounds
    (clockwise as seen on the screen, where y grows downwards)."""
    parts = list(parts)
    centre = _centre_of(draft, parts, 1.0)
    if centre is None:
        return draft
    cx, cy = centre

    def turn(v: Coord) -> Coord:
        return (-v[1], v[0]) if clockwise else (v[1], -v[0])

    return map_parts(draft, parts,
                     lambda p: _tidy((cx + turn((p[0] - cx, p[1] - cy))[0],
                                      cy + turn((p[0] - cx, p[1] - cy))[1])), turn)


def delete(draft: Draft, parts: Iterable[Part]) -> Draft:
    """The draft without the parts (removing the highest numbers first keeps the others')."""
    for part in sorted(set(parts), key=lambda p: (p.kind.value, -p.index)):
        if not exists(draft, part):
            continue
        if part.kind is PartKind.OUTER:
            draft = replace(draft, outer=())
        elif part.kind.is_ring:
            draft = with_ring(draft, part, ())
        elif part.kind.is_line:
            draft = with_line(draft, part, None)
        elif part.kind is PartKind.WAYPOINT:
            draft = replace(draft, waypoints=_without(draft.waypoints, part.index))
        elif part.kind is PartKind.START_POINT:
            draft = replace(draft, start_points=_without(draft.start_points, part.index))
        else:
            draft = replace(draft, collectables=_without(draft.collectables, part.index))
    return draft


def extract(draft: Draft, parts: Iterable[Part]) -> Draft:
    """A draft holding only the chosen parts (what Ctrl+C copies)."""
    chosen = {part for part in parts if exists(draft, part)}

    def keep(kind: PartKind, items: tuple) -> tuple:
        return tuple(item for i, item in enumerate(items) if Part(kind, i) in chosen)

    finish = keep(PartKind.FINISH_AREA, draft.finish_area.polygons) \
        if draft.finish_area is not None else ()
    areas: dict[int, list[Ring]] = {}
    for index, (area, _, ring) in enumerate(draft.checkpoint_polygons()):
        if Part(PartKind.CHECKPOINT_AREA, index) in chosen:
            areas.setdefault(area, []).append(ring)
    return Draft(name=draft.name,
                 outer=draft.outer if OUTER in chosen else (),
                 holes=keep(PartKind.HOLE, draft.holes),
                 zones=keep(PartKind.ZONE, draft.zones),
                 start=draft.start if START in chosen else None,
                 finish=draft.finish if FINISH in chosen else None,
                 checkpoints=keep(PartKind.CHECKPOINT, draft.checkpoints),
                 waypoints=keep(PartKind.WAYPOINT, draft.waypoints),
                 collectables=keep(PartKind.COLLECTABLE, draft.collectables),
                 start_points=keep(PartKind.START_POINT, draft.start_points),
                 finish_area=Area(finish) if finish else None,
                 checkpoint_areas=tuple(Area(tuple(rings)) for _, rings in sorted(areas.items())))


def merge(draft: Draft, piece: Draft, dx: float = 0, dy: float = 0) -> tuple[Draft, list[Part]]:
    """``piece``'s parts added to the draft, moved by (dx, dy), and the names they get. A
    track has one outline, start and finish: the piece's are taken only where the draft has
    none."""
    made: list[Part] = []
    changes: dict = {}
    if piece.outer and not draft.outer:
        changes["outer"] = piece.outer
        made.append(OUTER)
    if piece.start is not None and draft.start is None:
        changes["start"] = piece.start
        made.append(START)
    if piece.finish is not None and draft.finish is None:
        changes["finish"] = piece.finish
        made.append(FINISH)
    for kind, field in ((PartKind.HOLE, "holes"), (PartKind.ZONE, "zones"),
                        (PartKind.CHECKPOINT, "checkpoints"), (PartKind.WAYPOINT, "waypoints"),
                        (PartKind.COLLECTABLE, "collectables"),
                        (PartKind.START_POINT, "start_points")):
        have, more = getattr(draft, field), getattr(piece, field)
        changes[field] = (*have, *more)
        made += [Part(kind, len(have) + i) for i in range(len(more))]
    if piece.finish_area is not None:
        have_finish = draft.finish_area.polygons if draft.finish_area is not None else ()
        changes["finish_area"] = Area((*have_finish, *piece.finish_area.polygons))
        made += [Part(PartKind.FINISH_AREA, len(have_finish) + i)
                 for i in range(len(piece.finish_area.polygons))]
    had = len(draft.checkpoint_polygons())
    changes["checkpoint_areas"] = (*draft.checkpoint_areas, *piece.checkpoint_areas)
    made += [Part(PartKind.CHECKPOINT_AREA, had + i)
             for i in range(len(piece.checkpoint_polygons()))]
    return translate(replace(draft, **changes), made, dx, dy), made


def duplicate(draft: Draft, parts: Iterable[Part], dx: float = 2, dy: float = 2,
              ) -> tuple[Draft, list[Part]]:
    """Copies of the parts beside them (the outline, start and finish come once in a track,
    so they are not copied)."""
    return merge(draft, extract(draft, parts), dx, dy)


def with_kind(draft: Draft, parts: Iterable[Part], kind: str) -> Draft:
    """The chosen zones (or collectables) changed to another kind, shapes and places kept."""
    zones, items = list(draft.zones), list(draft.collectables)
    for part in parts:
        if part.kind is PartKind.ZONE and part.index < len(zones):
            zones[part.index] = Zone(kind, zones[part.index].polygon)
        elif part.kind is PartKind.COLLECTABLE and part.index < len(items):
            items[part.index] = Collectable(kind, items[part.index].at)
    return replace(draft, zones=tuple(zones), collectables=tuple(items))


# -- finding parts ----------------------------------------------------------------------------


def arrow_tip(line: Line, length: float) -> Coord:
    """Where a line's arrow points to, ``length`` squares from its middle."""
    fx, fy = _unit(line.forward)
    mx, my = middle(line)
    return mx + fx * length, my + fy * length


def hit(draft: Draft, at: Coord, reach: float, arrow: float,
        select_inside: bool = True) -> Hit | None:
    """What is under the pointer at ``at``, within ``reach`` squares: an arrow first, then a
    point, the middle of an edge, a line or an edge, and last the inside of a zone or hole.
    ``arrow`` is how long the drawn arrows are, in squares."""
    for part in all_parts(draft):
        if part.kind.is_line:
            line = line_of(draft, part)
            if math.dist(arrow_tip(line, arrow * 0.7), at) <= reach * 1.5:
                return Hit(HitKind.ARROW, part)
    best: tuple[float, Hit] | None = None
    for part in all_parts(draft):
        for vertex, point in enumerate(points_of(draft, part)):
            gap = math.dist(point, at)
            if gap <= reach and (best is None or gap < best[0]):
                best = (gap, Hit(HitKind.VERTEX, part, vertex))
    if best is not None:
        return best[1]
    for part in all_parts(draft):
        if part.kind.is_ring:
            ring = ring_of(draft, part)
            for i, point in enumerate(ring):
                following = ring[(i + 1) % len(ring)]
                mid = ((point[0] + following[0]) / 2, (point[1] + following[1]) / 2)
                if math.dist(mid, at) <= reach and math.dist(point, following) >= reach * 3:
                    return Hit(HitKind.MIDPOINT, part, i)
    for part in all_parts(draft):
        if part.kind.is_line:
            line = line_of(draft, part)
            if distance_to_segment(at, line.a, line.b) <= reach:
                return Hit(HitKind.BODY, part)
    for part in all_parts(draft):
        if part.kind.is_ring:
            ring = ring_of(draft, part)
            for i, point in enumerate(ring):
                if distance_to_segment(at, point, ring[(i + 1) % len(ring)]) <= reach:
                    return Hit(HitKind.BODY, part)
    if select_inside:
        inside = [(abs(shapely.Polygon(ring_of(draft, part)).area), part)
                  for part in all_parts(draft)
                  if part.kind.has_inside and len(ring_of(draft, part)) >= 3
                  and shapely.Polygon(ring_of(draft, part)).covers(shapely.Point(at))]
        if inside:
            return Hit(HitKind.BODY, min(inside, key=lambda pair: pair[0])[1])
    return None


def in_box(draft: Draft, corner: Coord, other: Coord) -> set[Part]:
    """The parts lying wholly in the box with these opposite corners."""
    x0, x1 = sorted((corner[0], other[0]))
    y0, y1 = sorted((corner[1], other[1]))
    return {part for part in all_parts(draft)
            if all(x0 <= x <= x1 and y0 <= y <= y1 for x, y in points_of(draft, part))}


def bounds_of(draft: Draft, parts: Iterable[Part]) -> tuple[float, float, float, float] | None:
    points = [p for part in parts if exists(draft, part) for p in points_of(draft, part)]
    if not points:
        return None
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def middle(line: Line) -> Coord:
    return (line.a[0] + line.b[0]) / 2, (line.a[1] + line.b[1]) / 2


def distance_to_segment(p: Coord, a: Coord, b: Coord) -> float:
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    length2 = dx * dx + dy * dy
    if length2 == 0:
        return math.dist(p, a)
    t = max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / length2))
    return math.dist(p, (ax + t * dx, ay + t * dy))


def _centre_of(draft: Draft, parts: list[Part], step: float) -> Coord | None:
    found = bounds_of(draft, parts)
    if found is None:
        return None
    x0, y0, x1, y1 = found
    return round((x0 + x1) / 2 / step) * step, round((y0 + y1) / 2 / step) * step


def _tidy(point: Coord) -> Coord:
    """Round away the float dust of a transform (coordinates are kept to 1e-6)."""
    return tuple(float(round(v, 6)) + 0.0 for v in point)  # type: ignore[return-value]


def _unit(vector: Coord) -> Coord:
    length = math.hypot(*vector) or 1.0
    return vector[0] / length, vector[1] / length


def _without(items: tuple, index: int) -> tuple:
    return items[:index] + items[index + 1:]
