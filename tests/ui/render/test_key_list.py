"""The editor's list of every key fits every window: all rows placed, inside the room, none
over another, at every window size from 800 x 600 up and every UI scale."""

from __future__ import annotations

import os

import pygame
import pytest

from racetrack.editing.tools import KEY_HELP, TOOL_SHORT, Tool
from racetrack.ui import theme
from racetrack.ui.render import key_list

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
ROWS = [(tool.key.upper(), TOOL_SHORT[tool]) for tool in Tool] + list(KEY_HELP)


@pytest.fixture(autouse=True)
def fonts():
    pygame.font.init()
    theme.clear_fonts()
    yield
    theme.configure(scale=1.0)


def test_every_key_is_in_the_list():
    keys = " ".join(keys for keys, _ in ROWS)
    for wanted in ("Ctrl+O", "Ctrl+N", "Ctrl+Z", "Ctrl+Y", "Home", "F1", "Ctrl+S", "Esc",
                   "Enter", "wheel", "T", "R", *(tool.key.upper() for tool in Tool)):
        assert wanted in keys


@pytest.mark.parametrize("size", [(800, 600), (1024, 640), (1280, 800), (1920, 1080),
                                  (3840, 2160)])
@pytest.mark.parametrize("scale", [1.0, 1.5, 2.0])
def test_the_list_fits_the_window(size, scale):
    theme.configure(scale=scale)
    room = pygame.Rect(20, 60, size[0] - 40, size[1] - 80)
    layout = key_list.lay_out(ROWS, room)
    assert [row.keys for row in layout.rows] == [keys for keys, _ in ROWS]
    assert layout.size >= 12  # still readable
    line = layout.line_height
    boxes = []
    for row in layout.rows:
        box = pygame.Rect(row.at, (1, max(1, len(row.lines)) * line))
        assert room.collidepoint(row.at) and box.bottom <= room.bottom
        plain = theme.font(layout.size)
        assert all(row.at[0] + layout.key_width + plain.size(piece)[0] <= room.right
                   for piece in row.lines)
        boxes.append(pygame.Rect(row.at[0], row.at[1], layout.key_width, box.h))
    assert not any(a.colliderect(b) for i, a in enumerate(boxes) for b in boxes[i + 1:])
    surface = pygame.Surface(size)
    key_list.draw(surface, layout)  # and it draws


def test_a_large_window_gets_large_type_in_few_columns():
    layout = key_list.lay_out(ROWS, pygame.Rect(20, 60, 1880, 1000))
    assert layout.size == 24 and len({row.at[0] for row in layout.rows}) <= 2
