"""Ghost lines on a finished sheet: the solver's optimal run and the player's best run.

Drawn pale and dashed so they read as pencil guides under the run just driven, never as a car's
own trail.
"""

from __future__ import annotations

from collections.abc import Sequence

import pygame

from racetrack.board.geometry import Vec
from racetrack.ui.render.camera import Camera
from racetrack.ui.render.lines import dashed_line

#: The solver's line: a pale graphite.
OPTIMAL = (150, 152, 172)


def draw_ghost(surface: pygame.Surface, camera: Camera, path: Sequence[Vec],
               colour: tuple[int, int, int], dash: float = 9.0) -> None:
    """A dashed line through ``path`` with a small ring at every point the run stood on."""
    points = [camera.to_screen(*p) for p in path]
    width = max(2, round(camera.scale / 12))
    for start, end in zip(points, points[1:], strict=False):
        dashed_line(surface, colour, start, end, width, dash)
    radius = max(3, round(camera.scale / 7))
    for point in points:
        pygame.draw.circle(surface, colour, point, radius, max(1, width - 1))
