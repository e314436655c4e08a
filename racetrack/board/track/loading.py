"""Opening a track from any file a player hands the game: a track file, or a map of another
program imported on the way.

The track file's reader (``fileformat``) knows its own format only. A map (``maps``) is read
into a draft, and a draft is written in that format; so the one function that opens either
sits here, above both, and the track package imports one way: model and checks, the file
format, drafts, maps, then this.
"""

from __future__ import annotations

import os
from dataclasses import replace

from racetrack.base.errors import Problem, TrackError
from racetrack.board.track.fileformat import load_track_file
from racetrack.board.track.maps import import_map, is_map_file
from racetrack.board.track.model import Track


def load_track(path: str | os.PathLike[str]) -> Track:
    """Read and validate a track file; raise ``TrackError`` listing every problem found.

    A map of another program (a Karopapier map, a character grid, a picture: a file whose name
    ``maps.is_map_file`` knows) is imported on the way, as ``racetrack import`` would write it,
    so every command races it as it races a track (``MapError`` if it cannot be read,
    ``TrackError`` if it is a drawing still to finish).
    """
    if not is_map_file(path):
        return load_track_file(path)
    imported = import_map(path)
    try:
        return replace(imported.track(), source=str(path))
    except TrackError as exc:  # a picture without its start line: the editor places it
        raise TrackError([Problem(str(path), None, f"{p.message}; a drawing to finish "
                                                   f"first: racetrack edit {path}")
                          for p in exc.problems]) from None
