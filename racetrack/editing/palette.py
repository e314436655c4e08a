"""What the next shape is made of: a zone's kind, an area's, the coin or gadget placed, and
the road's width; changing one also changes the selected shapes of that kind, or the shape
being drawn.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from racetrack.board.track import COLLECTABLE_KINDS, ZONE_KINDS
from racetrack.board.track.draft import AREA_KINDS, Draft, Sketch
from racetrack.editing import parts as P
from racetrack.editing.road import DEFAULT_WIDTH, MAX_WIDTH, MIN_WIDTH
from racetrack.editing.tools import Tool

if TYPE_CHECKING:
    from racetrack.editing.state import EditorState


class Palette:
    def __init__(self, editor: EditorState, draft: Draft):
        self.editor = editor
        self.zone_kind = ZONE_KINDS[0]
        self.collectable_kind = COLLECTABLE_KINDS[0]
        self.area_kind = AREA_KINDS[0]
        sketch = draft.sketch
        self.road_width = sketch.width if sketch and sketch.width else DEFAULT_WIDTH

    def take_up(self, sketch: Sketch) -> None:
        """Carry on with a shape that came back (undo, redo): its kind and width."""
        if sketch.kind and sketch.tool == Tool.AREA.value:
            self.area_kind = sketch.kind
        elif sketch.kind:
            self.zone_kind = sketch.kind
        if sketch.width:
            self.road_width = sketch.width

    def cycle_kind(self) -> None:
        """K: the next kind for the selected zones or collectables, or for the next one
        drawn."""
        editor = self.editor
        zones, items = self._chosen(P.PartKind.ZONE), self._chosen(P.PartKind.COLLECTABLE)
        if zones:
            self.choose_zone_kind(_next(ZONE_KINDS, editor.draft.zones[zones[0].index].kind))
        elif items:
            self.choose_collectable_kind(_next(COLLECTABLE_KINDS,
                                               editor.draft.collectables[items[0].index].kind))
        elif editor.tool is Tool.COLLECTABLE:
            self.choose_collectable_kind(_next(COLLECTABLE_KINDS, self.collectable_kind))
        elif editor.tool is Tool.AREA:
            self.choose_area_kind(_next(AREA_KINDS, self.area_kind))
        else:
            self.choose_zone_kind(_next(ZONE_KINDS, self.zone_kind))

    def choose_area_kind(self, kind: str) -> None:
        """Whether the area being drawn (and the next) is a piece of the finish or a
        checkpoint."""
        self.area_kind = kind
        self._sketch_kind(Tool.AREA, kind)

    def choose_zone_kind(self, kind: str) -> None:
        """The kind of the selected zones (an edit), else of the zone being drawn and the next."""
        self.zone_kind = kind
        if not self._selected_become(P.PartKind.ZONE, kind):
            self._sketch_kind(Tool.ZONE, kind)

    def choose_collectable_kind(self, kind: str) -> None:
        self.collectable_kind = kind
        self._selected_become(P.PartKind.COLLECTABLE, kind)

    def _selected_become(self, part: P.PartKind, kind: str) -> bool:
        """The selected parts of one sort take ``kind`` (one step of undo); False if none
        is selected."""
        chosen = self._chosen(part)
        if chosen:
            self.editor.commit(P.with_kind(self.editor.draft, chosen, kind))
        return bool(chosen)

    def widen(self, by: float) -> None:
        """[ and ]: the road tool's width (and the road being drawn's)."""
        self.road_width = min(MAX_WIDTH, max(MIN_WIDTH, self.road_width + by))
        sketch = self.editor.draft.sketch
        if sketch is not None and sketch.tool == Tool.ROAD.value:
            self.editor.commit(self.editor.draft.with_changes(
                sketch=Sketch(sketch.tool, sketch.points, width=self.road_width)))

    def _sketch_kind(self, tool: Tool, kind: str) -> None:
        sketch = self.editor.draft.sketch
        if sketch is not None and sketch.tool == tool.value:
            self.editor.commit(self.editor.draft.with_changes(sketch=replace(sketch, kind=kind)))

    def _chosen(self, kind: P.PartKind) -> list[P.Part]:
        """The selected parts of a kind (the selection counts in the select tool only)."""
        if self.editor.tool is not Tool.SELECT:
            return []
        return sorted(p for p in self.editor.selection if p.kind is kind)


def _next(kinds: tuple[str, ...], kind: str) -> str:
    return kinds[(kinds.index(kind) + 1) % len(kinds)] if kind in kinds else kinds[0]
