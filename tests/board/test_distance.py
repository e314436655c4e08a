"""The distance to go on a map whose checkpoints and finish are cells: the way runs over every
checkpoint area not yet passed, then to the finish cells."""

from __future__ import annotations

from racetrack.board.course import Course
from racetrack.board.distance import distance_field
from racetrack.board.geometry import Vec
from racetrack.board.track.maps import bundled_map_paths, import_map
from racetrack.rules import load_rules


def test_the_distance_to_go_runs_over_the_checkpoint_areas_still_to_pass():
    path = next(p for p in bundled_map_paths() if p.name == "karo-hairpin.txt")
    rules = load_rules("karopapier")
    course = Course.for_rules(import_map(path).track(), rules)
    field = distance_field(course, rules.boundary_counts, rules.areas_checkpoints)
    start = Vec(2, 7)  # a start cell, just below the finish cells
    all_passed = 0b111
    assert field(start, 1, all_passed) == 1.0  # one step up onto a finish cell
    # With none passed the way goes round the whole map first; with some passed, to the
    # others and back (checkpoint 3 is nearest, down the left side and along the bottom).
    togo = [field(start, 1, passed) for passed in range(8)]
    assert togo == [77.0, 77.0, 59.8, 51.8, 71.4, 71.4, 30.6, 1.0]
    # Checkpoint areas ignored: only the finish cells count.
    ignoring = distance_field(course, rules.boundary_counts, "ignored")
    assert ignoring(start, 1, 0) == 1.0


def test_the_compiled_search_gives_numpys_distances_to_the_finish_and_to_the_pits():
    """The kernel's Dial search (where it is built) and numpy's, bucket by bucket, give the
    same fifths of a square from every state: on a map of checkpoint areas, a course of
    several lines, and a track with a pit lane."""
    from racetrack.board.distance import DistanceField
    from racetrack.board.track import find_track, load_track
    from tests.board.test_kernel_rules import numpy_only

    path = next(p for p in bundled_map_paths() if p.name == "karo-hairpin.txt")
    karopapier = load_rules("karopapier")
    courses = [(Course.for_rules(import_map(path).track(), karopapier), "any-order")]
    for name in ("grand-prix", "pit-lane"):
        courses.append((Course.for_rules(load_track(find_track(name)), load_rules("baker")),
                        "ignored"))
    for course, areas in courses:
        compiled = DistanceField(course, True, areas)
        to_pit = compiled._pit_search()
        with numpy_only():
            plain = DistanceField(course, True, areas)
            assert (to_pit == plain._pit_search()).all()
        assert compiled.steps is not None and (compiled.steps == plain.steps).all()
    assert len(to_pit)  # (the pit lane's)
