"""A track being drawn: an immutable draft that may be incomplete or invalid, with undo history.

The editor never mutates a draft; every edit makes a new one, so undo and redo are just moving
along a list of values. A shape still being drawn (the points of an outline not yet closed, a
road's centreline) is part of the draft as its ``sketch``, so each clicked point is a step of
its own in the history and survives a crash in the autosave. A draft turns into a ``Track``
only when it validates; until then the editor lists its problems in plain words, each with a
point on the drawing to mark (``racetrack.editing.checks``: a draft knows nothing of the editor).
"""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass, field, replace
from enum import Enum
from pathlib import Path
from typing import Any

import shapely

from racetrack.base.errors import Problem, TrackError
from racetrack.base.fields import MAX_NAME, MAX_TEXT, Field, Reader
from racetrack.base.files import keep_aside
from racetrack.base.yamlio import load_yaml, write_yaml
from racetrack.board.geometry import Coord, Line, Vec
from racetrack.board.track.fileformat import (
    MAX_COORD,
    MAX_HOLES,
    MAX_ITEMS,
    MAX_LAPS,
    MAX_VERTICES,
    TOP_KEYS,
    TRACK_LIMITS,
    read_area,
    read_collectable,
    read_lattice_point,
    read_line,
    read_point,
    read_rules_name,
    read_zone,
    track_data,
    track_from_data,
    track_from_document,
)
from racetrack.board.track.model import ZONE_KINDS, Area, Collectable, Track, Zone

Ring = tuple[Coord, ...]

#: The key of a draft file that holds what only the editor needs (the file the drawing belongs
#: to, the shape being drawn). A track file never has it; the autosave does.
EDITOR_KEY = "editor"
#: What a sketch can be the start of.
SKETCH_TOOLS = ("outline", "hole", "zone", "road", "start", "finish", "checkpoint", "area")
#: What an area drawn in the editor is.
AREA_KINDS = ("finish", "checkpoint")


class Severity(Enum):
    """A problem stops the track being raced; a warning is worth a look but does not."""

    PROBLEM = "problem"
    WARNING = "warning"


@dataclass(frozen=True)
class Mark:
    """A problem to show on the drawing: where, and what in plain words."""

    at: Coord
    message: str
    severity: Severity = Severity.PROBLEM


@dataclass(frozen=True)
class Sketch:
    """A shape being drawn, not yet closed: the points clicked so far, in order.

    ``tool`` says what it becomes (one of ``SKETCH_TOOLS``); a zone's sketch carries its
    ``kind`` and a road's the road's ``width`` in squares.
    """

    tool: str
    points: tuple[Coord, ...] = ()
    kind: str = ""
    width: float = 0.0

    def adding(self, point: Coord) -> Sketch:
        return replace(self, points=(*self.points, point))


