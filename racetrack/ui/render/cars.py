"""Cars on the sheet: coloured-pencil trails, the cars with their velocity arrows, and the
candidate points, each drawn for what it does (see ``marks``).

Where two cars drove the same stretch of a line, their pencil lines are drawn side by side
(each offset a pencil's width across the line), and the trail of the car that moved last is
drawn on top, so both stay readable.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import pygame

from racetrack.game import RaceState
from racetrack.geometry import Vec
from racetrack.model import Candidate, CarStatus, Special
from racetrack.outlook import Look, Outlook, quick
from racetrack.ui import theme
from racetrack.ui.render import marks
from racetrack.ui.render.camera import Camera
from racetrack.ui.render.lines import dashed_line

Point = tuple[float, float]


def pencil_width(camera: Camera) -> int:
    return max(2, round(camera.scale / 9))


def shared_offsets(trails: Sequence[Sequence[Vec]]) -> list[list[float]]:
    """For each car's trail, each segment's sideways offset in pencil widths: 0 for a
    segment no other car drove along; for one that shares any unit step of a line with other
    cars' segments, the cars are spread evenly across it in car order (-0.5 and +0.5 for two,
    -1, 0 and +1 for three)."""
    users: dict[tuple[Vec, Vec], set[int]] = {}
    steps: list[list[list[tuple[Vec, Vec]]]] = []
    for car, trail in enumerate(trails):
        segments = []
        for p, q in zip(trail, trail[1:], strict=False):
            units = _unit_steps(p, q)
            for unit in units:
                users.setdefault(unit, set()).add(car)
            segments.append(units)
        steps.append(segments)
    offsets: list[list[float]] = []
    for car, segments in enumerate(steps):
        row = []
        for units in segments:
            sharing: set[int] = set()
            for unit in units:
                if len(users[unit]) > len(sharing):
                    sharing = users[unit]
            if len(sharing) < 2:
                row.append(0.0)
            else:
                order = sorted(sharing)
                row.append(order.index(car) - (len(order) - 1) / 2)
        offsets.append(row)
    return offsets


def _unit_steps(p: Vec, q: Vec) -> list[tuple[Vec, Vec]]:
    """The segment p -> q cut into its lattice steps, each as an unordered pair of points (a
    line driven either way is the same line on the paper)."""
    dx, dy = q.x - p.x, q.y - p.y
    count = math.gcd(abs(dx), abs(dy))
    if count == 0:
        return []
    sx, sy = dx // count, dy // count
    found = []
    for k in range(count):
        a = Vec(p.x + sx * k, p.y + sy * k)
        b = Vec(a.x + sx, a.y + sy)
        found.append((a, b) if (a.x, a.y) <= (b.x, b.y) else (b, a))
    return found


class TrailCache:
    """``shared_offsets`` for a state, worked out again only when a trail grows."""

    def __init__(self):
        self._key: tuple | None = None
        self._offsets: list[list[float]] = []

    def offsets(self, state: RaceState) -> list[list[float]]:
        key = tuple(len(trail) for trail in state.trails)
        if key != self._key:
            self._key = key
            self._offsets = shared_offsets(state.trails)
        return self._offsets


def draw_trails(surface: pygame.Surface, state: RaceState, camera: Camera,
                moving: tuple[int, Point] | None = None,
                cache: TrailCache | None = None) -> None:
    """Every car's trail; ``moving`` = (car, where it is now) for a car mid-animation. The car
    that moved last is drawn last (on top)."""
    colours = theme.palette()
    width = pencil_width(camera)
    offsets = (cache or TrailCache()).offsets(state)
    last = state.history[-1][0] if state.history else None
    order = [i for i in range(len(state.trails)) if i != last] + \
        ([last] if last is not None else [])
    for index in order:
        trail = state.trails[index]
        if index in state.unplaced:
            continue
        colour = colours.pencil(state.race.cars[index].colour)
        points = [camera.to_screen(*p) for p in trail]
        if moving is not None and moving[0] == index:
            points = points[:-1] + [camera.to_screen(*moving[1])]
        shifts = offsets[index] if index < len(offsets) else []
        for number, (a, b) in enumerate(zip(points, points[1:], strict=False)):
            shift = shifts[number] * (width + 1) if number < len(shifts) else 0.0
            a2, b2 = _shifted(a, b, shift)
            pygame.draw.line(surface, colour, a2, b2, width)
            if width <= 3:
                pygame.draw.aaline(surface, colour, a2, b2)
        dot = max(2, width)
        for point in points[:-1]:
            pygame.draw.circle(surface, colour, point, dot)


def _shifted(a: Point, b: Point, shift: float) -> tuple[Point, Point]:
    """The segment a -> b moved ``shift`` pixels to its left."""
    if not shift:
        return a, b
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy) or 1.0
    nx, ny = -dy / length * shift, dx / length * shift
    return (a[0] + nx, a[1] + ny), (b[0] + nx, b[1] + ny)


def draw_velocities(surface: pygame.Surface, state: RaceState, camera: Camera,
                    moving: int | None = None) -> None:
    """Each racing car's velocity as a pale arrow to where its unchanged move leads."""
    colours = theme.palette()
    width = max(1, pencil_width(camera) - 1)
    for index, car in enumerate(state.cars):
        if index in state.unplaced or index == moving or not car.racing \
                or car.velocity.is_zero:
            continue
        colour = theme.pale(colours.pencil(state.race.cars[index].colour), 0.45)
        start = camera.to_screen(*car.position)
        end = camera.to_screen(car.position.x + car.velocity.x,
                               car.position.y + car.velocity.y)
        dashed_line(surface, colour, start, end, width, max(5.0, camera.scale / 4))
        marks.arrow_head(surface, colour, start, end, max(6.0, camera.scale * 0.32))


