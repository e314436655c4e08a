"""The track: its model, its file and its geometry checks, drafts and maps, importable from here.

- ``model``: ``Track``, ``Area``, ``Zone``, ``Collectable`` (values only);
- ``checks``: the geometric rules a well-formed track must keep (``geometry_problems``);
- ``fileformat``: the YAML file, versions 1 and 2: ``load_track_file``, ``parse_track``,
  ``save_track``, the bundled tracks and ``find_track``;
- ``draft``: a track being drawn, complete or not, and its file;
- ``maps``: maps of other programs (Karopapier's, character grids, pictures) read as drafts;
- ``loading``: ``load_track``, a track from a track file or a map.

Each imports only those above it in this list.
"""

from racetrack.board.track.checks import MAX_LATTICE_POINTS, geometry_problems
from racetrack.board.track.fileformat import (
    FORMAT_KEY,
    FORMAT_VERSION,
    FORMAT_VERSIONS,
    MAX_COORD,
    MAX_CORNERS,
    MAX_HOLES,
    MAX_ITEMS,
    MAX_LAPS,
    MAX_VERTICES,
    TRACK_LIMITS,
    bundled_track_paths,
    find_track,
    is_track_folder_file,
    load_track_file,
    parse_track,
    read_track,
    save_track,
    track_data,
    track_from_data,
    track_from_document,
    track_to_data,
    track_to_yaml,
)
from racetrack.board.track.loading import load_track
from racetrack.board.track.model import (
    COLLECTABLE_KINDS,
    ZONE_KINDS,
    Area,
    Collectable,
    Track,
    Zone,
)

__all__ = [
    "COLLECTABLE_KINDS", "FORMAT_KEY", "FORMAT_VERSION", "FORMAT_VERSIONS", "MAX_COORD",
    "MAX_CORNERS", "MAX_HOLES", "MAX_ITEMS", "MAX_LAPS", "MAX_LATTICE_POINTS", "MAX_VERTICES",
    "TRACK_LIMITS", "ZONE_KINDS",
    "Area", "Collectable", "Track", "Zone", "bundled_track_paths", "find_track",
    "geometry_problems", "is_track_folder_file", "load_track", "load_track_file", "parse_track",
    "read_track", "save_track", "track_data", "track_from_data", "track_from_document",
    "track_to_data", "track_to_yaml",
]
