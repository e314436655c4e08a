"""A deliberately plain breadth-first search for the fewest moves to the finish.

Used as an independent check: one car, no zones, every move tested with its own shapely call
(no batching, no numpy state space), so it shares nothing with the game's fast paths but the
track file and the progress rules.
"""

from __future__ import annotations

import shapely

from racetrack.course import Course
from racetrack.track import Track

SQUARE = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)]
PLUS = [(0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)]
SQUARE_24 = [(dx, dy) for dx in range(-2, 3) for dy in range(-2, 3)]


def fewest_moves(track: Track, start=None, changes=SQUARE, limit=300, must_change=False,
                 touching_allowed=True) -> int | None:
    """Fewest moves from rest; ``changes`` are the allowed changes of velocity."""
    course = Course(track)
    surface = track.polygon()
    inside = surface.covers if touching_allowed else surface.contains_properly
    drawn = [line.geometry() for line in course.lines]
    starts = [tuple(start)] if start else [tuple(p) for p in course.start_positions]
    frontier = [(p, (0, 0), course.start_progress) for p in starts]
    seen = set(frontier)
    for depth in range(1, limit + 1):
        following = []
        for (x, y), (vx, vy), progress in frontier:
            for dx, dy in changes:
                if must_change and (dx, dy) == (0, 0):
                    continue
                v = (vx + dx, vy + dy)
                q = (x + v[0], y + v[1])
                piece = shapely.LineString([(x, y), q]) if v != (0, 0) else shapely.Point(q)
                if not inside(piece):
                    continue
                new_progress = progress
                if any(piece.intersects(line) for line in drawn):
                    new_progress = course.advance_one(progress, (x, y), q)
                if new_progress == course.goal:
                    return depth
                state = (q, v, new_progress)
                if state not in seen:
                    seen.add(state)
                    following.append(state)
        frontier = following
        if not frontier:
            return None
    return None
