"""The track as drawn on graph paper: its outline, holes, lines, zones and collectables.

Values only: reading and writing the file is ``racetrack.track.fileformat``'s job, and the
geometric rules a track must keep are ``racetrack.track.checks``'.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import shapely
from shapely.geometry import Polygon

from racetrack.geometry import Coord, Line, Vec

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
class Track:
    """A racetrack as drawn on graph paper. Coordinates are lattice units, y grows down."""

    name: str
    outer: tuple[Coord, ...]
    start: Line
    holes: tuple[tuple[Coord, ...], ...] = ()
    finish: Line | None = None
    checkpoints: tuple[Line, ...] = ()
    waypoints: tuple[Vec, ...] = ()  # points to end a move on, in order (C. R. S. Singleton)
    laps: int = 1
    zones: tuple[Zone, ...] = ()
    collectables: tuple[Collectable, ...] = ()
    author: str = ""
    description: str = ""
    source: str = field(default="", compare=False, repr=False)

    @property
    def finish_line(self) -> Line:
        """The line that ends the race: the finish if drawn, else the start line (a circuit)."""
        return self.finish if self.finish is not None else self.start

    @property
    def is_circuit(self) -> bool:
        """A circuit ends where it starts: no finish line of its own and no waypoints."""
        return self.finish is None and not self.waypoints

    def reversed(self) -> Track:
        """The same circuit raced the other way round: every line's arrow turned about and the
        checkpoints taken in reverse order."""
        def flip(line: Line) -> Line:
            return Line(line.a, line.b, (-line.forward[0], -line.forward[1]))

        return replace(self, start=flip(self.start),
                       finish=None if self.finish is None else flip(self.finish),
                       checkpoints=tuple(flip(c) for c in reversed(self.checkpoints)),
                       waypoints=tuple(reversed(self.waypoints)))

    def polygon(self) -> Polygon:
        """The track surface: the outline less its infield holes."""
        return Polygon(self.outer, list(self.holes))

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        xs = [x for x, _ in self.outer]
        ys = [y for _, y in self.outer]
        return min(xs), min(ys), max(xs), max(ys)

    def start_positions(self) -> list[Vec]:
        """Lattice points of the start line strictly inside the track, in order from ``a``;
        not in water (no car is put in a lake to start)."""
        polygon = self.polygon()
        water = [z.geometry() for z in self.zones if z.kind == "water"]
        if water:
            polygon = polygon.difference(shapely.union_all(water))
        shapely.prepare(polygon)
        points = self.start.lattice_points()
        inside = shapely.contains_properly(polygon, shapely.points([tuple(p) for p in points])) \
            if points else []
        return [p for p, ok in zip(points, inside, strict=True) if ok]

    def with_name(self, name: str) -> Track:
        return replace(self, name=name)
