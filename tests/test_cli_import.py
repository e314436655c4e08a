"""``racetrack import``: a map in, a track file out and its summary; a bad map one line, exit 1."""

from __future__ import annotations

import subprocess
import sys

import pytest

from racetrack.board.track import find_track, load_track
from racetrack.board.track.draft import load_draft
from racetrack.cli import main
from tests.board.track.maps.test_picture import oval
from tests.board.track.maps.test_textmap import BARTO, KARO


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("RACETRACK_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def test_a_map_goes_to_your_tracks_folder_with_a_summary(tmp_path, home, capsys):
    source = tmp_path / "loop.txt"
    source.write_text(KARO)
    assert main(["import", str(source)]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    written = home / "data" / "tracks" / "loop.yaml"
    assert out == [f"wrote {written} (karo map): ok: 'Loop', 10 x 6 squares, 36 lattice points "
                   "on the track, 2 start positions, 1 lap; 1 checkpoint area; a finish area",
                   "it races by its source's rules, karopapier (another: racetrack play "
                   f"{written} --rules NAME)"]
    assert load_track(written).start_points == ((1, 3), (2, 3))
    assert load_track(written).rules == "karopapier"
    assert main(["validate", str(written)]) == 0
    assert main(["import", str(source)]) == 1  # never over a track already there
    assert "already exists; give -o" in capsys.readouterr().err


def test_output_name_and_format_can_be_given(tmp_path, home, capsys):
    source = tmp_path / "barto.dat"
    source.write_text(BARTO)
    out = tmp_path / "mine.yaml"
    assert main(["import", str(source), "--format", "grid", "-o", str(out), "--name",
                 "Barto's bend"]) == 0
    assert load_track(out).name == "Barto's bend"
    assert "it races by its source's rules, sutton-barto" in capsys.readouterr().out
    assert main(["import", str(source), "-o", str(out), "--scale", "0.5"]) == 0
    assert "note: --scale is for pictures" in capsys.readouterr().out
    assert main(["import", str(source), "--format", "karo", "-o", str(out)]) == 1
    assert "unknown cell code '#'" in capsys.readouterr().err


def test_a_map_races_and_solves_without_being_imported_first(tmp_path, home, capsys):
    """``play``, ``race``, ``solve`` and ``validate`` take a map as they take a track: it is
    imported on the way, with its source's rules."""
    import json

    from racetrack.board.track.maps import import_map

    source = tmp_path / "loop.txt"
    source.write_text(KARO)
    assert load_track(source) == import_map(source).track()
    assert main(["validate", str(source)]) == 0
    assert main(["solve", str(source), "--json"]) == 0
    on_map = json.loads(capsys.readouterr().out.splitlines()[-1])
    out = tmp_path / "loop.yaml"
    assert main(["import", str(source), "-o", str(out)]) == 0
    capsys.readouterr()
    assert main(["solve", str(out), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == on_map
    assert main(["race", str(source), "--driver", "expert", "--seed", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["rules"] == "karopapier"
    bad = tmp_path / "bad.txt"
    bad.write_text("SOOF\nSOO\n")
    assert main(["solve", str(bad)]) == 1
    assert capsys.readouterr().err.strip() == (
        f"error: {bad}:2: ragged row: 3 cells where the first row has 4; every row of a map "
        "is as wide as the others")
    unmarked = oval(tmp_path / "unmarked.png", mark=False)
    assert main(["solve", str(unmarked)]) == 1
    error = capsys.readouterr().err.strip()
    assert error.startswith(f"error: {unmarked}: missing 'start'") and "\n" not in error
    assert error.endswith(f"a drawing to finish first: racetrack edit {unmarked}")


def test_an_imported_map_races_by_its_sources_rules_unless_others_are_named(tmp_path, home,
                                                                            capsys):
    source = tmp_path / "loop.txt"
    source.write_text(KARO)
    out = tmp_path / "loop.yaml"
    assert main(["import", str(source), "-o", str(out)]) == 0
    assert "racetrack-track: 2" in out.read_text() and "rules: karopapier" in out.read_text()
    capsys.readouterr()
    assert main(["solve", str(out)]) == 0
    assert "(karopapier rules)" in capsys.readouterr().out
    assert main(["solve", str(out), "--rules", "gardner"]) == 0
    assert "(gardner rules)" in capsys.readouterr().out
    assert main(["solve", "oval"]) == 0  # a track that names none: Gardner's, as before
    assert "(gardner rules)" in capsys.readouterr().out


def test_a_track_naming_rules_the_game_does_not_have_is_refused_with_the_choices(tmp_path,
                                                                                capsys):
    track = tmp_path / "odd.yaml"
    text = find_track("oval").read_text().replace("racetrack-track: 1", "racetrack-track: 2")
    track.write_text(text.replace("name: Oval", "name: Oval\nrules: calvinball"))
    assert main(["validate", str(track)]) == 1
    err = capsys.readouterr().err
    assert "odd.yaml:3: unknown rule set 'calvinball'; valid rule sets: baker," in err
    track.write_text(find_track("oval").read_text().replace("name: Oval",
                                                            "name: Oval\nrules: levi"))
    assert main(["validate", str(track)]) == 1
    assert "new in track format version 2" in capsys.readouterr().err


def test_a_picture_without_a_start_line_is_written_as_a_drawing_to_finish(tmp_path, home,
                                                                          capsys):
    source = oval(tmp_path / "plain.png", mark=False)
    out = tmp_path / "plain.yaml"
    assert main(["import", str(source), "--scale", "0.1", "-o", str(out)]) == 1
    captured = capsys.readouterr()
    assert "note: no red mark for the start line: place it in the editor" in captured.out
    assert f"wrote {out} as a drawing to finish: racetrack edit {out}" in captured.err
    assert len(load_draft(out).holes) == 1


def test_bad_maps_are_one_line_and_exit_1_without_a_traceback(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("SOOF\nSOO\n")
    result = subprocess.run([sys.executable, "-m", "racetrack", "import", str(bad), "-o",
                             str(tmp_path / "out.yaml")], capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 1
    assert result.stderr.strip() == (
        f"error: {bad}:2: ragged row: 3 cells where the first row has 4; every row of a map "
        "is as wide as the others")
    assert not (tmp_path / "out.yaml").exists()
    usage = subprocess.run([sys.executable, "-m", "racetrack", "import", str(bad), "--scale",
                            "-1"], capture_output=True, text=True, timeout=60)
    assert usage.returncode == 2 and "expected a number above 0" in usage.stderr


def test_a_map_wider_than_the_paper_is_one_line_and_no_drawing(tmp_path, home, capsys):
    """Under the sheet's 1,000,000 lattice points, but 21,844 cells wide: no track of it can
    ever be valid, so nothing is written (not a drawing that can never be finished)."""
    wide = tmp_path / "wide.txt"
    width = 21_844
    wide.write_text("\n".join(["X" * width, "S" + "O" * (width - 2) + "F", "X" * width]) + "\n")
    assert main(["import", str(wide)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err == [f"error: {wide}:1: the map is 21,844 x 3 cells; the paper reaches at most "
                   "10,000 squares each way"]
    assert not (home / "data" / "tracks").exists() or not any((home / "data" / "tracks")
                                                              .iterdir())
    assert main(["race", str(wide)]) == 1 and len(capsys.readouterr().err.splitlines()) == 1


@pytest.mark.parametrize("stem, name", [
    ("ring\x1b[31m", "ring31m"), ("CON", "CON_"), ("nul .map", "nul _.map"), (".hidden", "hidden"),
    ("-rf", "rf"), ("x" * 251, "x" * 120), ("\x07", "imported"), ("COM\u00b9", "COM\u00b9_"),
])
def test_the_imported_track_is_named_from_the_map_made_safe(tmp_path, home, capsys, stem,
                                                            name):
    source = tmp_path / "maps" / f"{stem}.txt"
    source.parent.mkdir()
    try:
        source.write_text(KARO)
    except OSError:  # a name this file system refuses (too long): the map is copied shorter
        source = source.with_name(f"{stem[:200]}.txt")
        source.write_text(KARO)
        name = name[:120]
    assert main(["import", str(source)]) == 0, capsys.readouterr().err
    written = sorted(p.name for p in (home / "data" / "tracks").iterdir())
    assert written == [f"{name}.yaml"]
