"""The static layers: graph paper and the track drawn on it, cached on one surface.

Drawing thousands of grid lines and a detailed outline every frame would cost the frame rate,
so the sheet is drawn once per zoom level onto a surface covering the whole paper, and each
frame only blits it. It is redrawn when the scale changes.
"""

from __future__ import annotations

import math

import pygame

from racetrack.board.course import Course, sheet_of
from racetrack.board.geometry import Line
from racetrack.board.track import Track
from racetrack.ui import theme
from racetrack.ui.render.camera import Camera
from racetrack.ui.render.lines import dashed_line

#: The largest cached sheet, in pixels; beyond it the sheet is drawn at a smaller scale.
MAX_PIXELS = 24_000_000
OUTSIDE_TINT = (236, 232, 220)


class SheetCache:
    """The paper and the track at one scale, with the world position of its corner."""

    def __init__(self, course: Course):
        self.course = course
        self.scale = 0.0
        self.surface: pygame.Surface | None = None
        self._kept: dict[float, pygame.Surface] = {}  # at most this and the next scale
        x0, y0, x1, y1 = course.sheet
        self.origin = (x0, y0)
        self.size = (x1 - x0, y1 - y0)

    @property
    def max_scale(self) -> float:
        """The largest scale whose sheet fits the pixel budget (the camera keeps below it)."""
        width, height = self.size
        return math.sqrt(MAX_PIXELS / max(1, width * height))

    def prepare(self, scale: float) -> None:
        """Draw the sheet at a scale about to be used, and keep it beside the current one
        (the race draws its following zoom while the whole track still shows)."""
        scale = min(scale, self.max_scale)
        if scale not in self._kept:
            current = (self.scale, self.surface)
            self._render(scale)
            self._kept = {scale: self.surface}
            if current[1] is not None:
                self._kept[current[0]] = current[1]
            self.scale, self.surface = current

    def draw(self, target: pygame.Surface, camera: Camera) -> None:
        if self.surface is None or abs(self.scale - camera.scale) > 1e-6:
            if camera.scale in self._kept:
                self.scale, self.surface = camera.scale, self._kept[camera.scale]
            else:
                self._render(camera.scale)
            self._kept = {self.scale: self.surface}
        assert self.surface is not None
        sx, sy = camera.to_screen(*self.origin)
        placed = self.surface.get_rect(topleft=(round(sx), round(sy)))
        if not placed.contains(target.get_clip()):
            self._paper_beyond(target, camera.scale, placed)
        target.blit(self.surface, placed)

    def _paper_beyond(self, target: pygame.Surface, scale: float, placed: pygame.Rect) -> None:
        """The paper goes on past the cached sheet: off-track tint with the grid, its lines
        placed by the same rounding as the sheet's own (``grid_lines``), so they run on
        across the sheet's edge without a seam or a step at any zoom. Only the strips outside
        the sheet are drawn (a few hundred short lines at the smallest zoom)."""
        view = target.get_clip()
        strips = [pygame.Rect(view.x, view.y, view.w, max(0, placed.top - view.y)),
                  pygame.Rect(view.x, placed.bottom, view.w, max(0, view.bottom - placed.bottom)),
                  pygame.Rect(view.x, placed.top, max(0, placed.left - view.x), placed.h),
                  pygame.Rect(placed.right, placed.top, max(0, view.right - placed.right),
                              placed.h)]
        colours = theme.palette()
        for strip in strips:
            strip = strip.clip(view)
            if not strip.w or not strip.h:
                continue
            target.set_clip(strip)
            target.fill(OUTSIDE_TINT, strip)
            ox, oy = self.origin
            for offset, major in grid_lines(ox, scale, strip.left - placed.x,
                                            strip.right - placed.x):
                x = placed.x + offset
                target.fill(colours.grid_major if major else colours.grid,
                            (x, strip.top, 1, strip.h))
            for offset, major in grid_lines(oy, scale, strip.top - placed.y,
                                            strip.bottom - placed.y):
                y = placed.y + offset
                target.fill(colours.grid_major if major else colours.grid,
                            (strip.left, y, strip.w, 1))
        target.set_clip(view)

    def _render(self, scale: float) -> None:
        self.scale = scale
        width, height = self.size
        pixels = (max(1, round(width * scale)) + 1, max(1, round(height * scale)) + 1)
        surface = pygame.Surface(pixels)
        draw_sheet(surface, self.course, scale, self.origin)
        # In the window's own pixel format each frame's blit is a plain copy.
        self.surface = surface.convert() if pygame.display.get_surface() is not None \
            else surface