@dataclass(frozen=True)
class Draft:
    name: str = "New track"
    author: str = ""
    description: str = ""
    outer: Ring = ()
    holes: tuple[Ring, ...] = ()
    start: Line | None = None
    finish: Line | None = None
    checkpoints: tuple[Line, ...] = ()
    laps: int = 1
    zones: tuple[Zone, ...] = ()
    waypoints: tuple[Vec, ...] = ()
    collectables: tuple[Collectable, ...] = ()
    start_points: tuple[Vec, ...] = ()
    finish_area: Area | None = None
    checkpoint_areas: tuple[Area, ...] = ()
    rules: str = ""  # the bundled rule set the track races by ("" for the player's choice)
    sketch: Sketch | None = None
    #: The file the drawing belongs to ("" for none yet): where Ctrl+S writes it.
    source: str = field(default="", compare=False, repr=False)

    # -- conversion -----------------------------------------------------------------------

    @classmethod
    def from_track(cls, track: Track) -> Draft:
        return cls(track.name, track.author, track.description, track.outer, track.holes,
                   track.start, track.finish, track.checkpoints, track.laps, track.zones,
                   track.waypoints, track.collectables, track.start_points, track.finish_area,
                   track.checkpoint_areas, track.rules, source=track.source)

    def without_sketch(self) -> Draft:
        return replace(self, sketch=None) if self.sketch is not None else self

    def to_data(self) -> dict[str, Any]:
        """Track-file data, as complete as the draft is (a draft may lack an outline)."""
        return track_data(name=self.name or "Untitled", author=self.author,
                          description=self.description, outer=self.outer, holes=self.holes,
                          start=self.start, finish=self.finish, checkpoints=self.checkpoints,
                          waypoints=self.waypoints, laps=self.laps, zones=self.zones,
                          collectables=self.collectables, start_points=self.start_points,
                          finish_area=self.finish_area,
                          checkpoint_areas=self.checkpoint_areas, rules=self.rules)

    def to_track(self) -> Track:
        """The track this draft describes; ``TrackError`` lists what is still wrong."""
        return track_from_data(self.to_data(), self.name or "draft")

    def validation_marks(self) -> list[Mark]:
        """What track validation still finds wrong, each placed where its message points."""
        try:
            self.to_track()
        except TrackError as exc:
            return [Mark(self.where(problem.message), _plain(problem.message))
                    for problem in exc.problems]
        return []

    def where(self, message: str) -> Coord:
        """The point of the drawing a validation message is about."""
        found = re.search(r"at \((-?[\d.]+), (-?[\d.]+)\)", message)
        if found:
            return float(found.group(1)), float(found.group(2))
        hole = re.search(r"hole (\d+)", message)
        if hole and int(hole.group(1)) <= len(self.holes):
            return _centre(self.holes[int(hole.group(1)) - 1])
        checkpoint = re.search(r"checkpoint (\d+)", message)
        if checkpoint and int(checkpoint.group(1)) <= len(self.checkpoints):
            return _middle(self.checkpoints[int(checkpoint.group(1)) - 1])
        if "finish" in message and self.finish is not None:
            return _middle(self.finish)
        if "start" in message and self.start is not None:
            return _middle(self.start)
        zone = re.search(r"the (\w+) zone", message)
        if zone:
            for z in self.zones:
                if z.kind == zone.group(1):
                    return _centre(z.polygon)
        return _centre(self.outer)

    # -- edits (each returns a new draft) ---------------------------------------------------

    def with_changes(self, **changes: Any) -> Draft:
        return replace(self, **changes)

    def rings(self) -> list[tuple[str, int, Ring]]:
        """Every polygon with its place: ("outer", 0, ...), ("hole", i, ...), ("zone", i, ...),
        ("finish-area", i, ...) and ("checkpoint-area", i, ...), the checkpoint areas'
        polygons counted on from one area to the next."""
        found = [("outer", 0, self.outer)] if self.outer else []
        found += [("hole", i, ring) for i, ring in enumerate(self.holes)]
        found += [("zone", i, zone.polygon) for i, zone in enumerate(self.zones)]
        if self.finish_area is not None:
            found += [("finish-area", i, ring) for i, ring in
                      enumerate(self.finish_area.polygons)]
        found += [("checkpoint-area", i, ring) for i, (_, _, ring) in
                  enumerate(self.checkpoint_polygons())]
        return found

    def checkpoint_polygons(self) -> list[tuple[int, int, Ring]]:
        """(area, polygon in it, polygon) for every polygon of every checkpoint area."""
        return [(a, i, ring) for a, area in enumerate(self.checkpoint_areas)
                for i, ring in enumerate(area.polygons)]

    def with_area_polygon(self, kind: str, ring: Ring) -> Draft:
        """A polygon drawn as an area: added to the finish area, or a checkpoint area of its
        own (numbered after the others)."""
        if kind == "finish":
            polygons = self.finish_area.polygons if self.finish_area is not None else ()
            return replace(self, finish_area=Area((*polygons, ring)))
        return replace(self, checkpoint_areas=(*self.checkpoint_areas, Area((ring,))))

    def set_ring(self, kind: str, index: int, ring: Ring) -> Draft:
        """The polygon at its place (see ``rings``) replaced; one of fewer than 3 points
        removes it (and an area left with no polygon)."""
        if kind == "outer":
            return replace(self, outer=ring)
        if kind == "finish-area":
            assert self.finish_area is not None
            polygons = _replaced(self.finish_area.polygons, index, ring)
            return replace(self, finish_area=Area(polygons) if polygons else None)
        if kind == "checkpoint-area":
            area, at, _ = self.checkpoint_polygons()[index]
            areas = list(self.checkpoint_areas)
            polygons = _replaced(areas[area].polygons, at, ring)
            if polygons:
                areas[area] = Area(polygons)
            else:
                del areas[area]
            return replace(self, checkpoint_areas=tuple(areas))
        if kind == "hole":
            holes = list(self.holes)
            if len(ring) < 3:
                del holes[index]
            else:
                holes[index] = ring
            return replace(self, holes=tuple(holes))
        zones = list(self.zones)
        if len(ring) < 3:
            del zones[index]
        else:
            zones[index] = Zone(zones[index].kind, ring)
        return replace(self, zones=tuple(zones))

    def lines(self) -> list[tuple[str, int, Line]]:
        found = []
        if self.start is not None:
            found.append(("start", 0, self.start))
        if self.finish is not None:
            found.append(("finish", 0, self.finish))
        found += [("checkpoint", i, line) for i, line in enumerate(self.checkpoints)]
        return found

    def set_line(self, kind: str, index: int, line: Line | None) -> Draft:
        if kind == "start":
            return replace(self, start=line)
        if kind == "finish":
            return replace(self, finish=line)
        checkpoints = list(self.checkpoints)
        if line is None:
            del checkpoints[index]
        else:
            checkpoints[index] = line
        return replace(self, checkpoints=tuple(checkpoints))

    def move_checkpoint(self, index: int, by: int) -> Draft:
        """Renumber: move checkpoint ``index`` earlier or later in the order."""
        checkpoints = list(self.checkpoints)
        target = max(0, min(len(checkpoints) - 1, index + by))
        checkpoints.insert(target, checkpoints.pop(index))
        return replace(self, checkpoints=tuple(checkpoints))


