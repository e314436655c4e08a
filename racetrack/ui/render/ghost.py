"""Ghost lines on a finished sheet: the solver's optimal run and the player's best run.

Drawn pale and dashed so they read as pencil guides under the run just driven, never as a car's
own trail. The solver's line is drawn from its steps, so a crash reads as one: the line runs
into the wall to the point the car was aimed at, a cross marks it, and a dashed ring the point
the car was put back on, with no line between them (a line there would be a move the car never
made).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import pygame

from racetrack.board.geometry import Vec
from racetrack.ui.render import marks
from racetrack.ui.render.camera import Camera
from racetrack.ui.render.lines import dashed_line

if TYPE_CHECKING:
    from racetrack.search.solver import Step

#: The solver's line: a pale graphite.
OPTIMAL = (150, 152, 172)


def draw_ghost(surface: pygame.Surface, camera: Camera, path: Sequence[Vec],
               colour: tuple[int, int, int], dash: float = 9.0,
               steps: Sequence[Step] = ()) -> None:
    """A dashed line through ``path`` with a small ring at every point the run stood on; with
    ``steps`` (the solver's, one a turn after ``path[0]``), each crash drawn as a crash."""
    width = max(2, round(camera.scale / 12))
    radius = max(3, round(camera.scale / 7))
    if not steps:
        points = [camera.to_screen(*p) for p in path]
        for start, end in zip(points, points[1:], strict=False):
            dashed_line(surface, colour, start, end, width, dash)
    else:
        points = [camera.to_screen(*path[0])]
        here = path[0]
        for step in steps:
            if step.event == "crash":
                _crash(surface, camera, here, step, colour, width, dash, radius)
            elif step.event != "miss":  # a missed turn stays where it is
                dashed_line(surface, colour, camera.to_screen(*here),
                            camera.to_screen(*step.position), width, dash)
            points.append(camera.to_screen(*step.position))
            here = step.position
    for point in points:
        pygame.draw.circle(surface, colour, point, radius, max(1, width - 1))


def _crash(surface: pygame.Surface, camera: Camera, here: Vec, step: Step,
           colour: tuple[int, int, int], width: int, dash: float, radius: int) -> None:
    """The line into the wall to the point aimed at and a cross there (where the rules crash
    a car with no legal move, the cross stands where it was), and the ring it starts again
    on."""
    aimed = here if step.target is None else step.target
    end = camera.to_screen(*aimed)
    if aimed != here:
        dashed_line(surface, colour, camera.to_screen(*here), end, width, dash)
    marks.cross(surface, colour, end, radius * 1.6, width + 1)
    marks.restart(surface, camera.to_screen(*step.position), radius)
