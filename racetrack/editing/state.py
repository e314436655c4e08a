"""The editor as a state machine over the draft: tools, gestures, selection, undo and files.

The window hands it pointer presses, drags and releases in lattice coordinates (with how far
the pointer reaches, in squares) and key names; it answers by changing the draft (every change
one step of undo, written to the autosave at once), by asking a question (save, discard or
cancel before unsaved work would be lost; replace an existing file), by asking for a text (a
name, a description, a file name), or by saying the editor should leave. Nothing here draws or
knows a pixel, so every behaviour a designer relies on is tested without a window.
"""

from __future__ import annotations

import logging
import math
from dataclasses import replace
from pathlib import Path

from racetrack.draft import Draft, Mark, Severity, Sketch, flipped, load_draft
from racetrack.editing import parts as P
from racetrack.editing.analysis import Analysis, Analyst
from racetrack.editing.checks import problems, warnings
from racetrack.editing.direction import suggested_line
from racetrack.editing.document import Document, autosave_path
from racetrack.editing.gestures import (
    BoxSelect,
    DragPoint,
    Gesture,
    LineDrag,
    MoveParts,
    Stroke,
    moved_point,
)
from racetrack.editing.questions import Asking, Choice, Leave, Prompt, Question
from racetrack.editing.road import (
    DEFAULT_WIDTH,
    MAX_WIDTH,
    MIN_WIDTH,
    RoadError,
    build_road,
    is_closing,
    join_track,
)
from racetrack.editing.tools import TOOL_KEYS, Tool
from racetrack.errors import FileProblemError, TrackError
from racetrack.files import file_in, safe_name
from racetrack.geometry import Coord, Vec
from racetrack.rules import RuleSet, load_rules
from racetrack.settings import tracks_dir
from racetrack.track import COLLECTABLE_KINDS, ZONE_KINDS, Collectable, Track, Zone

__all__ = ["Asking", "BoxSelect", "Choice", "DragPoint", "EditorState", "Leave", "LineDrag",
           "MoveParts", "Prompt", "Question", "Stroke", "autosave_path"]

log = logging.getLogger(__name__)

#: Seconds the drawing must stay still before the solver is asked about it.
QUIET_BEFORE_ANALYSIS = 0.4
#: Seconds between checks of a shape being dragged (the drawing itself follows every frame).
DRAG_CHECKS_EVERY = 0.1
#: A press and release closer than this (squares) is a click, not a drag.
CLICK_SLOP = 0.6


