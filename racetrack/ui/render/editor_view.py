"""The editor's paper: the drawing through the race sheet's own functions, and what moves.

The drawing (paper, tint, zones, walls, lines, the sheet's edge) is drawn by
``sheet.draw_drawing`` onto a cached surface a little larger than the view, and only drawn
again when the drawing, the zoom, or a pan beyond the cached margin changes it; each frame
blits it and adds the few things that follow the pointer: the selection, handles, the shape
being drawn with its rubber band (a road's band at its full width), the box being dragged,
problem marks, the optimal line and the cursor with its coordinates.
"""

from __future__ import annotations

import math

import pygame

from racetrack.board.course import SHEET_MARGIN
from racetrack.board.geometry import Coord
from racetrack.board.track.draft import Draft, Severity
from racetrack.editing import parts as P
from racetrack.editing.pointer import snap
from racetrack.editing.road import RoadError, road_surface
from racetrack.editing.state import BoxSelect, EditorState, LineDrag, Stroke
from racetrack.editing.tools import Tool
from racetrack.ui import theme
from racetrack.ui.render import ghost
from racetrack.ui.render.camera import Camera
from racetrack.ui.render.gadgets import draw_collectable
from racetrack.ui.render.lines import dashed_line
from racetrack.ui.render.sheet import draw_drawing
from racetrack.ui.render.words import tip

PROBLEM = (210, 40, 40)
WARNING = (226, 140, 20)
SELECTED = (255, 190, 40)
#: How much of the view the cached drawing reaches beyond each edge, so a short pan only blits.
MARGIN = 0.25
#: With more corners than this in the drawing, only the selected shapes show their handles.
MANY_HANDLES = 400


