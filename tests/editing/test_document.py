"""The drawing's file and autosave when two copies of the game share the data folder."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest

from racetrack.board.track.draft import Draft, load_draft
from racetrack.editing.document import Document, autosave_path

ROOT = Path(__file__).resolve().parents[2]
SQUARE = Draft(name="Square", outer=((0, 0), (10, 0), (10, 10), (0, 10)))

#: Another copy of the game: takes its editor's autosave, says which, and keeps it until told.
OTHER = """
import sys
from racetrack.editing.document import autosave_path
print(autosave_path().name, flush=True)
sys.stdin.readline()
"""


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("RACETRACK_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def test_each_copy_of_the_game_keeps_its_own_autosave(home):
    other = subprocess.Popen([sys.executable, "-c", OTHER], cwd=ROOT, text=True,
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             env={"RACETRACK_HOME": str(home), "PATH": ""})
    try:
        assert other.stdout.readline().strip() == "editor-autosave.yaml"
        mine = autosave_path()
        assert mine == home / "data" / "editor-autosave-2.yaml"
        assert autosave_path() == mine  # the same for as long as this copy runs
    finally:
        other.communicate("\n", timeout=60)


def test_a_track_changed_by_another_copy_is_not_saved_over(home, tmp_path):
    track = tmp_path / "square.yaml"
    mine = Document(SQUARE, autosave=autosave_path())
    mine.write(track)
    theirs, _ = Document.of_file(track, tmp_path / "their-autosave.yaml")
    theirs.push(dataclasses.replace(theirs.draft, name="Theirs"))
    theirs.write(track)
    mine.push(dataclasses.replace(mine.draft, name="Mine"))
    with pytest.raises(FileExistsError, match="another copy of the game has changed"):
        mine.write(track)
    assert load_draft(track).name == "Theirs"
    mine.write(tmp_path / "square-mine.yaml")  # under another name: both kept
    assert load_draft(tmp_path / "square-mine.yaml").name == "Mine"
    mine.push(dataclasses.replace(mine.draft, name="Mine again"))
    mine.write(tmp_path / "square-mine.yaml")  # its own file, saved again: no question
