"""Pictures of drawn tracks: a PNG or JPEG of dark ink walls, or of a coloured road, on light
paper, traced into the track's outline.

The picture is read with Pillow (the core never touches pygame), reduced to a working size, and
every pixel sorted into paper, ink and a red mark. A picture with ink lines (at least one pixel
in a hundred dark) is walls drawn in ink: the road is the paper between them, small gaps in
the ink closed. Without ink it is a coloured road on light paper: the road is everything that
is not paper. The road's pixels are traced into polygons (shapely), the polygon that holds the
red mark is kept (or, without one, the largest one enclosed by ink, or the largest), its
pixel stairs simplified away, specks of holes dropped.

A red stroke across the road is the start line (and the finish, on a circuit): drawn along
the road it is taken as it lies; as a blob, the line across the road through it is the
shortest one. Cars race clockwise as the picture is seen (the editor flips the arrow with a
click). Without a red mark the drawing comes without a start line, to place in the editor.

``scale`` is squares of the graph paper per pixel of the picture (0.1: ten pixels a square);
by default the longer side of the picture is ``DEFAULT_SQUARES`` squares.
"""

from __future__ import annotations

import io
import math
import os
import warnings

import numpy as np
import shapely
from shapely.geometry import LineString, Polygon

from racetrack.base.errors import MapError, Problem
from racetrack.base.yamlio import read_bytes
from racetrack.board.geometry import Line
from racetrack.board.track.checks import MAX_LATTICE_POINTS
from racetrack.board.track.draft import Draft
from racetrack.board.track.fileformat import MAX_COORD, MAX_ITEMS, MAX_VERTICES
from racetrack.board.track.maps.cells import rectangles, run_count

#: The largest picture file read, and the most pixels decoded.
MAX_PICTURE_BYTES = 32 * 1024 * 1024
MAX_PICTURE_PIXELS = 16_000_000
#: The squares along the picture's longer side when no scale is given.
DEFAULT_SQUARES = 60
#: Pixels of the working picture per square, at most (more are averaged away), and its size.
WORK_PIXELS_PER_SQUARE = 8
MAX_WORK_PIXELS = 4_000_000
#: More runs of road than this (or than this share of its pixels), and the picture is speckle
#: (noise, a photograph), no drawing: a drawn road has a few runs a row.
MAX_RUNS = 60_000
MAX_RUNS_PER_PIXEL = 1 / 40
#: The least share of a drawing's pixels that is light paper.
MIN_PAPER = 0.2
#: The least area, in squares, of a traced road, and of a hole kept in it.
MIN_ROAD_AREA = 8.0
MIN_HOLE_AREA = 0.5


def read_picture(path: str | os.PathLike[str], scale: float | None,
                 name: str) -> tuple[Draft, list[str]]:
    """The drawing a picture shows, and notes on how it was read (``MapError`` if none)."""
    file = str(path)

    def fail(message: str) -> MapError:
        return MapError(Problem(file, None, message))

    pixels, squares_per_pixel, notes = _decode(read_bytes(path, MapError, MAX_PICTURE_BYTES),
                                               scale, fail)
    paper, ink, red = _classify(pixels)
    if paper.mean() < MIN_PAPER:
        raise fail(f"no track found: only {paper.mean():.0%} of the picture is light paper (a "
                   "photograph, or noise?); draw the walls in dark ink or the road in colour "
                   "on light paper")
    inked = ink.mean() >= 0.01
    if inked:
        road = ~_grow(_under(ink, red))  # walls in ink, small gaps closed
        notes.append("read as walls drawn in ink")
    else:
        road = ~_under(paper, red)
        notes.append("read as a coloured road on light paper")
    if run_count(road) > min(MAX_RUNS, road.size * MAX_RUNS_PER_PIXEL):
        raise fail("no track found: the picture is speckled all over (a photograph, or "
                   "noise?); draw the walls in dark ink or the road in colour on light paper")
    parts = _polygons(road, squares_per_pixel)
    marks = _polygons(red, squares_per_pixel) if red.any() else []
    mark = max(marks, key=lambda p: p.area) if marks else None
    if len(marks) > 1:
        notes.append(f"{len(marks)} red marks: the largest is the start line")
    chosen = _choose(parts, mark, pixels.shape, squares_per_pixel, inked)
    if chosen is None or chosen.area < MIN_ROAD_AREA:
        found = 0.0 if chosen is None else chosen.area
        raise fail(f"no track found: the largest enclosed region is {found:.1f} squares "
                   f"(at {_number(squares_per_pixel)} squares a pixel); draw the walls in dark "
                   "ink or the road in colour on light paper, or give a larger --scale")
    if len(parts) > 1:
        notes.append(f"dropped {len(parts) - 1} other region{'s' if len(parts) > 2 else ''} "
                     "not joined to the track")
    surface, dropped = _clean(chosen, squares_per_pixel)
    if dropped:
        notes.append(f"dropped {dropped} speck{'s' if dropped != 1 else ''} inside the road")
    outer = _ring(surface.exterior.coords, fail)
    holes = tuple(_ring(ring.coords, fail) for ring in surface.interiors)
    if len(holes) > MAX_ITEMS:
        raise fail(f"the road has {len(holes)} islands in it; a track holds at most "
                   f"{MAX_ITEMS} holes")
    start = _start_line(surface, mark) if mark is not None else None
    if mark is not None and start is None:
        notes.append("the red mark does not lie across the road: place the start line in "
                     "the editor")
    elif mark is None:
        notes.append("no red mark for the start line: place it in the editor")
    height, width = pixels.shape[:2]
    draft = Draft(name=name, outer=outer, holes=holes, start=start,
                  description=f"Imported from a picture ({_number(width * squares_per_pixel)}"
                              f" x {_number(height * squares_per_pixel)} squares).")
    return draft, notes


