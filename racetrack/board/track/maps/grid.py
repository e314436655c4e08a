"""The character grids of other racetrack programs: two kinds, told apart by their first line.

- The Sutton & Barto racetrack and its many copies: ``#`` off the track, ``.`` track, ``S`` the
  start cells, ``F`` the finish cells.
- Grids with a ``dim: H W`` header (H rows of W cells): ``x`` off the track, ``.`` track, ``s``
  start, ``g`` goal.
"""

from __future__ import annotations

import os
import re

from racetrack.base.errors import MapError, Problem
from racetrack.base.fields import printable
from racetrack.board.track.maps.cells import CellMap, check_size
from racetrack.board.track.maps.textmap import cell_rows, cells_of, check_codes, read_lines

HEADER = re.compile(r"dim:\s*(\d{1,9})\s+(\d{1,9})\s*$")


def is_dim_grid(lines: list[tuple[int, str]]) -> bool:
    return bool(lines) and lines[0][1].lstrip().lower().startswith("dim:")


def read_grid(path: str | os.PathLike[str]) -> CellMap:
    """The cells of a character grid, of either kind; ``MapError`` for the first problem."""
    file = str(path)
    _, lines = read_lines(path)
    if is_dim_grid(lines):
        return _dim_grid(file, lines)
    grid = cell_rows(file, lines)
    check_codes(grid, "#.SF", "a racetrack grid's codes are # (off the track), . (track), "
                              "S (start) and F (finish)")
    return CellMap(road=cells_of(grid, ".SF"), start=cells_of(grid, "S"),
                   finish=cells_of(grid, "F"), kind="a racetrack grid")


def _dim_grid(file: str, lines: list[tuple[int, str]]) -> CellMap:
    number, header = lines[0]
    found = HEADER.match(header.strip())
    if found is None:
        raise MapError(Problem(file, number, f"the header {printable(repr(header[:40]))} is "
                                             "not 'dim: ROWS COLUMNS'"))
    rows, columns = int(found.group(1)), int(found.group(2))
    check_size(columns, rows, file, number)
    body = lines[1:]
    if len(body) != rows:
        raise MapError(Problem(file, body[-1][0] if body else number,
                               f"the header says {rows} rows; the file has {len(body)}"))
    grid = cell_rows(file, body, width=columns)
    check_codes(grid, "x.sg", "a dim grid's codes are x (off the track), . (track), s (start) "
                              "and g (goal)")
    return CellMap(road=cells_of(grid, ".sg"), start=cells_of(grid, "s"),
                   finish=cells_of(grid, "g"), kind="a dim grid", start_code="'s'",
                   finish_code="'g'")
