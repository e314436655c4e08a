"""The track file (YAML, format versions 1 and 2): reading it with every check, and writing it.

A track file is untrusted input. ``load_track`` reads it with the one YAML reader (safe,
size-limited, line-numbered), checks its shape field by field with the one field reader, then
its geometry (``checks``), and reports every problem at once as a ``TrackError`` whose lines
name the file and the YAML line. ``save_track`` writes canonical YAML atomically, so
``load_track(save_track(t)) == t`` and saving twice gives the same bytes; it refuses a track
the reader would refuse, so the game never writes a track it cannot read back.

The format is documented in ``docs/track-format.md``. Version 2 adds what imported maps need
(start points, a finish and checkpoints as areas, a track without a start line, the name of
the rule set it races by); a track that
uses none of it is still written as version 1, so older games read it.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import replace
from importlib import resources
from pathlib import Path
from typing import Any

from racetrack.errors import Problem, TrackError
from racetrack.fields import MAX_NAME, MAX_TEXT, Field, Reader, describe
from racetrack.geometry import Coord, Line, Vec
from racetrack.track.checks import geometry_problems
from racetrack.track.model import COLLECTABLE_KINDS, ZONE_KINDS, Area, Collectable, Track, Zone
from racetrack.yamlio import Limits, YamlDocument, dump_yaml, load_yaml, parse_yaml, write_yaml

FORMAT_KEY = "racetrack-track"
#: The newest format version this game reads and writes; every older one still loads.
FORMAT_VERSION = 2
FORMAT_VERSIONS = (1, 2)

#: Coordinates beyond this are refused: no paper is that large.
MAX_COORD = 10_000
#: Corners of one polygon, holes of a track, and corners of all its rings together. Real
#: Karopapier maps have a few hundred islands and thousands of corners; at these limits a
#: map loads and checks in about a second (docs/speed.md has the figures), and the
#: corners in all stay within the values a track file may hold (``TRACK_LIMITS``).
MAX_VERTICES = 20_000
MAX_HOLES = 1_000
MAX_CORNERS = 30_000
MAX_ITEMS = 200
MAX_LAPS = 99
#: How much of a track file is read: a hand-drawn track is a few kilobytes and a few hundred
#: values; these allow a hundred times more, and no more.
TRACK_LIMITS = Limits(bytes=4 * 1024 * 1024, nodes=100_000)

TOP_KEYS = (FORMAT_KEY, "name", "author", "description", "outer", "holes", "start", "finish",
             "checkpoints", "waypoints", "laps", "zones", "collectables", "start-points",
             "finish-area", "checkpoint-areas", "rules")
#: The keys format version 2 added, and what each is, for the message to a version-1 file.
VERSION_2_KEYS = {"start-points": "start points", "finish-area": "a finish area",
                  "checkpoint-areas": "checkpoint areas", "rules": "the rule set it races by"}
_LINE_KEYS = ("a", "b", "forward")


# --------------------------------------------------------------------------------------------
# Loading


def load_track(path: str | os.PathLike[str]) -> Track:
    """Read and validate a track file; raise ``TrackError`` listing every problem found.

    A map of another program (a Karopapier map, a character grid, a picture: a file whose name
    ``racetrack.imports.is_map_file`` knows) is imported on the way, as ``racetrack import``
    would write it, so every command races it as it races a track (``MapError`` if it cannot be
    read, ``TrackError`` if it is a drawing still to finish).
    """
    from racetrack.imports import import_map, is_map_file

    if is_map_file(path):
        imported = import_map(path)
        try:
            return replace(imported.track(), source=str(path))
        except TrackError as exc:  # a picture without its start line: the editor places it
            raise TrackError([Problem(str(path), None, f"{p.message}; a drawing to finish "
                                                       f"first: racetrack edit {path}")
                              for p in exc.problems]) from None
    doc = load_yaml(path, TrackError, TRACK_LIMITS)
    return replace(track_from_document(doc), source=str(path))


def parse_track(text: str, file: str = "<track>") -> Track:
    """Validate a track given as YAML text (for tests, the editor and embedded replays)."""
    return track_from_document(parse_yaml(text, file, TrackError, TRACK_LIMITS))


def track_from_data(data: Any, file: str = "<track>") -> Track:
    """Validate a track given as already-parsed plain data (no line numbers available)."""
    return track_from_document(YamlDocument(data, file, {}))


def track_from_document(doc: YamlDocument) -> Track:
    """The track a parsed document describes; ``TrackError`` lists every problem, first of
    its shape, then (once the shape is right) of its geometry."""
    reader = Reader(doc, TrackError, collect=True)
    track = read_track(reader.root)
    reader.check()
    assert track is not None
    problems = geometry_problems(track, doc)
    if problems:
        raise TrackError(problems)
    return track


def read_track(root: Field) -> Track | None:
    """A ``Track`` from a track file's mapping, or None with the problems reported."""
    data = root.value
    if isinstance(data, dict) and FORMAT_KEY not in data and any(k not in TOP_KEYS for k in data):
        # A file of another kind (a replay, a rules file) given as a track: one line says so.
        root.fail(f"not a track file ('{FORMAT_KEY}: N' missing, and keys no track file has)")
        return None
    if not root.keys(TOP_KEYS, what="a track file"):
        return None
    version = read_version(root)
    name = root["name"].text(MAX_NAME)
    author = root["author"].text(MAX_NAME, default="")
    description = root["description"].text(MAX_TEXT, default="", empty=True, lines=True)
    rules = read_rules_name(root["rules"])
    outer = read_polygon(root["outer"]) if root["outer"].present else None
    if not root["outer"].present:
        root.fail("missing 'outer' (the outline of the track)")
    holes = [read_polygon(item.named("a hole")) for item in
             root["holes"].items(MAX_HOLES, default=[], item="hole")]
    start = read_line(root["start"].named("the start line")) if root["start"].present else None
    start_points = [read_lattice_point(item, "start point") for item in
                    root["start-points"].items(MAX_ITEMS, default=[], item="start point")]
    if not root["start"].present and not root["start-points"].present:
        root.fail("missing 'start' (the start line: {a: [x, y], b: [x, y], forward: ...})")
    finish = read_line(root["finish"].named("the finish line")) if root["finish"].given \
        else None
    finish_area = read_area(root["finish-area"].named("the finish area")) \
        if root["finish-area"].given else None
    checkpoint_areas = [read_area(item) for item in
                        root["checkpoint-areas"].items(MAX_ITEMS, default=[],
                                                       item="checkpoint area")]
    checkpoints = [read_line(item) for item in
                   root["checkpoints"].items(MAX_ITEMS, default=[], item="checkpoint")]
    waypoints = [read_lattice_point(item) for item in
                 root["waypoints"].items(MAX_ITEMS, default=[], item="waypoint")]
    laps = root["laps"].whole(1, MAX_LAPS, default=1)
    zones = [read_zone(item) for item in root["zones"].items(MAX_ITEMS, default=[], item="zone")]
    collectables = [read_collectable(item) for item in
                    root["collectables"].items(MAX_ITEMS, default=[], item="collectable")]
    if version == 1:
        for key, what in VERSION_2_KEYS.items():
            if root[key].present:
                root[key].fail(f"'{key}' ({what}) is new in track format version 2; write "
                               f"'{FORMAT_KEY}: 2'")
    if root["finish"].given and root["finish-area"].given:
        root["finish-area"].fail("a track has one finish: a 'finish' line or a 'finish-area', "
                                 "not both")
    if not root["start"].present and root["start-points"].present and not (
            root["finish"].given or root["finish-area"].given or root["waypoints"].given):
        root.fail("a track without a start line needs a finish of its own: 'finish', "
                  "'finish-area' or 'waypoints'")
    if root.reader.problems or outer is None or (start is None and not start_points):
        return None
    return Track(name=name or "", outer=outer, start=start, holes=tuple(h for h in holes if h),
                 finish=finish, checkpoints=tuple(c for c in checkpoints if c),
                 waypoints=tuple(w for w in waypoints if w is not None), laps=laps or 1,
                 zones=tuple(z for z in zones if z),
                 collectables=tuple(c for c in collectables if c),
                 start_points=tuple(p for p in start_points if p is not None),
                 finish_area=finish_area, checkpoint_areas=tuple(a for a in checkpoint_areas
                                                                 if a),
                 author=author or "", description=description or "", rules=rules or "")


