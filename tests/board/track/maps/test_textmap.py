"""Karopapier map codes and character grids: read exactly, and every bad file one clear line."""

from __future__ import annotations

import time

import numpy as np
import pytest

from racetrack.base.errors import MapError
from racetrack.board.geometry import Vec
from racetrack.board.track import MAX_HOLES, MAX_ITEMS, MAX_VERTICES
from racetrack.board.track.maps import MapFormat, detect_format, import_map

KARO = """\
XXXXXXXXXXXX
XOOOOOOOOOOX
XOOXXXXXXOOX
XSSXXXXXX11X
XFFXXXXXXOOX
XOOXXXXXXOOX
XOOOOOOOOOOX
XXXXXXXXXXXX
"""

BARTO = """\
###########
#.......FF#
#.........#
#..########
#SS########
"""

DIM = """\
dim: 4 8
xxxxxxxx
xs....gx
xs....gx
xxxxxxxx
"""


def write(tmp_path, text: str, name: str = "map.txt"):
    path = tmp_path / name
    path.write_text(text)
    return path


def error_of(path, **options) -> str:
    with pytest.raises(MapError) as info:
        import_map(path, **options)
    assert len(info.value.problems) == 1
    return str(info.value.problems[0])


class TestKaropapier:
    def test_a_map_becomes_a_track_with_its_start_cells_finish_and_checkpoints(self, tmp_path):
        imported = import_map(write(tmp_path, KARO, "loop-one.txt"))
        assert imported.format is MapFormat.KARO and imported.notes == ()
        track = imported.track()
        assert track.name == "Loop one" and track.start is None
        assert track.start_positions() == [Vec(1, 3), Vec(2, 3)]
        assert track.finish_area.geometry().bounds == (0.5, 3.5, 2.5, 4.5)
        assert [a.geometry().bounds for a in track.checkpoint_areas] == [(8.5, 2.5, 10.5, 3.5)]
        assert len(track.holes) == 1
        assert "loop-one.txt" in track.description

    def test_every_off_road_code_is_off_the_road_and_every_digit_a_checkpoint(self, tmp_path):
        text = "SOOOOOOOOOOF\nOXPLGNVTWYZO\n123456789OOO\n"
        track = import_map(write(tmp_path, text)).track()
        assert [len(a.polygons) for a in track.checkpoint_areas] == [1] * 9
        assert len(track.holes) == 1  # the off-road codes, with road all round them
        assert track.polygon().area == 12 + 2 + 12

    def test_windows_line_ends_trailing_blanks_and_blank_lines_around_are_fine(self, tmp_path):
        text = "\r\n\r\n" + KARO.replace("\n", "  \r\n") + "\r\n"
        (tmp_path / "plain").mkdir()
        assert import_map(write(tmp_path, text)).track() == import_map(
            write(tmp_path / "plain", KARO)).track()

    def test_ragged_rows_name_the_line(self, tmp_path):
        text = KARO.replace("XSSXXXXXX11X", "XSSXXXXXX11")
        message = error_of(write(tmp_path, text))
        assert message.startswith(f"{tmp_path / 'map.txt'}:4: ragged row: 11 cells where the "
                                  "first row has 12")

    def test_an_unknown_code_names_line_and_column_and_the_valid_codes(self, tmp_path):
        text = KARO.replace("XOOXXXXXXOOX", "XOOXXQXXXOOQ", 1)
        message = error_of(write(tmp_path, text))
        assert ":3: column 6: unknown cell code 'Q' (and 1 more cell of unknown codes)" \
            in message
        assert "X P L G N V T W Y Z" in message

    def test_a_0_is_a_checkpoint_of_its_own_beside_1_to_9(self, tmp_path):
        """Karopapier's own checkpoints are 1 to 9 (its wiki's page on maps, and the tile table
        of a client of its API); maps elsewhere number them from 0, and a 0 is read as one more
        checkpoint, never refused."""
        text = KARO.replace("XFFXXXXXXOOX", "XFFXXXXXX0OX")
        track = import_map(write(tmp_path, text)).track()
        assert len(track.checkpoint_areas) == 2  # the 1s and the 0
        assert "the digits 0-9 on the road" in error_of(
            write(tmp_path, KARO.replace("XOOXXXXXXOOX", "XOOXXQXXXOOX", 1), "bad.txt"))

    def test_a_map_code_copied_out_of_json_reads_as_the_map(self, tmp_path):
        """Karopapier's API hands a map's code as one JSON string: rows parted by the two
        characters backslash and n (or backslash r, backslash n)."""
        plain = import_map(write(tmp_path, KARO)).track()
        for escape in ("\\n", "\\r\\n"):
            folder = tmp_path / str(len(escape))
            folder.mkdir()
            copied = escape.join(KARO.strip().splitlines()) + "\n"
            assert import_map(write(folder, copied)).track() == plain

    def test_no_start_and_no_finish(self, tmp_path):
        assert "no start cell ('S') on the map" in error_of(
            write(tmp_path, KARO.replace("S", "O")))
        assert "no finish cell ('F') on the map" in error_of(
            write(tmp_path, KARO.replace("F", "O")))

    def test_a_huge_map_is_refused_quickly(self, tmp_path):
        path = tmp_path / "huge.txt"
        row = "S" + "O" * 9_998 + "F\n"
        with open(path, "w") as handle:  # 10,000 x 10,000 cells, the disk spared the rows
            handle.write(row)
            handle.truncate(len(row) * 10_000)
        began = time.perf_counter()
        assert "larger than 4 MiB; refusing to read it" in error_of(path)
        wide = write(tmp_path, row * 300, "wide.txt")
        assert "the map is 10000 x 300 cells; the largest sheet is 1,000,000 lattice points" \
            in error_of(wide)
        assert time.perf_counter() - began < 5

    def test_a_pattern_too_intricate_to_trace_is_refused(self, tmp_path):
        rows = ["SF" + ("OX" * 330)[:660]] + [("XO" * 331)[:662] if r % 2 else
                                              ("OX" * 331)[:662] for r in range(1, 600)]
        began = time.perf_counter()
        assert "too intricate" in error_of(write(tmp_path, "\n".join(rows)))
        assert time.perf_counter() - began < 5

    def test_a_speckled_map_or_a_staircase_is_refused_before_it_is_traced(self, tmp_path):
        """Under the limit of pieces, a map of 990 x 990 cells with grass specks all over (43,000
        holes) or staircases of grass from edge to edge (280,000 corners) took 12 and 8 s to
        trace before it was refused; both are counted on the cells first."""
        rng = np.random.default_rng(5)
        grid = np.where(rng.random((990, 990)) < 0.05, "X", "O")
        grid[1, 0], grid[-2, -1] = "S", "F"
        speckled = write(tmp_path, "\n".join("".join(row) for row in grid), "specks.txt")
        column, row = np.meshgrid(np.arange(990), np.arange(990))
        grid = np.where((column + row) % 14 < 2, "X", "O")
        grid[0, :], grid[-1, :] = "O", "O"
        grid[0, 0], grid[-1, -1] = "S", "F"
        stairs = write(tmp_path, "\n".join("".join(row) for row in grid), "stairs.txt")
        began = time.perf_counter()
        assert "the road has 43,654 islands of off-road cells in it; a track holds at most " \
            f"{MAX_HOLES:,} holes" in error_of(speckled)
        assert "the outline of the road has 279,462 corners; a track's polygon holds at most " \
            f"{MAX_VERTICES:,}" in error_of(stairs)
        assert time.perf_counter() - began < 5

    def test_a_map_of_hundreds_of_islands_and_thousands_of_corners_is_raced(self, tmp_path):
        """Real Karopapier maps with more islands than 200 or corners than 5,000 (the old
        limits) load: here hundreds of islands of grass in a road, and a road of 6,000 corners."""
        grid = np.full((112, 172), "O")
        grid[0, :] = grid[-1, :] = grid[:, 0] = grid[:, -1] = "X"
        grid[4:-4:6, 12:-4:6] = "X"  # the islands, clear of the start and finish at the left
        grid[50:53, 1:9], grid[60, 1:9] = "S", "F"
        many = import_map(write(tmp_path, "\n".join(map("".join, grid)), "islands.txt"))
        track = many.track()
        assert MAX_ITEMS < len(track.holes) <= MAX_HOLES
        teeth = np.full((62, 1502), "O")
        teeth[0, :] = teeth[-1, :] = teeth[:, 0] = teeth[:, -1] = "X"
        teeth[1, 2:-2:2] = teeth[-2, 2:-2:2] = "X"  # a tooth on each wall every other cell
        teeth[20:23, 1:9], teeth[30, 1:9] = "S", "F"
        jagged = import_map(write(tmp_path, "\n".join(map("".join, teeth)), "teeth.txt"))
        assert 5_000 < len(jagged.track().outer) <= MAX_VERTICES

    def test_a_binary_or_empty_file(self, tmp_path):
        assert "the map is empty" in error_of(write(tmp_path, "\n\n"))
        binary = tmp_path / "bin.txt"
        binary.write_bytes(b"OOO\x00SSF")
        assert "not a text file" in error_of(binary)
        accented = write(tmp_path, "SOÖF\n")
        assert "column 3: unknown cell code 'Ö'" in error_of(accented, format=MapFormat.KARO)


