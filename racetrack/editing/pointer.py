"""The pointer in the editor: a press, the drag that follows and the release, turned into
edits of the drawing.

What a press means depends on the tool and on what is under the pointer (an arrow flips in
any tool; the select tool grabs a corner, an edge's middle, a shape or the paper for a box; a
drawing tool adds a point). While a drag lasts the drawing shows its result (``preview``)
without it being a step of undo; the release makes it one.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from racetrack.board.geometry import Coord
from racetrack.board.track.draft import Draft, Sketch
from racetrack.editing import parts as P
from racetrack.editing.gestures import (
    BoxSelect,
    DragPoint,
    Gesture,
    LineDrag,
    MoveParts,
    Stroke,
    moved_point,
)
from racetrack.editing.tools import Tool

if TYPE_CHECKING:
    from racetrack.editing.state import EditorState

#: A press and release closer than this (squares) is a click, not a drag.
CLICK_SLOP = 0.6


def snap(at: Coord, half: bool = False) -> Coord:
    """The lattice point nearest ``at`` (with ``half``, the nearest half-point)."""
    if half:
        return round(at[0] * 2) / 2, round(at[1] * 2) / 2
    return float(round(at[0])), float(round(at[1]))


class Hand:
    """The pointer, in lattice coordinates, and the gesture it is making."""

    def __init__(self, editor: EditorState):
        self.editor = editor
        self.gesture: Gesture | None = None
        self.preview: Draft | None = None  # the drawing as the drag would leave it
        self.pointer: Coord = (0.0, 0.0)
        self.reach = 0.4  # how far the pointer reaches, in squares
        self.arrow = 1.0  # how long the drawn arrows are, in squares

    def reach_is(self, reach: float, arrow: float) -> None:
        """How far the pointer reaches, and how long the drawn arrows are, in squares (the
        window's few pixels, at its zoom)."""
        self.reach, self.arrow = reach, arrow

    def hover(self, at: Coord) -> None:
        self.pointer = at

    def hit(self, at: Coord, select_inside: bool = True) -> P.Hit | None:
        return P.hit(self.editor.draft, at, self.reach, self.arrow, select_inside)

    def press(self, at: Coord, button: int = 1, half: bool = False, adding: bool = False
              ) -> None:
        """A mouse button went down at ``at`` (lattice coordinates, not snapped)."""
        editor = self.editor
        self.pointer = at
        if editor.waiting:
            return
        if button == 3:
            editor.arranging.remove_at(at)
            return
        if button != 1:
            return
        point = snap(at, half)
        tool = editor.tool
        if editor.draft.sketch is None or tool is Tool.SELECT:
            found = self.hit(at, select_inside=False)
            if found is not None and found.kind is P.HitKind.ARROW:
                editor.arranging.flip(found.part)
                return
        if tool is Tool.SELECT:
            self._press_select(at, point, adding)
        elif tool is Tool.ROAD:
            self.gesture = Stroke([at])
        elif tool.draws_line and editor.draft.sketch is None:
            self.gesture = LineDrag(point, point)
        else:
            editor.pen.click(at, point)

    def _press_select(self, at: Coord, point: Coord, adding: bool) -> None:
        editor = self.editor
        draft = editor.draft
        found = self.hit(at)
        if found is None:
            if not adding:
                editor.selection = frozenset()
            self.gesture = BoxSelect(at, at, adding)
            return
        if found.kind is P.HitKind.VERTEX:
            if found.part not in editor.selection:
                editor.selection = frozenset({found.part})
            self.gesture = DragPoint(found.part, found.vertex, draft)
        elif found.kind is P.HitKind.MIDPOINT:
            ring = P.ring_of(draft, found.part)
            inserted = ring[:found.vertex + 1] + (point,) + ring[found.vertex + 1:]
            base = P.with_ring(draft, found.part, inserted)
            editor.selection = frozenset({found.part})
            self.gesture = DragPoint(found.part, found.vertex + 1, base)
            self.preview = base
        else:
            if adding:
                editor.selection = editor.selection ^ {found.part}
            elif found.part not in editor.selection:
                editor.selection = frozenset({found.part})
            if found.part in editor.selection:
                self.gesture = MoveParts(editor.selection, point, draft)

    def drag(self, at: Coord, half: bool = False) -> None:
        """The pointer moved with the button held."""
        self.pointer = at
        gesture = self.gesture
        point = snap(at, half)
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
        editor = self.editor
        self.pointer = at
        gesture, self.gesture = self.gesture, None
        preview, self.preview = self.preview, None
        point = snap(at, half)
        if isinstance(gesture, DragPoint | MoveParts):
            if preview is not None and preview != editor.draft:
                editor.commit(preview)
        elif isinstance(gesture, BoxSelect):
            if math.dist(gesture.origin, at) > CLICK_SLOP:
                boxed = P.in_box(editor.draft, gesture.origin, at)
                editor.selection = frozenset(editor.selection | boxed if gesture.adding
                                             else boxed)
        elif isinstance(gesture, Stroke):
            stroke = [*gesture.points, at]
            if _length(stroke) < CLICK_SLOP * 1.5:
                editor.pen.road_click(gesture.points[0], snap(gesture.points[0], half))
            else:
                editor.pen.freehand(stroke)
        elif isinstance(gesture, LineDrag):
            if point != gesture.origin:
                editor.pen.finish_line(gesture.origin, point)
            else:
                editor.commit(editor.draft.with_changes(
                    sketch=Sketch(editor.tool.value, (point,))))

    def cancel(self) -> None:
        self.gesture = None
        self.preview = None


def _length(points: list[Coord]) -> float:
    return sum(math.dist(a, b) for a, b in zip(points, points[1:], strict=False))
