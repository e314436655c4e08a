"""Drawing new shapes: the corners of an outline, a hole, a zone or an area; a road's
centreline, built into the track; the two ends of a line; and single points (waypoints,
start places, coins and gadgets), each toggled by a click.

Every point drawn is a step of undo, so a shape half drawn survives a crash in the autosave
and comes back point by point with Ctrl+Z. A line is the exception: its first end alone is
no shape, so the line, once finished, takes that first end's step and undoes in one.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING

from racetrack.board.geometry import Coord, Vec
from racetrack.board.track import Collectable, Zone
from racetrack.board.track.draft import Sketch
from racetrack.editing.direction import suggested_line
from racetrack.editing.road import RoadError, build_road, is_closing, join_track
from racetrack.editing.tools import Tool

if TYPE_CHECKING:
    from racetrack.editing.state import EditorState


class Pen:
    """The drawing tools' clicks, and closing or building what they drew."""

    def __init__(self, editor: EditorState):
        self.editor = editor

    def click(self, at: Coord, point: Coord) -> None:
        """A click with a drawing tool (the road and a line's first end are gestures)."""
        tool = self.editor.tool
        sketch = self.editor.draft.sketch
        if tool.draws_polygon:
            self.polygon_click(at, point)
        elif tool.draws_line and sketch is not None and sketch.points:
            self.finish_line(sketch.points[0], point)
        elif tool is Tool.WAYPOINT:
            self.toggle_waypoint(point)
        elif tool is Tool.PLACE:
            self.toggle_start_point(point)
        elif tool is Tool.COLLECTABLE:
            self.toggle_collectable(point)

    # -- shapes ---------------------------------------------------------------------------------

    def polygon_click(self, at: Coord, point: Coord) -> None:
        editor = self.editor
        palette = editor.palette
        kind = {Tool.ZONE: palette.zone_kind, Tool.AREA: palette.area_kind}.get(editor.tool, "")
        self._sketch_click(at, point, Sketch(editor.tool.value, (), kind), self.close_sketch)

    def road_click(self, at: Coord, point: Coord) -> None:
        fresh = Sketch(Tool.ROAD.value, (), width=self.editor.palette.road_width)
        self._sketch_click(at, point, fresh, lambda: self.build(closed=True))

    def _sketch_click(self, at: Coord, point: Coord, fresh: Sketch,
                      close: Callable[[], None]) -> None:
        """A point of the shape being drawn; on its first point again (three or more drawn),
        the shape is closed."""
        editor = self.editor
        sketch = editor.draft.sketch or fresh
        if len(set(sketch.points)) >= 3 and (point == sketch.points[0] or
                                             math.dist(sketch.points[0], at) <= editor.hand.reach):
            close()
        elif not sketch.points or sketch.points[-1] != point:
            editor.commit(editor.draft.with_changes(sketch=sketch.adding(point)))

    def freehand(self, stroke: list[Coord]) -> None:
        """A dragged centreline: joined to any points clicked before it, smoothed and built."""
        sketch = self.editor.draft.sketch
        points = [*(sketch.points if sketch else ()), *stroke]
        self.build(closed=is_closing(points, self.editor.palette.road_width), points=points,
                   freehand=True)

    def close_sketch(self) -> None:
        """Enter, or a click on the first point: the shape being drawn is done."""
        editor = self.editor
        sketch = editor.draft.sketch
        if sketch is None:
            return
        if sketch.tool == Tool.ROAD.value:
            self.build(closed=False)
            return
        points = sketch.points
        if len(set(points)) < 3:
            editor.notes.append("A shape needs at least 3 corners")
            return
        draft = editor.draft.with_changes(sketch=None)
        if sketch.tool == Tool.OUTLINE.value:
            editor.commit(draft.with_changes(outer=points))
            if draft.outer:
                editor.notes.append("The outline was replaced (Ctrl+Z brings the old one back)")
            elif not draft.holes:
                editor.tool = Tool.HOLE
                editor.notes.append("Outline closed: now draw the infield (H), or press S for "
                                    "the start line")
        elif sketch.tool == Tool.HOLE.value:
            editor.commit(draft.with_changes(holes=(*draft.holes, points)))
        elif sketch.tool == Tool.ZONE.value:
            zone = Zone(sketch.kind or editor.palette.zone_kind, points)
            editor.commit(draft.with_changes(zones=(*draft.zones, zone)))
        elif sketch.tool == Tool.AREA.value:
            editor.commit(draft.with_area_polygon(sketch.kind or editor.palette.area_kind,
                                                  points))

    def build(self, closed: bool, points: list[Coord] | None = None,
              freehand: bool = False) -> None:
        """Build the road being drawn: outline and holes (joined to any track already drawn),
        and on a fresh sheet the start line near its first point (and an open road's
        finish)."""
        editor = self.editor
        sketch = editor.draft.sketch
        points = points if points is not None else list(sketch.points if sketch else ())
        width = sketch.width if sketch and sketch.width else editor.palette.road_width
        try:
            road = build_road(points, width, closed, freehand)
            draft = editor.draft.with_changes(sketch=None)
            joined = bool(draft.outer)
            if joined:
                outer, holes = join_track(draft.outer, draft.holes, road)
                draft = draft.with_changes(outer=outer, holes=holes)
            else:
                draft = draft.with_changes(outer=road.outer, holes=road.holes,
                                           start=draft.start or road.start,
                                           finish=draft.finish or road.finish)
        except RoadError as exc:
            editor.notes.append(str(exc))
            return
        editor.commit(draft)
        editor.tool = Tool.SELECT
        editor.selection = frozenset()
        if joined:
            editor.notes.append("The road joins the track")
        else:
            where = "at the first point" if road.start_at_first else \
                "on the straight nearest the first point"
            editor.notes.append(("Circuit built" if closed else "Road built") +
                                f": the start is {where} (click its arrow to turn it)")

    def remove_last_point(self) -> bool:
        editor = self.editor
        sketch = editor.draft.sketch
        if sketch is None:
            return False
        remaining = sketch.points[:-1]
        editor.commit(editor.draft.with_changes(
            sketch=Sketch(sketch.tool, remaining, sketch.kind, sketch.width) if remaining
            else None))
        return True

    def cancel_sketch(self) -> bool:
        editor = self.editor
        if editor.draft.sketch is None:
            return False
        editor.commit(editor.draft.with_changes(sketch=None))
        return True

    # -- lines and points -------------------------------------------------------------------------

    def finish_line(self, a: Coord, b: Coord) -> None:
        """The line from ``a`` to ``b``, crossed the way the route runs there. Finished from
        a first end clicked before, it takes that end's step of undo: Ctrl+Z takes the whole
        line away, never leaving it half drawn."""
        editor = self.editor
        if a == b:
            return
        begun = editor.draft.sketch is not None
        draft = editor.draft.with_changes(sketch=None)
        line = suggested_line(draft, a, b, editor.tool.value)
        if editor.tool is Tool.START:
            draft = draft.with_changes(start=line)
        elif editor.tool is Tool.FINISH:
            draft = draft.with_changes(finish=line)
        else:
            draft = draft.with_changes(checkpoints=(*draft.checkpoints, line))
        editor.commit(draft, amend=begun)

    def toggle_start_point(self, point: Coord) -> None:
        """Add a start place on the lattice point (after the others), or remove the one there:
        where a track has start places, the cars line up on them, not on the start line."""
        editor = self.editor
        spot = Vec(round(point[0]), round(point[1]))
        places = editor.draft.start_points
        places = tuple(p for p in places if p != spot) if spot in places else (*places, spot)
        editor.commit(editor.draft.with_changes(start_points=places))

    def toggle_waypoint(self, point: Coord) -> None:
        """Add a waypoint on the lattice point (after the others), or remove the one there."""
        editor = self.editor
        spot = Vec(round(point[0]), round(point[1]))
        waypoints = editor.draft.waypoints
        waypoints = tuple(w for w in waypoints if w != spot) if spot in waypoints \
            else (*waypoints, spot)
        editor.commit(editor.draft.with_changes(waypoints=waypoints))

    def toggle_collectable(self, point: Coord) -> None:
        editor = self.editor
        spot = Vec(round(point[0]), round(point[1]))
        items = editor.draft.collectables
        if any(item.at == spot for item in items):
            items = tuple(item for item in items if item.at != spot)
        else:
            items = (*items, Collectable(editor.palette.collectable_kind, spot))
        editor.commit(editor.draft.with_changes(collectables=items))
