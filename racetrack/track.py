"""The track: its model, the YAML file format (version 1), validation, loading and saving.

A track file is untrusted input. ``load_track`` reads it with ``yamlio`` (safe, size-limited,
line-numbered), checks its shape and then its geometry, and reports every problem at once as a
``TrackError`` whose lines name the file and the YAML line. ``save_track`` writes canonical YAML
atomically, so ``load_track(save_track(t)) == t`` and saving twice gives the same bytes.

The format is documented in ``docs/track-format.md``.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path
from typing import Any

import shapely
from shapely.geometry import Polygon

from racetrack.errors import Problem, TrackError
from racetrack.geometry import Coord, Line, Vec
from racetrack.yamlio import YamlDocument, atomic_write_text, dump_yaml, load_yaml, parse_yaml

FORMAT_KEY = "racetrack-track"
FORMAT_VERSION = 1

ZONE_KINDS = ("oil", "jump", "water", "pit", "upgrade", "downgrade")
COLLECTABLE_KINDS = ("penny", "nickel", "dime", "money", "missile", "oil-sprayer",
                     "rocket-boosters", "submarine", "machine-guns")

#: Coordinates beyond this are refused: no paper is that large.
MAX_COORD = 10_000
#: The largest sheet, in lattice points (width x height), a track may span.
MAX_LATTICE_POINTS = 1_000_000
MAX_VERTICES = 5_000
MAX_ITEMS = 200
MAX_LAPS = 99
MAX_TEXT = 2_000

_TOP_KEYS = (FORMAT_KEY, "name", "author", "description", "outer", "holes", "start", "finish",
             "checkpoints", "waypoints", "laps", "zones", "collectables")
_LINE_KEYS = ("a", "b", "forward")


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


# --------------------------------------------------------------------------------------------
# Loading


def load_track(path: str | os.PathLike[str]) -> Track:
    """Read and validate a track file; raise ``TrackError`` listing every problem found."""
    doc = load_yaml(path, TrackError)
    return replace(track_from_document(doc), source=str(path))


def parse_track(text: str, file: str = "<track>") -> Track:
    """Validate a track given as YAML text (for tests, the editor and embedded replays)."""
    return track_from_document(parse_yaml(text, file, TrackError))


def track_from_data(data: Any, file: str = "<track>") -> Track:
    """Validate a track given as already-parsed plain data (no line numbers available)."""
    return track_from_document(YamlDocument(data, file, {}))


def track_from_document(doc: YamlDocument) -> Track:
    reader = _Reader(doc)
    track = reader.track()
    if reader.problems:
        raise TrackError(reader.problems)
    assert track is not None
    problems = geometry_problems(track, doc)
    if problems:
        raise TrackError(problems)
    return track


class _Reader:
    """Turns plain YAML data into a ``Track``, collecting every shape problem on the way."""

    def __init__(self, doc: YamlDocument):
        self.doc = doc
        self.problems: list[Problem] = []

    def fail(self, path: Sequence[Hashable], message: str) -> None:
        self.problems.append(self.doc.problem(path, message))

    def track(self) -> Track | None:
        data = self.doc.data
        if not isinstance(data, dict):
            self.fail((), "a track file must be a YAML mapping with keys such as "
                          f"'{FORMAT_KEY}', 'name', 'outer' and 'start'")
            return None
        for key in data:
            if key not in _TOP_KEYS:
                self.fail((key,), f"unknown key {key!r}; valid keys: {', '.join(_TOP_KEYS)}")
        version = data.get(FORMAT_KEY)
        if FORMAT_KEY not in data:
            self.fail((), f"missing '{FORMAT_KEY}: {FORMAT_VERSION}' (the format version)")
        elif version != FORMAT_VERSION or isinstance(version, bool):
            self.fail((FORMAT_KEY,), f"unsupported track format version {version!r}; "
                                     f"this game reads version {FORMAT_VERSION}")
        name = self.text(data, "name", required=True)
        author = self.text(data, "author")
        description = self.text(data, "description")
        outer = self.polygon(data.get("outer"), ("outer",), required="outer" in data)
        if "outer" not in data:
            self.fail((), "missing 'outer' (the outline of the track)")
        holes = tuple(self.each(data, "holes", lambda v, p: self.polygon(v, p, required=True)))
        start = self.line(data.get("start"), ("start",)) if "start" in data else None
        if "start" not in data:
            self.fail((), "missing 'start' (the start line: {a: [x, y], b: [x, y], forward: ...})")
        finish = self.line(data["finish"], ("finish",)) if data.get("finish") is not None else None
        checkpoints = tuple(self.each(data, "checkpoints", self.line))
        waypoints = tuple(self.each(data, "waypoints", self.lattice_point))
        laps = self.integer(data, "laps", default=1, low=1, high=MAX_LAPS)
        zones = tuple(self.each(data, "zones", self.zone))
        collectables = tuple(self.each(data, "collectables", self.collectable))
        if self.problems or outer is None or start is None:
            return None
        return Track(name=name or "", outer=outer, start=start, holes=tuple(h for h in holes if h),
                     finish=finish, checkpoints=tuple(c for c in checkpoints if c),
                     waypoints=tuple(w for w in waypoints if w is not None), laps=laps,
                     zones=tuple(z for z in zones if z),
                     collectables=tuple(c for c in collectables if c),
                     author=author or "", description=description or "")

    # -- pieces ---------------------------------------------------------------------------

    def text(self, data: dict, key: str, required: bool = False) -> str | None:
        if key not in data:
            if required:
                self.fail((), f"missing '{key}'")
            return None
        value = data[key]
        if not isinstance(value, str) or (required and not value.strip()):
            self.fail((key,), f"'{key}' must be a non-empty text, not {_describe(value)}")
            return None
        if len(value) > MAX_TEXT:
            self.fail((key,), f"'{key}' is longer than {MAX_TEXT} characters")
            return None
        return value

    def integer(self, data: dict, key: str, default: int, low: int, high: int) -> int:
        if key not in data:
            return default
        value = data[key]
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            self.fail((key,), f"'{key}' must be a whole number from {low} to {high}, "
                              f"not {_describe(value)}")
            return default
        return value

    def each(self, data: dict, key: str, read: Callable[[Any, tuple], Any]) -> Iterator[Any]:
        value = data.get(key)
        if value is None:
            return
        if not isinstance(value, list):
            self.fail((key,), f"'{key}' must be a list, not {_describe(value)}")
            return
        if len(value) > MAX_ITEMS:
            self.fail((key,), f"'{key}' has more than {MAX_ITEMS} entries")
            return
        for index, item in enumerate(value):
            yield read(item, (key, index))

    def number(self, value: Any, path: tuple) -> float | int | None:
        if isinstance(value, bool) or not isinstance(value, int | float):
            self.fail(path, f"expected a number, not {_describe(value)}")
            return None
        if not math.isfinite(value):
            self.fail(path, f"expected a finite number, not {value}")
            return None
        if abs(value) > MAX_COORD:
            self.fail(path, f"coordinate {value} is beyond ±{MAX_COORD}")
            return None
        return value

    def lattice_point(self, value: Any, path: tuple) -> Vec | None:
        point = self.pair(value, path, "waypoint")
        if point is None:
            return None
        if any(isinstance(v, float) and not v.is_integer() for v in point):
            self.fail(path, f"a waypoint must be a lattice point (whole numbers), not "
                            f"{_describe(value)}")
            return None
        return Vec(int(point[0]), int(point[1]))

    def pair(self, value: Any, path: tuple, what: str = "point") -> Coord | None:
        if not isinstance(value, list) or len(value) != 2:
            self.fail(path, f"a {what} must be a pair [x, y], not {_describe(value)}")
            return None
        x, y = self.number(value[0], (*path, 0)), self.number(value[1], (*path, 1))
        if x is None or y is None:
            return None
        return (x, y)

    def polygon(self, value: Any, path: tuple, required: bool) -> tuple[Coord, ...] | None:
        if value is None and not required:
            return None
        if not isinstance(value, list):
            self.fail(path, f"a polygon must be a list of [x, y] points, not {_describe(value)}")
            return None
        if len(value) > MAX_VERTICES:
            self.fail(path, f"a polygon may have at most {MAX_VERTICES} points")
            return None
        points = [self.pair(v, (*path, i)) for i, v in enumerate(value)]
        if any(p is None for p in points):
            return None
        if len(points) > 1 and points[0] == points[-1]:
            points.pop()  # a closing point repeating the first adds nothing
        if len(set(points)) < 3:
            self.fail(path, f"a polygon needs at least 3 different points, not {len(set(points))}")
            return None
        return tuple(points)  # type: ignore[arg-type]

    def mapping(self, value: Any, path: tuple, keys: Sequence[str], what: str,
                optional: Sequence[str] = ()) -> dict | None:
        if not isinstance(value, dict):
            self.fail(path, f"{what} must be a mapping with keys {', '.join(keys)}, "
                            f"not {_describe(value)}")
            return None
        ok = True
        for key in value:
            if key not in keys and key not in optional:
                self.fail((*path, key), f"unknown key {key!r} in {what}; valid keys: "
                                        f"{', '.join((*keys, *optional))}")
                ok = False
        for key in keys:
            if key not in value:
                self.fail(path, f"{what} is missing '{key}'")
                ok = False
        return value if ok else None

    def line(self, value: Any, path: tuple) -> Line | None:
        data = self.mapping(value, path, _LINE_KEYS, "a line")
        if data is None:
            return None
        a = self.pair(data["a"], (*path, "a"))
        b = self.pair(data["b"], (*path, "b"))
        forward = self.pair(data["forward"], (*path, "forward"), "direction")
        if a is None or b is None or forward is None:
            return None
        return Line(a, b, forward)

    def zone(self, value: Any, path: tuple) -> Zone | None:
        data = self.mapping(value, path, ("kind", "polygon"), "a zone")
        if data is None:
            return None
        kind = data["kind"]
        if kind not in ZONE_KINDS:
            self.fail((*path, "kind"), f"unknown zone kind {kind!r}; valid kinds: "
                                       f"{', '.join(ZONE_KINDS)}")
            return None
        polygon = self.polygon(data["polygon"], (*path, "polygon"), required=True)
        return Zone(kind, polygon) if polygon else None

    def collectable(self, value: Any, path: tuple) -> Collectable | None:
        data = self.mapping(value, path, ("kind", "at"), "a collectable", optional=("value",))
        if data is None:
            return None
        kind = data["kind"]
        if kind not in COLLECTABLE_KINDS:
            self.fail((*path, "kind"), f"unknown collectable {kind!r}; valid kinds: "
                                       f"{', '.join(COLLECTABLE_KINDS)}")
            return None
        at = self.pair(data["at"], (*path, "at"))
        if at is None:
            return None
        if not all(isinstance(v, int) for v in at):
            self.fail((*path, "at"), "a collectable lies on a lattice point: whole numbers only")
            return None
        value_ = data.get("value")
        if value_ is not None and (isinstance(value_, bool) or not isinstance(value_, int)
                                   or not 0 < value_ <= 1000):
            self.fail((*path, "value"), f"'value' must be a whole number from 1 to 1000, "
                                        f"not {_describe(value_)}")
            return None
        return Collectable(kind, Vec(int(at[0]), int(at[1])), value_)


def _describe(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return f"{str(value).lower()} (a yes/no)"
    if isinstance(value, str):
        return f"the text {value[:40]!r}"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return f"a list of {len(value)}"
    return repr(value)


# --------------------------------------------------------------------------------------------
# Geometry checks


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

    _line_ok(track.start, ("start",), "the start line", fail)
    if not track.start.is_degenerate and not track.start_positions():
        fail(("start",), "the start line has no lattice point strictly inside the track")
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


def _line_ok(line: Line, path: tuple, what: str, fail, surface: Polygon | None = None) -> None:
    if line.a == line.b:
        fail(path, f"{what} has no length (a and b are the same point)")
    elif line.is_degenerate:
        fail((*path, "forward"), f"the 'forward' of {what} runs along it; it must point across")
    elif surface is not None and not surface.intersects(line.geometry()):
        fail(path, f"{what} does not touch the track")


# --------------------------------------------------------------------------------------------
# Saving


def track_to_data(track: Track) -> dict[str, Any]:
    """Plain data for a track, in the documented key order; optional keys only when set."""
    return track_data(name=track.name, author=track.author, description=track.description,
                      outer=track.outer, holes=track.holes, start=track.start,
                      finish=track.finish, checkpoints=track.checkpoints,
                      waypoints=track.waypoints, laps=track.laps, zones=track.zones,
                      collectables=track.collectables)


def track_data(*, name: str, outer: Sequence[Coord], start: Line | None, author: str = "",
               description: str = "", holes: Sequence[Sequence[Coord]] = (),
               finish: Line | None = None, checkpoints: Sequence[Line] = (),
               waypoints: Sequence[Vec] = (), laps: int = 1,
               zones: Sequence[Zone] = (), collectables: Sequence[Collectable] = (),
               ) -> dict[str, Any]:
    """Track-file data from its parts; a part left out (no start line yet, in a draft being
    drawn) is simply not written."""

    def pts(points: Sequence[Coord]) -> list[list[float]]:
        return [[x, y] for x, y in points]

    def line(line_: Line) -> dict[str, Any]:
        return {"a": list(line_.a), "b": list(line_.b), "forward": list(line_.forward)}

    data: dict[str, Any] = {FORMAT_KEY: FORMAT_VERSION, "name": name}
    if author:
        data["author"] = author
    if description:
        data["description"] = description
    data["outer"] = pts(outer)
    if holes:
        data["holes"] = [pts(h) for h in holes]
    if start is not None:
        data["start"] = line(start)
    if finish is not None:
        data["finish"] = line(finish)
    if checkpoints:
        data["checkpoints"] = [line(c) for c in checkpoints]
    if waypoints:
        data["waypoints"] = [[int(x), int(y)] for x, y in waypoints]
    if laps != 1:
        data["laps"] = laps
    if zones:
        data["zones"] = [{"kind": z.kind, "polygon": pts(z.polygon)} for z in zones]
    if collectables:
        data["collectables"] = [
            {"kind": c.kind, "at": list(c.at), **({"value": c.value} if c.value else {})}
            for c in collectables]
    return data


def track_to_yaml(track: Track) -> str:
    return dump_yaml(track_to_data(track))


def save_track(track: Track, path: str | os.PathLike[str]) -> None:
    """Write a track atomically: a crash mid-save leaves the old file whole."""
    atomic_write_text(path, track_to_yaml(track))


# --------------------------------------------------------------------------------------------
# Bundled tracks


def bundled_track_paths() -> list[Path]:
    """The tracks shipped with the game, sorted by file name."""
    try:
        entries = [Path(str(entry)) for entry in
                   resources.files("racetrack.bundled_tracks").iterdir()]
    except ModuleNotFoundError:
        # Running from a source tree that was not installed: the tracks are beside the package.
        entries = list((Path(__file__).resolve().parent.parent / "tracks").iterdir())
    return sorted((p for p in entries if p.suffix == ".yaml"), key=lambda p: p.name)


def find_track(name_or_path: str) -> Path:
    """A track file from a path, or from a bundled track's name (file stem, e.g. ``oval``)."""
    path = Path(name_or_path)
    if path.suffix in (".yaml", ".yml") or path.exists():
        return path
    for candidate in bundled_track_paths():
        if candidate.stem == name_or_path:
            return candidate
    names = ", ".join(p.stem for p in bundled_track_paths())
    raise TrackError(Problem(name_or_path, None, f"no such track file or bundled track; "
                                                 f"bundled tracks: {names}"))
