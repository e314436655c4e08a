"""A new line's arrow points along the route when the drawing tells which way that is."""

from __future__ import annotations

import pytest

from racetrack.board.geometry import Line
from racetrack.board.track.draft import Draft, across, flipped
from racetrack.editing.direction import suggested_line

BOX = ((0, 0), (30, 0), (30, 20), (0, 20))
HOLE = ((8, 8), (22, 8), (22, 12), (8, 12))
RING = Draft(outer=BOX, holes=(HOLE,), start=across((15, 0), (15, 8)))  # leftwards at the top


@pytest.mark.parametrize(("a", "b", "forward"), [
    ((5, 0), (5, 8), (-8, 0)),        # still on the top straight: leftwards
    ((0, 10), (8, 10), (0, 8)),       # down the left side
    ((15, 12), (15, 20), (8, 0)),     # rightwards along the bottom
    ((22, 10), (30, 10), (0, -8)),    # up the right side
])
def test_checkpoints_point_along_the_route_whichever_way_they_are_drawn(a, b, forward):
    assert suggested_line(RING, a, b, "checkpoint").forward == forward
    assert suggested_line(RING, b, a, "checkpoint").forward == forward


def test_a_start_on_a_ring_goes_clockwise_and_towards_a_finish_on_a_road():
    ring = RING.with_changes(start=None)
    assert suggested_line(ring, (15, 8), (15, 0), "start").forward == (8, 0)
    road = Draft(outer=((0, 0), (40, 0), (40, 6), (0, 6)), finish=Line((35, 0), (35, 6), (1, 0)))
    assert suggested_line(road, (5, 0), (5, 6), "start").forward[0] > 0
    assert suggested_line(road, (5, 6), (5, 0), "start").forward[0] > 0


def test_without_a_route_the_arrow_is_to_the_right_of_the_line_as_drawn():
    empty = Draft()
    assert suggested_line(empty, (0, 0), (0, 4), "start") == across((0, 0), (0, 4))
    assert suggested_line(empty, (0, 4), (0, 0), "finish") == flipped(across((0, 0), (0, 4))) \
        or suggested_line(empty, (0, 4), (0, 0), "finish") == across((0, 4), (0, 0))
