"""Round trips: a map written in each cell format imports to a track whose solver optimum under
the Karopapier rules is the plain cell search's (``tests/cell_search.py``, which shares nothing
with the game), and every bundled map races under them.

The map below has two checkpoints that must be passed in either order and direction (the
route passes 1 going east and 2 going west), a passage of single cells that meet only at their
corners, and finish cells beside the start."""

from __future__ import annotations

import numpy as np
import pytest

from racetrack.board.course import Course
from racetrack.board.track.maps import bundled_map_paths, import_map
from racetrack.engine.transition import Cars, transition_for
from racetrack.rules import load_rules
from racetrack.search.solver import solve
from tests import cell_search

KARO = """\
XXXXXXXXXXXX
XSOOOO1OOOOX
XSOOOO1OOOOX
XOXXXXXXXOOX
XFXXXXXXXOOX
XFOXXXXXXOXX
XXOOX2XXOXXX
XXXOO2OOXXXX
XXXXXXXXXXXX
"""
#: The same road in Sutton & Barto's characters (no checkpoints: the grid has none).
BARTO = KARO.translate(str.maketrans("XO12", "#..."))
#: And with a ``dim:`` header.
DIM = "dim: 9 12\n" + KARO.translate(str.maketrans("XOSF12", "x.sg.."))


#: A shaft down to a short straight whose finish cells lie on the map's right edge, nothing
#: beyond them: a car that must land on the road brakes for them; where the finish ends the
#: race wherever the car would land (``finish.landing: anywhere``), it runs over them at speed,
#: off the map, a move sooner.
EDGE = """\
XXXXXX
XSSXXX
XOOXXX
XOOXXX
XOOXXX
XOOXXX
XOOXXX
XOOXXX
XOOOOF
XOOOOF
XXXXXX
"""
EDGE_FORMATS = [
    ("edge.txt", EDGE, cell_search.CellMap.karo(EDGE)),
    ("edge.track", EDGE.translate(str.maketrans("XO", "#.")),
     cell_search.CellMap(EDGE.translate(str.maketrans("XO", "#.")).split(), ".SF", "S", "F")),
    ("edge.grid", "dim: 11 6\n" + EDGE.translate(str.maketrans("XOSF", "x.sg")),
     cell_search.CellMap(EDGE.translate(str.maketrans("XOSF", "x.sg")).split(), ".sg", "s",
                         "g")),
]


def optimum(path, rules="karopapier") -> int | None:
    track = import_map(path).track()
    ruleset = load_rules(rules)
    found = solve(Course.for_rules(track, ruleset), ruleset)
    return None if found is None else found.moves


@pytest.mark.parametrize(("name", "text", "cells"), [
    ("karo.txt", KARO, cell_search.CellMap.karo(KARO)),
    ("barto.track", BARTO, cell_search.CellMap(BARTO.split(), ".SF", "S", "F")),
    ("dim.grid", DIM, cell_search.CellMap(DIM.split()[3:], ".sg", "s", "g")),
])
def test_a_map_in_each_cell_format_solves_as_the_cell_search_does(tmp_path, name, text, cells):
    path = tmp_path / name
    path.write_text(text)
    expected = cell_search.fewest_moves(cells)
    assert expected is not None
    assert optimum(path) == expected


@pytest.mark.parametrize(("name", "text", "cells"), EDGE_FORMATS, ids=lambda v: str(v)[:10])
def test_a_finish_on_the_edge_is_run_over_at_speed_in_each_format(tmp_path, name, text, cells):
    path = tmp_path / name
    path.write_text(text)
    landing = cell_search.fewest_moves(cells)
    over = cell_search.fewest_moves(cells, finish_anywhere=True)
    assert over is not None and landing is not None and over < landing
    assert optimum(path, "sutton-barto") == over
    assert optimum(path, "karopapier") == landing
    assert import_map(path).rules == ("karopapier" if name.endswith(".txt")
                                      else "sutton-barto")


def test_the_checkpoints_make_the_route_longer():
    """Without its checkpoints the map is a short hop from the start cells to the finish;
    with them, the way round."""
    with_them = cell_search.fewest_moves(cell_search.CellMap.karo(KARO))
    without = cell_search.fewest_moves(cell_search.CellMap(BARTO.split(), ".SF", "S", "F"))
    assert with_them is not None and without is not None and with_them > without


@pytest.mark.parametrize("path", [p for p in bundled_map_paths() if p.suffix != ".png"],
                         ids=lambda p: p.name)
def test_every_bundled_cell_map_solves_as_the_cell_search_does(path):
    cells = cell_search.CellMap.of_file(path)
    assert optimum(path) == cell_search.fewest_moves(cells)
    assert optimum(path, "sutton-barto") == cell_search.fewest_moves(cells,
                                                                     finish_anywhere=True)


