"""Cars' trails that share a line are drawn side by side."""

from __future__ import annotations

from racetrack.board.geometry import Vec
from racetrack.ui.render.cars import shared_offsets


def test_trails_that_share_a_line_are_spread_apart_and_others_stay_put():
    a = [Vec(0, 0), Vec(2, 0), Vec(5, 0)]
    b = [Vec(1, 0), Vec(3, 0), Vec(3, 4)]  # drives (1,0)-(3,0): part of a's first segments
    c = [Vec(0, 5), Vec(4, 5)]  # nowhere near
    offsets = shared_offsets([a, b, c])
    assert offsets[2] == [0.0]
    assert offsets[0][0] == -0.5 and offsets[1][0] == 0.5
    assert offsets[1][1] == 0.0  # its turn north is its own
    three = shared_offsets([a, a, a])
    assert [row[0] for row in three] == [-1.0, 0.0, 1.0]