def read_rules_name(field: Field) -> str | None:
    """The name of the bundled rule set a track races by, if the file gives one (the rules
    themselves stay with the game: a track only names them)."""
    from racetrack.rules import bundled_variant_names

    return field.choice(bundled_variant_names(), default="", unknown="rule set",
                        valid="rule sets")


def read_version(root: Field) -> int | None:
    """The file's format version (1 or 2), or None with the problem reported."""
    version = root[FORMAT_KEY]
    newest = FORMAT_VERSIONS[-1]
    if not version.present:
        root.fail(f"missing '{FORMAT_KEY}: 1' (the format version; {newest} where the track has "
                  "areas or start points)")
        return None
    value = version.value
    if isinstance(value, bool) or value not in FORMAT_VERSIONS:
        version.fail(f"unsupported track format version {describe(value)}; this game reads "
                     f"versions {' and '.join(map(str, FORMAT_VERSIONS))}")
        return None
    return value


def read_point(field: Field, what: str = "a point") -> Coord | None:
    """``[x, y]``, each a finite number within the paper."""
    return field.named(what).pair(-MAX_COORD, MAX_COORD, what="a pair [x, y]")


def read_polygon(field: Field) -> tuple[Coord, ...] | None:
    """A list of at least three different points (a closing point repeating the first is
    dropped)."""
    items = field.items(MAX_VERTICES, item="point")
    if not items:
        if field.value == []:
            field.fail("a polygon needs at least 3 different points, not 0")
        return None
    points = [read_point(item) for item in items]
    if any(p is None for p in points):
        return None
    if len(points) > 1 and points[0] == points[-1]:
        points.pop()  # a closing point repeating the first adds nothing
    if len(set(points)) < 3:
        field.fail(f"a polygon needs at least 3 different points, not {len(set(points))}")
        return None
    return tuple(points)  # type: ignore[arg-type]


