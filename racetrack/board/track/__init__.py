"""The track: its model, its file and its geometry checks, importable from here.

- ``model``: ``Track``, ``Area``, ``Zone``, ``Collectable`` (values only);
- ``fileformat``: the YAML file, versions 1 and 2: ``load_track``, ``parse_track``, ``save_track``,
  the bundled tracks and ``find_track``;
- ``checks``: the geometric rules a well-formed track must keep (``geometry_problems``).
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
    load_track,
    parse_track,
    read_track,
    save_track,
    track_data,
    track_from_data,
    track_from_document,
    track_to_data,
    track_to_yaml,
)
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
    "geometry_problems", "is_track_folder_file", "load_track", "parse_track", "read_track",
    "save_track", "track_data", "track_from_data", "track_from_document", "track_to_data",
    "track_to_yaml",
]
