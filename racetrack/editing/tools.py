"""The editor's tools and the keys that pick them, with the words the panel and the list of
every key (F1) show."""

from __future__ import annotations

from enum import Enum


class Tool(Enum):
    """What a click on the paper does."""

    SELECT = "select"
    ROAD = "road"
    OUTLINE = "outline"
    HOLE = "hole"
    ZONE = "zone"
    START = "start"
    FINISH = "finish"
    CHECKPOINT = "checkpoint"
    WAYPOINT = "waypoint"
    COLLECTABLE = "collectable"
    AREA = "area"
    PLACE = "place"

    @property
    def draws_polygon(self) -> bool:
        return self in (Tool.OUTLINE, Tool.HOLE, Tool.ZONE, Tool.AREA)

    @property
    def draws_line(self) -> bool:
        return self in (Tool.START, Tool.FINISH, Tool.CHECKPOINT)

    @property
    def key(self) -> str:
        return next(key for key, tool in TOOL_KEYS.items() if tool is self)


TOOL_KEYS: dict[str, Tool] = {
    "v": Tool.SELECT, "p": Tool.ROAD, "o": Tool.OUTLINE, "h": Tool.HOLE, "z": Tool.ZONE,
    "s": Tool.START, "f": Tool.FINISH, "c": Tool.CHECKPOINT, "w": Tool.WAYPOINT,
    "i": Tool.COLLECTABLE, "a": Tool.AREA, "g": Tool.PLACE,
}

#: One line per tool: what a click does with it.
TOOL_HELP: dict[Tool, str] = {
    Tool.SELECT: "click to select, drag to move; drag the paper for a box; drag a point, "
                 "click an edge's middle to add one",
    Tool.ROAD: "click the centreline's points (or drag freehand); click the first point to "
               "close a circuit, Enter for an open road; [ ] width",
    Tool.OUTLINE: "click the corners; click the first point or press Enter to close",
    Tool.HOLE: "click the corners of an infield; close it like the outline",
    Tool.ZONE: "click the corners of a zone; K changes its kind",
    Tool.START: "click both ends of the start line (or drag across the track)",
    Tool.FINISH: "click both ends of the finish line",
    Tool.CHECKPOINT: "click both ends of a checkpoint; PgUp/PgDn renumbers it",
    Tool.WAYPOINT: "click a point to add it to the course, again to remove it",
    Tool.COLLECTABLE: "click a point to place a coin or gadget, again to take it away; K "
                      "changes what",
    Tool.AREA: "click the corners of a finish or checkpoint area (cells a car passes over, "
               "any way); K: finish or checkpoint",
    Tool.PLACE: "click a point to add a start place (cars line up on these, not on the "
                "start line), again to remove it",
}

#: One short line per tool, for the list of every key (F1).
TOOL_SHORT: dict[Tool, str] = {
    Tool.SELECT: "select, move; drag the paper for a box",
    Tool.ROAD: "road: click or drag its centreline",
    Tool.OUTLINE: "outline: click its corners",
    Tool.HOLE: "hole: the corners of an infield",
    Tool.ZONE: "zone: its corners (K: its kind)",
    Tool.START: "start line: both ends",
    Tool.FINISH: "finish line: both ends",
    Tool.CHECKPOINT: "checkpoint: both ends",
    Tool.WAYPOINT: "waypoint: click a point",
    Tool.COLLECTABLE: "coin or gadget (K: which)",
    Tool.AREA: "finish or checkpoint area (K)",
    Tool.PLACE: "start place: click a point",
}

#: The keys that work in every tool, for the list of every key (F1): the drawing's own, then
#: the window's (panning, zooming, the test drive, racing, the files).
KEY_HELP: tuple[tuple[str, str], ...] = (
    ("Enter", "close the shape; end an open road"),
    ("Esc", "back out: a drag, a shape, the selection, the editor"),
    ("Backspace", "remove the last point drawn"),
    ("Del, right-click", "remove a point, a line or the selection"),
    ("click an arrow", "flip which way cars cross"),
    ("[ / ]", "the road's width"),
    ("K", "the next kind of zone, item or area"),
    ("PgUp / PgDn", "renumber a checkpoint"),
    ("M / Shift+M", "mirror the selection (left-right / up-down)"),
    ("E / Shift+E", "rotate it a quarter turn"),
    ("Shift+arrows", "nudge the selection"),
    ("Ctrl+A, Ctrl+D", "select all, duplicate"),
    ("Ctrl+C / Ctrl+V", "copy / paste"),
    ("+ / -", "laps"),
    ("N / D", "name / description"),
    ("arrows, middle drag, Space+drag", "pan"),
    ("wheel", "zoom"),
    ("Home", "show the whole drawing"),
    ("T", "test drive: the optimal line"),
    ("R", "race on it"),
    ("Ctrl+S / Ctrl+Shift+S", "save / save as"),
    ("Ctrl+O / Ctrl+N", "open / new from a template"),
    ("Ctrl+Z / Ctrl+Y", "undo / redo"),
    ("F1", "this list"),
)