def draw_sheet(surface: pygame.Surface, course: Course, scale: float,
               origin: tuple[float, float]) -> None:
    """Paper, grid, the off-track tint, zones, walls in ink, and the lines."""
    draw_drawing(surface, course.track, scale, origin)


def draw_drawing(surface: pygame.Surface, drawing, scale: float,
                 origin: tuple[float, float]) -> None:
    """The sheet of a track, or of a drawing still in progress (the editor's draft): any
    value with a track's fields, where the outline may be missing or unclosed and the start
    line not drawn yet. Paper, grid, the off-track tint (outside the outline and over the
    holes, like an infield), zones, walls in ink, and the lines with their arrows."""
    colours = theme.palette()
    surface.fill(colours.paper)
    ox, oy = origin

    def at(x: float, y: float) -> tuple[float, float]:
        return ((x - ox) * scale, (y - oy) * scale)

    # Off the track: a soft tint outside the outline and inside the holes.
    if len(drawing.outer) >= 3:
        surface.fill(OUTSIDE_TINT)
        pygame.draw.polygon(surface, colours.paper, [at(*p) for p in drawing.outer])
        for hole in drawing.holes:
            if len(hole) >= 3:
                pygame.draw.polygon(surface, OUTSIDE_TINT, [at(*p) for p in hole])
    _grid(surface, scale, origin, colours)
    for zone in drawing.zones:
        if len(zone.polygon) >= 3:
            _zone(surface, zone.kind, [at(*p) for p in zone.polygon], scale)
    _areas(surface, drawing, at, scale)
    ink_width = max(2, round(scale / 10))
    for ring in (drawing.outer, *drawing.holes):
        if len(ring) >= 2:
            points = [at(*p) for p in ring]
            pygame.draw.lines(surface, colours.ink, True, points, ink_width)
            pygame.draw.aalines(surface, colours.ink, True, points)
    for index, line in enumerate(drawing.checkpoints):
        _line(surface, line, at, scale, theme.CHECKPOINT_COLOUR, dashed=True,
              label=str(index + 1))
    for index, point in enumerate(drawing.waypoints):
        last = index == len(drawing.waypoints) - 1 and drawing.finish is None
        _waypoint(surface, at(*point), scale, index + 1, finish=last)
    # The finish is chequered; on a circuit the start line is the finish too.
    finish_line = drawing.finish if drawing.finish is not None else drawing.start
    if finish_line is not None and (drawing.finish is not None or not drawing.waypoints):
        _checkered(surface, finish_line, at, scale)
    if drawing.finish is not None:
        _arrow(surface, drawing.finish, at, scale, theme.FINISH_COLOUR)
    if drawing.start is not None:
        _line(surface, drawing.start, at, scale, theme.START_COLOUR)
    for point in drawing.start_points:
        centre = at(*point)
        pygame.draw.circle(surface, theme.START_COLOUR, centre, max(4.0, scale * 0.32),
                           max(2, round(scale / 10)))


