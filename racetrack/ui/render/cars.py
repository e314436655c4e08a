"""Cars on the sheet: coloured-pencil trails, the cars themselves, and the candidate points."""

from __future__ import annotations

import math
from collections.abc import Sequence

import pygame

from racetrack.game import RaceState
from racetrack.geometry import Vec
from racetrack.model import Candidate, CarStatus, Special
from racetrack.ui import theme
from racetrack.ui.render.camera import Camera
from racetrack.ui.render.lines import dashed_line


def pencil_width(camera: Camera) -> int:
    return max(2, round(camera.scale / 9))


def draw_trails(surface: pygame.Surface, state: RaceState, camera: Camera,
                moving: tuple[int, tuple[float, float]] | None = None) -> None:
    """Every car's trail; ``moving`` = (car, where it is now) for a car mid-animation."""
    colours = theme.palette()
    width = pencil_width(camera)
    for index, trail in enumerate(state.trails):
        if index in state.unplaced:
            continue
        colour = colours.pencil(state.race.cars[index].colour)
        points = [camera.to_screen(*p) for p in trail]
        if moving is not None and moving[0] == index:
            points = points[:-1] + [camera.to_screen(*moving[1])]
        if len(points) > 1:
            pygame.draw.lines(surface, colour, False, points, width)
            pygame.draw.aalines(surface, colour, False, points)
        dot = max(2, width)
        for point in points[:-1]:
            pygame.draw.circle(surface, colour, point, dot)


def draw_cars(surface: pygame.Surface, state: RaceState, camera: Camera,
              moving: tuple[int, tuple[float, float]] | None = None) -> None:
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
            _cross_mark(surface, theme.MUTED, centre, radius * 0.8, 3)
            continue
        if index == current:
            pulse = 0.5 + 0.5 * math.sin(pygame.time.get_ticks() / 250)
            pygame.draw.circle(surface, theme.HIGHLIGHT, centre, radius * (1.5 + 0.2 * pulse))
        pygame.draw.circle(surface, colour, centre, radius)
        pygame.draw.circle(surface, colours.ink, centre, radius, 2)
        if car.status is CarStatus.FINISHED:
            flag = theme.font(max(14, round(radius * 1.6)), bold=True).render("✓", True,
                                                                              (255, 255, 255))
            surface.blit(flag, flag.get_rect(center=centre))


def draw_candidates(surface: pygame.Surface, state: RaceState, camera: Camera,
                    candidates: Sequence[Candidate], hover: Vec | None) -> None:
    """Dots where the current car may go: filled if legal, a grey cross if not, a ring round
    the point its unchanged move leads to, and a preview line to the hovered one."""
    index = state.current_car
    if index is None:
        return
    colours = theme.palette()
    colour = colours.pencil(state.race.cars[index].colour)
    origin = camera.to_screen(*state.cars[index].position)
    radius = max(4.0, camera.scale * 0.18)
    placing = state.placing
    for candidate in candidates:
        centre = camera.to_screen(*candidate.target)
        if candidate.target == hover and not placing:
            dashed_line(surface, colour if candidate.legal else theme.ILLEGAL, origin, centre,
                        pencil_width(camera))
        if candidate.unchanged:
            pygame.draw.circle(surface, colours.ink, centre, radius * 1.9, 2)
        if candidate.legal and candidate.note is Special.LAUNCH:
            # Pope's launch offers many points: small dots in a ring of ink.
            size = radius * 0.6
            pygame.draw.circle(surface, (255, 255, 255), centre, size + 2)
            pygame.draw.circle(surface, colour, centre, size)
            pygame.draw.circle(surface, colours.ink, centre, size + 2, 1)
        elif candidate.legal and candidate.note:
            # A special move (good brakes, turbo, boosters, power braking): a hollow diamond.
            x, y = centre
            r = radius * 1.4
            diamond = [(x, y - r), (x + r, y), (x, y + r), (x - r, y)]
            pygame.draw.polygon(surface, (255, 255, 255), diamond)
            pygame.draw.polygon(surface, colour, diamond, max(2, round(radius / 2)))
            if candidate.target == hover:
                pygame.draw.circle(surface, colours.ink, centre, r + 3, 2)
        elif candidate.legal:
            size = radius * 1.5 if placing else radius
            pygame.draw.circle(surface, (255, 255, 255), centre, size + 2)
            pygame.draw.circle(surface, colour, centre, size)
            if candidate.target == hover:
                pygame.draw.circle(surface, colours.ink, centre, radius + 3, 2)
        else:
            _cross_mark(surface, theme.ILLEGAL, centre, radius * 0.8, 2)


def _cross_mark(surface: pygame.Surface, colour, centre, size: float, width: int) -> None:
    x, y = centre
    pygame.draw.line(surface, colour, (x - size, y - size), (x + size, y + size), width)
    pygame.draw.line(surface, colour, (x - size, y + size), (x + size, y - size), width)
