"""Karopapier's map code: rows of characters, one per cell (see ``docs/importing.md``).

Road a car may drive on: ``O`` road, ``S`` start, ``F`` finish and the digits, checkpoints
(every cell of one digit is the same checkpoint): Karopapier's own are ``1`` to ``9``, and a
``0`` found in a map is read as one more. Off the road: ``X`` grass, ``P`` parc fermé, ``L``
lava, ``G`` gold, ``N`` snow, ``T`` tar, ``V`` mountain, ``W`` water, ``Y`` sand and ``Z`` mud.
Where these come from, and the point left open, is in ``docs/importing.md``.
"""

from __future__ import annotations

import os

from racetrack.board.track.maps.cells import CellMap
from racetrack.board.track.maps.textmap import cell_rows, cells_of, check_codes, read_lines

CHECKPOINTS = "0123456789"
ROAD = "OSF" + CHECKPOINTS
OFF_ROAD = "XPLGNVTWYZ"
MEANING = ("Karopapier's codes are O S F and the digits 0-9 on the road, X P L G N V T W Y Z "
           "off it")


def read_karo(path: str | os.PathLike[str]) -> CellMap:
    """The cells of a Karopapier map file; ``MapError`` for the first thing wrong with it."""
    _, lines = read_lines(path)
    grid = cell_rows(str(path), lines)
    check_codes(grid, ROAD + OFF_ROAD, MEANING)
    checkpoints = tuple((digit, cells_of(grid, digit)) for digit in CHECKPOINTS)
    return CellMap(road=cells_of(grid, ROAD), start=cells_of(grid, "S"),
                   finish=cells_of(grid, "F"),
                   checkpoints=tuple((d, cells) for d, cells in checkpoints if cells.any()),
                   kind="a Karopapier map")
