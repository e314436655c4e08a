"""The camera: lattice coordinates <-> pixels, with zoom, pan and following a car."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

MIN_SCALE = 6.0
MAX_SCALE = 80.0


@dataclass
class Camera:
    """Maps the paper to the screen: ``screen = (world - centre) * scale + viewport centre``."""

    centre_x: float = 0.0
    centre_y: float = 0.0
    scale: float = 24.0
    width: int = 800
    height: int = 600
    offset_x: int = 0  # the viewport's left edge on the window
    offset_y: int = 0
    followed: bool = True  # False once the player pans by hand

    def to_screen(self, x: float, y: float) -> tuple[float, float]:
        return ((x - self.centre_x) * self.scale + self.offset_x + self.width / 2,
                (y - self.centre_y) * self.scale + self.offset_y + self.height / 2)

    def to_world(self, sx: float, sy: float) -> tuple[float, float]:
        return ((sx - self.offset_x - self.width / 2) / self.scale + self.centre_x,
                (sy - self.offset_y - self.height / 2) / self.scale + self.centre_y)

    def fit(self, bounds: tuple[float, float, float, float], margin: float = 1.5) -> None:
        """Show the whole of ``bounds`` (minx, miny, maxx, maxy)."""
        minx, miny, maxx, maxy = bounds
        self.centre_x, self.centre_y = (minx + maxx) / 2, (miny + maxy) / 2
        width, height = maxx - minx + 2 * margin, maxy - miny + 2 * margin
        self.scale = clamp(min(self.width / width, self.height / height), MIN_SCALE, MAX_SCALE)

    def zoom(self, factor: float, around: tuple[float, float] | None = None) -> None:
        """Zoom by ``factor``, keeping the world point under ``around`` (screen) still."""
        if around is None:
            around = (self.offset_x + self.width / 2, self.offset_y + self.height / 2)
        before = self.to_world(*around)
        self.scale = clamp(self.scale * factor, MIN_SCALE, MAX_SCALE)
        after = self.to_world(*around)
        self.centre_x += before[0] - after[0]
        self.centre_y += before[1] - after[1]

    def pan(self, dx_pixels: float, dy_pixels: float) -> None:
        self.centre_x -= dx_pixels / self.scale
        self.centre_y -= dy_pixels / self.scale
        self.followed = False

    def follow(self, x: float, y: float, ease: float = 1.0) -> None:
        """Move towards keeping (x, y) in view; ``ease`` 1 jumps, smaller glides."""
        self.centre_x += (x - self.centre_x) * ease
        self.centre_y += (y - self.centre_y) * ease

    def keep_inside(self, points: Iterable[tuple[float, float]],
                    box: tuple[float, float, float, float]) -> None:
        """Move the least that puts every point (on the paper) inside ``box`` (left, top,
        right, bottom on the screen), zooming out first where they are too far apart to fit
        (never past the smallest zoom): a car and the points it may go to, clear of the
        cards drawn over the paper."""
        found = list(points)
        if not found:
            return
        left, top, right, bottom = box
        xs, ys = [p[0] for p in found], [p[1] for p in found]
        spread_x, spread_y = max(xs) - min(xs), max(ys) - min(ys)
        room_x, room_y = max(1.0, right - left), max(1.0, bottom - top)
        if spread_x * self.scale > room_x or spread_y * self.scale > room_y:
            fits = min(room_x / spread_x if spread_x else MAX_SCALE,
                       room_y / spread_y if spread_y else MAX_SCALE)
            self.scale = clamp(fits, MIN_SCALE, self.scale)
        for low, high, lo_edge, hi_edge, axis in ((min(xs), max(xs), left, right, 0),
                                                  (min(ys), max(ys), top, bottom, 1)):
            first = self.to_screen(low, low)[axis]
            last = self.to_screen(high, high)[axis]
            shift = 0.0
            if last - first > hi_edge - lo_edge:  # still too wide at the smallest zoom
                shift = (lo_edge + hi_edge) / 2 - (first + last) / 2
            elif first < lo_edge:
                shift = lo_edge - first
            elif last > hi_edge:
                shift = hi_edge - last
            if axis == 0:
                self.centre_x -= shift / self.scale
            else:
                self.centre_y -= shift / self.scale


def clamp(value: float, low: float, high: float) -> float:
    return max(low, min(high, value))
