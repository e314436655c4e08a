"""Colours and fonts: graph paper, ink and coloured pencils.

Colours come from ``assets/palette.yaml`` (so the game can be restyled without code); fonts are
the bundled open-licence faces in ``assets/fonts`` (Inter for the window's words, Comic Neue
for the handwriting on the paper), loaded once per size and kept, never per frame.

Two choices of the player's change how things look everywhere: the UI scale (``ui_font`` and
``px`` grow with it) and colour-blind-safe pencils (``Palette.pencil``). The app sets them with
``configure`` when the window opens and whenever the settings change.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

import pygame
import yaml

log = logging.getLogger(__name__)

Colour = tuple[int, int, int]

DEFAULT_PENCILS = {"red": (206, 44, 44), "blue": (36, 92, 196), "green": (36, 150, 72),
                   "orange": (232, 128, 24), "purple": (128, 64, 168), "black": (44, 44, 44)}
#: The same pencils told apart by eyes that confuse red and green (Okabe and Ito's palette):
#: the names stay, the colours move apart in lightness and hue.
SAFE_PENCILS = {"red": (213, 94, 0), "blue": (0, 114, 178), "green": (0, 158, 115),
                "orange": (230, 159, 0), "purple": (204, 121, 167), "black": (40, 40, 40),
                "brown": (120, 80, 40), "pink": (240, 150, 200)}


@dataclass(frozen=True)
class Palette:
    paper: Colour
    grid: Colour
    grid_major: Colour
    ink: Colour
    pencils: dict[str, Colour]
    safe_pencils: dict[str, Colour] | None = None

    def pencil(self, name: str) -> Colour:
        pencils = self.safe_pencils if LOOKS.colour_blind and self.safe_pencils else self.pencils
        return pencils.get(name, pencils.get("black", (40, 40, 40)))


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
ERROR = (180, 40, 40)  # words that say something went wrong


@cache
def palette() -> Palette:
    """The palette from the assets folder, with safe defaults for anything missing or wrong."""
    data: dict = {}
    try:
        data = yaml.safe_load(asset("palette.yaml").read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError):
        data = {}
    if not isinstance(data, dict):
        data = {}

    def colour(key: str, default: Colour) -> Colour:
        value = data.get(key)
        ok = isinstance(value, list) and len(value) == 3 and all(
            isinstance(v, int) and 0 <= v <= 255 for v in value)
        return tuple(value) if ok else default  # type: ignore[return-value]

    def pencils(key: str, defaults: dict[str, Colour]) -> dict[str, Colour]:
        found = dict(defaults)
        for name, value in (data.get(key) or {}).items():
            if isinstance(value, list) and len(value) == 3 and all(
                    isinstance(v, int) and 0 <= v <= 255 for v in value):
                found[str(name)] = tuple(value)  # type: ignore[assignment]
        return found

    return Palette(colour("paper", (250, 248, 240)), colour("grid", (178, 206, 232)),
                   colour("grid-major", (140, 180, 220)), colour("ink", (34, 40, 56)),
                   pencils("pencils", DEFAULT_PENCILS),
                   pencils("pencils-colour-blind", SAFE_PENCILS))


def pale(colour: Colour, amount: float = 0.5) -> Colour:
    """A colour mixed with the paper, like a pencil pressed lightly."""
    paper = palette().paper
    return tuple(round(c + (p - c) * amount) for c, p in zip(colour, paper, strict=True))


PENCIL_ORDER = ("red", "blue", "green", "orange", "purple", "black", "brown", "pink")


@dataclass
class Looks:
    """The player's choices that change every drawing: set by ``configure``."""

    scale: float = 1.0         # the UI scale: 1 at 1280 x 800
    colour_blind: bool = False


LOOKS = Looks()

#: The bundled faces: (file, licence) for the window's words and the paper's handwriting.
FACES = {("ui", False): "Inter-Regular.otf", ("ui", True): "Inter-Bold.otf",
         ("hand", False): "ComicNeue-Regular.otf", ("hand", True): "ComicNeue-Bold.otf"}
#: Sizes are given in pygame's old default font's units (the layouts were made with it): the
#: bundled faces are drawn larger per point, so they are scaled down to the same width.
SIZE_RATIO = {"ui": 0.7, "hand": 0.8}


def configure(scale: float | None = None, colour_blind: bool | None = None) -> None:
    """Set the UI scale and the pencils (the app calls this from the settings)."""
    if scale is not None:
        LOOKS.scale = max(0.5, min(3.0, scale))
    if colour_blind is not None:
        LOOKS.colour_blind = colour_blind


def asset(*parts: str) -> Path:
    """A file in the bundled assets folder."""
    try:
        return Path(str(resources.files("racetrack.assets").joinpath(*parts)))
    except ModuleNotFoundError:
        # Running from a source tree: the assets are beside the package.
        return Path(__file__).resolve().parent.parent.parent.joinpath("assets", *parts)


@cache
def _face(kind: str, size: int, bold: bool) -> pygame.font.Font:
    path = asset("fonts", FACES[(kind, bold)])
    try:
        return pygame.font.Font(str(path), max(6, round(size * SIZE_RATIO[kind])))
    except (OSError, FileNotFoundError) as exc:  # a damaged install: pygame's own face
        log.warning("font %s not loaded (%s); using the default", path.name, exc)
        made = pygame.font.Font(None, size)
        made.set_bold(bold)
        return made


def font(size: int, bold: bool = False) -> pygame.font.Font:
    """The window's face (Inter) at a size, not scaled (loaded once per size)."""
    return _face("ui", size, bold)


def ui_font(size: int, bold: bool = False) -> pygame.font.Font:
    """The window's face at a size grown with the UI scale."""
    return _face("ui", round(size * LOOKS.scale), bold)


def gui_font(points: int, bold: bool = False) -> pygame.font.Font:
    """The face pygame_gui draws a widget's words in, at the size its JSON theme gives
    (grown with the UI scale): to fit words to a button before making it."""
    return _face("ui", round(points * LOOKS.scale / SIZE_RATIO["ui"]), bold)


def hand(size: int, bold: bool = False) -> pygame.font.Font:
    """The handwriting on the paper (Comic Neue): labels, numbers, names."""
    return _face("hand", size, bold)


def px(value: float) -> int:
    """A length in the window's layout, grown with the UI scale."""
    return round(value * LOOKS.scale)


def clear_fonts() -> None:
    """Forget loaded fonts (they die with the pygame session that made them)."""
    _face.cache_clear()