class EditorState:
    """The editor without its window. ``draft`` is what is drawn; ``shown`` is what to draw
    (the draft with a drag in progress applied)."""

    def __init__(self, draft: Draft | None = None, path: Path | None = None,
                 saved: Draft | None = None, rules: RuleSet | None = None, cars: int = 2,
                 autosave: Path | None = None):
        draft = draft or Draft()
        self.document = Document(draft, path, saved, autosave)
        self.rules = rules or load_rules("gardner")
        self.cars = cars
        self.tool = Tool(draft.sketch.tool) if draft.sketch and draft.sketch.tool in \
            {t.value for t in Tool} else Tool.SELECT if draft.outer else Tool.ROAD
        self.zone_kind = ZONE_KINDS[0]
        self.collectable_kind = COLLECTABLE_KINDS[0]
        self.road_width = draft.sketch.width if draft.sketch and draft.sketch.width \
            else DEFAULT_WIDTH
        self.selection: frozenset[P.Part] = frozenset()
        self.gesture: Gesture | None = None
        self.preview: Draft | None = None
        self.pointer: Coord = (0.0, 0.0)
        self.reach = 0.4
        self.arrow = 1.0
        self.question: Question | None = None
        self.prompt: Prompt | None = None
        self.choosing: Leave | None = None
        self.leaving: Leave | None = None
        self.notes: list[str] = []
        self.clipboard: Draft | None = None
        self.pastes = 0
        self.show_route = False
        self.analyst = Analyst()
        self.quiet = 0.0
        self._drag_checked = 0.0
        self._cache: dict[str, tuple[Draft, object]] = {}

    # -- opening -----------------------------------------------------------------------------

    @classmethod
    def restore(cls, rules: RuleSet | None = None, cars: int = 2,
                autosave: Path | None = None) -> EditorState:
        """The drawing in progress from the autosave (with its pending shape and its file), or
        an empty sheet; a damaged autosave is reported and left for a look, not used."""
        document, note = Document.restore(autosave or autosave_path())
        return cls._of(document, rules, cars, note)

    @classmethod
    def of_file(cls, path: Path, rules: RuleSet | None = None, cars: int = 2,
                autosave: Path | None = None) -> EditorState:
        """The editor on a track file (``FileProblemError`` if it cannot be read at all); a
        path that does not exist yet starts an empty drawing that Ctrl+S saves there."""
        return cls._of(Document.of_file(path, autosave or autosave_path()), rules, cars)

    @classmethod
    def _of(cls, document: Document, rules: RuleSet | None, cars: int,
            note: str = "") -> EditorState:
        state = cls(document.draft, document.path, document.saved, rules, cars,
                    document.autosave_to)
        state.document = document
        if note:
            state.notes.append(note)
        return state

    # -- what there is -----------------------------------------------------------------------

    @property
    def draft(self) -> Draft:
        return self.document.draft

    @property
    def history(self):
        return self.document.history

    @property
    def path(self) -> Path | None:
        return self.document.path

    @path.setter
    def path(self, value: Path | None) -> None:
        self.document.path = value

    @property
    def saved(self) -> Draft:
        return self.document.saved

    @property
    def shown(self) -> Draft:
        return self.preview if self.preview is not None else self.draft

    @property
    def dirty(self) -> bool:
        """Whether closing now would lose work: the drawing differs from its file."""
        return self.document.dirty

    @property
    def sketch(self) -> Sketch | None:
        return self.draft.sketch

    def problems(self) -> list[Mark]:
        """What stops the shown drawing being raced (worked out once per drawing; quickly
        for the drawing being dragged, which changes every frame)."""
        if self.preview is not None:
            kept = self._cache.get("dragged")
            if kept is not None and self._drag_checked < DRAG_CHECKS_EVERY:
                return kept[1]  # checked a moment ago: good enough while the shape moves
            self._drag_checked = 0.0
            return self._cached("dragged", self.preview, lambda d: problems(d, thorough=False))
        return self._cached("problems", self.draft, lambda d: d.marks())

    def marks(self) -> list[Mark]:
        """Problems, then warnings: quick ones, and the solver's once it has answered."""
        found = self.problems()
        if found or self.preview is not None:
            return found
        quick = self._cached("warnings", self.draft,
                             lambda d: warnings(d, self.rules, self.cars))
        analysis = self.analysis()
        return [*found, *quick, *(analysis.warnings if analysis else ())]

    def track(self) -> Track | None:
        """The drawing as a track, when it has no problems."""
        def build(draft: Draft) -> Track | None:
            if self._cached("problems", draft, lambda d: d.marks()):
                return None
            try:
                return draft.to_track()
            except TrackError:
                return None

        return self._cached("track", self.draft, build)

    def analysis(self) -> Analysis | None:
        """The solver's answer about the drawing as it is now (None until it is in)."""
        found = self.analyst.latest()
        track = self.track()
        if found is None or track is None or found.track != track or found.rules != self.rules:
            return None
        return found

    def _cached(self, name: str, draft: Draft, work):
        kept = self._cache.get(name)
        if kept is None or kept[0] is not draft:
            kept = (draft, work(draft))
            self._cache[name] = kept
        return kept[1]

    # -- time ------------------------------------------------------------------------------

    def update(self, dt: float) -> None:
        """Ask the solver about the drawing once it has been still for a moment."""
        self.quiet += dt
        self._drag_checked += dt
        if self.quiet < QUIET_BEFORE_ANALYSIS or self.gesture is not None:
            return
        track = self.track()
        if track is not None:
            self.analyst.ask(track, self.rules)

    def set_rules(self, rules: RuleSet, cars: int | None = None) -> None:
        self.rules = rules
        if cars is not None:
            self.cars = cars
        self._cache.pop("warnings", None)
        self.quiet = QUIET_BEFORE_ANALYSIS

    def close(self) -> None:
        self.analyst.close()

    # -- changing the drawing ------------------------------------------------------------------

    def commit(self, draft: Draft) -> None:
        """One step of undo: the new drawing, checked and autosaved."""
        self.document.push(draft)
        self._changed()

    def _changed(self) -> None:
        self.selection = frozenset(p for p in self.selection if P.exists(self.draft, p))
        self.quiet = 0.0

    def undo(self) -> None:
        self.cancel_gesture()
        if self.document.undo():
            self._after_time_travel()

    def redo(self) -> None:
        self.cancel_gesture()
        if self.document.redo():
            self._after_time_travel()

    def _after_time_travel(self) -> None:
        sketch = self.draft.sketch
        if sketch is not None:  # carry on drawing the shape that came back
            self.tool = Tool(sketch.tool)
            if sketch.kind:
                self.zone_kind = sketch.kind
            if sketch.width:
                self.road_width = sketch.width
        self._changed()

    def set_tool(self, tool: Tool) -> None:
        self.cancel_gesture()
        sketch = self.draft.sketch
        if sketch is not None and sketch.tool != tool.value:
            self.commit(self.draft.with_changes(sketch=None))
            if len(sketch.points) > 1:
                self.notes.append("The unfinished shape was put away (Ctrl+Z brings it back)")
        self.tool = tool

    # -- the pointer -------------------------------------------------------------------------

    def reach_is(self, reach: float, arrow: float) -> None:
        """How far the pointer reaches, and how long the drawn arrows are, in squares (the
        window's few pixels, at its zoom)."""
        self.reach, self.arrow = reach, arrow

    @staticmethod
    def snap(at: Coord, half: bool = False) -> Coord:
        """The lattice point nearest ``at`` (with ``half``, the nearest half-point)."""
        if half:
            return round(at[0] * 2) / 2, round(at[1] * 2) / 2
        return float(round(at[0])), float(round(at[1]))

    def hover(self, at: Coord) -> None:
        self.pointer = at

    def press(self, at: Coord, button: int = 1, half: bool = False, adding: bool = False) -> None:
        """A mouse button went down at ``at`` (lattice coordinates, not snapped)."""
        self.pointer = at
        if self.question or self.prompt or self.choosing:
            return
        if button == 3:
            self.remove_at(at)
            return
        if button != 1:
            return
        point = self.snap(at, half)
        draft = self.draft
        if draft.sketch is None or self.tool is Tool.SELECT:
            found = P.hit(draft, at, self.reach, self.arrow, select_inside=False)
            if found is not None and found.kind is P.HitKind.ARROW:
                self.flip(found.part)
                return
        if self.tool is Tool.SELECT:
            self._press_select(at, point, adding)
        elif self.tool.draws_polygon:
            self._polygon_click(at, point)
        elif self.tool is Tool.ROAD:
            self.gesture = Stroke([at])
        elif self.tool.draws_line:
            if draft.sketch is not None and draft.sketch.points:
                self._finish_line(draft.sketch.points[0], point)
            else:
                self.gesture = LineDrag(point, point)
        elif self.tool is Tool.WAYPOINT:
            self.toggle_waypoint(point)
        elif self.tool is Tool.COLLECTABLE:
            self.toggle_collectable(point)

    def _press_select(self, at: Coord, point: Coord, adding: bool) -> None:
        draft = self.draft
        found = P.hit(draft, at, self.reach, self.arrow)
        if found is None:
            if not adding:
                self.selection = frozenset()
            self.gesture = BoxSelect(at, at, adding)
            return
        if found.kind is P.HitKind.VERTEX:
            if found.part not in self.selection:
                self.selection = frozenset({found.part})
            self.gesture = DragPoint(found.part, found.vertex, draft)
        elif found.kind is P.HitKind.MIDPOINT:
            ring = P.ring_of(draft, found.part)
            inserted = ring[:found.vertex + 1] + (point,) + ring[found.vertex + 1:]
            base = P.with_ring(draft, found.part, inserted)
            self.selection = frozenset({found.part})
            self.gesture = DragPoint(found.part, found.vertex + 1, base)
            self.preview = base
        else:
            if adding:
                self.selection = self.selection ^ {found.part}
            elif found.part not in self.selection:
                self.selection = frozenset({found.part})
            if found.part in self.selection:
                self.gesture = MoveParts(self.selection, point, draft)

    def drag(self, at: Coord, half: bool = False) -> None:
        """The pointer moved with the button held."""
        self.pointer = at
        gesture = self.gesture
        point = self.snap(at, half)
        if isinstance(gesture, DragPoint):
            self.preview = moved_point(gesture.base, gesture.part, gesture.vertex, point)
        elif isinstance(gesture, MoveParts):
            dx, dy = point[0] - gesture.origin[0], point[1] - gesture.origin[1]
            self.preview = P.translate(gesture.base, gesture.parts, dx, dy) if (dx or dy) \
                else None
        elif isinstance(gesture, BoxSelect):
            gesture.corner = at
        elif isinstance(gesture, Stroke):
            if math.dist(gesture.points[-1], at) >= 0.2:
                gesture.points.append(at)
        elif isinstance(gesture, LineDrag):
            gesture.end = point

    def release(self, at: Coord, half: bool = False) -> None:
        """The button came up: finish what the press began."""
        self.pointer = at
        gesture, self.gesture = self.gesture, None
        preview, self.preview = self.preview, None
        point = self.snap(at, half)
        if isinstance(gesture, DragPoint | MoveParts):
            if preview is not None and preview != self.draft:
                self.commit(preview)
        elif isinstance(gesture, BoxSelect):
            if math.dist(gesture.origin, at) > CLICK_SLOP:
                boxed = P.in_box(self.draft, gesture.origin, at)
                self.selection = frozenset(self.selection | boxed if gesture.adding else boxed)
        elif isinstance(gesture, Stroke):
            stroke = [*gesture.points, at]
            if _length(stroke) < CLICK_SLOP * 1.5:
                self._road_click(gesture.points[0], self.snap(gesture.points[0], half))
            else:
                self._freehand(stroke)
        elif isinstance(gesture, LineDrag):
            if point != gesture.origin:
                self._finish_line(gesture.origin, point)
            else:
                self.commit(self.draft.with_changes(sketch=Sketch(self.tool.value, (point,))))

    def cancel_gesture(self) -> None:
        self.gesture = None
        self.preview = None

    # -- drawing shapes --------------------------------------------------------------------------

    def _polygon_click(self, at: Coord, point: Coord) -> None:
        fresh = Sketch(self.tool.value, (), self.zone_kind if self.tool is Tool.ZONE else "")
        self._sketch_click(at, point, fresh, self.close_sketch)

    def _road_click(self, at: Coord, point: Coord) -> None:
        fresh = Sketch(Tool.ROAD.value, (), width=self.road_width)
        self._sketch_click(at, point, fresh, lambda: self.build(closed=True))

    def _sketch_click(self, at: Coord, point: Coord, fresh: Sketch, close) -> None:
        """A point of the shape being drawn; on its first point again (three or more drawn),
        the shape is closed."""
        sketch = self.draft.sketch or fresh
        if len(set(sketch.points)) >= 3 and (point == sketch.points[0] or
                                             math.dist(sketch.points[0], at) <= self.reach):
            close()
        elif not sketch.points or sketch.points[-1] != point:
            self.commit(self.draft.with_changes(sketch=sketch.adding(point)))

    def _freehand(self, stroke: list[Coord]) -> None:
        """A dragged centreline: joined to any points clicked before it, smoothed and built."""
        sketch = self.draft.sketch
        points = [*(sketch.points if sketch else ()), *stroke]
        self.build(closed=is_closing(points, self.road_width), points=points, freehand=True)

    def close_sketch(self) -> None:
        """Enter, or a click on the first point: the shape being drawn is done."""
        sketch = self.draft.sketch
        if sketch is None:
            return
        if sketch.tool == Tool.ROAD.value:
            self.build(closed=False)
            return
        points = sketch.points
        if len(set(points)) < 3:
            self.notes.append("A shape needs at least 3 corners")
            return
        draft = self.draft.with_changes(sketch=None)
        if sketch.tool == "outline":
            self.commit(draft.with_changes(outer=points))
            if draft.outer:
                self.notes.append("The outline was replaced (Ctrl+Z brings the old one back)")
            elif not draft.holes:
                self.tool = Tool.HOLE
                self.notes.append("Outline closed: now draw the infield (H), or press S for "
                                  "the start line")
        elif sketch.tool == "hole":
            self.commit(draft.with_changes(holes=(*draft.holes, points)))
        elif sketch.tool == "zone":
            self.commit(draft.with_changes(zones=(*draft.zones, Zone(sketch.kind or
                                                                     self.zone_kind, points))))

    def build(self, closed: bool, points: list[Coord] | None = None,
              freehand: bool = False) -> None:
        """Build the road being drawn: outline and holes (joined to any track already drawn),
        and on a fresh sheet the start line at its first point (and an open road's finish)."""
        sketch = self.draft.sketch
        points = points if points is not None else list(sketch.points if sketch else ())
        width = sketch.width if sketch and sketch.width else self.road_width
        try:
            road = build_road(points, width, closed, freehand)
            draft = self.draft.with_changes(sketch=None)
            joined = bool(draft.outer)
            if joined:
                outer, holes = join_track(draft.outer, draft.holes, road)
                draft = draft.with_changes(outer=outer, holes=holes)
            else:
                draft = draft.with_changes(outer=road.outer, holes=road.holes,
                                           start=draft.start or road.start,
                                           finish=draft.finish or road.finish)
        except RoadError as exc:
            self.notes.append(str(exc))
            return
        self.commit(draft)
        self.tool = Tool.SELECT
        self.selection = frozenset()
        self.notes.append("The road joins the track" if joined else
                          ("Circuit built" if closed else "Road built") +
                          ": the start is at the first point (click its arrow to turn it)")

    def remove_last_point(self) -> bool:
        sketch = self.draft.sketch
        if sketch is None:
            return False
        remaining = sketch.points[:-1]
        self.commit(self.draft.with_changes(
            sketch=Sketch(sketch.tool, remaining, sketch.kind, sketch.width) if remaining
            else None))
        return True

    def cancel_sketch(self) -> bool:
        if self.draft.sketch is None:
            return False
        self.commit(self.draft.with_changes(sketch=None))
        return True

    def _finish_line(self, a: Coord, b: Coord) -> None:
        draft = self.draft.with_changes(sketch=None)
        if a == b:
            return
        line = suggested_line(draft, a, b, self.tool.value)
        if self.tool is Tool.START:
            self.commit(draft.with_changes(start=line))
        elif self.tool is Tool.FINISH:
            self.commit(draft.with_changes(finish=line))
        else:
            self.commit(draft.with_changes(checkpoints=(*draft.checkpoints, line)))

    def toggle_waypoint(self, point: Coord) -> None:
        """Add a waypoint on the lattice point (after the others), or remove the one there."""
        spot = Vec(round(point[0]), round(point[1]))
        waypoints = self.draft.waypoints
        waypoints = tuple(w for w in waypoints if w != spot) if spot in waypoints \
            else (*waypoints, spot)
        self.commit(self.draft.with_changes(waypoints=waypoints))

    def toggle_collectable(self, point: Coord) -> None:
        spot = Vec(round(point[0]), round(point[1]))
        items = self.draft.collectables
        if any(item.at == spot for item in items):
            items = tuple(item for item in items if item.at != spot)
        else:
            items = (*items, Collectable(self.collectable_kind, spot))
        self.commit(self.draft.with_changes(collectables=items))

    def flip(self, part: P.Part) -> None:
        self.commit(P.with_line(self.draft, part, flipped(P.line_of(self.draft, part))))

    def remove_at(self, at: Coord) -> None:
        """Right-click or Del: the point under the pointer, or the whole line, or (while
        drawing) the last point drawn."""
        if self.remove_last_point():
            return
        found = P.hit(self.draft, at, self.reach, self.arrow, select_inside=False)
        if found is None or found.kind is P.HitKind.MIDPOINT:
            return
        part = found.part
        if found.kind is P.HitKind.VERTEX and part.kind.is_ring:
            ring = P.ring_of(self.draft, part)
            smaller = ring[:found.vertex] + ring[found.vertex + 1:]
            self.commit(P.with_ring(self.draft, part, smaller if len(smaller) >= 3 else ()))
        elif part.kind.is_line or part.kind.is_point:
            self.commit(P.delete(self.draft, [part]))

    # -- the selection -------------------------------------------------------------------------

    def select_all(self) -> None:
        self.selection = frozenset(P.all_parts(self.draft))

    def delete_selection(self) -> bool:
        if not self.selection:
            return False
        self.commit(P.delete(self.draft, self.selection))
        self.selection = frozenset()
        return True

    def nudge(self, dx: int, dy: int) -> None:
        if self.selection:
            self.commit(P.translate(self.draft, self.selection, dx, dy))

    def mirror(self, vertical: bool = False) -> None:
        if self.selection:
            self.commit(P.mirror(self.draft, self.selection, vertical))

    def rotate(self, clockwise: bool = True) -> None:
        if self.selection:
            self.commit(P.rotate(self.draft, self.selection, clockwise))

    def copy(self) -> None:
        if self.selection:
            self.clipboard = P.extract(self.draft, self.selection)
            self.pastes = 0

    def paste(self) -> None:
        if self.clipboard is None:
            return
        self.pastes += 1
        draft, made = P.merge(self.draft, self.clipboard, 2 * self.pastes, 2 * self.pastes)
        self._add(draft, made)

    def duplicate(self) -> None:
        draft, made = P.duplicate(self.draft, self.selection)
        self._add(draft, made)

    def _add(self, draft: Draft, made: list[P.Part]) -> None:
        if not made:
            self.notes.append("A track has one outline, start and finish: those are not copied")
            return
        self.commit(draft)
        self.selection = frozenset(made)

    def cycle_kind(self) -> None:
        """K: the next kind for the selected zones or collectables, or for the next one
        drawn."""
        zones, items = self._chosen(P.PartKind.ZONE), self._chosen(P.PartKind.COLLECTABLE)
        if zones:
            self.choose_zone_kind(_next(ZONE_KINDS, self.draft.zones[zones[0].index].kind))
        elif items:
            self.choose_collectable_kind(_next(COLLECTABLE_KINDS,
                                               self.draft.collectables[items[0].index].kind))
        elif self.tool is Tool.COLLECTABLE:
            self.choose_collectable_kind(_next(COLLECTABLE_KINDS, self.collectable_kind))
        else:
            self.choose_zone_kind(_next(ZONE_KINDS, self.zone_kind))

    def choose_zone_kind(self, kind: str) -> None:
        """The kind of the selected zones (an edit), else of the zone being drawn and the next."""
        self.zone_kind = kind
        zones = self._chosen(P.PartKind.ZONE)
        sketch = self.draft.sketch
        if zones:
            self.commit(P.with_kind(self.draft, zones, kind))
        elif sketch is not None and sketch.tool == "zone":
            self.commit(self.draft.with_changes(sketch=replace(sketch, kind=kind)))

    def choose_collectable_kind(self, kind: str) -> None:
        self.collectable_kind = kind
        items = self._chosen(P.PartKind.COLLECTABLE)
        if items:
            self.commit(P.with_kind(self.draft, items, kind))

    def _chosen(self, kind: P.PartKind) -> list[P.Part]:
        """The selected parts of a kind (the selection counts in the select tool only)."""
        if self.tool is not Tool.SELECT:
            return []
        return sorted(p for p in self.selection if p.kind is kind)

    def widen(self, by: float) -> None:
        """[ and ]: the road tool's width (and the road being drawn's)."""
        self.road_width = min(MAX_WIDTH, max(MIN_WIDTH, self.road_width + by))
        sketch = self.draft.sketch
        if sketch is not None and sketch.tool == Tool.ROAD.value:
            self.commit(self.draft.with_changes(sketch=Sketch(sketch.tool, sketch.points,
                                                              width=self.road_width)))

    def renumber(self, by: int) -> None:
        chosen = [p for p in self.selection if p.kind is P.PartKind.CHECKPOINT]
        if not chosen:
            found = P.hit(self.draft, self.pointer, self.reach, self.arrow)
            chosen = [found.part] if found and found.part.kind is P.PartKind.CHECKPOINT else []
        if chosen:
            index = chosen[0].index
            target = max(0, min(len(self.draft.checkpoints) - 1, index + by))
            self.commit(self.draft.move_checkpoint(index, by))
            self.selection = frozenset({P.Part(P.PartKind.CHECKPOINT, target)})

    def set_laps(self, by: int) -> None:
        self.commit(self.draft.with_changes(laps=max(1, min(99, self.draft.laps + by))))

    # -- keys ------------------------------------------------------------------------------------

    def key(self, name: str, ctrl: bool = False, shift: bool = False) -> bool:
        """A key press; False when the editor's core has no use for it (the window may)."""
        if self.question or self.prompt or self.choosing:
            return False
        if ctrl:
            action = {"z": self.redo if shift else self.undo, "y": self.redo,
                      "s": self.ask_file_name if shift else self.save,
                      "o": lambda: self.request(Leave.OPEN),
                      "n": lambda: self.request(Leave.NEW), "a": self.select_all,
                      "c": self.copy, "v": self.paste, "d": self.duplicate}.get(name)
            if action is None:
                return False
            action()
            return True
        if shift and name in ("left", "right", "up", "down") and self.selection:
            dx, dy = {"left": (-1, 0), "right": (1, 0), "up": (0, -1), "down": (0, 1)}[name]
            self.nudge(dx, dy)
            return True
        simple = {
            "escape": self.escape, "enter": self.close_sketch,
            "backspace": lambda: self.remove_last_point() or self._delete(),
            "delete": self._delete, "k": self.cycle_kind,
            "plus": lambda: self.set_laps(1), "minus": lambda: self.set_laps(-1),
            "[": lambda: self.widen(-1), "]": lambda: self.widen(1),
            "m": lambda: self.mirror(vertical=shift), "e": lambda: self.rotate(not shift),
            "pageup": lambda: self.renumber(-1), "pagedown": lambda: self.renumber(1),
            "n": lambda: self.ask(Asking.NAME, self.draft.name),
            "d": lambda: self.ask(Asking.DESCRIPTION, self.draft.description),
        }
        if name in simple:
            simple[name]()
            return True
        if name in TOOL_KEYS:
            self.set_tool(TOOL_KEYS[name])
            return True
        return False

    def _delete(self) -> None:
        if not self.delete_selection():
            self.remove_at(self.pointer)

    def escape(self) -> None:
        """Esc backs out one level: a drag, the shape being drawn, the selection, the editor."""
        if self.gesture is not None:
            self.cancel_gesture()
        elif self.cancel_sketch():
            pass
        elif self.selection:
            self.selection = frozenset()
        else:
            self.request(Leave.MENU)

    # -- texts -----------------------------------------------------------------------------------

    def ask(self, asking: Asking, text: str, then: Leave | None = None) -> None:
        self.prompt = Prompt(asking, text, then)

    def ask_file_name(self, then: Leave | None = None) -> None:
        self.ask(Asking.SAVE_AS, self.draft.name, then)

    def answer_prompt(self, text: str | None) -> None:
        """The text asked for (None: cancelled)."""
        prompt, self.prompt = self.prompt, None
        if prompt is None or text is None:
            return
        text = text.strip()
        if prompt.asking is Asking.NAME and text:
            self.commit(self.draft.with_changes(name=text))
        elif prompt.asking is Asking.DESCRIPTION:
            self.commit(self.draft.with_changes(description=text))
        elif prompt.asking is Asking.SAVE_AS:
            self.save_as(text, prompt.then)

    # -- files -----------------------------------------------------------------------------------

    def save(self) -> bool:
        """Ctrl+S: write the drawing to its file (asking for a name the first time)."""
        if self.path is None:
            self.ask_file_name()
            return False
        return self._write(self.path)

    def save_as(self, name: str, then: Leave | None = None) -> None:
        if not safe_name(name):
            self.notes.append("A file name needs letters or digits")
            self.ask_file_name(then)
            return
        if self.draft.name in ("New track", "", "Untitled") or self.path is None:
            self.commit(self.draft.with_changes(name=name.strip()))
        target = file_in(tracks_dir(), name)
        if target.exists() and target != self.path:
            self.question = Question(f"There is already a track file {target.name}. "
                                     "Replace it?", (Choice.REPLACE, Choice.CANCEL), then,
                                     target)
            return
        if self._write(target):
            self.proceed(then)

    def _write(self, target: Path) -> bool:
        try:
            self.document.write(target)
        except OSError as exc:
            self.notes.append(f"Could not save: {exc.strerror or exc}")
            return False
        except FileProblemError as exc:
            self.notes.append(f"Could not save: {exc.problems[0].message}")
            return False
        problems = [m for m in self.problems() if m.severity is Severity.PROBLEM]
        self.notes.append(f"Saved {target.name}" + (
            "" if not problems else f" as a draft ({len(problems)} problem"
                                    f"{'s' if len(problems) != 1 else ''} to fix before racing)"))
        return True

    def request(self, leave: Leave) -> None:
        """Something would replace the drawing: ask first if that loses work."""
        self.cancel_gesture()
        if self.dirty:
            what = "the track" if self.draft.outer or self.draft.sketch else "the drawing"
            self.question = Question(f"Save the changes to {what} {self.draft.name!r} first?",
                                     (Choice.SAVE, Choice.DISCARD, Choice.CANCEL), leave)
        else:
            self.proceed(leave)

    def answer(self, choice: Choice) -> None:
        question, self.question = self.question, None
        if question is None or choice is Choice.CANCEL:
            return
        if choice is Choice.SAVE:
            if self.path is None:
                self.ask_file_name(question.then)
            elif self._write(self.path):
                self.proceed(question.then)
        elif choice is Choice.DISCARD:
            self.discard()
            self.proceed(question.then)
        elif choice is Choice.REPLACE and question.target is not None \
                and self._write(question.target):
            self.proceed(question.then)

    def discard(self) -> None:
        """Drop the unsaved changes: the autosave goes back to the saved drawing."""
        self.document.discard()
        self.selection = frozenset()

    def proceed(self, leave: Leave | None) -> None:
        if leave in (Leave.NEW, Leave.OPEN):
            self.choosing = leave
        elif leave is not None:
            self.leaving = leave

    def open(self, path: Path) -> bool:
        """Open a track file for editing (after ``request(Leave.OPEN)``)."""
        self.choosing = None
        try:
            draft = load_draft(path)
        except (FileProblemError, OSError) as exc:
            self.notes.append(str(exc.problems[0]) if isinstance(exc, FileProblemError)
                              else f"Could not open {path.name}: {exc}")
            return False
        self._start_over(draft, path)
        return True

    def new_from(self, template: Path | None) -> bool:
        """A new drawing: an empty sheet, or a copy of a template (after
        ``request(Leave.NEW)``)."""
        self.choosing = None
        draft = Draft()
        if template is not None:
            try:
                draft = load_draft(template)
            except (FileProblemError, OSError) as exc:
                self.notes.append(f"Could not read the template: {exc}")
                return False
            draft = replace(draft.without_sketch(), name=f"My {draft.name}", source="")
        self._start_over(draft, None)
        return True

    def _start_over(self, draft: Draft, path: Path | None) -> None:
        self.cancel_gesture()
        self.document.start_over(draft, path)
        self.selection = frozenset()
        self.tool = Tool.SELECT if draft.outer else Tool.ROAD
        self._changed()


def _next(kinds: tuple[str, ...], kind: str) -> str:
    return kinds[(kinds.index(kind) + 1) % len(kinds)] if kind in kinds else kinds[0]


def _length(points: list[Coord]) -> float:
    return sum(math.dist(a, b) for a, b in zip(points, points[1:], strict=False))