def _areas(surface: pygame.Surface, drawing, at, scale: float) -> None:
    """A finish drawn as an area, chequered; checkpoint areas tinted in the checkpoints'
    colour, each numbered. (Imported maps' cells: each run of cells one rectangle.)"""
    for index, area in enumerate(drawing.checkpoint_areas):
        rings = [[at(*p) for p in ring] for ring in area.polygons if len(ring) >= 3]
        for ring in rings:
            _fill(surface, ring, lambda layer, box: layer.fill((*theme.CHECKPOINT_COLOUR, 90)))
            pygame.draw.aalines(surface, theme.CHECKPOINT_COLOUR, True, ring)
        if rings:
            label = theme.hand(max(16, round(scale * 0.8)), bold=True).render(
                str(index + 1), True, theme.CHECKPOINT_COLOUR)
            xs, ys = [x for x, _ in rings[0]], [y for _, y in rings[0]]
            surface.blit(label, label.get_rect(center=((min(xs) + max(xs)) / 2,
                                                       (min(ys) + max(ys)) / 2)))
    area = drawing.finish_area
    if area is None:
        return
    cell = max(3.0, scale / 3)
    origin = at(0, 0)

    def chequer(layer: pygame.Surface, box: pygame.Rect) -> None:
        first_x = math.floor((box.x - origin[0]) / cell)
        first_y = math.floor((box.y - origin[1]) / cell)
        for j in range(first_y, math.ceil((box.bottom - origin[1]) / cell) + 1):
            for i in range(first_x, math.ceil((box.right - origin[0]) / cell) + 1):
                colour = (30, 30, 30, 215) if (i + j) % 2 == 0 else (250, 250, 250, 215)
                layer.fill(colour, (round(origin[0] + i * cell) - box.x,
                                    round(origin[1] + j * cell) - box.y,
                                    math.ceil(cell), math.ceil(cell)))

    for ring in area.polygons:
        if len(ring) >= 3:
            points = [at(*p) for p in ring]
            _fill(surface, points, chequer)
            pygame.draw.aalines(surface, theme.FINISH_COLOUR, True, points)


def _fill(surface: pygame.Surface, points: list[tuple[float, float]], paint) -> None:
    """Paint (``paint(layer, box)``) a layer over the polygon's bounds and keep only what
    falls inside the polygon: a texture that follows any outline."""
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    box = pygame.Rect(math.floor(min(xs)), math.floor(min(ys)), 0, 0)
    box.w, box.h = math.ceil(max(xs)) + 1 - box.x, math.ceil(max(ys)) + 1 - box.y
    box = box.clip(surface.get_rect())
    if box.w <= 0 or box.h <= 0:
        return
    layer = pygame.Surface(box.size, pygame.SRCALPHA)
    paint(layer, box)
    mask = pygame.Surface(box.size, pygame.SRCALPHA)
    pygame.draw.polygon(mask, (255, 255, 255, 255), [(x - box.x, y - box.y) for x, y in points])
    layer.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MIN)
    surface.blit(layer, box.topleft)


def arrow_length(scale: float) -> float:
    """How far a line's arrow reaches from the line's middle, in squares, at this scale
    (the editor lets a click on it flip the line)."""
    return max(6.0, scale * 0.6) * 1.6 / scale


def _waypoint(surface, centre: tuple[float, float], scale: float, number: int,
              finish: bool) -> None:
    """A numbered ring around a lattice point a car must end a move on (chequered: the last)."""
    radius = max(7.0, scale * 0.55)
    width = max(2, round(scale / 10))
    if finish:
        for i in range(8):  # a ring of black and white segments: the finish
            start = i * math.pi / 4
            rect = pygame.Rect(0, 0, radius * 2.6, radius * 2.6)
            rect.center = centre
            pygame.draw.arc(surface, (30, 30, 30) if i % 2 else (250, 250, 250), rect, start,
                            start + math.pi / 4, max(3, width * 2))
    pygame.draw.circle(surface, theme.CHECKPOINT_COLOUR, centre, radius, width)
    text = theme.hand(max(16, round(scale * 0.9)), bold=True).render(
        str(number), True, theme.CHECKPOINT_COLOUR)
    surface.blit(text, text.get_rect(midbottom=(centre[0] + radius, centre[1] - radius * 0.6)))


