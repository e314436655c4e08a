"""The track as drawn on graph paper: its outline, holes, lines, areas, zones and collectables.

Values only: reading and writing the file is ``racetrack.board.track.fileformat``'s job, and the
geometric rules a track must keep are ``racetrack.board.track.checks``'.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import shapely
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

from racetrack.board.geometry import Coord, Line, Vec

ZONE_KINDS = ("oil", "jump", "water", "pit", "upgrade", "downgrade")
COLLECTABLE_KINDS = ("penny", "nickel", "dime", "money", "missile", "oil-sprayer",
                     "rocket-boosters", "submarine", "machine-guns")


@dataclass(frozen=True)
class Zone:
    """An area of the track with an effect the rule set decides: oil, jump, water, pit, ..."""

    kind: str
    polygon: tuple[Coord, ...]

    def geometry(self) -> Polygon:
        return Polygon(self.polygon)


@dataclass(frozen=True)
class Collectable:
    """A coin or gadget lying on a lattice point; the first car whose move runs through the
    point (ending there included) takes it, where the rules say collectables count."""

    kind: str
    at: Vec
    value: int | None = None


@dataclass(frozen=True)
class Area:
    """A part of the track a car passes by driving over it, in any direction: a finish or a
    checkpoint drawn as cells (as Karopapier's maps and the character grids have them) rather
    than as a line. One or more polygons, taken together."""

    polygons: tuple[tuple[Coord, ...], ...]

    def geometry(self) -> BaseGeometry:
        return shapely.union_all([Polygon(p) for p in self.polygons])


@dataclass(frozen=True)
class Track:
    """A racetrack as drawn on graph paper. Coordinates are lattice units, y grows down."""

    name: str
    outer: tuple[Coord, ...]
    start: Line | None  # None only where ``start_points`` place the cars and a finish is drawn
    holes: tuple[tuple[Coord, ...], ...] = ()
    finish: Line | None = None
    checkpoints: tuple[Line, ...] = ()
    waypoints: tuple[Vec, ...] = ()  # points to end a move on, in order (C. R. S. Singleton)
    laps: int = 1
    zones: tuple[Zone, ...] = ()
    collectables: tuple[Collectable, ...] = ()
    start_points: tuple[Vec, ...] = ()  # where the cars line up, when not along the start line
    finish_area: Area | None = None  # the finish as an area (format version 2)
    checkpoint_areas: tuple[Area, ...] = ()  # checkpoints as areas (format version 2)
    author: str = ""
    description: str = ""
    #: The bundled rule set the track races by unless a player chooses others ("" for none):
    #: a map imported from another program races by its source's rules (format version 2).
    rules: str = ""
    source: str = field(default="", compare=False, repr=False)

    @property
    def finish_line(self) -> Line | None:
        """The line that ends the race: the finish if drawn, else the start line (a circuit);
        None where the finish is an area or a waypoint and no start line is drawn."""
        return self.finish if self.finish is not None else self.start

    @property
    def is_circuit(self) -> bool:
        """A circuit ends where it starts: a start line, and no finish line, finish area or
        waypoints of its own."""
        return (self.start is not None and self.finish is None and self.finish_area is None
                and not self.waypoints)

    @property
    def format_version(self) -> int:
        """The lowest track-file format version that holds this track: 2 for areas, start
        points, a rule set of its own or a track without a start line, else 1 (so older
        games still read it)."""
        return 2 if (self.start is None or self.start_points or self.finish_area is not None
                     or self.checkpoint_areas or self.rules) else 1

    def reversed(self) -> Track:
        """The same circuit raced the other way round: every line's arrow turned about and the
        checkpoints taken in reverse order."""
        def flip(line: Line) -> Line:
            return Line(line.a, line.b, (-line.forward[0], -line.forward[1]))

        return replace(self, start=None if self.start is None else flip(self.start),
                       finish=None if self.finish is None else flip(self.finish),
                       checkpoints=tuple(flip(c) for c in reversed(self.checkpoints)),
                       waypoints=tuple(reversed(self.waypoints)),
                       checkpoint_areas=tuple(reversed(self.checkpoint_areas)))

    def polygon(self) -> Polygon:
        """The track surface: the outline less its infield holes."""
        return Polygon(self.outer, list(self.holes))

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        xs = [x for x, _ in self.outer]
        ys = [y for _, y in self.outer]
        return min(xs), min(ys), max(xs), max(ys)

    def start_positions(self) -> list[Vec]:
        """Where cars line up at rest, in order; never in water (no car is put in a lake to
        start). The ``start_points`` where given, each on the track (a point on its edge
        included: a start cell at the edge of a map is a place like any other); else the
        lattice points of the start line strictly inside the track, in order from ``a``."""
        polygon = self.polygon()
        water = [z.geometry() for z in self.zones if z.kind == "water"]
        if water:
            polygon = polygon.difference(shapely.union_all(water))
        shapely.prepare(polygon)
        if self.start_points:
            points, test = list(self.start_points), shapely.covers
        else:
            points = self.start.lattice_points() if self.start is not None else []
            test = shapely.contains_properly
        inside = test(polygon, shapely.points([tuple(p) for p in points])) if points else []
        return [p for p, ok in zip(points, inside, strict=True) if ok]

    def with_name(self, name: str) -> Track:
        return replace(self, name=name)
