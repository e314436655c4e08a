"""Draw the bundled pictures of tracks (``tracks/maps/*.png``): pen and crayon on paper, with
the wobble of a hand, from fixed seeds, so they are the game's own and drawn the same again.

    python tools/draw_maps.py [OUT_FOLDER]        (default: tracks/maps)

- ``ink-kidney.png``: a kidney-shaped circuit, both walls in dark ink, a red pen stroke across
  the road for the start line;
- ``crayon-loop.png``: a loop coloured in with a blue crayon on cream paper, a red blob on
  the road for the start.

``racetrack import`` reads both (walls in ink; a coloured road); the README shows the first.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFilter

PAPER = (248, 245, 236)
INK = (32, 34, 48)
RED = (206, 38, 34)
CRAYON = (74, 122, 196)


def centreline(count: int, squash: float, dent: float) -> np.ndarray:
    """A closed curve round the origin of radius about 1: an oval with a dent (a kidney)."""
    t = np.linspace(0, 2 * math.pi, count, endpoint=False)
    radius = 1 - dent * np.exp(-((t - math.pi / 2) ** 2) / 0.25)
    return np.column_stack([np.cos(t) * radius, np.sin(t) * radius * squash])


def offset(curve: np.ndarray, distance: np.ndarray) -> np.ndarray:
    """The curve moved sideways by ``distance`` (per point) along its normals."""
    ahead = np.roll(curve, -1, axis=0) - np.roll(curve, 1, axis=0)
    normal = np.column_stack([ahead[:, 1], -ahead[:, 0]])
    normal /= np.linalg.norm(normal, axis=1, keepdims=True)
    return curve + normal * distance[:, None]


def wobble(rng: np.random.Generator, count: int, size: float) -> np.ndarray:
    """A hand's slow wobble: smooth noise of about ``size``."""
    knots = rng.normal(0, size, count // 12 + 1)
    return np.interp(np.arange(count), np.linspace(0, count, len(knots)), knots)


def sheet(size: tuple[int, int], paper: tuple[int, int, int], squash: float, dent: float,
          radius: float) -> tuple[Image.Image, ImageDraw.ImageDraw, np.ndarray]:
    """A blank sheet of paper, a pen on it, and a road's centreline placed on it in pixels."""
    image = Image.new("RGB", size, paper)
    curve = centreline(480, squash, dent) * radius + np.array(size) / 2
    return image, ImageDraw.Draw(image), curve


def ink_kidney(path: Path) -> None:
    rng = np.random.default_rng(1973)
    image, draw, curve = sheet((900, 600), PAPER, 0.62, 0.28, 360)
    count = len(curve)
    for side in (-1, 1):
        half = (0.16 + wobble(rng, count, 0.012)) * 360
        ring = offset(curve, side * half)
        points = [tuple(p) for p in ring] + [tuple(ring[0])]
        draw.line(points, fill=INK, width=5, joint="curve")
    # The start line: a red stroke across the top of the road, drawn a little aslant.
    top = curve[count * 3 // 4]
    draw.line([(top[0] + 6, top[1] - 62), (top[0] - 4, top[1] + 62)], fill=RED, width=6)
    image = image.filter(ImageFilter.GaussianBlur(0.6))
    image.save(path, optimize=True)


def crayon_loop(path: Path) -> None:
    rng = np.random.default_rng(1892)
    cream = (250, 244, 226)
    image, draw, curve = sheet((800, 560), cream, 0.7, 0.0, 330)
    count = len(curve)
    half = (0.13 + 0.05 * np.sin(np.linspace(0, 4 * math.pi, count))
            + wobble(rng, count, 0.01)) * 330
    draw.polygon([tuple(p) for p in offset(curve, half)], fill=CRAYON)
    draw.polygon([tuple(p) for p in offset(curve, -half)], fill=cream)
    # Crayon grain: paper showing through here and there.
    pixels = np.asarray(image).copy()
    grain = rng.random(pixels.shape[:2]) < 0.06
    road = (pixels == CRAYON).all(axis=2)
    pixels[grain & road] = (140, 170, 214)
    image = Image.fromarray(pixels)
    draw = ImageDraw.Draw(image)
    left = curve[count // 2]
    draw.ellipse((left[0] - 14, left[1] - 9, left[0] + 14, left[1] + 9), fill=RED)
    image.save(path, optimize=True)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", nargs="?", type=Path, metavar="OUT_FOLDER",
                        default=Path(__file__).resolve().parent.parent / "tracks" / "maps",
                        help="where the pictures are drawn (default: tracks/maps)")
    out = parser.parse_args(argv).out
    out.mkdir(parents=True, exist_ok=True)
    ink_kidney(out / "ink-kidney.png")
    crayon_loop(out / "crayon-loop.png")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