def grid_lines(origin: float, scale: float, first: float, last: float,
               ) -> list[tuple[int, bool]]:
    """Where the grid's lines fall along one axis of a sheet whose corner is at lattice
    coordinate ``origin``: (pixel offset from the corner, major?) for every line between the
    pixel offsets ``first`` and ``last``. Lines are whole lattice coordinates (every fifth
    one when the squares are tiny), major every tenth; offsets are rounded one way
    everywhere, so the sheet and the paper beyond it agree to the pixel."""
    step = 1 if scale >= 5 else 5
    start = math.ceil((origin + first / scale) / step) * step
    found = []
    coordinate = start
    while (coordinate - origin) * scale <= last:
        found.append((round((coordinate - origin) * scale), coordinate % 10 == 0))
        coordinate += step
    return found


def _grid(surface: pygame.Surface, scale: float, origin: tuple[float, float],
          colours: theme.Palette) -> None:
    width, height = surface.get_size()
    ox, oy = origin
    for offset, major in grid_lines(ox, scale, 0, width):
        surface.fill(colours.grid_major if major else colours.grid, (offset, 0, 1, height))
    for offset, major in grid_lines(oy, scale, 0, height):
        surface.fill(colours.grid_major if major else colours.grid, (0, offset, width, 1))


def _zone(surface: pygame.Surface, kind: str, points: list[tuple[float, float]],
          scale: float) -> None:
    """A zone: its colour, a texture of its kind (waves, chevrons, blots, hatching), its edge
    and its name. The layers cover the zone's bounds on the surface only, not the whole sheet,
    so a sheet of many zones stays quick."""
    fill, edge = theme.ZONE_COLOURS.get(kind, ((200, 200, 200), (100, 100, 100)))
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    box = pygame.Rect(math.floor(min(xs)) - 2, math.floor(min(ys)) - 2, 0, 0)
    box.w, box.h = math.ceil(max(xs)) + 3 - box.x, math.ceil(max(ys)) + 3 - box.y
    box = box.clip(surface.get_rect())
    if box.w <= 0 or box.h <= 0:
        return
    local = [(x - box.x, y - box.y) for x, y in points]
    left, top = min(xs) - box.x, min(ys) - box.y
    right, bottom = max(xs) - box.x, max(ys) - box.y
    layer = pygame.Surface(box.size, pygame.SRCALPHA)
    alpha = 170 if kind == "oil" else 140
    pygame.draw.polygon(layer, (*fill, alpha), local)
    mask = pygame.Surface(box.size, pygame.SRCALPHA)
    pygame.draw.polygon(mask, (255, 255, 255, 255), local)
    texture = pygame.Surface(box.size, pygame.SRCALPHA)
    gap = max(6, round(scale / 2.5))
    if kind == "water":
        y = top + gap / 2
        while y < bottom:
            wave = [(x, y + math.sin((x + box.x) / gap * 2) * gap / 5)
                    for x in range(int(left), int(right) + 1, 3)]
            if len(wave) > 1:
                pygame.draw.lines(texture, (*edge, 200), False, wave, 1)
            y += gap
    elif kind == "jump":
        x = left
        while x < right:
            mid = (top + bottom) / 2
            pygame.draw.lines(texture, (*edge, 210), False,
                              [(x, mid - gap), (x + gap / 2, mid), (x, mid + gap)], 2)
            x += gap
    elif kind == "oil":
        for i, (px, py) in enumerate(local[:: max(1, len(local) // 6)]):
            cx, cy = (px * 2 + (left + right) / 2) / 3, (py * 2 + (top + bottom) / 2) / 3
            pygame.draw.circle(texture, (*edge, 200), (cx, cy), max(2, gap / 3 + i % 3))
    else:
        x = left - (bottom - top)
        while x < right:
            pygame.draw.line(texture, (*edge, 120), (x, bottom), (x + (bottom - top), top), 1)
            x += gap
    texture.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MIN)
    layer.blit(texture, (0, 0))
    surface.blit(layer, box.topleft)
    pygame.draw.aalines(surface, edge, True, points)
    label = theme.hand(max(16, round(scale * 0.8)), bold=True).render(kind, True, edge)
    surface.blit(label, label.get_rect(center=((min(xs) + max(xs)) / 2,
                                               (min(ys) + max(ys)) / 2)))


def _line(surface, line: Line, at, scale: float, colour, dashed: bool = False,
          label: str | None = None) -> None:
    a, b = at(*line.a), at(*line.b)
    width = max(2, round(scale / 8))
    if dashed:
        dashed_line(surface, colour, a, b, width, max(4.0, scale / 3))
    else:
        pygame.draw.line(surface, colour, a, b, width)
    _arrow(surface, line, at, scale, colour)
    if label:
        text = theme.hand(max(16, round(scale * 0.9)), bold=True).render(label, True, colour)
        fx, fy = _unit(line.forward)
        centre = ((a[0] + b[0]) / 2 - fx * scale * 0.9, (a[1] + b[1]) / 2 - fy * scale * 0.9)
        surface.blit(text, text.get_rect(center=centre))


def _checkered(surface, line: Line, at, scale: float) -> None:
    """A chequered strip along the line, on its forward side: the finish."""
    a, b = at(*line.a), at(*line.b)
    length = math.dist(a, b)
    cell = max(3.0, scale / 3)
    count = max(1, int(length / cell))
    fx, fy = _unit(line.forward)
    # The strip's thickness, on the side the cars cross to.
    ox, oy = fx * cell, fy * cell
    for i in range(count):
        p0, p1 = _lerp(a, b, i / count), _lerp(a, b, (i + 1) / count)
        for row in range(2):
            colour = (30, 30, 30) if (i + row) % 2 == 0 else (250, 250, 250)
            quad = [(p0[0] + ox * row, p0[1] + oy * row), (p1[0] + ox * row, p1[1] + oy * row),
                    (p1[0] + ox * (row + 1), p1[1] + oy * (row + 1)),
                    (p0[0] + ox * (row + 1), p0[1] + oy * (row + 1))]
            pygame.draw.polygon(surface, colour, quad)


def _arrow(surface, line: Line, at, scale: float, colour) -> None:
    """A small arrow at the middle of the line, pointing the way cars cross it."""
    a, b = at(*line.a), at(*line.b)
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    fx, fy = _unit(line.forward)
    size = max(6.0, scale * 0.6)
    tip = (mx + fx * size * 1.6, my + fy * size * 1.6)
    base = (mx + fx * size * 0.6, my + fy * size * 0.6)
    px, py = -fy, fx
    pygame.draw.line(surface, colour, (mx, my), base, max(2, round(scale / 10)))
    wing = size * 0.5
    pygame.draw.polygon(surface, colour, [tip, (base[0] + px * wing, base[1] + py * wing),
                                          (base[0] - px * wing, base[1] - py * wing)])


def _unit(vector: tuple[float, float]) -> tuple[float, float]:
    length = math.hypot(*vector) or 1.0
    return vector[0] / length, vector[1] / length


def _lerp(a, b, t: float) -> tuple[float, float]:
    return a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t


#: A track's thumbnail in the lists of tracks and saved races, in pixels.
THUMB = (210, 130)


def thumbnail(track: Track, size: tuple[int, int] = THUMB) -> pygame.Surface:
    """The whole sheet of a track, small, for a list (drawn from the track alone: a track the
    rules cannot race yet is still shown)."""
    x0, y0, x1, y1 = sheet_of(track)
    scale = min(size[0] / (x1 - x0), size[1] / (y1 - y0))
    picture = pygame.Surface((round((x1 - x0) * scale) + 1, round((y1 - y0) * scale) + 1))
    draw_drawing(picture, track, scale, (x0, y0))
    return picture


def paper_background(surface: pygame.Surface, spacing: int = 24) -> None:
    """Plain graph paper filling the window (menus sit on it)."""
    colours = theme.palette()
    surface.fill(colours.paper)
    width, height = surface.get_size()
    for x in range(0, width, spacing):
        pygame.draw.line(surface, colours.grid, (x, 0), (x, height))
    for y in range(0, height, spacing):
        pygame.draw.line(surface, colours.grid, (0, y), (width, y))
