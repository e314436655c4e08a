"""Draw the Karopapier maps the drivers' tournament races beside the bundled tracks.

    python tools/tournament_maps.py [FOLDER]

Maps of the kinds players bring from other programs, each a plain Karopapier text file
(``racetrack/board/track/maps/karo.py``) written into ``tools/maps`` (or FOLDER):

- ``karo-lanes.txt``, 54 x 43: a circuit raced anticlockwise, three lanes wide with one-lane
  passages where cars meet and must take turns;
- ``karo-maze.txt``, 65 x 65: a long winding road of two- and one-lane stretches;
- ``karo-drag.txt``, 1002 x 12: a drag strip, ten lanes wide and a thousand long;
- ``karo-ring.txt``, 120 x 114: a big open ring, cut by a wall beside the start so the cars go
  round once.

The files are committed; this script only says how they were drawn, and draws them again.
"""

from __future__ import annotations

import argparse
from pathlib import Path

FOLDER = Path(__file__).resolve().parent / "maps"


def blank(width: int, height: int) -> list[list[str]]:
    return [["X"] * width for _ in range(height)]


def fill(grid: list[list[str]], x0: int, y0: int, x1: int, y1: int, code: str = "O") -> None:
    """Cells from (x0, y0) to (x1, y1), both included."""
    for y in range(min(y0, y1), max(y0, y1) + 1):
        for x in range(min(x0, x1), max(x0, x1) + 1):
            grid[y][x] = code


def text(grid: list[list[str]]) -> str:
    return "\n".join("".join(row) for row in grid) + "\n"


def lanes() -> str:
    """A rectangle of road three lanes wide round a block, with one-lane passages on three
    sides and a wall beside the start, so the cars go round anticlockwise (up the right side
    first on the screen, whose rows grow downwards)."""
    g = blank(54, 43)
    fill(g, 2, 2, 51, 4)      # top
    fill(g, 2, 38, 51, 40)    # bottom
    fill(g, 2, 2, 4, 40)      # left
    fill(g, 49, 2, 51, 40)    # right
    # One-lane passages: the wide road narrows to a single lane between walls.
    for x0, x1 in ((14, 22), (30, 38)):
        fill(g, x0, 2, x1, 4, "X")
        fill(g, x0, 3, x1, 3)
    fill(g, 2, 16, 4, 26, "X")
    fill(g, 3, 16, 3, 26)
    fill(g, 20, 38, 32, 40, "X")
    fill(g, 20, 40, 32, 40)
    # The start on the bottom right, facing right, a wall behind it and the finish beyond.
    fill(g, 40, 38, 40, 40, "X")
    fill(g, 41, 38, 41, 40, "S")
    fill(g, 39, 38, 39, 40, "F")
    fill(g, 2, 10, 4, 10, "1")  # the far side must be driven
    return text(g)


def maze() -> str:
    """A road that winds up and down the sheet: two lanes wide, narrowing to one lane in the
    turns, from the start in the top left to the finish in the bottom right."""
    g = blank(65, 65)
    columns = list(range(2, 62, 8))
    for k, x in enumerate(columns):
        fill(g, x, 2, x + 1, 62)
        if k + 1 < len(columns):
            y = 62 if k % 2 == 0 else 2
            fill(g, x, y, columns[k + 1] + 1, y)  # one lane across at the end of the run
            fill(g, x + 2, y - 1 if y == 62 else y + 1, columns[k + 1] - 1,
                 y - 1 if y == 62 else y + 1)
    # A one-lane squeeze half-way along every other run.
    for x in columns[1::2]:
        fill(g, x + 1, 30, x + 1, 34, "X")
    fill(g, columns[0], 2, columns[0] + 1, 3, "S")
    last = columns[-1]
    end = 62 if (len(columns) - 1) % 2 == 0 else 2
    fill(g, last, end, last + 1, end, "F")
    return text(g)


def drag() -> str:
    """A strip ten lanes wide and a thousand squares long: the start at one end, the finish
    at the other."""
    g = blank(1002, 12)
    fill(g, 1, 1, 1000, 10)
    fill(g, 1, 1, 1, 10, "S")
    fill(g, 1000, 1, 1000, 10, "F")
    return text(g)


def ring() -> str:
    """An open ring, 120 x 114, its road between radii 30 and 55 from the middle, cut by a
    wall at the bottom: the start on one side of it, the finish on the other."""
    width, height = 120, 114
    g = blank(width, height)
    cx, cy = (width - 1) / 2, (height - 1) / 2
    for y in range(height):
        for x in range(width):
            r = ((x - cx) ** 2 + (y - cy) ** 2) ** 0.5
            if 30 <= r <= 55:
                g[y][x] = "O"
    middle = int(cx)
    for y in range(height):
        if g[y][middle] == "O" and y > cy:
            g[y][middle] = "X"
            g[y][middle + 1] = "S"
            g[y][middle - 1] = "F"
    return text(g)


MAPS = {"karo-lanes.txt": lanes, "karo-maze.txt": maze, "karo-drag.txt": drag,
        "karo-ring.txt": ring}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", nargs="?", type=Path, default=FOLDER, metavar="FOLDER",
                        help="where the maps are written (default: tools/maps)")
    folder = parser.parse_args(argv).folder
    folder.mkdir(parents=True, exist_ok=True)
    for name, draw in MAPS.items():
        (folder / name).write_text(draw(), encoding="ascii")


if __name__ == "__main__":
    main()
