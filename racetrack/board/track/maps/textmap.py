"""Maps written as rows of characters, one per cell: read carefully, each problem located.

A map file is untrusted input like every file a player hands the game: it is read by the one
text reader (an ordinary file, at most ``MAX_MAP_BYTES``, UTF-8 without NUL), its size is
checked before anything is built from it, and the first thing wrong with it is one line naming
the file and the line (and the column, for a cell code): a ragged row, an unknown code.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np

from racetrack.base.errors import MapError, Problem
from racetrack.base.fields import printable
from racetrack.base.yamlio import read_text
from racetrack.board.track.maps.cells import check_size

#: The largest map file read: a 1000 x 1000 map of cells and its line breaks fit.
MAX_MAP_BYTES = 4 * 1024 * 1024


@dataclass(frozen=True, eq=False)
class TextMap:
    """The rows of a map as an array of character codes, and the file line of each row."""

    file: str
    codes: np.ndarray  # (rows, columns) of uint8
    lines: tuple[int, ...]

    def problem(self, message: str, row: int | None = None) -> MapError:
        return MapError(Problem(self.file, self.lines[row] if row is not None else None,
                                message))


def read_lines(path: str | os.PathLike[str]) -> tuple[str, list[tuple[int, str]]]:
    """The file's text and its lines, numbered from 1, with trailing blanks and the blank lines
    before and after the map left out."""
    text = read_text(path, MapError, MAX_MAP_BYTES)
    rows = text.splitlines()
    if len([row for row in rows if row.strip()]) == 1 and "\\n" in text:
        # A map code copied out of JSON (Karopapier's API gives it so): one line, its rows
        # parted by the two characters backslash and n. Numbered as the rows they are.
        line = rows[[bool(row.strip()) for row in rows].index(True)]
        rows = [row.removesuffix("\\r") for row in line.split("\\n")]
    lines = [(number, line.rstrip(" \t")) for number, line in enumerate(rows, start=1)]
    while lines and not lines[0][1]:
        lines.pop(0)
    while lines and not lines[-1][1]:
        lines.pop()
    return text, lines


def cell_rows(file: str, lines: list[tuple[int, str]], width: int | None = None) -> TextMap:
    """The rows as codes: every row as wide as the first (or ``width``), one byte a cell."""
    if not lines:
        raise MapError(Problem(file, None, "the map is empty"))
    first_width = width if width is not None else len(lines[0][1])
    check_size(first_width, len(lines), file, lines[0][0])
    for number, row in lines:
        if len(row) != first_width:
            what = "the header says" if width is not None else "the first row has"
            raise MapError(Problem(file, number, f"ragged row: {len(row)} cells where {what} "
                                                 f"{first_width}; every row of a map is as "
                                                 "wide as the others"))
    rows = [row for _, row in lines]
    numbers = tuple(number for number, _ in lines)
    bad = next(((r, c) for r, row in enumerate(rows) for c, char in enumerate(row)
                if ord(char) > 126), None)
    if bad is not None:
        r, c = bad
        raise MapError(Problem(file, numbers[r], f"column {c + 1}: unknown cell code "
                                                 f"{printable(repr(rows[r][c]))}"))
    codes = np.frombuffer("".join(rows).encode("ascii"), dtype=np.uint8)
    return TextMap(file, codes.reshape(len(rows), first_width).copy(), numbers)


def check_codes(grid: TextMap, valid: str, meaning: str) -> None:
    """Refuse the first code not in ``valid``, saying how many more there are and what the
    format's codes are (``meaning``)."""
    table = np.zeros(256, dtype=bool)
    table[np.frombuffer(valid.encode("ascii"), dtype=np.uint8)] = True
    unknown = ~table[grid.codes]
    if not unknown.any():
        return
    rows, columns = np.nonzero(unknown)
    more = len(rows) - 1
    code = printable(repr(chr(grid.codes[rows[0], columns[0]])))
    also = f" (and {more} more cell{'s' if more != 1 else ''} of unknown codes)" if more else ""
    raise grid.problem(f"column {columns[0] + 1}: unknown cell code {code}{also}; {meaning}",
                       int(rows[0]))


def cells_of(grid: TextMap, codes: str) -> np.ndarray:
    """Which cells hold one of ``codes``."""
    table = np.zeros(256, dtype=bool)
    table[np.frombuffer(codes.encode("ascii"), dtype=np.uint8)] = True
    return table[grid.codes]