@pytest.mark.parametrize("path", [p for p in bundled_map_paths() if p.suffix == ".png"],
                         ids=lambda p: p.name)
def test_the_bundled_pictures_race_under_karopapier(path):
    assert optimum(path) is not None


def test_the_corner_between_two_diagonal_road_cells_is_passable_and_grass_is_not(tmp_path):
    path = tmp_path / "karo.txt"
    path.write_text(KARO)
    rules = load_rules("karopapier")
    transition = transition_for(Course.for_rules(import_map(path).track(), rules), rules)
    # (9, 5) → (8, 6) goes exactly through the corner between the two road cells; (9, 4) →
    # (8, 6) cuts through the grass cell (8, 5).
    cars = Cars(x=[9, 9], y=[5, 4], vx=[-1, 0], vy=[0, 1])
    moves = transition.candidates(cars)
    legal = {(int(r), int(x), int(y)) for r, x, y, ok in zip(moves.row, moves.tx, moves.ty,
                                                             moves.legal, strict=True) if ok}
    assert (0, 8, 6) in legal  # (9, 5) → (8, 6): through the corner
    assert (1, 8, 6) not in legal  # (9, 4) → (8, 6): through the grass cell (8, 5)
    for row, x, y in ((0, 8, 6), (1, 8, 6)):
        p = (int(cars.x[row]), int(cars.y[row]))
        assert cell_search.legal(cell_search.CellMap.karo(KARO), p, (x, y)) == \
            ((row, x, y) in legal)
    assert np.any(moves.legal)


#: A ring of road cells for a picture: drawn a cell to ``PIXELS`` pixels, each cell centred on
#: a lattice point, with a red stroke across the top straight.
RING = """\
XXXXXXXXXXXXXX
XOOOOOOOOOOOOX
XOOOOOOOOOOOOX
XOOXXXXXXXXOOX
XOOXXXXXXXXOOX
XOOOOOOOOOOOOX
XOOOOOOOOOOOOX
XXXXXXXXXXXXXX
""".splitlines()
PIXELS = 8


def ring_picture(path):
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (len(RING[0]) * PIXELS, len(RING) * PIXELS), (250, 247, 238))
    draw = ImageDraw.Draw(image)
    half = PIXELS // 2
    for r, row in enumerate(RING):
        for c, code in enumerate(row):
            if code == "O":  # the cell of lattice point (c, r): squares c ± 1/2, r ± 1/2
                draw.rectangle((c * PIXELS - half, r * PIXELS - half, c * PIXELS + half - 1,
                                r * PIXELS + half - 1), fill=(80, 130, 200))
    draw.line((6 * PIXELS, PIXELS - half, 6 * PIXELS, 2 * PIXELS + half - 1),
              fill=(215, 35, 30), width=2)
    image.save(path)
    return path


def lap_moves(rows: list[str], x: int, top: float, bottom: float) -> int | None:
    """Fewest moves round a ring of cells from a standing start on an upright start line at
    ``x`` (from ``top`` to ``bottom``, crossed forwards going east), by the cell rule: the
    line passed forwards once more than backwards, a car on the line having reached it."""
    from fractions import Fraction

    cells = cell_search.CellMap(rows, "O", "", "")
    frontier = [((x, y), (0, 0), 1) for y in range(len(rows))
                if top < y < bottom and cells.is_road(x, y)]
    seen = set(frontier)
    for depth in range(1, 100):
        following = []
        for p, v, passed in frontier:
            for dx, dy in cell_search.SQUARE:
                w = (v[0] + dx, v[1] + dy)
                q = (p[0] + w[0], p[1] + w[1])
                if not cell_search.legal(cells, p, q):
                    continue
                now = passed
                if (p[0] < x) != (q[0] < x):  # from one side to the other
                    t = Fraction(x - p[0], q[0] - p[0])
                    if top <= p[1] + t * (q[1] - p[1]) <= bottom:
                        now += 1 if p[0] < x else -1
                if now == 2:
                    return depth
                if (q, w, now) not in seen:
                    seen.add((q, w, now))
                    following.append((q, w, now))
        frontier = following
    return None


def test_a_picture_of_cells_solves_as_the_lap_of_the_cell_search(tmp_path):
    imported = import_map(ring_picture(tmp_path / "ring.png"), scale=1 / PIXELS)
    track = imported.track()
    assert track.start is not None and track.start.forward == (1, 0)
    (x, top), (_, bottom) = sorted([track.start.a, track.start.b], key=lambda p: p[1])
    assert (top, bottom) == (0.5, 2.5)  # wall to wall across the top straight
    expected = lap_moves(RING, int(x), top, bottom)
    assert expected is not None
    ruleset = load_rules("karopapier")
    assert solve(Course.for_rules(track, ruleset), ruleset).moves == expected