def _replaced(rings: tuple[Ring, ...], index: int, ring: Ring) -> tuple[Ring, ...]:
    """``rings`` with the one at ``index`` replaced, or left out when ``ring`` is no shape."""
    return rings[:index] + ((ring,) if len(ring) >= 3 else ()) + rings[index + 1:]


def flipped(line: Line) -> Line:
    return Line(line.a, line.b, (-line.forward[0], -line.forward[1]))


def across(a: Coord, b: Coord) -> Line:
    """A line from a to b whose forward points to its right-hand side (y down: clockwise)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    return Line(a, b, (-dy, dx))


def centre(ring: Ring) -> Coord:
    """A point inside a ring (or on it, for a ring too thin to have an inside)."""
    return _centre(ring)


def _centre(ring: Ring) -> Coord:
    if len(ring) >= 3:
        polygon = shapely.Polygon(ring)
        point = polygon.representative_point() if polygon.is_valid else polygon.centroid
        if not point.is_empty:
            return point.x, point.y
    if ring:
        return ring[0]
    return (0.0, 0.0)


def _middle(line: Line) -> Coord:
    return (line.a[0] + line.b[0]) / 2, (line.a[1] + line.b[1]) / 2


def _plain(message: str) -> str:
    """A validation message made friendlier for the drawing board."""
    return message[0].upper() + message[1:] if message else message


@dataclass
class History:
    """Undo and redo over drafts: ``push`` an edit, ``undo`` / ``redo`` move along."""

    drafts: list[Draft] = field(default_factory=lambda: [Draft()])
    position: int = 0

    @property
    def current(self) -> Draft:
        return self.drafts[self.position]

    def push(self, draft: Draft) -> None:
        if draft == self.current:
            return
        del self.drafts[self.position + 1:]
        self.drafts.append(draft)
        self.position += 1

    def amend(self, draft: Draft) -> None:
        """``draft`` in place of the current step (the steps undone after it are dropped)."""
        del self.drafts[self.position + 1:]
        self.drafts[self.position] = draft

    def undo(self) -> bool:
        if self.position > 0:
            self.position -= 1
            return True
        return False

    def redo(self) -> bool:
        if self.position < len(self.drafts) - 1:
            self.position += 1
            return True
        return False


def save_draft(draft: Draft, path: str | os.PathLike[str], keep_editing: bool = False) -> None:
    """Write a draft as a track file, valid or not (an invalid one is kept, not raced).

    With ``keep_editing`` (the autosave) the file also keeps what only the editor needs: the
    file the drawing belongs to and the shape being drawn, under the ``editor`` key, which
    ``load_draft`` reads back.
    """
    data = draft.to_data()
    if keep_editing:
        notes: dict[str, Any] = {"file": draft.source or None}
        if draft.sketch is not None:
            sketch = draft.sketch
            notes["sketch"] = {"tool": sketch.tool, "points": [list(p) for p in sketch.points],
                               **({"kind": sketch.kind} if sketch.kind else {}),
                               **({"width": sketch.width} if sketch.width else {})}
        data[EDITOR_KEY] = notes
    write_yaml(path, data, TRACK_LIMITS, TrackError)


def load_draft(path: str | os.PathLike[str]) -> Draft:
    """A draft from a track file: a valid track exactly, or whatever a draft file holds.

    A file the editor autosaved also gives back the shape being drawn and the file the drawing
    belongs to (``source``); any other file belongs to itself.
    """
    return read_draft(path)[0]


def read_draft(path: str | os.PathLike[str]) -> tuple[Draft, list[Problem]]:
    """A draft from a track file, and what of it had to be left out.

    A valid track is taken exactly. An unfinished drawing is taken as far as it is
    well-formed: every value is read with the track's own checks (finite coordinates on the
    paper, printable names), and a part that fails them is left out and listed. Raises
    ``TrackError`` for a file that is no drawing at all (not YAML, not a mapping).
    """
    doc = load_yaml(path, TrackError, TRACK_LIMITS)
    if not isinstance(doc.data, dict):
        raise TrackError(doc.problem((), "a track file must be a YAML mapping"))
    notes = doc.data.pop(EDITOR_KEY, None)
    try:
        draft, problems = Draft.from_track(track_from_document(doc)), []
    except TrackError:
        reader = Reader(doc, TrackError, collect=True)
        draft, problems = _draft_from(reader.root), reader.problems
    if notes is None:
        return replace(draft, source=str(path)), problems
    return _with_notes(draft, notes), problems


def _with_notes(draft: Draft, notes: Any) -> Draft:
    """The editor's own part of an autosave, read leniently: what is not well-formed is
    dropped (a sketch is only ever a few clicks, easily made again)."""
    if not isinstance(notes, dict):
        return draft
    file = notes.get("file")
    sketch = notes.get("sketch")
    found = None
    if isinstance(sketch, dict) and sketch.get("tool") in SKETCH_TOOLS:
        kind = sketch.get("kind")
        width = _number(sketch.get("width"))
        found = Sketch(sketch["tool"], _ring(sketch.get("points")),
                       kind if kind in ZONE_KINDS or kind in AREA_KINDS else "",
                       width if width is not None and 0 < width <= 100 else 0.0)
    source = file if isinstance(file, str) and file.isprintable() and len(file) < 4096 else ""
    return replace(draft, sketch=found, source=source)


def _number(value: Any) -> float | None:
    """A finite coordinate-sized number, or None."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if not math.isfinite(value) or abs(value) > MAX_COORD:
        return None
    return value


