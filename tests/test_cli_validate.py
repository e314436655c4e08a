"""``racetrack validate``: a summary line for good tracks, located one-line errors for bad ones."""

from __future__ import annotations

import subprocess
import sys

from racetrack.board.track import bundled_track_paths
from racetrack.cli import main
from tests.board.test_track import GOOD


def test_good_track_gives_a_summary(tmp_path, capsys):
    path = tmp_path / "box.yaml"
    path.write_text(GOOD)
    assert main(["validate", str(path)]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1
    assert "ok" in out[0] and "12 x 12 squares" in out[0] and "3 start positions" in out[0]


def test_bad_files_give_one_line_per_problem_and_fail(tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text(GOOD + "laps: 0\ncolour: red\n")
    good = tmp_path / "good.yaml"
    good.write_text(GOOD)
    assert main(["validate", str(bad), str(good)]) == 1
    captured = capsys.readouterr()
    errors = captured.err.strip().splitlines()
    assert len(errors) == 2 and all(line.startswith(f"error: {bad}:") for line in errors)
    assert "ok" in captured.out


def test_bundled_tracks_are_valid_by_name(capsys):
    names = [p.stem for p in bundled_track_paths()]
    assert main(["validate", *names]) == 0
    assert capsys.readouterr().out.count(": ok:") == len(names)


def test_no_traceback_for_hostile_input(tmp_path):
    hostile = tmp_path / "hostile.yaml"
    hostile.write_text("!!python/object/new:os.system [echo hacked]\n")
    binary = tmp_path / "binary.yaml"
    binary.write_bytes(bytes(range(256)))
    result = subprocess.run([sys.executable, "-m", "racetrack", "validate", str(hostile),
                             str(binary), str(tmp_path / "missing.yaml")],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr and "hacked" not in result.stdout
    assert len(result.stderr.strip().splitlines()) == 3


def test_control_characters_never_reach_the_terminal(tmp_path, capsys):
    """A file name (or anything else printed) holding an escape sequence is printed escaped:
    it cannot set the terminal's title or clear its screen."""
    name = "box\x1b]0;pwned\x07\x1b[2J.yaml"
    (tmp_path / name).write_text(GOOD)
    (tmp_path / f"bad-{name}").write_text(GOOD + "colour: red\n")
    assert main(["validate", str(tmp_path / name), str(tmp_path / f"bad-{name}")]) == 1
    captured = capsys.readouterr()
    for line in (captured.out + captured.err).splitlines():
        assert "\x1b" not in line and "\x07" not in line and line.isprintable()
    assert "box\\x1b]0;pwned\\x07\\x1b[2J.yaml: ok" in captured.out
