"""Track lists: two tracks of the same name are told apart; maps from elsewhere open as
drawings."""

from __future__ import annotations

import pytest

from racetrack.base.errors import FileProblemError
from racetrack.board.track.draft import Draft, load_draft, save_draft
from racetrack.editing.files import open_drawing, templates, your_tracks
from tests.board.track.maps.test_picture import oval
from tests.board.track.maps.test_textmap import KARO


def test_two_tracks_of_the_same_name_are_told_apart(tmp_path):
    save_draft(Draft(name="Loop"), tmp_path / "loop.yaml")
    save_draft(Draft(name="Loop"), tmp_path / "loop-copy.yaml")
    save_draft(Draft(name="Bend"), tmp_path / "bend.yaml")
    (tmp_path / "broken.yaml").write_text(": : :")
    labels = [entry.label for entry in your_tracks(tmp_path)]
    assert labels == ["Bend  ·  bend.yaml", "broken  ·  broken.yaml",
                      "Loop (1)  ·  loop-copy.yaml", "Loop (2)  ·  loop.yaml"]


def test_templates_start_with_the_empty_sheet_then_the_bundled_tracks():
    found = templates()
    assert found[0].path is None and found[0].name == "Empty sheet"
    assert any(entry.name == "Oval" and "bundled" in entry.detail for entry in found)


def test_maps_from_elsewhere_are_listed_beside_the_tracks(tmp_path):
    save_draft(Draft(name="Loop"), tmp_path / "loop.yaml")
    (tmp_path / "karo_ring.txt").write_text(KARO)
    (tmp_path / "notes.md").write_text("not a map")
    labels = [entry.label for entry in your_tracks(tmp_path)]
    assert labels == ["Karo ring  ·  karo_ring.txt, a map to import", "Loop  ·  loop.yaml"]


def test_a_map_opens_as_a_drawing_with_no_file_yet(tmp_path):
    source = tmp_path / "ring.txt"
    source.write_text(KARO)
    opened = open_drawing(source)
    assert opened.imported and opened.path is None
    assert opened.draft.start_points == ((1, 3), (2, 3)) and opened.draft.finish_area
    assert opened.note == "Imported ring.txt (a Karopapier map): save it to keep it"
    plain = tmp_path / "plain.png"
    oval(plain, mark=False)
    assert open_drawing(plain).note == "Imported plain.png (a picture): draw its start line (S)"
    bad = tmp_path / "bad.txt"
    bad.write_text("SOF\nSO\n")
    with pytest.raises(FileProblemError, match="ragged row"):
        open_drawing(bad)


def test_a_drawing_with_areas_saves_and_loads_back(tmp_path):
    source = tmp_path / "ring.txt"
    source.write_text(KARO)
    draft = open_drawing(source).draft
    save_draft(draft, tmp_path / "ring.yaml")
    assert load_draft(tmp_path / "ring.yaml") == draft