def _ring(value: Any) -> Ring:
    if not isinstance(value, list):
        return ()
    points = []
    for item in value[:MAX_VERTICES]:
        if isinstance(item, list) and len(item) == 2:
            x, y = _number(item[0]), _number(item[1])
            if x is not None and y is not None:
                points.append((x, y))
    return tuple(points)


def _draft_from(root: Field) -> Draft:
    """Best effort for an unfinished draft: take what is well-formed, leave out the rest."""
    root.keys(TOP_KEYS, what="a track file")

    def ring(field: Field) -> Ring:
        points = (read_point(item) for item in field.items(MAX_VERTICES, default=[],
                                                          item="point"))
        return tuple(p for p in points if p is not None)

    def lines(key: str) -> tuple[Line, ...]:
        found = (read_line(item) for item in root[key].items(MAX_ITEMS, default=[]))
        return tuple(line for line in found if line is not None)

    holes = (ring(item) for item in root["holes"].items(MAX_HOLES, default=[], item="hole"))
    waypoints = (read_lattice_point(item) for item in
                 root["waypoints"].items(MAX_ITEMS, default=[], item="waypoint"))
    zones = (read_zone(item) for item in root["zones"].items(MAX_ITEMS, default=[]))
    collectables = (read_collectable(item) for item in
                    root["collectables"].items(MAX_ITEMS, default=[]))
    start_points = (read_lattice_point(item, "start point") for item in
                    root["start-points"].items(MAX_ITEMS, default=[], item="start point"))
    areas = (read_area(item) for item in root["checkpoint-areas"].items(MAX_ITEMS, default=[]))
    return Draft(
        name=root["name"].text(MAX_NAME, default="Untitled") or "Untitled",
        author=root["author"].text(MAX_NAME, default="") or "",
        description=root["description"].text(MAX_TEXT, default="", empty=True,
                                             lines=True) or "",
        outer=ring(root["outer"]), holes=tuple(h for h in holes if h),
        start=read_line(root["start"]) if root["start"].given else None,
        finish=read_line(root["finish"]) if root["finish"].given else None,
        checkpoints=lines("checkpoints"), laps=root["laps"].whole(1, MAX_LAPS, default=1) or 1,
        zones=tuple(z for z in zones if z), waypoints=tuple(w for w in waypoints if w),
        collectables=tuple(c for c in collectables if c),
        start_points=tuple(p for p in start_points if p is not None),
        finish_area=read_area(root["finish-area"]) if root["finish-area"].given else None,
        checkpoint_areas=tuple(a for a in areas if a),
        rules=read_rules_name(root["rules"]) or "")


#: What the editor says of an autosave read back whole.
RESTORED = "Restored the track you were drawing"


def restore_autosave(path: Path) -> tuple[Draft | None, str]:
    """The drawing in progress from the editor's autosave, and what to tell the player.

    A file that cannot be read, or only in part, is first kept aside as ``NAME.bad`` (the
    next autosave would overwrite it), and the message says so; (None, "") when there is no
    autosave.
    """
    if not path.exists() and not path.is_symlink():
        return None, ""
    try:
        draft, problems = read_draft(path)
    except TrackError as exc:
        draft, problems = None, exc.problems
    if not problems:
        return draft, RESTORED
    try:
        aside = keep_aside(path)
    except OSError as exc:
        return draft, f"The track you were drawing could not be read ({problems[0].message}) " \
                      f"nor kept aside: {exc.strerror or exc}"
    what = "restored what could be read" if draft is not None else "it could not be read"
    return draft, f"The damaged autosave is kept as {aside.name}; {what} " \
                  f"({problems[0].message})"
