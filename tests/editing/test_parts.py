"""Parts of a drawing: hit tests, and moves that keep lattice points on the lattice."""

from __future__ import annotations

from racetrack.board.geometry import Vec
from racetrack.board.track import Collectable, Zone
from racetrack.board.track.draft import Draft, across
from racetrack.editing.parts import (
    OUTER,
    START,
    HitKind,
    Part,
    PartKind,
    arrow_tip,
    delete,
    duplicate,
    extract,
    hit,
    in_box,
    merge,
    mirror,
    rotate,
    translate,
)

BOX = Draft(outer=((0, 0), (30, 0), (30, 20), (0, 20)),
            holes=(((8, 8), (22, 8), (22, 12), (8, 12)),), start=across((15, 0), (15, 8)),
            zones=(Zone("oil", ((2, 2), (5, 2), (5, 5))),), waypoints=(Vec(25, 4),),
            collectables=(Collectable("dime", Vec(26, 16)),))
HOLE = Part(PartKind.HOLE, 0)


def test_what_is_under_the_pointer_in_order_of_priority():
    assert hit(BOX, arrow_tip(BOX.start, 0.7), 0.4, 1.0).kind is HitKind.ARROW
    assert hit(BOX, (30.1, 0.2), 0.4, 1.0) == hit(BOX, (30, 0), 0.4, 1.0)
    assert hit(BOX, (30, 0), 0.4, 1.0).kind is HitKind.VERTEX
    assert hit(BOX, (30, 10), 0.4, 1.0).kind is HitKind.MIDPOINT
    assert hit(BOX, (30, 13), 0.4, 1.0).part == OUTER
    assert hit(BOX, (15, 6), 0.4, 1.0).part == START
    assert hit(BOX, (12, 10), 0.4, 1.0).part == HOLE
    assert hit(BOX, (12, 10), 0.4, 1.0, select_inside=False) is None
    assert hit(BOX, (25, 4), 0.4, 1.0).part == Part(PartKind.WAYPOINT)


def test_a_quarter_turn_four_times_and_two_mirrors_change_nothing():
    everything = [OUTER, HOLE, START, Part(PartKind.ZONE), Part(PartKind.WAYPOINT),
                  Part(PartKind.COLLECTABLE)]
    turned = BOX
    for _ in range(4):
        turned = rotate(turned, everything)
    assert turned == BOX
    assert mirror(mirror(BOX, everything), everything) == BOX
    assert mirror(mirror(BOX, everything, True), everything, True) == BOX


def test_a_mirrored_track_is_still_a_track_raced_the_mirrored_way():
    everything = [OUTER, HOLE, START]
    flipped = mirror(BOX.with_changes(zones=(), waypoints=(), collectables=()), everything)
    assert flipped.start.forward == (-BOX.start.forward[0], BOX.start.forward[1])
    assert flipped.to_track().start_positions() == \
        BOX.with_changes(zones=(), waypoints=(), collectables=()).to_track().start_positions()


def test_a_quarter_turn_keeps_lattice_points():
    turned = rotate(BOX, [HOLE])
    assert all(float(x).is_integer() and float(y).is_integer() for x, y in turned.holes[0])


def test_box_select_takes_whole_parts_only():
    assert in_box(BOX, (7, 7), (23, 13)) == {HOLE}
    assert in_box(BOX, (-1, -1), (31, 21)) >= {OUTER, HOLE, START}


def test_delete_copy_paste():
    fewer = delete(BOX, [HOLE, START, Part(PartKind.WAYPOINT)])
    assert fewer.holes == () and fewer.start is None and fewer.waypoints == ()
    twice, made = duplicate(BOX, [HOLE, OUTER])
    assert made == [Part(PartKind.HOLE, 1)] and twice.outer == BOX.outer
    assert twice.holes[1] == tuple((x + 2, y + 2) for x, y in BOX.holes[0])
    piece = extract(BOX, [OUTER, START])
    fresh, made = merge(Draft(), piece)
    assert fresh.outer == BOX.outer and fresh.start == BOX.start and set(made) == {OUTER, START}
    assert translate(BOX, [START], 1, 0).start.a == (16, 0)
