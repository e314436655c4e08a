"""Maps of cells become tracks exactly: the track's surface allows the very moves the cell rule
allows, checked against a plain walk through the cells (``tests/cell_search.py``)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from racetrack.base.errors import MapError
from racetrack.board.geometry import Region
from racetrack.board.track import track_from_data, track_to_data
from racetrack.board.track.maps.cells import (
    CellMap,
    cells_to_track,
    pinch_size,
    rectangles,
    traced_counts,
)
from tests import cell_search


def cell_map(rows: list[str]) -> CellMap:
    grid = np.array([list(row) for row in rows])
    digits = tuple((d, grid == d) for d in "0123456789" if (grid == d).any())
    return CellMap(road=np.isin(grid, list("OSF0123456789")), start=grid == "S",
                   finish=grid == "F", checkpoints=digits, kind="a test map")


def convert(rows: list[str]):
    return cells_to_track(cell_map(rows), "Test", "test.txt")


@st.composite
def maps(draw):
    """A random map up to 9 x 8 cells, dense enough in road to have pinches and holes, with a
    start and a finish cell somewhere on it."""
    width, height = draw(st.integers(2, 9)), draw(st.integers(2, 8))
    density = draw(st.floats(0.35, 0.9))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    grid = np.where(rng.random((height, width)) < density, "O", "X")
    cells = [(r, c) for r in range(height) for c in range(width)]
    start = cells[draw(st.integers(0, len(cells) - 1))]
    finish = cells[draw(st.integers(0, len(cells) - 1))]
    grid[finish] = "F"
    grid[start] = "S"
    return ["".join(row) for row in grid]


@settings(max_examples=60, deadline=None)
@given(maps())
def test_the_surface_allows_exactly_the_moves_the_cells_allow(rows):
    if "F" not in "".join(rows):
        return  # the start took the only finish cell
    try:
        track, _ = convert(rows)
    except MapError as exc:
        assert "joined by road" in str(exc)  # the finish is on an island
        return
    track_from_data(track_to_data(track))  # a valid track, by the file's own checks
    plain = cell_search.CellMap(rows, "OSF", "S", "F")
    region = Region(track.polygon())
    on_track = {tuple(p) for p in region.lattice_points().tolist()}
    kept = plain.joined_to_start()
    assert on_track == kept, "the surface's lattice points are the road joined to the start"
    assert set(track.start_positions()) <= kept
    points = sorted(kept)
    pairs = [(p, q) for p in points for q in points]
    starts = np.array([p for p, _ in pairs])
    ends = np.array([q for _, q in pairs])
    allowed = region.covers_segments(starts, ends)
    for (p, q), ok in zip(pairs, allowed, strict=True):
        assert ok == cell_search.legal(plain, p, q), (p, q)


@settings(max_examples=80, deadline=None)
@given(maps())
def test_holes_and_corners_are_counted_on_the_cells_as_the_tracing_finds_them(rows):
    """The counts a large map is refused by before it is traced are the traced road's own."""
    cells = cell_map(rows)
    counted = traced_counts(cells.road, cells.start)
    try:
        track, _ = convert(rows)
    except MapError:
        return  # no finish joined to the start: nothing traced to compare with
    if counted is None:  # two pieces of road with equally many start cells: not counted
        return
    corners = len(track.outer) + sum(len(hole) for hole in track.holes)
    assert counted == (len(track.holes), corners)


def test_a_pinch_between_diagonal_cells_is_joined_and_only_the_diagonal_passes_it():
    rows = ["SOX",
            "OOX",
            "XXO",
            "XXF"]
    track, notes = convert(rows)
    assert notes == []
    assert len(track.holes) == 0  # one simple polygon: the diamond joins the two parts
    region = Region(track.polygon())
    moves = np.array([[(1, 1), (2, 2)], [(0, 0), (2, 2)], [(1, 0), (2, 2)], [(0, 1), (2, 3)]])
    assert region.covers_segments(moves[:, 0], moves[:, 1]).tolist() == [
        True, True, False, False]  # through the corner exactly, and nothing beside it


def test_a_zero_width_wall_between_diagonal_grass_cells_is_a_valid_track():
    rows = ["SOOOO",
            "OXOOO",
            "OOXOO",
            "OOOOF"]
    track, _ = convert(rows)
    track_from_data(track_to_data(track))
    region = Region(track.polygon())
    # Across the corner where the two grass cells meet, between the road cells beside it.
    assert region.covers_segments(np.array([(1, 2)]), np.array([(2, 1)])).tolist() == [True]
    assert region.covers_segments(np.array([(1, 1)]), np.array([(1, 1)])).tolist() == [False]


def test_islands_are_dropped_with_a_note_and_digits_drawn_as_a_signature_too():
    rows = ["SOOF.XX12".replace(".", "X"),
            "XXXXXXXXX",
            "XOOXXXXXX"]
    track, notes = convert(rows)
    assert any("dropped 2 islands of road not joined to the start (4 cells)" in n for n in notes)
    assert any("checkpoint 1 lies only on islands" in n for n in notes)
    assert track.checkpoint_areas == ()
    assert track.start_positions() == [(0, 0)]


def test_the_road_with_most_start_cells_is_kept_and_the_others_noted():
    track, notes = convert(["SXSSF"])
    assert track.start_points == ((2, 0), (3, 0))
    assert any("1 start cell on islands" in n for n in notes)


def test_a_finish_only_on_an_island_is_an_error():
    with pytest.raises(MapError, match="no finish cell \\('F'\\) is joined by road"):
        convert(["SOXF"])


def test_areas_are_rectangles_of_whole_cells():
    track, _ = convert(["SOOOO",
                        "O11OF",
                        "O11OF",
                        "OOO1O"])
    (area,) = track.checkpoint_areas
    assert area.geometry().area == 5
    assert sorted(area.polygons) == [((0.5, 0.5), (2.5, 0.5), (2.5, 2.5), (0.5, 2.5)),
                                     ((2.5, 2.5), (3.5, 2.5), (3.5, 3.5), (2.5, 3.5))]
    assert track.finish_area.polygons == (((3.5, 0.5), (4.5, 0.5), (4.5, 2.5), (3.5, 2.5)),)


def test_rectangles_cover_exactly_the_marked_cells():
    rng = np.random.default_rng(7)
    marked = rng.random((30, 40)) < 0.5
    rebuilt = np.zeros_like(marked)
    for r0, r1, c0, c1 in rectangles(marked):
        assert not rebuilt[r0:r1 + 1, c0:c1 + 1].any()
        rebuilt[r0:r1 + 1, c0:c1 + 1] = True
    assert (rebuilt == marked).all()


def test_the_pinch_is_smaller_than_any_near_miss_of_a_move_on_the_sheet():
    # A lattice segment missing a half-integer point misses it by at least 1 / (2 * length).
    for columns, rows in ((3, 3), (40, 20), (999, 999)):
        longest = np.hypot(columns + 20, rows + 20)
        assert pinch_size(columns, rows) < 1 / (2 * longest) / 2
