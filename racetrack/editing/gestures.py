"""What a held mouse button is doing in the editor, from press to release.

Dragging a corner or a line's end, moving whole shapes, a selection box, a freehand road
stroke, or a line drawn from one end to the other. While a drag lasts the editor shows its
result (``moved_point``, a translation) without making it a step of undo; the release does.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from racetrack.board.geometry import Coord, Line
from racetrack.board.track.draft import Draft
from racetrack.editing import parts as P


@dataclass
class DragPoint:
    part: P.Part
    vertex: int
    base: Draft  # the draft the drag started from (with a corner inserted, for a midpoint)


@dataclass
class MoveParts:
    parts: frozenset[P.Part]
    origin: Coord
    base: Draft


@dataclass
class BoxSelect:
    origin: Coord
    corner: Coord
    adding: bool


@dataclass
class Stroke:
    points: list[Coord] = field(default_factory=list)


@dataclass
class LineDrag:
    origin: Coord
    end: Coord


Gesture = DragPoint | MoveParts | BoxSelect | Stroke | LineDrag


def moved_point(draft: Draft, part: P.Part, vertex: int, point: Coord) -> Draft:
    """The draft with one point of a part moved: a ring's corner, a line's end (its arrow
    squared up if the move turned it to run along the line), or a point item."""
    if part.kind.is_ring:
        ring = list(P.ring_of(draft, part))
        ring[vertex] = point
        return P.with_ring(draft, part, tuple(ring))
    if part.kind.is_line:
        line = P.line_of(draft, part)
        a, b = (point, line.b) if vertex == 0 else (line.a, point)
        if a == b:
            return draft
        moved = Line(a, b, line.forward)
        if moved.is_degenerate:  # dragged round until the arrow ran along it: square it up
            dx, dy = b[0] - a[0], b[1] - a[1]
            moved = Line(a, b, (-dy, dx))
        return P.with_line(draft, part, moved)
    return P.with_point(draft, part, point)
