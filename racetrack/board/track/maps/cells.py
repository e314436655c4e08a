"""Maps made of square cells, turned into a track of the game: exactly, by the cell rule.

Karopapier's maps and the character grids of other racetrack programs are grids of cells, each
road or not. Cars stand on cell centres, which are the lattice points (cell ``(row, column)``
is the point ``(column, row)``, so the cell is the square of side 1 around it), and a move is
legal when every cell its line passes through is road, passing exactly through the corner
between two diagonal road cells included.

The track's surface is therefore the union of the closed road squares, with the game's wall
rule "touching is allowed": a segment between cell centres lies on that union exactly when it
passes through road cells only (it can never run along a cell's edge, which lies half-way
between lattice lines). Two road cells that touch only at a corner would make the union pinch
to a point there, which no simple polygon can hold; each such corner gets a diamond so small
that no move between lattice points of the sheet comes near it unless it goes through the
corner itself (a lattice segment that misses a half-integer point misses it by at least
1/(2 * length)), so the surface is one simple polygon and the cell rule still holds to the
letter. ``tests/board/track/maps/test_cells.py`` checks that against a plain walk through the cells.

Road not joined to the start's (islands: digits drawn as a signature, decorations) is dropped,
with a note; a finish or checkpoint left only on islands is an error or a note accordingly.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import shapely
from shapely.geometry import Polygon

from racetrack.base.errors import MapError, Problem
from racetrack.board.geometry import Vec
from racetrack.board.track.checks import MAX_LATTICE_POINTS
from racetrack.board.track.fileformat import (
    MAX_COORD,
    MAX_CORNERS,
    MAX_HOLES,
    MAX_ITEMS,
    MAX_VERTICES,
)
from racetrack.board.track.model import Area, Track

#: The side of the largest map read, in cells: the track's sheet holds at most
#: ``MAX_LATTICE_POINTS`` lattice points, its outline spanning one more than the cells.
MAX_CELLS = MAX_LATTICE_POINTS
#: How many rectangles (runs of road cells) and pinched corners a map may make: a map with more
#: is a pattern, not a track, and tracing it would take too long.
MAX_PIECES = 150_000


@dataclass(frozen=True, eq=False)
class CellMap:
    """A grid of cells read from a map file: which are road, and which are marked.

    ``road`` is True for every cell a car may drive on (start, finish and checkpoint cells
    included); ``start`` and ``finish`` mark those cells; ``checkpoints`` are (label, cells) in
    the order a race lists them. ``codes`` name the marks in messages ("'S'", "'s'").
    """

    road: np.ndarray
    start: np.ndarray
    finish: np.ndarray
    checkpoints: tuple[tuple[str, np.ndarray], ...] = ()
    kind: str = "map"
    start_code: str = "'S'"
    finish_code: str = "'F'"
    notes: tuple[str, ...] = field(default=())

    @property
    def size(self) -> tuple[int, int]:
        """(columns, rows)."""
        rows, columns = self.road.shape
        return columns, rows


def source_name(file: str) -> str:
    """A map file's name for a track's description: printable, and not too long."""
    name = "".join(char for char in Path(file).name if char.isprintable())[-60:]
    return name or "a file"


def check_size(columns: int, rows: int, file: str, line: int | None = None) -> None:
    """Refuse a map too large to race before any of it is built: more lattice points than a
    sheet holds, or wider or taller than the paper's coordinates reach (a long thin map has
    few points but could never become a valid track)."""
    if (columns + 1) * (rows + 1) > MAX_CELLS:
        raise MapError(Problem(file, line, f"the map is {columns} x {rows} cells; the largest "
                                           f"sheet is {MAX_CELLS:,} lattice points"))
    if max(columns, rows) > MAX_COORD:
        raise MapError(Problem(file, line, f"the map is {columns:,} x {rows:,} cells; the "
                                           f"paper reaches at most {MAX_COORD:,} squares "
                                           "each way"))


def cells_to_track(cells: CellMap, name: str, file: str) -> tuple[Track, list[str]]:
    """The track a cell map describes, and notes on what was left out of it."""
    notes = list(cells.notes)

    def fail(message: str) -> MapError:
        return MapError(Problem(file, None, message))

    if not cells.start.any():
        raise fail(f"no start cell ({cells.start_code}) on the map")
    if not cells.finish.any():
        raise fail(f"no finish cell ({cells.finish_code}) on the map")
    columns, rows = cells.size
    check_size(columns, rows, file)
    pinches = _pinches(cells.road)
    pieces = run_count(cells.road) + len(pinches)
    if pieces > MAX_PIECES:
        raise fail(f"the map is a pattern of {pieces:,} pieces of road, too intricate to trace "
                   "as a track")
    counted = traced_counts(cells.road, cells.start)  # told before a pattern is traced
    if counted is not None:
        holes, corners = counted
        if holes > MAX_HOLES:
            raise fail(f"the road has {holes:,} islands of off-road cells in it; a track "
                       f"holds at most {MAX_HOLES:,} holes")
        if not holes and corners > MAX_VERTICES:
            raise fail(f"the outline of the road has {corners:,} corners; a track's polygon "
                       f"holds at most {MAX_VERTICES:,}")
        if corners > MAX_VERTICES * (1 + holes):
            raise fail(f"the outline of the road and its {holes} holes have {corners:,} corners "
                       f"in all; a track's polygon holds at most {MAX_VERTICES:,}")
        if corners > MAX_CORNERS:
            raise fail(f"the outline of the road and its {holes} holes have {corners:,} corners "
                       f"in all; a track holds at most {MAX_CORNERS:,}")
    surface = _surface(cells.road, pinches, file)
    parts = list(surface.geoms) if isinstance(surface, shapely.MultiPolygon) else [surface]
    starts = _points(cells.start)
    counts = [int(np.count_nonzero(shapely.contains_xy(part, starts[:, 0], starts[:, 1])))
              for part in parts]
    chosen = parts[int(np.argmax(counts))]  # the road that holds most of the start cells
    kept = _inside(chosen, cells.road)
    if len(parts) > 1:
        dropped = int(np.count_nonzero(cells.road & ~kept))
        islands = len(parts) - 1
        notes.append(f"dropped {islands} island{'s' if islands != 1 else ''} of road not "
                     f"joined to the start ({dropped} cell{'s' if dropped != 1 else ''})")
    left = int(np.count_nonzero(cells.start & ~kept))
    if left:
        notes.append(f"{left} start cell{'s' if left != 1 else ''} on islands not joined to "
                     "the rest of the start left out")
    if not (cells.finish & kept).any():
        raise fail(f"no finish cell ({cells.finish_code}) is joined by road to the start")
    checkpoint_areas = []
    for label, marked in cells.checkpoints:
        if (marked & kept).any():
            checkpoint_areas.append(_area(marked & kept, f"checkpoint {label}", file))
        elif marked.any():
            notes.append(f"checkpoint {label} lies only on islands not joined to the start: "
                         "left out")
    if len(chosen.interiors) > MAX_HOLES:  # counted before a speckled map's rings are made
        raise fail(f"the road has {len(chosen.interiors):,} islands of off-road cells in it; "
                   f"a track holds at most {MAX_HOLES:,} holes")
    chosen = shapely.simplify(chosen, 0)  # the corners of runs along straight walls go
    outer = _ring(chosen.exterior, "the outline", file)
    holes = tuple(_ring(ring, "a hole", file) for ring in chosen.interiors)
    start_points = tuple(Vec(int(x), int(y)) for x, y in _points(cells.start & kept))
    if len(start_points) > MAX_ITEMS:
        notes.append(f"{len(start_points)} start cells: the first {MAX_ITEMS} (row by row) "
                     "are the places")
        start_points = start_points[:MAX_ITEMS]
    track = Track(name=name, outer=outer, start=None, holes=holes,
                  start_points=start_points, finish_area=_area(cells.finish & kept, "the finish",
                                                               file),
                  checkpoint_areas=tuple(checkpoint_areas),
                  description=f"Imported from {source_name(file)}, {cells.kind} of "
                              f"{columns} x {rows} cells.")
    return track, notes


# --------------------------------------------------------------------------------------------
# The surface


def pinch_size(columns: int, rows: int) -> float:
    """Half the diagonal of the diamond at a pinched corner: a power of two (so every corner
    is exact in binary) below 1/4 of the least distance by which a move of the sheet can miss
    a half-integer point, 1/(2 * length), the longest move being shorter than columns + rows
    plus the paper's margins."""
    return 2.0 ** math.floor(math.log2(0.25 / (2 * (columns + rows + 20))))


