"""An independent, deliberately plain reading of maps made of cells, for checking the importers.

Shares nothing with the game but the map's characters: no shapely, no polygons, no numpy. A
move from cell centre p to cell centre q passes through the cells its line meets inside, found
with exact fractions (the line is cut wherever it crosses a cell's edge, and the middle of each
piece names a cell), so going exactly through a corner passes through neither of the two other
cells. A move is legal when every cell it passes through is road.

``fewest_moves`` is a breadth-first search by Karopapier's rules as the brief gives them: nine
choices, a move legal by the cell rule, checkpoints (digit cells) passed in any order, and the
race won by a move that passes over a finish cell once every checkpoint joined to the start
by road is passed (those passed on the same move included). With ``finish_anywhere`` (the
Sutton & Barto racetrack) the move that passes over the finish wins wherever the car would
land, off the road too, provided the cells up to the finish are road.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from math import floor

SQUARE = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)]


class CellMap:
    """The rows of a map: ``road`` codes a car may be on; ``start``, ``finish`` the marks;
    ``checkpoints`` the codes of checkpoint cells."""

    def __init__(self, rows: list[str], road: str, start: str, finish: str,
                 checkpoints: str = ""):
        self.rows = rows
        self.road, self.start, self.finish, self.checkpoints = road, start, finish, checkpoints

    @classmethod
    def karo(cls, text: str) -> CellMap:
        return cls(text.split(), "OSF0123456789", "S", "F", "0123456789")

    @classmethod
    def of_file(cls, path) -> CellMap:
        """A bundled map file's cells: Karopapier's code (``.txt``), a ``dim:`` grid, or
        Sutton & Barto's grid."""
        text = path.read_text()
        if path.suffix == ".txt":
            return cls.karo(text)
        if text.startswith("dim:"):
            return cls(text.split()[3:], ".sg", "s", "g")
        return cls(text.split(), ".SF", "S", "F")

    def code(self, x: int, y: int) -> str:
        if 0 <= y < len(self.rows) and 0 <= x < len(self.rows[y]):
            return self.rows[y][x]
        return ""  # beyond the map: off the road

    def is_road(self, x: int, y: int) -> bool:
        code = self.code(x, y)
        return code != "" and code in self.road

    def cells(self, code: str) -> list[tuple[int, int]]:
        return [(x, y) for y, row in enumerate(self.rows) for x, c in enumerate(row) if c in code]

    def joined_to_start(self) -> set[tuple[int, int]]:
        """The road cells a car can reach from a start cell a cell at a time (a checkpoint
        drawn elsewhere, as a signature, is no part of the race)."""
        todo = self.cells(self.start)
        found = set(todo)
        while todo:
            x, y = todo.pop()
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    q = (x + dx, y + dy)
                    if q not in found and legal(self, (x, y), q):
                        found.add(q)
                        todo.append(q)
        return found

    def road_cells(self) -> list[tuple[int, int]]:
        return [(x, y) for y, row in enumerate(self.rows) for x, c in enumerate(row)
                if c in self.road]


def cells_passed(p: tuple[int, int], q: tuple[int, int]) -> list[tuple[int, int]]:
    """The cells whose inside the segment from centre p to centre q meets, in order (the
    same cells, moved, for every move of the same length and direction)."""
    (x0, y0), (x1, y1) = p, q
    return [(x0 + x, y0 + y) for x, y in _offsets(x1 - x0, y1 - y0)]


@cache
def _offsets(dx: int, dy: int) -> tuple[tuple[int, int], ...]:
    return tuple(_walk((0, 0), (dx, dy)))


def _walk(p: tuple[int, int], q: tuple[int, int]) -> list[tuple[int, int]]:
    (x0, y0), (x1, y1) = p, q
    if p == q:
        return [p]
    cuts = {Fraction(0), Fraction(1)}
    for start, end in ((x0, x1), (y0, y1)):
        if start == end:
            continue
        low, high = sorted((start, end))
        for k in range(low, high):  # the edge half-way between k and k + 1
            cuts.add(Fraction(2 * k + 1 - 2 * start, 2 * (end - start)))
    ordered = sorted(cuts)
    found = []
    for t0, t1 in zip(ordered, ordered[1:], strict=False):
        middle = (t0 + t1) / 2
        x, y = x0 + middle * (x1 - x0), y0 + middle * (y1 - y0)
        cell = (floor(x + Fraction(1, 2)), floor(y + Fraction(1, 2)))
        if not found or found[-1] != cell:
            found.append(cell)
    return found


def legal(cells: CellMap, p: tuple[int, int], q: tuple[int, int]) -> bool:
    """The cell rule: every cell the move passes through is road."""
    return all(cells.is_road(x, y) for x, y in cells_passed(p, q))


def fewest_moves(cells: CellMap, changes=SQUARE, limit: int = 200,
                 finish_anywhere: bool = False) -> int | None:
    """Fewest moves from a standing start on any start cell to a finish, or None."""
    joined = cells.joined_to_start()
    digits = sorted({cells.code(x, y) for x, y in cells.cells(cells.checkpoints)
                     if (x, y) in joined})
    everything = (1 << len(digits)) - 1
    frontier = [((x, y), (0, 0), 0) for x, y in cells.cells(cells.start)]
    seen = set(frontier)
    for depth in range(1, limit + 1):
        following = []
        for (x, y), (vx, vy), passed in frontier:
            for dx, dy in changes:
                v = (vx + dx, vy + dy)
                q = (x + v[0], y + v[1])
                route = cells_passed((x, y), q)
                now = passed
                finished = False
                for cx, cy in route:
                    code = cells.code(cx, cy)
                    if code == "" or code not in cells.road:
                        break
                    if code in digits:
                        now |= 1 << digits.index(code)
                    if code in cells.finish:
                        finished = True
                else:
                    if finished and now == everything:
                        return depth
                    state = (q, v, now)
                    if state not in seen:
                        seen.add(state)
                        following.append(state)
                    continue
                # The move leaves the road: where the finish ends the race wherever the car
                # lands, it still wins if it passed over the finish first.
                if finish_anywhere and finished and now == everything:
                    return depth
        frontier = following
        if not frontier:
            return None
    return None
