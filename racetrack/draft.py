"""A track being drawn: an immutable draft that may be incomplete or invalid, with undo history.

The editor never mutates a draft; every edit makes a new one, so undo and redo are just moving
along a list of values. A draft turns into a ``Track`` only when it validates; until then its
problems are listed in plain words, each with a point on the drawing to mark.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field, replace
from typing import Any

import shapely

from racetrack.errors import TrackError
from racetrack.geometry import Coord, Line, Vec
from racetrack.track import Collectable, Track, Zone, track_data, track_from_data
from racetrack.yamlio import atomic_write_text, dump_yaml, load_yaml

Ring = tuple[Coord, ...]


@dataclass(frozen=True)
class Mark:
    """A problem to show on the drawing: where, and what in plain words."""

    at: Coord
    message: str


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

    # -- conversion -----------------------------------------------------------------------

    @classmethod
    def from_track(cls, track: Track) -> Draft:
        return cls(track.name, track.author, track.description, track.outer, track.holes,
                   track.start, track.finish, track.checkpoints, track.laps, track.zones,
                   track.waypoints, track.collectables)

    def to_data(self) -> dict[str, Any]:
        """Track-file data, as complete as the draft is (a draft may lack an outline)."""
        return track_data(name=self.name or "Untitled", author=self.author,
                          description=self.description, outer=self.outer, holes=self.holes,
                          start=self.start, finish=self.finish, checkpoints=self.checkpoints,
                          waypoints=self.waypoints, laps=self.laps, zones=self.zones,
                          collectables=self.collectables)

    def to_track(self) -> Track:
        """The track this draft describes; ``TrackError`` lists what is still wrong."""
        return track_from_data(self.to_data(), self.name or "draft")

    def marks(self) -> list[Mark]:
        """Every problem, in plain words, with the point of the drawing it is about."""
        if len(set(self.outer)) < 3:
            return [Mark((0, 0), "Draw the outline: click lattice points, then close it")]
        if self.start is None:
            return [Mark(_centre(self.outer), "Add a start line across the track")]
        try:
            self.to_track()
        except TrackError as exc:
            return [Mark(self._where(problem.message), _plain(problem.message))
                    for problem in exc.problems]
        return []

    def _where(self, message: str) -> Coord:
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
        """Every polygon with its place: ("outer", 0, ...), ("hole", i, ...), ("zone", i, ...)."""
        found = [("outer", 0, self.outer)] if self.outer else []
        found += [("hole", i, ring) for i, ring in enumerate(self.holes)]
        found += [("zone", i, zone.polygon) for i, zone in enumerate(self.zones)]
        return found

    def set_ring(self, kind: str, index: int, ring: Ring) -> Draft:
        if kind == "outer":
            return replace(self, outer=ring)
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


def flipped(line: Line) -> Line:
    return Line(line.a, line.b, (-line.forward[0], -line.forward[1]))


def across(a: Coord, b: Coord) -> Line:
    """A line from a to b whose forward points to its right-hand side (y down: clockwise)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    return Line(a, b, (-dy, dx))


def _centre(ring: Ring) -> Coord:
    if len(ring) >= 3:
        point = shapely.Polygon(ring).representative_point()
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


def save_draft(draft: Draft, path: str | os.PathLike[str]) -> None:
    """Write a draft as a track file, valid or not (an invalid one is kept, not raced)."""
    atomic_write_text(path, dump_yaml(draft.to_data()))


def load_draft(path: str | os.PathLike[str]) -> Draft:
    """A draft from a track file: a valid track exactly, or whatever a draft file holds."""
    from racetrack.track import load_track

    try:
        return Draft.from_track(load_track(path))
    except TrackError:
        data = load_yaml(path, TrackError).data
    return _draft_from_loose_data(data)


def _draft_from_loose_data(data: Any) -> Draft:
    """Best effort for an unfinished draft: take what is well-formed, leave out the rest."""
    if not isinstance(data, dict):
        return Draft()
    draft = Draft(name=str(data.get("name") or "Untitled"))

    def ring(value: Any) -> Ring:
        if not isinstance(value, list):
            return ()
        points = [tuple(p) for p in value if isinstance(p, list) and len(p) == 2
                  and all(isinstance(v, int | float) and not isinstance(v, bool) for v in p)]
        return tuple(points)  # type: ignore[return-value]

    def line(value: Any) -> Line | None:
        if not isinstance(value, dict):
            return None
        parts = [ring([value.get(k)]) for k in ("a", "b", "forward")]
        return Line(parts[0][0], parts[1][0], parts[2][0]) if all(parts) else None

    holes = tuple(r for r in (ring(h) for h in data.get("holes") or []) if r)
    checkpoints = tuple(c for c in (line(c) for c in data.get("checkpoints") or []) if c)
    waypoints = tuple(Vec(int(x), int(y)) for x, y in ring(data.get("waypoints")))
    laps = data.get("laps")
    return replace(draft, outer=ring(data.get("outer")), holes=holes, start=line(data.get(
        "start")), finish=line(data.get("finish")), checkpoints=checkpoints,
        waypoints=waypoints,
        laps=laps if isinstance(laps, int) and not isinstance(laps, bool) and 1 <= laps <= 99
        else 1, description=str(data.get("description") or ""))

