"""Dashed pencil lines, shared by every drawing that needs one (checkpoints, previews, ghosts)."""

from __future__ import annotations

import math

import pygame


def dashed_line(surface: pygame.Surface, colour, start, end, width: int = 1,
                dash: float = 8.0) -> None:
    """A dashed straight line from ``start`` to ``end`` (screen points): dashes and gaps of
    about ``dash`` pixels, evened out over the length, starting and ending with a dash."""
    length = math.dist(start, end)
    if length < 1:
        return
    count = max(1, int(length / dash))
    for i in range(0, count, 2):
        t0, t1 = i / count, min(1.0, (i + 1) / count)
        a = (start[0] + (end[0] - start[0]) * t0, start[1] + (end[1] - start[1]) * t0)
        b = (start[0] + (end[0] - start[0]) * t1, start[1] + (end[1] - start[1]) * t1)
        pygame.draw.line(surface, colour, a, b, width)
