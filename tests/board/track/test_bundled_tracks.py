"""The bundled tracks: varied, raceable, and Riddler-opolis has its known optimum."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from racetrack.board.course import Course
from racetrack.board.track import bundled_track_paths, find_track, load_track
from tests.reference_bfs import fewest_moves


def test_riddler_opolis_takes_twelve_moves_from_0_minus_5():
    track = load_track(find_track("riddler-opolis"))
    assert fewest_moves(track, start=(0, -5)) == 12


def test_the_oval_is_finishable():
    assert fewest_moves(load_track(find_track("oval"))) is not None


def test_the_bundled_set_covers_what_players_look_for():
    tracks = {p.stem: load_track(p) for p in bundled_track_paths()}
    assert len(tracks) >= 8
    assert any(not t.is_circuit for t in tracks.values()), "a point-to-point rally"
    assert any(t.laps > 1 and t.checkpoints for t in tracks.values()), "laps and checkpoints"
    kinds = {z.kind for t in tracks.values() for z in t.zones}
    assert {"oil", "jump", "water"} <= kinds
    assert max(len(Course(t).start_positions) for t in tracks.values()) >= 6
    assert any(len(t.holes) >= 2 and t.checkpoints for t in tracks.values()), "a figure-eight"


def test_an_installed_game_finds_its_bundled_tracks(tmp_path):
    """Installed from a wheel, the tracks' folder (it has no __init__.py) is a namespace
    package, whose resources are no plain path: the folder must be found all the same."""
    folder = tmp_path / "racetrack" / "bundled_tracks"
    folder.mkdir(parents=True)
    code = (f"import racetrack; racetrack.__path__.append({str(tmp_path / 'racetrack')!r}); "
            "from racetrack.board.track.fileformat import bundled_tracks_folder; "
            "print(bundled_tracks_folder())")
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True)
    assert Path(found.stdout.strip()) == folder
