"""The maps bundled to import (``tracks/maps``): one or more of every kind, each a valid track,
and each finishable by the plain cell-by-cell search."""

from __future__ import annotations

import numpy as np
from PIL import Image

from racetrack.board.track import track_from_data, track_to_data
from racetrack.board.track.maps import MapFormat, bundled_map_paths, import_map
from tests import cell_search
from tools import draw_maps


def test_there_are_maps_of_every_kind_and_each_is_a_valid_track():
    maps = {p.name: import_map(p) for p in bundled_map_paths()}
    assert len(maps) >= 6
    formats = [m.format for m in maps.values()]
    assert formats.count(MapFormat.KARO) >= 2 and formats.count(MapFormat.IMAGE) >= 2
    assert formats.count(MapFormat.GRID) >= 2
    for name, imported in maps.items():
        track = imported.track()
        assert track_from_data(track_to_data(track)) == track, name
        assert track.start_positions(), name
    images = [m for m in maps.values() if m.format is MapFormat.IMAGE]
    assert {"read as walls drawn in ink", "read as a coloured road on light paper"} <= {
        note for m in images for note in m.notes}


def test_the_hairpin_shows_the_traps_a_real_map_has():
    hairpin = next(p for p in bundled_map_paths() if p.name == "karo-hairpin.txt")
    imported = import_map(hairpin)
    assert imported.notes == ("dropped 1 island of road not joined to the start (2 cells)",
                              "checkpoint 4 lies only on islands not joined to the start: "
                              "left out")
    assert len(imported.track().checkpoint_areas) == 3


def test_the_cell_maps_can_be_finished():
    found = {}
    for path in bundled_map_paths():
        if path.suffix == ".png":
            continue
        found[path.name] = cell_search.fewest_moves(cell_search.CellMap.of_file(path))
    assert found == {"barto-bend.track": 8, "dim-chicane.grid": 10, "karo-hairpin.txt": 31,
                     "karo-zigzag.txt": 12}


def test_the_pictures_are_drawn_again_the_same(tmp_path):
    draw_maps.main([str(tmp_path)])
    for path in bundled_map_paths():
        if path.suffix == ".png":
            again = np.asarray(Image.open(tmp_path / path.name).convert("RGB"))
            bundled = np.asarray(Image.open(path).convert("RGB"))
            assert np.abs(again.astype(int) - bundled).max() <= 2, path.name