def read_line(field: Field) -> Line | None:
    """``{a: [x, y], b: [x, y], forward: [dx, dy]}``."""
    if not field.keys(_LINE_KEYS, what="a line"):
        return None
    a, b = read_point(field["a"]), read_point(field["b"])
    forward = read_point(field["forward"], "a direction")
    if a is None or b is None or forward is None:
        return None
    return Line(a, b, forward)


def read_lattice_point(field: Field, what: str = "waypoint") -> Vec | None:
    point = read_point(field, f"a {what}")
    if point is None:
        return None
    if any(isinstance(v, float) and not v.is_integer() for v in point):
        field.fail(f"a {what} must be a lattice point (whole numbers), not "
                   f"[{point[0]:g}, {point[1]:g}]")
        return None
    return Vec(int(point[0]), int(point[1]))


def read_area(field: Field) -> Area | None:
    """An area: a list of one or more polygons, taken together."""
    items = field.items(MAX_ITEMS, item="polygon", low=1)
    polygons = [read_polygon(item.named(f"polygon {index + 1} of {field.label}"))
                for index, item in enumerate(items)]
    if not items or any(p is None for p in polygons):
        return None
    return Area(tuple(polygons))  # type: ignore[arg-type]


def read_zone(field: Field) -> Zone | None:
    if not field.keys(("kind", "polygon"), what="a zone"):
        return None
    kind = field["kind"].choice(ZONE_KINDS, unknown="zone kind", valid="kinds")
    polygon = read_polygon(field["polygon"])
    return Zone(kind, polygon) if kind and polygon else None


def read_collectable(field: Field) -> Collectable | None:
    if not field.keys(("kind", "at", "value"), what="a collectable"):
        return None
    kind = field["kind"].choice(COLLECTABLE_KINDS, unknown="collectable",
                                 valid="kinds")
    at = field["at"].named("a collectable's point").pair(-MAX_COORD, MAX_COORD, whole=True)
    value = field["value"].whole(1, 1000, default=None, nullable=True)
    if kind is None or at is None or (field["value"].given and value is None):
        return None
    return Collectable(kind, Vec(at[0], at[1]), value)


