"""The geometric rules a well-formed track must keep, each broken one named with its line.

An outline that crosses itself, a hole outside the outline or overlapping another, a start line
with no room on it, a line, area or zone that misses the track, a waypoint, start point or
collectable off it: the shape of the file is right (``fileformat`` checked that), the drawing
is not.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import shapely
from shapely.geometry import Polygon

from racetrack.base.errors import Problem
from racetrack.base.yamlio import YamlDocument
from racetrack.board.geometry import Line
from racetrack.board.track.model import Area, Track

#: The largest sheet, in lattice points (width x height), a track may span.
MAX_LATTICE_POINTS = 1_000_000


def geometry_problems(track: Track, doc: YamlDocument | None = None) -> list[Problem]:
    """Everything geometrically wrong with a well-formed track, each with its YAML line."""
    doc = doc or YamlDocument(None, track.source or "<track>", {})
    problems: list[Problem] = []

    def fail(path: Sequence[Hashable], message: str) -> None:
        problems.append(doc.problem(path, message))

    minx, miny, maxx, maxy = track.bounds
    width, height = maxx - minx, maxy - miny
    if (width + 1) * (height + 1) > MAX_LATTICE_POINTS:
        fail(("outer",), f"the track spans {width:g} x {height:g} squares; the largest sheet is "
                         f"{MAX_LATTICE_POINTS:,} lattice points")
        return problems
    outer = Polygon(track.outer)
    if not _polygon_ok(outer, ("outer",), "the outline", fail):
        return problems
    holes = []
    for index, ring in enumerate(track.holes):
        hole = Polygon(ring)
        path = ("holes", index)
        if not _polygon_ok(hole, path, f"hole {index + 1}", fail):
            continue
        if not outer.contains(hole):
            fail(path, f"hole {index + 1} is not inside the outline")
            continue
        for other_index, other in holes:
            if hole.intersection(other).area > 0:
                fail(path, f"hole {index + 1} overlaps hole {other_index + 1}")
        holes.append((index, hole))
    if problems:
        return problems
    surface = track.polygon()
    if not surface.is_valid:
        fail(("holes",), f"the holes cut the track apart: {_plain_reason(surface)}")
        return problems
    shapely.prepare(surface)

    if track.start is not None:
        _line_ok(track.start, ("start",), "the start line", fail)
        if not track.start_points and not track.start.is_degenerate \
                and not track.start_positions():
            fail(("start",), "the start line has no lattice point strictly inside the track")
    for index, point in enumerate(track.start_points):
        if not surface.covers(shapely.Point(point)):
            fail(("start-points", index), f"start point {index + 1} at {tuple(point)} is off "
                                          "the track")
        elif point in track.start_points[:index]:
            fail(("start-points", index), f"start point {index + 1} at {tuple(point)} is "
                                          "listed twice")
    if track.finish_area is not None:
        _area_ok(track.finish_area, ("finish-area",), "the finish area", fail, surface)
    for index, area in enumerate(track.checkpoint_areas):
        _area_ok(area, ("checkpoint-areas", index), f"checkpoint area {index + 1}", fail,
                 surface)
    if track.finish is not None:
        _line_ok(track.finish, ("finish",), "the finish line", fail, surface)
    for index, checkpoint in enumerate(track.checkpoints):
        _line_ok(checkpoint, ("checkpoints", index), f"checkpoint {index + 1}", fail, surface)
    for index, point in enumerate(track.waypoints):
        if not surface.covers(shapely.Point(point)):
            fail(("waypoints", index), f"waypoint {index + 1} at {tuple(point)} is off the track")
    for index, zone in enumerate(track.zones):
        path = ("zones", index, "polygon")
        polygon = zone.geometry()
        if _polygon_ok(polygon, path, f"the {zone.kind} zone", fail) \
                and not polygon.intersects(surface):
            fail(path, f"the {zone.kind} zone does not touch the track")
    for index, item in enumerate(track.collectables):
        if not surface.covers(shapely.Point(item.at)):
            fail(("collectables", index, "at"), f"the {item.kind} at {tuple(item.at)} is off "
                                                "the track")
    return problems


def _polygon_ok(polygon: Polygon, path: tuple, what: str, fail) -> bool:
    if not polygon.is_valid:
        fail(path, f"{what} is not a simple polygon: {_plain_reason(polygon)}")
        return False
    if polygon.area <= 0:
        fail(path, f"{what} has no area")
        return False
    return True


def _plain_reason(polygon: Polygon) -> str:
    """shapely's validity reason in plain words: 'Self-intersection[3 4]' -> 'it crosses ...'."""
    reason = shapely.is_valid_reason(polygon)
    head, _, where = reason.partition("[")
    where = where.rstrip("]").split()
    at = f" at ({', '.join(f'{float(v):g}' for v in where)})" if len(where) == 2 else ""
    words = {
        "Self-intersection": "its edges cross",
        "Ring Self-intersection": "its outline touches itself",
        "Interior is disconnected": "the holes split it into separate pieces",
        "Too few points": "too few points",
        "Holes are nested": "a hole lies inside another hole",
        "Hole lies outside shell": "a hole lies outside the outline",
        "Nested shells": "the outline is nested",
    }
    return words.get(head, head.lower()) + at


def _area_ok(area: Area, path: tuple, what: str, fail, surface: Polygon) -> None:
    polygons = [Polygon(ring) for ring in area.polygons]
    good = [_polygon_ok(polygon, (*path, index), f"polygon {index + 1} of {what}", fail)
            for index, polygon in enumerate(polygons)]
    if all(good) and shapely.union_all(polygons).intersection(surface).area <= 0:
        fail(path, f"{what} does not lie on the track")


def _line_ok(line: Line, path: tuple, what: str, fail, surface: Polygon | None = None) -> None:
    if line.a == line.b:
        fail(path, f"{what} has no length (a and b are the same point)")
    elif line.is_degenerate:
        fail((*path, "forward"), f"the 'forward' of {what} runs along it; it must point across")
    elif surface is not None and not surface.intersects(line.geometry()):
        fail(path, f"{what} does not touch the track")
