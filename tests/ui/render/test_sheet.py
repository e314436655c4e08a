"""The paper runs on past the sheet without a seam at any zoom, its lines on whole squares."""

from __future__ import annotations

import numpy as np
import pygame
import pytest

from racetrack.board.course import Course
from racetrack.board.track import find_track, load_track
from racetrack.ui import theme
from racetrack.ui.render.camera import Camera
from racetrack.ui.render.sheet import SheetCache, grid_lines


@pytest.mark.parametrize("scale", [6.0, 7.3, 11.9, 24.0, 31.7, 57.2])
def test_the_grid_beyond_the_sheet_continues_the_sheets_own_lines(app, scale):
    course = Course(load_track(find_track("oval")))
    sheet = SheetCache(course)
    camera = Camera(centre_x=50.3, centre_y=12.7, scale=scale, width=1000, height=700)
    surface = pygame.Surface((1000, 700))
    sheet.draw(surface, camera)
    pixels = pygame.surfarray.array3d(surface)
    sx, _ = camera.to_screen(*sheet.origin)
    right = round(sx) + sheet.surface.get_width()
    assert 0 < right < 990, "the sheet's right edge must be on screen for this test"
    # Along a row of the tinted paper just above and just below the sheet's right edge,
    # the vertical grid lines fall on the same columns inside and outside the sheet.
    grid = np.array(theme.palette().grid)
    major = np.array(theme.palette().grid_major)
    row = 5  # the top strip is outside the oval's outline on both sides
    lines = [x for x in range(1000) if (pixels[x, row] == grid).all()
             or (pixels[x, row] == major).all()]
    inside = [x for x in lines if x < right]
    outside = [x for x in lines if x >= right]
    assert inside and outside
    steps = np.diff(inside + outside)
    assert steps.max() - steps.min() <= 1, "a seam: the spacing jumps at the sheet's edge"


def test_grid_lines_are_whole_squares_and_every_tenth_is_major():
    found = grid_lines(-4.0, 10.0, 0, 200)
    assert [offset for offset, _ in found][:3] == [0, 10, 20]
    assert [major for _, major in found][:5] == [False, False, False, False, True]
    small = grid_lines(-3.0, 3.0, 0, 100)  # tiny squares: every fifth line, on fives
    assert all(round(offset / 3.0 + -3.0) % 5 == 0 for offset, _ in small)