# --------------------------------------------------------------------------------------------
# Reading the picture


def _decode(data: bytes, scale: float | None, fail) -> tuple[np.ndarray, float, list[str]]:
    """The picture as an RGB array at the working size, and its squares per pixel."""
    from PIL import Image, UnidentifiedImageError

    notes: list[str] = []
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data))
            if image.format not in ("PNG", "JPEG"):
                raise fail(f"is a {image.format} picture; this game reads PNG and JPEG")
            width, height = image.size
            if width * height > MAX_PICTURE_PIXELS:
                raise fail(f"the picture is {width} x {height} pixels; the largest read is "
                           f"{MAX_PICTURE_PIXELS:,} pixels")
            if scale is None:
                scale = DEFAULT_SQUARES / max(width, height)
                notes.append(f"no --scale given: {_number(scale)} squares a pixel, "
                             f"{DEFAULT_SQUARES} squares along the longer side")
            if not (math.isfinite(scale) and scale > 0):
                raise fail(f"the scale must be a positive number of squares per pixel, not "
                           f"{scale!r}")
            across, down = width * scale, height * scale
            if (across + 1) * (down + 1) > MAX_LATTICE_POINTS:
                raise fail(f"at {_number(scale)} squares a pixel the picture is "
                           f"{across:,.0f} x {down:,.0f} squares; the largest sheet is "
                           f"{MAX_LATTICE_POINTS:,} lattice points")
            if max(across, down) > MAX_COORD:
                raise fail(f"at {_number(scale)} squares a pixel the picture is "
                           f"{across:,.0f} x {down:,.0f} squares; the paper reaches at most "
                           f"{MAX_COORD:,} squares each way")
            per_square = 1 / scale
            factor = max(1, math.floor(per_square / WORK_PIXELS_PER_SQUARE),
                         math.ceil(math.sqrt(width * height / MAX_WORK_PIXELS)))
            image = image.convert("RGB")
            if factor > 1:
                image = image.reduce(factor)
            pixels = np.asarray(image, dtype=np.uint8)
    except MapError:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        # Pillow refuses to open a picture beyond its own limit, far above ours, before it
        # tells the size: the picture is a picture, only too large.
        raise fail(f"the picture is more than {Image.MAX_IMAGE_PIXELS:,} pixels; the largest "
                   f"read is {MAX_PICTURE_PIXELS:,} pixels") from None
    except UnidentifiedImageError:
        raise fail("is not a picture this game can read (PNG or JPEG)") from None
    except (OSError, ValueError, SyntaxError, EOFError) as exc:
        raise fail(f"is a damaged picture ({exc})") from None
    return pixels, scale * factor, notes


