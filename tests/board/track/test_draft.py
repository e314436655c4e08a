"""Drafts: a complete one is a track, undo and redo, saving drafts (their problems in plain
words are the editor's checks: tests/editing/test_checks.py)."""

from __future__ import annotations

from racetrack.board.track import Zone, load_track
from racetrack.board.track.draft import Draft, History, across, flipped, load_draft, save_draft

BOX = ((0.0, 0.0), (30.0, 0.0), (30.0, 20.0), (0.0, 20.0))
HOLE = ((8.0, 8.0), (22.0, 8.0), (22.0, 12.0), (8.0, 12.0))


def complete() -> Draft:
    return Draft(name="Box", outer=BOX, holes=(HOLE,), start=across((15, 0), (15, 8)))


def test_a_complete_draft_is_a_track():
    assert complete().to_track().name == "Box"


def test_undo_and_redo_round_trip():
    history = History([Draft()])
    steps = [Draft(outer=BOX), complete(), complete().with_changes(laps=3)]
    for draft in steps:
        history.push(draft)
    assert history.current.laps == 3
    assert history.undo() and history.undo() and history.current == steps[0]
    assert history.redo() and history.current == steps[1]
    history.push(steps[1].with_changes(name="Other"))
    assert not history.redo()  # a new edit drops the undone future
    while history.undo():
        pass
    assert history.current == Draft()


def test_lines_flip_and_checkpoints_renumber():
    line = across((0, 0), (0, 4))
    assert flipped(flipped(line)) == line and flipped(line).forward == (4, 0)
    a, b = across((5, 0), (5, 4)), across((9, 0), (9, 4))
    draft = complete().with_changes(checkpoints=(a, b))
    assert draft.move_checkpoint(1, -1).checkpoints == (b, a)


def test_saving_a_valid_draft_makes_a_track_file_and_an_invalid_one_stays_a_draft(tmp_path):
    path = tmp_path / "box.yaml"
    draft = complete().with_changes(zones=(Zone("oil", ((2, 2), (4, 2), (4, 4))),))
    save_draft(draft, path)
    assert load_track(path) == draft.to_track()
    assert load_draft(path) == draft
    unfinished = Draft(name="Half", outer=BOX)
    save_draft(unfinished, tmp_path / "half.yaml")
    assert load_draft(tmp_path / "half.yaml") == unfinished


def test_a_draft_with_infinite_or_absurd_coordinates_keeps_only_what_is_on_the_paper(tmp_path):
    """The editor crashed on every open with an infinite point in its autosave."""
    from racetrack.board.track.draft import read_draft

    path = tmp_path / "draft.yaml"
    path.write_text("racetrack-track: 1\nname: \"Half\\0drawn\"\n"
                    "outer: [[0, 0], [.inf, 0], [12, .nan], [1e300, 2], [5, 5]]\n"
                    "start: {a: [6, 0], b: [6, 1e400], forward: [1, 0]}\n")
    draft, problems = read_draft(path)
    assert draft.outer == ((0, 0), (5, 5)) and draft.start is None
    assert draft.name == "Untitled"
    assert len(problems) == 5 and all(p.line for p in problems)


def test_a_damaged_autosave_is_kept_aside_and_said(tmp_path):
    from racetrack.board.track.draft import restore_autosave

    path = tmp_path / "editor-autosave.yaml"
    assert restore_autosave(path) == (None, "")
    path.write_text("racetrack-track: 1\nname: Mine\nouter: [[0, 0], [9, 0], [9, .inf]]\n")
    draft, message = restore_autosave(path)
    assert draft.name == "Mine" and draft.outer == ((0, 0), (9, 0))
    assert "kept as editor-autosave.yaml.bad" in message and not path.exists()
    path.write_text("name: [unclosed\n")
    draft, message = restore_autosave(path)
    assert draft is None and "could not be read" in message
    assert (tmp_path / "editor-autosave.yaml.bad-2").read_text() == "name: [unclosed\n"
    save_draft(Draft(name="Fine", outer=BOX), path)
    assert restore_autosave(path) == (Draft(name="Fine", outer=BOX),
                                      "Restored the track you were drawing")