class EditorCanvas:
    """Draws an ``EditorState`` on the part of the window the camera covers."""

    def __init__(self):
        self._surface: pygame.Surface | None = None
        self._key: tuple | None = None
        self._origin: Coord = (0.0, 0.0)
        self._road: tuple[tuple, list[list[Coord]]] | None = None

    # -- the cached drawing --------------------------------------------------------------------

    def _cached(self, draft: Draft, camera: Camera, margin: float = MARGIN) -> None:
        view = camera.to_world(camera.offset_x, camera.offset_y), camera.to_world(
            camera.offset_x + camera.width, camera.offset_y + camera.height)
        key = self._key
        covered = key is not None and key[0] is draft and key[1] == camera.scale and \
            key[2] == (camera.width, camera.height) and \
            key[3][0] <= view[0][0] and key[3][1] <= view[0][1] and \
            key[3][2] >= view[1][0] and key[3][3] >= view[1][1]
        if covered:
            return
        width, height = view[1][0] - view[0][0], view[1][1] - view[0][1]
        x0, y0 = view[0][0] - width * margin, view[0][1] - height * margin
        x1, y1 = view[1][0] + width * margin, view[1][1] + height * margin
        size = (math.ceil((x1 - x0) * camera.scale) + 1, math.ceil((y1 - y0) * camera.scale) + 1)
        if self._surface is None or self._surface.get_size() != size:
            self._surface = pygame.Surface(size)
        draw_drawing(self._surface, draft, camera.scale, (x0, y0))
        _sheet_edge(self._surface, draft, camera.scale, (x0, y0))
        for item in draft.collectables:
            draw_collectable(self._surface, item.kind, ((item.at[0] - x0) * camera.scale,
                                                        (item.at[1] - y0) * camera.scale),
                             camera.scale)
        self._origin = (x0, y0)
        self._key = (draft, camera.scale, (camera.width, camera.height), (x0, y0, x1, y1))

    # -- a frame -------------------------------------------------------------------------------

    def draw(self, surface: pygame.Surface, state: EditorState, camera: Camera,
             mouse: tuple[int, int] | None, half: bool = False) -> None:
        view = pygame.Rect(camera.offset_x, camera.offset_y, camera.width, camera.height)
        clip = surface.get_clip()
        surface.set_clip(view)
        draft = state.shown
        # A shape being dragged changes the drawing every frame: then only the view is drawn.
        self._cached(draft, camera, 0.0 if state.hand.preview is not None else MARGIN)
        assert self._surface is not None
        corner = camera.to_screen(*self._origin)
        surface.blit(self._surface, (round(corner[0]), round(corner[1])))
        _sheet_label(surface, draft, camera, view)
        if state.show_route:
            found = state.analysis()
            if found is not None and found.solution is not None:
                ghost.draw_ghost(surface, camera, found.solution.path, ghost.OPTIMAL,
                                 steps=found.solution.steps)
        self._selection(surface, state, draft, camera)
        self._handles(surface, state, draft, camera)
        world = camera.to_world(*mouse) if mouse and view.collidepoint(mouse) else None
        self._gesture(surface, state, camera, world, half)
        hovered = self._marks(surface, state, camera, mouse)
        if world is not None:
            point = snap(world, half)
            at = camera.to_screen(*point)
            pygame.draw.circle(surface, theme.TEXT, at, 5, 1)
            _readout(surface, view, point)
        if hovered:
            tip(surface, hovered[0], hovered[1])
        surface.set_clip(clip)

    def _selection(self, surface, state: EditorState, draft: Draft, camera: Camera) -> None:
        width = max(5, round(camera.scale / 4))
        for part in state.selection:
            if not P.exists(draft, part):
                continue
            points = [camera.to_screen(*p) for p in P.points_of(draft, part)]
            if part.kind.is_ring and len(points) >= 2:
                pygame.draw.lines(surface, SELECTED, True, points, width)
            elif part.kind.is_line:
                pygame.draw.line(surface, SELECTED, points[0], points[1], width)
            else:
                pygame.draw.circle(surface, SELECTED, points[0], max(9, camera.scale * 0.5), 3)

    def _handles(self, surface, state: EditorState, draft: Draft, camera: Camera) -> None:
        if state.tool is not Tool.SELECT:
            return
        ink = theme.palette().ink
        corners = sum(len(P.points_of(draft, p)) for p in P.all_parts(draft))
        shown = P.all_parts(draft) if corners <= MANY_HANDLES else list(state.selection)
        for part in shown:
            if not P.exists(draft, part) or part.kind.is_point:
                continue
            points = [camera.to_screen(*p) for p in P.points_of(draft, part)]
            for x, y in points:
                if part.kind.is_ring:
                    pygame.draw.rect(surface, (255, 255, 255), (x - 3, y - 3, 7, 7))
                    pygame.draw.rect(surface, ink, (x - 3, y - 3, 7, 7), 1)
                else:
                    pygame.draw.circle(surface, ink, (x, y), 4, 1)
            if part.kind.is_ring and part in state.selection:
                for (ax, ay), (bx, by) in zip(points, points[1:] + points[:1], strict=True):
                    if math.dist((ax, ay), (bx, by)) > 36:  # room for a "+" to add a corner
                        mx, my = (ax + bx) / 2, (ay + by) / 2
                        pygame.draw.line(surface, ink, (mx - 3, my), (mx + 3, my))
                        pygame.draw.line(surface, ink, (mx, my - 3), (mx, my + 3))

    def _gesture(self, surface, state: EditorState, camera: Camera, world: Coord | None,
                 half: bool) -> None:
        gesture = state.hand.gesture
        at = camera.to_screen
        if isinstance(gesture, BoxSelect):
            a, b = at(*gesture.origin), at(*gesture.corner)
            box = pygame.Rect(min(a[0], b[0]), min(a[1], b[1]), abs(a[0] - b[0]),
                              abs(a[1] - b[1]))
            for start, end in ((box.topleft, box.topright), (box.topright, box.bottomright),
                               (box.bottomright, box.bottomleft), (box.bottomleft, box.topleft)):
                dashed_line(surface, theme.TEXT, start, end, 1, 6)
            return
        if isinstance(gesture, LineDrag):
            pygame.draw.line(surface, _tool_colour(state.tool), at(*gesture.origin),
                             at(*gesture.end), 3)
            return
        sketch = state.draft.sketch
        points = list(sketch.points) if sketch is not None else []
        if isinstance(gesture, Stroke):
            points = [*points, *gesture.points]
            if len(points) > 1:
                pygame.draw.lines(surface, theme.FINISH_COLOUR, False, [at(*p) for p in points],
                                  2)
            return
        if sketch is None or not points:
            return
        ahead = snap(world, half) if world is not None else None
        colour = _tool_colour(Tool(sketch.tool))
        if sketch.tool == Tool.ROAD.value:
            self._road_band(surface, state, camera, points, ahead)
        screen = [at(*p) for p in points]
        if len(screen) > 1:
            pygame.draw.lines(surface, colour, False, screen, 2)
        for point in screen:
            pygame.draw.circle(surface, colour, point, 4)
        if len(set(points)) >= 3 and sketch.tool != Tool.START.value:
            pygame.draw.circle(surface, colour, screen[0], 10, 2)  # click here to close
        if ahead is not None:
            dashed_line(surface, colour, screen[-1], at(*ahead), 2, 7)

    def _road_band(self, surface, state: EditorState, camera: Camera, points: list[Coord],
                   ahead: Coord | None) -> None:
        """The road as it would be built with the pointer as its next point, pale."""
        centre = points + ([ahead] if ahead is not None and ahead != points[-1] else [])
        key = (tuple(centre), state.palette.road_width)
        if self._road is None or self._road[0] != key:
            try:
                outer, holes, _ = road_surface(centre, state.palette.road_width, closed=False)
                rings = [list(outer), *[list(h) for h in holes]]
            except (RoadError, ValueError):
                rings = []
            self._road = (key, rings)
        rings = self._road[1]
        if not rings:
            return
        screen = [[camera.to_screen(*p) for p in ring] for ring in rings]
        xs = [p[0] for p in screen[0]]
        ys = [p[1] for p in screen[0]]
        box = pygame.Rect(math.floor(min(xs)), math.floor(min(ys)), 0, 0)
        box.size = (math.ceil(max(xs)) - box.x + 2, math.ceil(max(ys)) - box.y + 2)
        box = box.clip(surface.get_clip())
        if box.w <= 0 or box.h <= 0:
            return
        layer = pygame.Surface(box.size, pygame.SRCALPHA)
        pygame.draw.polygon(layer, (*theme.palette().ink, 40),
                            [(x - box.x, y - box.y) for x, y in screen[0]])
        for hole in screen[1:]:
            pygame.draw.polygon(layer, (0, 0, 0, 0), [(x - box.x, y - box.y) for x, y in hole])
        surface.blit(layer, box)
        for ring in screen:
            pygame.draw.aalines(surface, theme.palette().ink, True, ring)

    def _marks(self, surface, state: EditorState, camera: Camera,
               mouse: tuple[int, int] | None) -> tuple[str, tuple[int, int]] | None:
        hovered = None
        for mark in state.marks():
            x, y = camera.to_screen(*mark.at)
            if mark.severity is Severity.PROBLEM:
                pygame.draw.circle(surface, (255, 255, 255), (x, y), 11)
                pygame.draw.circle(surface, PROBLEM, (x, y), 11, 3)
                colour = PROBLEM
            else:
                triangle = [(x, y - 13), (x + 12, y + 9), (x - 12, y + 9)]
                pygame.draw.polygon(surface, (255, 250, 230), triangle)
                pygame.draw.polygon(surface, WARNING, triangle, 3)
                colour = WARNING
            bang = theme.font(24, bold=True).render("!", True, colour)
            surface.blit(bang, bang.get_rect(center=(x, y + 1)))
            if mouse is not None and math.dist((x, y), mouse) < 14:
                hovered = (mark.message, (round(x) + 16, round(y)))
        return hovered


