"""Track lists: two tracks of the same name are told apart."""

from __future__ import annotations

from racetrack.draft import Draft, save_draft
from racetrack.editing.files import templates, your_tracks


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