def _classify(pixels: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per pixel: paper (light and grey), ink (dark, not red), a red mark."""
    rgb = pixels.astype(np.float32) / 255
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    light = 0.299 * r + 0.587 * g + 0.114 * b
    high, low = rgb.max(axis=2), rgb.min(axis=2)
    saturation = np.where(high > 0, (high - low) / np.maximum(high, 1e-6), 0)
    level = float(np.percentile(light, 90))  # the paper: the brightest large part
    red = (r > 0.45) & (r > 1.6 * g) & (r > 1.6 * b)
    ink = ~red & (((light < 0.55 * level) & (saturation < 0.35)) | (light < 0.3))
    paper = ~red & (light >= level - 0.15) & (saturation < 0.2)
    return paper, ink, red


def _under(wall: np.ndarray, red: np.ndarray) -> np.ndarray:
    """``wall`` with what the red mark hides filled in from the edges of the mark inwards,
    each pixel as most of its neighbours already are (a tie goes to the wall): where a red
    stroke crosses a wall the wall goes on under it, and where it lies on the road, road."""
    wall = wall & ~red
    hidden = red.copy()
    for _ in range(64):
        if not hidden.any():
            break
        known = ~hidden
        walls = np.zeros(wall.shape, dtype=np.int8)
        roads = np.zeros(wall.shape, dtype=np.int8)
        for shifted in _neighbours(wall & known):
            walls += shifted
        for shifted in _neighbours(~wall & known):
            roads += shifted
        settled = hidden & (walls + roads > 0)
        if not settled.any():
            break
        wall = wall | (settled & (walls >= roads))
        hidden &= ~settled
    return wall | hidden  # a mark too large to see under stays a wall


def _neighbours(mask: np.ndarray) -> list[np.ndarray]:
    """``mask`` moved one pixel down, up, right and left (nothing comes in at the edges): at
    each pixel, whether its neighbour on that side is marked."""
    moved = [np.zeros_like(mask) for _ in range(4)]
    moved[0][1:, :] = mask[:-1, :]
    moved[1][:-1, :] = mask[1:, :]
    moved[2][:, 1:] = mask[:, :-1]
    moved[3][:, :-1] = mask[:, 1:]
    return moved


def _grow(mask: np.ndarray) -> np.ndarray:
    """``mask`` grown by one pixel each way: closes gaps of two pixels in a wall of ink."""
    grown = mask.copy()
    for shifted in _neighbours(mask):
        grown |= shifted
    return grown


def _polygons(mask: np.ndarray, size: float) -> list[Polygon]:
    """The marked pixels as polygons in squares (pixel (row, column) is the square of side
    ``size`` with its top left corner at (column, row) * size)."""
    boxes = [shapely.box(c0 * size, r0 * size, (c1 + 1) * size, (r1 + 1) * size)
             for r0, r1, c0, c1 in rectangles(mask)]
    if not boxes:
        return []
    union = shapely.union_all(boxes)
    return list(union.geoms) if hasattr(union, "geoms") else [union]


def _choose(parts: list[Polygon], mark: Polygon | None, shape: tuple[int, ...], size: float,
            inked: bool) -> Polygon | None:
    """The road: the part holding most of the red mark; else, for ink walls, the largest part
    clear of the picture's edge (the paper around the track touches it); else the largest."""
    if not parts:
        return None
    if mark is not None:
        best = max(parts, key=lambda p: p.intersection(mark).area)
        if best.intersection(mark).area > 0:
            return best
    height, width = shape[:2]
    frame = shapely.box(size * 0.5, size * 0.5, (width - 0.5) * size, (height - 0.5) * size)
    inside = [p for p in parts if frame.contains(p)] if inked else parts
    return max(inside or parts, key=lambda p: p.area)


def _clean(surface: Polygon, size: float) -> tuple[Polygon, int]:
    """The pixel stairs simplified away, the corners on a thousandth of a square, and specks
    of holes dropped: one valid polygon, and how many holes went."""
    tolerance = min(0.5, max(size, 0.2))
    simple = shapely.simplify(surface, tolerance, preserve_topology=True)
    exact = shapely.set_precision(simple, 0.001)
    if not isinstance(exact, Polygon):  # a neck too thin for the grid: keep the largest part
        exact = max(getattr(exact, "geoms", [simple]), key=lambda p: p.area)
        exact = exact if isinstance(exact, Polygon) else simple
    kept = [ring for ring in exact.interiors if Polygon(ring).area >= MIN_HOLE_AREA]
    return Polygon(exact.exterior, kept), len(exact.interiors) - len(kept)


def _ring(coords, fail) -> tuple[tuple[float, float], ...]:
    points = [(_number(x), _number(y)) for x, y in list(coords)[:-1]]
    if len(points) > MAX_VERTICES:
        raise fail(f"the traced outline has {len(points):,} corners; a track's polygon holds "
                   f"at most {MAX_VERTICES:,} (give a smaller --scale)")
    return tuple(points)


def _number(value: float) -> float | int:
    """A coordinate to a thousandth of a square, a whole one as an int."""
    value = round(float(value), 3)
    return int(value) if value.is_integer() else value


# --------------------------------------------------------------------------------------------
# The start line


def _start_line(surface: Polygon, mark: Polygon) -> Line | None:
    """The start line the red mark draws: along the mark where it is a stroke, else the
    shortest line across the road through it; turned to the nearest lattice direction and
    through the lattice point of the road nearest the mark, so cars have places on it; its
    arrow clockwise round the picture."""
    point = _nearest_lattice_point(surface, mark.centroid)
    if point is None:
        return None
    reach = math.hypot(*np.subtract(surface.bounds[2:], surface.bounds[:2])) + 1
    direction = _stroke_direction(mark) or _across(surface, point, reach)
    if direction is None:
        return None
    step = _lattice_step(direction)
    length = math.hypot(*step)
    chord = _chord(surface, point, (step[0] / length, step[1] / length), reach)
    if chord is None:
        return None
    ends = [((x - point.x) * step[0] + (y - point.y) * step[1]) / length ** 2
            for x, y in (chord.coords[0], chord.coords[-1])]
    low, high = math.floor(min(ends) * 1000) / 1000, math.ceil(max(ends) * 1000) / 1000
    a = (_number(point.x + low * step[0]), _number(point.y + low * step[1]))
    b = (_number(point.x + high * step[0]), _number(point.y + high * step[1]))
    forward = (-step[1], step[0])
    pivot = _pivot(surface)
    spin = (point.x - pivot.x) * forward[1] - (point.y - pivot.y) * forward[0]
    if spin < 0:  # on screen (y down) a clockwise turn round the pivot has a positive cross
        forward = (step[1], -step[0])
    line = Line(a, b, forward)
    return None if line.is_degenerate else line


def _nearest_lattice_point(surface: Polygon, centre) -> shapely.Point | None:
    """The lattice point strictly inside the road nearest ``centre`` (within 3 squares)."""
    x0, y0 = round(centre.x), round(centre.y)
    near = [(x, y) for x in range(x0 - 3, x0 + 4) for y in range(y0 - 3, y0 + 4)]
    near.sort(key=lambda p: (math.dist(p, (centre.x, centre.y)), p[1], p[0]))
    inside = shapely.contains_properly(surface, shapely.points(near))
    found = [p for p, ok in zip(near, inside, strict=True) if ok]
    return shapely.Point(found[0]) if found else None


def _lattice_step(direction: tuple[float, float]) -> tuple[int, int]:
    """The lattice vector of smallest parts (each at most 3) nearest to ``direction``."""
    steps = [(p, q) for p in range(-3, 4) for q in range(0, 4)
             if (p, q) != (0, 0) and math.gcd(p, q) == 1 and (q > 0 or p > 0)]
    dx, dy = direction
    return max(steps, key=lambda s: abs(s[0] * dx + s[1] * dy) / math.hypot(*s))


def _stroke_direction(mark: Polygon) -> tuple[float, float] | None:
    """The direction a red stroke runs (its long side), or None for a blob."""
    box = shapely.oriented_envelope(mark)
    if not isinstance(box, Polygon):
        return None
    (x0, y0), (x1, y1), (x2, y2) = list(box.exterior.coords)[:3]
    one, two = math.hypot(x1 - x0, y1 - y0), math.hypot(x2 - x1, y2 - y1)
    if min(one, two) <= 0 or max(one, two) < 3 * min(one, two):
        return None
    dx, dy = (x1 - x0, y1 - y0) if one > two else (x2 - x1, y2 - y1)
    length = math.hypot(dx, dy)
    return dx / length, dy / length


def _across(surface: Polygon, point, reach: float) -> tuple[float, float] | None:
    """The direction of the shortest line across the road through ``point``."""
    found = []
    for angle in np.linspace(0, math.pi, 90, endpoint=False):
        direction = (math.cos(angle), math.sin(angle))
        chord = _chord(surface, point, direction, reach)
        if chord is not None:
            found.append((chord.length, direction))
    return min(found)[1] if found else None


def _chord(surface: Polygon, centre, direction: tuple[float, float],
           reach: float) -> LineString | None:
    """The piece of the line through ``centre`` along ``direction`` that lies on the road and
    holds ``centre``."""
    dx, dy = direction
    line = LineString([(centre.x - dx * reach, centre.y - dy * reach),
                       (centre.x + dx * reach, centre.y + dy * reach)])
    pieces = surface.intersection(line)
    pieces = getattr(pieces, "geoms", [pieces])
    found = [p for p in pieces if isinstance(p, LineString) and p.distance(centre) < 1e-6]
    return found[0] if found else None


def _pivot(surface: Polygon):
    """What the race goes round: the largest hole's middle, else the road's."""
    if surface.interiors:
        largest = max(surface.interiors, key=lambda ring: Polygon(ring).area)
        return Polygon(largest).centroid
    return surface.centroid