def draw_cars(surface: pygame.Surface, state: RaceState, camera: Camera,
              moving: tuple[int, Point] | None = None) -> None:
    colours = theme.palette()
    radius = max(5, camera.scale * 0.32)
    current = state.current_car
    for index, car in enumerate(state.cars):
        if index in state.unplaced:
            continue  # still choosing its start point
        where = moving[1] if moving is not None and moving[0] == index else car.position
        centre = camera.to_screen(*where)
        colour = colours.pencil(state.race.cars[index].colour)
        if car.status is CarStatus.OUT:
            marks.cross(surface, theme.MUTED, centre, radius * 0.8, 3)
            continue
        if index == current:  # a steady glow: the window draws nothing while it waits
            pygame.draw.circle(surface, theme.HIGHLIGHT, centre, radius * 1.6)
        pygame.draw.circle(surface, colour, centre, radius)
        pygame.draw.circle(surface, colours.ink, centre, radius, 2)
        if car.status is CarStatus.FINISHED:
            flag = theme.font(max(14, round(radius * 1.6)), bold=True).render("✓", True,
                                                                              (255, 255, 255))
            surface.blit(flag, flag.get_rect(center=centre))


def draw_candidates(surface: pygame.Surface, state: RaceState, camera: Camera,
                    candidates: Sequence[Candidate | Outlook], hover: Vec | None) -> None:
    """The current car's candidate points, each marked for what it does (``marks.draw``), a
    ring round the point its unchanged move leads to, and a preview line to the hovered one
    (with the restart point of a crash). Plain candidates are drawn by their kind alone until
    their outlooks are known."""
    index = state.current_car
    if index is None:
        return
    colours = theme.palette()
    colour = colours.pencil(state.race.cars[index].colour)
    missile = state.steering  # the player moves its missile: the lines start there
    origin = camera.to_screen(*(missile or state.cars[index]).position)
    radius = max(5.0, camera.scale * 0.24)
    placing = state.placing
    found = [item if isinstance(item, Outlook) else quick(item) for item in candidates]
    for item in found:
        candidate = item.candidate
        centre = camera.to_screen(*candidate.target)
        if candidate.target == hover and not placing:
            line = colour if candidate.legal else theme.ILLEGAL
            dashed_line(surface, line, origin, centre, pencil_width(camera))
            if item.restart is not None:
                marks.restart(surface, camera.to_screen(*item.restart), radius)
        if candidate.unchanged:
            pygame.draw.circle(surface, colours.ink, centre, radius * 1.9, 2)
    for item in found:
        candidate = item.candidate
        centre = camera.to_screen(*candidate.target)
        launch = candidate.legal and candidate.note is Special.LAUNCH and item.look is Look.SPECIAL
        marks.draw(surface, item.look, centre, radius * (0.6 if launch else 1.0), colour,
                   warning=item.warning, out=item.out, hovered=candidate.target == hover)
