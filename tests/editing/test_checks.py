"""Live checks: every crossing of a ring, each shape's problem in plain words."""

from __future__ import annotations

from racetrack.board.track import Zone
from racetrack.board.track.draft import Draft, across
from racetrack.editing.checks import problems, self_crossings

BOX = ((0, 0), (30, 0), (30, 20), (0, 20))
HOLE = ((8, 8), (22, 8), (22, 12), (8, 12))


def test_every_crossing_of_a_ring_is_found():
    # A star drawn in one stroke crosses itself five times.
    star = ((0, -10), (6, 8), (-9.5, -3), (9.5, -3), (-6, 8))
    assert len(self_crossings(star)) == 5


def test_doubling_back_and_touching_are_told_apart():
    doubling = ((0, 0), (10, 0), (5, 0), (5, 5))
    assert "doubles back on itself" in [how for _, how in self_crossings(doubling)]
    draft = Draft(outer=((0, 0), (10, 0), (10, 10), (5, 0), (0, 10)))
    assert any("touches itself" in m.message or "crosses itself" in m.message
               for m in problems(draft))


def test_problems_of_every_shape_at_once():
    draft = Draft(outer=BOX, holes=(HOLE, ((40, 0), (44, 0), (44, 4))),
                  start=across((15, 0), (15, 8)), finish=across((50, 0), (50, 4)),
                  zones=(Zone("water", ((60, 60), (62, 60), (62, 62))),),
                  checkpoints=(across((3, 3), (3, 3)),))
    messages = [m.message for m in problems(draft)]
    assert "Hole 2 is outside the outline" in messages
    assert "The finish line does not cross the track" not in messages  # not yet: the holes
    fixed = draft.with_changes(holes=(HOLE,))
    messages = [m.message for m in problems(fixed)]
    assert "The finish line does not cross the track" in messages
    assert "Checkpoint 1 has no length: drag one end away" in messages
    assert "The water zone does not touch the track" in messages


def test_a_track_without_problems_has_no_marks():
    assert problems(Draft(outer=BOX, holes=(HOLE,), start=across((15, 0), (15, 8)))) == []


def complete() -> Draft:
    return Draft(name="Box", outer=BOX, holes=(HOLE,), start=across((15, 0), (15, 8)))


def test_an_empty_draft_says_what_to_do_first():
    assert "Draw the outline" in problems(Draft())[0].message
    assert "start line" in problems(Draft(outer=BOX))[0].message


def test_a_complete_draft_has_no_problems():
    assert problems(complete()) == []


def test_a_self_intersection_is_marked_where_the_edges_cross():
    bowtie = Draft(outer=((0, 0), (10, 10), (10, 0), (0, 10)), start=across((5, 0), (5, 4)))
    marks = problems(bowtie)
    assert len(marks) == 1 and marks[0].at == (5.0, 5.0)
    assert marks[0].message == "The outline crosses itself at (5, 5)"


def test_a_hole_outside_is_marked_on_the_hole():
    outside = complete().with_changes(holes=(((40, 0), (44, 0), (44, 4)),))
    marks = problems(outside)
    assert any(m.message == "Hole 1 is outside the outline" for m in marks)
    assert marks[0].at[0] > 40


def test_a_start_line_with_no_room_is_marked_on_the_line():
    bad = complete().with_changes(start=across((15.5, 0), (15.5, 8)))
    mark = problems(bad)[0]
    assert "no lattice point" in mark.message and mark.at == (15.5, 4.0)
