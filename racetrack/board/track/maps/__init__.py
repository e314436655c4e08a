"""Maps from outside the game turned into its tracks: Karopapier's map codes, the character
grids of other racetrack programs, and pictures of drawn tracks.

``import_map`` reads a file of any of these (told apart by its content, or named by
``MapFormat``) and returns an ``Imported``: the drawing as a ``Draft`` (a complete track for
the cell formats; a picture may still need its start line placed in the editor), what kind of
map it was, and notes on what was left out. Every failure is one ``MapError`` line naming the
file. The formats are documented in ``docs/importing.md``.
"""

from __future__ import annotations

import enum
import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from racetrack.base.errors import MapError, Problem, TrackError
from racetrack.board.track.fileformat import bundled_tracks_folder
from racetrack.board.track.model import Track

if TYPE_CHECKING:
    from racetrack.board.track.draft import Draft


class MapFormat(enum.Enum):
    """The kinds of map ``racetrack import`` reads (``--format``)."""

    KARO = "karo"
    GRID = "grid"
    IMAGE = "image"


#: File name endings that are maps to import rather than track files.
MAP_SUFFIXES = (".txt", ".karo", ".map", ".grid", ".track", ".png", ".jpg", ".jpeg")
#: The bundled rule set each kind of map races by as its source does: Karopapier's for its
#: maps, Sutton & Barto's racetrack (the finish ends the race wherever the car would land) for
#: the character grids; none for a picture.
RULES_OF_FORMAT = {"karo": "karopapier", "grid": "sutton-barto"}
_PNG = b"\x89PNG\r\n\x1a\n"
_JPEG = b"\xff\xd8\xff"


@dataclass(frozen=True)
class Imported:
    """What an import gives: the drawing, the kind of map it was, and notes on it."""

    draft: Draft
    format: MapFormat
    notes: tuple[str, ...] = ()

    def track(self) -> Track:
        """The imported track, if it is complete; ``TrackError`` says what is missing."""
        return self.draft.to_track()

    @property
    def rules(self) -> str | None:
        """The bundled rule set the map races by as its source does: Karopapier's for its
        maps, Sutton & Barto's racetrack (the finish ends the race wherever the car would
        land) for the character grids; none for a picture."""
        return RULES_OF_FORMAT.get(self.format.value)

    @property
    def complete(self) -> bool:
        try:
            self.track()
        except TrackError:
            return False
        return True


def bundled_map_paths() -> list[Path]:
    """The maps shipped with the game to import (``tracks/maps``), sorted by file name."""
    folder = bundled_tracks_folder() / "maps"
    return sorted((p for p in folder.iterdir() if is_map_file(p)), key=lambda p: p.name) \
        if folder.is_dir() else []


def is_map_file(path: str | os.PathLike[str]) -> bool:
    """Whether a file's name says it is a map to import rather than a track file."""
    return Path(path).suffix.lower() in MAP_SUFFIXES


def detect_format(path: str | os.PathLike[str]) -> MapFormat:
    """Which kind of map a file holds, from its first bytes: a picture's signature, a
    ``dim:`` header or a grid's ``#`` and ``.`` characters, else Karopapier's letters."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(64 * 1024)
    except FileNotFoundError:
        raise MapError(Problem(str(path), None, "no such file")) from None
    except IsADirectoryError:
        raise MapError(Problem(str(path), None, "is a folder, not a file")) from None
    except OSError as exc:
        raise MapError(Problem(str(path), None,
                               f"cannot be read ({exc.strerror or exc})")) from None
    if head.startswith(_PNG) or head.startswith(_JPEG):
        return MapFormat.IMAGE
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if text[:4].lower() == b"dim:" or b"#" in text or b"." in text:
        return MapFormat.GRID
    return MapFormat.KARO


def import_map(path: str | os.PathLike[str], format: MapFormat | None = None,
               scale: float | None = None, name: str | None = None) -> Imported:
    """Read a map of any kind as a drawing of the game (``MapError`` if it cannot be read).

    ``scale`` is the picture's squares per pixel (ignored by the cell formats, whose cells are
    squares); ``name`` the track's name (default: from the file's name).
    """
    from racetrack.board.track.maps.cells import cells_to_track
    from racetrack.board.track.maps.grid import read_grid
    from racetrack.board.track.maps.karo import read_karo
    from racetrack.board.track.maps.picture import read_picture

    file = str(path)
    format = format or detect_format(path)
    name = name or track_name_for(path)
    if format is MapFormat.IMAGE:
        draft, notes = read_picture(path, scale, name)
        return Imported(draft, format, tuple(notes))
    from racetrack.board.track.draft import Draft  # imported here: loading a track file needs none

    cells = read_karo(path) if format is MapFormat.KARO else read_grid(path)
    track, notes = cells_to_track(cells, name, file)
    # The track keeps the name of its source's rules: a plain `racetrack play` and the New
    # race screen then race it as its makers did.
    return Imported(Draft.from_track(replace(track, rules=RULES_OF_FORMAT[format.value])), format,
                    tuple(notes))


def track_name_for(path: str | os.PathLike[str]) -> str:
    """A track's name from a file's: ``karo-hairpin_2.txt`` gives "Karo hairpin 2"; what a
    name cannot show (an escape sequence, a bell) is left out."""
    shown = "".join(char if char.isprintable() else " " for char in Path(path).stem)
    words = shown.replace("_", " ").replace("-", " ").split()
    text = " ".join(words)[:100] or "Imported map"
    return text[0].upper() + text[1:]