# --------------------------------------------------------------------------------------------
# Saving


def track_to_data(track: Track) -> dict[str, Any]:
    """Plain data for a track, in the documented key order; optional keys only when set."""
    return track_data(name=track.name, author=track.author, description=track.description,
                      outer=track.outer, holes=track.holes, start=track.start,
                      finish=track.finish, checkpoints=track.checkpoints,
                      waypoints=track.waypoints, laps=track.laps, zones=track.zones,
                      collectables=track.collectables, start_points=track.start_points,
                      finish_area=track.finish_area, checkpoint_areas=track.checkpoint_areas,
                      rules=track.rules)


def track_data(*, name: str, outer: Sequence[Coord], start: Line | None, author: str = "",
               description: str = "", holes: Sequence[Sequence[Coord]] = (),
               finish: Line | None = None, checkpoints: Sequence[Line] = (),
               waypoints: Sequence[Vec] = (), laps: int = 1,
               zones: Sequence[Zone] = (), collectables: Sequence[Collectable] = (),
               start_points: Sequence[Vec] = (), finish_area: Area | None = None,
               checkpoint_areas: Sequence[Area] = (), rules: str = "") -> dict[str, Any]:
    """Track-file data from its parts; a part left out (no start line yet, in a draft being
    drawn) is simply not written. The version written is the lowest that holds the parts."""

    def pts(points: Sequence[Coord]) -> list[list[float]]:
        return [[x, y] for x, y in points]

    def line(line_: Line) -> dict[str, Any]:
        return {"a": list(line_.a), "b": list(line_.b), "forward": list(line_.forward)}

    def area(area_: Area) -> list[list[list[float]]]:
        return [pts(polygon) for polygon in area_.polygons]

    newer = bool(start_points or finish_area is not None or checkpoint_areas or rules)
    data: dict[str, Any] = {FORMAT_KEY: 2 if newer else 1, "name": name}
    if author:
        data["author"] = author
    if description:
        data["description"] = description
    if rules:
        data["rules"] = rules
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
    if start_points:
        data["start-points"] = [[int(x), int(y)] for x, y in start_points]
    if finish_area is not None:
        data["finish-area"] = area(finish_area)
    if checkpoint_areas:
        data["checkpoint-areas"] = [area(a) for a in checkpoint_areas]
    return data


def track_to_yaml(track: Track) -> str:
    return dump_yaml(track_to_data(track))


def save_track(track: Track, path: str | os.PathLike[str]) -> None:
    """Write a track atomically: a crash mid-save leaves the old file whole. A track too
    large to be read back is refused (``TrackError``)."""
    write_yaml(path, track_to_data(track), TRACK_LIMITS, TrackError)


# --------------------------------------------------------------------------------------------
# Bundled tracks


def bundled_tracks_folder() -> Path:
    """The folder of the tracks shipped with the game."""
    try:
        return Path(str(resources.files("racetrack.bundled_tracks")))
    except ModuleNotFoundError:
        # Running from a source tree that was not installed: the tracks are beside the package.
        return Path(__file__).resolve().parents[2] / "tracks"


def bundled_track_paths() -> list[Path]:
    """The tracks shipped with the game, sorted by file name."""
    entries = list(bundled_tracks_folder().iterdir())
    return sorted((p for p in entries if p.suffix == ".yaml"), key=lambda p: p.name)


def is_track_folder_file(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is a track file (``.yaml``) directly in the bundled tracks' folder or
    the player's own tracks folder, links followed: the only files that a name written in
    another file (a replay's track reference) may make the game open."""
    from racetrack.settings import tracks_dir

    try:
        candidate = Path(path)
        if candidate.suffix != ".yaml":
            return False
        resolved = candidate.resolve(strict=True)
        folders = [bundled_tracks_folder().resolve(), tracks_dir().resolve()]
    except (OSError, RuntimeError, ValueError):
        return False
    return resolved.parent in folders and resolved.is_file()


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
