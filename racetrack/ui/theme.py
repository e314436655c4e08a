"""Colours and fonts: graph paper, ink and coloured pencils.

Colours come from ``assets/palette.yaml`` (so the game can be restyled without code); fonts are
loaded once and kept, never per frame.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

import pygame
import yaml

Colour = tuple[int, int, int]

DEFAULT_PENCILS = {"red": (206, 44, 44), "blue": (36, 92, 196), "green": (36, 150, 72),
                   "orange": (232, 128, 24), "purple": (128, 64, 168), "black": (44, 44, 44)}


@dataclass(frozen=True)
class Palette:
    paper: Colour
    grid: Colour
    grid_major: Colour
    ink: Colour
    pencils: dict[str, Colour]

    def pencil(self, name: str) -> Colour:
        return self.pencils.get(name, self.pencils.get("black", (40, 40, 40)))


# Zone looks: a fill and an edge for each kind, so every zone reads differently on paper.
ZONE_COLOURS: dict[str, tuple[Colour, Colour]] = {
    "oil": ((70, 66, 60), (40, 36, 30)),
    "jump": ((250, 196, 90), (196, 120, 20)),
    "water": ((150, 196, 240), (60, 120, 200)),
    "pit": ((210, 210, 210), (120, 120, 120)),
    "upgrade": ((250, 170, 170), (190, 60, 60)),
    "downgrade": ((170, 230, 170), (50, 140, 60)),
}
START_COLOUR = (30, 140, 60)
FINISH_COLOUR = (200, 40, 40)
CHECKPOINT_COLOUR = (220, 130, 20)
PANEL = (255, 253, 246)
PANEL_EDGE = (200, 196, 180)
TEXT = (40, 40, 48)
MUTED = (120, 120, 128)
ILLEGAL = (150, 150, 150)
HIGHLIGHT = (255, 214, 90)


@cache
def palette() -> Palette:
    """The palette from the assets folder, with safe defaults for anything missing or wrong."""
    data: dict = {}
    try:
        path = Path(str(resources.files("racetrack.assets") / "palette.yaml"))
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except (OSError, ModuleNotFoundError, yaml.YAMLError):
        data = {}

    def colour(key: str, default: Colour) -> Colour:
        value = data.get(key)
        ok = isinstance(value, list) and len(value) == 3 and all(
            isinstance(v, int) and 0 <= v <= 255 for v in value)
        return tuple(value) if ok else default  # type: ignore[return-value]

    pencils = dict(DEFAULT_PENCILS)
    for name, value in (data.get("pencils") or {}).items():
        if isinstance(value, list) and len(value) == 3:
            pencils[str(name)] = tuple(int(v) for v in value)  # type: ignore[assignment]
    return Palette(colour("paper", (250, 248, 240)), colour("grid", (178, 206, 232)),
                   colour("grid-major", (140, 180, 220)), colour("ink", (34, 40, 56)), pencils)


PENCIL_ORDER = ("red", "blue", "green", "orange", "purple", "black", "brown", "pink")


@cache
def font(size: int, bold: bool = False) -> pygame.font.Font:
    """pygame's bundled font at a size (loaded once)."""
    made = pygame.font.Font(None, size)
    made.set_bold(bold)
    return made
