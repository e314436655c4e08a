"""Launch views: reusing what other points see gives exactly what testing every move gives."""

import numpy as np

from racetrack.board.course import Course
from racetrack.board.track import find_track, load_track
from racetrack.engine.transition import Transition
from racetrack.engine.views import LaunchViews
from racetrack.rules import load_rules


def test_views_worked_out_from_others_equal_views_tested_in_full():
    transition = Transition(Course(load_track(find_track("hairpins"))), load_rules("pope"))
    points = transition.land.points
    asked = np.random.default_rng(7).permutation(len(points))[:150]
    reused = LaunchViews(transition.drive, transition.land)
    full = LaunchViews(transition.drive, transition.land, symmetric=False)
    batches = np.array_split(asked, 6)
    got = [view for batch in batches for view in reused.of(points[batch])]
    expected = [view for batch in batches for view in full.of(points[batch])]
    assert all(np.array_equal(a, b) for a, b in zip(got, expected, strict=True))
    assert sum(len(v) for v in got) > 150  # the points see more than themselves
    # Asked again once the budget is spent: read back from what is known, not tested again.
    reused._cache.clear()
    again = reused.of(points[asked[:10]])
    assert all(np.array_equal(a, b) for a, b in zip(again, expected[:10], strict=True))
    # A point off the land (never a stopping point) is tested in full.
    off = np.array([[points[:, 0].min() - 3, points[:, 1].min() - 3]])
    assert len(reused.of(off)[0]) == 0