def _sheet_edge(surface: pygame.Surface, draft: Draft, scale: float, origin: Coord) -> None:
    """The edge of the paper a race on this drawing gets: the outline's bounds and a margin."""
    bounds = sheet_bounds(draft)
    if bounds is None:
        return
    x0, y0, x1, y1 = bounds
    corners = [((x - origin[0]) * scale, (y - origin[1]) * scale)
               for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))]
    area = surface.get_rect()
    for a, b in zip(corners, corners[1:] + corners[:1], strict=True):
        seen = area.clipline(a, b)  # only the part on this surface: a long edge is many dashes
        if seen:
            dashed_line(surface, theme.MUTED, seen[0], seen[1], 1, 10)


def _sheet_label(surface: pygame.Surface, draft: Draft, camera: Camera, view: pygame.Rect,
                 ) -> None:
    """Names the dashed line, on the part of its top edge in view."""
    bounds = sheet_bounds(draft)
    if bounds is None:
        return
    left, top = camera.to_screen(bounds[0], bounds[1])
    right = camera.to_screen(bounds[2], bounds[1])[0]
    label = theme.font(18).render("edge of the sheet", True, theme.MUTED)
    x = max(left + 4, view.x + 4)
    if view.y <= top - 2 <= view.bottom and x + label.get_width() < min(right, view.right):
        surface.blit(label, (x, top - label.get_height() - 2))


def sheet_bounds(draft: Draft) -> tuple[int, int, int, int] | None:
    """The paper a race on this drawing gets: the outline's bounds and a margin (as
    ``Course.sheet`` works it out for a track)."""
    if len(draft.outer) < 3:
        return None
    xs, ys = [p[0] for p in draft.outer], [p[1] for p in draft.outer]
    return (math.floor(min(xs)) - SHEET_MARGIN, math.floor(min(ys)) - SHEET_MARGIN,
            math.ceil(max(xs)) + SHEET_MARGIN, math.ceil(max(ys)) + SHEET_MARGIN)


def _readout(surface: pygame.Surface, view: pygame.Rect, point: Coord) -> None:
    text = "x {:g}   y {:g}".format(*point)
    rendered = theme.font(22).render(text, True, theme.TEXT)
    box = rendered.get_rect(bottomleft=(view.x + 10, view.bottom - 8)).inflate(12, 6)
    pygame.draw.rect(surface, theme.PANEL, box, border_radius=5)
    pygame.draw.rect(surface, theme.PANEL_EDGE, box, 1, border_radius=5)
    surface.blit(rendered, rendered.get_rect(center=box.center))


def _tool_colour(tool: Tool) -> tuple[int, int, int]:
    return {Tool.START: theme.START_COLOUR, Tool.FINISH: theme.FINISH_COLOUR,
            Tool.CHECKPOINT: theme.CHECKPOINT_COLOUR, Tool.ZONE: (90, 90, 90),
            Tool.AREA: theme.CHECKPOINT_COLOUR,
            Tool.ROAD: theme.palette().ink}.get(tool, theme.FINISH_COLOUR)