class TestGrids:
    def test_the_sutton_and_barto_grid(self, tmp_path):
        imported = import_map(write(tmp_path, BARTO, "barto.track"))
        assert imported.format is MapFormat.GRID
        track = imported.track()
        assert track.start_positions() == [Vec(1, 4), Vec(2, 4)]
        assert track.finish_area.geometry().bounds == (7.5, 0.5, 9.5, 1.5)
        assert track.checkpoint_areas == ()

    def test_the_dim_grid(self, tmp_path):
        track = import_map(write(tmp_path, DIM, "dim.txt")).track()
        assert track.start_positions() == [Vec(1, 1), Vec(1, 2)]
        assert track.finish_area.geometry().bounds == (5.5, 0.5, 6.5, 2.5)

    def test_a_dim_header_that_lies_or_is_huge(self, tmp_path):
        assert "the header says 5 rows; the file has 4" in error_of(
            write(tmp_path, DIM.replace("dim: 4 8", "dim: 5 8")))
        assert ":3: ragged row: 7 cells where the header says 8" in error_of(
            write(tmp_path, DIM.replace("xs....gx\n", "xs...gx\n", 1)))
        assert "the map is 10000 x 10000 cells" in error_of(
            write(tmp_path, DIM.replace("dim: 4 8", "dim: 10000 10000")))
        assert "is not 'dim: ROWS COLUMNS'" in error_of(
            write(tmp_path, DIM.replace("dim: 4 8", "dim: four")))

    def test_codes_of_the_other_kind_are_unknown(self, tmp_path):
        assert "unknown cell code 'O'" in error_of(write(tmp_path, BARTO.replace(".", "O", 1)))
        assert "no start cell ('s')" in error_of(write(tmp_path, DIM.replace("s", ".")))
        assert "no finish cell ('g')" in error_of(write(tmp_path, DIM.replace("g", ".")))


def test_the_format_is_told_from_the_content(tmp_path):
    assert detect_format(write(tmp_path, KARO, "a.map")) is MapFormat.KARO
    assert detect_format(write(tmp_path, BARTO, "b.map")) is MapFormat.GRID
    assert detect_format(write(tmp_path, DIM, "c.map")) is MapFormat.GRID
    png = tmp_path / "d.map"
    png.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 20)
    assert detect_format(png) is MapFormat.IMAGE
    assert "no such file" in error_of(tmp_path / "missing.txt")
    assert "is a folder" in error_of(tmp_path)


def test_a_grid_read_as_karopapier_says_what_is_wrong(tmp_path):
    message = error_of(write(tmp_path, BARTO), format=MapFormat.KARO)
    assert ":1: column 1: unknown cell code '#'" in message
