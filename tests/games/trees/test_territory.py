"""Territory on hand-made positions: faces fenced off against the sheet's edge."""

from __future__ import annotations

import time

from racetrack.games.trees import Move
from tests.games.trees.positions import position


def test_no_tracks_no_territory():
    state = position({0: [], 1: []})
    assert state.scores() == (0, 0)


def test_a_box_closed_against_the_bottom_edge():
    # Red's track goes up 4, right 4 and down 4 to the edge: a 4 x 4 box on the sheet's edge.
    state = position({0: [[(10, 20), (10, 16), (14, 16), (14, 20)]], 1: [[(10, 0), (10, 1)]]})
    territory = state.territory(0)
    # 25 lattice points in the closed box, less the 13 the track runs through: 9 inside and
    # (11, 20), (12, 20), (13, 20) on the edge.
    assert territory.score == 12
    assert territory.points[20, 11] and territory.points[17, 12] and not territory.points[16, 12]
    assert state.scores() == (12, 0)


def test_a_corner_cut_off_by_a_track_that_reaches_the_side():
    state = position({0: [[(10, 20), (10, 15), (0, 15)]], 1: [[(10, 0), (10, 1)]]})
    # The closed rectangle [0, 10] x [15, 20] has 66 points; the track runs through 16.
    assert state.territory(0).score == 50


def test_two_branches_that_both_reach_the_edge_fence_the_face_between_them():
    state = position({0: [[(10, 20), (10, 17)], [(10, 17), (6, 17), (6, 20)],
                          [(10, 17), (14, 17), (14, 20)]], 1: [[(10, 0), (10, 1)]]})
    # Two boxes, [6, 10] x [17, 20] and [10, 14] x [17, 20]: 2 x 3 inside plus 3 on the edge.
    assert state.territory(0).score == 2 * (2 * 3 + 3)


def test_a_face_holding_another_players_start_is_not_territory():
    # A line right across the sheet: the half without Blue's start is Red's.
    state = position({0: [[(10, 20), (10, 10), (0, 10)], [(10, 10), (20, 10)]],
                      1: [[(10, 0), (10, 1)]]})
    assert state.territory(0).score == 21 * 11 - 21 - 10


def test_four_players_the_face_must_hold_none_of_the_other_starts():
    # levi-4 is 24 x 24: starts (12, 24), (0, 12), (12, 0), (24, 12).
    low = position({0: [[(12, 24), (12, 18), (0, 18)]]}, rules="levi-4")
    assert low.territory(0).score == 13 * 7 - 7 - 12
    high = position({0: [[(12, 24), (12, 10), (0, 10)]]}, rules="levi-4")
    assert high.territory(0).score == 0  # the left player's start is in the fenced face


def test_drawing_inside_your_own_territory_costs_the_points_drawn_on():
    state = position({0: [[(10, 20), (10, 16), (14, 16), (14, 20)]], 1: [[(10, 0), (10, 1)]]},
                     rules="levi-9")
    state.apply(Move.branch((10, 16), (11, 17)))
    assert state.territory(0).score == 11


def test_scoring_is_fast_enough_to_shade_every_move():
    state = position({0: [[(10, 20), (10, 15), (0, 15)], [(10, 15), (12, 12), (20, 12)],
                          [(12, 12), (12, 8), (5, 8), (5, 3)]],
                      1: [[(10, 0), (10, 1)]]})
    started = time.perf_counter()
    for _ in range(20):
        state._cache.clear()
        state.scores()
    assert (time.perf_counter() - started) / 20 < 0.05