def _surface(road: np.ndarray, pinches: list[tuple[float, float]],
             file: str) -> Polygon | shapely.MultiPolygon:
    """The union of the closed road squares, joined at the pinched corners."""
    rows, columns = road.shape
    boxes = rectangles(road)
    if not boxes:
        raise MapError(Problem(file, None, "the map has no road"))
    size = pinch_size(columns, rows)
    pieces = [shapely.box(c0 - 0.5, r0 - 0.5, c1 + 0.5, r1 + 0.5) for r0, r1, c0, c1 in boxes]
    pieces += [Polygon([(x - size, y), (x, y - size), (x + size, y), (x, y + size)])
               for x, y in pinches]
    return shapely.union_all(pieces)


def traced_counts(road: np.ndarray, start: np.ndarray) -> tuple[int, int] | None:
    """How many holes, and how many corners in all (outline and holes), the road that holds
    most of the start cells will have once traced, counted on the cells alone: a speckled map
    or an intricate pattern is refused in a second rather than after a long tracing. None
    where two pieces of road hold equally many start cells.

    Road cells that touch, by an edge or at a corner, are one piece (diagonal cells are joined
    at their corner); the rest of the sheet, whatever is not that piece, is cut apart only at
    such corners, so its parts are the cells joined by their edges, and every part but the one
    round the map is a hole. A corner of the traced road is where one or three of the four
    cells round a lattice corner are road; two diagonal ones make the pinch's diamond, which
    puts two corners on each of the two walls that meet there."""
    rows, columns = road.shape
    run_row, first, last, piece = _pieces(road, diagonal=True)
    cells_row, cells_column = np.nonzero(start)
    at = np.searchsorted(run_row * (columns + 1) + first,
                         cells_row * (columns + 1) + cells_column, side="right") - 1
    counts = np.bincount(piece[at], minlength=int(piece.max()) + 1)
    best = np.flatnonzero(counts == counts.max())
    if len(best) > 1:
        return None
    kept = piece == best[0]
    change = np.zeros((rows, columns + 1), dtype=np.int32)
    np.add.at(change, (run_row[kept], first[kept]), 1)
    np.add.at(change, (run_row[kept], last[kept] + 1), -1)
    rest = np.ones((rows + 2, columns + 2), dtype=bool)
    rest[1:-1, 1:-1] = np.cumsum(change, axis=1)[:, :columns] == 0
    holes = int(_pieces(rest, diagonal=False)[3].max())  # the parts, less the one round the map
    a, b, c, d = ~rest[:-1, :-1], ~rest[:-1, 1:], ~rest[1:, :-1], ~rest[1:, 1:]
    around = a.astype(np.int8) + b + c + d
    pinched = (a & d & ~b & ~c) | (b & c & ~a & ~d)
    corners = int(np.count_nonzero((around == 1) | (around == 3))
                  + 4 * np.count_nonzero(pinched))
    return holes, corners


