"""The solver's ghost line draws a crash as a crash: into the wall to the point aimed at, a
cross there, and no line on to the point the car was put back on."""

from __future__ import annotations

import pygame

from racetrack.board.geometry import Vec
from racetrack.search.solver import Step
from racetrack.ui.render.camera import Camera
from racetrack.ui.render.ghost import OPTIMAL, draw_ghost

PAPER = (255, 255, 255)
PATH = [Vec(0, 0), Vec(4, 0), Vec(4, 4), Vec(4, 4), Vec(8, 8)]
STEPS = [Step(Vec(4, 0), Vec(4, 0), "move"), Step(Vec(8, 0), Vec(4, 4), "crash"),
         Step(None, Vec(4, 4), "miss"), Step(Vec(8, 8), Vec(8, 8), "finish")]


def drawn(steps) -> tuple[pygame.Surface, Camera]:
    camera = Camera(width=400, height=400, centre_x=4, centre_y=4, scale=40)
    surface = pygame.Surface((400, 400))
    surface.fill(PAPER)
    draw_ghost(surface, camera, PATH, OPTIMAL, steps=steps)
    return surface, camera


def inked(surface: pygame.Surface, camera: Camera, x: float, y: float, reach: int = 3) -> bool:
    sx, sy = (round(v) for v in camera.to_screen(x, y))
    return any(surface.get_at((sx + dx, sy + dy))[:3] != PAPER
               for dx in range(-reach, reach + 1) for dy in range(-reach, reach + 1))


def test_a_crash_runs_to_the_point_aimed_at_and_is_crossed_there():
    surface, camera = drawn(STEPS)
    assert inked(surface, camera, 6, 0)  # the line from (4, 0) into the wall at (8, 0)
    assert inked(surface, camera, 8 - 0.2, -0.2) and inked(surface, camera, 8 + 0.2, 0.2)
    assert not any(inked(surface, camera, 8 - t * 4, t * 4) for t in (0.3, 0.4, 0.5, 0.6))
    assert inked(surface, camera, 4, 4)  # the put-back point: rings
    assert inked(surface, camera, 6, 6)  # and on from there


def test_without_steps_the_path_is_joined_point_to_point():
    surface, camera = drawn(())
    assert inked(surface, camera, 4, 2)  # (4, 0) to (4, 4): the put-back drawn as a move
    assert not inked(surface, camera, 6, 0)