def _pieces(marked: np.ndarray, diagonal: bool) -> tuple[np.ndarray, ...]:
    """The runs of marked cells (row, first column, last column, row by row) and the piece
    each belongs to, numbered from 0: runs of neighbouring rows are joined where they share an
    edge, or (``diagonal``) a corner too."""
    rows, columns = marked.shape
    padded = np.zeros((rows, columns + 2), dtype=np.int8)
    padded[:, 1:-1] = marked
    edges = np.diff(padded, axis=1)
    run_row, first = np.nonzero(edges == 1)
    last = np.nonzero(edges == -1)[1] - 1
    width, reach = columns + 1, 1 if diagonal else 0
    # Each run of row r meets the runs of row r + 1 from the first that ends at or after its
    # first column to the last that starts at or before its last (a column further each way
    # for corners): a range of run numbers, since runs are numbered row by row.
    begin = np.searchsorted(run_row * width + last, (run_row + 1) * width + first - reach)
    end = np.searchsorted(run_row * width + first, (run_row + 1) * width + last + reach,
                          side="right")
    sizes = np.maximum(end - begin, 0)
    upper = np.repeat(np.arange(len(first)), sizes)
    lower = np.arange(int(sizes.sum())) - np.repeat(np.cumsum(sizes) - sizes, sizes) \
        + np.repeat(begin, sizes)
    parent = list(range(len(first)))

    def root(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b in zip(upper.tolist(), lower.tolist(), strict=True):
        ra, rb = root(a), root(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)
    roots = np.array([root(x) for x in range(len(first))], dtype=np.int64)
    piece = np.unique(roots, return_inverse=True)[1] if len(roots) else roots
    return run_row, first, last, piece


def run_count(marked: np.ndarray) -> int:
    """How many runs of marked cells the rows hold (what ``rectangles`` starts from): cheap,
    so a caller can refuse a speckled picture before tracing it."""
    return int(np.count_nonzero(np.diff(marked.astype(np.int8), axis=1) == 1)
               + np.count_nonzero(marked[:, 0])) if marked.size else 0


def rectangles(marked: np.ndarray) -> list[tuple[int, int, int, int]]:
    """Marked cells as few rectangles (first row, last row, first column, last column): each
    row's runs, a run carried down while the next row has the very same run."""
    open_runs: dict[tuple[int, int], int] = {}
    found = []
    rows = marked.shape[0]
    padded = np.zeros((rows, marked.shape[1] + 2), dtype=np.int8)
    padded[:, 1:-1] = marked
    edges = np.diff(padded, axis=1)
    for r in range(rows + 1):
        runs = set()
        if r < rows:
            starts = np.flatnonzero(edges[r] == 1)
            ends = np.flatnonzero(edges[r] == -1) - 1
            runs = set(zip(starts.tolist(), ends.tolist(), strict=True))
        for run in list(open_runs):
            if run not in runs:
                found.append((open_runs.pop(run), r - 1, run[0], run[1]))
        for run in runs:
            open_runs.setdefault(run, r)
    return sorted(found)


def _pinches(road: np.ndarray) -> list[tuple[float, float]]:
    """The corners where two road cells meet diagonally with no road beside them."""
    a, b = road[:-1, :-1], road[:-1, 1:]
    c, d = road[1:, :-1], road[1:, 1:]
    pinched = (a & d & ~b & ~c) | (b & c & ~a & ~d)
    r, col = np.nonzero(pinched)
    return list(zip((col + 0.5).tolist(), (r + 0.5).tolist(), strict=True))


def _inside(part: Polygon, road: np.ndarray) -> np.ndarray:
    """Which road cells have their centre in ``part``."""
    rows, columns = np.nonzero(road)
    kept = np.zeros_like(road)
    kept[rows, columns] = shapely.contains_xy(part, columns, rows)
    return kept


def _points(marked: np.ndarray) -> np.ndarray:
    """The lattice points of the marked cells, row by row: an (n, 2) array of (x, y)."""
    rows, columns = np.nonzero(marked)
    return np.column_stack([columns, rows])


def _ring(ring, what: str, file: str) -> tuple[tuple[float, float], ...]:
    points = tuple((float(x), float(y)) for x, y in list(ring.coords)[:-1])
    if len(points) > MAX_VERTICES:
        raise MapError(Problem(file, None, f"{what} of the road has {len(points):,} corners; "
                                           f"a track's polygon holds at most {MAX_VERTICES:,}"))
    return tuple((_plain(x), _plain(y)) for x, y in points)


def _plain(value: float) -> float | int:
    """A whole number as an int, so the track file says 3 rather than 3.0."""
    return int(value) if value.is_integer() else value


def _area(marked: np.ndarray, what: str, file: str) -> Area:
    """Marked cells as an area: one rectangle per block of equal runs."""
    boxes = rectangles(marked)
    if len(boxes) > MAX_ITEMS:
        raise MapError(Problem(file, None, f"{what} is {len(boxes)} separate pieces; a track "
                                           f"holds at most {MAX_ITEMS} per area"))
    return Area(tuple(((_plain(c0 - 0.5), _plain(r0 - 0.5)), (_plain(c1 + 0.5), _plain(r0 - 0.5)),
                       (_plain(c1 + 0.5), _plain(r1 + 0.5)), (_plain(c0 - 0.5), _plain(r1 + 0.5)))
                      for r0, r1, c0, c1 in boxes))
